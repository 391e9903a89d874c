//! Global error at t1 against h = T/2ⁿ (Schwab & Delhaes §7.1, §7.5–7.6), for one method.
//!
//! - error: max-norm distance of y(t1) from the reference (`run.rs`); +∞ when the run
//!   blew up (the method is unstable at that h);
//! - Dₙ = |yₙ − yₙ₋₁| (Schwab & Delhaes §7.6), the difference of two successive runs, max norm;
//!   Dₙ₋₁/Dₙ → 2^p while truncation dominates (and falls below 1 in the round-off
//!   regime);
//! - the Richardson estimate of Schwab & Delhaes eq. (7.9), E = |y_{h/2} − y_h|/(2^p − 1) = Dₙ/(2^p − 1),
//!   an estimate of the error of the finer run yₙ, with p the method's order.

use super::fit::{fit_slope, SlopeFit};
use super::run::{budget_diagnosis, fixed_spec, fixed_step, max_dist, out_of_work, Reference};
use super::spec::Plan;
use crate::driver::Diagnosis;
use crate::error::{num, OdeError};
use serde::Serialize;

/// One method's error-vs-h series; arrays are indexed by level (h decreasing).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GlobalSeries {
    pub method: String,
    /// The method's order p (from the catalogue), used by Richardson.
    pub order: u32,
    /// n of h = T/2ⁿ.
    pub n: Vec<u32>,
    pub h: Vec<f64>,
    pub error: Vec<f64>,
    pub nfev: Vec<f64>,
    /// Dₙ (NaN at the first level).
    pub d: Vec<f64>,
    /// Dₙ₋₁/Dₙ (NaN at the first two levels).
    pub d_ratio: Vec<f64>,
    /// Richardson's error estimate of yₙ, Schwab & Delhaes eq. (7.9) (NaN at the first level).
    pub richardson: Vec<f64>,
    pub fit: SlopeFit,
    /// Why no slope could be fitted (fewer than two runs reached t1 with a finite,
    /// nonzero error): the diagnosis of the run at the largest h that stopped, in the
    /// words `solve` uses. `None` when the fit is usable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<Diagnosis>,
}

pub fn global_series(
    plan: &Plan,
    reference: &Reference,
    method: &str,
) -> Result<GlobalSeries, OdeError> {
    let order = plan.method_info(method)?.order;
    let mut s = GlobalSeries {
        method: method.to_string(),
        order,
        n: plan.levels.clone(),
        h: Vec::new(),
        error: Vec::new(),
        nfev: Vec::new(),
        d: Vec::new(),
        d_ratio: Vec::new(),
        richardson: Vec::new(),
        fit: fit_slope(&[], &[]),
        diagnosis: None,
    };
    let mut previous: Option<Vec<f64>> = None;
    let denom = crate::math::powi(2.0, order as i32) - 1.0;
    for &n in &plan.levels {
        let h = plan.h(n);
        if plan.exhausted() {
            s.diagnosis = Some(budget_diagnosis(plan, method, h, s.h.len()));
            break;
        }
        let end = fixed_step(plan, method, plan.t1, h)?;
        // The budget ran out inside this run: the levels before it stand.
        if out_of_work(&end) {
            s.diagnosis = Some(budget_diagnosis(plan, method, h, s.h.len()));
            break;
        }
        s.h.push(h);
        // A run that stopped before t1 (blew up, or its linear algebra failed at this
        // h) has no answer there.
        s.error.push(if end.stopped.is_some() {
            f64::INFINITY
        } else {
            reference.error(&end.y)
        });
        s.nfev.push(end.stats.nfev as f64);
        let d = previous.as_ref().map_or(f64::NAN, |p| max_dist(&end.y, p));
        let ratio = match s.d.last() {
            Some(&dp) => dp / d,
            None => f64::NAN,
        };
        s.d.push(d);
        s.d_ratio.push(ratio);
        s.richardson.push(d / denom);
        previous = Some(end.y);
    }
    s.n.truncate(s.h.len());
    s.fit = fit_slope(&s.h, &s.error);
    if s.diagnosis.is_none() && s.fit.slope.is_nan() && reference.y1.iter().all(|v| v.is_finite()) {
        s.diagnosis = unusable(plan, method, &s);
    }
    Ok(s)
}

/// Why a series has no slope: how many runs were usable and the diagnosis (computed
/// by `solve`) of the first run, from the largest h, that has one.
fn unusable(plan: &Plan, method: &str, s: &GlobalSeries) -> Option<Diagnosis> {
    let usable = s
        .error
        .iter()
        .filter(|e| e.is_finite() && **e > 0.0)
        .count();
    let stopped = s.error.iter().filter(|e| e.is_infinite()).count();
    let (h_big, h_small) = (s.h.first()?, s.h.last()?);
    let why = if usable >= 2 {
        "the error does not fall as h shrinks"
    } else {
        "a slope needs two usable runs"
    };
    let head = format!(
        "No slope for {method}: of its {} runs (h = {} … {}), {stopped} stopped before t1 \
         and {usable} reached it with a usable error; {why}.",
        s.h.len(),
        num(*h_big),
        num(*h_small)
    );
    for &h in &s.h {
        // The reruns that find the diagnosis stay within what is left of the budget.
        if plan.exhausted() {
            return Some(Diagnosis {
                code: crate::driver::Code::WorkBudget,
                message: format!(
                    "{head} Finding out why would take runs past the study's work budget."
                ),
                advice: "Lower the largest n (nMax) or compare fewer methods at once.".into(),
                t: None,
                detail: None,
                fix: None,
            });
        }
        let spec = crate::spec::SolveSpec {
            max_work: Some(plan.work_left.get()),
            ..fixed_spec(plan, method, plan.t1, h)
        };
        if let Some(d) = crate::driver::diagnosis_of(&spec) {
            return Some(Diagnosis {
                message: format!("{head} At h = {}: {}", num(h), d.message),
                ..d
            });
        }
    }
    let zero = s.error.iter().all(|e| *e == 0.0);
    Some(Diagnosis {
        code: if zero {
            crate::driver::Code::ToleranceTooTight
        } else {
            crate::driver::Code::UnstableStep
        },
        message: if zero {
            format!("{head} Every error is zero: the runs are exact to round-off.")
        } else {
            format!("{head} The error grows as h shrinks at these h.")
        },
        advice: "Try smaller step sizes (a larger n).".into(),
        t: None,
        detail: None,
        fix: None,
    })
}
