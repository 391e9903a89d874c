//! The parser: tokens → an abstract syntax tree with source spans, by recursive descent,
//! one function per precedence level.
//!
//! Precedence, loosest first:
//!
//! | level | operators | associativity |
//! |---|---|---|
//! | conditional | `c ? a : b` | right |
//! | or | `\|\|` | left |
//! | and | `&&` | left |
//! | comparison | `<` `<=` `>` `>=` `==` `!=` | none (`a < b < c` is an error) |
//! | additive | `+` `-` | left |
//! | multiplicative | `*` `/` | left |
//! | unary | `-x` `+x` `!x` | prefix |
//! | power | `^` (also `**`) | right, and tighter than unary minus: `-x^2 = -(x^2)`, `2^-1 = 0.5` |
//! | primary | number, name, call `f(a, …)`, `( … )`, element `u[i+1]`, derivative `a'`, `u[i]'`, `x''`, `sum(e for j = a..b)` | |
//!
//! `if(c, a, b)` is an ordinary call here; the compiler turns it into a conditional.
//! Elements, derivatives and sums are resolved by [`super::expand`] before compiling.
//!
//! Statements of the system format (one per line, or separated by `;`):
//! `param k = 100, c = 0.5` · `x' = v` · `x'' = -x` · `x(0) = 1, v(0) = 0` · `x'(0) = 0`
//! · `F = -k*x` (a definition) · `output energy = …`
//! · `event ground: x [, falling | rising] [, terminal]`. An equation, initial value or
//! definition of an element (`u[i]' = …`, `u[i](0) = …`, `u[0] = 0`) may end with a range
//! `for i = a..b`: one statement per integer i from a to b.

use super::error::{locate, suggest, ErrorKind, ExprError};
use super::lexer::{Span, Tok, Token};
use super::{MAX_DEPTH, MAX_HEIGHT};

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

/// An expression node and the source text it covers.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Levels of operators below and including this node (a leaf is 1).
    pub height: usize,
}

impl Expr {
    /// A leaf (number or name).
    pub fn leaf(kind: ExprKind, span: Span) -> Self {
        Self {
            kind,
            span,
            height: 1,
        }
    }

    /// A node over its children, refused if it would be higher than [`MAX_HEIGHT`].
    pub(crate) fn node(kind: ExprKind, span: Span) -> Result<Self, ExprError> {
        let h = match &kind {
            ExprKind::Num(_) | ExprKind::Name(_) | ExprKind::Deriv { index: None, .. } => 0,
            ExprKind::Index { index, .. }
            | ExprKind::Deriv {
                index: Some(index), ..
            } => index.height,
            ExprKind::Sum { body, range } => {
                body.height.max(range.from.height).max(range.to.height)
            }
            ExprKind::Unary(_, a) => a.height,
            ExprKind::Binary(_, a, b) => a.height.max(b.height),
            ExprKind::Call { args, .. } => args.iter().map(|a| a.height).max().unwrap_or(0),
            ExprKind::Cond(c, a, b) => c.height.max(a.height).max(b.height),
        };
        if h + 1 > MAX_HEIGHT {
            return Err(ExprError::new(
                ErrorKind::TooLong { limit: MAX_HEIGHT },
                span,
            ));
        }
        Ok(Self {
            kind,
            span,
            height: h + 1,
        })
    }
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Num(f64),
    Name(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `name(args…)`; `name_span` covers only the name.
    Call {
        name: String,
        name_span: Span,
        args: Vec<Expr>,
    },
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// An element of an indexed family, `u[i-1]`; `name_span` covers only the name.
    Index {
        name: String,
        name_span: Span,
        index: Box<Expr>,
    },
    /// A derivative on a right-hand side: `a'` (order 1), `x''` (order 2), `u[i]'`.
    Deriv {
        name: String,
        name_span: Span,
        index: Option<Box<Expr>>,
        order: u8,
    },
    /// `sum(body for j = a..b)`.
    Sum {
        body: Box<Expr>,
        range: Box<Range>,
    },
}

/// `for i = a..b`: an index variable over the integers a..=b (empty when b < a).
#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    pub var: Ident,
    pub from: Expr,
    pub to: Expr,
}

/// A name where it is declared.
#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// Which sign changes of an event function count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Both directions (the default).
    #[default]
    Both,
    /// Only from positive to negative (`falling`).
    Falling,
    /// Only from negative to positive (`rising`).
    Rising,
}

