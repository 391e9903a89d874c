//! The φ-functions of a small dense matrix, φ₀(Z) = e^Z, φ₁, φ₂, φ₃, by scaling and
//! squaring, for the exponential methods (`llm`, `slowfast`):
//!
//! ```text
//! φ₀(Z) = e^Z,   φ_k(Z) = ∫₀¹ e^{(1−σ)Z} σ^{k−1}/(k−1)! dσ = Σ_j Z^j/(j+k)!,
//! φ_k(Z) = I/k! + Z φ_{k+1}(Z)
//! ```
//!
//! so h φ₁(hJ) f + h² φ₂(hJ) g = ∫₀ʰ e^{J(h−u)} (f + g u) du — the integrals Gil, Sanfelice & Nikravesh (LLM)
//! reads from Van Loan's block exponential (Gil, Sanfelice & Nikravesh (LLM) eqs. 3–6, 32–33) — without exponentiating
//! an (m+2) or (m+3) block: one evaluation gives every φ_k the step and its error
//! estimate need, as m × m matrices that are then applied to vectors.
//!
//! **Algorithm** (Skaflestad and Wright, "The scaling and modified squaring method for
//! matrix functions related to the exponential", Appl. Numer. Math. 59 (2009), eq. 2.5):
//! Z is first balanced, Z' = D⁻¹ZD with D diagonal of powers of two (Parlett and
//! Reinsch's iteration, as LAPACK's `dgebal`), which is exact and shrinks ‖Z‖₁ for the
//! badly scaled Jacobians of mechanics (a spring of stiffness k/m = 5e5 gives the block
//! [[0, I], [−k/m, 0]] norm 5e5 but spectral radius 707) and so the number of squarings;
//! φ_k(Z) = D φ_k(Z') D⁻¹. Then X = Z'/2^s with ‖X‖₁ ≤ 1; φ_K(X) by its Taylor
//! polynomial of degree 19 (the tail is below 1/20! ≈ 4e-19) evaluated by
//! Paterson–Stockmeyer (seven products); the lower φ_k by φ_k = I/k! + X φ_{k+1}; then
//! s doublings
//!
//! ```text
//! φ_k(2X) = 2^{−k} [φ₀(X) φ_k(X) + Σ_{j=1..k} φ_j(X)/(k−j)!],   φ₀(2X) = φ₀(X)²
//! ```
//!
//! (K + 1 products each). A 2 × 2 argument runs the same algorithm on pairs (a, b)
//! standing for a I + b W in the algebra of its traceless part W (`two.rs`: five
//! multiplications a product, no balancing). The scaling count comes from halving the
//! norm, never from a logarithm, and the arithmetic is + − × ÷ only, so the result is the
//! same bits natively and in WebAssembly. Storage is column-major (nalgebra's) in buffers
//! allocated once per size (the sizes of `SIZED` work on stack arrays, `stack.rs`, and
//! only write the result there): a step allocates nothing.
//!
//! Cost: (6 + K) + s(K + 1) products of m × m matrices. For the m ≤ ~50 of the models
//! and typed systems this is far cheaper than nalgebra's `exp()` of the bordered
//! (m+2)-block it replaces (which allocates per call); for large m it is O(m³) per step
//! like any dense exponential; `krylov.rs` applies the φ-functions of a big sparse
//! matrix to vectors from matrix–vector products instead (the LLM above
//! `llm::DENSE_MAX_DIM` states).

use crate::error::OdeError;
use crate::linalg::MAX_EXPM_NORM;
use crate::stats::Stats;
use nalgebra::DMatrix;

#[cfg(feature = "full")]
pub mod krylov;
mod stack;
mod two;

/// The highest φ index evaluated.
pub const MAX_K: usize = 3;

/// Degree of the Taylor polynomial of φ_K on ‖X‖₁ ≤ 1 (a multiple of 4, minus 1, for
/// the Paterson–Stockmeyer chunks of four).
const DEGREE: usize = 19;

/// 2^{−k}, the doubling's factor (exact).
const HALF_POW: [f64; MAX_K + 1] = [1.0, 0.5, 0.25, 0.125];

