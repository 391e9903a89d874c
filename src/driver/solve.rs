//! A whole run recorded: every accepted step's t, y, h, error estimate and the model's
//! outputs, the requested tEval values and the events, into a [`Solution`].

#[cfg(feature = "full")]
use super::diagnosis::Diagnosis;
use super::inspect::StepLog;
use super::record::{fits, too_large, values_in, Point, Recorder};
use super::run::Ended;
use super::stepping::Integrator;
use crate::error::OdeError;
use crate::event::EventRecord;
use crate::multibody::ConstraintReport;
use crate::spec::SolveSpec;
use crate::stats::Stats;
use std::ops::ControlFlow;

/// A whole run. Arrays are flat: `y[i * dim + j]` is state j at time `t[i]`, and
/// likewise `outputs[o][i]` and `exact[i * dim + j]`.
#[derive(Debug, Clone)]
pub struct Solution {
    pub t: Vec<f64>,
    pub y: Vec<f64>,
    pub dim: usize,
    pub names: Vec<String>,
    /// What was integrated, in words: the model's source line, which for a constrained
    /// mechanism names the formulation that ran (its states are `names`).
    pub source: String,
    /// Whether the run chose its steps by error control (`false`: a fixed grid of h),
    /// as the spec's `adaptive` and the method decided.
    pub adaptive: bool,
    /// Derived outputs by name, one value per time point.
    pub outputs: Vec<(String, Vec<f64>)>,
    /// The exact solution at the same times, when the model knows it.
    pub exact: Option<Vec<f64>>,
    /// The step taken to reach each point after the first: `h[i] = t[i + 1] − t[i]`
    /// (when the run was thinned, the step that ended at `t[i + 1]`).
    pub h: Vec<f64>,
    /// The normalised error estimate of the step that reached each point after the
    /// first (same length as `h`), for methods with an embedded formula; empty
    /// otherwise.
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
    /// Why the run stopped, or why its result is doubtful though it reached t1 (it
    /// grew far past its own scale where the method is unstable): the cause computed
    /// from the run (`diagnosis.rs`). When present, `warning` is its text. Only in the
    /// whole engine (cargo feature `full`): the first-load build refuses such a run.
    #[cfg(feature = "full")]
    pub diagnosis: Option<Diagnosis>,
    /// Re-partitions and Newton work of a constrained formulation.
    pub constraint: Option<ConstraintReport>,
    /// Set when the run took more steps than fit in memory and only every 2ᵏ-th step
    /// (plus the start, the events and the end) was kept: says so in words.
    pub thinned: Option<String>,
    /// Every attempted step, when the spec asked (`inspect: true`).
    pub inspect: Option<StepLog>,
}

/// How the step that reached the current point went: its h, error estimate, and
/// whether an event fired at its end. `None` at the start.
type Reached = Option<(f64, Option<f64>, bool)>;

/// The run's current point, for the recorder (the start and event points are pinned).
fn point<'a>(
    run: &'a Integrator,
    y: &'a [f64],
    outputs: &'a [f64],
    exact: Option<&'a [f64]>,
    reached: Reached,
) -> Point<'a> {
    Point {
        t: run.t,
        y,
        outputs,
        exact,
        h: reached.map(|r| r.0),
        err_est: reached.and_then(|r| r.1),
        pinned: reached.is_none_or(|r| r.2),
    }
}

/// What a run records as it goes: its points (within the memory budget), the requested
/// tEval values, and the buffers they are computed in.
struct Recording {
    record: Recorder,
    /// The step that reached the current point: None at the start.
    reached: Reached,
    n_out: usize,
    has_exact: bool,
    out: Vec<f64>,
    exact_point: Vec<f64>,
    y_point: Vec<f64>,
    y_report: Vec<f64>,
    t_eval_wanted: Vec<f64>,
    next_eval: usize,
    t_eval: Vec<f64>,
    y_eval: Vec<f64>,
}

impl Recording {
    /// Records the point the run has reached (the start, or the end of the step
    /// `reached`) and the tEval values up to it.
    fn reach(&mut self, run: &mut Integrator, reached: Reached) -> Result<(), OdeError> {
        self.reached = reached;
        // (Through `dyn Model` every point: only for a model that has outputs.)
        if self.n_out > 0 {
            run.model.outputs(run.t, &run.y, &mut self.out);
        }
        if self.has_exact {
            run.model
                .exact(run.t0, &run.y0, run.t, &mut self.exact_point);
        }
        let exact = self.has_exact.then_some(&self.exact_point[..]);
        // The columns the run's names name (a state-space run after a re-partition).
        let y_named =
            run.between_steps && run.model.report_state(&run.y, &mut self.y_report, false);
        let y = if y_named {
            &self.y_report[..]
        } else {
            &run.y[..]
        };
        self.record
            .offer(point(run, y, &self.out, exact, reached), run.done());
        while let Some(&te) = self.t_eval_wanted.get(self.next_eval) {
            if te > run.t {
                break;
            }
            run.interpolate(te, &mut self.y_point)?;
            self.t_eval.push(te);
            self.y_eval.extend_from_slice(&self.y_point);
            self.next_eval += 1;
        }
        Ok(())
    }

    /// The run stopped: it ends at the last accepted point (unchanged by the stop).
    fn keep_last(&mut self, run: &Integrator) {
        let exact = self.has_exact.then_some(&self.exact_point[..]);
        let y_named = run.model.report_state(&run.y, &mut self.y_report, false);
        let y = if y_named {
            &self.y_report[..]
        } else {
            &run.y[..]
        };
        self.record
            .keep_last(point(run, y, &self.out, exact, self.reached));
    }
}

