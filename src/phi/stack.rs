//! [`PhiFunctions::compute`](super::PhiFunctions::compute) for a size N known at compile
//! time (the `with_size!` sizes), on stack arrays `[[f64; N]; N]`, column-major
//! (`m[j][i]` is row i of column j): every trip count and index is a constant, so a
//! 2 × 2 evaluation costs its arithmetic, not the bounds checks, buffer swaps and copies
//! of the any-size loops on the heap buffers (an llm solve of Van der Pol μ = 1000,
//! natively: 22.4 M instructions of 35.1 M in φ there, 9.1 M of 21.1 M here, before
//! n = 2 moved to the algebra of `two.rs`; this file now serves n = 1, 3 … 8 of the
//! whole engine). Only the result, φ₀ … φ_k, is written to the held buffers.
//!
//! **The same bits as the any-size loops of `super`:** each function here performs the
//! same floating-point operations in the same order as its counterpart there (named
//! beside it); only loops that touch each entry once are fused. The unit test
//! `stack_arrays_give_the_bits_of_the_any_size_loops` in `super` compares the two
//! entry by entry for n = 1 … 8.

use super::{balance_factor, scaling, PhiFunctions, DEGREE, HALF_POW, INV_FACT, MAX_K};
use crate::error::OdeError;
use crate::linalg::MAX_EXPM_NORM;
use crate::stats::Stats;
use nalgebra::DMatrix;

/// An N × N matrix, column-major: `m[j]` is column j.
type Mat<const N: usize> = [[f64; N]; N];

/// a b (`matmul_any`: each column summed over k in order, from 0.0). Inlined up to
/// 4 × 4, where the call would cost as much as the product; a call above (which keeps
/// the sizes up to 8 from growing the labs package by ~13 KB).
#[inline(always)]
fn mul<const N: usize>(a: &Mat<N>, b: &Mat<N>) -> Mat<N> {
    if N <= 4 {
        mul_inline(a, b)
    } else {
        mul_call(a, b)
    }
}

#[inline(never)]
fn mul_call<const N: usize>(a: &Mat<N>, b: &Mat<N>) -> Mat<N> {
    mul_inline(a, b)
}

#[inline(always)]
fn mul_inline<const N: usize>(a: &Mat<N>, b: &Mat<N>) -> Mat<N> {
    let mut c = [[0.0; N]; N];
    for (cj, bj) in c.iter_mut().zip(b) {
        for (ak, &bkj) in a.iter().zip(bj) {
            for (ci, &aik) in cj.iter_mut().zip(ak) {
                *ci += aik * bkj;
            }
        }
    }
    c
}

/// The Paterson–Stockmeyer chunk c₀I + c₁X + c₂X² + c₃X³ (`chunk`), plus `tail` when
/// given (the Horner step's `acc += tmp`, fused).
#[inline(always)]
fn chunk<const N: usize>(
    coef: &[f64],
    [x1, x2, x3]: [&Mat<N>; 3],
    tail: Option<&Mat<N>>,
) -> Mat<N> {
    let (c0, c1, c2, c3) = (coef[0], coef[1], coef[2], coef[3]);
    let mut out = [[0.0; N]; N];
    for j in 0..N {
        for i in 0..N {
            let diag = if i == j { c0 } else { 0.0 };
            let v = diag + c1 * x1[j][i] + c2 * x2[j][i] + c3 * x3[j][i];
            out[j][i] = match tail {
                Some(t) => v + t[j][i],
                None => v,
            };
        }
    }
    out
}

/// Parlett–Reinsch balancing of `z` in place, returning D (`balance`).
#[inline(always)]
fn balance<const N: usize>(z: &mut Mat<N>) -> [f64; N] {
    let mut scale = [1.0; N];
    for _ in 0..32 {
        let mut changed = false;
        for i in 0..N {
            let (mut c, mut r) = (0.0, 0.0);
            // Column i (z[i][j]) and row i (z[j][i]) without the diagonal.
            for (j, (zij, zj)) in z[i].iter().zip(z.iter()).enumerate() {
                if j != i {
                    c += zij.abs();
                    r += zj[i].abs();
                }
            }
            if c == 0.0 || r == 0.0 {
                continue;
            }
            if let Some(f) = balance_factor(c, r) {
                changed = true;
                scale[i] *= f;
                for v in &mut z[i] {
                    *v *= f;
                }
                for zj in z.iter_mut() {
                    zj[i] /= f;
                }
            }
        }
        if !changed {
            break;
        }
    }
    scale
}

