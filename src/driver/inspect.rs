//! The step inspector (spec `inspect: true`): every attempted step of a run, accepted or
//! not, with why not, its error norm and the Newton, Jacobian and LU work it cost, as
//! flat columns. A run without the flag records nothing here (the log is `None` and
//! no hook does more than count); the counts by cause ([`RejectedByCause`]) are kept
//! in every run of the whole engine.
//!
//! The log is in the whole engine only (cargo feature `full`): the first-load package
//! refuses `inspect` with [`OdeError::NotInThisBuild`] and the page's worker runs the
//! spec in the whole engine, which gives the same bits.

use super::outcome::StepOutcome;
use super::stepping::Integrator;
use crate::error::OdeError;
use crate::stats::RejectedByCause;
#[cfg(feature = "full")]
use crate::stats::Stats;

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

/// The names of the causes, indexed by [`Cause`] as u8 (the log's `cause` column).
pub const CAUSES: [&str; 6] = [
    "accepted",
    "error",
    "newton",
    "event",
    "step-floor",
    "other",
];

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

/// Attempts a log keeps at most (2²⁰, ~40 MB of columns); past them it stops
/// recording and says so (`truncated`).
pub const MAX_ATTEMPTS: usize = 1 << 20;

/// Every attempted step of a run, column by column: attempt i started at `t[i]` with
/// step `h[i]`, its error norm against 1 was `err[i]` (NaN without an estimate), it
/// came to `cause[i]` (an index into [`CAUSES`]) and cost `newton[i]` Newton
/// iterations, `jacobians[i]` Jacobian evaluations and `lus[i]` LU factorisations.
#[cfg(feature = "full")]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepLog {
    pub t: Vec<f64>,
    pub h: Vec<f64>,
    pub err: Vec<f64>,
    pub cause: Vec<u8>,
    pub newton: Vec<u32>,
    pub jacobians: Vec<u32>,
    pub lus: Vec<u32>,
    /// More attempts were made than [`MAX_ATTEMPTS`]; the later ones are not logged.
    pub truncated: bool,
    /// The counters when the attempt being made began.
    mark: Stats,
}

/// The first-load build has no step log (a spec asking for one is refused), so its
/// runs carry none and drop nothing.
#[cfg(not(feature = "full"))]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepLog;

#[cfg(feature = "full")]
impl StepLog {
    /// An attempt begins with the run's counters at `stats`.
    pub fn begin(&mut self, stats: &Stats) {
        self.mark = *stats;
    }

    /// Logs the attempt from `t` by `h` that came to `cause`, with the work done since
    /// it began (or since the last entry); the next entry counts from here.
    pub fn push(&mut self, t: f64, h: f64, err: Option<f64>, cause: Cause, stats: &Stats) {
        if self.t.len() >= MAX_ATTEMPTS {
            self.truncated = true;
            return;
        }
        let delta = |now: u64, then: u64| u32::try_from(now - then).unwrap_or(u32::MAX);
        self.t.push(t);
        self.h.push(h);
        self.err.push(err.unwrap_or(f64::NAN));
        self.cause.push(cause as u8);
        self.newton.push(delta(stats.nnewton, self.mark.nnewton));
        self.jacobians.push(delta(stats.njev, self.mark.njev));
        self.lus.push(delta(stats.nlu, self.mark.nlu));
        self.mark = *stats;
    }
}

/// The log a spec asks for: none unless `inspect: true`, which the first-load build
/// refuses (the whole engine runs it).
pub(super) fn for_spec(spec: &crate::spec::SolveSpec) -> Result<Option<Box<StepLog>>, OdeError> {
    if spec.inspect != Some(true) {
        return Ok(None);
    }
    if cfg!(feature = "full") {
        Ok(Some(Box::default()))
    } else {
        Err(OdeError::NotInThisBuild {
            what: "the step inspector (`inspect`)",
        })
    }
}

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
                        log.push(t, info.h, info.err_est, Cause::Accepted, &self.stats);
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
                log.push(t, h, err, cause, &self.stats);
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
                log.push(self.t, h, err, Cause::Event, &self.stats);
            }
        }
        #[cfg(not(feature = "full"))]
        let _ = (h, err);
    }
}
