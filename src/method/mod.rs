//! The method catalogue and the one-step abstraction every integrator implements.
//!
//! One method per file. A method file holds its coefficients as cited `const`
//! tables and its [`MethodInfo`]; [`create`] turns an id into a ready stepper.
//! Shared machinery has its own file: `explicit_rk.rs` (explicit tableaux),
//! `fixed_rk.rs` (the same step specialised at compile time for dp45 and bs23),
//! `rosenbrock.rs` (Rosenbrock/W tables), `newton.rs` + `implicit.rs` (backward Euler,
//! BDF2), `adams.rs` (AB3, PECE), `history.rs` (multistep history), `hermite.rs`.
//! `radau5.rs` is self-contained (its transformed Newton iteration is its own).

mod ab3;
mod adams;
mod am_pece;
mod backward_euler;
mod bdf2;
mod bs23;
pub mod custom;
mod dirk;
mod dp45;
mod euler;
mod explicit_rk;
mod fixed_rk;
pub mod generalized_alpha;
mod hermite;
mod heun;
pub(crate) mod history;
// Backward Euler and BDF2 are the whole engine's (see `implicit_stepper`).
#[cfg(feature = "full")]
mod implicit;
pub mod llm;
mod midpoint2;
pub mod newton;
pub mod params;
pub mod radau5;
mod rk4;
pub mod ros4;
pub mod ros4_t2;
mod rosenbrock;
pub mod slowfast;
pub mod w2;

pub use explicit_rk::{Coefficients, ExplicitRk, OwnedTableau, Tableau};
pub use fixed_rk::{FixedPair, FixedRk, FixedTableau};
pub use hermite::hermite_cubic;
pub use midpoint2::Midpoint2;
pub use params::MethodParams;
pub use rosenbrock::{Rosenbrock, RosenbrockTableau};

use crate::error::OdeError;
use crate::jacobian::JacobianOptions;
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
    /// Right-hand-side evaluations per step (an FSAL stage reused from the previous
    /// step is not counted).
    pub stages: u32,
    /// Whether the method has an error estimate and so adapts its step by default.
    pub adaptive: bool,
    /// Order of the embedded formula that estimates the error (q of Negrut et al. 2003 eq. 6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedded_order: Option<u32>,
    /// First same as last: the last stage of a step is the first of the next.
    pub fsal: bool,
    /// Order p* of the dense output: between steps its local error is O(h^(p*+1)).
    /// Methods whose source gives no interpolant use a cubic Hermite, p* = min(order, 3).
    pub dense_order: u32,
    /// For second-order systems only: y = (q, q') halves, see `ModelInfo::second_order`.
    pub second_order: bool,
    /// Uses ∂f/∂y (and ∂f/∂t): the model's analytic ones, or finite differences when
    /// the spec asks (`jacobian: "fd"`), see `crate::jacobian`.
    pub needs_jacobian: bool,
    /// L-stable: R(z) → 0 as z → −∞ (stiff components are damped in one step).
    pub l_stable: bool,
    /// Needs a slow/fast partition of the state (`ModelInfo.fast` or the spec's `fast`).
    pub partitioned: bool,
}

/// What a stepper needs to know beyond the method id: where its Jacobian comes from
/// and, for `slowfast`, which states are fast.
#[derive(Debug, Clone, Default)]
pub struct MethodOptions {
    pub jacobian: JacobianOptions,
    /// Indices of the fast states (slow/fast partition, Gil, Sanfelice & Nikravesh 2013 eq. 17).
    pub fast: Vec<usize>,
    /// Method `"custom"`: the user's checked tableau and the method it defines (see
    /// [`resolve`]).
    pub custom: Option<(MethodInfo, crate::tableau::ButcherTableau)>,
    /// The spec's `methodParams` (generalized-α's ρ∞, HHT's α, Newmark's β and γ).
    pub params: Option<params::ParamsField>,
}

/// One step of a method: advances y(t) to y(t + h).
pub trait Stepper {
    /// Static description of the method.
    fn info(&self) -> &MethodInfo;

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

