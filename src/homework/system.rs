//! A `system` task: the answer is a system's text (`{ "system": "x' = v\n…" }`); the
//! check `{ reference, t1, tol?, y0?, t0?, states? }` passes when the answer's
//! trajectory matches the reference's. Graded by trajectory, not by text: both are
//! solved at tight tolerance (`problem.rs`) and sampled at [`SAMPLES`] equally spaced
//! times in [t0, t1]; each reference state is paired with one of the answer's states —
//! by the optional `states` map (reference name → answer name), else by the values
//! along the trajectory (repeatedly the closest remaining pair) — so other names, a
//! different order of states, and a second-order form written as first-order states
//! all pass. The answer starts from its own initial values (its `x(0) = …` lines); `t0`
//! and `t1` are the check's. A pair matches when |reference − answer| ≤
//! tol·max(1, max |reference state|) at every sample (tol default 1e-6).
//!
//! A failure guides without a number that reveals the reference: which state leaves
//! it, from which sample time on, and whether just or far beyond the tolerance; never
//! the difference or the absolute allowance (which holds the reference's magnitude).
//! A student who knows their own values and such a number could work back to the
//! reference's.

use super::grade::{short, Outcome};
use super::problem::{Problem, Reference};
use super::read::{child, located, positive, read};
use super::work::Answer;
use crate::driver::Solution;
use crate::error::{num, OdeError};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Times at which the trajectories are compared.
pub const SAMPLES: usize = 101;
/// The tolerance of a check that gives none.
pub const DEFAULT_TOL: f64 = 1e-6;

#[derive(Debug, Clone, PartialEq)]
pub struct SystemCheck {
    pub problem: Problem,
    pub tol: f64,
    /// Reference state name → answer state name.
    pub states: Option<BTreeMap<String, String>>,
    /// A failure gives the difference and the allowance: a keyed task's check, which
    /// only the lecturer's grading page holds.
    pub reveal: bool,
}

/// The answer fields this kind reads.
pub const ANSWER_KEYS: &[&str] = &["system"];

/// The samples of one run: per state, its values at the sample times.
struct Samples {
    names: Vec<String>,
    values: Vec<Vec<f64>>,
}

fn samples(sol: &Solution) -> Samples {
    let n = sol.t_eval.len();
    let values = (0..sol.dim)
        .map(|j| (0..n).map(|k| sol.y_eval[k * sol.dim + j]).collect())
        .collect();
    Samples {
        names: sol.names.clone(),
        values,
    }
}

/// The largest difference of two sampled states and the sample where it occurs.
fn worst(a: &[f64], b: &[f64]) -> (f64, usize) {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            let d = (x - y).abs();
            if d.is_nan() {
                f64::INFINITY
            } else {
                d
            }
        })
        .enumerate()
        .fold(
            (0.0, 0),
            |(best, at), (k, d)| {
                if d > best {
                    (d, k)
                } else {
                    (best, at)
                }
            },
        )
}

/// A `system` check as the file writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SystemFile {
    reference: Reference,
    t1: f64,
    t0: Option<f64>,
    y0: Option<Vec<f64>>,
    tol: Option<f64>,
    states: Option<BTreeMap<String, String>>,
}

impl SystemCheck {
    /// Reads the check at `place`.
    pub fn read(raw: &Value, place: &str) -> Result<Self, OdeError> {
        let f: SystemFile = read(raw, place)?;
        let problem = Problem::read(place, f.reference, f.y0, f.t0, f.t1)?;
        if let Some(map) = &f.states {
            let reference = crate::driver::Integrator::new(&problem.spec("euler", Some(1.0)))
                .map(|it| it.model_info().names.clone())
                .unwrap_or_default();
            if let Some(bad) = map.keys().find(|k| !reference.contains(k)) {
                return Err(located(
                    &child(place, "states"),
                    format!(
                        "the reference has no state \"{bad}\"; its states are {}",
                        reference.join(", ")
                    ),
                ));
            }
        }
        Ok(SystemCheck {
            problem,
            tol: positive(f.tol, &child(place, "tol"))?.unwrap_or(DEFAULT_TOL),
            states: f.states,
            reveal: false,
        })
    }

    fn times(&self, t0: f64) -> Vec<f64> {
        let t1 = self.problem.t1;
        (0..SAMPLES)
            .map(|k| {
                if k + 1 == SAMPLES {
                    t1
                } else {
                    t0 + (t1 - t0) * k as f64 / (SAMPLES - 1) as f64
                }
            })
            .collect()
    }

    /// Pairs every reference state with an answer state: (reference, answer) indices.
    fn pairing(&self, r: &Samples, a: &Samples) -> Result<Vec<(usize, usize)>, String> {
        if let Some(map) = &self.states {
            let mut pairs = Vec::new();
            for (i, name) in r.names.iter().enumerate() {
                let wanted = map.get(name).unwrap_or(name);
                match a.names.iter().position(|n| n == wanted) {
                    Some(j) => pairs.push((i, j)),
                    None => {
                        return Err(format!(
                            "your system has no state called {wanted}; its states are {}",
                            a.names.join(", ")
                        ))
                    }
                }
            }
            return Ok(pairs);
        }
        let mut distances = Vec::new();
        for (i, ri) in r.values.iter().enumerate() {
            for (j, aj) in a.values.iter().enumerate() {
                distances.push((worst(ri, aj).0, i, j));
            }
        }
        distances.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        let (mut used_r, mut used_a) = (vec![false; r.names.len()], vec![false; a.names.len()]);
        let mut pairs = Vec::new();
        for (_, i, j) in distances {
            if !used_r[i] && !used_a[j] {
                used_r[i] = true;
                used_a[j] = true;
                pairs.push((i, j));
            }
        }
        pairs.sort();
        Ok(pairs)
    }

