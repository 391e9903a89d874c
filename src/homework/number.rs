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
use super::problem::{Problem, Reference};
use super::read::{child, located, positive, read};
use super::work::Answer;
use crate::driver::Integrator;
use crate::error::{num, OdeError};
use serde::Deserialize;
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

/// A computed value, as a check writes it (`{ "endValue": { … } }`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum Computed {
    EndValue(EndValueFile),
    StabilityLimit(StabilityLimitFile),
    Intercept(InterceptFile),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EndValueFile {
    reference: Reference,
    t1: f64,
    t0: Option<f64>,
    y0: Option<Vec<f64>>,
    state: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StabilityLimitFile {
    method: String,
    reference: Reference,
    t0: Option<f64>,
    y0: Option<Vec<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InterceptFile {
    method: String,
}

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
    /// Reads a check's `value` (at `place`): a number or a computed value.
    fn read(raw: &Value, place: &str) -> Result<Target, OdeError> {
        if !raw.is_object() {
            return Ok(Target::Fixed(read(raw, place)?));
        }
        Ok(match read::<Computed>(raw, place)? {
            Computed::EndValue(f) => {
                let inner = child(place, "endValue");
                let problem = Problem::read(&inner, f.reference, f.y0, f.t0, f.t1)?;
                let names = Integrator::new(&problem.spec("euler", Some(1.0)))
                    .map(|it| it.model_info().names.clone())
                    .unwrap_or_default();
                let state = names.iter().position(|n| *n == f.state).ok_or_else(|| {
                    located(
                        &child(&inner, "state"),
                        format!(
                            "the reference has no state \"{}\"; its states are {}",
                            f.state,
                            names.join(", ")
                        ),
                    )
                })?;
                Target::EndValue { problem, state }
            }
            Computed::StabilityLimit(f) => {
                let inner = child(place, "stabilityLimit");
                explicit(&f.method, &child(&inner, "method"))?;
                // The limit is taken at t0; a problem wants an end time.
                let t1 = f.t0.unwrap_or(0.0) + 1.0;
                let problem = Problem::read(&inner, f.reference, f.y0, f.t0, t1)?;
                Target::StabilityLimit {
                    method: f.method,
                    problem,
                }
            }
            Computed::Intercept(f) => {
                explicit(&f.method, &child(place, "intercept.method"))?;
                Target::Intercept { method: f.method }
            }
        })
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

/// A `number` check as the file writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct NumberFile {
    value: Option<Value>,
    rel_tol: Option<f64>,
    abs_tol: Option<f64>,
}

impl NumberCheck {
    /// Reads the check at `place`.
    pub fn read(raw: &Value, place: &str) -> Result<Self, OdeError> {
        let f: NumberFile = read(raw, place)?;
        let Some(value) = f.value else {
            return Err(located(place, "\"value\" is missing"));
        };
        let value = Target::read(&value, &child(place, "value"))?;
        let rel = positive(f.rel_tol, &child(place, "relTol"))?;
        let abs = positive(f.abs_tol, &child(place, "absTol"))?;
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

    pub fn grade(&self, answer: &Answer) -> Outcome {
        let Some(raw) = &answer.value else {
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
