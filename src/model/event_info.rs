//! What a model declares about its switching functions (Gil, Sanfelice & Nikravesh (LLM) §3's Ψ1, Ψ2; a user
//! system's `event` lines): ids a spec names, what each measures, and the defaults the
//! driver's detector (`crate::event`) watches them with.

use serde::Serialize;

/// A switching function a model declares (its id is what a spec names).
#[derive(Debug, Clone, Serialize, PartialEq, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct EventInfo {
    /// Stable id used in specs (`events: [{ id }]`).
    pub id: String,
    /// What the function measures and when it crosses zero.
    pub description: String,
    /// Crossing direction watched when the spec does not say: -1 falling, 0 both, 1 rising.
    pub direction: i8,
    /// Whether the run stops at this event when the spec does not say.
    pub terminal: bool,
    /// Watched even when the spec lists no events (a user system's `event` lines).
    pub watched: bool,
}

impl EventInfo {
    pub fn new(id: &str, description: &str) -> Self {
        Self {
            id: id.into(),
            description: description.into(),
            direction: 0,
            terminal: false,
            watched: false,
        }
    }
}