/// 1/n! for n = 0 … 22 (n! is exact in f64 up to 22!, as its odd part is < 2⁵³, so
/// each entry is the correctly rounded reciprocal).
pub const INV_FACT: [f64; 23] = [
    1.0,
    1.0,
    1.0 / 2.0,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5040.0,
    1.0 / 40320.0,
    1.0 / 362880.0,
    1.0 / 3628800.0,
    1.0 / 39916800.0,
    1.0 / 479001600.0,
    1.0 / 6227020800.0,
    1.0 / 87178291200.0,
    1.0 / 1307674368000.0,
    1.0 / 20922789888000.0,
    1.0 / 355687428096000.0,
    1.0 / 6402373705728000.0,
    1.0 / 121645100408832000.0,
    1.0 / 2432902008176640000.0,
    1.0 / 51090942171709440000.0,
    1.0 / 1124000727777607680000.0,
];

/// φ₀(hJ) … φ_K(hJ) of the last [`PhiFunctions::compute`], with the work buffers.
pub struct PhiFunctions {
    n: usize,
    k: usize,
    /// φ₀ … φ₃, column-major n × n.
    phi: [Vec<f64>; MAX_K + 1],
    /// X, X², X³, X⁴.
    pow: [Vec<f64>; 4],
    tmp: Vec<f64>,
    tmp2: Vec<f64>,
    /// The balancing D (powers of two).
    scale: Vec<f64>,
    /// Whether a repeated argument is answered from the last evaluation
    /// ([`PhiFunctions::reusing`]).
    reuse: bool,
    /// The argument h·J (column-major) of the φ-functions held, when `held_k` is the
    /// k they were computed to (and they were finite).
    held: Vec<f64>,
    held_k: Option<usize>,
}

/// The sizes that get their own copy with n known at compile time (on stack arrays,
/// `stack.rs`; the same operations in the same order, so the same bits): 1 to 8 in the
/// whole engine (feature `full`); in the first-load package (pkg/, ≤ 150 KB gzip, where
/// a size costs ~5 KB raw, ~1.8 KB gzip) only 2, the textbook size llm runs there
/// (Van der Pol, the pendulum): llm / ros4 on Van der Pol μ = 1000 was 2.4–2.8× in
/// WASM with it, 6.8× without. A 2 × 2 evaluation now runs in `two.rs` (a triangular
/// one in the any-size loops); the size-2 copies of `apply` and `integral` remain.
const SIZED: (usize, usize) = if cfg!(feature = "full") {
    (1, 8)
} else {
    (2, 2)
};

/// `n` if it has a size-specialised copy, else 0 (the loops over any n).
#[inline(always)]
fn sized(n: usize) -> usize {
    if SIZED.0 <= n && n <= SIZED.1 {
        n
    } else {
        0
    }
}

/// Evaluates `$call` with `$N` a compile-time constant: `n` if it has a size-specialised
/// copy ([`sized`]), else 0 (the copy for any n). The one list of the sizes 1 to 8.
macro_rules! with_size {
    ($n:expr, $N:ident => $call:expr) => {
        crate::linalg::with_const_size!(sized($n), [1 2 3 4 5 6 7 8], $N => $call, _ => {
            const $N: usize = 0;
            $call
        })
    };
}

fn matmul_any(n: usize, a: &[f64], b: &[f64], c: &mut [f64]) {
    c.fill(0.0);
    for j in 0..n {
        let cj = &mut c[j * n..(j + 1) * n];
        for (k, &bkj) in b[j * n..(j + 1) * n].iter().enumerate() {
            for (ci, &aik) in cj.iter_mut().zip(&a[k * n..(k + 1) * n]) {
                *ci += aik * bkj;
            }
        }
    }
}

/// The balancing factor of one index (a power of two) from the off-diagonal sums c of
/// its column and r of its row, both nonzero: the one that brings them within a factor
/// of 2, if that shrinks c + r by more than 5 % (else None).
#[inline(always)]
fn balance_factor(c: f64, r: f64) -> Option<f64> {
    let s = c + r;
    let mut f = 1.0;
    let (mut cc, mut rr) = (c, r);
    while cc < rr * 0.5 {
        f *= 2.0;
        cc *= 2.0;
        rr *= 0.5;
    }
    while cc >= rr * 2.0 {
        f *= 0.5;
        cc *= 0.5;
        rr *= 2.0;
    }
    (cc + rr < 0.95 * s).then_some(f)
}

/// X = Z'/2^s with ‖X‖₁ ≤ 1 from ‖Z'‖₁ = `norm`: (2^{−s}, s), by halving (exact).
#[inline(always)]
fn scaling(mut norm: f64) -> (f64, usize) {
    let mut squarings = 0;
    let mut factor = 1.0;
    while norm > 1.0 {
        norm *= 0.5;
        factor *= 0.5;
        squarings += 1;
    }
    (factor, squarings)
}

