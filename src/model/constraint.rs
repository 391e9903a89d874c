//! What a model written in a constrained formulation (`crate::multibody`) reports to
//! the driver through the [`super::Model`] trait: a failed constraint solve inside f
//! (turned into a typed error at the step's t and h) and the run's re-partitions and
//! Newton work. Declared here, below the formulations, so the model layer does not
//! import the layer that builds on it.

use crate::error::OdeError;
use serde::Serialize;

/// What went wrong inside a constraint solve (the driver adds the t and h).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConstraintFailure {
    /// The saddle-point matrix of Gil, Sanfelice & Nikravesh (LLM) eq. (9) is singular (redundant or degenerate
    /// joints).
    SingularSaddlePoint,
    /// Newton on Φ(v, u) = 0 (or the projection) did not converge.
    Newton { iterations: u32, residual: f64 },
    /// Φ_u is ill-conditioned and no partition fixes it (Φ_q lost rank).
    Partition { condition: f64 },
}

impl ConstraintFailure {
    /// The typed error at the step (t, h) where it happened.
    pub fn at(self, t: f64, h: f64) -> OdeError {
        match self {
            Self::SingularSaddlePoint => OdeError::SingularSaddlePoint { t, h },
            Self::Newton {
                iterations,
                residual,
            } => OdeError::ConstraintNewtonFailed {
                t,
                h,
                iterations,
                residual,
            },
            Self::Partition { condition } => OdeError::IllConditionedPartition { t, h, condition },
        }
    }
}

/// A re-partition of the state-space formulation (Negrut et al. 2003 Algorithm 1
/// step 7).
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct Repartition {
    pub t: f64,
    /// cond(Φ_u) of the old partition that triggered it.
    pub condition: f64,
    /// The new independent coordinates, by name.
    pub independent: Vec<String>,
}

/// What a constrained formulation did besides stepping.
#[derive(Debug, Clone, Default, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ConstraintReport {
    #[tsify(type = "\"augmented\" | \"state-space\" | \"index-3\"")]
    pub formulation: String,
    /// Independent coordinates at the start (state-space).
    pub independent: Vec<String>,
    pub repartitions: Vec<Repartition>,
    /// Newton iterations spent recovering u (state-space) or projecting (augmented).
    pub newton_iterations: u64,
    /// Saddle-point solves (one per f-evaluation and per Jacobian).
    pub saddle_solves: u64,
    /// The constraints that (nearly) lose rank together at the last accepted state,
    /// when Φ_q is close to singular there (a mechanism that locks); else empty.
    pub locked: Vec<String>,
}
