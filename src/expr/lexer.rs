//! The lexer: source text → tokens with byte spans.
//!
//! Numbers are decimal with an optional fraction and exponent (`2`, `0.5`, `.5`, `1e-3`);
//! Fortran's double-precision exponent letter reads the same (`1.d4`, `2.5D-3`).
//! `..` (a range `1..N`) is its own token, so `1..N` is not the number `1.`.
//! Names start with a letter (any Unicode letter, so `θ` and `ω` work) or `_` and go on
//! with letters, digits and `_`. `#` starts a comment to the end of the line. Newlines
//! and `;` end statements. Pasted typography is accepted: `−` (U+2212) is a minus and
//! `×`, `·` are products; `**` is the same as `^`.

pub use super::error::Span;
use super::error::{ErrorKind, ExprError};

/// The kinds of token.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Num(f64),
    Name(String),
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    LParen,
    RParen,
    Comma,
    Prime,
    LBracket,
    RBracket,
    /// `..` of a range `for i = 1..N`.
    DotDot,
    Assign,
    Colon,
    Question,
    Lt,
    Le,
    Gt,
    Ge,
    EqEq,
    Ne,
    AndAnd,
    OrOr,
    Bang,
    /// A line break or `;`: the end of a statement.
    Newline,
    /// The end of the text.
    Eof,
}

impl Tok {
    /// How an error message names this token.
    pub fn describe(&self) -> String {
        let sym = |s: &str| format!("\"{s}\"");
        match self {
            Tok::Num(x) => format!("number {}", crate::error::num(*x)),
            Tok::Name(n) => format!("name \"{n}\""),
            Tok::Plus => sym("+"),
            Tok::Minus => sym("-"),
            Tok::Star => sym("*"),
            Tok::Slash => sym("/"),
            Tok::Caret => sym("^"),
            Tok::LParen => sym("("),
            Tok::RParen => sym(")"),
            Tok::Comma => sym(","),
            Tok::Prime => sym("'"),
            Tok::LBracket => sym("["),
            Tok::RBracket => sym("]"),
            Tok::DotDot => sym(".."),
            Tok::Assign => sym("="),
            Tok::Colon => sym(":"),
            Tok::Question => sym("?"),
            Tok::Lt => sym("<"),
            Tok::Le => sym("<="),
            Tok::Gt => sym(">"),
            Tok::Ge => sym(">="),
            Tok::EqEq => sym("=="),
            Tok::Ne => sym("!="),
            Tok::AndAnd => sym("&&"),
            Tok::OrOr => sym("||"),
            Tok::Bang => sym("!"),
            Tok::Newline => "end of line".into(),
            Tok::Eof => "end of text".into(),
        }
    }
}

