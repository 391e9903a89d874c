//! Facts about a region of absolute stability (value ≤ 1, see `amplification.rs`),
//! found by root refinement rather than read off a grid:
//!
//! - real-axis intercept: where the stable interval that starts at ξ = 0 ends on the
//!   negative real axis (−2 for Euler, −2.785… for RK4, the Sources panel's errata);
//! - imaginary-axis extent: how far up the imaginary axis it reaches (2√2 for RK4);
//! - A-stability (Gil, Sanfelice & Nikravesh (LLM) §1, Schwab & Delhaes §7.7): the closed left half-plane is inside,
//!   checked on a dense sample of the imaginary axis, of the left half-plane in polar
//!   rings, and at ξ → −∞;
//! - the value at ξ → −∞ (L-stability: A-stable and R(−∞) = 0, Negrut et al. 2003 §2).
//!
//! The boundary search scans outwards from 0 in steps of 1e-3 up to |ξ| = 50, then
//! geometrically (ratio 1.01) to 1e8, and bisects the first unstable step to the last
//! bit: the point where the value crosses 1 + [`MARGIN`] (the margin keeps the
//! O(|ξ|^{p+1}) round-off near ξ = 0 from counting as instability).

use super::amplification::Amplification;
use super::spec::StabilitySpec;
use crate::error::OdeError;
use nalgebra::Complex;
use serde::Serialize;

type C = Complex<f64>;

/// Values up to 1 + MARGIN count as stable in the facts.
pub const MARGIN: f64 = 1e-14;
/// Largest |ξ| searched; a boundary beyond it is reported as unbounded (±∞).
pub const SEARCH_LIMIT: f64 = 1e8;
/// R(−∞) below this (and A-stable) counts as L-stable; ros4's is 9.6e-9 because γ
/// is printed to 8 digits (the Sources panel's errata).
pub const L_STABLE_TOL: f64 = 1e-6;

/// The facts of one method's region.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct StabilityFacts {
    /// End of the stable interval [x, 0] on the negative real axis; −∞ if the whole
    /// searched axis is stable; `None` if the method is unstable just left of 0.
    #[tsify(optional)]
    pub real_intercept: Option<f64>,
    /// End of the stable interval [0, i y] on the imaginary axis; +∞ if unbounded;
    /// `None` if no part of the axis but 0 is stable (Euler, Heun).
    #[tsify(optional)]
    pub imag_extent: Option<f64>,
    /// The closed left half-plane is inside the region.
    pub a_stable: bool,
    /// The value as ξ → −∞ (|R(−∞)|; +∞ for explicit methods).
    pub value_at_minus_infinity: f64,
    /// A-stable and value at −∞ below 1e-6.
    pub l_stable: bool,
}

/// First point from 0 along `dir` (a unit complex number) where the value exceeds
/// 1 + MARGIN: `Some(t·dir)` as a distance t; `Some(∞)` if none before the limit;
/// `None` if unstable right away.
pub fn boundary_along(value: &dyn Fn(C) -> f64, dir: C) -> Option<f64> {
    const STEP: f64 = 1e-3;
    let unstable = |t: f64| {
        let v = value(dir * t);
        v.is_nan() || v > 1.0 + MARGIN
    };
    if unstable(STEP) {
        return None;
    }
    let mut inside = STEP;
    let mut t = 2.0 * STEP;
    loop {
        if unstable(t) {
            let mut outside = t;
            while outside - inside > 4.0 * f64::EPSILON * outside {
                let mid = 0.5 * (inside + outside);
                if unstable(mid) {
                    outside = mid;
                } else {
                    inside = mid;
                }
            }
            return Some(0.5 * (inside + outside));
        }
        inside = t;
        if t >= SEARCH_LIMIT {
            return Some(f64::INFINITY);
        }
        t = if t < 50.0 {
            t + STEP
        } else {
            (t * 1.01).min(SEARCH_LIMIT)
        };
    }
}

/// Whether every sampled point of the closed left half-plane is stable.
pub fn left_half_plane_stable(value: &dyn Fn(C) -> f64) -> bool {
    let ok = |z: C| value(z) <= 1.0 + MARGIN;
    // The imaginary axis, densely: linear to 50, then geometric to 1e8.
    let mut y = 0.0;
    while y <= SEARCH_LIMIT {
        if !ok(C::new(0.0, y)) || !ok(C::new(0.0, -y)) {
            return false;
        }
        y = if y < 50.0 { y + 1e-3 } else { y * 1.01 };
    }
    // Rings in the open left half-plane.
    let mut r = 1e-3;
    while r <= SEARCH_LIMIT {
        for k in 1..64 {
            let angle = std::f64::consts::FRAC_PI_2 + std::f64::consts::PI * k as f64 / 64.0;
            if !ok(C::from_polar(r, angle)) {
                return false;
            }
        }
        r *= 1.05;
    }
    true
}

/// The facts of an amplification.
pub fn facts_of(amp: &Amplification) -> StabilityFacts {
    // An order star's facts are those of its method's region.
    if let Amplification::OrderStar(r) = amp {
        return facts_of(&Amplification::Rational(r.clone()));
    }
    let value = |z: C| amp.value(z);
    let real_intercept = boundary_along(&value, C::new(-1.0, 0.0)).map(|t| -t);
    let imag_extent = boundary_along(&value, C::new(0.0, 1.0));
    let at_inf = amp.value_at_infinity();
    let a_stable = at_inf <= 1.0 + MARGIN && left_half_plane_stable(&value);
    StabilityFacts {
        real_intercept,
        imag_extent,
        a_stable,
        value_at_minus_infinity: at_inf,
        l_stable: a_stable && at_inf < L_STABLE_TOL,
    }
}

/// The facts of `spec.method` (α, β and a tableau where they apply; the window is not used).
pub fn stability_facts(spec: &StabilitySpec) -> Result<StabilityFacts, OdeError> {
    Ok(facts_of(&Amplification::from_spec(spec)?))
}
