//! φ-functions of a big (sparse) matrix applied to vectors, by Krylov subspaces: the
//! combination
//!
//! ```text
//! u(τ) = Σ_{k=1..p} τ^k φ_k(τA) w_k
//! ```
//!
//! from products A·x only (a sparse Jacobian's, O(nnz) each), never an n × n matrix.
//!
//! **The augmented matrix** (Gil, Sanfelice & Nikravesh (LLM) eqs. 6 and 32, the block
//! matrices of Van Loan's Theorem 1; Niesen & Wright, "Algorithm 919: A Krylov subspace
//! algorithm for evaluating the φ-functions appearing in exponential integrators", ACM
//! TOMS 38(3), 2012, §2, eq. 2.3): with W = [w_p … w_1] and the p × p shift J_p,
//!
//! ```text
//! Ã = [[A, ηW], [0, J_p]],   e^{τÃ} [0; e_p/η] = [u(τ); (τ^{p−1}/(p−1)!, …, τ, 1)/η]
//! ```
//!
//! (η a power of two near 1/max‖w_k‖, which keeps the border of Ã at the scale of 1 and
//! changes no bit of the products it scales). For p = 2, w₁ = f, w₂ = f_t this is the
//! LLM's step, eq. (6)'s φ; for p = 3, w₃ = 2r/h² its error estimate, eq. (32)'s l.
//!
//! **The exponential of Ã times a vector** (Sidje, "Expokit: a software package for
//! computing matrix exponentials", ACM TOMS 24(1), 1998, §2–3, its `expv`; Saad,
//! "Analysis of some Krylov subspace approximations to the matrix exponential
//! operator", SIAM J. Numer. Anal. 29(1), 1992, Theorem 5.1 for the error): sub-steps
//! σ over [0, τ]; on each, Arnoldi (modified Gram–Schmidt) builds V_j and the
//! Hessenberg H_j from the current vector v, β = ‖v‖₂, and
//!
//! ```text
//! e^{σÃ} v ≈ β V_j e^{σH_j} e₁,   err ≈ β h_{j+1,j} σ |e_jᵀ φ₁(σH_j) e₁|
//! ```
//!
//! (the leading term of Saad's expansion of the error). e^{σH_j} and φ₁(σH_j) are the
//! small dense φ-functions of `crate::phi` (scaling and squaring, balanced). The
//! **subspace grows** (j = 4, 8, 12, 16, 20, 25, …, up to [`MAX_BASIS`]; a sub-step
//! starts at the size the last one was accepted on) until the estimate meets the
//! tolerance per unit step (err ≤ tol·σ/τ, Expokit's); if it does not by
//! [`MAX_BASIS`] the sub-step shrinks (σ ← 0.9σ(tol·σ/τ/err)^{1/j}, on the same basis:
//! no new products); an accepted sub-step proposes the next σ the same way, at most
//! 5× longer. The bottom p entries of the vector are polynomials in σ, set exactly after
//! each sub-step. Niesen & Wright also adapt j between sub-steps by a cost model; here
//! j is chosen afresh on each by the estimate, which needs no cost constants.
//!
//! **Limitation: stiff parabolic problems.** A polynomial Krylov space resolves e^{σÃ}
//! only for σρ(A) ≲ j² (Hochbruck & Lubich, SIAM J. Numer. Anal. 34, 1997), so on the
//! 2,000-cell heat equation (ρ ≈ 1.6·10⁷) a sub-step is ≈ 5·10⁻⁵ whatever the vector:
//! the rounding of f = Ju (cancellation of (N+1)² terms, ~1e-10 in every mode) is
//! enough to need it. A step of length τ then costs ≈ τ·2·10⁴ sub-steps of 48 products.
//! A rational (shift-and-invert) Krylov space, with the sparse LU of I − γA, would not
//! depend on ρ; it is not implemented.
//!
//! Arithmetic: + − × ÷, √ and `math::powf` (libm) only, so the same bits natively and
//! in WebAssembly.

use super::PhiFunctions;
use crate::error::OdeError;
use crate::math;
use crate::stats::Stats;
use nalgebra::DMatrix;

/// The largest Krylov basis of one sub-step (Expokit's default is 30; a bigger basis
/// takes longer sub-steps on the stiff heat equation, whose σ grows as j²).
pub const MAX_BASIS: usize = 48;

/// The highest k of a combination (the LLM's error estimate uses φ₃).
const MAX_P: usize = 3;

/// Sub-steps (accepted and shrunk ones) before the evaluation gives up.
const MAX_SUBSTEPS: usize = 10_000;

/// What one evaluation did: for tests and the bench.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct KrylovReport {
    /// Products A·x.
    pub matvecs: usize,
    /// Accepted sub-steps.
    pub substeps: usize,
    /// Sub-steps shrunk on their basis.
    pub shrunk: usize,
    /// The largest basis used.
    pub max_basis: usize,
    /// The sum of the accepted sub-steps' error estimates (2-norm).
    pub error: f64,
}

