//! Step-size control shared by every adaptive method: tolerances, error norms, the
//! controllers that turn an error estimate into the next step size, and the choice of
//! the first step. One concept per file; nothing here knows which method it serves,
//! only the order q of its error estimate.

mod controller;
mod initial_step;
mod norm;
mod tolerance;

pub use controller::{
    Controller, ControllerKind, ControllerSettings, DEFAULT_FAC_MAX, DEFAULT_FAC_MIN,
    DEFAULT_SAFETY,
};
pub use initial_step::initial_step;
pub use norm::{error_norm, ErrorNorm};
pub use tolerance::Tolerance;