    /// The method's step that measures its own error estimate while it forms y_out
    /// ([`MeasuredStep`]), if it has one (the explicit pairs): the driver then calls it
    /// in place of [`Stepper::step`] and [`Stepper::error_estimate`]. A hook rather
    /// than a defaulted step method, so that the other methods carry no copy of it.
    fn measured(&mut self) -> Option<&mut dyn MeasuredStep> {
        None
    }

    /// The tolerance an adaptive run measures this method's error estimate against
    /// ([`Stepper::error_tolerance`] of the run's), for a method whose inner iteration
    /// should stop relative to it (radau5's Newton iteration). Called by the driver
    /// once the stepper is made, on adaptive runs only; most methods ignore it.
    fn set_tolerance(&mut self, _tolerance: &crate::control::Tolerance) {}

    /// The tolerance the driver measures this method's error estimate against, given
    /// the run's: the run's itself, unless the method calibrates its estimate (radau5
    /// runs at RADAU5's 0.1·rtol^(2/3)).
    fn error_tolerance(&self, run: &crate::control::Tolerance) -> crate::control::Tolerance {
        run.clone()
    }

    /// The method's own step-size policy, if it has one (radau5): the driver uses it
    /// instead of the run's controller when the spec names no `controller`.
    fn step_control(&mut self) -> Option<&mut dyn crate::control::StepControl> {
        None
    }

    /// The local error estimate y_{n+1} − ŷ_{n+1} of the last step, for methods with
    /// an embedded formula.
    fn error_estimate(&self) -> Option<&[f64]> {
        None
    }

    /// The last step's continuous extension at t_n + θh (θ ∈ [0, 1]). May evaluate f
    /// (counted in `stats`) for methods whose interpolant needs f(t_{n+1}, y_{n+1}).
    fn dense_output(
        &mut self,
        sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError>;
}

/// A step that measures its error estimate as it goes ([`Stepper::measured`]).
pub trait MeasuredStep {
    /// [`Stepper::step`], returning the normalised error of its estimate by `measure`:
    /// bit for bit what [`crate::control::ErrorMeasure::of`] gives afterwards.
    fn step_measured(
        &mut self,
        sys: &dyn System,
        step: (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: crate::control::ErrorMeasure,
    ) -> Result<f64, OdeError>;
}

/// All methods, in the order the page lists them.
pub const CATALOG: &[&MethodInfo] = &[
    &euler::INFO,
    &heun::INFO,
    &midpoint2::INFO,
    &rk4::INFO,
    &bs23::INFO,
    &dp45::INFO,
    &ab3::INFO,
    &am_pece::INFO,
    &backward_euler::INFO,
    &bdf2::INFO,
    &ros4::INFO,
    &ros4_t2::INFO,
    &w2::INFO,
    &radau5::INFO,
    &llm::INFO,
    &slowfast::INFO,
    &generalized_alpha::GENERALIZED_ALPHA,
    &generalized_alpha::HHT_ALPHA,
    &generalized_alpha::NEWMARK,
];

/// The explicit RK tableaux, for the stability analysis and consistency tests.
pub fn tableau(id: &str) -> Option<&'static Tableau> {
    match id {
        "euler" => Some(&euler::TABLEAU),
        "heun" => Some(&heun::TABLEAU),
        "rk4" => Some(&rk4::TABLEAU),
        "bs23" => Some(&bs23::TABLEAU),
        "dp45" => Some(&dp45::TABLEAU),
        _ => None,
    }
}

/// The catalogue's ids, for error messages.
pub fn ids() -> Vec<String> {
    CATALOG.iter().map(|m| m.id.to_string()).collect()
}

/// The catalogue entry of method `id`.
pub fn info(id: &str) -> Result<&'static MethodInfo, OdeError> {
    CATALOG
        .iter()
        .copied()
        .find(|m| m.id == id)
        .ok_or_else(|| OdeError::UnknownMethod {
            id: id.to_string(),
            known: ids(),
        })
}

