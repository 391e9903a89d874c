//! Work–precision of an adaptive method: error at t1 against right-hand-side evaluations
//! over a tolerance sweep (rtol = atol = tol), under the default step-size control
//! (Negrut et al. 2003 eqs. 4–7).

use super::run::{budgeted, out_of_work, Reference};
use super::spec::Plan;
use crate::error::OdeError;
use crate::spec::{SolveSpec, Tol};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkPrecisionSeries {
    pub method: String,
    pub tol: Vec<f64>,
    pub nfev: Vec<f64>,
    /// Accepted plus rejected steps.
    pub nsteps: Vec<f64>,
    pub error: Vec<f64>,
}

pub fn work_precision_series(
    plan: &Plan,
    reference: &Reference,
    method: &str,
) -> Result<WorkPrecisionSeries, OdeError> {
    let mut s = WorkPrecisionSeries {
        method: method.to_string(),
        tol: Vec::new(),
        nfev: Vec::new(),
        nsteps: Vec::new(),
        error: Vec::new(),
    };
    for &tol in &plan.tols {
        // The budget ran out: the tolerances reached so far stand.
        if plan.exhausted() {
            break;
        }
        let end = budgeted(
            plan,
            SolveSpec {
                method: method.to_string(),
                rtol: Some(Tol::Scalar(tol)),
                atol: Some(Tol::Scalar(tol)),
                adaptive: Some(true),
                max_steps: Some(crate::spec::DEFAULT_MAX_STEPS),
                tableau: plan.tableau_for(method),
                ..plan.base.clone()
            },
        )?;
        if out_of_work(&end) {
            break;
        }
        // A run stopped short of t1 other than by a blow-up (the budget, step-size
        // underflow, a failure retried too often) is a point that could not be
        // reached: skip it. A blow-up is a point of infinite error.
        if end.stopped.is_some() && !end.blew_up {
            continue;
        }
        s.tol.push(tol);
        s.nfev.push(end.stats.nfev as f64);
        s.nsteps.push(end.stats.nsteps as f64);
        s.error.push(if end.blew_up {
            f64::INFINITY
        } else {
            reference.error(&end.y)
        });
    }
    Ok(s)
}
