//! An `order` task: the answer is a method — a catalogue id (`{ "method": "rk4" }`),
//! a tableau (`{ "tableau": … }`), or a run's spec (`{ "spec": { method, tableau? } }`);
//! the check `{ problem, order, within?, nMin?, nMax?, ownMethod? }` passes when the order observed
//! by the convergence lab (`crate::convergence`: fixed steps h = T/2ⁿ, n = nMin..=nMax,
//! default 4..=12, error at t1 against the exact solution or a tight reference, the
//! slope fitted over the asymptotic range) is within `within` (default 0.3) of `order`.
//! `problem` is a catalogue model id, or `{ model, params?, y0?, t0?, t1? }`.
//! With `ownMethod: true` the answer must be the student's own tableau: a catalogue
//! method (bs23 has order 3 too) earns nothing.

use super::grade::Outcome;
use super::read::{child, located, positive, read};
use super::work::Answer;
use crate::convergence::global::global_series;
use crate::convergence::run::Reference;
use crate::convergence::ConvergenceSpec;
use crate::error::{num, OdeError};
use crate::tableau::TableauSpec;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// How far the observed order may be from the wanted one, by default.
pub const DEFAULT_WITHIN: f64 = 0.3;

#[derive(Debug, Clone, PartialEq)]
pub struct OrderCheck {
    /// The study, with `methods` filled in per answer.
    pub study: ConvergenceSpec,
    pub order: f64,
    pub within: f64,
    /// Only a tableau counts, not a catalogue method.
    pub own_method: bool,
}

/// The answer fields this kind reads.
pub const ANSWER_KEYS: &[&str] = &["method", "tableau", "spec"];

/// An `order` check as the file writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OrderFile {
    problem: Value,
    order: f64,
    within: Option<f64>,
    n_min: Option<u64>,
    n_max: Option<u64>,
    own_method: Option<bool>,
}

/// The problem of an `order` check written as an object.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OrderProblem {
    model: String,
    params: Option<BTreeMap<String, f64>>,
    y0: Option<Vec<f64>>,
    t0: Option<f64>,
    t1: Option<f64>,
}

impl OrderCheck {
    /// Reads the check at `place`.
    pub fn read(raw: &Value, place: &str) -> Result<Self, OdeError> {
        let f: OrderFile = read(raw, place)?;
        let problem_place = child(place, "problem");
        let mut study = ConvergenceSpec {
            methods: vec!["euler".into()],
            tols: Some(Vec::new()),
            local_h: Some(Vec::new()),
            n_min: Some(f.n_min.unwrap_or(4).min(64) as u32),
            n_max: Some(f.n_max.unwrap_or(12).min(64) as u32),
            ..ConvergenceSpec::default()
        };
        match &f.problem {
            Value::String(model) => study.model = model.clone(),
            other => {
                let p: OrderProblem = read(other, &problem_place)?;
                study.model = p.model;
                study.params = p.params.unwrap_or_default();
                study.y0 = p.y0;
                study.t0 = p.t0;
                study.t1 = p.t1;
            }
        }
        study.check().map_err(|e| located(&problem_place, e))?;
        Ok(OrderCheck {
            study,
            order: f.order,
            within: positive(f.within, &child(place, "within"))?.unwrap_or(DEFAULT_WITHIN),
            own_method: f.own_method.unwrap_or(false),
        })
    }

    pub fn grade(&self, answer: &Answer) -> Outcome {
        let spec = answer.spec.as_ref();
        let tableau_raw = answer
            .tableau
            .as_ref()
            .or_else(|| spec.and_then(|s| s.get("tableau")));
        let method = answer
            .method
            .as_ref()
            .or_else(|| spec.and_then(|s| s.get("method")));
        let (method, tableau) = match (method, tableau_raw) {
            (None, None) => return Outcome::fail("not answered yet", Value::Null),
            (Some(Value::String(m)), _) if m != crate::method::custom::ID => (m.clone(), None),
            (_, Some(raw)) => match serde_json::from_value::<TableauSpec>(raw.clone()) {
                Ok(t) => (crate::method::custom::ID.to_string(), Some(t)),
                Err(e) => {
                    return Outcome::fail(format!("your tableau cannot be read: {e}"), Value::Null)
                }
            },
            _ => return Outcome::fail("your answer does not name a method", Value::Null),
        };
        if self.own_method && tableau.is_none() {
            return Outcome::fail(
                format!(
                    "this task asks for your own method, written as a tableau in the \"Your \
                     method\" tab; the built-in method {method} does not count"
                ),
                Value::Null,
            );
        }
        let study = ConvergenceSpec {
            methods: vec![method.clone()],
            tableau,
            ..self.study.clone()
        };
        let series = study.check().and_then(|plan| {
            let reference = Reference::new(&plan)?;
            global_series(&plan, &reference, &method)
        });
        let series = match series {
            Ok(s) => s,
            Err(e) => return Outcome::fail(format!("your method {method}: {e}"), Value::Null),
        };
        let slope = series.fit.slope;
        let range = if slope.is_finite() {
            format!(
                " (fitted over h = {} … {})",
                num(series.h[series.fit.from]),
                num(series.h[series.fit.to])
            )
        } else {
            String::new()
        };
        let measured = json!({ "order": slope, "h": series.h, "error": series.error });
        let wanted = format!("{} ± {}", num(self.order), num(self.within));
        if slope.is_finite() && (slope - self.order).abs() <= self.within {
            Outcome::pass(
                format!("✓ observed order {:.2}{range}, {wanted} wanted", slope),
                measured,
            )
        } else if slope.is_finite() {
            Outcome::fail(
                format!("observed order {:.2}{range}, but {wanted} wanted", slope),
                measured,
            )
        } else {
            Outcome::fail(
                format!("no order could be observed: the errors do not decrease with h ({wanted} wanted)"),
                measured,
            )
        }
    }
}
