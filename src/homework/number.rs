//! A `number` task: the answer is a number (`{ "value": -2.785 }`, or the same as
//! text); the check `{ value, relTol?, absTol? }` passes when
//! |answer − value| ≤ max(absTol, relTol·|value|). With neither tolerance given,
//! relTol = 1e-6. A wrong answer is told only which side it is on ("too large", "too
//! small") and what the check allows: never how far off it is, since the distance and
//! the sign give the value away (0.02 "off by 300%, too large" is 0.005).

use super::grade::Outcome;
use super::json::Obj;
use crate::error::{num, OdeError};
use serde_json::{json, Value};

/// The relative tolerance of a check that gives none.
pub const DEFAULT_REL_TOL: f64 = 1e-6;

#[derive(Debug, Clone, PartialEq)]
pub struct NumberCheck {
    pub value: f64,
    pub rel_tol: f64,
    pub abs_tol: f64,
}

/// The answer fields this kind reads.
pub const ANSWER_KEYS: &[&str] = &["value"];

impl NumberCheck {
    pub fn read(check: &Obj) -> Result<Self, OdeError> {
        check.only(&["value", "relTol", "absTol"])?;
        let value = check.require_number("value")?;
        let (rel, abs) = (check.positive("relTol")?, check.positive("absTol")?);
        Ok(NumberCheck {
            value,
            rel_tol: rel.unwrap_or(if abs.is_some() { 0.0 } else { DEFAULT_REL_TOL }),
            abs_tol: abs.unwrap_or(0.0),
        })
    }

    /// What the check allows, in words: "within 1%", "within ±0.01".
    fn allowed(&self) -> String {
        let rel = (self.rel_tol > 0.0).then(|| format!("{}%", num(self.rel_tol * 100.0)));
        let abs = (self.abs_tol > 0.0).then(|| format!("±{}", num(self.abs_tol)));
        match (rel, abs) {
            (Some(r), Some(a)) => format!("{r} or {a}"),
            (Some(r), None) => r,
            (None, Some(a)) => a,
            (None, None) => "exactly".into(),
        }
    }

    pub fn grade(&self, answer: &Obj) -> Outcome {
        let Some(raw) = answer.get("value") else {
            return Outcome::fail("not answered yet", Value::Null);
        };
        let x = match raw {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().replace('−', "-").parse::<f64>().ok(),
            _ => None,
        };
        let Some(x) = x.filter(|x| x.is_finite()) else {
            return Outcome::fail("your answer is not a number", Value::Null);
        };
        let diff = (x - self.value).abs();
        let allowed = self.abs_tol.max(self.rel_tol * self.value.abs());
        // Only the answer itself: a difference in `measured` would give the value away.
        let measured = json!({ "value": x });
        if diff <= allowed {
            Outcome::pass(
                format!("{} is right (within {})", num(x), self.allowed()),
                measured,
            )
        } else {
            let side = if x > self.value {
                "too large"
            } else {
                "too small"
            };
            Outcome::fail(
                format!(
                    "{} is {side} (an answer within {} of the right one passes)",
                    num(x),
                    self.allowed()
                ),
                measured,
            )
        }
    }
}