/// A token and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Splits `src` into tokens, ending with [`Tok::Eof`].
pub fn lex(src: &str) -> Result<Vec<Token>, ExprError> {
    let mut out = Vec::new();
    let mut it = src.char_indices().peekable();
    while let Some(&(i, c)) = it.peek() {
        let single = |tok: Tok| Token {
            tok,
            span: Span::new(i, i + c.len_utf8()),
        };
        match c {
            '\n' | ';' => {
                it.next();
                out.push(single(Tok::Newline));
            }
            // A byte-order mark pasted from another editor is blank space too.
            c if c.is_whitespace() || c == '\u{feff}' => {
                it.next();
            }
            '#' => {
                while it.peek().is_some_and(|&(_, c)| c != '\n') {
                    it.next();
                }
            }
            '.' if src[i + 1..].starts_with('.') => {
                it.next();
                it.next();
                out.push(Token {
                    tok: Tok::DotDot,
                    span: Span::new(i, i + 2),
                });
            }
            '0'..='9' | '.' => out.push(number(src, &mut it)?),
            c if c.is_alphabetic() || c == '_' => {
                let mut end = i;
                while let Some(&(j, c)) = it.peek() {
                    if c.is_alphanumeric() || c == '_' {
                        end = j + c.len_utf8();
                        it.next();
                    } else {
                        break;
                    }
                }
                out.push(Token {
                    tok: Tok::Name(src[i..end].to_string()),
                    span: Span::new(i, end),
                });
            }
            _ => {
                it.next();
                let next = it.peek().map(|&(_, c)| c);
                let two = |tok: Tok| Token {
                    tok,
                    span: Span::new(i, i + 2),
                };
                let token = match (c, next) {
                    ('<', Some('=')) => two(Tok::Le),
                    ('>', Some('=')) => two(Tok::Ge),
                    ('=', Some('=')) => two(Tok::EqEq),
                    ('!', Some('=')) => two(Tok::Ne),
                    ('&', Some('&')) => two(Tok::AndAnd),
                    ('|', Some('|')) => two(Tok::OrOr),
                    ('*', Some('*')) => two(Tok::Caret),
                    _ => {
                        let tok = match c {
                            '+' => Tok::Plus,
                            '-' | '\u{2212}' => Tok::Minus,
                            '*' | '×' | '·' => Tok::Star,
                            '/' => Tok::Slash,
                            '^' => Tok::Caret,
                            '(' => Tok::LParen,
                            ')' => Tok::RParen,
                            ',' => Tok::Comma,
                            '[' => Tok::LBracket,
                            ']' => Tok::RBracket,
                            '\'' | '\u{2032}' => Tok::Prime,
                            '=' => Tok::Assign,
                            ':' => Tok::Colon,
                            '?' => Tok::Question,
                            '<' => Tok::Lt,
                            '>' => Tok::Gt,
                            '!' => Tok::Bang,
                            _ => {
                                return Err(ExprError::new(
                                    ErrorKind::UnexpectedChar(c),
                                    Span::new(i, i + c.len_utf8()),
                                ))
                            }
                        };
                        out.push(single(tok));
                        continue;
                    }
                };
                it.next();
                out.push(token);
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::new(src.len(), src.len()),
    });
    Ok(out)
}

/// digits [. digits] [(e|E|d|D) [+|-] digits], or . digits …; the iterator is advanced
/// past it. A `.` followed by another `.` is not a decimal point (`1..N`).
fn number(
    src: &str,
    it: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
) -> Result<Token, ExprError> {
    let start = it.peek().map_or(src.len(), |&(i, _)| i);
    let bytes = src.as_bytes();
    let digits_from = |mut j: usize| {
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut end = digits_from(start);
    let mut digits = end - start;
    if end < bytes.len() && bytes[end] == b'.' && bytes.get(end + 1) != Some(&b'.') {
        let e = digits_from(end + 1);
        digits += e - end - 1;
        end = e;
    }
    let mut bad = digits == 0;
    let exponent_at = end;
    if end < bytes.len() && matches!(bytes[end], b'e' | b'E' | b'd' | b'D') {
        // An exponent if digits (after an optional sign) follow; `2e` alone is an error,
        // `2exp(x)` is the number 2 followed by the name exp (reported by the parser).
        let mut j = end + 1;
        if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
            j += 1;
        }
        let e = digits_from(j);
        if e > j {
            end = e;
        } else if !src[end + 1..].starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            end = j;
            bad = true;
        }
    }
    while it.peek().is_some_and(|&(i, _)| i < end) {
        it.next();
    }
    let text = &src[start..end];
    let span = Span::new(start, end);
    // Fortran's `1.d4` is Rust's `1.e4`.
    let parsed = if exponent_at < end && matches!(bytes[exponent_at], b'd' | b'D') {
        format!(
            "{}e{}",
            &src[start..exponent_at],
            &src[exponent_at + 1..end]
        )
        .parse()
    } else {
        text.parse()
    };
    let value: f64 = match parsed {
        Ok(v) if !bad => v,
        _ => return Err(ExprError::new(ErrorKind::BadNumber(text.into()), span)),
    };
    if !value.is_finite() {
        return Err(ExprError::new(ErrorKind::NumberTooLarge(text.into()), span));
    }
    Ok(Token {
        tok: Tok::Num(value),
        span,
    })
}
