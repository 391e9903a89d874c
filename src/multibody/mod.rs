//! Constrained planar multibody dynamics the sources' way: one mechanism
//! ([`mechanism`]: bodies, revolute and translational joints, force elements, Φ, Φ_q, γ of Gil, Sanfelice & Nikravesh (LLM)
//! eqs. 7–8), integrated in two formulations.
//!
//! - [`augmented`]: the index-1 (augmented) formulation of Gil, Sanfelice & Nikravesh (LLM) §2: y = (q, q̇) in
//!   body coordinates, q̈ and the multipliers λ from the saddle-point system of 000
//!   eq. (9) at every f-evaluation (nalgebra LU), the analytic Jacobian of 000
//!   eqs. (10)–(15). The constraints drift; Baumgarte stabilisation or projection after
//!   every step are optional (off by default).
//! - [`state_space`]: Negrut et al. 2003 Algorithm 1: generalized coordinate partitioning of q
//!   into independent v and dependent u (full-pivoting LU of Φ_q), the ODE in y = (v, v̇)
//!   only, u by Newton on Φ(v, u) = 0 and u̇ from Φ_u u̇ = −Φ_v v̇, a partition check
//!   after every step that re-partitions when Φ_u becomes ill-conditioned.
//!
//! [`models`] writes `double-pendulum-stiff`, `double-pendulum-rsda`,
//! `pendulum-particle` and `vehicle-stiff` as mechanisms; a spec picks the formulation with `formulation`
//! (`"native"`, the default, is the model file as it was; `"augmented"`,
//! `"state-space"`). `crate::compare` runs both formulations side by side (Negrut et al. 2003 Tables 4–6).
//!
//! **State layout.** Augmented: `names` = (x1, y1, φ1, x2, …, ẋ1, ẏ1, φ̇1, …), the body
//! coordinates and their rates. State-space: `names` = the independent coordinates of
//! the initial partition and their rates, e.g. (φ1, φ2, φ̇1, φ̇2), for the whole run:
//! after a re-partition (listed in [`ConstraintReport::repartitions`]) the method
//! integrates the new independent coordinates, and the record (`y`, `tEval`, events,
//! `Integrator.advance`) reads the named ones from the recovered (q, q̇)
//! (`Model::report_state`). To keep runs comparable, both formulations report the same
//! `outputs`: the native model's named outputs (energy, …), the drift ‖Φ(q)‖₂ and
//! ‖Φ_q q̇‖₂, and every body coordinate (named `q:x1`, … so the full configuration of a
//! state-space run is visible). A spec's `y0`, when given, is in the *native* layout and
//! is mapped to body coordinates.

#[cfg(test)]
mod ad_check;
pub mod augmented;
pub mod consistent;
pub mod constrained;
pub mod index3;
pub mod mechanism;
pub mod models;
mod saddle;
#[cfg(feature = "full")]
pub mod sparse_saddle;
pub mod state_space;

use crate::error::OdeError;
use crate::model::{Model, ModelInfo};
use std::collections::BTreeMap;

/// How the equations of motion are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formulation {
    /// The model file's own formulation.
    Native,
    /// Index-1 augmented form, Gil, Sanfelice & Nikravesh (LLM) eq. (9).
    Augmented,
    /// Coordinate partitioning, Negrut et al. 2003 Algorithm 1.
    StateSpace,
    /// The index-3 DAE (q, v, λ) integrated directly by radau5 (Hairer & Wanner,
    /// Solving ODEs II §VII.8).
    Index3,
}

