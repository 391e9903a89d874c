//! One method's amplification on the test equation, whatever its kind: the value the
//! stability map shows at ξ = hλ, with the region of absolute stability where it is ≤ 1.
//!
//! - one-step methods: |R(ξ)| (Runge–Kutta from the same `const` tableaux the
//!   integrator steps with, a user's tableau, backward Euler, Rosenbrock/W, the full
//!   Radau IIA tableau of radau5: `rational.rs`;
//!   LLM: R = e^ξ, Gil, Sanfelice & Nikravesh (LLM) §1 and Fig. 6, the Sources panel's errata);
//! - methods with an amplification matrix: ρ(M(ξ)) (`midpoint2.rs`, `slowfast.rs`);
//! - linear multistep and PECE: the largest root modulus of π(ζ; ξ) (`multistep.rs`).

use super::midpoint2;
use super::multistep::{CharPoly, AB3, AM_PECE, BDF2};
use super::rational::Rational;
use super::rosenbrock;
use super::slowfast::SlowFast;
use super::spec::{StabilitySpec, DEFAULT_ALPHA, DEFAULT_BETA};
use crate::error::OdeError;
use crate::method;
use nalgebra::Complex;

type C = Complex<f64>;

/// The method ids the stability lab knows, plus `"custom"` (a user's tableau).
pub const IDS: &[&str] = &[
    "euler",
    "heun",
    "rk4",
    "bs23",
    "dp45",
    "midpoint2",
    "backward-euler",
    "bdf2",
    "ab3",
    "am-pece",
    "ros4",
    "w2",
    "radau5",
    "llm",
    "slowfast",
    "custom",
];

/// Backward Euler as a one-stage tableau, Schwab & Delhaes §7.7: y_{n+1} = y_n + h f(y_{n+1}),
/// R = 1/(1 − z).
const BACKWARD_EULER_A: [[f64; 1]; 1] = [[1.0]];

/// What is evaluated at each ξ.
#[derive(Debug, Clone)]
pub enum Amplification {
    /// |R(ξ)| of a rational stability function.
    Rational(Rational),
    /// |e^ξ| (LLM).
    Exp,
    /// ρ(M(ξ)) of midpoint2 on q'' + 2βωq' + ω²q = 0.
    Midpoint2,
    /// ρ(M(ξ; α, β)) of the slow/fast scheme.
    SlowFast(SlowFast),
    /// Largest root modulus of a characteristic polynomial.
    Multistep(CharPoly),
}

fn rows_of(tab: &method::Tableau) -> (Vec<Vec<f64>>, Vec<f64>) {
    (tab.a.iter().map(|r| r.to_vec()).collect(), tab.b.to_vec())
}

impl Amplification {
    /// The amplification of `spec.method` (with α, β or a tableau where they apply).
    pub fn from_spec(spec: &StabilitySpec) -> Result<Self, OdeError> {
        let id = spec.method.as_str();
        if !IDS.contains(&id) {
            return Err(OdeError::UnknownMethod {
                id: id.to_string(),
                known: IDS.iter().map(|s| s.to_string()).collect(),
            });
        }
        if id != "slowfast" && (spec.alpha.is_some() || spec.beta.is_some()) {
            return Err(OdeError::BadSpec {
                message: format!(
                    "alpha and beta are parameters of the \"slowfast\" map only, not of \"{id}\""
                ),
            });
        }
        if id != "custom" && spec.tableau.is_some() {
            return Err(OdeError::BadSpec {
                message: format!(
                    "a tableau is only read with method \"custom\", not with \"{id}\""
                ),
            });
        }
        Ok(match id {
            "midpoint2" => Amplification::Midpoint2,
            "llm" => Amplification::Exp,
            "slowfast" => {
                let alpha = crate::error::finite(spec.alpha.unwrap_or(DEFAULT_ALPHA), "alpha")?;
                let beta = crate::error::finite(spec.beta.unwrap_or(DEFAULT_BETA), "beta")?;
                Amplification::SlowFast(SlowFast { alpha, beta })
            }
            "ab3" => Amplification::Multistep(AB3),
            "am-pece" => Amplification::Multistep(AM_PECE),
            "bdf2" => Amplification::Multistep(BDF2),
            "backward-euler" => {
                let a: Vec<Vec<f64>> = BACKWARD_EULER_A.iter().map(|r| r.to_vec()).collect();
                Amplification::Rational(Rational::from_lower_triangular(&a, &[1.0]))
            }
            "ros4" | "w2" => {
                let (a, b) = rosenbrock::tableau(id).ok_or_else(|| OdeError::BadSpec {
                    message: format!("no Rosenbrock coefficients for \"{id}\""),
                })?;
                Amplification::Rational(Rational::from_lower_triangular(&a, &b))
            }
            "radau5" => {
                let a: Vec<Vec<f64>> = method::radau5::A.iter().map(|r| r.to_vec()).collect();
                Amplification::Rational(Rational::from_full(&a, &method::radau5::B))
            }
            "custom" => {
                let tab = spec.tableau.as_ref().ok_or_else(|| OdeError::BadSpec {
                    message: "method \"custom\" needs a tableau { a, b, c }".into(),
                })?;
                let tab = tab.parse()?;
                Amplification::Rational(Rational::from_lower_triangular(&tab.a, &tab.b))
            }
            _ => {
                // The explicit RK tableaux of the catalogue (euler, heun, rk4, bs23, dp45).
                let tab = method::tableau(id).ok_or_else(|| OdeError::UnknownMethod {
                    id: id.to_string(),
                    known: IDS.iter().map(|s| s.to_string()).collect(),
                })?;
                let (a, b) = rows_of(tab);
                Amplification::Rational(Rational::from_lower_triangular(&a, &b))
            }
        })
    }

    /// The value at ξ: ≥ 0, +∞ at a pole or overflow, never NaN.
    #[inline]
    pub fn value(&self, xi: C) -> f64 {
        match self {
            Amplification::Rational(r) => r.modulus(xi),
            Amplification::Exp => crate::math::exp(xi.re),
            Amplification::Midpoint2 => {
                let v = midpoint2::spectral_radius(xi);
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
    /// slow/fast map and midpoint2 the value far out at ξ = −1e12.
    pub fn value_at_infinity(&self) -> f64 {
        match self {
            Amplification::Rational(r) => r.modulus_at_infinity(),
            Amplification::Exp => 0.0,
            Amplification::Multistep(p) => p.max_root_at_infinity(),
            _ => self.value(C::new(-1e12, 0.0)),
        }
    }
}
