//! [`PhiFunctions::compute`](super::PhiFunctions::compute) for n = 2, the size `llm`
//! runs on Van der Pol and the pendulum and `slowfast` on its fast pair, in the
//! two-dimensional algebra of the argument instead of on 2 × 2 matrices.
//!
//! **Why it is exact to do so.** Z = hJ = t I + W with t = tr Z / 2 and W traceless,
//! so W² = δ I with δ = ((z₀₀ − z₁₁)/2)² + z₀₁ z₁₀ (Cayley–Hamilton). Every polynomial
//! in Z, hence every φ_k(Z), is a I + b W for two scalars, and products stay in that
//! form: (a I + b W)(c I + d W) = (ac + δ bd) I + (ad + bc) W, five multiplications
//! instead of a matrix product's eight (and its eight additions). The scaling and
//! modified squaring of `super` runs unchanged on these pairs: X = Z/2^s, φ_K(X) by its
//! Taylor polynomial of degree 18 − K (Horner in X = t_s + W_s, W_s² = δ_s), the
//! lower φ_j = I/j! + X φ_{j+1}, s doublings (Skaflestad–Wright eq. 2.5); then φ_k(Z)
//! = a I + b 2^{−s} W, written out as a matrix.
//!
//! **Scaling.** The algebra norm |a| + |b| √|δ_s| is submultiplicative and bounds the
//! pair's terms, so the Taylor error and the doublings are governed by
//! ρ = |t| + √|δ| (the spectral radius for real eigenvalues, at most √2 times it for
//! complex ones), not by ‖Z‖₁: no balancing (t and δ do not change under a diagonal
//! similarity), and s = ⌈log₂ ρ⌉ by halving, so never more squarings than the
//! balanced matrix path needs plus one. The refusal above [`MAX_EXPM_NORM`] reads ρ.
//!
//! A triangular Z (z₀₁ = 0 or z₁₀ = 0, diagonal ones included) goes to the matrix path
//! (the any-size loops), which keeps its exact eigenvalues. Cost on an llm solve of Van
//! der Pol μ = 1000 (7,194 steps, natively): ~610 instructions per evaluation of φ₀ …
//! φ₃ here, ~1,270 on the 2 × 2 stack arrays it replaces.
//!
//! Only + − × ÷ and `sqrt` (exactly rounded in IEEE 754, so the same bits natively and
//! in WebAssembly). Tests: `two_by_two_algebra_agrees_with_the_matrix_loops` in
//! `super` (the any-size loops on random matrices), and in `tests/phi.rs` the rotation
//! block's closed form and van der Pol Jacobians against a 60-digit reference.

use super::{scaling, PhiFunctions, HALF_POW, INV_FACT, MAX_K};
use crate::error::OdeError;
use crate::linalg::MAX_EXPM_NORM;
use crate::stats::Stats;
use nalgebra::DMatrix;

/// a I + b W_s, W_s² = δ_s I.
#[derive(Clone, Copy)]
struct Pair {
    a: f64,
    b: f64,
}

impl Pair {
    /// The product in the algebra with W_s² = `delta`.
    #[inline(always)]
    fn mul(self, o: Pair, delta: f64) -> Pair {
        Pair {
            a: self.a * o.a + delta * (self.b * o.b),
            b: self.a * o.b + self.b * o.a,
        }
    }

    /// X·self + c I for X = (ts, 1), W_s² = `ds`: one Horner step of the Taylor
    /// polynomial, and the recurrence φ_j = I/j! + X φ_{j+1}.
    #[inline(always)]
    fn times_x_plus(self, ts: f64, ds: f64, c: f64) -> Pair {
        Pair {
            a: self.a * ts + self.b * ds + c,
            b: self.a + self.b * ts,
        }
    }
}

/// φ₀ … φ_K of Z = 2^s X, X = (ts, 1), W_s² = `ds`, as pairs (K a constant: every
/// loop below unrolls).
#[inline(always)]
fn phi_scaled<const K: usize>(ts: f64, ds: f64, squarings: usize) -> [Pair; MAX_K + 1] {
    // Taylor: φ_K(X) = Σ_{j ≤ 18−K} X^j/(j+K)!, Horner from the top: the series of e^X
    // to degree 18, whose tail on ρ ≤ 1 is below 1/19! ≈ 8e-18 (φ_K's relative to its
    // 1/K! alike).
    let degree = 18 - K;
    let mut phi = [Pair { a: 0.0, b: 0.0 }; MAX_K + 1];
    let mut acc = Pair {
        a: INV_FACT[degree + K],
        b: 0.0,
    };
    for j in (0..degree).rev() {
        acc = acc.times_x_plus(ts, ds, INV_FACT[j + K]);
    }
    phi[K] = acc;
    // φ_j = I/j! + X φ_{j+1}.
    for j in (0..K).rev() {
        phi[j] = phi[j + 1].times_x_plus(ts, ds, INV_FACT[j]);
    }
    // Doublings, φ_m(2X) = 2^{−m} [φ₀ φ_m + Σ_{j=1..m} φ_j/(m−j)!], m = K … 1, then
    // φ₀(2X) = φ₀(X)²; the basis W_s stays (2X = 2t_s I + 2W_s is a polynomial in it).
    for _ in 0..squarings {
        if K >= 3 {
            double_one::<3>(&mut phi, ds);
        }
        if K >= 2 {
            double_one::<2>(&mut phi, ds);
        }
        if K >= 1 {
            double_one::<1>(&mut phi, ds);
        }
        phi[0] = phi[0].mul(phi[0], ds);
    }
    phi
}

