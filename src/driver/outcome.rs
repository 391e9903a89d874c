//! What a step came to, as a type: accepted, rejected and retried, stopped (a warning:
//! the points so far stand) or failed (an error). The one step loop
//! (`Integrator::run_steps`) reads this one decision for `solve`, `Integrator.advance`
//! and the labs, so the same stop is reported the same way everywhere.

use crate::error::OdeError;
use crate::stats::RejectedByCause;

/// What an error raised inside a step means for the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// The step was too large for its linear algebra (a singular I − γhJ, Newton not
    /// converging, e^{hJ} overflowing, a singular saddle-point matrix, the constraint
    /// Newton): an adaptive run retries it smaller; where it cannot (a fixed grid, or
    /// too many cuts in a row) the run stops with it.
    RetrySmaller,
    /// The numerics end the run (a blow-up, step-size underflow, the step budget, no
    /// partition that fixes Φ_u): the points computed so far stand and the reason is
    /// a warning.
    Stop,
    /// The request cannot run (a bad spec, a run already finished…): an error.
    Fail,
}

impl Disposition {
    /// The one list of which error means what.
    pub fn of(e: &OdeError) -> Self {
        match e {
            OdeError::SingularMatrix { .. }
            | OdeError::NewtonFailed { .. }
            | OdeError::ExpmNotFinite { .. }
            | OdeError::SingularSaddlePoint { .. }
            | OdeError::ConstraintNewtonFailed { .. } => Self::RetrySmaller,
            OdeError::BlewUp { .. }
            | OdeError::StepSizeUnderflow { .. }
            | OdeError::AdaptiveBudget { .. }
            | OdeError::EventBudget { .. }
            | OdeError::WorkBudget { .. }
            | OdeError::IllConditionedPartition { .. } => Self::Stop,
            _ => Self::Fail,
        }
    }
}

/// The outcome of one attempted step ([`crate::driver::Integrator::attempt`]).
#[derive(Debug, Clone, PartialEq)]
pub enum StepOutcome {
    /// The step was taken.
    Accepted(StepInfo),
    /// The attempt failed its error test (or its linear algebra) and is retried with
    /// the smaller step `h_next` from the same point; `cause` says which, `err_est` is
    /// the error norm it failed with (when measured).
    Rejected {
        t: f64,
        h: f64,
        h_next: f64,
        cause: Cause,
        err_est: Option<f64>,
    },
    /// The run ended early for the reason given (a warning; what was computed stands).
    Stopped(OdeError),
    /// The run cannot go on: an error.
    Failed(OdeError),
}

impl StepOutcome {
    /// A step that ended in an error, stopped or failed by its [`Disposition`] (a
    /// failure that could not be retried any more stops the run).
    pub fn from_error(e: OdeError) -> Self {
        match Disposition::of(&e) {
            Disposition::RetrySmaller | Disposition::Stop => Self::Stopped(e),
            Disposition::Fail => Self::Failed(e),
        }
    }
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepInfo {
    /// Time reached.
    pub t: f64,
    /// Step size taken (t − t_previous; shorter than the method's step if an event cut it).
    pub h: f64,
    /// The normalised error estimate of the step (≤ 1 means within tolerance), for
    /// methods with an embedded formula.
    pub err_est: Option<f64>,
    /// How many events fired at the end of this step (the last entries of
    /// [`Integrator::events`]).
    pub new_events: usize,
}

/// What came of an attempted step: accepted, or why it was not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Cause {
    Accepted = 0,
    /// The error estimate failed its test.
    Error = 1,
    /// Newton's method failed.
    Newton = 2,
    /// An event fell inside the step, which was redone ending there.
    Event = 3,
    /// The step size reached the floor 16·eps·|t|.
    StepFloor = 4,
    /// A singular matrix, an overflowing exponential, a blow-up.
    Other = 5,
}

impl Cause {
    /// The cause of an attempt that ended in the error `e`, if `e` belongs to a step.
    pub fn of(e: &OdeError) -> Option<Cause> {
        Some(match e {
            OdeError::NewtonFailed { .. } | OdeError::ConstraintNewtonFailed { .. } => {
                Cause::Newton
            }
            OdeError::StepSizeUnderflow { .. } => Cause::StepFloor,
            OdeError::SingularMatrix { .. }
            | OdeError::ExpmNotFinite { .. }
            | OdeError::SingularSaddlePoint { .. }
            | OdeError::BlewUp { .. } => Cause::Other,
            _ => return None,
        })
    }

    /// The step size of the attempt that ended in `e` (a step error names it).
    pub fn h_of(e: &OdeError) -> f64 {
        match e {
            OdeError::NewtonFailed { h, .. }
            | OdeError::ConstraintNewtonFailed { h, .. }
            | OdeError::StepSizeUnderflow { h, .. }
            | OdeError::SingularMatrix { h, .. }
            | OdeError::ExpmNotFinite { h, .. }
            | OdeError::SingularSaddlePoint { h, .. }
            | OdeError::BlewUp { h, .. } => *h,
            _ => f64::NAN,
        }
    }

    /// Counts one attempt of this cause (accepted ones are not counted).
    pub fn count(self, into: &mut RejectedByCause) {
        match self {
            Cause::Accepted => {}
            Cause::Error => into.error += 1,
            Cause::Newton => into.newton += 1,
            Cause::Event => into.event += 1,
            Cause::StepFloor => into.step_floor += 1,
            Cause::Other => into.other += 1,
        }
    }
}
