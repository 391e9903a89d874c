//! Running one spec to its end time, and the solution the errors are measured against:
//! the model's exact solution, or else a fine reference run (dp45 at rtol = 3e-14,
//! atol = 1e-14, Schwab & Delhaes's ode45 tableau under step-size control).

use super::spec::Plan;
use crate::driver::{Ended, Integrator};
use crate::error::OdeError;
use crate::model::{self, Model};
use crate::spec::{SolveSpec, Tol};
use crate::stats::Stats;

/// The reference run's tolerances: dp45 just above the floor of what double precision
/// resolves (`control::RTOL_FLOOR`, 2.2e-14). At rtol 1e-12 its own error (~1e-11 on
/// the pendulum, ~1e-8 on stiffer models) was the "floor" radau5 and rk4 reached.
pub const REFERENCE_RTOL: f64 = 3e-14;
pub const REFERENCE_ATOL: f64 = 1e-16;

/// The end of a run: y(t1) (NaN-filled if the run stopped early) and its work.
#[derive(Debug, Clone)]
pub struct RunEnd {
    pub y: Vec<f64>,
    pub stats: Stats,
    /// The run blew up (the method is unstable at this h): the error is +∞.
    pub blew_up: bool,
    /// Why the run stopped before t1 (a blow-up, step-size underflow, the budget, a
    /// failure retried too often): the driver's [`Ended::Stopped`], the same stop
    /// `solve` reports as a warning.
    pub stopped: Option<OdeError>,
}

/// Runs `spec` to t1, one step at a time (no trajectory is stored).
pub fn run_to_end(spec: &SolveSpec) -> Result<RunEnd, OdeError> {
    let mut it = Integrator::new(spec)?;
    let stopped = match it.run_to_end()? {
        Ended::Stopped(reason) => Some(reason),
        Ended::Finished | Ended::Paused(_) => None,
    };
    Ok(RunEnd {
        y: match stopped {
            Some(_) => vec![f64::NAN; it.y().len()],
            None => it.y().to_vec(),
        },
        stats: it.stats(),
        blew_up: matches!(stopped, Some(OdeError::BlewUp { .. })),
        stopped,
    })
}

/// The spec of a fixed-step run of `method` with step h over the plan's interval.
pub fn fixed_spec(plan: &Plan, method: &str, t1: f64, h: f64) -> SolveSpec {
    SolveSpec {
        method: method.to_string(),
        t1: Some(t1),
        h: Some(h),
        adaptive: Some(false),
        tableau: plan.tableau_for(method),
        ..plan.base.clone()
    }
}

/// A fixed-step run of `method` with step h over the plan's interval, within what is
/// left of the plan's work budget (and spending from it).
pub fn fixed_step(plan: &Plan, method: &str, t1: f64, h: f64) -> Result<RunEnd, OdeError> {
    budgeted(plan, fixed_spec(plan, method, t1, h))
}

/// Runs `spec` with what is left of the plan's work budget as its `maxWork`, and takes
/// its work from the budget. The caller checks [`Plan::exhausted`] first.
pub fn budgeted(plan: &Plan, spec: SolveSpec) -> Result<RunEnd, OdeError> {
    let end = run_to_end(&SolveSpec {
        max_work: Some(plan.work_left.get().max(f64::MIN_POSITIVE)),
        ..spec
    })?;
    plan.spend(&end.stats, end.y.len());
    Ok(end)
}

/// Whether a run stopped on the work budget.
pub fn out_of_work(end: &RunEnd) -> bool {
    matches!(end.stopped, Some(OdeError::WorkBudget { .. }))
}