/// A statement of the system format.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `param k = 100` (one per name of a `param` line).
    Param { name: Ident, value: Expr },
    /// `x' = v` (order 1), `x'' = -x` (order 2), `u[i]' = … for i = 1..N`.
    Equation {
        name: Ident,
        index: Option<Expr>,
        order: u8,
        rhs: Expr,
        range: Option<Range>,
    },
    /// `x(0) = 1` (one per name of the line), `x'(0) = 0` (order 1),
    /// `u[i](0) = … for i = 1..N`.
    Initial {
        name: Ident,
        index: Option<Expr>,
        order: u8,
        value: Expr,
        range: Option<Range>,
    },
    /// `F = -k*x`: a named intermediate usable below it and in every equation; `u[0] = 0`
    /// defines an element outside a family's states (a boundary value).
    Define {
        name: Ident,
        index: Option<Expr>,
        value: Expr,
        range: Option<Range>,
    },
    /// `output energy = …`; a draw line's argument may carry the line's range
    /// (`draw rod(…) for i = 1..N`, src/expr/draw.rs), one output per element.
    Output {
        name: Ident,
        value: Expr,
        range: Option<Range>,
    },
    /// `event ground: x, falling, terminal`.
    Event {
        name: Ident,
        expr: Expr,
        direction: Direction,
        terminal: bool,
    },
    /// `coordinates x, y, φ` or `coordinates x[i], y[i], φ[i] for i = 1..N` (the
    /// generalized coordinates of a constrained system, in order; a range repeats the
    /// list for each i).
    Coordinates {
        items: Vec<(Ident, Option<Expr>)>,
        range: Option<Range>,
    },
    /// `mass m, m, J` (diagonal entries, continuing in coordinate order) or
    /// `mass(x, φ) = e` (one entry, symmetric).
    Mass {
        entry: Option<(Expr, Expr)>,
        values: Vec<Expr>,
        range: Option<Range>,
        span: Span,
    },
    /// `force y = -m*g`: a generalized force on a coordinate (several add up).
    Force {
        target: Expr,
        value: Expr,
        range: Option<Range>,
    },
    /// `constraint [name:] lhs = rhs`: Φ = lhs − rhs = 0.
    Constraint {
        name: Option<(Ident, Option<Expr>)>,
        lhs: Expr,
        rhs: Expr,
        range: Option<Range>,
        span: Span,
    },
}

/// Keywords that start statements; they cannot be used as names.
pub const KEYWORDS: &[&str] = &["param", "output", "event", "for"];

/// The words that start body, joint and gravity statements (`super::bodies`).
pub const BODY_STATEMENT_WORDS: &[&str] = &[
    "body",
    "revolute",
    "fixed",
    "translational",
    "spring",
    "torsion",
    "gravity",
];

/// The other words that start a statement in some form of the language: systems,
/// constrained mechanisms, drawings and slow/fast partitions.
const STATEMENT_WORDS: &[&str] = &[
    "param",
    "output",
    "event",
    "coordinates",
    "mass",
    "force",
    "constraint",
    "draw",
    "fast",
];

/// The statement word that `word` is a likely typo of ("bdy" → "body"); none for a
/// statement word itself.
fn misspelt_statement_word(word: &str) -> Option<String> {
    let words = || STATEMENT_WORDS.iter().chain(BODY_STATEMENT_WORDS).copied();
    if words().any(|w| w == word) {
        return None;
    }
    suggest(word, words())
}

/// A line that starts `word name…`, which no statement does unless `word` is a statement
/// word: when `word` is close to one, the error that names it (as "did you mean
/// \"body\"?"), at the word. Checked before the passes that rewrite bodies and joints
/// read the text, so that a misspelt `body` is reported on its own line, not as a
/// missing body in the joint that names it.
pub fn check_statement_words(text: &str) -> Result<(), ExprError> {
    let mut line_start = 0;
    for line in text.split('\n') {
        let indent = line.len() - line.trim_start().len();
        let trimmed = &line[indent..];
        let start = line_start + indent;
        line_start += line.len() + 1;
        let word_len = trimmed
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(trimmed.len());
        let (word, rest) = trimmed.split_at(word_len);
        let next = rest.trim_start();
        let starts_statement = rest.starts_with([' ', '\t'])
            && next.starts_with(|c: char| c.is_alphabetic() || c == '_');
        if word.is_empty() || !starts_statement {
            continue;
        }
        if let Some(keyword) = misspelt_statement_word(word) {
            return Err(ExprError::new(
                ErrorKind::MisspeltStatement {
                    word: word.to_string(),
                    keyword,
                },
                Span::new(start, start + word.len()),
            ));
        }
    }
    Ok(())
}

