//! A whole run recorded: every accepted step's t, y, h, error estimate and the model's
//! outputs, the requested tEval values and the events, into a [`Solution`].

use super::outcome::StepOutcome;
use super::stepping::Integrator;
use crate::error::OdeError;
use crate::event::EventRecord;
use crate::multibody::ConstraintReport;
use crate::spec::SolveSpec;
use crate::stats::Stats;

/// A whole run. Arrays are flat: `y[i * dim + j]` is state j at time `t[i]`, and
/// likewise `outputs[o][i]` and `exact[i * dim + j]`.
#[derive(Debug, Clone)]
pub struct Solution {
    pub t: Vec<f64>,
    pub y: Vec<f64>,
    pub dim: usize,
    pub names: Vec<String>,
    /// Derived outputs by name, one value per time point.
    pub outputs: Vec<(String, Vec<f64>)>,
    /// The exact solution at the same times, when the model knows it.
    pub exact: Option<Vec<f64>>,
    /// The step taken to reach each point after the first: `h[i] = t[i + 1] − t[i]`.
    pub h: Vec<f64>,
    /// The normalised error estimate of each accepted step (same length as `h`), for
    /// methods with an embedded formula; empty otherwise.
    pub err_est: Vec<f64>,
    /// The events that fired, in order.
    pub events: Vec<EventRecord>,
    /// The requested output times that the run reached (all of `tEval` unless it
    /// stopped early) and the states there, row-major like `y`.
    pub t_eval: Vec<f64>,
    pub y_eval: Vec<f64>,
    pub stats: Stats,
    /// Why the run stopped before t1, if it did (e.g. the solution blew up). The
    /// points up to that moment are kept so the blow-up can be seen.
    pub warning: Option<String>,
    /// The same reason as a typed error.
    pub stopped_by: Option<OdeError>,
    /// Re-partitions and Newton work of a constrained formulation (issue 8).
    pub constraint: Option<ConstraintReport>,
}

/// Integrates the spec from t0 to t1 and records every step.
pub fn solve(spec: &SolveSpec) -> Result<Solution, OdeError> {
    let mut run = Integrator::new(spec)?;
    let t_eval_wanted = spec.checked_t_eval(run.t0, run.t1)?;
    let dim = run.info.dim;
    let n = run.grid().map_or(64, |g| g.steps + 1);
    let mut t = Vec::with_capacity(n);
    let mut y = Vec::with_capacity(n * dim);
    let n_out = run.info.outputs.len();
    let mut outputs: Vec<Vec<f64>> = vec![Vec::with_capacity(n); n_out];
    let mut out = vec![0.0; n_out];
    let has_exact = run.info.exact;
    let mut exact = Vec::with_capacity(if has_exact { n * dim } else { 0 });
    let mut exact_point = vec![0.0; dim];
    let mut hs = Vec::with_capacity(n);
    let mut err_est = Vec::new();
    let mut t_eval = Vec::with_capacity(t_eval_wanted.len());
    let mut y_eval = Vec::with_capacity(t_eval_wanted.len() * dim);
    let mut y_point = vec![0.0; dim];
    let mut next_eval = 0;
    let mut stopped_by = None;
    loop {
        t.push(run.t);
        y.extend_from_slice(&run.y);
        run.model.outputs(run.t, &run.y, &mut out);
        for (series, v) in outputs.iter_mut().zip(&out) {
            series.push(*v);
        }
        if has_exact {
            run.model.exact(run.t0, &run.y0, run.t, &mut exact_point);
            exact.extend_from_slice(&exact_point);
        }
        while let Some(&te) = t_eval_wanted.get(next_eval) {
            if te > run.t {
                break;
            }
            run.interpolate(te, &mut y_point)?;
            t_eval.push(te);
            y_eval.extend_from_slice(&y_point);
            next_eval += 1;
        }
        if run.done() {
            break;
        }
        match run.advance() {
            StepOutcome::Accepted(info) => {
                hs.push(info.h);
                if let Some(e) = info.err_est {
                    err_est.push(e);
                }
            }
            StepOutcome::Stopped(e) => {
                stopped_by = Some(e);
                break;
            }
            StepOutcome::Failed(e) => return Err(e),
            StepOutcome::Rejected { .. } => unreachable!("advance retries rejected steps"),
        }
    }
    Ok(Solution {
        t,
        y,
        dim,
        names: run.info.names.clone(),
        outputs: run.info.outputs.iter().cloned().zip(outputs).collect(),
        exact: has_exact.then_some(exact),
        h: hs,
        err_est,
        events: run.events.clone(),
        t_eval,
        y_eval,
        stats: run.stats,
        warning: stopped_by.as_ref().map(|e| e.to_string()),
        stopped_by,
        constraint: run.model.constraint_report(),
    })
}
