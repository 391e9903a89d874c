//! What a step came to, as a type: accepted, rejected and retried, stopped (a warning:
//! the points so far stand) or failed (an error). `solve`, `Integrator.advance` (the
//! page's Animate) and the labs all read this one decision, so the same stop is
//! reported the same way everywhere.

use super::inspect::Cause;
use super::stepping::StepInfo;
use crate::error::OdeError;

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
