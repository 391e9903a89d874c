//! One step of a run and the state kept between steps: a grid step or an adaptive
//! step (with its rejections and retries), cut at the earliest event, followed by the
//! model's after-step work (a constrained formulation's partition check or projection).

use super::inspect::StepLog;
#[cfg(feature = "full")]
use super::outcome::Cause;
use super::outcome::{StepInfo, StepOutcome};
use super::pacing::{Pacing, Passed, Verdict};
use super::BLOW_UP;
use crate::control::{ErrorMeasure, ErrorNorm, Tolerance};
use crate::error::OdeError;
use crate::event::detector::{StepView, EVENT_RTOL};
use crate::event::{Detector, EventRecord};
use crate::method::{self, MethodInfo, MethodOptions, Stepper};
use crate::model::{Model, ModelInfo};
use crate::multibody::ConstraintReport;
use crate::spec::Grid;
use crate::stats::Stats;

/// Whether a state counts as blown up: a component past [`BLOW_UP`] or NaN (which
/// fails every comparison, hence the negated "within bounds" test).
fn blew_up(y: &[f64]) -> bool {
    !y.iter().all(|v| v.abs() <= BLOW_UP)
}

/// The method's step from (t, y) by h into `y_new`, and its normalised error if the
/// method estimates one (infinite if the step left the floating-point range). A
/// constraint solve that failed inside f is the precise reason of a failure,
/// so it comes first.
#[inline(always)]
fn method_step(
    stepper: &mut dyn Stepper,
    (model, between_steps): (&dyn Model, bool),
    (t, y, h): (f64, &[f64], f64),
    y_new: &mut [f64],
    stats: &mut Stats,
    measure: ErrorMeasure,
) -> Result<Option<f64>, OdeError> {
    let result = match stepper.measured() {
        Some(measured) => measured
            .step_measuring(model, (t, y, h), y_new, stats, Some(measure))
            .map(Some),
        None => stepper.step(model, t, y, h, y_new, stats).map(|()| {
            stepper
                .error_estimate()
                .map(|est| measure.of(est, y, y_new))
        }),
    };
    // Only a model that acts between steps fails inside f (`Model::acts_between_steps`).
    match between_steps.then(|| model.take_failure()).flatten() {
        Some(f) => Err(f.at(t, h)),
        None => result,
    }
}

/// How a step ended: at `t` (the pacing's end, or an event's), with the error norm
/// `err_est`, `fired` events at its end, `cut` short by one of them.
struct Settled {
    t: f64,
    err_est: Option<f64>,
    fired: usize,
    cut: bool,
}

impl Settled {
    /// A step no event cut.
    fn uncut(passed: Passed) -> Self {
        Settled {
            t: passed.t_new,
            err_est: passed.err_est,
            fired: 0,
            cut: false,
        }
    }
}

/// A run in progress: model, method, current state, kept between calls.
pub struct Integrator {
    pub(super) info: ModelInfo,
    pub(super) method: MethodInfo,
    pub(super) model: Box<dyn Model>,
    /// The model's [`Model::acts_between_steps`], asked once.
    pub(super) between_steps: bool,
    pub(super) stepper: Box<dyn Stepper>,
    /// How the stepper was made, to restart it when a model rewrites its coordinates
    /// (a state-space re-partition).
    pub(super) options: MethodOptions,
    /// The model rewrote its state in new coordinates at the last step: the method
    /// restarts before the next step (its dense output of the last step, in the old
    /// coordinates, stays available for tEval until then).
    pub(super) restart: bool,
    pub(super) pacing: Pacing,
    /// The tolerance the method's error estimate is measured against (the run's, or
    /// the method's calibration of it: [`Stepper::error_tolerance`]).
    pub(super) tolerance: Tolerance,
    pub(super) norm: ErrorNorm,
    pub(super) detector: Detector,
    pub(super) t0: f64,
    pub(super) t1: f64,
    pub(super) t: f64,
    pub(super) y: Vec<f64>,
    pub(super) y0: Vec<f64>,
    pub(super) y_next: Vec<f64>,
    pub(super) y_cut: Vec<f64>,
    /// Start and method step size of the last accepted step (for dense output).
    pub(super) last_step: Option<(f64, f64)>,
    pub(super) events: Vec<EventRecord>,
    pub(super) stopped_by_event: bool,
    /// The entries a Jacobian or an LU of this run fills (`spec::work_with`): n², or on
    /// the sparse path the pattern's entries and diagonal.
    pub(super) matrix_entries: f64,
    /// The work budget (`maxWork`, `spec::work_of`).
    pub(super) max_work: f64,
    /// Why the run stopped early (a [`StepOutcome::Stopped`] reason), once it has.
    pub(super) stopped: Option<OdeError>,
    pub(super) stats: Stats,
    /// Every attempted step, when the spec asks (`inspect`; `inspect.rs`).
    pub(super) inspector: Option<Box<StepLog>>,
}

