//! Constrained planar multibody dynamics the seeds' way (issue 8): one mechanism
//! ([`mechanism`]: bodies, revolute and translational joints, force elements, Φ, Φ_q, γ of seed 000
//! eqs. 7–8), integrated in two formulations.
//!
//! - [`augmented`]: the index-1 (augmented) formulation of seed 000 §2: y = (q, q̇) in
//!   body coordinates, q̈ and the multipliers λ from the saddle-point system of 000
//!   eq. (9) at every f-evaluation (nalgebra LU), the analytic Jacobian of 000
//!   eqs. (10)–(15). The constraints drift; Baumgarte stabilisation or projection after
//!   every step are optional (off by default).
//! - [`state_space`]: seed 001 Algorithm 1: generalized coordinate partitioning of q
//!   into independent v and dependent u (full-pivoting LU of Φ_q), the ODE in y = (v, v̇)
//!   only, u by Newton on Φ(v, u) = 0 and u̇ from Φ_u u̇ = −Φ_v v̇, a partition check
//!   after every step that re-partitions when Φ_u becomes ill-conditioned.
//!
//! [`models`] writes `double-pendulum-stiff`, `double-pendulum-rsda`,
//! `pendulum-particle` and `vehicle-stiff` as mechanisms; a spec picks the formulation with `formulation`
//! (`"native"`, the default, is the model file as it was; `"augmented"`,
//! `"state-space"`). [`compare`] runs both formulations side by side (001 Tables 4–6).
//!
//! **State layout.** Augmented: `names` = (x1, y1, φ1, x2, …, ẋ1, ẏ1, φ̇1, …), the body
//! coordinates and their rates. State-space: `names` = the independent coordinates of
//! the initial partition and their rates, e.g. (φ1, φ2, φ̇1, φ̇2); after a re-partition
//! (listed in [`ConstraintReport::repartitions`]) the columns of `y` hold the new
//! independent coordinates. To keep runs comparable, both formulations report the same
//! `outputs`: the native model's named outputs (energy, …), the drift ‖Φ(q)‖₂ and
//! ‖Φ_q q̇‖₂, and every body coordinate (named `q:x1`, … so the full configuration of a
//! state-space run is visible). A spec's `y0`, when given, is in the *native* layout and
//! is mapped to body coordinates.

#[cfg(test)]
mod ad_check;
pub mod augmented;
pub mod compare;
pub mod mechanism;
pub mod models;
pub mod state_space;

use crate::error::OdeError;
use crate::model::{Model, ModelInfo};
use crate::spec::SolveSpec;
use serde::Serialize;

/// How the equations of motion are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formulation {
    /// The model file's own formulation.
    Native,
    /// Index-1 augmented form, 000 eq. (9).
    Augmented,
    /// Coordinate partitioning, 001 Algorithm 1.
    StateSpace,
}

impl Formulation {
    pub fn parse(s: Option<&str>) -> Result<Self, OdeError> {
        match s {
            None | Some("native") => Ok(Self::Native),
            Some("augmented") => Ok(Self::Augmented),
            Some("state-space") => Ok(Self::StateSpace),
            Some(other) => Err(OdeError::BadSpec {
                message: format!(
                    "unknown formulation \"{other}\"; the formulations are \"native\" (the \
                     model's own), \"augmented\" (000 eq. 9) and \"state-space\" (001 \
                     Algorithm 1)"
                ),
            }),
        }
    }
}

/// Constraint stabilisation of the augmented formulation (off by default).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stabilization {
    None,
    /// Baumgarte: Φ̈ + 2α Φ̇ + β² Φ = 0, i.e. γ replaced by γ − 2α Φ_q q̇ − β² Φ.
    Baumgarte {
        alpha: f64,
        beta: f64,
    },
    /// After every accepted step, q is projected onto Φ(q) = 0 (Gauss–Newton, minimum
    /// norm correction) and q̇ onto Φ_q q̇ = 0.
    Projection,
}

/// What went wrong inside a constraint solve (the driver adds the t and h).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConstraintFailure {
    /// The saddle-point matrix of 000 eq. (9) is singular (redundant or degenerate
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

/// A re-partition of the state-space formulation (Algorithm 1 step 7).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Repartition {
    pub t: f64,
    /// cond(Φ_u) of the old partition that triggered it.
    pub condition: f64,
    /// The new independent coordinates, by name.
    pub independent: Vec<String>,
}

/// What a constrained run did besides stepping.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConstraintReport {
    pub formulation: String,
    /// Independent coordinates at the start (state-space).
    pub independent: Vec<String>,
    pub repartitions: Vec<Repartition>,
    /// Newton iterations spent recovering u (state-space) or projecting (augmented).
    pub newton_iterations: u64,
    /// Saddle-point solves (one per f-evaluation and per Jacobian).
    pub saddle_solves: u64,
}

/// A built model: its catalogue entry for this formulation and the model.
pub type Built = (ModelInfo, Box<dyn Model>);

/// Builds the model of the spec in a non-native formulation; `None` for the native one.
pub fn build(spec: &SolveSpec) -> Result<Option<Built>, OdeError> {
    let formulation = Formulation::parse(spec.formulation.as_deref())?;
    let stabilization = stabilization(spec)?;
    if formulation == Formulation::Native {
        if stabilization != Stabilization::None || spec.independent.is_some() {
            return Err(OdeError::BadSpec {
                message: "stabilization needs formulation: \"augmented\", independent \
                          needs formulation: \"state-space\""
                    .into(),
            });
        }
        return Ok(None);
    }
    let desc = models::describe(&spec.model, &spec.params, spec.y0.as_deref())?;
    let limit = match spec.partition_limit {
        None => state_space::DEFAULT_PARTITION_LIMIT,
        Some(l) if l.is_finite() && l > 1.0 => l,
        Some(l) => {
            return Err(OdeError::OutOfRange {
                what: "partitionLimit (the largest cond(Φ_u) kept)".into(),
                value: l,
                allowed: "a number greater than 1".into(),
            })
        }
    };
    Ok(Some(match formulation {
        Formulation::Augmented => augmented::build(desc, stabilization),
        Formulation::StateSpace => {
            if stabilization != Stabilization::None {
                return Err(OdeError::BadSpec {
                    message: "stabilization is for formulation \"augmented\"; the \
                              state-space formulation satisfies the constraints exactly"
                        .into(),
                });
            }
            state_space::build(desc, limit, spec.independent.as_deref())?
        }
        Formulation::Native => unreachable!("handled above"),
    }))
}

/// The checked stabilisation settings of a spec.
pub fn stabilization(spec: &SolveSpec) -> Result<Stabilization, OdeError> {
    let positive = |v: Option<f64>, name: &str| match v {
        None => Ok(10.0),
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Some(x) => Err(OdeError::OutOfRange {
            what: name.into(),
            value: x,
            allowed: "a number ≥ 0".into(),
        }),
    };
    match spec.stabilization.as_deref() {
        None | Some("none") => Ok(Stabilization::None),
        Some("baumgarte") => Ok(Stabilization::Baumgarte {
            alpha: positive(spec.baumgarte_alpha, "baumgarteAlpha")?,
            beta: positive(spec.baumgarte_beta, "baumgarteBeta")?,
        }),
        Some("projection") => Ok(Stabilization::Projection),
        Some(other) => Err(OdeError::BadSpec {
            message: format!(
                "unknown stabilization \"{other}\"; the choices are \"none\", \"baumgarte\", \
                 \"projection\""
            ),
        }),
    }
}
