//! Events: switching functions g(t, y) whose sign changes are located on the dense
//! output and cut the step, so a model whose right-hand side switches there (penalty
//! contact, Gil, Sanfelice & Nikravesh (LLM) §3) restarts exactly at the switch.
//!
//! The driver sees switching functions only through [`EventFunction`] and
//! [`EventSource`]: a model's declared functions today; a text expression from the
//! expression language later, by an adapter that implements [`EventFunction`].

pub mod detector;
mod root;

pub use detector::{Detector, EventRecord};
pub use root::locate_crossing;

pub use crate::model::EventInfo;
use crate::model::Model;

/// A switching function g(t, y); an event is a sign change of g.
pub trait EventFunction {
    fn eval(&self, t: f64, y: &[f64]) -> f64;
}

/// Where a watched switching function comes from.
pub enum EventSource {
    /// The model's own function number `index` (see `Model::event`).
    Model(usize),
    /// Any other function, e.g. a compiled expression.
    Function(Box<dyn EventFunction>),
}

impl EventSource {
    /// g(t, y).
    pub fn eval(&self, model: &dyn Model, t: f64, y: &[f64]) -> f64 {
        match self {
            EventSource::Model(index) => model.event(*index, t, y),
            EventSource::Function(g) => g.eval(t, y),
        }
    }
}
