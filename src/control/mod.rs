//! Step-size control shared by every adaptive method: tolerances, error norms, the
//! controllers that turn an error estimate into the next step size, and the choice of
//! the first step. One concept per file; nothing here knows which method it serves,
//! only the order q of its error estimate — or, for a method with its own policy, the
//! [`StepControl`] seam it implements (radau5 with the [`Predictive`] controller).

mod controller;
mod initial_step;
mod norm;
mod predictive;
mod step_control;
mod tolerance;

pub use controller::{
    Controller, ControllerKind, ControllerSettings, DEFAULT_FAC_MAX, DEFAULT_FAC_MIN,
    DEFAULT_SAFETY,
};
pub use initial_step::initial_step;
pub use norm::{error_norm, larger, ErrorMeasure, ErrorNorm};
pub use predictive::{Predictive, KEEP_BAND};
pub use step_control::StepControl;
pub use tolerance::{Tolerance, RTOL_FLOOR};