/// One Paterson–Stockmeyer chunk, out = c₀I + c₁X + c₂X² + c₃X³ with c = `coef[..4]`.
fn chunk(n: usize, coef: &[f64], [x1, x2, x3]: [&[f64]; 3], out: &mut [f64]) {
    let nn = n * n;
    let (x1, x2, x3, out) = (&x1[..nn], &x2[..nn], &x3[..nn], &mut out[..nn]);
    let (c0, c1, c2, c3) = (coef[0], coef[1], coef[2], coef[3]);
    for j in 0..n {
        for i in 0..n {
            let idx = j * n + i;
            let diag = if i == j { c0 } else { 0.0 };
            out[idx] = diag + c1 * x1[idx] + c2 * x2[idx] + c3 * x3[idx];
        }
    }
}

impl PhiFunctions {
    /// Buffers for n × n matrices.
    pub fn new(n: usize) -> Self {
        let z = || vec![0.0; n * n];
        Self {
            n,
            k: 0,
            phi: [z(), z(), z(), z()],
            pow: [z(), z(), z(), z()],
            tmp: z(),
            tmp2: z(),
            scale: vec![1.0; n],
            reuse: false,
            held: Vec::new(),
            held_k: None,
        }
    }

    /// Buffers for n × n matrices, and [`compute`](Self::compute) skips the evaluation
    /// when h·J has the same bits, entry by entry, as the argument of the φ-functions it
    /// holds (then the result would be the same bits too; `nexpm` counts evaluations
    /// only). For the slow/fast scheme, whose fast block is often linear (a spring: the
    /// same g_z every step, and the same A = g_z + g_z⁻¹g_x f_z when f_z or g_x vanish).
    pub fn reusing(n: usize) -> Self {
        Self {
            reuse: true,
            held: vec![0.0; n * n],
            ..Self::new(n)
        }
    }

    /// Computes φ₀(hJ) … φ_k(hJ), k ≤ [`MAX_K`]; counted in `nexpm`. An error at (t, h)
    /// (the step's, for the message) if hJ is not finite or too large for the
    /// exponential ([`MAX_EXPM_NORM`]), or the result is not finite.
    pub fn compute(
        &mut self,
        jac: &DMatrix<f64>,
        h: f64,
        k: usize,
        t: f64,
        step_h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        if self.reuse {
            let same = self.held_k == Some(k)
                && self
                    .held
                    .iter()
                    .zip(jac.as_slice())
                    .all(|(&a, &j)| a.to_bits() == (h * j).to_bits());
            if same {
                return Ok(());
            }
            self.held_k = None;
        }
        // In the algebra of the argument for n = 2 (`two.rs`); on stack arrays
        // (`stack.rs`) for another size-specialised N; in the held buffers for any other
        // size.
        if self.n == 2 {
            self.compute_two(jac, h, k, t, step_h, stats)
        } else {
            with_size!(self.n, N => if N == 0 {
                self.compute_any(jac, h, k, t, step_h, stats)
            } else {
                self.compute_stack::<N>(jac, h, k, t, step_h, stats)
            })
        }?;
        if self.reuse {
            for (a, &j) in self.held.iter_mut().zip(jac.as_slice()) {
                *a = h * j;
            }
            self.held_k = Some(k);
        }
        Ok(())
    }

    /// The size: `N`, known at compile time, or `self.n` when `N` is 0.
    #[inline(always)]
    fn dim<const N: usize>(&self) -> usize {
        if N == 0 {
            self.n
        } else {
            N
        }
    }

