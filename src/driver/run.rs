//! The one loop over steps. `solve`, the chunked `Integrator.advance(n)` of the JS API,
//! the convergence lab, the homework grader and the diagnosis's probe runs all step
//! through [`Integrator::run_steps`]: it retries rejected attempts, hands every
//! accepted step to its caller, and ends at t1, at a stop (a warning: the points so
//! far stand) or when the caller pauses; a failure is the error.

use super::outcome::{StepInfo, StepOutcome};
use super::stepping::Integrator;
use crate::error::OdeError;
use std::ops::ControlFlow;

/// How [`Integrator::run_steps`] ended. Its caller's `after_step` sees the run after
/// each accepted step and says whether to go on ([`ControlFlow::Continue`]) or to pause
/// there ([`ControlFlow::Break`]; another `run_steps` resumes it).
#[derive(Debug, Clone, PartialEq)]
pub enum Ended {
    /// The run reached t1 or stopped at a terminal event ([`Integrator::done`]).
    Finished,
    /// The caller paused after this step.
    Paused(StepInfo),
    /// The run stopped early for this reason (a blow-up, step-size underflow, a
    /// budget…): a warning, the points so far stand; [`Integrator::done`] is true.
    Stopped(OdeError),
}

impl Integrator {
    /// Steps until the run is done, stops, or `after_step` pauses it; `after_step` sees
    /// the run after every accepted step (a rejected attempt is retried here). A
    /// failure (an error `after_step` returns, or one that ends the run as a request
    /// that cannot run: [`StepOutcome::Failed`]) is the error.
    pub fn run_steps<F>(&mut self, mut after_step: F) -> Result<Ended, OdeError>
    where
        F: FnMut(&mut Integrator, &StepInfo) -> Result<ControlFlow<()>, OdeError>,
    {
        loop {
            if self.done() {
                return Ok(Ended::Finished);
            }
            match self.attempt() {
                StepOutcome::Accepted(info) => {
                    if after_step(self, &info)?.is_break() {
                        return Ok(Ended::Paused(info));
                    }
                }
                StepOutcome::Rejected { .. } => {}
                StepOutcome::Stopped(e) => return Ok(Ended::Stopped(e)),
                StepOutcome::Failed(e) => return Err(e),
            }
        }
    }

    /// Runs to the end (t1, a terminal event or a stop), keeping nothing.
    pub fn run_to_end(&mut self) -> Result<Ended, OdeError> {
        self.run_steps(|_, _| Ok(ControlFlow::Continue(())))
    }

    /// The next accepted step; a stop is [`StepOutcome::Stopped`], stepping a finished
    /// run a failure.
    pub fn advance(&mut self) -> StepOutcome {
        match self.run_steps(|_, _| Ok(ControlFlow::Break(()))) {
            Ok(Ended::Paused(info)) => StepOutcome::Accepted(info),
            Ok(Ended::Stopped(e)) => StepOutcome::Stopped(e),
            Ok(Ended::Finished) => StepOutcome::Failed(OdeError::Finished { t1: self.t1 }),
            Err(e) => StepOutcome::Failed(e),
        }
    }

    /// Takes the next step ([`Integrator::advance`]); a stop or a failure is the error.
    pub fn step(&mut self) -> Result<StepInfo, OdeError> {
        match self.run_steps(|_, _| Ok(ControlFlow::Break(())))? {
            Ended::Paused(info) => Ok(info),
            Ended::Stopped(e) => Err(e),
            Ended::Finished => Err(OdeError::Finished { t1: self.t1 }),
        }
    }
}