impl Integrator {
    /// The earliest crossing of a watched function in the step from (t, y) to
    /// (t_new, y_next), on the method's dense output of that step.
    fn find_crossing(&mut self, t_new: f64, h_method: f64) -> Result<Option<f64>, OdeError> {
        let stepper = &mut self.stepper;
        let model = self.model.as_ref();
        let mut dense = |theta: f64, out: &mut [f64], stats: &mut Stats| {
            stepper.dense_output(model, theta, out, stats)
        };
        let view = StepView {
            t: self.t,
            h: h_method,
            t_new,
            y_new: &self.y_next,
        };
        self.detector
            .check(model, view, &mut dense, &mut self.stats, &mut self.y_cut)
    }

    /// Looks for events in the accepted step to (t_new, y_next); if one fired, ends the
    /// step there.
    ///
    /// The step is recomputed to end at the located time rather than keeping the
    /// interpolated state there: the dense output is less accurate than the step, and
    /// its error would enter the solution at every switch. When the first step
    /// straddled the switch (so its dense output saw the other regime), the crossing is
    /// located again on the recomputed, shorter step, a few times at most.
    fn settle_events(&mut self, passed: Passed) -> Result<Settled, OdeError> {
        const MAX_PASSES: usize = 4;
        let Passed {
            t_new,
            h: h_method,
            mut err_est,
        } = passed;
        let Some(mut t_cut) = self.find_crossing(t_new, h_method)? else {
            return Ok(Settled::uncut(passed));
        };
        self.cut_by_event(h_method, err_est);
        for pass in 1..=MAX_PASSES {
            let h = t_cut - self.t;
            let err = method_step(
                self.stepper.as_mut(),
                (self.model.as_ref(), self.between_steps),
                (self.t, &self.y, h),
                &mut self.y_next,
                &mut self.stats,
                ErrorMeasure {
                    norm: self.norm,
                    tolerance: &self.tolerance,
                },
            )?;
            if blew_up(&self.y_next) {
                return Err(OdeError::BlewUp { t: t_cut, h });
            }
            if err_est.is_some() {
                err_est = err;
            }
            if pass == MAX_PASSES {
                break;
            }
            // None: the recomputed step stops short of the switch; the next step
            // starts there and finds it again.
            match self.find_crossing(t_cut, h)? {
                Some(again) if t_cut - again > EVENT_RTOL * t_cut.abs().max(h) => {
                    self.cut_by_event(h, err_est);
                    t_cut = again;
                }
                _ => break,
            }
        }
        let (fired, terminal) = self
            .detector
            .commit(self.model.as_ref(), t_cut, &self.y_next);
        if self.events.len() + fired.len() > super::record::max_events(self.info.dim) {
            return Err(OdeError::EventBudget {
                t: t_cut,
                events: self.events.len() + fired.len(),
            });
        }
        for &index in &fired {
            let mut y = self.y_next.clone();
            self.model.report_state(&self.y_next, &mut y, false);
            self.events.push(EventRecord { t: t_cut, y, index });
        }
        self.stopped_by_event |= terminal;
        Ok(Settled {
            t: t_cut,
            err_est,
            fired: fired.len(),
            cut: true,
        })
    }

    /// One attempt at the next step: a grid step, or one try of an adaptive step
    /// (which its error test may reject); an accepted step may be cut short by an
    /// event. A stop (blow-up, step-size underflow, budget…) ends the run: [`done`]
    /// is true afterwards.
    ///
    /// [`done`]: Integrator::done
    pub fn attempt(&mut self) -> StepOutcome {
        let t = self.t;
        self.inspect_begin();
        let outcome = match self.try_attempt() {
            Ok(outcome) => outcome,
            Err(e) => {
                let outcome = StepOutcome::from_error(e);
                if let StepOutcome::Stopped(reason) = &outcome {
                    self.stopped = Some(reason.clone());
                }
                outcome
            }
        };
        self.after_attempt(t, &outcome);
        outcome
    }