/// φ_k(X) … φ₀(X) for ‖X‖₁ ≤ 1 (`taylor`).
#[inline(always)]
fn taylor<const N: usize>(x1: &Mat<N>, k: usize) -> [Mat<N>; MAX_K + 1] {
    let x2 = mul(x1, x1);
    let x3 = mul(&x2, x1);
    let x4 = mul(&x2, &x2);
    let powers = [x1, &x2, &x3];
    let chunks = (DEGREE + 1) / 4;
    let mut acc = chunk(&INV_FACT[4 * (chunks - 1) + k..], powers, None);
    for i in (0..chunks - 1).rev() {
        let tmp = mul(&acc, &x4);
        acc = chunk(&INV_FACT[4 * i + k..], powers, Some(&tmp));
    }
    let mut phi = [[[0.0; N]; N]; MAX_K + 1];
    phi[k] = acc;
    for j in (0..k).rev() {
        phi[j] = mul(x1, &phi[j + 1]);
        for (d, col) in phi[j].iter_mut().enumerate() {
            col[d] += INV_FACT[j];
        }
    }
    phi
}

/// φ_m(X) → φ_m(2X) from φ₀(X) … φ_m(X) (one term of `double`, m a constant).
#[inline(always)]
fn double_one<const N: usize, const M: usize>(phi: &mut [Mat<N>; MAX_K + 1]) {
    let mut s = mul(&phi[0], &phi[M]);
    for j in 1..=M {
        let c = INV_FACT[M - j];
        for (s, &p) in s.as_flattened_mut().iter_mut().zip(phi[j].as_flattened()) {
            *s += p * c;
        }
    }
    for s in s.as_flattened_mut() {
        *s *= HALF_POW[M];
    }
    phi[M] = s;
}

/// φ_j(X) → φ_j(2X), j = k … 0 (`double`).
#[inline(always)]
fn double<const N: usize>(phi: &mut [Mat<N>; MAX_K + 1], k: usize) {
    if k >= 3 {
        double_one::<N, 3>(phi);
    }
    if k >= 2 {
        double_one::<N, 2>(phi);
    }
    if k >= 1 {
        double_one::<N, 1>(phi);
    }
    phi[0] = mul(&phi[0], &phi[0]);
}

impl PhiFunctions {
    /// [`compute`](Self::compute) for n = N ≥ 1 on stack arrays (`compute_any`).
    pub(super) fn compute_stack<const N: usize>(
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
        let Some(jac) = jac.as_slice().get(..N * N) else {
            return Err(err());
        };
        if !h.is_finite() {
            return Err(err());
        }
        let mut x: Mat<N> = [[0.0; N]; N];
        for (x, &j) in x.as_flattened_mut().iter_mut().zip(jac) {
            *x = h * j;
        }
        // Finite h·J: J finite, and no product overflowed (`compute_any`).
        if !x.as_flattened().iter().all(|v| v.is_finite()) {
            return Err(err());
        }
        let scale = balance(&mut x);
        let mut norm: f64 = 0.0;
        for col in &x {
            norm = norm.max(col.iter().map(|v| v.abs()).sum());
        }
        if !norm.is_finite() || norm > MAX_EXPM_NORM {
            return Err(err());
        }
        stats.nexpm += 1;
        let (factor, squarings) = scaling(norm);
        if factor != 1.0 {
            for x in x.as_flattened_mut() {
                *x *= factor;
            }
        }
        let mut phi = taylor(&x, k);
        for _ in 0..squarings {
            double(&mut phi, k);
        }
        if scale.iter().any(|&d| d != 1.0) {
            for p in &mut phi[..=k] {
                for (col, &dj) in p.iter_mut().zip(&scale) {
                    for (v, di) in col.iter_mut().zip(&scale) {
                        *v = *v * di / dj;
                    }
                }
            }
        }
        for (held, p) in self.phi.iter_mut().zip(&phi[..=k]) {
            held[..N * N].copy_from_slice(p.as_flattened());
        }
        if phi[..=k]
            .iter()
            .all(|p| p.as_flattened().iter().all(|v| v.is_finite()))
        {
            Ok(())
        } else {
            Err(err())
        }
    }
}
