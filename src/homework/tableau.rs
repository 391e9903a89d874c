//! A `tableau` task: the answer is a Butcher tableau (`{ "tableau": { a, b, c?, bHat? } }`
//! as `analyzeTableau` takes it, or a run's `spec` carrying one); the check is any of
//! `explicit` (true/false), `stages` (exactly), `order` (at least), `embeddedOrder`
//! (exactly: the order of b̂), `realIntercept: [lo, hi]` (the end x of the stable
//! interval [x, 0] of the real axis lies in it) and `aStable` (true/false), all read
//! from `crate::tableau::analyze` and `crate::stability::facts`.

use super::grade::Outcome;
use super::read::{child, located, read};
use super::work::Answer;
use crate::error::{num, OdeError};
use crate::stability::facts::facts_of;
use crate::stability::{Amplification, StabilitySpec};
use crate::tableau::{analyze, Condition, TableauSpec};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TableauCheck {
    pub explicit: Option<bool>,
    pub stages: Option<u64>,
    pub order: Option<u64>,
    pub embedded_order: Option<u64>,
    pub real_intercept: Option<[f64; 2]>,
    pub a_stable: Option<bool>,
}

/// The answer fields this kind reads.
pub const ANSWER_KEYS: &[&str] = &["tableau", "spec"];

/// The tableau in an answer: `tableau`, or `spec.tableau`.
pub fn answer_tableau(answer: &Answer) -> Option<Result<TableauSpec, String>> {
    let raw = answer
        .tableau
        .as_ref()
        .or_else(|| answer.spec.as_ref().and_then(|s| s.get("tableau")))?;
    Some(
        serde_json::from_value::<TableauSpec>(raw.clone())
            .map_err(|e| format!("your tableau cannot be read: {e}")),
    )
}

/// "Σ bᵢcᵢ² = 1/3 fails (yours gives 0.25)" / "… holds".
fn condition_words(c: &Condition) -> String {
    if c.holds {
        format!("{} holds", c.name)
    } else {
        format!("{} fails (yours gives {})", c.name, num(c.value))
    }
}

/// Why `conditions` give order `got` and not `wanted`: the conditions of order got + 1.
fn order_words(what: &str, conditions: &[Condition], got: u32, wanted: u64) -> String {
    let next: Vec<String> = conditions
        .iter()
        .filter(|c| c.order == got + 1)
        .map(condition_words)
        .collect();
    format!(
        "{what} {got}, at least {wanted} wanted: at order {}, {}",
        got + 1,
        next.join(", ")
    )
}

impl TableauCheck {
    /// Reads the check at `place`.
    pub fn read(raw: &Value, place: &str) -> Result<Self, OdeError> {
        let check: TableauCheck = read(raw, place)?;
        match check.real_intercept {
            Some([lo, hi]) if lo > hi => Err(located(
                &child(place, "realIntercept"),
                "must be [lo, hi] with lo ≤ hi",
            )),
            _ => Ok(check),
        }
    }

    pub fn grade(&self, answer: &Answer) -> Outcome {
        let spec = match answer_tableau(answer) {
            None => return Outcome::fail("not answered yet", Value::Null),
            Some(Err(message)) => return Outcome::fail(message, Value::Null),
            Some(Ok(spec)) => spec,
        };
        let tab = match spec.parse() {
            Ok(tab) => tab,
            Err(e) => return Outcome::fail(format!("your tableau: {e}"), Value::Null),
        };
        let analysis = analyze(&tab);
        let needs_facts = self.real_intercept.is_some() || self.a_stable.is_some();
        let facts = needs_facts
            .then(|| {
                Amplification::from_spec(&StabilitySpec {
                    method: crate::method::custom::ID.into(),
                    tableau: Some(spec.clone()),
                    ..StabilitySpec::default()
                })
                .map(|amp| facts_of(&amp))
            })
            .transpose();
        let facts = match facts {
            Ok(f) => f,
            Err(e) => return Outcome::fail(format!("your tableau: {e}"), Value::Null),
        };
        let intercept = facts.as_ref().and_then(|f| f.real_intercept);
        let measured = json!({
            "explicit": tab.explicit,
            "stages": tab.stages(),
            "order": analysis.order,
            "embeddedOrder": analysis.embedded_order,
            "realIntercept": intercept,
            "aStable": facts.as_ref().map(|f| f.a_stable),
        });
        let mut good = Vec::new();
        let mut bad = Vec::new();
        if let Some(want) = self.explicit {
            let words = if tab.explicit { "explicit" } else { "implicit" };
            if tab.explicit == want {
                good.push(words.to_string());
            } else {
                bad.push(format!(
                    "yours is {words}, an {} method is wanted",
                    if want { "explicit" } else { "implicit" }
                ));
            }
        }
        if let Some(want) = self.stages {
            if tab.stages() as u64 == want {
                good.push(format!("{want} stages"));
            } else {
                bad.push(format!("{} stages, {want} wanted", tab.stages()));
            }
        }
        if let Some(want) = self.order {
            if u64::from(analysis.order) >= want {
                good.push(format!("order {}", analysis.order));
            } else {
                bad.push(order_words(
                    "order",
                    &analysis.conditions,
                    analysis.order,
                    want,
                ));
            }
        }
        if let Some(want) = self.embedded_order {
            match (&analysis.embedded_order, &analysis.embedded_conditions) {
                (Some(p), _) if u64::from(*p) == want => good.push(format!("embedded order {p}")),
                (Some(p), Some(conditions)) if u64::from(*p) < want => {
                    bad.push(order_words("embedded order", conditions, *p, want))
                }
                (Some(p), _) => bad.push(format!(
                    "embedded order {p}, exactly {want} wanted (the error estimate is of \
                     order {want})"
                )),
                (None, _) => bad.push(format!(
                    "no embedded weights b̂ (bHat), an embedded order {want} is wanted"
                )),
            }
        }
        if let Some([lo, hi]) = self.real_intercept {
            match intercept {
                Some(x) if x >= lo && x <= hi => {
                    good.push(format!("real-axis stability down to {}", num(x)))
                }
                Some(x) => bad.push(format!(
                    "stable on the real axis down to {}, not within [{}, {}]",
                    num(x),
                    num(lo),
                    num(hi)
                )),
                None => bad.push("unstable just left of 0 on the real axis".to_string()),
            }
        }
        if let (Some(want), Some(f)) = (self.a_stable, &facts) {
            if f.a_stable == want {
                good.push(if want { "A-stable" } else { "not A-stable" }.to_string());
            } else if want {
                bad.push("not A-stable, an A-stable method is wanted".into());
            } else {
                bad.push("A-stable, a method that is not is wanted".into());
            }
        }
        if bad.is_empty() {
            Outcome::pass(format!("✓ {}", good.join(", ")), measured)
        } else {
            let mut message = bad.join("; ");
            if !good.is_empty() {
                message.push_str(&format!(" ({} ✓)", good.join(", ")));
            }
            Outcome::fail(message, measured)
        }
    }
}