    /// Why the run stopped before t1, if it did.
    pub fn stopped(&self) -> Option<&OdeError> {
        self.stopped.as_ref()
    }

    fn try_attempt(&mut self) -> Result<StepOutcome, OdeError> {
        if self.done() {
            return Err(OdeError::Finished { t1: self.t1 });
        }
        if crate::spec::work_with(&self.stats, self.info.dim, self.matrix_entries) >= self.max_work
        {
            return Err(OdeError::WorkBudget {
                t: self.t,
                max_work: self.max_work,
            });
        }
        if self.restart {
            self.stepper = method::create_with(self.method.id, self.info.dim, &self.options)?;
            if self.is_adaptive() {
                self.stepper.set_tolerance(&self.tolerance);
            }
            self.last_step = None;
            self.restart = false;
        }
        let span = match &mut self.pacing {
            Pacing::Grid(grid) => grid.next(self.t, self.stats.nsteps)?,
            Pacing::Control(control) => control.next(self.t, self.t1, self.stats.nsteps)?,
        };
        let result = method_step(
            self.stepper.as_mut(),
            (self.model.as_ref(), self.between_steps),
            (self.t, &self.y, span.h),
            &mut self.y_next,
            &mut self.stats,
            ErrorMeasure {
                norm: self.norm,
                tolerance: &self.tolerance,
            },
        );
        let passed = match &mut self.pacing {
            Pacing::Grid(_) => {
                let err_est = result?;
                self.stats.nsteps += 1;
                if blew_up(&self.y_next) {
                    return Err(OdeError::BlewUp {
                        t: span.t_new,
                        h: span.h,
                    });
                }
                Passed {
                    t_new: span.t_new,
                    h: span.h,
                    err_est,
                }
            }
            Pacing::Control(control) => {
                let own = if control.method_control {
                    self.stepper.step_control()
                } else {
                    None
                };
                match control.judge(result, span, &mut self.stats, own)? {
                    Verdict::Passed(passed) => passed,
                    Verdict::Retry(retry) => {
                        return Ok(StepOutcome::Rejected {
                            t: self.t,
                            h: retry.h,
                            h_next: retry.h_next,
                            cause: retry.cause,
                            err_est: retry.err_est,
                        })
                    }
                }
            }
        };
        let settled = if self.detector.is_empty() {
            Settled::uncut(passed)
        } else {
            self.settle_events(passed)?
        };
        let Settled {
            t: t_new,
            err_est,
            fired: new_events,
            cut,
        } = settled;
        if let Pacing::Grid(grid) = &mut self.pacing {
            grid.reached(t_new, cut);
        }
        let h = t_new - self.t;
        // After a cut the method's last step is the recomputed one, ending at t_new.
        self.last_step = Some((self.t, if cut { h } else { passed.h }));
        // Constrained formulations: recover the dependent coordinates, check
        // the partition or project; a state rewritten in new coordinates restarts the
        // method there.
        if self.between_steps
            && self
                .model
                .after_step(t_new, &mut self.y_next)
                .map_err(|f| f.at(t_new, h))?
        {
            self.restart = true;
        }
        std::mem::swap(&mut self.y, &mut self.y_next);
        self.t = t_new;
        self.stats.naccept += 1;
        Ok(StepOutcome::Accepted(StepInfo {
            t: t_new,
            h,
            err_est,
            new_events,
        }))
    }

    /// The solution at time `t` within the last step, from the method's dense output.
    ///
    /// It is written in the columns the run's names name ([`Integrator::reported_y`]).
    pub fn interpolate(&mut self, t: f64, out: &mut [f64]) -> Result<(), OdeError> {
        if t == self.t {
            out.copy_from_slice(&self.reported_y());
            return Ok(());
        }
        let (t_prev, h) = self.last_step.ok_or(OdeError::BadTEval {
            message: format!("t = {} is not within a step taken", crate::error::num(t)),
        })?;
        if !(t >= t_prev && t <= self.t) {
            return Err(OdeError::BadTEval {
                message: format!(
                    "t = {} is outside the last step [{}, {}]",
                    crate::error::num(t),
                    crate::error::num(t_prev),
                    crate::error::num(self.t)
                ),
            });
        }
        self.stepper
            .dense_output(self.model.as_ref(), (t - t_prev) / h, out, &mut self.stats)?;
        // A state rewritten at the end of the last step (a re-partition): its dense
        // output is still in the coordinates before it.
        let raw = out.to_vec();
        self.model.report_state(&raw, out, self.restart);
        Ok(())
    }