/// Integrates the spec from t0 to t1 and records every step (every 2ᵏ-th step, the
/// events and the end, when more steps are taken than fit in memory).
pub fn solve(spec: &SolveSpec) -> Result<Solution, OdeError> {
    let mut run = Integrator::new(spec)?;
    let t_eval_wanted = spec.checked_t_eval(run.t0, run.t1)?;
    let dim = run.info.dim;
    let t_eval_values = values_in(&[t_eval_wanted.len(), dim]);
    if !fits(t_eval_values) {
        return Err(too_large(
            format!("{} tEval times of {dim} states", t_eval_wanted.len()),
            t_eval_values,
        ));
    }
    let n = run.grid().map(|g| g.steps + 1);
    let n_out = run.info.outputs.len();
    let has_exact = run.info.exact;
    let mut rec = Recording {
        record: Recorder::new(dim, n_out, has_exact, n)?,
        reached: None,
        n_out,
        has_exact,
        out: vec![0.0; n_out],
        exact_point: vec![0.0; dim],
        y_point: vec![0.0; dim],
        y_report: vec![0.0; dim],
        t_eval: Vec::with_capacity(t_eval_wanted.len()),
        y_eval: Vec::with_capacity(t_eval_wanted.len() * dim),
        t_eval_wanted,
        next_eval: 0,
    };
    rec.reach(&mut run, None)?;
    let ended = run.run_steps(|run, info| {
        rec.reach(run, Some((info.h, info.err_est, info.new_events > 0)))?;
        Ok(ControlFlow::Continue(()))
    })?;
    let stopped_by = match ended {
        Ended::Stopped(e) => {
            rec.keep_last(&run);
            Some(e)
        }
        Ended::Finished | Ended::Paused(_) => None,
    };
    let Recording {
        record,
        t_eval,
        y_eval,
        ..
    } = rec;
    debug_assert!(record.last_kept(), "the end of a run is kept");
    let thinned = record.note();
    #[cfg(feature = "full")]
    let diagnosis = diagnose(spec, &run, stopped_by.as_ref(), &record);
    let constraint = run.model.constraint_report();
    #[cfg(feature = "full")]
    let warning = match (&diagnosis, &stopped_by) {
        (Some(d), _) => Some(d.text()),
        (None, Some(e)) => Some(e.to_string()),
        (None, None) => None,
    }
    .map(|w| match &constraint {
        // A mechanism that stopped where Φ_q nearly loses rank: name the constraints.
        Some(c) if stopped_by.is_some() && !c.locked.is_empty() => format!(
            "{w} The mechanism locks there: constraints {} (nearly) depend on each other \
             (Φ_q loses rank), so no motion continues them.",
            c.locked.join(", ")
        ),
        _ => w,
    });
    #[cfg(not(feature = "full"))]
    let warning = undiagnosed(spec, &run, stopped_by.as_ref(), &record)?;
    Ok(Solution {
        t: record.t,
        y: record.y,
        dim,
        names: run.info.names.clone(),
        source: run.info.source.clone(),
        adaptive: matches!(run.pacing, super::pacing::Pacing::Control(_)),
        outputs: run
            .info
            .outputs
            .iter()
            .cloned()
            .zip(record.outputs)
            .collect(),
        exact: has_exact.then_some(record.exact),
        h: record.h,
        err_est: record.err_est,
        events: run.events.clone(),
        t_eval,
        y_eval,
        stats: run.stats,
        warning,
        stopped_by,
        #[cfg(feature = "full")]
        diagnosis,
        constraint,
        thinned,
        inspect: run.inspector.take().map(|log| *log),
    })
}

/// The run's diagnosis (`diagnosis.rs`), when it stopped or grew past its own scale.
#[cfg(feature = "full")]
fn diagnose(
    spec: &SolveSpec,
    run: &Integrator,
    stop: Option<&OdeError>,
    record: &Recorder,
) -> Option<Diagnosis> {
    let record = super::diagnosis::Record {
        t: &record.t,
        y: &record.y,
        h: &record.h,
    };
    super::diagnosis::diagnose(spec, run, stop, &record)
}

/// The first-load build has no diagnosis: a run that stopped or grew past its own
/// scale is refused, and the page's worker re-runs it in the whole engine.
#[cfg(not(feature = "full"))]
fn undiagnosed(
    spec: &SolveSpec,
    run: &Integrator,
    stop: Option<&OdeError>,
    record: &Recorder,
) -> Result<Option<String>, OdeError> {
    // A tolerance below the floor ran at the floor: the whole engine says so.
    let clamped = run.is_adaptive()
        && spec
            .tolerance(run.info.dim)
            .is_ok_and(|t| t.rtol_min() < crate::control::RTOL_FLOOR);
    if clamped
        || stop.is_some()
        || super::diagnosis::growth_of(&run.y0, &record.y) > super::diagnosis::GROWTH
    {
        return Err(OdeError::NotInThisBuild {
            what: "the diagnosis of a run that stopped, blew up or asked for rtol below 100 ulp",
        });
    }
    Ok(None)
}

/// The diagnosis of the run `spec` describes (`None` when it is fine or refused).
#[cfg(feature = "full")]
pub fn diagnosis_of(spec: &SolveSpec) -> Option<Diagnosis> {
    solve(spec).ok().and_then(|s| s.diagnosis)
}

/// The first-load build diagnoses nothing (the labs that ask are not in it).
#[cfg(not(feature = "full"))]
pub fn diagnosis_of(_: &SolveSpec) -> Option<super::Diagnosis> {
    None
}