/// φ_M(X) → φ_M(2X) from φ₀(X) … φ_M(X) (M a constant).
#[inline(always)]
fn double_one<const M: usize>(phi: &mut [Pair; MAX_K + 1], ds: f64) {
    let mut s = phi[0].mul(phi[M], ds);
    for j in 1..=M {
        let c = INV_FACT[M - j];
        s.a += phi[j].a * c;
        s.b += phi[j].b * c;
    }
    phi[M] = Pair {
        a: s.a * HALF_POW[M],
        b: s.b * HALF_POW[M],
    };
}

/// Whether all four are finite: 0·v is ±0 for a finite v and NaN for ±∞ and NaN, so
/// the sum is 0 exactly when all are (no branch per entry).
#[inline(always)]
fn all_finite(v: [f64; 4]) -> bool {
    (v[0] * 0.0 + v[1] * 0.0) + (v[2] * 0.0 + v[3] * 0.0) == 0.0
}

impl PhiFunctions {
    /// [`compute`](Self::compute) for n = 2 in the algebra of Z (the module doc).
    pub(super) fn compute_two(
        &mut self,
        jac: &DMatrix<f64>,
        h: f64,
        k: usize,
        t: f64,
        step_h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let k = k.min(MAX_K);
        self.k = k;
        let err = || OdeError::ExpmNotFinite { t, h: step_h };
        let Some(&[j00, j10, j01, j11]) = jac.as_slice().get(..4) else {
            return Err(err());
        };
        if !h.is_finite() {
            return Err(err());
        }
        let (z00, z10, z01, z11) = (h * j00, h * j10, h * j01, h * j11);
        // Finite h·J: J finite, and no product overflowed (`compute_any`).
        if !all_finite([z00, z10, z01, z11]) {
            return Err(err());
        }
        // A triangular Z stays triangular in every product of the matrix path, which so
        // keeps its eigenvalues (the diagonal) exact: y' = λy in llm stays exact to
        // rounding at any hλ. Here they would be tr ± √δ, the slow one off by ~ε ρ. It
        // takes the any-size loops (the bits of the 2 × 2 stack arrays, which so stay out
        // of the first-load package, at its 150 KB gzip budget).
        if z01 == 0.0 || z10 == 0.0 {
            return self.compute_any(jac, h, k, t, step_h, stats);
        }
        // Z = tr I + W, W = [[d, z01], [z10, −d]], W² = δ I. An overflow here makes ρ
        // infinite or NaN, refused below like a huge norm.
        let tr = 0.5 * (z00 + z11);
        let d = 0.5 * (z00 - z11);
        let delta = d * d + z01 * z10;
        let rho = tr.abs() + delta.abs().sqrt();
        if !rho.is_finite() || rho > MAX_EXPM_NORM {
            return Err(err());
        }
        stats.nexpm += 1;
        let (factor, squarings) = scaling(rho);
        let (ts, ds) = (tr * factor, delta * factor * factor);

        let phi = match k {
            0 => phi_scaled::<0>(ts, ds, squarings),
            1 => phi_scaled::<1>(ts, ds, squarings),
            2 => phi_scaled::<2>(ts, ds, squarings),
            _ => phi_scaled::<3>(ts, ds, squarings),
        };

        // φ_k(Z) = a I + b W_s = a I + (b 2^{−s}) W, column-major, written to the held
        // buffers; an error if one entry is not finite (0·v summed in four lanes: each
        // lane is 0 if its entries were finite, NaN otherwise).
        let mut lanes = [0.0; 4];
        for (held, p) in self.phi.iter_mut().zip(&phi[..=k]) {
            let b = p.b * factor;
            let bd = b * d;
            let entries = [p.a + bd, b * z10, b * z01, p.a - bd];
            for (s, &v) in lanes.iter_mut().zip(&entries) {
                *s += v * 0.0;
            }
            held[..4].copy_from_slice(&entries);
        }
        if !all_finite(lanes) {
            return Err(err());
        }
        Ok(())
    }
}
