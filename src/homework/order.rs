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
use super::json::{child, located, Obj};
use crate::convergence::global::global_series;
use crate::convergence::run::Reference;
use crate::convergence::ConvergenceSpec;
use crate::error::{num, OdeError};
use crate::tableau::TableauSpec;
use serde_json::{json, Value};

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

impl OrderCheck {
    pub fn read(check: &Obj) -> Result<Self, OdeError> {
        check.only(&["problem", "order", "within", "nMin", "nMax", "ownMethod"])?;
        let place = child(check.place(), "problem");
        let mut study = ConvergenceSpec {
            methods: vec!["euler".into()],
            tols: Some(Vec::new()),
            local_h: Some(Vec::new()),
            n_min: Some(check.count("nMin")?.unwrap_or(4).min(64) as u32),
            n_max: Some(check.count("nMax")?.unwrap_or(12).min(64) as u32),
            ..ConvergenceSpec::default()
        };
        match check.require("problem")? {
            Value::String(model) => study.model = model.clone(),
            other => {
                let problem = Obj::new(other, &place)?;
                problem.only(&["model", "params", "y0", "t0", "t1"])?;
                study.model = problem.require_string("model")?.to_string();
                study.params = problem.number_map("params")?;
                study.y0 = problem.numbers("y0")?;
                study.t0 = problem.number("t0")?;
                study.t1 = problem.number("t1")?;
            }
        }
        study.check().map_err(|e| located(&place, e))?;
        Ok(OrderCheck {
            study,
            order: check.require_number("order")?,
            within: check.positive("within")?.unwrap_or(DEFAULT_WITHIN),
            own_method: check.boolean("ownMethod")?.unwrap_or(false),
        })
    }

    pub fn grade(&self, answer: &Obj) -> Outcome {
        let spec = answer.get("spec");
        let tableau_raw = answer
            .get("tableau")
            .or_else(|| spec.and_then(|s| s.get("tableau")));
        let method = answer
            .get("method")
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
