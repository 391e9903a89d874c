//! Local error: one step of size h from the reference state at t0 (the model's y0),
//! compared with the reference at t0 + h (exact where the model has it), for the
//! error-per-step plots of Gil, Sanfelice & Nikravesh 2013 Figs. 4–5 and Gil, Sanfelice & Nikravesh (LLM) Fig. 6. A method of order p
//! has local error O(h^{p+1}).
//!
//! The step is taken with the method's own stepper (`method::create`), so the method's
//! error estimate of that step (y_{n+1} − ŷ_{n+1}, e.g. ode45's E-weights, or LLM's
//! estimate of Gil, Sanfelice & Nikravesh (LLM) eqs. 29–33) is reported beside the true local error: Gil, Sanfelice & Nikravesh (LLM) Fig. 6 plots
//! the two together.

use super::fit::{fit_slope, SlopeFit};
use super::run::{max_dist, Reference};
use super::spec::Plan;
use crate::error::OdeError;
use crate::method;
use crate::model;
use crate::stats::Stats;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalSeries {
    pub method: String,
    /// Step sizes, decreasing.
    pub h: Vec<f64>,
    /// Max-norm distance of the step's result from the reference.
    pub error: Vec<f64>,
    /// Max norm of the method's own error estimate of the step (NaN for methods
    /// without one).
    pub estimate: Vec<f64>,
    pub fit: SlopeFit,
}

pub fn local_series(
    plan: &Plan,
    reference: &Reference,
    method_id: &str,
) -> Result<LocalSeries, OdeError> {
    // Your own method resolves from the plan's tableau, like any other run.
    let (info, custom) = method::resolve(method_id, plan.tableau_for(method_id).as_ref())?;
    let (model_info, model) = model::build(&plan.base.model, &plan.base.params)?;
    if info.second_order && !model_info.second_order {
        return Err(OdeError::NeedsSecondOrderModel {
            method: method_id.to_string(),
            model: model_info.id,
        });
    }
    let y0 = reference.y0().to_vec();
    let options = method::MethodOptions {
        custom,
        ..Default::default()
    };
    let mut stepper = method::create_with(method_id, y0.len(), &options)?;
    let mut hs: Vec<f64> = plan.local_h.clone();
    hs.sort_by(|a, b| b.total_cmp(a));
    let mut error = Vec::with_capacity(hs.len());
    let mut estimate = Vec::with_capacity(hs.len());
    let mut y1 = vec![0.0; y0.len()];
    let mut stats = Stats::default();
    for &h in &hs {
        stepper.step(model.as_ref(), plan.t0, &y0, h, &mut y1, &mut stats)?;
        let exact = reference.at(plan.t0 + h)?;
        error.push(max_dist(&y1, &exact));
        estimate.push(
            stepper
                .error_estimate()
                .map_or(f64::NAN, |e| e.iter().fold(0.0f64, |m, x| m.max(x.abs()))),
        );
    }
    let fit = fit_slope(&hs, &error);
    Ok(LocalSeries {
        method: method_id.to_string(),
        h: hs,
        error,
        estimate,
        fit,
    })
}
