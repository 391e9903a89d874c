//! What the registry holds for a method ([`MethodEntry`]) and how the ξ-plane reads
//! it ([`Xi`]). The table itself is `REGISTRY` in `mod.rs`, one line per method; each
//! method's file defines its `ENTRY`.

use super::{MethodInfo, MethodOptions, RosenbrockTableau, Stepper, Tableau};
use crate::error::OdeError;
use nalgebra::Complex;

/// Builds a ready stepper for a system of dimension `dim`.
pub type Build = fn(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError>;

/// One method as the driver, the catalogue and the stability lab see it.
#[derive(Clone, Copy)]
pub struct MethodEntry {
    /// What the page and the API show.
    pub info: &'static MethodInfo,
    /// How to build its stepper; `None` in a build that leaves the stepper out (see
    /// [`MethodEntry::full`]): the method is still known, and asking for it is
    /// [`OdeError::NotInThisBuild`].
    pub build: Option<Build>,
    /// What the ξ-plane shows for it.
    pub xi: Xi,
}

impl MethodEntry {
    /// A registry line whose stepper only the whole engine builds (cargo feature
    /// `full`). Without the feature the line keeps the method's info and ξ-plane but
    /// drops the builder, so the first-load package lists the method, refuses to run
    /// it with [`OdeError::NotInThisBuild`] (the page then re-runs the spec in
    /// pkg-labs/), and links none of its stepper's code.
    pub const fn full(self) -> Self {
        if cfg!(feature = "full") {
            self
        } else {
            MethodEntry {
                build: None,
                ..self
            }
        }
    }

    /// A ready stepper, or why this build has none.
    pub fn build(&self, dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
        match self.build {
            Some(build) => build(dim, options),
            None => Err(OdeError::NotInThisBuild {
                what: self.info.name,
            }),
        }
    }
}

/// A characteristic polynomial π(ζ; ξ) = Σ_j p_j(ξ) ζ^j of a multistep method on
/// y' = λy, ξ = hλ: `coef[j]` holds the coefficients of p_j in ascending powers of ξ,
/// j ascending in ζ. A plain linear multistep method has p_j(ξ) = α_j − ξ β_j; a
/// predictor–corrector in PECE mode has p_j of degree 2. The ξ-plane shows the largest
/// root modulus (`crate::stability::multistep`).
#[derive(Debug, Clone, Copy)]
pub struct CharPoly {
    pub coef: &'static [&'static [f64]],
}

/// How a method amplifies the test equation y' = λy at ξ = hλ: the data the
/// stability lab turns into |R(ξ)|, ρ(M(ξ)) or a largest root modulus. Each variant
/// points at the coefficients the method steps with, so the map shows the method that
/// runs.
#[derive(Clone, Copy)]
pub enum Xi {
    /// An explicit Runge–Kutta tableau: |R| of its stability polynomial.
    Explicit(&'static Tableau),
    /// A lower-triangular (diagonally implicit) tableau (A, b): |R| with R = N/D.
    Diagonal(&'static [&'static [f64]], &'static [f64]),
    /// A full (fully implicit) tableau (A, b): R by determinants.
    Full(&'static [&'static [f64]], &'static [f64]),
    /// A Rosenbrock or W-method table, R of α + Γ.
    Rosenbrock(&'static RosenbrockTableau),
    /// A multistep method's characteristic polynomial.
    Multistep(CharPoly),
    /// |e^ξ|: the method is exact on y' = λy (an exponential integrator).
    Exp,
    /// Any value ≥ 0 computed point by point, e.g. ρ(M(ξ)) of an amplification
    /// matrix; a NaN is drawn as +∞.
    Function(fn(Complex<f64>) -> f64),
    /// The slow/fast scheme's ρ(M(ξ; α, β)), α and β from the request
    /// (`crate::stability::slowfast`).
    SlowFast,
    /// Not drawn in the ξ-plane.
    None,
}
