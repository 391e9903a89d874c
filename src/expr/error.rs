//! Errors of the expression language: a typed [`ErrorKind`] at a [`Span`] of the source,
//! turned into the core's [`OdeError::Parse`] with line, column, the source line and a
//! caret under the offending text. Also the "did you mean" suggestion for misspelt names.

use crate::error::OdeError;
use std::fmt;

/// What went wrong, independent of where.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// A character that starts no token.
    UnexpectedChar(char),
    /// A malformed number such as `1e`.
    BadNumber(String),
    /// A number literal beyond the floating-point range, such as `1e999`.
    NumberTooLarge(String),
    /// A constant part of an expression (`10^400`, `exp(1000)`) whose value overflows.
    ConstantOverflow,
    /// The parser wanted one thing and found another.
    Expected {
        expected: String,
        found: String,
        hint: Option<String>,
    },
    /// A name that is declared nowhere.
    UnknownName {
        name: String,
        suggestion: Option<String>,
    },
    /// A call of a function that does not exist.
    UnknownFunction {
        name: String,
        suggestion: Option<String>,
    },
    /// A call such as `x(1)` where `x` is not a function.
    NotAFunction { name: String },
    /// A function name used as a value, e.g. `sin * 2`.
    FunctionWithoutCall { name: String },
    /// A function called with the wrong number of arguments.
    WrongArity {
        name: String,
        expected: usize,
        got: usize,
    },
    /// A name that exists but may not be used here (a state in a parameter value…).
    NotAllowedHere { name: String, reason: String },
    /// A constrained system's statement that does not fit (see `super::constrained`).
    Constrained { message: String },
    /// A name declared twice.
    Duplicate {
        name: String,
        what: String,
        line: usize,
    },
    /// A declaration that uses a built-in name or a keyword.
    Reserved { name: String, what: String },
    /// An initial value for a name that has no equation.
    NoEquation { name: String },
    /// A state whose equation has no initial value `x(0) = …` (located at the equation).
    NoInitialValue { name: String },
    /// A system text without any `x' = …` equation.
    NoEquations,
    /// `x(1) = …`: initial values are given at t = 0.
    InitialTime { name: String },
    /// `x''' = …`: equations are of first or second order.
    ThirdOrder { name: String },
    /// `x''(0) = …`: a second-order state has initial values x(0) and x'(0).
    InitialOrder { name: String },
    /// `x' = … for i = 1..N` where x has no index.
    RangeWithoutIndex { name: String },
    /// `u[k]` with k outside the family's elements; `index` is the text written.
    OutOfRange {
        name: String,
        index: String,
        value: i64,
        lo: String,
        hi: String,
    },
    /// `u[k]` inside the family's range that is neither a state nor a definition.
    MissingElement { name: String, value: i64 },
    /// An index or a range bound that is not an integer.
    NotAnInteger { what: String, value: f64 },
    /// `v[1]` where v is not an indexed family.
    NotAFamily { name: String },
    /// Equations whose right-hand sides use each other's derivatives.
    DerivativeCycle { names: Vec<String> },
    /// `a < b < c`.
    ChainedComparison,
    /// Parentheses, unary operators or calls nested deeper than the limit.
    TooDeep { limit: usize },
    /// An expression with operators chained or nested beyond the limit.
    TooLong { limit: usize },
    /// An expression, a system or a compiled tape larger than the budget.
    TooLarge {
        what: String,
        limit: usize,
        unit: String,
    },
    /// A second initial value for the same state.
    DuplicateInitial { name: String, line: usize },
    /// A parameter or initial value that is not a finite number.
    NotFinite { what: String, value: f64 },
    /// A line starting with a word close to a statement word (`bdy lower: …`).
    MisspeltStatement { word: String, keyword: String },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mean = |f: &mut fmt::Formatter<'_>, s: &Option<String>| match s {
            Some(s) => write!(f, "; did you mean \"{s}\"?"),
            None => Ok(()),
        };
        match self {
            ErrorKind::UnexpectedChar(c) => write!(f, "unexpected character '{c}'"),
            ErrorKind::BadNumber(s) => write!(f, "malformed number \"{s}\""),
            ErrorKind::ConstantOverflow => write!(
                f,
                "this constant is too large (beyond the floating-point range, about 1.8e308)"
            ),
            ErrorKind::NumberTooLarge(s) => {
                write!(
                    f,
                    "number {s} is too large (beyond the floating-point range)"
                )
            }
            ErrorKind::Expected {
                expected,
                found,
                hint,
            } => {
                write!(f, "expected {expected}, found {found}")?;
                if let Some(h) = hint {
                    write!(f, "; {h}")?;
                }
                Ok(())
            }
            ErrorKind::UnknownName { name, suggestion } => {
                write!(f, "unknown name \"{name}\"")?;
                mean(f, suggestion)
            }
            ErrorKind::UnknownFunction { name, suggestion } => {
                write!(f, "unknown function \"{name}\"")?;
                mean(f, suggestion)
            }
            ErrorKind::NotAFunction { name } => {
                write!(f, "\"{name}\" is not a function; write \"*\" for a product")
            }
            ErrorKind::FunctionWithoutCall { name } => {
                write!(f, "\"{name}\" is a function; call it as {name}(…)")
            }
            ErrorKind::WrongArity {
                name,
                expected,
                got,
            } => {
                let s = if *expected == 1 { "" } else { "s" };
                write!(f, "{name} takes {expected} argument{s}, got {got}")
            }
            ErrorKind::Constrained { message } => write!(f, "{message}"),
            ErrorKind::MisspeltStatement { word, keyword } => write!(
                f,
                "no statement starts with \"{word}\"; did you mean \"{keyword}\"?"
            ),
            ErrorKind::NotAllowedHere { name, reason } => {
                write!(f, "\"{name}\" cannot be used here: {reason}")
            }
            ErrorKind::Duplicate { name, what, line } => {
                write!(f, "\"{name}\" is already declared as {what} on line {line}")
            }
            ErrorKind::Reserved { name, what } => {
                write!(f, "\"{name}\" is {what}; choose another name")
            }
            ErrorKind::NoEquation { name } => write!(
                f,
                "\"{name}\" has an initial value but no equation; add a line {name}' = …"
            ),
            ErrorKind::NoInitialValue { name } => {
                // x[3] of a family: the family's line is the one to write.
                let family = name
                    .split_once('[')
                    .map(|(base, _)| {
                        let prime = if name.ends_with('\'') { "'" } else { "" };
                        format!(" or {base}[i]{prime}(0) = … for i = 1..N")
                    })
                    .unwrap_or_default();
                write!(
                    f,
                    "\"{name}\" has no initial value; add a line {name}(0) = …{family} \
                     (a state does not start at 0 unless you say so)"
                )
            }
            ErrorKind::NoEquations => write!(
                f,
                "the system has no equations; write one per state, e.g. x' = v"
            ),
            ErrorKind::InitialTime { name } => {
                write!(f, "initial values are given at t = 0; write {name}(0) = …")
            }
            ErrorKind::ThirdOrder { name } => write!(
                f,
                "only first- and second-order equations can be written; introduce a state \
                 for {name}'', e.g. {name}'' = a and a' = …"
            ),
            ErrorKind::InitialOrder { name } => write!(
                f,
                "a second-order state takes {name}(0) and {name}'(0); {name}'' is given by \
                 its equation"
            ),
            ErrorKind::RangeWithoutIndex { name } => write!(
                f,
                "a range needs an indexed name, e.g. {name}[i]' = … for i = 1..N"
            ),
            ErrorKind::OutOfRange {
                name,
                index,
                value,
                lo,
                hi,
            } => {
                write!(f, "{name}[{index}] is outside {name}[{lo}..{hi}]")?;
                if index != &value.to_string() {
                    write!(f, " (it is {name}[{value}])")?;
                }
                Ok(())
            }
            ErrorKind::MissingElement { name, value } => write!(
                f,
                "{name}[{value}] is neither a state nor a definition; define it, e.g. \
                 {name}[{value}] = 0"
            ),
            ErrorKind::NotAnInteger { what, value } => write!(
                f,
                "{what} must be an integer, and is {}",
                crate::error::num(*value)
            ),
            ErrorKind::NotAFamily { name } => write!(
                f,
                "\"{name}\" has no elements [i]; declare them, e.g. {name}[i]' = … for i = 1..N"
            ),
            ErrorKind::DerivativeCycle { names } => {
                let primed: Vec<String> = names.iter().map(|n| format!("{n}'")).collect();
                write!(
                    f,
                    "the equations of {} define their derivatives through each other ({} → {}); \
                     write one of them without the other's derivative",
                    names.join(" and "),
                    primed.join(" → "),
                    primed.first().map_or("", String::as_str)
                )
            }
            ErrorKind::ChainedComparison => {
                write!(f, "comparisons cannot be chained; write a < x && x < b")
            }
            ErrorKind::TooDeep { limit } => {
                write!(f, "expression nested too deeply (more than {limit} levels)")
            }
            ErrorKind::TooLong { limit } => write!(
                f,
                "expression too long (more than {limit} operators deep); \
                 split it with definitions such as F = …"
            ),
            ErrorKind::TooLarge { what, limit, unit } => {
                write!(f, "{what} is too large (more than {limit} {unit})")
            }
            ErrorKind::DuplicateInitial { name, line } => {
                write!(f, "\"{name}\" already has an initial value on line {line}")
            }
            ErrorKind::NotFinite { what, value } => write!(
                f,
                "{what} is {}, not a finite number",
                crate::error::num(*value)
            ),
        }
    }
}

