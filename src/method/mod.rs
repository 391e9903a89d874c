//! The method registry and the one-step abstraction every integrator implements.
//!
//! **One method, one file, one registry line.** A method's file holds its coefficients
//! as cited `const` tables, its [`MethodInfo`] and its [`MethodEntry`] `ENTRY`: the
//! info, a builder `fn(dim, &MethodOptions) -> Result<Box<dyn Stepper>, OdeError>`
//! and its ξ-plane amplification ([`Xi`]: an explicit tableau, a Rosenbrock table, a
//! characteristic polynomial, a function, …, pointing at the coefficients the stepper
//! uses). [`REGISTRY`] below lists every `ENTRY`, one line per method, in the order the
//! page lists them; the driver ([`create_with`], [`info`]), the catalogue
//! ([`CATALOG`], JS `methods()`) and the stability lab (`crate::stability`) all read
//! it, so no other file names a method id. To add a method: write `src/method/<id>.rs`
//! with `INFO`, `ENTRY` and its stepper, declare it below (`mod <id>;`) and add its line
//! to [`REGISTRY`]. A line ending in `.full()` ([`MethodEntry::full`]) is one whose
//! stepper only the whole engine (cargo feature `full`) builds: the first-load package
//! still lists it and draws its ξ-plane, and refuses to run it with
//! [`OdeError::NotInThisBuild`], so the page re-runs the spec in pkg-labs/.
//!
//! Shared machinery has its own file: `explicit_rk.rs` (explicit tableaux),
//! `fixed_rk.rs` (the same step specialised at compile time for dp45 and bs23),
//! `rosenbrock.rs` (Rosenbrock/W tables), `newton.rs` + `implicit.rs` (backward Euler,
//! BDF2), `adams.rs` (AB3, PECE), `history.rs` (multistep history), `hermite.rs`,
//! `registry.rs` (what an entry holds). `radau5.rs` is self-contained (its transformed
//! Newton iteration is its own). A user's tableau (`"custom"`, `custom.rs`) is not a
//! line: its info is computed from the spec's tableau ([`resolve`]).

/// Inside `impl Stepper for X` where `X: MeasuredStep`: the method's step is its
/// measuring step ([`MeasuredStep::step_measuring`]) without a measure, and the driver
/// reaches the measuring one through [`Stepper::measured`].
macro_rules! measured_step {
    () => {
        fn step(
            &mut self,
            sys: &dyn $crate::problem::System,
            t: f64,
            y: &[f64],
            h: f64,
            y_out: &mut [f64],
            stats: &mut $crate::stats::Stats,
        ) -> Result<(), $crate::error::OdeError> {
            $crate::method::MeasuredStep::step_measuring(self, sys, (t, y, h), y_out, stats, None)
                .map(|_| ())
        }

        fn measured(&mut self) -> Option<&mut dyn $crate::method::MeasuredStep> {
            Some(self)
        }
    };
}

pub mod ab3;
pub mod adams;
pub mod am_pece;
pub mod backward_euler;
pub mod bdf;
pub mod bdf2;
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
mod hht_alpha;
pub(crate) mod history;
mod implicit;
pub mod implicit_midpoint;
pub mod llm;
pub mod midpoint2;
pub mod ndf;
pub mod newmark;
pub mod newton;
pub mod ode23s;
pub mod params;
pub mod radau5;
mod registry;
mod rk4;
pub mod rn4;
pub mod rodas;
pub mod ros4;
pub mod ros4_t2;
mod rosenbrock;
pub mod slowfast;
pub mod verlet;
pub mod w2;

pub use explicit_rk::{Coefficients, ExplicitRk, OwnedTableau, Tableau};
pub use fixed_rk::{FixedPair, FixedRk, FixedTableau};
pub use hermite::hermite_cubic;
pub use midpoint2::Midpoint2;
pub use params::MethodParams;
pub use registry::{Build, CharPoly, MethodEntry, Xi};
pub use rosenbrock::{Rosenbrock, RosenbrockTableau};

use crate::error::OdeError;
use crate::jacobian::JacobianOptions;
use crate::problem::System;
use crate::stats::Stats;
use serde::Serialize;

