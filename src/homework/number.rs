//! A `number` task: the answer is a number (`{ "value": -2.785 }`, or the same as
//! text); the check `{ value, relTol?, absTol? }` passes when
//! |answer − value| ≤ max(absTol, relTol·|value|). With neither tolerance given,
//! relTol = 1e-6. A wrong answer is told only which side it is on ("too large", "too
//! small") and what the check allows: never how far off it is, since the distance and
//! the sign give the value away (0.02 "off by 300%, too large" is 0.005).
//!
//! `value` may also be a number the engine computes when the answer is graded (for
//! the student's parameters, `variant.rs`):
//! - `{ "endValue": { reference, t1, t0?, y0?, state } }`: the state's value at t1 of
//!   the tight reference solution (`problem.rs`);
//! - `{ "stabilityLimit": { method, reference, t0?, y0? } }`: the largest step h for
//!   which every hλ (λ the eigenvalues of ∂f/∂y at y0) lies in the explicit method's
//!   stability region, each ray searched as the ξ-plane's facts are;
//! - `{ "intercept": { method } }`: where the explicit method's stability region
//!   meets the negative real axis (−2 for Euler).

use super::grade::Outcome;
use super::json::{child, located, Obj};
use super::problem::Problem;
use crate::driver::Integrator;
use crate::error::{num, OdeError};
use serde_json::{json, Value};

/// The relative tolerance of a check that gives none.
pub const DEFAULT_REL_TOL: f64 = 1e-6;

/// What the answer is compared with.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Fixed(f64),
    EndValue { problem: Problem, state: usize },
    StabilityLimit { method: String, problem: Problem },
    Intercept { method: String },
}

/// The names of the computed targets.
const COMPUTED: &[&str] = &["endValue", "stabilityLimit", "intercept"];

/// The explicit tableau of a catalogue method, or an error at `place`.
fn explicit(method: &str, place: &str) -> Result<&'static crate::method::Tableau, OdeError> {
    crate::method::tableau(method).ok_or_else(|| {
        located(
            place,
            format!(
                "\"{method}\" is not an explicit Runge–Kutta method of the catalogue \
                 (e.g. euler, heun, rk4, dp45)"
            ),
        )
    })
}

impl Target {
    fn read(check: &Obj) -> Result<Target, OdeError> {
        let place = child(check.place(), "value");
        let raw = check.require("value")?;
        let Value::Object(map) = raw else {
            return Ok(Target::Fixed(check.require_number("value")?));
        };
        let Some((name, inner)) = map.iter().next().filter(|_| map.len() == 1) else {
            return Err(located(
                &place,
                format!("must be a number or one of {}", COMPUTED.join(", ")),
            ));
        };
        let inner_place = child(&place, name);
        let obj = Obj::new(inner, &inner_place)?;
        match name.as_str() {
            "endValue" => {
                obj.only(&["reference", "t1", "t0", "y0", "state"])?;
                let problem = Problem::read(&obj)?;
                let state = obj.require_string("state")?;
                let names = Integrator::new(&problem.spec("euler", Some(1.0)))
                    .map(|it| it.model_info().names.clone())
                    .unwrap_or_default();
                let index = names.iter().position(|n| n == state).ok_or_else(|| {
                    located(
                        &child(&inner_place, "state"),
                        format!(
                            "the reference has no state \"{state}\"; its states are {}",
                            names.join(", ")
                        ),
                    )
                })?;
                Ok(Target::EndValue {
                    problem,
                    state: index,
                })
            }
            "stabilityLimit" => {
                obj.only(&["method", "reference", "t0", "y0"])?;
                let method = obj.require_string("method")?.to_string();
                explicit(&method, &child(&inner_place, "method"))?;
                // Problem::read wants an end time; the limit is taken at t0.
                let mut with_end = inner.clone();
                if let Value::Object(m) = &mut with_end {
                    let t0 = obj.number("t0")?.unwrap_or(0.0);
                    m.insert("t1".into(), Value::from(t0 + 1.0));
                }
                let problem = Problem::read(&Obj::new(&with_end, &inner_place)?)?;
                Ok(Target::StabilityLimit { method, problem })
            }
            "intercept" => {
                obj.only(&["method"])?;
                let method = obj.require_string("method")?.to_string();
                explicit(&method, &child(&inner_place, "method"))?;
                Ok(Target::Intercept { method })
            }
            other => Err(located(
                &place,
                format!(
                    "unknown computed value \"{other}\"; the computed values are {}",
                    COMPUTED.join(", ")
                ),
            )),
        }
    }

    /// The value, computed by the engine where the target is one.
    pub fn value(&self) -> Result<f64, OdeError> {
        match self {
            Target::Fixed(x) => Ok(*x),
            Target::EndValue { problem, state } => {
                let sol = problem.reference(None)?;
                let n = sol.t.len();
                Ok(sol.y[(n - 1) * sol.dim + state])
            }
            Target::StabilityLimit { method, problem } => {
                let tab = explicit(method, "stabilityLimit.method")?;
                let spectrum = crate::spectrum::of_spec(&crate::spectrum::SpectrumSpec {
                    model: problem.model.clone(),
                    system: problem.system.clone(),
                    params: problem.params.clone(),
                    t: problem.t0.unwrap_or(0.0),
                    y: problem.y0.clone(),
                    ..Default::default()
                })?;
                let r = |z: nalgebra::Complex<f64>| {
                    crate::math::complex::norm(crate::stability::rk::stability_function(tab, z))
                };
                let mut limit = f64::INFINITY;
                for lambda in spectrum {
                    let size = crate::math::complex::norm(lambda);
                    if size == 0.0 {
                        continue;
                    }
                    let along = crate::stability::facts::boundary_along(&r, lambda / size);
                    // No stable interval at all along this ray (e.g. Euler on λ = ±iω).
                    limit = limit.min(along.unwrap_or(0.0) / size);
                }
                if limit.is_finite() {
                    Ok(limit)
                } else {
                    Err(OdeError::BadFile {
                        message: "the problem's eigenvalues leave no step size limit".into(),
                    })
                }
            }
            Target::Intercept { method } => {
                let tab = explicit(method, "intercept.method")?;
                crate::stability::rk::real_axis_intercept(tab).ok_or_else(|| OdeError::BadFile {
                    message: format!(
                        "{method}'s stability region does not end on the negative real axis"
                    ),
                })
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct NumberCheck {
    pub value: Target,
    pub rel_tol: f64,
    pub abs_tol: f64,
}

/// The answer fields this kind reads.
pub const ANSWER_KEYS: &[&str] = &["value"];

impl NumberCheck {
    pub fn read(check: &Obj) -> Result<Self, OdeError> {
        check.only(&["value", "relTol", "absTol"])?;
        let value = Target::read(check)?;
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
        let value = match self.value.value() {
            Ok(v) => v,
            Err(e) => {
                return Outcome::fail(
                    format!("the check could not compute its value: {e}"),
                    Value::Null,
                )
            }
        };
        let diff = (x - value).abs();
        let allowed = self.abs_tol.max(self.rel_tol * value.abs());
        // Only the answer itself: a difference in `measured` would give the value away.
        let measured = json!({ "value": x });
        if diff <= allowed {
            Outcome::pass(
                format!("{} is right (within {})", num(x), self.allowed()),
                measured,
            )
        } else {
            let side = if x > value { "too large" } else { "too small" };
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
