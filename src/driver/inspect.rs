//! The step inspector (spec `inspect: true`): every attempted step of a run, accepted or
//! not, with why not, its error norm and the Newton, Jacobian and LU work it cost, as
//! flat columns. A run without the flag records nothing here (the log is `None` and
//! no hook does more than count); the counts by cause ([`RejectedByCause`]) are kept
//! in every run of the whole engine.
//!
//! The log is in the whole engine only (cargo feature `full`): the first-load package
//! refuses `inspect` with [`OdeError::NotInThisBuild`] and the page's worker runs the
//! spec in the whole engine, which gives the same bits.

pub use super::outcome::Cause;
use crate::error::OdeError;
#[cfg(feature = "full")]
use crate::stats::Stats;

/// The names of the causes, indexed by [`Cause`] as u8 (the log's `cause` column).
pub const CAUSES: [&str; 6] = [
    "accepted",
    "error",
    "newton",
    "event",
    "step-floor",
    "other",
];

/// Attempts a log keeps at most (2²⁰, ~40 MB of columns); past them it stops
/// recording and says so (`truncated`).
pub const MAX_ATTEMPTS: usize = 1 << 20;

/// Every attempted step of a run, column by column: attempt i started at `t[i]` with
/// step `h[i]`, its error norm against 1 was `err[i]` (NaN without an estimate), it
/// came to `cause[i]` (an index into [`CAUSES`]) and cost `newton[i]` Newton
/// iterations, `jacobians[i]` Jacobian evaluations and `lus[i]` LU factorisations;
/// for a method that changes its order (`bdf`, `ndf`), `order[i]` is the order the
/// attempt used (empty for the others).
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
    pub order: Vec<u32>,
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
    /// it began (or since the last entry), and the order it used if the method says
    /// (`Stepper::order_used`); the next entry counts from here.
    pub fn push(
        &mut self,
        (t, h, err): (f64, f64, Option<f64>),
        cause: Cause,
        stats: &Stats,
        order: Option<u32>,
    ) {
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
        if let Some(k) = order {
            self.order.push(k);
        }
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
