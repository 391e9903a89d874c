//! Work counters of a run: what a method cost, for the page and for tests that pin
//! deterministic counts.

use serde::Serialize;

/// Counters accumulated over a run. Methods add to them as they work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Evaluations of the right-hand side f(t, y).
    pub nfev: u64,
    /// Steps taken.
    pub nsteps: u64,
}
