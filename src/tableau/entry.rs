//! One entry of a user's tableau: a JS number, or a string such as "1/6", "-3/4",
//! "0.5" or "(3-sqrt(3))/6". Fractions and decimals are read exactly ([`super::exact`]);
//! anything else is an expression of the expression language (`src/expr`) with no
//! variables, evaluated once in floating point.

use super::exact::{parse_exact, Frac};
use crate::error::{num, OdeError};
use serde::Deserialize;

/// A tableau entry: a number, or a string such as "1/6", "-3/4", "0.5" or
/// "(3-sqrt(3))/6" (the system language's functions and pi, e; no variables).
#[derive(Debug, Clone, PartialEq, Deserialize, tsify::Tsify)]
#[tsify(rename = "TableauEntry")]
#[serde(
    untagged,
    expecting = "a tableau entry must be a number or a string such as \"1/6\" or \"sqrt(3)/6\""
)]
pub enum Entry {
    Number(f64),
    Text(String),
}

impl From<f64> for Entry {
    fn from(x: f64) -> Self {
        Entry::Number(x)
    }
}

impl From<&str> for Entry {
    fn from(s: &str) -> Self {
        Entry::Text(s.to_string())
    }
}

/// An entry's value: the f64 the integrator uses and, when the entry is a fraction or
/// a short decimal, the exact rational it stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Value {
    pub x: f64,
    pub exact: Option<Frac>,
}

/// Longest entry text accepted, in bytes.
pub const MAX_ENTRY_TEXT: usize = 200;

impl Entry {
    /// The value of the entry; `place` names it in errors, e.g.
    /// `"tableau.a[2][1] (row 3, column 2)"`.
    pub fn value(&self, place: &str) -> Result<Value, OdeError> {
        let v = match self {
            Entry::Number(x) => Value {
                x: *x,
                exact: exact_of_number(*x),
            },
            Entry::Text(text) => value_of_text(text, place)?,
        };
        if !v.x.is_finite() {
            return Err(OdeError::NotFinite {
                what: format!("{place} = {}", self.shown()),
            });
        }
        Ok(v)
    }

    fn shown(&self) -> String {
        match self {
            Entry::Number(x) => num(*x),
            Entry::Text(t) => format!("\"{t}\""),
        }
    }
}

/// A JS number is exact when its shortest decimal form has at most 6 decimals (0.5,
/// 0.125, 2): 0.16666666666666666 stays a float rather than a 17-digit fraction.
fn exact_of_number(x: f64) -> Option<Frac> {
    if !x.is_finite() {
        return None;
    }
    let text = format!("{x}");
    let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
    if decimals > 6 || text.contains('e') {
        return None;
    }
    parse_exact(&text).filter(|f| f.to_f64() == x)
}

fn value_of_text(text: &str, place: &str) -> Result<Value, OdeError> {
    if text.len() > MAX_ENTRY_TEXT {
        return Err(OdeError::BadSpec {
            message: format!(
                "{place} is {} characters long; an entry may have at most {MAX_ENTRY_TEXT}",
                text.len()
            ),
        });
    }
    if text.trim().is_empty() {
        return Err(OdeError::BadSpec {
            message: format!("{place} is empty; write a number such as 0, 1/2 or 0.25"),
        });
    }
    if let Some(f) = parse_exact(text) {
        return Ok(Value {
            x: f.to_f64(),
            exact: Some(f),
        });
    }
    let x = value_of_expression(text, place)?;
    if !x.is_finite() {
        return Err(OdeError::NotFinite {
            what: format!("{place} = \"{text}\""),
        });
    }
    Ok(Value { x, exact: None })
}

/// Not a plain fraction: an expression such as "(3-sqrt(3))/6". No variables: t is
/// bound by the compiler, so it is evaluated at t = NaN and such an entry is refused as
/// not finite.
#[cfg(feature = "full")]
fn value_of_expression(text: &str, place: &str) -> Result<f64, OdeError> {
    let expr = crate::expr::compile_expr(text, &[], &[]).map_err(|e| OdeError::BadSpec {
        message: format!("{place} = \"{text}\" is not a number: {e}"),
    })?;
    Ok(expr.eval(f64::NAN, &[]))
}

/// The first-load build has no expression language (cargo feature `full`); fractions
/// and decimals are read above without it.
#[cfg(not(feature = "full"))]
fn value_of_expression(_: &str, _: &str) -> Result<f64, OdeError> {
    Err(OdeError::NotInThisBuild {
        what: "a tableau entry written as an expression",
    })
}
