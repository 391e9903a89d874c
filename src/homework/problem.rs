//! The problem a `system`, `run` or `order` task is about, as an assignment writes it:
//! `reference: { system }` or `reference: { model, params }`, with `y0`, `t0` and `t1`
//! beside it in the check; and the tight-tolerance reference solution the graders
//! compare with: dp45 at rtol 1e-10, atol 1e-12 (100 000 steps at most), or, when that
//! stalls on a stiff problem, ros4 at the same tolerances within solve's step budget.

use super::read::{child, located};
use crate::driver::{solve, Integrator, Solution};
use crate::error::{num, OdeError};
use crate::spec::{SolveSpec, Tol};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Relative and absolute tolerance of the reference runs.
pub const REFERENCE_RTOL: f64 = 1e-10;
pub const REFERENCE_ATOL: f64 = 1e-12;
/// Steps dp45 may take before the reference falls back to the stiff ros4.
pub const NONSTIFF_STEPS: usize = 20_000;

/// A model or a system, its parameters, start and end.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// A catalogue model id, or empty when `system` is given.
    pub model: String,
    pub system: Option<String>,
    pub params: BTreeMap<String, f64>,
    pub y0: Option<Vec<f64>>,
    pub t0: Option<f64>,
    pub t1: f64,
}

/// A check's `reference`: a system's text, or a catalogue model and its parameters.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    pub system: Option<String>,
    pub model: Option<String>,
    pub params: Option<BTreeMap<String, f64>>,
}

impl Problem {
    /// The problem of the check at `check` (its `reference`, `y0`, `t0` and `t1`),
    /// checked that it can be set up (known model, parameters, a system that parses).
    pub fn read(
        check: &str,
        reference: Reference,
        y0: Option<Vec<f64>>,
        t0: Option<f64>,
        t1: f64,
    ) -> Result<Problem, OdeError> {
        let place = child(check, "reference");
        let model = reference.model.unwrap_or_default();
        // Both given, or neither.
        if reference.system.is_some() != model.is_empty() {
            return Err(located(
                &place,
                "give either \"system\" (a system's text) or \"model\" (a catalogue model id)",
            ));
        }
        let problem = Problem {
            model,
            system: reference.system,
            params: reference.params.unwrap_or_default(),
            y0,
            t0,
            t1,
        };
        let t0 = problem.t0.unwrap_or(0.0);
        if problem.t1 <= t0 {
            return Err(located(
                &child(check, "t1"),
                format!("must be after t0 = {}", num(t0)),
            ));
        }
        Integrator::new(&problem.spec("euler", Some(problem.t1 - t0)))
            .map_err(|e| located(&place, e))?;
        Ok(problem)
    }

    /// A spec for this problem with `method` (and a fixed step `h` if given).
    pub fn spec(&self, method: &str, h: Option<f64>) -> SolveSpec {
        SolveSpec {
            model: self.model.clone(),
            system: self.system.clone(),
            params: self.params.clone(),
            y0: self.y0.clone(),
            t0: self.t0,
            t1: Some(self.t1),
            method: method.into(),
            h,
            adaptive: h.map(|_| false),
            ..SolveSpec::default()
        }
    }

    /// "van-der-pol (mu = 1000)" or "the reference system".
    pub fn describe(&self) -> String {
        let name = if self.system.is_some() {
            "the reference system".to_string()
        } else {
            self.model.clone()
        };
        if self.params.is_empty() {
            name
        } else {
            let params: Vec<String> = self
                .params
                .iter()
                .map(|(k, v)| format!("{k} = {}", num(*v)))
                .collect();
            format!("{name} ({})", params.join(", "))
        }
    }

    /// The reference solution (with its values at `t_eval`), see the module doc.
    pub fn reference(&self, t_eval: Option<Vec<f64>>) -> Result<Solution, OdeError> {
        let tight = |method: &str, max_steps: Option<usize>| SolveSpec {
            rtol: Some(Tol::Scalar(REFERENCE_RTOL)),
            atol: Some(Tol::Scalar(REFERENCE_ATOL)),
            max_steps,
            t_eval: t_eval.clone(),
            ..self.spec(method, None)
        };
        let nonstiff = solve(&tight("dp45", Some(NONSTIFF_STEPS)))?;
        let solution = match nonstiff.stopped_by {
            Some(OdeError::AdaptiveBudget { .. } | OdeError::StepSizeUnderflow { .. }) => {
                solve(&tight("ros4", None))?
            }
            _ => nonstiff,
        };
        match solution.stopped_by {
            Some(e) => Err(OdeError::BadFile {
                message: format!("the reference solution could not be computed: {e}"),
            }),
            None => Ok(solution),
        }
    }
}
