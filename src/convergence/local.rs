//! Local error: one step of size h from the reference solution at t0 (the model's y0),
//! compared with the reference at t0 + h (exact where the model has it), for the
//! error-per-step plots of seed 003 Figs. 4–5 and seed 000 Fig. 6. A method of order p
//! has local error O(h^{p+1}).

use super::fit::{fit_slope, SlopeFit};
use super::run::{fixed_step, max_dist, Reference};
use super::spec::Plan;
use crate::error::OdeError;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalSeries {
    pub method: String,
    pub h: Vec<f64>,
    pub error: Vec<f64>,
    pub fit: SlopeFit,
}

pub fn local_series(
    plan: &Plan,
    reference: &Reference,
    method: &str,
) -> Result<LocalSeries, OdeError> {
    let mut hs: Vec<f64> = plan.local_h.clone();
    hs.sort_by(|a, b| b.total_cmp(a));
    let mut error = Vec::with_capacity(hs.len());
    for &h in &hs {
        let end = fixed_step(plan, method, plan.t0 + h, h)?;
        let exact = reference.at(plan.t0 + h)?;
        error.push(if end.blew_up {
            f64::INFINITY
        } else {
            max_dist(&end.y, &exact)
        });
    }
    let fit = fit_slope(&hs, &error);
    Ok(LocalSeries {
        method: method.to_string(),
        h: hs,
        error,
        fit,
    })
}