    /// The current state in the columns [`ModelInfo::names`] names, for the run's
    /// record: y itself, except for a state-space formulation after a re-partition
    /// (its integrated coordinates are then others; the named ones are recovered).
    pub fn reported_y(&self) -> Vec<f64> {
        let mut out = self.y.clone();
        self.model.report_state(&self.y, &mut out, false);
        out
    }

    pub fn t(&self) -> f64 {
        self.t
    }

    pub fn y(&self) -> &[f64] {
        &self.y
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    pub fn model_info(&self) -> &ModelInfo {
        &self.info
    }

    pub fn method_info(&self) -> &MethodInfo {
        &self.method
    }

    /// True if the step size is chosen by error control.
    pub fn is_adaptive(&self) -> bool {
        matches!(self.pacing, Pacing::Control(_))
    }

    /// The fixed grid, for fixed-step runs.
    pub fn grid(&self) -> Option<&Grid> {
        match &self.pacing {
            Pacing::Grid(grid) => Some(&grid.grid),
            Pacing::Control(_) => None,
        }
    }

    pub fn t0(&self) -> f64 {
        self.t0
    }

    pub fn t1(&self) -> f64 {
        self.t1
    }

    /// Every event that has fired so far, in order.
    pub fn events(&self) -> &[EventRecord] {
        &self.events
    }

    /// True once the run has reached t1 or stopped at a terminal event.
    pub fn done(&self) -> bool {
        self.stopped_by_event
            || self.stopped.is_some()
            || match &self.pacing {
                Pacing::Grid(grid) => grid.done(),
                Pacing::Control(_) => self.t >= self.t1,
            }
    }

    /// The model's outputs (energy…) at the current state.
    pub fn outputs(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.info.outputs.len()];
        self.model.outputs(self.t, &self.y, &mut out);
        out
    }

    /// What a constrained formulation did so far, if the model is one.
    pub fn constraint_report(&self) -> Option<ConstraintReport> {
        self.model.constraint_report()
    }

    /// The exact solution at the current time, if the model knows it.
    pub fn exact(&self) -> Option<Vec<f64>> {
        let mut out = vec![0.0; self.info.dim];
        self.model
            .exact(self.t0, &self.y0, self.t, &mut out)
            .then_some(out)
    }
}

// The step inspector's hooks (`inspect.rs`), called around every attempt.
impl Integrator {
    /// An attempt begins: the log counts its work from here.
    #[inline(always)]
    pub(super) fn inspect_begin(&mut self) {
        #[cfg(feature = "full")]
        if let Some(log) = &mut self.inspector {
            log.begin(&self.stats);
        }
    }

    /// The attempt from `t` came to `outcome`: counted by cause if it did not become a
    /// step, and logged when inspecting (the whole engine only: the first-load package
    /// counts nothing here).
    #[inline(always)]
    pub(super) fn after_attempt(&mut self, t: f64, outcome: &StepOutcome) {
        #[cfg(feature = "full")]
        {
            let (cause, h, err) = match outcome {
                StepOutcome::Accepted(info) => {
                    if let Some(log) = &mut self.inspector {
                        log.push(
                            (t, info.h, info.err_est),
                            Cause::Accepted,
                            &self.stats,
                            self.stepper.order_used(),
                        );
                    }
                    return;
                }
                StepOutcome::Rejected {
                    h, cause, err_est, ..
                } => (*cause, *h, *err_est),
                StepOutcome::Stopped(e) | StepOutcome::Failed(e) => match Cause::of(e) {
                    Some(cause) => (cause, Cause::h_of(e), None),
                    None => return,
                },
            };
            cause.count(&mut self.stats.rejected_by_cause);
            if let Some(log) = &mut self.inspector {
                log.push((t, h, err), cause, &self.stats, self.stepper.order_used());
            }
        }
        #[cfg(not(feature = "full"))]
        let _ = (t, outcome);
    }

    /// The step just attempted by `h` (error norm `err`) has an event inside: it is
    /// redone, ending there.
    #[inline(always)]
    pub(super) fn cut_by_event(&mut self, h: f64, err: Option<f64>) {
        #[cfg(feature = "full")]
        {
            Cause::Event.count(&mut self.stats.rejected_by_cause);
            if let Some(log) = &mut self.inspector {
                log.push(
                    (self.t, h, err),
                    Cause::Event,
                    &self.stats,
                    self.stepper.order_used(),
                );
            }
        }
        #[cfg(not(feature = "full"))]
        let _ = (h, err);
    }
}
