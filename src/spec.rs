//! What a user asks for: the `solve` / `Integrator` spec, read with serde at the
//! boundary and validated here, in the core, so every front end gets the same errors.

use crate::error::OdeError;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Default cap on the number of steps of one run: enough for any lecture example,
/// small enough that a typo in h cannot exhaust the page's memory.
pub const DEFAULT_MAX_STEPS: usize = 1_000_000;

/// A request to integrate a model with a method (JS field names in camelCase).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SolveSpec {
    /// Model id, e.g. "pendulum".
    pub model: String,
    /// Parameter overrides by name; the rest keep the model's defaults.
    #[serde(default)]
    pub params: BTreeMap<String, f64>,
    /// Initial state; the model's default when absent.
    #[serde(default)]
    pub y0: Option<Vec<f64>>,
    /// Method id, e.g. "rk4".
    pub method: String,
    /// Start time (default 0).
    #[serde(default)]
    pub t0: Option<f64>,
    /// End time; the model's default when absent.
    #[serde(default)]
    pub t1: Option<f64>,
    /// Step size (required by fixed-step methods).
    #[serde(default)]
    pub h: Option<f64>,
    /// Step budget (default [`DEFAULT_MAX_STEPS`]).
    #[serde(default)]
    pub max_steps: Option<usize>,
}

/// Checks that a number is finite, naming it in the error.
pub(crate) fn finite(value: f64, what: &str) -> Result<f64, OdeError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(OdeError::NotFinite {
            what: what.to_string(),
        })
    }
}

/// The time grid of a fixed-step run, checked: t0 < t1, h > 0, within budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub t0: f64,
    pub t1: f64,
    pub h: f64,
    /// Number of steps; the last one is shortened to land exactly on t1.
    pub steps: usize,
}

impl Grid {
    pub fn new(t0: f64, t1: f64, h: f64, max_steps: usize) -> Result<Self, OdeError> {
        let t0 = finite(t0, "start time t0")?;
        let t1 = finite(t1, "end time t1")?;
        if h.is_nan() || h <= 0.0 {
            return Err(OdeError::BadStepSize { h });
        }
        let h = finite(h, "step size h")?;
        if t1 <= t0 {
            return Err(OdeError::BadInterval { t0, t1 });
        }
        let ratio = (t1 - t0) / h;
        if ratio > max_steps as f64 {
            return Err(OdeError::StepBudget {
                needed: ratio.ceil(),
                max_steps,
            });
        }
        // A ratio within rounding of an integer means h divides the interval: no
        // sliver of a last step.
        let nearest = ratio.round();
        let steps = if (ratio - nearest).abs() <= 1e-9 * ratio.max(1.0) {
            nearest as usize
        } else {
            ratio.ceil() as usize
        };
        Ok(Grid {
            t0,
            t1,
            h,
            steps: steps.max(1),
        })
    }

    /// Time of grid point `k` (0 ≤ k ≤ steps), computed from t0 rather than
    /// accumulated, so round-off does not drift.
    pub fn time(&self, k: usize) -> f64 {
        if k >= self.steps {
            self.t1
        } else {
            self.t0 + k as f64 * self.h
        }
    }
}
