//! The convergence lab: the numbers behind the error-vs-h views.
//!
//! - `global.rs`: global error at t1 vs h = T/2ⁿ for fixed steps, against the model's
//!   exact solution or a fine reference run; the fitted slope over the asymptotic range
//!   (`fit.rs`, before the round-off floor E = C1 h^p + C2/h of Schwab & Delhaes §7.5); the
//!   Richardson estimate of Schwab & Delhaes eq. (7.9); Dₙ = |yₙ − yₙ₋₁| of Schwab & Delhaes §7.6.
//! - `work_precision.rs`: error at t1 vs f-evaluations over a tolerance sweep.
//! - `local.rs`: the error of one step from the exact solution at t0 vs h (Gil, Sanfelice & Nikravesh 2013 Figs. 4–5,
//!   Gil, Sanfelice & Nikravesh (LLM) Fig. 6).
//! - `spec.rs`: the request, its checks and budget; `run.rs`: running a spec to its end
//!   and the reference solution.

pub mod fit;
pub mod global;
pub mod local;
pub mod run;
pub mod spec;
pub mod work_precision;

pub use spec::ConvergenceSpec;

use crate::error::OdeError;
use serde::Serialize;

/// Everything `convergence(spec)` returns.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConvergenceResult {
    /// What the errors are measured against: "exact" or a reference run.
    pub reference: String,
    pub t0: f64,
    pub t1: f64,
    pub global: Vec<global::GlobalSeries>,
    pub work_precision: Vec<work_precision::WorkPrecisionSeries>,
    pub local: Vec<local::LocalSeries>,
    /// Why the errors cannot be measured: the reference run (dp45 at rtol 3e-14) did not
    /// reach t1, with its diagnosis. `None` when the reference is fine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<crate::driver::Diagnosis>,
}

/// Runs every study the spec asks for.
pub fn convergence(spec: &ConvergenceSpec) -> Result<ConvergenceResult, OdeError> {
    let plan = spec.check()?;
    let reference = run::Reference::new(&plan)?;
    let diagnosis = if reference.y1.iter().all(|v| v.is_finite()) {
        None
    } else {
        reference
            .failure(plan.t1)
            .map(|d| crate::driver::Diagnosis {
                message: format!(
                    "The reference solution (dp45 at rtol 3e-14) could not be computed to \
                 t1, so no error can be measured. {}",
                    d.message
                ),
                ..d
            })
    };
    let mut global = Vec::new();
    for m in &plan.methods {
        global.push(global::global_series(&plan, &reference, m)?);
    }
    let mut work = Vec::new();
    for m in &plan.methods {
        if plan.method_info(m)?.adaptive && !plan.tols.is_empty() {
            work.push(work_precision::work_precision_series(&plan, &reference, m)?);
        }
    }
    let mut local = Vec::new();
    for m in &plan.methods {
        local.push(local::local_series(&plan, &reference, m)?);
    }
    Ok(ConvergenceResult {
        reference: reference.describe(),
        t0: plan.t0,
        t1: plan.t1,
        global,
        work_precision: work,
        local,
        diagnosis,
    })
}