/// The Rosenbrock and W-method coefficient tables, for stability analysis and tests.
pub fn rosenbrock_tableau(id: &str) -> Option<&'static RosenbrockTableau> {
    match id {
        // ros4-t2 is the same method (Negrut et al. 2003 Table 2 is Table 1 transformed): same R(z).
        "ros4" | "ros4-t2" => Some(&ros4::TABLEAU),
        "w2" => Some(&w2::TABLEAU),
        _ => None,
    }
}

/// The description of method `id`: the catalogue's entry, or for `"custom"` the one
/// computed from `tableau` (which is then returned checked, for [`MethodOptions::custom`]).
#[allow(clippy::type_complexity)]
pub fn resolve(
    id: &str,
    tableau: Option<&crate::tableau::TableauSpec>,
) -> Result<
    (
        MethodInfo,
        Option<(MethodInfo, crate::tableau::ButcherTableau)>,
    ),
    OdeError,
> {
    if id == custom::ID {
        let (info, tab) = custom_method(tableau)?;
        return Ok((info.clone(), Some((info, tab))));
    }
    if tableau.is_some() {
        return Err(OdeError::BadSpec {
            message: format!("a tableau is only read with method \"custom\", not with \"{id}\""),
        });
    }
    Ok((info(id)?.clone(), None))
}

/// The user's tableau, checked and analysed (its orders, `crate::tableau`).
#[cfg(feature = "full")]
fn custom_method(
    tableau: Option<&crate::tableau::TableauSpec>,
) -> Result<(MethodInfo, crate::tableau::ButcherTableau), OdeError> {
    custom::resolve(tableau)
}

/// The first-load build leaves out a user's tableau (cargo feature `full`): reading
/// and analysing it is the tableau lab's work.
#[cfg(not(feature = "full"))]
fn custom_method(
    _: Option<&crate::tableau::TableauSpec>,
) -> Result<(MethodInfo, crate::tableau::ButcherTableau), OdeError> {
    Err(OdeError::NotInThisBuild {
        what: "method \"custom\" (your own tableau)",
    })
}

/// The slow/fast scheme (Gil, Sanfelice & Nikravesh 2013) on the partition of `options.fast`.
#[cfg(feature = "full")]
fn slowfast_stepper(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(slowfast::SlowFast::new(
        dim,
        &options.fast,
        options.jacobian,
    )?))
}

/// The first-load build leaves out the slow/fast scheme (cargo feature `full`): it needs
/// a slow/fast partition, which few models have, and its stepper is 16 KB of `.wasm`.
#[cfg(not(feature = "full"))]
fn slowfast_stepper(_: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Err(OdeError::NotInThisBuild {
        what: "method \"slowfast\"",
    })
}

/// Backward Euler or BDF2 with their Newton iteration.
#[cfg(feature = "full")]
fn implicit_stepper(
    info: &'static MethodInfo,
    bdf2: bool,
    dim: usize,
    options: &MethodOptions,
) -> Result<Box<dyn Stepper>, OdeError> {
    let formula = if bdf2 {
        implicit::Formula::Bdf2
    } else {
        implicit::Formula::BackwardEuler
    };
    Ok(Box::new(implicit::ImplicitStepper::new(
        info,
        formula,
        dim,
        options.jacobian,
    )))
}

/// The first-load build leaves out backward Euler and BDF2 (cargo feature `full`): no
/// first plot uses them, and their Newton iteration (convergence-rate test, refreshed
/// Jacobians) is the size the run package's budget cannot spare.
#[cfg(not(feature = "full"))]
fn implicit_stepper(
    info: &'static MethodInfo,
    _: bool,
    _: usize,
    _: &MethodOptions,
) -> Result<Box<dyn Stepper>, OdeError> {
    Err(OdeError::NotInThisBuild {
        what: if info.id == bdf2::INFO.id {
            "method \"bdf2\""
        } else {
            "method \"backward-euler\""
        },
    })
}

/// Generalized-α, HHT-α or Newmark with the spec's parameters.
#[cfg(feature = "full")]
fn structural_stepper(
    id: &str,
    dim: usize,
    options: &MethodOptions,
) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(generalized_alpha::GeneralizedAlpha::create(
        id,
        dim,
        options.params.as_ref(),
        options.jacobian,
    )?))
}