/// An error of the expression language at a place in the source text.
#[derive(Debug, Clone, PartialEq)]
pub struct ExprError {
    pub kind: ErrorKind,
    pub span: Span,
}

impl ExprError {
    pub fn new(kind: ErrorKind, span: Span) -> Self {
        Self { kind, span }
    }

    /// The core's error: 1-based line and column (in characters) of the span's start,
    /// the message, and a snippet: the source line and carets under the span.
    pub fn to_ode_error(&self, src: &str) -> OdeError {
        let (line, column, snippet) = locate(src, self.span);
        OdeError::Parse {
            line,
            column,
            message: self.kind.to_string(),
            snippet,
        }
    }
}

/// Line, column (both 1-based, columns counted in characters) and the two-line
/// snippet for `span` in `src`. Out-of-range spans are clamped, never a panic.
pub fn locate(src: &str, span: Span) -> (usize, usize, String) {
    let start = clamp_to_char(src, span.start);
    let end = clamp_to_char(src, span.end.max(start));
    let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[start..].find('\n').map_or(src.len(), |i| start + i);
    let line_no = src[..start].matches('\n').count() + 1;
    let text = src[line_start..line_end].trim_end_matches('\r');
    let prefix = &src[line_start..start];
    let column = prefix.chars().count() + 1;
    let pad: String = prefix
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let width = src[start..end.min(line_end)].chars().count().max(1);
    let snippet = format!("  {text}\n  {pad}{}", "^".repeat(width));
    (line_no, column, snippet)
}

/// Line numbers of byte offsets, by binary search over the line starts (so naming the
/// line of many declarations stays linear in the text).
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(src: &str) -> Self {
        let starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self { starts }
    }

    /// The 1-based line of byte offset `at`.
    pub fn line(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at).max(1)
    }
}

fn clamp_to_char(src: &str, mut i: usize) -> usize {
    i = i.min(src.len());
    while !src.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Names longer than this get no suggestion (keeps the edit distance cheap).
const MAX_SUGGEST_LEN: usize = 64;

/// Edit distance between two names, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest of `candidates` to `name`, if it is close enough to be a likely typo:
/// the same name in another case, or within one edit per three characters (at least one,
/// none for one-letter names).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let len = name.chars().count();
    if len > MAX_SUGGEST_LEN {
        return None;
    }
    // One-letter names are too short for a typo to be recognisable (v is not x).
    let allowed = if len <= 1 { 0 } else { (len / 3).max(1) };
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == name || c.chars().count() > MAX_SUGGEST_LEN {
            continue;
        }
        let d = if c.to_lowercase() == name.to_lowercase() {
            0
        } else {
            distance(name, c)
        };
        if d <= allowed && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// A half-open byte range `start..end` of the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}
