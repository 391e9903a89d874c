//! "Euler 2", the one-evaluation "arcade" method for second-order systems
//! q'' = f(t, q, q') of Schwab & Delhaes §7.4. With y = (q, z), z = q':
//!
//! k₁ = f(t_n + h/2, q_n + (h/2) z_n, z_n),  q_{n+1} = q_n + h z_n + (h²/2) k₁,
//! z_{n+1} = z_n + h k₁.
//!
//! Order, as derived in Schwab & Delhaes §7.4: the local error is O(h²) in general (k₁ uses z_n
//! where z at the midpoint is needed, missing the (h²/2) ∂f/∂z f term of z_{n+1}), so
//! the global error is O(h); when f does not depend on z (no damping) the local error
//! is O(h³) and the method is second order. On q'' = −ω² q it is stable iff hω ≤ 2
//! (the Sources panel's errata: det 1, trace 2 − Ω²).

use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::Complex;

pub const INFO: MethodInfo = MethodInfo {
    id: "midpoint2",
    name: "Euler 2 (midpoint, second-order systems)",
    order: 1,
    family: "explicit, for second-order systems",
    source: "Schwab & Delhaes §7.4",
    stages: 1,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 1,
    second_order: true,
    needs_jacobian: false,
    l_stable: false,
    partitioned: false,
    sparse: false,
};

/// The Schwab & Delhaes §7.4 stepper. The model's state must be y = (q, q') halves; the driver
/// checks `ModelInfo::second_order` before creating it.
pub struct Midpoint2 {
    y_mid: Vec<f64>,
    f_mid: Vec<f64>,
    last_h: f64,
    last_y: Vec<f64>,
}

impl Midpoint2 {
    pub fn new(dim: usize) -> Self {
        Self {
            y_mid: vec![0.0; dim],
            f_mid: vec![0.0; dim],
            last_h: f64::NAN,
            last_y: vec![0.0; dim],
        }
    }

    /// (q, z) after a step of θh using the last step's k₁: the method's own formula,
    /// so the interpolant is as accurate as the method.
    fn advance(&self, theta_h: f64, out: &mut [f64]) {
        let n = out.len() / 2;
        let (q, z) = self.last_y.split_at(n);
        let k1 = &self.f_mid[n..];
        for i in 0..n {
            out[i] = q[i] + theta_h * z[i] + 0.5 * theta_h * theta_h * k1[i];
            out[n + i] = z[i] + theta_h * k1[i];
        }
    }
}

impl Stepper for Midpoint2 {
    fn info(&self) -> &MethodInfo {
        &INFO
    }

    fn step(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = y.len() / 2;
        let (q, z) = y.split_at(n);
        // Midpoint position, velocity held at z_n ("z_n not interesting, just pick z_n").
        for i in 0..n {
            self.y_mid[i] = q[i] + 0.5 * h * z[i];
            self.y_mid[n + i] = z[i];
        }
        sys.rhs(t + 0.5 * h, &self.y_mid, &mut self.f_mid);
        stats.nfev += 1;
        self.last_h = h;
        self.last_y.copy_from_slice(y);
        self.advance(h, y_out);
        Ok(())
    }

    fn dense_output(
        &mut self,
        _sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.advance(theta * self.last_h, out);
        Ok(())
    }
}

pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Function(spectral_radius),
};

fn build(dim: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Midpoint2::new(dim)))
}

// The amplification matrix of `midpoint2` ("Euler 2", Schwab & Delhaes §7.4) on the
// second-order test equation of Schwab & Delhaes §7.4, q'' + 2βω q' + ω² q = 0 (eq. 7.13).
//
// The ξ-plane of a second-order method: the test equation's eigenvalues are
// λ, λ̄ = −βω ± i√(1 − β²) ω (Schwab & Delhaes after eq. 7.13), so a point ξ = hλ stands for
// Ω² = (hω)² = |ξ|² and 2βωh = −2 Re ξ (Re ξ > 0 is negative damping). Derivation,
// with the scaled velocity p = h z (z = q'):
// h² k₁ = −Ω² (q + p/2) − c p, c = 2βωh;
// q_{n+1} = q + p + h²k₁/2 = (1 − Ω²/2) q + (1 − Ω²/4 − c/2) p;
// p_{n+1} = p + h²k₁ = −Ω² q + (1 − Ω²/2 − c) p.
// So M = [[1 − Ω²/2, 1 − Ω²/4 − c/2], [−Ω², 1 − Ω²/2 − c]] (a similarity transform of
// the matrix in (q, z), same spectrum). Undamped: det M = 1 and tr M = 2 − Ω²
// (the Sources panel's errata), stable iff Ω ≤ 2.

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