struct Parser<'a> {
    src: &'a str,
    tokens: &'a [Token],
    pos: usize,
    depth: usize,
    /// Whether the current statement is a comma-separated list (`param`, `x(0) = …`).
    list_statement: bool,
}

/// What a student most likely meant when `tok` follows a complete operand.
fn after_operand_hint(tok: &Tok) -> Option<String> {
    match tok {
        Tok::Name(_) | Tok::Num(_) | Tok::LParen => Some("write \"*\" for a product".into()),
        Tok::Assign => Some("write \"==\" to compare".into()),
        _ => None,
    }
}

fn expected(expected: &str, found: &Token, hint: Option<String>) -> ExprError {
    ExprError::new(
        ErrorKind::Expected {
            expected: expected.into(),
            found: found.tok.describe(),
            hint,
        },
        found.span,
    )
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, tokens: &'a [Token]) -> Self {
        Parser {
            src,
            tokens,
            pos: 0,
            depth: 0,
            list_statement: false,
        }
    }

    fn peek(&self) -> &'a Token {
        // The token list always ends with Eof and pos never passes it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_at(&self, k: usize) -> &'a Token {
        &self.tokens[(self.pos + k).min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> &'a Token {
        let t = self.peek();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if &self.peek().tok == tok {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: Tok, what: &str) -> Result<&'a Token, ExprError> {
        if self.peek().tok == tok {
            Ok(self.bump())
        } else {
            Err(expected(what, self.peek(), None))
        }
    }

    fn ident(&mut self, what: &str) -> Result<Ident, ExprError> {
        let t = self.peek();
        match &t.tok {
            Tok::Name(n) => {
                self.bump();
                Ok(Ident {
                    name: n.clone(),
                    span: t.span,
                })
            }
            _ => Err(expected(what, t, None)),
        }
    }

    fn enter(&mut self, at: Span) -> Result<(), ExprError> {
        self.depth += 1;
        // The whole expression is the first `enter`: 64 nested parentheses (calls,
        // unary operators, powers) are 64 levels, as the message says.
        if self.depth > MAX_DEPTH + 1 {
            return Err(ExprError::new(ErrorKind::TooDeep { limit: MAX_DEPTH }, at));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// conditional: or [? conditional : conditional]
    fn expr(&mut self) -> Result<Expr, ExprError> {
        self.enter(self.peek().span)?;
        let c = self.or()?;
        let out = if self.eat(&Tok::Question) {
            let a = self.expr()?;
            self.expect(Tok::Colon, "\":\" of a conditional c ? a : b")?;
            let b = self.expr()?;
            let span = c.span.to(b.span);
            Expr::node(ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), span)?
        } else {
            c
        };
        self.leave();
        Ok(out)
    }

    fn binary_level(
        &mut self,
        next: fn(&mut Self) -> Result<Expr, ExprError>,
        op_of: fn(&Tok) -> Option<BinOp>,
    ) -> Result<Expr, ExprError> {
        let mut lhs = next(self)?;
        while let Some(op) = op_of(&self.peek().tok) {
            self.bump();
            let rhs = next(self)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr::node(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span)?;
        }
        Ok(lhs)
    }

    fn or(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(Self::and, |t| (t == &Tok::OrOr).then_some(BinOp::Or))
    }

    fn and(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(Self::comparison, |t| {
            (t == &Tok::AndAnd).then_some(BinOp::And)
        })
    }

    fn comparison(&mut self) -> Result<Expr, ExprError> {
        let cmp = |t: &Tok| match t {
            Tok::Lt => Some(BinOp::Lt),
            Tok::Le => Some(BinOp::Le),
            Tok::Gt => Some(BinOp::Gt),
            Tok::Ge => Some(BinOp::Ge),
            Tok::EqEq => Some(BinOp::Eq),
            Tok::Ne => Some(BinOp::Ne),
            _ => None,
        };
        let lhs = self.additive()?;
        let Some(op) = cmp(&self.peek().tok) else {
            return Ok(lhs);
        };
        self.bump();
        let rhs = self.additive()?;
        if cmp(&self.peek().tok).is_some() {
            return Err(ExprError::new(
                ErrorKind::ChainedComparison,
                self.peek().span,
            ));
        }
        let span = lhs.span.to(rhs.span);
        Expr::node(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span)
    }

    fn additive(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(Self::multiplicative, |t| match t {
            Tok::Plus => Some(BinOp::Add),
            Tok::Minus => Some(BinOp::Sub),
            _ => None,
        })
    }

    fn multiplicative(&mut self) -> Result<Expr, ExprError> {
        self.binary_level(Self::unary, |t| match t {
            Tok::Star => Some(BinOp::Mul),
            Tok::Slash => Some(BinOp::Div),
            _ => None,
        })
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        let t = self.peek();
        let op = match t.tok {
            Tok::Minus => Some(UnOp::Neg),
            Tok::Bang => Some(UnOp::Not),
            Tok::Plus => None,
            _ => return self.power(),
        };
        self.bump();
        self.enter(t.span)?;
        let operand = self.unary()?;
        self.leave();
        let span = t.span.to(operand.span);
        match op {
            Some(op) => Expr::node(ExprKind::Unary(op, Box::new(operand)), span),
            None => Ok(operand),
        }
    }

    /// primary [^ unary] — right-associative, and the exponent may carry a sign.
    fn power(&mut self) -> Result<Expr, ExprError> {
        let base = self.primary()?;
        if !self.eat(&Tok::Caret) {
            return Ok(base);
        }
        self.enter(base.span)?;
        let exp = self.unary()?;
        self.leave();
        let span = base.span.to(exp.span);
        Expr::node(
            ExprKind::Binary(BinOp::Pow, Box::new(base), Box::new(exp)),
            span,
        )
    }

    fn primary(&mut self) -> Result<Expr, ExprError> {
        let t = self.peek();
        match &t.tok {
            Tok::Num(x) => {
                self.bump();
                Ok(Expr::leaf(ExprKind::Num(*x), t.span))
            }
            Tok::Name(n) => {
                self.bump();
                if n == "sum" && self.peek().tok == Tok::LParen {
                    return self.sum(t);
                }
                match self.peek().tok {
                    Tok::LParen => {}
                    Tok::LBracket => {
                        let index = self.bracket(t)?;
                        let order = self.primes(n)?;
                        let end = self.tokens[self.pos - 1].span;
                        let kind = if order == 0 {
                            ExprKind::Index {
                                name: n.clone(),
                                name_span: t.span,
                                index: Box::new(index),
                            }
                        } else {
                            ExprKind::Deriv {
                                name: n.clone(),
                                name_span: t.span,
                                index: Some(Box::new(index)),
                                order,
                            }
                        };
                        return Expr::node(kind, t.span.to(end));
                    }
                    Tok::Prime => {
                        let order = self.primes(n)?;
                        let end = self.tokens[self.pos - 1].span;
                        let kind = ExprKind::Deriv {
                            name: n.clone(),
                            name_span: t.span,
                            index: None,
                            order,
                        };
                        return Expr::node(kind, t.span.to(end));
                    }
                    _ => return Ok(Expr::leaf(ExprKind::Name(n.clone()), t.span)),
                }
                let open = self.bump();
                // One level: each argument's `expr` enters it.
                let mut args = Vec::new();
                if !self.eat(&Tok::RParen) {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(&Tok::Comma) {
                            continue;
                        }
                        if self.peek().tok == Tok::RParen {
                            break;
                        }
                        return Err(self.unclosed(open, "\",\" or \")\""));
                    }
                    self.bump();
                }
                let end = self.tokens[self.pos - 1].span;
                Expr::node(
                    ExprKind::Call {
                        name: n.clone(),
                        name_span: t.span,
                        args,
                    },
                    t.span.to(end),
                )
            }
            Tok::LParen => {
                self.bump();
                // One level: `expr` enters it.
                let mut inner = self.expr()?;
                if self.peek().tok != Tok::RParen {
                    return Err(self.unclosed(t, "\")\""));
                }
                let close = self.bump();
                inner.span = t.span.to(close.span);
                Ok(inner)
            }
            _ => Err(expected("a number, a name or \"(\"", t, None)),
        }
    }

    /// `[ index ]` after the name `at`.
    fn bracket(&mut self, _at: &Token) -> Result<Expr, ExprError> {
        let open = self.expect(Tok::LBracket, "\"[\"")?;
        // One level: `expr` enters it.
        let index = self.expr()?;
        if self.peek().tok != Tok::RBracket {
            return Err(self.unclosed_bracket(open));
        }
        self.bump();
        Ok(index)
    }

    /// `expected "]"` at the current token, pointing back at the `[`.
    fn unclosed_bracket(&self, open: &Token) -> ExprError {
        let (line, column, _) = locate(self.src, open.span);
        expected(
            "\"]\"",
            self.peek(),
            Some(format!(
                "the \"[\" at line {line}, column {column} is not closed"
            )),
        )
    }

    /// Zero, one or two primes after the name `at`; three are refused.
    fn primes(&mut self, name: &str) -> Result<u8, ExprError> {
        let mut order = 0u8;
        while self.peek().tok == Tok::Prime {
            if order == 2 {
                return Err(ExprError::new(
                    ErrorKind::ThirdOrder { name: name.into() },
                    self.peek().span,
                ));
            }
            self.bump();
            order += 1;
        }
        Ok(order)
    }

    /// `for var = from..to`, the current token being `for`.
    fn range(&mut self) -> Result<Range, ExprError> {
        self.bump();
        let var = self.ident("an index name (for i = 1..N)")?;
        self.expect(Tok::Assign, &format!("\"=\" after for {}", var.name))?;
        let from = self.expr()?;
        self.expect(
            Tok::DotDot,
            &format!("\"..\" of a range for {} = a..b", var.name),
        )?;
        let to = self.expr()?;
        Ok(Range { var, from, to })
    }

    fn at_for(&self) -> bool {
        matches!(&self.peek().tok, Tok::Name(n) if n == "for")
    }

    /// `sum(body for j = a..b)`, the current token being the `(` after `sum` (`at`).
    fn sum(&mut self, at: &Token) -> Result<Expr, ExprError> {
        let open = self.bump();
        self.enter(at.span)?;
        let body = self.expr()?;
        if !self.at_for() {
            return Err(expected(
                "\"for\" (sum(expression for j = a..b))",
                self.peek(),
                None,
            ));
        }
        let range = self.range()?;
        if self.peek().tok != Tok::RParen {
            return Err(self.unclosed(open, "\")\""));
        }
        let close = self.bump();
        self.leave();
        Expr::node(
            ExprKind::Sum {
                body: Box::new(body),
                range: Box::new(range),
            },
            at.span.to(close.span),
        )
    }

    /// An optional `for i = a..b` ending a statement about the element `index` of `name`
    /// (a range needs an indexed name).
    fn statement_range(
        &mut self,
        name: &Ident,
        index: &Option<Expr>,
    ) -> Result<Option<Range>, ExprError> {
        if !self.at_for() {
            return Ok(None);
        }
        if index.is_none() {
            return Err(ExprError::new(
                ErrorKind::RangeWithoutIndex {
                    name: name.name.clone(),
                },
                self.peek().span,
            ));
        }
        self.range().map(Some)
    }

    /// "expected ")" to close the "(" at column …" at the current token.
    fn unclosed(&self, open: &Token, what: &str) -> ExprError {
        let found = self.peek();
        let hint = match after_operand_hint(&found.tok) {
            Some(h) => Some(h),
            None => {
                let (line, column, _) = locate(self.src, open.span);
                Some(format!(
                    "the \"(\" at line {line}, column {column} is not closed"
                ))
            }
        };
        expected(what, found, hint)
    }

    /// The end of a statement: a newline, `;` or the end of the text.
    fn end_of_statement(&mut self) -> Result<(), ExprError> {
        let t = self.peek();
        match t.tok {
            Tok::Newline => {
                self.bump();
                Ok(())
            }
            Tok::Eof => Ok(()),
            // `param a = 1 b = 2`, `x(0) = 1 v(0) = 2`
            Tok::Name(_)
                if self.list_statement
                    && matches!(self.peek_at(1).tok, Tok::Assign | Tok::LParen) =>
            {
                Err(expected(
                    "\",\" or end of line",
                    t,
                    Some("separate the declarations of one line with commas".into()),
                ))
            }
            // `x' = v v' = -x`
            Tok::Name(_) if self.peek_at(1).tok == Tok::Prime => Err(expected(
                "an operator or end of line",
                t,
                Some("start each equation on a new line (or separate them with \";\")".into()),
            )),
            _ => Err(expected(
                "an operator or end of line",
                t,
                after_operand_hint(&t.tok),
            )),
        }
    }

    fn statement(&mut self, out: &mut Vec<Stmt>) -> Result<(), ExprError> {
        let t = self.peek();
        self.list_statement = matches!(&t.tok, Tok::Name(n) if n == "param")
            || self.peek_at(1).tok == Tok::LParen
            || (self.peek_at(1).tok == Tok::Prime && self.peek_at(2).tok == Tok::LParen);
        let Tok::Name(word) = &t.tok else {
            return Err(expected(
                "a statement (param, x' = …, x(0) = …, a definition, output or event)",
                t,
                None,
            ));
        };
        match (word.as_str(), &self.peek_at(1).tok) {
            ("coordinates", Tok::Name(_)) => {
                self.bump();
                let mut items = Vec::new();
                loop {
                    let at = self.peek();
                    let name = self.ident("a coordinate name")?;
                    let index = match self.peek().tok {
                        Tok::LBracket => Some(self.bracket(at)?),
                        _ => None,
                    };
                    items.push((name, index));
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                let range = if self.at_for() {
                    if items.iter().all(|(_, i)| i.is_none()) {
                        return Err(ExprError::new(
                            ErrorKind::RangeWithoutIndex {
                                name: items[0].0.name.clone(),
                            },
                            self.peek().span,
                        ));
                    }
                    Some(self.range()?)
                } else {
                    None
                };
                out.push(Stmt::Coordinates { items, range });
            }
            ("mass", next) if self.mass_statement(next) => {
                let start = self.bump().span;
                let mut entry = None;
                let mut values = Vec::new();
                if self.peek().tok == Tok::LParen {
                    self.bump();
                    let row = self.expr()?;
                    self.expect(
                        Tok::Comma,
                        "\",\" between the two coordinates of mass(a, b)",
                    )?;
                    let col = self.expr()?;
                    self.expect(Tok::RParen, "\")\" after mass(a, b")?;
                    self.expect_assign("mass(a, b)")?;
                    entry = Some((row, col));
                    values.push(self.expr()?);
                } else {
                    loop {
                        values.push(self.expr()?);
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                }
                let range = if self.at_for() {
                    Some(self.range()?)
                } else {
                    None
                };
                let end = self.tokens[self.pos.saturating_sub(1)].span;
                out.push(Stmt::Mass {
                    entry,
                    values,
                    range,
                    span: start.to(end),
                });
            }
            ("force", Tok::Name(_)) => {
                self.bump();
                let target = self.primary()?;
                self.expect_assign("the coordinate of a force")?;
                let value = self.expr()?;
                let range = if self.at_for() {
                    Some(self.range()?)
                } else {
                    None
                };
                out.push(Stmt::Force {
                    target,
                    value,
                    range,
                });
            }
            ("constraint", next) if self.constraint_statement(next) => {
                let start = self.bump().span;
                let name = self.constraint_name()?;
                let lhs = self.expr()?;
                self.expect(Tok::Assign, "\"=\" of a constraint (lhs = rhs)")?;
                let rhs = self.expr()?;
                let range = if self.at_for() {
                    Some(self.range()?)
                } else {
                    None
                };
                let end = rhs.span;
                out.push(Stmt::Constraint {
                    name,
                    lhs,
                    rhs,
                    range,
                    span: start.to(end),
                });
            }
            ("param", _) => {
                self.bump();
                loop {
                    let name = self.ident("a parameter name")?;
                    self.expect_assign(&name.name)?;
                    let value = self.expr()?;
                    out.push(Stmt::Param { name, value });
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
            }
            ("output", _) => {
                self.bump();
                let name = self.ident("an output name")?;
                self.expect_assign(&name.name)?;
                let value = self.expr()?;
                out.push(Stmt::Output {
                    name,
                    value,
                    range: None,
                });
            }
            ("event", _) => {
                self.bump();
                let name = self.ident("an event name")?;
                self.expect(Tok::Colon, "\":\" after the event name")?;
                let expr = self.expr()?;
                let mut direction = Direction::Both;
                let mut terminal = false;
                while self.eat(&Tok::Comma) {
                    let what = "falling, rising or terminal";
                    let opt = self.ident(what)?;
                    match opt.name.as_str() {
                        "falling" => direction = Direction::Falling,
                        "rising" => direction = Direction::Rising,
                        "terminal" => terminal = true,
                        _ => return Err(expected(what, &self.tokens[self.pos - 1], None)),
                    }
                }
                out.push(Stmt::Event {
                    name,
                    expr,
                    direction,
                    terminal,
                });
            }
            (_, Tok::Prime | Tok::LParen | Tok::Assign | Tok::LBracket) => loop {
                let name = self.ident("a state name")?;
                let index = match self.peek().tok {
                    Tok::LBracket => Some(self.bracket(t)?),
                    _ => None,
                };
                let order = self.primes(&name.name)?;
                let base = format!("{}{}", name.name, if index.is_some() { "[…]" } else { "" });
                let written = format!("{base}{}", "'".repeat(order.into()));
                match self.peek().tok {
                    Tok::Assign if order > 0 => {
                        self.bump();
                        let rhs = self.expr()?;
                        let range = self.statement_range(&name, &index)?;
                        out.push(Stmt::Equation {
                            name,
                            index,
                            order,
                            rhs,
                            range,
                        });
                        break;
                    }
                    Tok::Assign => {
                        self.bump();
                        let value = self.expr()?;
                        let range = self.statement_range(&name, &index)?;
                        out.push(Stmt::Define {
                            name,
                            index,
                            value,
                            range,
                        });
                        break;
                    }
                    Tok::LParen => {
                        self.bump();
                        let at = self.peek();
                        match at.tok {
                            Tok::Num(0.0) => {
                                self.bump();
                            }
                            Tok::Num(_) => {
                                return Err(ExprError::new(
                                    ErrorKind::InitialTime { name: written },
                                    at.span,
                                ))
                            }
                            _ => return Err(expected("0", at, None)),
                        }
                        self.expect(Tok::RParen, "\")\"")?;
                        if order > 1 {
                            return Err(ExprError::new(
                                ErrorKind::InitialOrder { name: base },
                                name.span,
                            ));
                        }
                        self.expect_assign(&format!("{written}(0)"))?;
                        let value = self.expr()?;
                        let range = self.statement_range(&name, &index)?;
                        let ranged = range.is_some();
                        out.push(Stmt::Initial {
                            name,
                            index,
                            order,
                            value,
                            range,
                        });
                        if ranged || !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    _ => {
                        let what = if order > 0 {
                            format!("\"=\" after {written}")
                        } else {
                            format!(
                                "\"'\" (an equation {written}' = …), \"(0)\" (an initial value) \
                                 or \"=\" (a definition) after \"{written}\""
                            )
                        };
                        return Err(expected(&what, self.peek(), None));
                    }
                }
            },
            _ => {
                if let Some(keyword) = misspelt_statement_word(word) {
                    return Err(ExprError::new(
                        ErrorKind::MisspeltStatement {
                            word: word.clone(),
                            keyword,
                        },
                        t.span,
                    ));
                }
                return Err(expected(
                    &format!(
                        "\"'\" (an equation {word}' = …), \"(0)\" (an initial value) \
                         or \"=\" (a definition) after \"{word}\""
                    ),
                    self.peek_at(1),
                    None,
                ));
            }
        }
        self.end_of_statement()
    }

    /// Whether `mass` followed by `next` starts a mass statement (not the state, definition
    /// or initial value of something called `mass`).
    fn mass_statement(&self, next: &Tok) -> bool {
        match next {
            Tok::Name(_) | Tok::Num(_) | Tok::Minus => true,
            Tok::LParen => {
                matches!(self.peek_at(2).tok, Tok::Name(_))
                    && matches!(self.peek_at(3).tok, Tok::Comma | Tok::LBracket)
            }
            _ => false,
        }
    }

    /// Whether `constraint` followed by `next` starts a constraint statement.
    fn constraint_statement(&self, next: &Tok) -> bool {
        match next {
            Tok::Prime | Tok::Assign | Tok::LBracket | Tok::Newline | Tok::Eof => false,
            Tok::LParen => !matches!(
                (&self.peek_at(2).tok, &self.peek_at(3).tok),
                (Tok::Num(_), Tok::RParen)
            ),
            _ => true,
        }
    }

    /// An optional `name:` or `name[i]:` before a constraint's equation.
    fn constraint_name(&mut self) -> Result<Option<(Ident, Option<Expr>)>, ExprError> {
        let at = self.peek();
        let Tok::Name(n) = &at.tok else {
            return Ok(None);
        };
        match self.peek_at(1).tok {
            Tok::Colon => {
                self.bump();
                self.bump();
                Ok(Some((
                    Ident {
                        name: n.clone(),
                        span: at.span,
                    },
                    None,
                )))
            }
            Tok::LBracket => {
                let save = self.pos;
                self.bump();
                let index = self.bracket(at)?;
                if self.eat(&Tok::Colon) {
                    Ok(Some((
                        Ident {
                            name: n.clone(),
                            span: at.span,
                        },
                        Some(index),
                    )))
                } else {
                    self.pos = save;
                    Ok(None)
                }
            }
            _ => Ok(None),
        }
    }

    fn expect_assign(&mut self, after: &str) -> Result<(), ExprError> {
        self.expect(Tok::Assign, &format!("\"=\" after {after}"))?;
        Ok(())
    }
}

/// Token lists come from [`super::lexer::lex`], which ends them with `Eof`; refuse others
/// rather than index past their end.
fn check_terminated(tokens: &[Token]) -> Result<(), ExprError> {
    match tokens.last() {
        Some(t) if t.tok == Tok::Eof => Ok(()),
        last => Err(ExprError::new(
            ErrorKind::Expected {
                expected: "end of text".into(),
                found: "a token list without an end".into(),
                hint: None,
            },
            last.map_or(Span::default(), |t| t.span),
        )),
    }
}

/// Parses a whole text as one expression (blank lines around it are allowed).
pub fn parse_expr(src: &str, tokens: &[Token]) -> Result<Expr, ExprError> {
    parse_line(src, tokens, false).map(|(e, _)| e)
}

/// Parses one expression optionally followed by `for var = a..b` (a draw line's family).
pub fn parse_expr_for(src: &str, tokens: &[Token]) -> Result<(Expr, Option<Range>), ExprError> {
    parse_line(src, tokens, true)
}

/// One expression, and its `for var = a..b` when `family` allows one.
fn parse_line(
    src: &str,
    tokens: &[Token],
    family: bool,
) -> Result<(Expr, Option<Range>), ExprError> {
    check_terminated(tokens)?;
    let mut p = Parser::new(src, tokens);
    while p.eat(&Tok::Newline) {}
    let e = p.expr()?;
    let range = if family && p.at_for() {
        Some(p.range()?)
    } else {
        None
    };
    while p.eat(&Tok::Newline) {}
    if p.peek().tok != Tok::Eof {
        let t = p.peek();
        return Err(if family {
            expected("the end of the line or \"for i = a..b\"", t, None)
        } else {
            let hint = matches!(t.tok, Tok::Name(_) | Tok::Num(_) | Tok::LParen)
                .then(|| "write \"*\" for a product".to_string());
            expected("an operator or the end of the expression", t, hint)
        });
    }
    Ok((e, range))
}

/// Parses the statements of a system text.
pub fn parse_statements(src: &str, tokens: &[Token]) -> Result<Vec<Stmt>, ExprError> {
    check_terminated(tokens)?;
    let mut p = Parser::new(src, tokens);
    let mut out = Vec::new();
    loop {
        while p.eat(&Tok::Newline) {}
        if p.peek().tok == Tok::Eof {
            return Ok(out);
        }
        p.statement(&mut out)?;
    }
}

/// Calls `f` with every name `e` uses.
pub fn visit_names(e: &Expr, f: &mut impl FnMut(&str)) {
    match &e.kind {
        ExprKind::Num(_) => {}
        ExprKind::Name(n) => f(n),
        ExprKind::Unary(_, a) => visit_names(a, f),
        ExprKind::Binary(_, a, b) => {
            visit_names(a, f);
            visit_names(b, f);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| visit_names(a, f)),
        ExprKind::Cond(c, a, b) => {
            visit_names(c, f);
            visit_names(a, f);
            visit_names(b, f);
        }
        ExprKind::Index { index, .. } => visit_names(index, f),
        ExprKind::Deriv { index, .. } => {
            if let Some(i) = index {
                visit_names(i, f)
            }
        }
        ExprKind::Sum { body, range } => {
            visit_names(body, f);
            visit_names(&range.from, f);
            visit_names(&range.to, f);
        }
    }
}
