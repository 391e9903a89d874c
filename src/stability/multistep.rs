//! Linear multistep methods on y' = λy: y_n is a combination of earlier values, so the
//! step is stable where every root ζ of the characteristic polynomial
//! π(ζ; ξ) = Σ_j p_j(ξ) ζ^j has |ζ| ≤ 1 (ξ = hλ). For a plain multistep method
//! p_j(ξ) = α_j − ξ β_j, i.e. π = ρ(ζ) − ξ σ(ζ); a predictor–corrector in PECE mode
//! gives p_j of degree 2 in ξ (derived below).
//!
//! The polynomials of the catalogue's methods are their registry entries'
//! (`crate::method::Xi::Multistep`, in each method's file); the constants here are
//! those under their method ids, and two pairs that are not methods, for comparison.

use super::roots::{max_root_modulus, MAX_DEGREE};
pub use crate::method::CharPoly;
use crate::tableau::rational::horner;
use nalgebra::Complex;

type C = Complex<f64>;

/// Adams–Bashforth 3 (`ab3`), Schwab & Delhaes §7.8.
pub const AB3: CharPoly = crate::method::ab3::CHAR_POLY;

/// PECE with AB3 and AM4 (`am-pece`), Schwab & Delhaes §7.8.
pub const AM_PECE: CharPoly = crate::method::am_pece::CHAR_POLY;

/// BDF2 (`bdf2`), Schwab & Delhaes §7.8 (corrected, the Sources panel's errata).
pub const BDF2: CharPoly = crate::method::bdf2::CHAR_POLY;

/// Adams–Moulton 3 (the implicit corrector alone), Schwab & Delhaes §7.8:
/// y_{n+1} = y_n + h/12 (5 f_{n+1} + 8 f_n − f_{n−1}); ρ = ζ² − ζ,
/// σ = (5ζ² + 8ζ − 1)/12. Real intercept −6 (the Sources panel's errata). Not a method id: the
/// catalogue's `am-pece` uses AM4 as its corrector in PECE mode, see [`AM_PECE`]; the
/// AB2–AM3 pair is [`AB2_AM3_PECE`].
pub const AM3: CharPoly = CharPoly {
    coef: &[
        &[0.0, 1.0 / 12.0],
        &[-1.0, -8.0 / 12.0],
        &[1.0, -5.0 / 12.0],
    ],
};

/// The PECE pair with k = 2 (AB2 predictor, AM3 corrector), for comparison: derived the
/// same way, ζ² − (1 + 13z/12 + 5z²/8) ζ + (z/12 + 5z²/24) = 0. On the negative real
/// axis its region ends at z = −12/5, where ζ = 1 is a double root (ζ² − 2ζ + 1).
pub const AB2_AM3_PECE: CharPoly = CharPoly {
    coef: &[
        &[0.0, 1.0 / 12.0, 5.0 / 24.0],
        &[-1.0, -13.0 / 12.0, -5.0 / 8.0],
        &[1.0, 0.0, 0.0],
    ],
};

impl CharPoly {
    /// max |ζ| over the roots at ξ (+∞ where the leading coefficient vanishes).
    #[inline]
    pub fn max_root(&self, xi: C) -> f64 {
        let mut c = [C::new(0.0, 0.0); MAX_DEGREE + 1];
        for (cj, pj) in c.iter_mut().zip(self.coef) {
            *cj = horner(pj, xi);
        }
        let v = max_root_modulus(&c[..self.coef.len()]);
        if v.is_nan() {
            f64::INFINITY
        } else {
            v
        }
    }

    /// The limit of max |ζ| as ξ → ∞: the roots of the ξ-leading parts (σ for a
    /// multistep method).
    pub fn max_root_at_infinity(&self) -> f64 {
        let top = self.coef.iter().map(|p| p.len()).max().unwrap_or(1) - 1;
        let mut c = [C::new(0.0, 0.0); MAX_DEGREE + 1];
        for (cj, pj) in c.iter_mut().zip(self.coef) {
            *cj = C::new(pj.get(top).copied().unwrap_or(0.0), 0.0);
        }
        max_root_modulus(&c[..self.coef.len()])
    }
}
