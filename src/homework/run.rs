//! A `run` task: the answer is a solve spec the student chose (`{ "spec": { method,
//! rtol, atol, h, … } }`); the check `{ reference, t1, maxError, maxNfev?, y0?, t0? }`
//! supplies the problem, which replaces the spec's own model, system, parameters, y0, t0
//! and t1 (and drops its events, tEval and formulation). It passes when the run reaches
//! t1 without a warning, its max-norm error at t1 against the tight reference
//! (`problem.rs`) is ≤ maxError, and it took ≤ maxNfev f-evaluations. The run is
//! stepped without keeping its trajectory, within the spec's step budget (solve's
//! default, capped at solve's limit), so grading is bounded as a solve is. An optional
//! `fixed` object sets spec fields the student may not choose (e.g. `{ "jacobianUpdate":
//! 20 }`: a Jacobian frozen for 20 steps), written over the answer's.

use super::grade::{grouped, short, Outcome};
use super::problem::{Problem, Reference};
use super::read::{child, positive, read, unknown_field};
use super::work::Answer;
use crate::convergence::run::max_dist;
use crate::driver::{Ended, Integrator};
use crate::error::{num, OdeError};
use crate::spec::{field_names, SolveSpec, DEFAULT_MAX_WORK, MAX_STEPS_LIMIT};
use serde::Deserialize;
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, PartialEq)]
pub struct RunCheck {
    pub problem: Problem,
    pub max_error: f64,
    pub max_nfev: Option<u64>,
    /// Spec fields set by the check, over the student's.
    pub fixed: Map<String, Value>,
}

/// Spec fields that `fixed` may not set (the problem's own).
const PROBLEM_FIELDS: &[&str] = &["model", "system", "params", "y0", "t0", "t1"];

/// The answer fields this kind reads.
pub const ANSWER_KEYS: &[&str] = &["spec"];

/// A `run` check as the file writes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RunFile {
    reference: Reference,
    t1: f64,
    t0: Option<f64>,
    y0: Option<Vec<f64>>,
    max_error: f64,
    max_nfev: Option<u64>,
    fixed: Option<Map<String, Value>>,
}

impl RunCheck {
    /// Reads the check at `place`.
    pub fn read(raw: &Value, place: &str) -> Result<Self, OdeError> {
        let f: RunFile = read(raw, place)?;
        let problem = Problem::read(place, f.reference, f.y0, f.t0, f.t1)?;
        let fixed_place = child(place, "fixed");
        let fixed = f.fixed.unwrap_or_default();
        // Any spec field but the problem's, read as the spec reads it.
        let allowed: Vec<&str> = field_names::<SolveSpec>()
            .iter()
            .copied()
            .filter(|f| !PROBLEM_FIELDS.contains(f))
            .collect();
        if let Some(k) = fixed.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(unknown_field(&fixed_place, k, &allowed));
        }
        let mut probe = fixed.clone();
        probe.insert("method".into(), Value::from("euler"));
        read::<SolveSpec>(&Value::Object(probe), &fixed_place)?;
        Ok(RunCheck {
            problem,
            max_error: positive(Some(f.max_error), &child(place, "maxError"))?.unwrap_or(f64::NAN),
            max_nfev: f.max_nfev,
            fixed,
        })
    }

    /// The student's spec on the check's problem.
    fn graded_spec(&self, theirs: SolveSpec) -> SolveSpec {
        let base = self.problem.spec(&theirs.method, None);
        SolveSpec {
            model: base.model,
            system: base.system,
            params: base.params,
            y0: base.y0,
            t0: base.t0,
            t1: base.t1,
            max_steps: theirs.max_steps.map(|m| m.min(MAX_STEPS_LIMIT)),
            // The grader's time is the lecturer's: a work never raises its budget.
            max_work: Some(
                theirs
                    .max_work
                    .unwrap_or(DEFAULT_MAX_WORK)
                    .min(DEFAULT_MAX_WORK),
            ),
            t_eval: None,
            events: Vec::new(),
            formulation: None,
            stabilization: None,
            independent: None,
            ..theirs
        }
    }

    pub fn grade(&self, answer: &Answer) -> Outcome {
        let Some(raw) = &answer.spec else {
            return Outcome::fail("not answered yet", Value::Null);
        };
        let mut raw = raw.clone();
        if let Value::Object(spec) = &mut raw {
            spec.extend(self.fixed.clone());
        }
        let theirs = match serde_json::from_value::<SolveSpec>(raw) {
            Ok(s) => s,
            Err(e) => {
                return Outcome::fail(
                    format!("your run settings cannot be read: {e}"),
                    Value::Null,
                )
            }
        };
        let method = theirs.method.clone();
        let spec = self.graded_spec(theirs);
        let on = format!(
            "{} to t = {}",
            self.problem.describe(),
            num(self.problem.t1)
        );
        let mut run = match Integrator::new(&spec) {
            Ok(run) => run,
            Err(e) => return Outcome::fail(format!("your run on {on}: {e}"), Value::Null),
        };
        if let Ok(Ended::Stopped(e)) | Err(e) = run.run_to_end() {
            let stats = run.stats();
            return Outcome::fail(
                format!(
                    "your run ({method}) on {on} stopped at t = {} after {} f-evaluations: {e}",
                    num(run.t()),
                    grouped(stats.nfev)
                ),
                json!({ "nfev": stats.nfev, "t": run.t() }),
            );
        }
        let nfev = run.stats().nfev;
        let reference = match self.problem.reference(None) {
            Ok(sol) => sol,
            Err(e) => return Outcome::fail(e.to_string(), Value::Null),
        };
        let n = reference.t.len();
        let y_ref = &reference.y[(n - 1) * reference.dim..];
        let error = max_dist(run.y(), y_ref);
        let measured = json!({ "error": error, "nfev": nfev, "method": method });
        let error_ok = error <= self.max_error;
        let nfev_ok = self.max_nfev.is_none_or(|m| nfev <= m);
        let error_words = if error_ok {
            format!("error {} ✓", short(error))
        } else {
            format!("error {} > {}", short(error), short(self.max_error))
        };
        let nfev_words = match self.max_nfev {
            Some(m) if nfev_ok => format!("{} f-evaluations ≤ {} ✓", grouped(nfev), grouped(m)),
            Some(m) => format!("{} f-evaluations > {}", grouped(nfev), grouped(m)),
            None => format!("{} f-evaluations", grouped(nfev)),
        };
        let message = format!("{method} on {on}: {error_words}");
        match (error_ok, nfev_ok) {
            (true, true) => Outcome::pass(format!("{message}, {nfev_words}"), measured),
            (true, false) => Outcome::fail(format!("{message} but {nfev_words}"), measured),
            _ => Outcome::fail(format!("{message}; {nfev_words}"), measured),
        }
    }
}
