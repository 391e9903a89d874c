//! Work counters of a run: what a method cost, for the page and for tests that pin
//! deterministic counts.

use serde::Serialize;

/// Work counters of a run. Methods add to them as they work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Evaluations of the right-hand side f(t, y).
    pub nfev: u64,
    /// Steps attempted: accepted plus rejected (for fixed-step runs, every step).
    pub nsteps: u64,
    /// Steps accepted (each is one point of the solution after t0).
    pub naccept: u64,
    /// Steps rejected by the error control and retried with a smaller h.
    pub nreject: u64,
    /// Evaluations of the Jacobian ∂f/∂y (analytic, or one finite-difference sweep).
    pub njev: u64,
    /// LU factorisations (of the Newton or Rosenbrock matrix, or of g_z).
    pub nlu: u64,
    /// Matrix exponentials (block matrices of the exponential methods).
    pub nexpm: u64,
    /// Newton iterations of the implicit methods (each one linear solve).
    pub nnewton: u64,
    /// The attempts that did not become a step, by cause (`nreject` counts the ones an
    /// adaptive run retried). Counted in the whole engine only (cargo feature `full`,
    /// with the step inspector): the first-load package leaves it out to stay small.
    /// In the whole engine only (pkg-labs, which runs every `inspect: true` spec).
    #[cfg_attr(not(feature = "full"), serde(skip_serializing_if = "left_out"))]
    #[tsify(optional)]
    pub rejected_by_cause: RejectedByCause,
}

/// Attempted steps that did not become a step, by why not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct RejectedByCause {
    /// The error estimate failed its test (retried smaller).
    pub error: u64,
    /// Newton's method failed (retried smaller by an adaptive run; the run's stop on a
    /// fixed grid).
    pub newton: u64,
    /// An event fell inside the step: it was redone, ending at the event.
    pub event: u64,
    /// The step size reached the floor 16·eps·|t| below which t + h cannot be told
    /// from t (the run stops).
    pub step_floor: u64,
    /// Any other failure of a step: a singular matrix, an exponential that overflowed,
    /// a blow-up.
    pub other: u64,
}

/// The first-load build leaves `rejectedByCause` out of what it returns (its
/// declaration stays, optional, so both packages publish one `Stats`).
#[cfg(not(feature = "full"))]
fn left_out<T>(_: &T) -> bool {
    true
}
