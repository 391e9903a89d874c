//! The amplification matrix of `midpoint2` ("Euler 2", Schwab & Delhaes §7.4) on the
//! second-order test equation of Schwab & Delhaes §7.4, q'' + 2βω q' + ω² q = 0 (eq. 7.13).
//!
//! The ξ-plane of a second-order method: the test equation's eigenvalues are
//! λ, λ̄ = −βω ± i√(1 − β²) ω (002 after eq. 7.13), so a point ξ = hλ stands for
//! Ω² = (hω)² = |ξ|² and 2βωh = −2 Re ξ (Re ξ > 0 is negative damping). Derivation,
//! with the scaled velocity p = h z (z = q'):
//! h² k₁ = −Ω² (q + p/2) − c p, c = 2βωh;
//! q_{n+1} = q + p + h²k₁/2 = (1 − Ω²/2) q + (1 − Ω²/4 − c/2) p;
//! p_{n+1} = p + h²k₁ = −Ω² q + (1 − Ω²/2 − c) p.
//! So M = [[1 − Ω²/2, 1 − Ω²/4 − c/2], [−Ω², 1 − Ω²/2 − c]] (a similarity transform of
//! the matrix in (q, z), same spectrum). Undamped: det M = 1 and tr M = 2 − Ω²
//! (the Sources panel's errata), stable iff Ω ≤ 2.

use nalgebra::Complex;

/// M(ξ) in the scaled variables (q, h q'), row-major.
pub fn matrix(xi: Complex<f64>) -> [[f64; 2]; 2] {
    let w2 = xi.norm_sqr();
    let c = -2.0 * xi.re;
    [
        [1.0 - 0.5 * w2, 1.0 - 0.25 * w2 - 0.5 * c],
        [-w2, 1.0 - 0.5 * w2 - c],
    ]
}

/// Spectral radius of a real 2 × 2 matrix.
#[inline]
pub fn spectral_radius_real(m: [[f64; 2]; 2]) -> f64 {
    let half = 0.5 * (m[0][0] + m[1][1]);
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    let disc = half * half - det;
    if disc >= 0.0 {
        half.abs() + disc.sqrt()
    } else {
        det.sqrt()
    }
}

/// ρ(M(ξ)).
#[inline]
pub fn spectral_radius(xi: Complex<f64>) -> f64 {
    spectral_radius_real(matrix(xi))
}
