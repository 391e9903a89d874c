//! Linear multistep methods on y' = λy: y_n is a combination of earlier values, so the
//! step is stable where every root ζ of the characteristic polynomial
//! π(ζ; ξ) = Σ_j p_j(ξ) ζ^j has |ζ| ≤ 1 (ξ = hλ). For a plain multistep method
//! p_j(ξ) = α_j − ξ β_j, i.e. π = ρ(ζ) − ξ σ(ζ); a predictor–corrector in PECE mode
//! gives p_j of degree 2 in ξ (derived below).
//!
//! The methods themselves live in `src/method/`; their coefficients are
//! repeated here as cited data, named by the method ids.

use super::roots::{max_root_modulus, MAX_DEGREE};
use nalgebra::Complex;

type C = Complex<f64>;

/// A characteristic polynomial π(ζ; ξ) = Σ_j p_j(ξ) ζ^j: `coef[j]` holds the
/// coefficients of p_j in ascending powers of ξ, j ascending in ζ.
#[derive(Debug, Clone, Copy)]
pub struct CharPoly {
    pub coef: &'static [&'static [f64]],
}

/// Adams–Bashforth 3, Schwab & Delhaes §7.8: y_{n+1} = y_n + h/12 (23 f_n − 16 f_{n−1} + 5 f_{n−2}),
/// ρ(ζ) = ζ³ − ζ², σ(ζ) = (23ζ² − 16ζ + 5)/12. Real intercept −6/11 (the Sources panel's errata).
pub const AB3: CharPoly = CharPoly {
    coef: &[
        &[0.0, -5.0 / 12.0],
        &[0.0, 16.0 / 12.0],
        &[-1.0, -23.0 / 12.0],
        &[1.0, 0.0],
    ],
};

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

/// BDF2, Schwab & Delhaes §7.8 with the Sources panel's errata's correction (+⅓ y_{n−1}, f(t₁, y₁)):
/// y_{n+1} − (4/3) y_n + (1/3) y_{n−1} = (2/3) h f_{n+1}; ρ = ζ² − (4/3)ζ + 1/3,
/// σ = (2/3) ζ². A-stable (the Sources panel's errata).
pub const BDF2: CharPoly = CharPoly {
    coef: &[&[1.0 / 3.0, 0.0], &[-4.0 / 3.0, 0.0], &[1.0, -2.0 / 3.0]],
};

/// `am-pece` as implemented in `src/method/am_pece.rs`: Schwab & Delhaes §7.8's PECE,
/// "predict with A–B order k, correct with A–M order k + 1", with k = 3: predictor AB3
/// y* = y_n + h(23 f_n − 16 f_{n−1} + 5 f_{n−2})/12, corrector AM4
/// y_{n+1} = y_n + h(9 f* + 19 f_n − 5 f_{n−1} + f_{n−2})/24 with f* = f(y*), and a
/// final evaluation at the corrected value. On y' = λy (f_j = λ y_j, z = ξ), substituting
/// y* into the corrector:
/// y_{n+1} = (1 + 7z/6 + 23z²/32) y_n − (5z/24 + z²/2) y_{n−1} + (z/24 + 5z²/32) y_{n−2},
/// so π(ζ; z) = ζ³ − (1 + 7z/6 + 23z²/32)ζ² + (5z/24 + z²/2)ζ − (z/24 + 5z²/32).
/// Its real interval is far shorter than the implicit AM4's (−3): the corrector is
/// applied once, not iterated to convergence.
pub const AM_PECE: CharPoly = CharPoly {
    coef: &[
        &[0.0, -1.0 / 24.0, -5.0 / 32.0],
        &[0.0, 5.0 / 24.0, 0.5],
        &[-1.0, -7.0 / 6.0, -23.0 / 32.0],
        &[1.0, 0.0, 0.0],
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
            *cj = super::rational::horner(pj, xi);
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