/// The lab's diagnosis when its budget ran out at (or before) `method`'s run at step h,
/// keeping the `done` larger step sizes of it.
pub fn budget_diagnosis(
    plan: &Plan,
    method: &str,
    h: f64,
    done: usize,
) -> crate::driver::Diagnosis {
    use crate::error::num;
    let kept = match done {
        0 => format!("no step size of {method} finished"),
        1 => format!("the one larger step size of {method} finished is shown"),
        n => format!("the {n} larger step sizes of {method} finished are shown"),
    };
    crate::driver::Diagnosis {
        code: crate::driver::Code::WorkBudget,
        message: format!(
            "The convergence study used its work budget of {} units (states × f \
             evaluations, entries × Jacobians and LUs, all runs together) by the run of \
             {method} at h = {}: {kept}.",
            num(plan.max_work),
            num(h)
        ),
        advice: "Lower the largest n (nMax), compare fewer methods at once, or pick a \
                 smaller model."
            .into(),
        t: None,
        detail: None,
        fix: None,
    }
}

/// The reference solution: the model's exact solution from (t0, y0) where it has one,
/// else tight dp45 runs.
pub struct Reference {
    /// y at t1.
    pub y1: Vec<f64>,
    pub exact: bool,
    model: Box<dyn Model>,
    base: SolveSpec,
    t0: f64,
    y0: Vec<f64>,
}

impl Reference {
    pub fn new(plan: &Plan) -> Result<Self, OdeError> {
        // The integrator resolves y0 as a run would (spec, model default, catalogue).
        let probe = Integrator::new(&SolveSpec {
            method: "dp45".into(),
            h: Some((plan.t1 - plan.t0) / 4.0),
            adaptive: Some(false),
            ..plan.base.clone()
        })?;
        let y0 = probe.y().to_vec();
        let (_, model) = model::build(&plan.base.model, &plan.base.params)?;
        let mut r = Reference {
            y1: Vec::new(),
            exact: plan.has_exact,
            model,
            base: plan.base.clone(),
            t0: plan.t0,
            y0,
        };
        r.y1 = r.at(plan.t1)?;
        Ok(r)
    }

    /// The reference solution at t (exact, or a dp45 run from t0 at [`REFERENCE_RTOL`]).
    pub fn at(&self, t: f64) -> Result<Vec<f64>, OdeError> {
        if self.exact {
            let mut out = vec![0.0; self.y0.len()];
            if self.model.exact(self.t0, &self.y0, t, &mut out) {
                return Ok(out);
            }
        }
        let end = run_to_end(&self.reference_spec(t))?;
        Ok(end.y)
    }

    /// The tight dp45 run the reference comes from, to t.
    fn reference_spec(&self, t: f64) -> SolveSpec {
        SolveSpec {
            method: "dp45".into(),
            t1: Some(t),
            rtol: Some(Tol::Scalar(REFERENCE_RTOL)),
            atol: Some(Tol::Scalar(REFERENCE_ATOL)),
            h: None,
            adaptive: Some(true),
            ..self.base.clone()
        }
    }

    /// The initial state the runs start from.
    pub fn y0(&self) -> &[f64] {
        &self.y0
    }

    /// Why the reference run did not reach t (its diagnosis, computed by `solve`), when
    /// it did not.
    pub fn failure(&self, t: f64) -> Option<crate::driver::Diagnosis> {
        if self.exact {
            return None;
        }
        crate::driver::diagnosis_of(&self.reference_spec(t))
    }

    pub fn describe(&self) -> String {
        if self.exact {
            "exact".into()
        } else {
            "dp45, rtol 3e-14, atol 1e-16".into()
        }
    }

    /// Max-norm distance of `y` from the reference at t1 (+∞ for a blown-up run).
    pub fn error(&self, y: &[f64]) -> f64 {
        max_dist(y, &self.y1)
    }
}

/// Max-norm distance; +∞ if either side is not finite.
pub fn max_dist(a: &[f64], b: &[f64]) -> f64 {
    let mut worst = 0.0f64;
    for (x, y) in a.iter().zip(b) {
        let d = (x - y).abs();
        if !d.is_finite() {
            return f64::INFINITY;
        }
        worst = worst.max(d);
    }
    worst
}