/// A method in the catalogue (`methods()`): what the page and the API show about it.
#[derive(Debug, Clone, Serialize, tsify::Tsify)]
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
    #[tsify(optional)]
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
    /// Factors a sparse Jacobian when the system gives one (a typed system of at least
    /// `crate::linear_solver::SPARSE_MIN_DIM` states with a sparse pattern): its
    /// stepper asks its `JacobianProvider` for one (`sparse_if`), its memory grows
    /// with the pattern's entries, not with n², and the driver's size guard counts
    /// those. Not in the catalogue JS reads.
    #[serde(skip)]
    pub sparse: bool,
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

    /// Writes the approximation of y(t + h) into `y_out`, counting work in `stats`. A
    /// method with a [`MeasuredStep`] writes `measured_step!()` in its impl instead: its
    /// measuring step without a measure.
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
    /// ([`MeasuredStep`]), if it has one (the explicit pairs, the Rosenbrock methods):
    /// the driver then calls it in place of [`Stepper::step`] and
    /// [`Stepper::error_estimate`]. A hook rather than a defaulted measuring method, so
    /// that the other methods carry no copy of it.
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

    /// The order the last attempted step used, for a method that changes its order
    /// (`bdf`, `ndf`): the step inspector's `order` column.
    fn order_used(&self) -> Option<u32> {
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
    /// The step from (t, y) by h into `y_out`; with a `measure`, the normalised error
    /// of its estimate by it, formed as y_out is: bit for bit what
    /// [`crate::control::ErrorMeasure::of`] gives afterwards (without one, 0). The one
    /// step routine of such a method: its [`Stepper::step`] is this without a measure
    /// (`measured_step!()`).
    fn step_measuring(
        &mut self,
        sys: &dyn System,
        step: (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<crate::control::ErrorMeasure>,
    ) -> Result<f64, OdeError>;
}

/// Every method, one line each, in the order the page lists them (see the module doc).
pub const REGISTRY: &[MethodEntry] = &[
    euler::ENTRY,
    heun::ENTRY,
    midpoint2::ENTRY,
    verlet::ENTRY,
    rk4::ENTRY,
    bs23::ENTRY,
    dp45::ENTRY,
    ab3::ENTRY,
    am_pece::ENTRY,
    backward_euler::ENTRY,
    bdf2::ENTRY,
    implicit_midpoint::ENTRY,
    ros4::ENTRY,
    ros4_t2::ENTRY,
    rn4::ENTRY,
    rodas::ENTRY,
    ode23s::ENTRY,
    w2::ENTRY,
    radau5::ENTRY,
    ndf::ENTRY,
    bdf::ENTRY,
    llm::ENTRY,
    slowfast::ENTRY,
    generalized_alpha::ENTRY,
    hht_alpha::ENTRY,
    newmark::ENTRY,
];

/// All methods' infos, in the registry's order (JS `methods()`).
pub const CATALOG: &[&MethodInfo] = &infos::<{ REGISTRY.len() }>();

const fn infos<const N: usize>() -> [&'static MethodInfo; N] {
    let mut out = [REGISTRY[0].info; N];
    let mut i = 0;
    while i < N {
        out[i] = REGISTRY[i].info;
        i += 1;
    }
    out
}

/// The registry's line of method `id`.
pub fn entry(id: &str) -> Result<&'static MethodEntry, OdeError> {
    REGISTRY
        .iter()
        .find(|e| e.info.id == id)
        .ok_or_else(|| OdeError::UnknownMethod {
            id: id.to_string(),
            known: ids(),
        })
}

/// The explicit RK tableau method `id` steps with, for the stability analysis and
/// consistency tests.
pub fn tableau(id: &str) -> Option<&'static Tableau> {
    match entry(id).ok()?.xi {
        Xi::Explicit(tab) => Some(tab),
        _ => None,
    }
}

/// The catalogue's ids, for error messages.
pub fn ids() -> Vec<String> {
    CATALOG.iter().map(|m| m.id.to_string()).collect()
}

/// The catalogue entry of method `id`.
pub fn info(id: &str) -> Result<&'static MethodInfo, OdeError> {
    Ok(entry(id)?.info)
}

/// The Rosenbrock or W-method table of method `id` (ros4-t2: ros4's, the same method),
/// for stability analysis and tests.
pub fn rosenbrock_tableau(id: &str) -> Option<&'static RosenbrockTableau> {
    match entry(id).ok()?.xi {
        Xi::Rosenbrock(tab) => Some(tab),
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
        let (info, tab) = custom::resolve(tableau)?;
        return Ok((info.clone(), Some((info, tab))));
    }
    if tableau.is_some() {
        return Err(OdeError::BadSpec {
            message: format!("a tableau is only read with method \"custom\", not with \"{id}\""),
        });
    }
    Ok((info(id)?.clone(), None))
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
    if id == custom::ID {
        return custom::build(dim, options);
    }
    let entry = entry(id)?;
    if options.params.is_some() && !params::TAKE_PARAMS.contains(&id) {
        return Err(params_refused(id));
    }
    entry.build(dim, options)
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
