//! How the next step size is chosen: a fixed grid ([`GridPacing`]) for methods without
//! an error estimate (or a spec that asks for one), step-size control
//! ([`ControlPacing`]) for the others. Each is a plain struct with its own state and
//! its own decisions; the step itself (the method, events, the model's after-step
//! work) is `stepping.rs`'s, the same for both.

use super::outcome::{Cause, Disposition};
use crate::control::{Controller, StepControl};
use crate::error::OdeError;
use crate::spec::Grid;
use crate::stats::Stats;

/// Consecutive step failures (singular matrix, Newton, exponential) an adaptive run
/// retries with a step cut by facMin before it reports the failure: 10 cuts of 0.2
/// shrink h by 1e-7, far past any step-size effect.
const MAX_STEP_FAILURES: u32 = 10;

/// The step a pacing proposes: from the current t to `t_new` by `h`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Span {
    pub t_new: f64,
    pub h: f64,
}

/// A method step that passed (the grid's, or one the error test accepted): it reached
/// `t_new` by the method's step `h`, with the error norm `err_est` if measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Passed {
    pub t_new: f64,
    pub h: f64,
    pub err_est: Option<f64>,
}

/// An adaptive attempt that did not pass and is retried from the same point: its `h`,
/// the smaller `h_next` proposed, why (`cause`), and its error norm if measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Retry {
    pub h: f64,
    pub h_next: f64,
    pub cause: Cause,
    pub err_est: Option<f64>,
}

/// What the error test made of an adaptive attempt.
pub(super) enum Verdict {
    Passed(Passed),
    Retry(Retry),
}

/// A checked grid t_k = t0 + k h.
#[derive(Debug, Clone, Copy)]
pub(super) struct GridPacing {
    pub grid: Grid,
    /// The index of the last grid point reached.
    pub k: usize,
    /// Bounds the steps taken, event cuts included (the grid alone is checked against
    /// it up front, but cuts add steps).
    pub max_steps: usize,
}

impl GridPacing {
    pub fn new(grid: Grid, max_steps: usize) -> Self {
        GridPacing {
            grid,
            k: 0,
            max_steps,
        }
    }

    /// The step from `t` to the next grid point, after `nsteps` steps so far.
    pub fn next(&self, t: f64, nsteps: u64) -> Result<Span, OdeError> {
        let (grid, k) = (self.grid, self.k);
        // Event cuts add steps to the grid's; a switch the run cannot get past (the budgets:
        // a state one ulp short of it that a tiny step cannot move) would otherwise cut
        // forever.
        if nsteps >= self.max_steps as u64 {
            return Err(OdeError::AdaptiveBudget {
                t,
                max_steps: self.max_steps,
            });
        }
        let t_new = grid.time(k + 1);
        // Every step but a shortened last one (or the rest of a step an event cut)
        // uses exactly the requested h.
        let h = if k + 1 < grid.steps && t == grid.time(k) {
            grid.h
        } else {
            t_new - t
        };
        Ok(Span { t_new, h })
    }

    /// A step ended at `t_new`, cut by an event or not: a cut inside the step leaves
    /// the grid point ahead; a crossing located at the very end of the step reaches it.
    pub fn reached(&mut self, t_new: f64, cut: bool) {
        if !cut || t_new >= self.grid.time(self.k + 1) {
            self.k += 1;
        }
    }

    /// The last grid point is reached.
    pub fn done(&self) -> bool {
        self.k >= self.grid.steps
    }
}

/// Error control: the controller and the step it proposes next.
#[derive(Debug, Clone)]
pub(super) struct ControlPacing {
    pub controller: Controller,
    /// The step the controller proposes next.
    pub h: f64,
    pub max_steps: usize,
    /// Largest step allowed (`hMax`; infinite when not given).
    pub h_max: f64,
    /// Attempts rejected since the last accepted step (the controller does not grow h
    /// right after a rejection) …
    pub rejected: bool,
    /// … and how many of them failed in their linear algebra.
    pub failures: u32,
    /// The method chooses its step sizes itself ([`crate::method::Stepper::step_control`]):
    /// it has a policy of its own and the spec names no controller.
    pub method_control: bool,
}

impl ControlPacing {
    /// The next attempt from `t` towards `t1`, after `nsteps` attempts so far.
    pub fn next(&mut self, t: f64, t1: f64, nsteps: u64) -> Result<Span, OdeError> {
        if nsteps >= self.max_steps as u64 {
            return Err(OdeError::AdaptiveBudget {
                t,
                max_steps: self.max_steps,
            });
        }
        self.h = self.h.min(self.h_max);
        // Land exactly on t1; h is recomputed from the times ("purify h", ode45).
        let t_new = if t + self.h >= t1 { t1 } else { t + self.h };
        let h = t_new - t;
        // ode23/ode45's hmin = 16 eps |t|: below it t + h cannot be told from t.
        let h_min = 16.0 * f64::EPSILON * t.abs();
        if h.is_nan() || h <= h_min {
            return Err(OdeError::StepSizeUnderflow { t, h });
        }
        Ok(Span { t_new, h })
    }

    /// The error test of the attempt over `span` that came to `result` (its error norm,
    /// if measured, or the error it raised), counted in `stats`; `own` is the method's
    /// own policy when it chooses its steps. A step too large for its linear algebra is
    /// retried smaller, like a rejected step; after [`MAX_STEP_FAILURES`] cuts in a row
    /// the failure is the answer, with the t and h where it happened.
    pub fn judge(
        &mut self,
        result: Result<Option<f64>, OdeError>,
        span: Span,
        stats: &mut Stats,
        own: Option<&mut dyn StepControl>,
    ) -> Result<Verdict, OdeError> {
        let Span { t_new, h } = span;
        let err = match result {
            Ok(err) => err.unwrap_or(0.0),
            Err(e) => {
                if Disposition::of(&e) != Disposition::RetrySmaller {
                    return Err(e);
                }
                stats.nsteps += 1;
                stats.nreject += 1;
                self.failures += 1;
                if self.failures >= MAX_STEP_FAILURES {
                    return Err(e);
                }
                self.rejected = true;
                self.h = match own {
                    Some(own) => own.after_failure(h),
                    None => self.controller.after_reject(h, f64::INFINITY),
                };
                return Ok(Verdict::Retry(Retry {
                    h,
                    h_next: self.h,
                    cause: Cause::of(&e).unwrap_or(Cause::Other),
                    err_est: None,
                }));
            }
        };
        stats.nsteps += 1;
        let r = self.controller.measure(err, h);
        if self.controller.accepts(r) {
            self.h = match own {
                Some(own) => own.after_accept(h, r, self.rejected),
                None => self.controller.after_accept(h, r, self.rejected),
            };
            self.rejected = false;
            self.failures = 0;
            return Ok(Verdict::Passed(Passed {
                t_new,
                h,
                err_est: Some(err),
            }));
        }
        stats.nreject += 1;
        self.rejected = true;
        self.h = match own {
            Some(own) => own.after_reject(h, r),
            None => self.controller.after_reject(h, r),
        };
        Ok(Verdict::Retry(Retry {
            h,
            h_next: self.h,
            cause: Cause::Error,
            err_est: Some(err),
        }))
    }
}

/// How a run chooses its steps.
#[derive(Debug, Clone)]
pub(super) enum Pacing {
    Grid(GridPacing),
    Control(ControlPacing),
}