/// Buffers for the Krylov evaluation of systems of n states (allocated once; a dense
/// φ evaluator per basis size on first use).
pub struct KrylovPhi {
    n: usize,
    /// Basis vectors v_0 … v_{MAX_BASIS}, each of length n + MAX_P (the augmented
    /// size), one after the other.
    basis: Vec<f64>,
    /// H, (MAX_BASIS + 1) × MAX_BASIS, column-major.
    hess: Vec<f64>,
    /// The current augmented vector.
    vec: Vec<f64>,
    /// The small H_j and its φ-functions, by j.
    small: Vec<Option<(DMatrix<f64>, PhiFunctions)>>,
    /// The last evaluation's report.
    pub report: KrylovReport,
}

impl KrylovPhi {
    pub fn new(n: usize) -> Self {
        let size = n + MAX_P;
        Self {
            n,
            basis: vec![0.0; (MAX_BASIS + 1) * size],
            hess: vec![0.0; (MAX_BASIS + 1) * MAX_BASIS],
            vec: vec![0.0; size],
            small: (0..=MAX_BASIS).map(|_| None).collect(),
            report: KrylovReport::default(),
        }
    }

    /// out = Σ_{k=1..p} τ^k φ_k(τA) w_k for p = `w.len()` ≤ 3 (each w_k of length n),
    /// A given by `matvec(x, y)`: y = A x (y is zeroed before). `tol` is the absolute
    /// 2-norm tolerance on `out`. Counted once in `nexpm`. An error at (t, step_h) if
    /// the products or the small exponentials are not finite.
    #[allow(clippy::too_many_arguments)]
    pub fn combination(
        &mut self,
        matvec: &mut dyn FnMut(&[f64], &mut [f64]),
        tau: f64,
        w: &[&[f64]],
        out: &mut [f64],
        tol: f64,
        t: f64,
        step_h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let (n, p) = (self.n, w.len());
        debug_assert!((1..=MAX_P).contains(&p) && out.len() == n);
        let size = n + p;
        let err = || OdeError::ExpmNotFinite { t, h: step_h };
        self.report = KrylovReport::default();
        out[..n].fill(0.0);
        // η: a power of two with η·max‖w_k‖₂ in (1/2, 1].
        let wmax = w.iter().map(|v| norm2(v)).fold(0.0, f64::max);
        if !wmax.is_finite() || !tau.is_finite() {
            return Err(err());
        }
        if wmax == 0.0 || tau == 0.0 {
            return Ok(());
        }
        stats.nexpm += 1;
        let mut eta = 1.0;
        while eta * wmax > 1.0 {
            eta *= 0.5;
        }
        while eta * wmax <= 0.5 {
            eta *= 2.0;
        }
        let tol = tol.max(f64::MIN_POSITIVE);
        // The augmented vector at s = 0: [0; e_p/η].
        let v = &mut self.vec[..size];
        v.fill(0.0);
        v[size - 1] = 1.0 / eta;
        let mut s = 0.0;
        let mut sigma = tau;
        let mut tries = 0;
        // The first checkpoint of a sub-step: the basis the last one was accepted on.
        let mut first_check = 4;
        while s < tau {
            sigma = sigma.min(tau - s);
            let beta = norm2(&self.vec[..size]);
            // v_0 = v/β.
            for (b, &x) in self.basis[..size].iter_mut().zip(&self.vec[..size]) {
                *b = x / beta;
            }
            let mut j = 0; // basis vectors v_0 … v_j built; H_j is j × j
            let mut next_check = first_check;
            let (mut breakdown, mut accepted) = (false, false);
            while !accepted {
                // Extend the basis to the next checkpoint (or a breakdown).
                while j < next_check.min(MAX_BASIS) && !breakdown {
                    let (done, rest) = self.basis.split_at_mut((j + 1) * size);
                    let vj = &done[j * size..];
                    let wnext = &mut rest[..size];
                    apply_augmented(matvec, n, p, eta, w, vj, wnext);
                    self.report.matvecs += 1;
                    // Modified Gram–Schmidt against v_0 … v_j.
                    for i in 0..=j {
                        let vi = &done[i * size..(i + 1) * size];
                        let hij = dot(wnext, vi);
                        for (x, &y) in wnext.iter_mut().zip(vi) {
                            *x -= hij * y;
                        }
                        self.hess[j * (MAX_BASIS + 1) + i] = hij;
                    }
                    let hnext = norm2(wnext);
                    if !hnext.is_finite() {
                        return Err(err());
                    }
                    self.hess[j * (MAX_BASIS + 1) + j + 1] = hnext;
                    j += 1;
                    // An invariant subspace: the projection is exact (to round-off
                    // relative to the entries of H).
                    let scale = (0..j).fold(0.0f64, |m, i| {
                        m.max(self.hess[(j - 1) * (MAX_BASIS + 1) + i].abs())
                    });
                    if hnext <= 1e-14 * scale.max(f64::MIN_POSITIVE) || hnext == 0.0 {
                        breakdown = true;
                    } else {
                        for x in wnext.iter_mut() {
                            *x /= hnext;
                        }
                    }
                }
                // e^{σH_j} and φ₁(σH_j).
                let small = self.small[j]
                    .get_or_insert_with(|| (DMatrix::zeros(j, j), PhiFunctions::new(j)));
                for c in 0..j {
                    for r in 0..j {
                        small.0[(r, c)] = self.hess[c * (MAX_BASIS + 1) + r];
                    }
                }
                let mut dummy = Stats::default();
                let estimate = match small.1.compute(&small.0, sigma, 1, t, step_h, &mut dummy) {
                    Ok(()) if breakdown => Some(0.0),
                    Ok(()) => {
                        let h_next = self.hess[(j - 1) * (MAX_BASIS + 1) + j];
                        Some(beta * h_next * sigma * small.1.phi(1)[j - 1].abs())
                    }
                    Err(_) => None,
                };
                let target = tol * sigma / tau;
                match estimate {
                    Some(e) if e <= target => {
                        accepted = true;
                        // v ← β V_j e^{σH_j} e₁, the bottom p entries exact.
                        let phi0 = small.1.phi(0);
                        let v = &mut self.vec[..size];
                        v.fill(0.0);
                        for (i, &c) in phi0[..j].iter().enumerate() {
                            let c = beta * c;
                            for (x, &b) in v.iter_mut().zip(&self.basis[i * size..(i + 1) * size]) {
                                *x += c * b;
                            }
                        }
                        s = if sigma >= tau - s { tau } else { s + sigma };
                        let mut mono = 1.0 / eta;
                        v[size - 1] = mono;
                        for c in 1..p {
                            mono = mono * s / c as f64;
                            v[size - 1 - c] = mono;
                        }
                        if !v.iter().all(|x| x.is_finite()) {
                            return Err(err());
                        }
                        self.report.substeps += 1;
                        first_check = j.max(4);
                        self.report.max_basis = self.report.max_basis.max(j);
                        self.report.error += e;
                        // The next sub-step: as long as this estimate allows, ≤ 5σ.
                        let grow = if e == 0.0 {
                            5.0
                        } else {
                            (0.9 * math::powf(target / e, 1.0 / j as f64)).min(5.0)
                        };
                        sigma *= grow.max(1.0);
                    }
                    _ if j < MAX_BASIS && !breakdown => {
                        next_check = j + (j / 4).max(4);
                    }
                    estimate => {
                        // The basis is at its largest: a shorter sub-step on it.
                        self.report.shrunk += 1;
                        let shrink = match estimate {
                            Some(e) if e > 0.0 => {
                                (0.9 * math::powf(target / e, 1.0 / j as f64)).clamp(0.1, 0.9)
                            }
                            _ => 0.25,
                        };
                        sigma *= shrink;
                        if sigma <= f64::EPSILON * tau {
                            return Err(err());
                        }
                    }
                }
                tries += 1;
                if tries > MAX_SUBSTEPS {
                    return Err(err());
                }
            }
        }
        out[..n].copy_from_slice(&self.vec[..n]);
        Ok(())
    }
}

/// y = Ã x with Ã = [[A, ηW], [0, J_p]], W = [w_p … w_1].
fn apply_augmented(
    matvec: &mut dyn FnMut(&[f64], &mut [f64]),
    n: usize,
    p: usize,
    eta: f64,
    w: &[&[f64]],
    x: &[f64],
    y: &mut [f64],
) {
    let (xt, xb) = x.split_at(n);
    let (yt, yb) = y.split_at_mut(n);
    yt.fill(0.0);
    matvec(xt, yt);
    // Column c of W is w_{p−c}.
    for (c, &xc) in xb[..p].iter().enumerate() {
        let coef = eta * xc;
        if coef != 0.0 {
            for (o, &wi) in yt.iter_mut().zip(w[p - 1 - c]) {
                *o += coef * wi;
            }
        }
    }
    for c in 0..p {
        yb[c] = if c + 1 < p { xb[c + 1] } else { 0.0 };
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The 2-norm, scaled by the largest entry (no overflow for entries up to f64::MAX).
pub fn norm2(a: &[f64]) -> f64 {
    let m = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if m == 0.0 || !m.is_finite() {
        return m;
    }
    let s = a.iter().map(|x| (x / m) * (x / m)).sum::<f64>();
    m * s.sqrt()
}
