//! The driver: runs a method over an interval, one step at a time ([`Integrator`]) or
//! all at once ([`solve`]), and records t, y, the model's outputs and statistics.
//!
//! Two pacings share one step loop: a fixed grid (t_k = t0 + k h) for methods without
//! an error estimate, and step-size control (`crate::control`) for the others. Events
//! (`crate::event`) cut either kind of step at a switching point.
//!
//! - `setup.rs`: a spec → the model, the method, the pacing and the watched events
//!   ([`Integrator::new`]).
//! - `stepping.rs`: one step (fixed or adaptive, retries, event cuts) and the run's
//!   state between steps.
//! - `outcome.rs`: what a step came to ([`StepOutcome`]): accepted, rejected and
//!   retried, stopped (a warning) or failed (an error) — one decision for `solve`,
//!   `Integrator.advance` and the labs.
//! - `diagnosis.rs`: why a run stopped or why its result is doubtful ([`Diagnosis`],
//!   its [`Code`] from the published list `Code::ALL`), computed after the run.
//! - `inspect.rs`: the step inspector (spec `inspect`): every attempt, accepted or
//!   not and why, with its Newton, Jacobian and LU work.
//! - `solve.rs`: a whole run recorded into a [`Solution`]; `record.rs` keeps that
//!   record within a memory budget (thinning a long run's points, refusing what
//!   cannot fit).

#[cfg_attr(not(feature = "full"), allow(dead_code))]
pub mod diagnosis;
pub mod inspect;
mod outcome;
pub mod record;
mod setup;
mod solve;
mod stepping;

pub use crate::stats::Stats;
pub use diagnosis::{Code, Diagnosis, Fix};
pub use outcome::{Disposition, StepInfo, StepOutcome};
pub(crate) use setup::{build_model, initial_state};
pub use solve::{diagnosis_of, solve, Solution};
pub use stepping::Integrator;

/// A state component beyond this magnitude (or NaN) counts as a blow-up. It is far
/// above any physical value, and low enough that squares of it (energies, norms) stay
/// finite, so what was computed up to the blow-up can still be plotted.
pub const BLOW_UP: f64 = 1e150;