impl Formulation {
    pub fn parse(s: Option<&str>) -> Result<Self, OdeError> {
        match s {
            None | Some("native") => Ok(Self::Native),
            Some("augmented") => Ok(Self::Augmented),
            Some("state-space") => Ok(Self::StateSpace),
            Some("index-3") => Ok(Self::Index3),
            Some(other) => Err(OdeError::BadSpec {
                message: format!(
                    "unknown formulation \"{other}\"; the formulations are \"native\" (the \
                     model's own), \"augmented\" (body coordinates with multipliers), \"state-space\" \
                     (coordinate partitioning) and \"index-3\" (the DAE with its multipliers, \
                     integrated by radau5)"
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

pub use crate::model::constraint::{ConstraintFailure, ConstraintReport, Repartition};

/// A built model: its catalogue entry for this formulation and the model.
pub type Built = (ModelInfo, Box<dyn Model>);

/// What a run asks of a constrained formulation: the spec's fields that concern it
/// (`SolveSpec::formulation_request` reads them; this layer does not know the spec).
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub model: &'a str,
    pub params: &'a BTreeMap<String, f64>,
    /// The initial state in the native layout, if given.
    pub y0: Option<&'a [f64]>,
    pub formulation: Option<&'a str>,
    pub stabilization: Option<&'a str>,
    pub baumgarte_alpha: Option<f64>,
    pub baumgarte_beta: Option<f64>,
    pub partition_limit: Option<f64>,
    pub independent: Option<&'a [String]>,
    /// The run's method id (the index-3 formulation needs radau5).
    pub method: &'a str,
}

/// Builds the requested model in a non-native formulation; `None` for the native one.
pub fn build(spec: &Request<'_>) -> Result<Option<Built>, OdeError> {
    let formulation = Formulation::parse(spec.formulation)?;
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
    let desc = models::describe(spec.model, spec.params, spec.y0)?;
    let limit = partition_limit(spec)?;
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
            state_space::build(desc, limit, spec.independent)?
        }
        Formulation::Index3 => {
            index3_only(spec, stabilization)?;
            index3::build(desc)?
        }
        Formulation::Native => unreachable!("handled above"),
    }))
}

/// The index-3 formulation's checks: radau5 (the only method here for a DAE), no
/// stabilisation and no independent coordinates (it has neither).
fn index3_only(spec: &Request<'_>, stabilization: Stabilization) -> Result<(), OdeError> {
    if spec.method != index3::METHOD {
        return Err(OdeError::BadSpec {
            message: format!(
                "the index-3 formulation is a differential-algebraic system M y' = f (its \
                 constraint rows have no derivative); of the methods here only \"radau5\" \
                 integrates it, not \"{}\": choose radau5, or the augmented or state-space \
                 formulation for the other methods",
                spec.method
            ),
        });
    }
    if stabilization != Stabilization::None || spec.independent.is_some() {
        return Err(OdeError::BadSpec {
            message: "the index-3 formulation keeps Φ = 0 itself: stabilization is for \
                      \"augmented\" and independent for \"state-space\""
                .into(),
        });
    }
    Ok(())
}

/// A described constrained system (a typed mechanism) in the requested formulation;
/// the augmented one when the request names none (such a system has no other).
pub fn build_described(desc: models::Description, spec: &Request<'_>) -> Result<Built, OdeError> {
    let formulation = match Formulation::parse(spec.formulation)? {
        Formulation::Native => Formulation::Augmented,
        f => f,
    };
    let stabilization = stabilization(spec)?;
    let limit = partition_limit(spec)?;
    match formulation {
        Formulation::StateSpace => {
            if stabilization != Stabilization::None {
                return Err(OdeError::BadSpec {
                    message: "stabilization is for formulation \"augmented\"; the \
                              state-space formulation satisfies the constraints exactly"
                        .into(),
                });
            }
            state_space::build(desc, limit, spec.independent)
        }
        Formulation::Index3 => {
            index3_only(spec, stabilization)?;
            index3::build(desc)
        }
        _ => {
            if spec.independent.is_some() {
                return Err(OdeError::BadSpec {
                    message: "independent needs formulation: \"state-space\"".into(),
                });
            }
            Ok(augmented::build(desc, stabilization))
        }
    }
}

/// The constraints that lock together at (t, q) ([`consistent::locking_constraints`]).
pub(crate) fn locked_at(sys: &dyn constrained::Constrained, t: f64, q: &[f64]) -> Vec<String> {
    consistent::locking_constraints(&sys.phi_q(t, q), &sys.constraint_names())
}

fn partition_limit(spec: &Request<'_>) -> Result<f64, OdeError> {
    match spec.partition_limit {
        None => Ok(state_space::DEFAULT_PARTITION_LIMIT),
        Some(l) if l.is_finite() && l > 1.0 => Ok(l),
        Some(l) => Err(OdeError::OutOfRange {
            what: "partitionLimit (the largest cond(Φ_u) kept)".into(),
            value: l,
            allowed: "a number greater than 1".into(),
        }),
    }
}

/// The checked stabilisation settings of a request.
pub fn stabilization(spec: &Request<'_>) -> Result<Stabilization, OdeError> {
    let positive = |v: Option<f64>, name: &str| match v {
        None => Ok(10.0),
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Some(x) => Err(OdeError::OutOfRange {
            what: name.into(),
            value: x,
            allowed: "a number ≥ 0".into(),
        }),
    };
    match spec.stabilization {
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
