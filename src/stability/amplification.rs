//! One method's amplification on the test equation, whatever its kind: the value the
//! stability map shows at ξ = hλ, with the region of absolute stability where it is ≤ 1.
//!
//! - one-step methods: |R(ξ)| (Runge–Kutta from the same `const` tableaux the
//!   integrator steps with, a user's tableau, backward Euler, Rosenbrock/W, the full
//!   Radau IIA tableau of radau5: `rational.rs`;
//!   LLM: R = e^ξ, Gil, Sanfelice & Nikravesh (LLM) §1 and Fig. 6, the Sources panel's errata);
//! - methods with an amplification matrix: ρ(M(ξ)) (midpoint2's function in its own
//!   file, `slowfast.rs`);
//! - linear multistep and PECE: the largest root modulus of π(ζ; ξ) (`multistep.rs`).

use super::multistep::CharPoly;
use super::rosenbrock;
use super::slowfast::SlowFast;
use super::spec::{StabilitySpec, DEFAULT_ALPHA, DEFAULT_BETA};
use crate::error::OdeError;
use crate::method::{self, Xi};
use crate::tableau::rational::Rational;
use nalgebra::Complex;

type C = Complex<f64>;

/// The ids the stability lab knows: every registered method the ξ-plane draws
/// (`crate::method::REGISTRY`, in its order), then `"custom"` (a user's tableau).
pub fn ids() -> Vec<&'static str> {
    method::REGISTRY
        .iter()
        .filter(|e| !matches!(e.xi, Xi::None))
        .map(|e| e.info.id)
        .chain([method::custom::ID])
        .collect()
}

/// Whether the stability lab knows `id`.
pub fn knows(id: &str) -> bool {
    ids().contains(&id)
}

/// What is evaluated at each ξ.
#[derive(Debug, Clone)]
pub enum Amplification {
    /// |R(ξ)| of a rational stability function.
    Rational(Rational),
    /// |e^ξ| (LLM).
    Exp,
    /// A value computed point by point (ρ(M(ξ)) of an amplification matrix, e.g.
    /// midpoint2 on q'' + 2βωq' + ω²q = 0); NaN is drawn as +∞.
    Function(fn(C) -> f64),
    /// ρ(M(ξ; α, β)) of the slow/fast scheme.
    SlowFast(SlowFast),
    /// Largest root modulus of a characteristic polynomial.
    Multistep(CharPoly),
}

fn rows(a: &[&[f64]]) -> Vec<Vec<f64>> {
    a.iter().map(|r| r.to_vec()).collect()
}

impl Amplification {
    /// The amplification of `spec.method` (with α, β or a tableau where they apply),
    /// from the method's registry entry (`crate::method::Xi`).
    pub fn from_spec(spec: &StabilitySpec) -> Result<Self, OdeError> {
        let id = spec.method.as_str();
        let unknown = || OdeError::UnknownMethod {
            id: id.to_string(),
            known: ids().iter().map(|s| s.to_string()).collect(),
        };
        let xi = if id == method::custom::ID {
            None
        } else {
            match method::entry(id).map_err(|_| unknown())?.xi {
                Xi::None => return Err(unknown()),
                xi => Some(xi),
            }
        };
        if !matches!(xi, Some(Xi::SlowFast)) && (spec.alpha.is_some() || spec.beta.is_some()) {
            return Err(OdeError::BadSpec {
                message: format!(
                    "alpha and beta are parameters of the \"slowfast\" map only, not of \"{id}\""
                ),
            });
        }
        if xi.is_some() && spec.tableau.is_some() {
            return Err(OdeError::BadSpec {
                message: format!(
                    "a tableau is only read with method \"custom\", not with \"{id}\""
                ),
            });
        }
        let Some(xi) = xi else {
            let tab = spec.tableau.as_ref().ok_or_else(|| OdeError::BadSpec {
                message: "method \"custom\" needs a tableau { a, b, c }".into(),
            })?;
            let tab = tab.parse()?;
            return Ok(Amplification::Rational(Rational::from_lower_triangular(
                &tab.a, &tab.b,
            )));
        };
        Ok(match xi {
            Xi::Explicit(tab) => {
                Amplification::Rational(Rational::from_lower_triangular(&rows(tab.a), tab.b))
            }
            Xi::Diagonal(a, b) => {
                Amplification::Rational(Rational::from_lower_triangular(&rows(a), b))
            }
            Xi::Full(a, b) => Amplification::Rational(Rational::from_full(&rows(a), b)),
            Xi::Rosenbrock(tab) => {
                let (a, b) = rosenbrock::rows(tab);
                Amplification::Rational(Rational::from_lower_triangular(&a, &b))
            }
            Xi::Multistep(p) => Amplification::Multistep(p),
            Xi::Exp => Amplification::Exp,
            Xi::Function(f) => Amplification::Function(f),
            Xi::SlowFast => {
                let alpha = crate::error::finite(spec.alpha.unwrap_or(DEFAULT_ALPHA), "alpha")?;
                let beta = crate::error::finite(spec.beta.unwrap_or(DEFAULT_BETA), "beta")?;
                Amplification::SlowFast(SlowFast { alpha, beta })
            }
            Xi::None => return Err(unknown()),
        })
    }

    /// The value at ξ: ≥ 0, +∞ at a pole or overflow, never NaN.
    #[inline]
    pub fn value(&self, xi: C) -> f64 {
        match self {
            Amplification::Rational(r) => r.modulus(xi),
            Amplification::Exp => crate::math::exp(xi.re),
            Amplification::Function(f) => {
                let v = f(xi);
                if v.is_nan() {
                    f64::INFINITY
                } else {
                    v
                }
            }
            Amplification::SlowFast(sf) => sf.spectral_radius(xi),
            Amplification::Multistep(p) => p.max_root(xi),
        }
    }

    /// lim |value| as ξ → −∞ along the real axis (R(−∞) of L-stability); for the
    /// slow/fast map and a function the value far out at ξ = −1e12.
    pub fn value_at_infinity(&self) -> f64 {
        match self {
            Amplification::Rational(r) => r.modulus_at_infinity(),
            Amplification::Exp => 0.0,
            Amplification::Multistep(p) => p.max_root_at_infinity(),
            _ => self.value(C::new(-1e12, 0.0)),
        }
    }
}