/// `methodParams` given to a method that reads none.
#[cfg(feature = "full")]
fn params_refused(id: &str) -> OdeError {
    OdeError::BadSpec {
        message: format!(
            "methodParams are read by {} only, not by method \"{id}\"",
            params::TAKE_PARAMS.join(", ")
        ),
    }
}

/// The first-load build reads no `methodParams`: the whole engine says what is wrong.
#[cfg(not(feature = "full"))]
fn params_refused(_: &str) -> OdeError {
    OdeError::NotInThisBuild {
        what: "methodParams",
    }
}

/// The first-load build leaves out the structural-dynamics methods (cargo feature
/// `full`): no first plot uses them.
#[cfg(not(feature = "full"))]
fn structural_stepper(_: &str, _: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Err(OdeError::NotInThisBuild {
        what: "the generalized-α family",
    })
}

/// A stepper for method `id` on a system of dimension `dim`, with default options
/// (analytic Jacobian, the model's partition).
pub fn create(id: &str, dim: usize) -> Result<Box<dyn Stepper>, OdeError> {
    create_with(id, dim, &MethodOptions::default())
}

/// A stepper for method `id` on a system of dimension `dim`.
pub fn create_with(
    id: &str,
    dim: usize,
    options: &MethodOptions,
) -> Result<Box<dyn Stepper>, OdeError> {
    #[cfg(feature = "full")]
    if id == custom::ID {
        let (info, tab) = options.custom.as_ref().ok_or_else(|| OdeError::BadSpec {
            message: "method \"custom\" needs a tableau { a, b, c?, bHat? }".into(),
        })?;
        return Ok(custom::create(info.clone(), tab, dim, options.jacobian));
    }
    let info = info(id)?;
    if options.params.is_some() && !params::TAKE_PARAMS.contains(&id) {
        return Err(params_refused(id));
    }
    if params::TAKE_PARAMS.contains(&id) {
        return structural_stepper(id, dim, options);
    }
    if id == midpoint2::INFO.id {
        return Ok(Box::new(Midpoint2::new(dim)));
    }
    if id == backward_euler::INFO.id || id == bdf2::INFO.id {
        return implicit_stepper(info, id == bdf2::INFO.id, dim, options);
    }
    if id == ab3::INFO.id || id == am_pece::INFO.id {
        let scheme = if id == ab3::INFO.id {
            adams::Scheme::Ab3
        } else {
            adams::Scheme::Pece
        };
        return Ok(Box::new(adams::Adams::new(info, scheme, dim)));
    }
    if id == slowfast::INFO.id {
        return slowfast_stepper(dim, options);
    }
    if id == llm::INFO.id {
        return Ok(Box::new(llm::Llm::new(dim, options.jacobian)?));
    }
    if id == radau5::INFO.id {
        return Ok(Box::new(radau5::Radau5::new(dim, options.jacobian)));
    }
    if id == ros4_t2::INFO.id {
        return Ok(Box::new(ros4_t2::Ros4T2::new(dim, options.jacobian)));
    }
    if let Some(tab) = rosenbrock_tableau(id) {
        return Ok(Box::new(Rosenbrock::new(info, tab, dim, options.jacobian)));
    }
    // The FSAL pairs with an interpolant run the compile-time specialised step (the same
    // bits as the generic loop, see fixed_rk.rs).
    if id == dp45::INFO.id {
        return Ok(Box::new(FixedRk::<dp45::Dp45, 7, 4>::new(info, dim)));
    }
    if id == bs23::INFO.id {
        return Ok(Box::new(FixedRk::<bs23::Bs23, 4, 3>::new(info, dim)));
    }
    match tableau(id) {
        Some(tab) => Ok(Box::new(ExplicitRk::new(info, tab, dim))),
        None => Err(OdeError::UnknownMethod {
            id: id.to_string(),
            known: ids(),
        }),
    }
}
