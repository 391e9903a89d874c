//! The driver: runs a method over an interval and records t, y, the model's outputs
//! and statistics ([`solve`]), or hands each step to its caller ([`Integrator`]).
//!
//! Two pacings share one step: a fixed grid (t_k = t0 + k h) for methods without an
//! error estimate, and step-size control (`crate::control`) for the others. Events
//! (`crate::event`) cut either kind of step at a switching point.
//!
//! - `setup.rs`: a spec → the model, the method, the pacing and the watched events
//!   ([`Integrator::new`]).
//! - `pacing.rs`: how the next step size is chosen, one plain struct per pacing
//!   (`GridPacing`, `ControlPacing`), and the named results of an attempt.
//! - `stepping.rs`: one attempted step (the pacing's span, the method, the error
//!   test, event cuts, the model's after-step work) and the run's state between steps.
//! - `run.rs`: the one loop over steps, [`Integrator::run_steps`], that `solve`, the
//!   JS `Integrator.advance(n)`, the convergence lab, the homework grader and the
//!   diagnosis's probe runs all use; it ends [`Ended`] at t1, at a stop or when its
//!   caller pauses.
//! - `outcome.rs`: what an attempt came to ([`StepOutcome`]): accepted, rejected and
//!   retried, stopped (a warning) or failed (an error).
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
mod pacing;
pub mod record;
mod run;
mod setup;
mod solve;
mod stepping;

pub use crate::stats::Stats;
pub use diagnosis::{Code, Diagnosis, Fix};
pub use outcome::{Disposition, StepInfo, StepOutcome};
pub use run::Ended;
pub(crate) use setup::{build_model, initial_state};
pub use solve::{diagnosis_of, solve, Solution};
pub use stepping::Integrator;

/// A state component beyond this magnitude (or NaN) counts as a blow-up. It is far
/// above any physical value, and low enough that squares of it (energies, norms) stay
/// finite, so what was computed up to the blow-up can still be plotted.
pub const BLOW_UP: f64 = 1e150;
