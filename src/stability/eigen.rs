//! The current problem's hλᵢ for the ξ-plane markers: eigenvalues λᵢ of the Jacobian
//! ∂f/∂y at a state, times the step size h. Where hλᵢ falls outside a method's region,
//! the linearised step amplifies that mode (seed 002 §7.1: the test equation is the
//! local linearisation; seed 003: RK4 at h = 0.005 puts the pendulum-plus-particle's
//! fast hλ ≈ 3.54i outside its region, METHODS.md).
//!
//! The Jacobian is the model's analytic one (every catalogue model has one, a user
//! system's comes from automatic differentiation); the eigenvalues are those of its real
//! Schur form (nalgebra), with an iteration cap so a pathological matrix is an error,
//! not a hang.

use crate::error::OdeError;
use crate::expr::build_user_system;
use crate::model::{self, Model, ModelInfo};
use crate::spec::finite;
use nalgebra::linalg::Schur;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Largest system handled (a dense Schur decomposition per call).
pub const MAX_DIM: usize = 400;

/// `scaledEigenvalues` input: a model (or a system text), the state and the step size.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EigenSpec {
    #[serde(default)]
    pub model: String,
    #[serde(default)]
    pub system: Option<String>,
    #[serde(default)]
    pub params: BTreeMap<String, f64>,
    /// Time (default the model's t0).
    #[serde(default)]
    pub t: Option<f64>,
    /// State (default the model's y0).
    #[serde(default)]
    pub y: Option<Vec<f64>>,
    /// Step size h > 0 (default 1: the eigenvalues themselves).
    #[serde(default)]
    pub h: Option<f64>,
}

/// hλᵢ as (Re, Im) pairs, in the order the Schur form gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct ScaledEigenvalues {
    pub re: Vec<f64>,
    pub im: Vec<f64>,
}

fn build(spec: &EigenSpec) -> Result<(ModelInfo, Box<dyn Model>), OdeError> {
    match (&spec.system, spec.model.is_empty()) {
        (Some(text), true) => build_user_system(text, &spec.params),
        (Some(_), false) => Err(OdeError::BadSpec {
            message: "give either model or system, not both".into(),
        }),
        (None, true) => Err(OdeError::BadSpec {
            message: "missing field `model` (a model id, or give your own `system` text)".into(),
        }),
        (None, false) => model::build(&spec.model, &spec.params),
    }
}

/// hλᵢ of ∂f/∂y at (t, y).
pub fn scaled_eigenvalues(spec: &EigenSpec) -> Result<ScaledEigenvalues, OdeError> {
    let (info, model) = build(spec)?;
    let h = spec.h.unwrap_or(1.0);
    if h.is_nan() || h <= 0.0 {
        return Err(OdeError::BadStepSize { h });
    }
    finite(h, "step size h")?;
    let t = finite(spec.t.unwrap_or(info.t0), "t")?;
    let y = match &spec.y {
        Some(y) if y.len() != info.dim => {
            return Err(OdeError::WrongLength {
                what: format!("state y of model \"{}\"", info.id),
                expected: info.dim,
                got: y.len(),
            })
        }
        Some(y) => y.clone(),
        None => model.default_y0().unwrap_or_else(|| info.y0.clone()),
    };
    for (v, name) in y.iter().zip(&info.names) {
        finite(*v, &format!("state {name}"))?;
    }
    if info.dim > MAX_DIM {
        return Err(OdeError::OutOfRange {
            what: "the system dimension".into(),
            value: info.dim as f64,
            allowed: format!("at most {MAX_DIM} for eigenvalues"),
        });
    }
    let jac = model.jacobian(t, &y).ok_or_else(|| OdeError::BadSpec {
        message: format!("model \"{}\" has no Jacobian", info.id),
    })?;
    if jac.nrows() != info.dim || jac.ncols() != info.dim {
        return Err(OdeError::WrongLength {
            what: "the model's Jacobian (rows)".into(),
            expected: info.dim,
            got: jac.nrows(),
        });
    }
    if jac.iter().any(|v| !v.is_finite()) {
        return Err(OdeError::NotFinite {
            what: format!("the Jacobian of model \"{}\" at this state", info.id),
        });
    }
    let schur = Schur::try_new(jac, f64::EPSILON, 10_000).ok_or_else(|| OdeError::BadSpec {
        message: "the eigenvalue iteration did not converge for this Jacobian".into(),
    })?;
    let ev = schur.complex_eigenvalues();
    Ok(ScaledEigenvalues {
        re: ev.iter().map(|l| h * l.re).collect(),
        im: ev.iter().map(|l| h * l.im).collect(),
    })
}
