//! The method catalogue and the one-step abstraction every integrator implements.
//!
//! One method per file. A method file holds its coefficients as cited `const`
//! tables and its [`MethodInfo`]; [`create`] turns an id into a ready stepper.

mod euler;
mod explicit_rk;
mod rk4;

pub use explicit_rk::{ExplicitRk, Tableau};

use crate::error::OdeError;
use crate::problem::System;
use crate::stats::Stats;
use serde::Serialize;

/// What the page and the API show about a method.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MethodInfo {
    /// Stable id used in specs and URLs (public contract: never renamed).
    pub id: &'static str,
    /// Human-readable name.
    pub name: &'static str,
    /// Classical order of accuracy (global error O(h^order)).
    pub order: u32,
    /// Method family, e.g. "explicit Runge–Kutta".
    pub family: &'static str,
    /// Where the method comes from (seed file and section).
    pub source: &'static str,
    /// Right-hand-side evaluations per step.
    pub stages: u32,
}

/// One step of a method: advances y(t) to y(t + h).
pub trait Stepper {
    /// Static description of the method.
    fn info(&self) -> &'static MethodInfo;

    /// Writes the approximation of y(t + h) into `y_out`, counting work in `stats`.
    fn step(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError>;
}

/// All methods, in the order the page lists them.
pub const CATALOG: &[&MethodInfo] = &[&euler::INFO, &rk4::INFO];

/// The catalogue's ids, for error messages.
pub fn ids() -> Vec<String> {
    CATALOG.iter().map(|m| m.id.to_string()).collect()
}

/// A stepper for method `id` on a system of dimension `dim`.
pub fn create(id: &str, dim: usize) -> Result<Box<dyn Stepper>, OdeError> {
    match id {
        "euler" => Ok(Box::new(ExplicitRk::new(
            &euler::INFO,
            &euler::TABLEAU,
            dim,
        ))),
        "rk4" => Ok(Box::new(ExplicitRk::new(&rk4::INFO, &rk4::TABLEAU, dim))),
        _ => Err(OdeError::UnknownMethod {
            id: id.to_string(),
            known: ids(),
        }),
    }
}