    /// [`compute`](Self::compute) for any size, in the held buffers.
    fn compute_any(
        &mut self,
        jac: &DMatrix<f64>,
        h: f64,
        k: usize,
        t: f64,
        step_h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = self.n;
        debug_assert!(k <= MAX_K && jac.nrows() == n && jac.ncols() == n);
        let k = k.min(MAX_K);
        self.k = k;
        let err = || OdeError::ExpmNotFinite { t, h: step_h };
        if !h.is_finite() {
            return Err(err());
        }
        for (x, &j) in self.pow[0].iter_mut().zip(jac.as_slice()) {
            *x = h * j;
        }
        // Finite h·J: J finite (h·NaN, h·∞ and 0·∞ are not), and no product overflowed
        // (h·J can where h and J do not, and balancing an infinite entry never ends).
        if !self.pow[0].iter().all(|v| v.is_finite()) {
            return Err(err());
        }
        self.balance();
        let mut norm: f64 = 0.0;
        for col in self.pow[0].chunks_exact(n.max(1)) {
            norm = norm.max(col.iter().map(|v| v.abs()).sum());
        }
        if !norm.is_finite() || norm > MAX_EXPM_NORM {
            return Err(err());
        }
        stats.nexpm += 1;
        let (factor, squarings) = scaling(norm);
        if factor != 1.0 {
            for x in self.pow[0].iter_mut() {
                *x *= factor;
            }
        }
        self.taylor();
        for _ in 0..squarings {
            self.double();
        }
        // Undo the balancing: φ_k(Z)_ij = φ_k(Z')_ij d_i / d_j (exact).
        if self.scale.iter().any(|&d| d != 1.0) {
            for p in &mut self.phi[..=k] {
                for (j, col) in p.chunks_exact_mut(n).enumerate() {
                    let dj = self.scale[j];
                    for (v, di) in col.iter_mut().zip(&self.scale) {
                        *v = *v * di / dj;
                    }
                }
            }
        }
        if self.phi[..=k]
            .iter()
            .all(|p| p.iter().all(|v| v.is_finite()))
        {
            Ok(())
        } else {
            Err(err())
        }
    }