    pub fn grade(&self, answer: &Answer) -> Outcome {
        let Some(raw) = &answer.system else {
            return Outcome::fail("not answered yet", Value::Null);
        };
        let Some(text) = raw.as_str() else {
            return Outcome::fail("your answer is not a system's text", Value::Null);
        };
        let t0 = self.problem.t0.unwrap_or(0.0);
        let times = self.times(t0);
        let reference = match self.problem.reference(Some(times.clone())) {
            Ok(sol) => samples(&sol),
            Err(e) => return Outcome::fail(e.to_string(), Value::Null),
        };
        let yours = Problem {
            model: String::new(),
            system: Some(text.to_string()),
            params: BTreeMap::new(),
            y0: None,
            t0: Some(t0),
            t1: self.problem.t1,
        };
        let yours = match yours.reference(Some(times.clone())) {
            Ok(sol) => samples(&sol),
            Err(OdeError::BadFile { message }) => {
                return Outcome::fail(
                    message.replace("the reference solution", "your system"),
                    Value::Null,
                )
            }
            Err(e) => return Outcome::fail(format!("your system: {e}"), Value::Null),
        };
        if yours.names.len() != reference.names.len() {
            return Outcome::fail(
                format!(
                    "your system has {} states ({}), the reference has {} ({})",
                    yours.names.len(),
                    yours.names.join(", "),
                    reference.names.len(),
                    reference.names.join(", ")
                ),
                json!({ "states": yours.names.len() }),
            );
        }
        let pairs = match self.pairing(&reference, &yours) {
            Ok(p) => p,
            Err(message) => return Outcome::fail(message, Value::Null),
        };
        // The pair that leaves its allowance first (the likeliest cause: the states
        // that depend on it follow), the worst one on ties: (first sample beyond,
        // worst ratio to the allowance, reference index, answer index).
        let mut first_off: Option<(usize, f64, usize, usize)> = None;
        let mut worst_pair: Option<(f64, f64, usize, usize, usize)> = None;
        let mut largest = 0.0f64;
        for &(i, j) in &pairs {
            let allowance = self.tol
                * reference.values[i]
                    .iter()
                    .fold(1.0f64, |m, x| m.max(x.abs()));
            let (d, at) = worst(&reference.values[i], &yours.values[j]);
            largest = largest.max(d);
            let ratio = d / allowance;
            if worst_pair.is_none_or(|w| ratio > w.0) {
                worst_pair = Some((ratio, d, at, i, j));
            }
            let beyond = reference.values[i]
                .iter()
                .zip(&yours.values[j])
                // NaN counts as beyond.
                .position(|(r, a)| (r - a).abs().is_nan() || (r - a).abs() > allowance);
            if let Some(k) = beyond {
                if first_off.is_none_or(|w| k < w.0 || (k == w.0 && ratio > w.1)) {
                    first_off = Some((k, ratio, i, j));
                }
            }
        }
        let names: Vec<String> = pairs
            .iter()
            .map(|&(i, j)| {
                if reference.names[i] == yours.names[j] {
                    yours.names[j].clone()
                } else {
                    format!("your {} = its {}", yours.names[j], reference.names[i])
                }
            })
            .collect();
        let pairing: serde_json::Map<String, Value> = pairs
            .iter()
            .map(|&(i, j)| {
                (
                    reference.names[i].clone(),
                    Value::from(yours.names[j].clone()),
                )
            })
            .collect();
        if let (true, Some(_), Some((ratio, d, k, i, j))) = (self.reveal, first_off, worst_pair) {
            let named = if reference.names[i] == yours.names[j] {
                String::new()
            } else {
                format!(" (the reference's {})", reference.names[i])
            };
            return Outcome::fail(
                format!(
                    "at t = {} your {}{named} differs by {} from the reference (allowed {})",
                    num(times[k]),
                    yours.names[j],
                    short(d),
                    short(d / ratio)
                ),
                json!({ "maxDifference": largest, "states": pairing }),
            );
        }
        match first_off {
            Some((k, ratio, i, j)) => {
                let named = if reference.names[i] == yours.names[j] {
                    String::new()
                } else {
                    format!(" (the reference's {})", reference.names[i])
                };
                let name = &yours.names[j];
                // Just or far: a bound on the ratio, not the ratio, which is the
                // difference in units of the allowance.
                let how = if ratio <= 10.0 {
                    "just beyond"
                } else {
                    "far beyond"
                };
                let tolerance = format!(
                    "{how} the check's tolerance ({} of the state's largest magnitude, or \
                     of 1 if that is smaller)",
                    short(self.tol)
                );
                Outcome::fail(
                    if k == 0 {
                        format!(
                            "your {name}{named} starts away from the reference, {tolerance}: \
                             check its initial value"
                        )
                    } else {
                        format!(
                            "your {name}{named} leaves the reference from t = {} on, \
                             {tolerance}: look at the equation of {name} and the terms it \
                             depends on",
                            num(times[k])
                        )
                    },
                    // Only the pairing: the difference would give the reference away.
                    json!({ "states": pairing }),
                )
            }
            None => Outcome::pass(
                format!(
                    "✓ your trajectory matches the reference to {} up to t = {} ({})",
                    short(largest),
                    num(self.problem.t1),
                    names.join(", ")
                ),
                json!({ "maxDifference": largest, "states": pairing }),
            ),
        }
    }
}