    /// Balances `pow[0]` in place, D in `scale`: Parlett–Reinsch with radix 2, the
    /// off-diagonal row and column sums of each index brought within a factor of 2,
    /// until a sweep changes no sum by more than 5 % (as LAPACK's `dgebal`).
    fn balance(&mut self) {
        let n = self.n;
        let z = &mut self.pow[0];
        self.scale.fill(1.0);
        // A bounded number of sweeps (each factor is a power of two, so this converges
        // in a few; the bound only guards against pathological inputs).
        for _ in 0..32 {
            let mut changed = false;
            for i in 0..n {
                let (mut c, mut r) = (0.0, 0.0);
                for j in 0..n {
                    if j != i {
                        c += z[i * n + j].abs();
                        r += z[j * n + i].abs();
                    }
                }
                if c == 0.0 || r == 0.0 {
                    continue;
                }
                if let Some(f) = balance_factor(c, r) {
                    changed = true;
                    self.scale[i] *= f;
                    // Column i times f, row i over f.
                    for v in &mut z[i * n..(i + 1) * n] {
                        *v *= f;
                    }
                    for j in 0..n {
                        z[j * n + i] /= f;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// φ_K(X) … φ₀(X) for ‖X‖₁ ≤ 1, X in `pow[0]`.
    fn taylor(&mut self) {
        let n = self.n;
        let nn = n * n;
        let k = self.k;
        let [x1, x2, x3, x4] = &mut self.pow;
        let (x1, x2, x3, x4) = (&mut x1[..nn], &mut x2[..nn], &mut x3[..nn], &mut x4[..nn]);
        matmul_any(n, x1, x1, x2);
        matmul_any(n, x2, x1, x3);
        matmul_any(n, x2, x2, x4);
        // Paterson–Stockmeyer: φ_K(X) = Σ_i B_i (X⁴)^i, B_i = Σ_r c_{4i+r} X^r,
        // c_j = 1/(j+K)!, Horner in X⁴ from the top chunk down.
        let powers = [&*x1, &*x2, &*x3];
        let chunks = (DEGREE + 1) / 4;
        let (acc, tmp) = (&mut self.tmp[..nn], &mut self.tmp2[..nn]);
        chunk(n, &INV_FACT[4 * (chunks - 1) + k..], powers, acc);
        for i in (0..chunks - 1).rev() {
            matmul_any(n, acc, x4, tmp);
            chunk(n, &INV_FACT[4 * i + k..], powers, acc);
            for (a, t) in acc.iter_mut().zip(tmp.iter()) {
                *a += t;
            }
        }
        self.phi[k][..nn].copy_from_slice(acc);
        for j in (0..k).rev() {
            let (lo, hi) = self.phi.split_at_mut(j + 1);
            let out = &mut lo[j][..nn];
            matmul_any(n, x1, &hi[0][..nn], out);
            for d in 0..n {
                out[d * (n + 1)] += INV_FACT[j];
            }
        }
    }

    /// φ_k(X) → φ_k(2X), k = K … 0 (Skaflestad–Wright eq. 2.5).
    fn double(&mut self) {
        let n = self.n;
        let nn = n * n;
        for k in (1..=self.k).rev() {
            matmul_any(
                n,
                &self.phi[0][..nn],
                &self.phi[k][..nn],
                &mut self.tmp[..nn],
            );
            let w = HALF_POW[k];
            // tmp2 = (tmp + Σ_{j=1..k} φ_j/(k−j)!)·w, the sum in the order of j, a whole
            // matrix per term (the same operations per entry, in vectorisable loops).
            let tmp2 = &mut self.tmp2[..nn];
            tmp2.copy_from_slice(&self.tmp[..nn]);
            for j in 1..=k {
                let c = INV_FACT[k - j];
                for (s, &p) in tmp2.iter_mut().zip(&self.phi[j][..nn]) {
                    *s += p * c;
                }
            }
            for s in tmp2.iter_mut() {
                *s *= w;
            }
            std::mem::swap(&mut self.phi[k], &mut self.tmp2);
        }
        matmul_any(
            n,
            &self.phi[0][..nn],
            &self.phi[0][..nn],
            &mut self.tmp[..nn],
        );
        std::mem::swap(&mut self.phi[0], &mut self.tmp);
    }

    /// φ_k of the last [`compute`](Self::compute), column-major.
    pub fn phi(&self, k: usize) -> &[f64] {
        &self.phi[k]
    }

    /// out = w φ_k v (v and out of length n), the [`SIZED`] sizes unrolled: `out` zeroed
    /// at the size (stores, not a `memset` call, for a constant N) and [`add_product`](Self::add_product).
    pub fn apply(&self, k: usize, w: f64, v: &[f64], out: &mut [f64]) {
        with_size!(self.n, N => {
            out[..self.dim::<N>()].fill(0.0);
            self.add_product::<N>(k, w, v, out);
        })
    }

    /// out = τ φ₁ a + τ² φ₂ b = ∫₀^τ e^{J(τ−u)} (a + b u) du for the φ-functions of τJ
    /// (the step of `llm` and both integrals of `slowfast`; a, b and out of length n),
    /// as [`apply`](Self::apply) and a second [`add_product`](Self::add_product) in one dispatch on the size.
    pub fn integral(&self, tau: f64, a: &[f64], b: &[f64], out: &mut [f64]) {
        with_size!(self.n, N => {
            out[..self.dim::<N>()].fill(0.0);
            self.add_product::<N>(1, tau, a, out);
            self.add_product::<N>(2, tau * tau, b, out);
        })
    }

    /// out += w φ_k v for size `N` (0: any size), column by column: out += φ_k[:, j]·(w
    /// v_j), skipping zero v_j.
    #[inline(always)]
    fn add_product<const N: usize>(&self, k: usize, w: f64, v: &[f64], out: &mut [f64]) {
        let n = self.dim::<N>();
        let (phi, v, out) = (&self.phi[k][..n * n], &v[..n], &mut out[..n]);
        for j in 0..n {
            let c = w * v[j];
            if c != 0.0 {
                for i in 0..n {
                    out[i] += phi[j * n + i] * c;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// φ₀ … φ_k of h·J by the any-size loops and by the stack arrays of size `N`:
    /// (result, nexpm, the bits of every φ_j, j ≤ k) of each.
    fn both<const N: usize>(jac: &DMatrix<f64>, h: f64, k: usize) -> [(bool, u64, Vec<u64>); 2] {
        let run = |stack: bool| {
            let mut phi = PhiFunctions::new(N);
            let mut stats = Stats::default();
            let ok = if stack {
                phi.compute_stack::<N>(jac, h, k, 0.0, h, &mut stats)
            } else {
                phi.compute_any(jac, h, k, 0.0, h, &mut stats)
            }
            .is_ok();
            let bits = (0..=k)
                .flat_map(|j| phi.phi(j).iter().map(|v| v.to_bits()).collect::<Vec<_>>())
                .collect();
            (ok, stats.nexpm, bits)
        };
        [run(false), run(true)]
    }

    /// A fixed pseudo-random sequence on [0, 1) (a linear congruential generator; one
    /// per `seed`).
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15 ^ seed;
        move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// An n × n test matrix: entries of mixed sign over eight decades, 15 % exact zeros,
    /// and a stiff diagonal (−1e3) in every third `case`.
    fn random_matrix(n: usize, case: usize, next: &mut impl FnMut() -> f64) -> DMatrix<f64> {
        DMatrix::from_fn(n, n, |r, c| {
            let u = next();
            if u < 0.15 {
                0.0
            } else {
                let decade = (next() * 8.0).floor() as i32 - 3;
                let sign = if next() < 0.5 { -1.0 } else { 1.0 };
                let stiff = if r == c && case.is_multiple_of(3) {
                    -1e3
                } else {
                    0.0
                };
                sign * u * f64::powi(10.0, decade) + stiff
            }
        })
    }

    /// Matrices of size `N` from a fixed pseudo-random sequence: entries of mixed sign
    /// over many decades (so that balancing moves them), some exact zeros, a stiff
    /// diagonal, and steps h from 1e-4 to 1e3 (0 to ~25 squarings, results that overflow)
    /// and 1e10 (norms above `MAX_EXPM_NORM`, refused), for every k.
    fn check<const N: usize>() {
        let mut next = uniform(N as u64);
        for case in 0..40 {
            let jac = random_matrix(N, case, &mut next);
            for h in [1e-4, 3e-3, 0.07, 1.0, 40.0, 1e3, 1e10] {
                for k in 0..=MAX_K {
                    let [any, stack] = both::<N>(&jac, h, k);
                    assert_eq!(any, stack, "n = {N}, case {case}, h = {h}, k = {k}");
                }
            }
        }
    }

    /// `two.rs` (the 2 × 2 algebra) against the matrix loops on the random matrices of
    /// [`check`] (2,000 of them, h from 1e-4 to 1e10, every k): the same refusals, and
    /// φ_j within 1024 ε ρ of each other relative to the largest entry, ρ = max(1,
    /// ‖hJ‖₁): both are scaling and squaring, whose relative error grows as ε‖hJ‖ (the
    /// s squarings double a relative error s times). The worst case, 756 ε ρ, is
    /// oscillatory and growing (eigenvalues 80 ± 746,224i), where a 60-digit reference
    /// (mpmath) puts the matrix loops 1e-7 off and the algebra 3e-8; on the stiff
    /// Jacobians of `tests/phi.rs` the algebra is checked against such references.
    #[test]
    fn two_by_two_algebra_agrees_with_the_matrix_loops() {
        let mut next = uniform(2);
        let mut worst: f64 = 0.0;
        for case in 0..2000 {
            let jac = random_matrix(2, case, &mut next);
            for h in [1e-4, 3e-3, 0.07, 1.0, 40.0, 1e3, 1e10] {
                let rho = (&jac * h).abs().row_sum().max().max(1.0);
                for k in 0..=MAX_K {
                    let (mut any, mut two) = (PhiFunctions::new(2), PhiFunctions::new(2));
                    let (mut s_any, mut s_two) = (Stats::default(), Stats::default());
                    let ok_any = any.compute_any(&jac, h, k, 0.0, h, &mut s_any).is_ok();
                    let ok_two = two.compute_two(&jac, h, k, 0.0, h, &mut s_two).is_ok();
                    let at = format!("case {case}, h = {h}, k = {k}");
                    // Above MAX_EXPM_NORM the matrix path refuses by the balanced
                    // ‖hJ‖₁, the algebra by ρ = |t| + √|δ| ≤ √2 × the spectral radius.
                    if h < 1e10 {
                        assert_eq!(ok_any, ok_two, "{at}: refused by one path only");
                    }
                    if !(ok_any && ok_two) {
                        continue;
                    }
                    for j in 0..=k {
                        let (a, b) = (any.phi(j), two.phi(j));
                        let m = a.iter().fold(f64::MIN_POSITIVE, |m, v| m.max(v.abs()));
                        let diff = a
                            .iter()
                            .zip(b)
                            .fold(0.0f64, |d, (x, y)| d.max((x - y).abs()));
                        let rel = diff / (m * rho * f64::EPSILON);
                        worst = worst.max(rel);
                        assert!(
                            rel <= 1024.0,
                            "{at}, φ{j}: {diff:e} off, |φ| {m:e}, ρ {rho:e}"
                        );
                    }
                }
            }
        }
        println!("2 × 2 algebra against the matrix loops: worst {worst:.2} ε ρ");
    }

    #[test]
    fn stack_arrays_give_the_bits_of_the_any_size_loops() {
        check::<1>();
        check::<2>();
        check::<3>();
        check::<4>();
        check::<5>();
        check::<6>();
        check::<7>();
        check::<8>();
    }
}
