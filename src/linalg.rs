//! The two dense linear-algebra operations of the stiff and exponential methods, from
//! nalgebra, wrapped so that failure is a typed [`OdeError`] at the (t, h) where it
//! happened, never a panic: an LU factorisation with its solve, and the matrix
//! exponential of a (Van Loan) block matrix.
//!
//! The LU ([`Factored`]) is nalgebra's, run in storage a stepper keeps from step to
//! step, with a solve in nalgebra's operation order that the 2-state path of the
//! Rosenbrock step compiles with the size a constant ([`fixed`]).
//!
//! ## Accuracy of nalgebra's `exp()` on Van Loan block matrices
//!
//! nalgebra 0.35 implements Al-Mohy and Higham's scaling-and-squaring algorithm with
//! Padé approximants of degree 3 … 13 (as SciPy's `expm`). Measured in
//! `tests/linalg.rs` against closed forms:
//! - the 3 × 3 block [[hλ, h, 0], [0, 0, h], [0, 0, 0]] (top row e^{hλ}, h φ₁(hλ),
//!   h² φ₂(hλ)) for real hλ from −100 to 1: worst relative error 3.5e-14, each entry
//!   against its own size (the worst at hλ = −100, where the ~10 squarings each add
//!   a rounding);
//! - a rotation/decay block [[a, −b], [b, a]] bordered by an input column (the LLM's
//!   block for complex λ) for |λ| up to 100: worst error 2.1e-15 relative to the
//!   largest entry;
//!
//! `llm` and `slowfast` no longer call it: they take φ-functions of the m × m Jacobian
//! block from `crate::phi` (no bordered block, no allocation, bitwise the same in WASM);
//! `tests/phi.rs` checks those against this exponential of the Van Loan block.
//!
//! nalgebra's routine unwraps an LU internally and its squaring count is derived from
//! the norm, so non-finite or astronomically large arguments are refused here before it
//! is called ([`MAX_EXPM_NORM`]).

#[cfg(feature = "full")]
pub mod band;

use crate::error::OdeError;
use crate::stats::Stats;
use nalgebra::linalg::{gauss_step, gauss_step_swap};
use nalgebra::{DMatrix, DVector};

/// Largest 1-norm of a matrix handed to `exp()`: ~40 squarings, and anything this
/// large overflows (or underflows to 0) anyway. Protects against a runaway squaring
/// count from a non-finite or absurd norm.
pub const MAX_EXPM_NORM: f64 = 1e12;

/// e^M, counted in `nexpm`; an error at (t, h) if M or the result is not finite.
pub fn expm(m: &DMatrix<f64>, t: f64, h: f64, stats: &mut Stats) -> Result<DMatrix<f64>, OdeError> {
    let norm1 = m
        .column_iter()
        .map(|c| c.iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    // f64::max ignores NaN, so the norm alone would let a NaN entry through.
    let within = norm1 <= MAX_EXPM_NORM;
    if !within || !m.iter().all(|v| v.is_finite()) {
        return Err(OdeError::ExpmNotFinite { t, h });
    }
    stats.nexpm += 1;
    // nalgebra's scaling-and-squaring Padé exponential (its arithmetic is IEEE; the
    // squaring count it derives from the norm is an integer, the same on every target).
    let e = DMatrix::exp(m);
    if e.iter().all(|v| v.is_finite()) {
        Ok(e)
    } else {
        Err(OdeError::ExpmNotFinite { t, h })
    }
}

/// An LU factorisation of a step's matrix (real, or complex for radau5), counted in
/// `nlu`, that knows where it was made so a failed solve can say so. It is the one seam
/// through which the stiff methods use a linear solver: [`Factored::new`] for a matrix
/// a method formed itself, [`Factored::shifted`] for σI − cJ (Rosenbrock's I − γhJ,
/// radau5's (γ̂/h)I − J and ((α + iβ)/h)I − J), and [`Factored::reshift`] to factorise
/// the next step's σI − cJ in the same storage (no allocation per step). A sparse or
/// banded factorisation would be another implementation of these calls.
///
/// The factorisation is nalgebra's partial-pivoting LU (`LU::new`, whose steps
/// `icamax`, `gauss_step` and `gauss_step_swap` are called here in its order on storage
/// kept between steps, since `LU::new` consumes a fresh matrix and allocates its
/// permutation), bitwise nalgebra's factors but for U's diagonal, which holds the
/// reciprocal 1/uᵢᵢ of each pivot as the elimination computed it (nalgebra's
/// `gauss_step` scales L's column by it). The solve is nalgebra's `LU::solve_mut` (the
/// row interchanges, the unit lower and the upper triangular solves) written as slice
/// loops in its order, but for a product by 1/uᵢᵢ where nalgebra divides by uᵢᵢ: one
/// more rounding per pivot (an ulp at most), and no division in the solve. In a
/// Rosenbrock step the four solves are one dependent chain, and their eight divisions
/// were ~9 % of a ros4 solve of Van der Pol in WebAssembly. On a 2 × 2 system nalgebra's
/// generic views cost several times the arithmetic. Both are checked bit for bit
/// against nalgebra's LU, with that one difference (`tests/linalg.rs`).
pub struct Factored<T: nalgebra::ComplexField = f64> {
    /// L (unit diagonal, below it) and U (above it) of P·M = L·U, nalgebra's layout,
    /// with 1/uᵢᵢ on the diagonal.
    lu: DMatrix<T>,
    /// P as nalgebra's `PermutationSequence` stores it: the row interchanges in order.
    swaps: Vec<(usize, usize)>,
    t: f64,
    h: f64,
    what: &'static str,
}

impl<T: nalgebra::ComplexField<RealField = f64> + Copy> Factored<T> {
    /// Factorises `m`; refuses a matrix with a non-finite entry or an exactly zero
    /// pivot.
    pub fn new(
        m: DMatrix<T>,
        what: &'static str,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<Self, OdeError> {
        let mut f = Self {
            lu: m,
            swaps: Vec::new(),
            t,
            h,
            what,
        };
        f.factorise(stats)?;
        Ok(f)
    }

    /// Factorises σI − cJ (entries σδᵢⱼ − cJᵢⱼ: the same operations as forming
    /// `I − J·c` when σ = 1).
    #[allow(clippy::too_many_arguments)]
    pub fn shifted(
        jac: &DMatrix<f64>,
        shift: T,
        scale: f64,
        what: &'static str,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<Self, OdeError> {
        let mut f = Self {
            lu: DMatrix::zeros(0, 0),
            swaps: Vec::new(),
            t,
            h,
            what,
        };
        f.reshift(jac, shift, scale, t, h, stats)?;
        Ok(f)
    }

    /// Factorises σI − cJ at the step (t, h) in this factorisation's storage (what
    /// [`Factored::shifted`] does, without allocating once the size is known).
    pub fn reshift(
        &mut self,
        jac: &DMatrix<f64>,
        shift: T,
        scale: f64,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = jac.nrows();
        if self.lu.shape() != (n, n) {
            self.lu = DMatrix::zeros(n, n);
        }
        if jac.shape() == (2, 2) {
            return self.reshift_2(jac, shift, scale, t, h, stats);
        }
        // 0 − cJᵢⱼ everywhere, then σ − cJᵢᵢ on the diagonal: the entries (and the
        // operations) of σδᵢⱼ − cJᵢⱼ.
        let (m, j) = (self.lu.as_mut_slice(), jac.as_slice());
        for (m_ij, &j_ij) in m.iter_mut().zip(j) {
            *m_ij = T::zero() - T::from_real(j_ij * scale);
        }
        for k in (0..m.len().min(j.len())).step_by(n + 1) {
            m[k] = shift - T::from_real(j[k] * scale);
        }
        self.relocate(t, h);
        self.factorise(stats)
    }

    /// [`Factored::reshift`] of a 2 × 2 J: the same entries and checks as the loops
    /// and [`Factored::factorise`], written out (a Rosenbrock step on Van der Pol
    /// factorises once per step; the loops, their `step_by` and the call cost it about
    /// three times the arithmetic).
    fn reshift_2(
        &mut self,
        jac: &DMatrix<f64>,
        shift: T,
        scale: f64,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.relocate(t, h);
        let finite = match (
            self.lu.as_mut_slice().first_chunk_mut::<4>(),
            jac.as_slice().first_chunk::<4>(),
        ) {
            (Some(m), Some(j)) => {
                m[0] = shift - T::from_real(j[0] * scale);
                m[1] = T::zero() - T::from_real(j[1] * scale);
                m[2] = T::zero() - T::from_real(j[2] * scale);
                m[3] = shift - T::from_real(j[3] * scale);
                m.iter().all(|v| v.is_finite())
            }
            _ => false,
        };
        if !finite {
            return Err(self.singular());
        }
        stats.nlu += 1;
        self.swaps.clear();
        self.eliminate_n::<2>()
    }

    /// nalgebra's `LU::new` on `self.lu` in place: its loop (partial pivoting with its
    /// `icamax`, `gauss_step` and `gauss_step_swap`, in its order), the row
    /// interchanges recorded as its `PermutationSequence` would. An error for a
    /// non-finite entry or a zero pivot (where `LU::is_invertible` would say no).
    // Out of line: every method factorising through the seam shares one copy (a
    // smaller first-load wasm).
    #[inline(never)]
    fn factorise(&mut self, stats: &mut Stats) -> Result<(), OdeError> {
        if !self.lu.is_square() || !self.lu.as_slice().iter().all(|v| v.is_finite()) {
            return Err(self.singular());
        }
        stats.nlu += 1;
        self.swaps.clear();
        if self.lu.nrows() == 2 {
            return self.eliminate_n::<2>();
        }
        let m = &mut self.lu;
        for i in 0..m.nrows() {
            let piv = m.view_range(i.., i).icamax() + i;
            let diag = m[(piv, i)];
            if diag == T::zero() {
                // The column is zero from the diagonal down: U has a zero pivot.
                return Err(self.singular());
            }
            if piv != i {
                self.swaps.push((i, piv));
                m.columns_range_mut(..i).swap_rows(i, piv);
                gauss_step_swap(m, diag, i, piv);
            } else {
                gauss_step(m, diag, i);
            }
            // The reciprocal the step scaled the column by; no later step reads (i, i).
            m[(i, i)] = T::one() / diag;
        }
        Ok(())
    }

    /// The elimination of [`Factored::factorise`] for a size known at compile time
    /// (`fixed::<N>`), as loops over the column-major slice with nalgebra's operations
    /// in its order: `icamax`'s first largest |·|₁, the row interchange of the columns
    /// already eliminated and of the pivot column, `coeffs *= 1/diag`, then per later
    /// column its interchange and axpy's y ← a·x·1 + 1·y. With the trip counts constant
    /// a 2 × 2 LU is its arithmetic; nalgebra's views cost several times that (a third
    /// of a ros4 step on Van der Pol). Written for any `N` but called for 2 only: each
    /// size is code in the first-load package. Bitwise nalgebra's (`tests/linalg.rs`).
    #[inline(always)]
    fn eliminate_n<const N: usize>(&mut self) -> Result<(), OdeError> {
        let n = fixed::<N>(self.lu.nrows());
        let one = T::one();
        for i in 0..n {
            let m = &mut self.lu.as_mut_slice()[..n * n];
            let mut the_max = m[i * n + i].norm1();
            let mut piv = i;
            for r in i + 1..n {
                let val = m[i * n + r].norm1();
                if val > the_max {
                    the_max = val;
                    piv = r;
                }
            }
            let diag = m[i * n + piv];
            if diag == T::zero() {
                return Err(self.singular());
            }
            if piv != i {
                self.swaps.push((i, piv));
                for c in 0..=i {
                    m.swap(c * n + i, c * n + piv);
                }
            }
            let inv_diag = one / diag;
            for r in i + 1..n {
                m[i * n + r] *= inv_diag;
            }
            m[i * n + i] = inv_diag;
            for k in i + 1..n {
                m.swap(k * n + i, k * n + piv);
                let a = -m[k * n + i];
                for r in i + 1..n {
                    m[k * n + r] = a * m[i * n + r] * one + one * m[k * n + r];
                }
            }
        }
        Ok(())
    }

    fn singular(&self) -> OdeError {
        OdeError::SingularMatrix {
            t: self.t,
            h: self.h,
            what: self.what.to_string(),
        }
    }

    /// Moves the factorisation to the step at (t, h), for the messages of later solves
    /// (a method that keeps an LU across steps while its matrix repeats).
    pub fn relocate(&mut self, t: f64, h: f64) {
        self.t = t;
        self.h = h;
    }

    /// Solves M x = b in place; a non-finite solution (a numerically singular M) is an
    /// error.
    pub fn solve_in_place(&self, b: &mut DVector<T>) -> Result<(), OdeError> {
        self.solve_slice(b.as_mut_slice())
    }

    /// As [`Factored::solve_in_place`], on a slice of length n.
    pub fn solve_slice(&self, b: &mut [T]) -> Result<(), OdeError> {
        self.solve_n::<0>(b)
    }

    /// [`Factored::solve_slice`] for a size known at compile time ([`fixed`]).
    /// nalgebra's `LU::solve_mut` operation for operation, but for the product by
    /// 1/uᵢᵢ where it divides by uᵢᵢ ([`Factored`]): its axpy is y ← a·x·1 + 1·y (the
    /// factors 1 are exact, and free for f64, where the compiler drops them).
    #[inline(always)]
    pub fn solve_n<const N: usize>(&self, b: &mut [T]) -> Result<(), OdeError> {
        if N == 2 {
            self.solve_2(b)
        } else {
            self.solve_loops::<N>(b)
        }
    }

    /// [`Factored::solve_n`] as loops (any n, or `N` > 2), out of line.
    #[inline(never)]
    fn solve_loops<const N: usize>(&self, b: &mut [T]) -> Result<(), OdeError> {
        let n = fixed::<N>(self.lu.nrows());
        let lu = &self.lu.as_slice()[..n * n];
        let b = &mut b[..n];
        let one = T::one();
        for &(i, p) in &self.swaps {
            b.swap(i, p);
        }
        // L y = P b, L unit lower triangular (`solve_lower_triangular_with_diag_mut`).
        for i in 0..n.saturating_sub(1) {
            let coeff = -(b[i] / one);
            for (br, &l) in b[i + 1..].iter_mut().zip(&lu[i * n + i + 1..(i + 1) * n]) {
                *br = coeff * l * one + one * *br;
            }
        }
        // U x = y, backwards (`solve_upper_triangular_mut`).
        // (No zero pivot reaches here: the factorisation refused it; an overflowing
        // 1/uᵢᵢ gives a non-finite x, refused below.)
        for i in (0..n).rev() {
            let coeff = b[i] * lu[i * n + i];
            b[i] = coeff;
            for (br, &u) in b[..i].iter_mut().zip(&lu[i * n..i * n + i]) {
                *br = -coeff * u * one + one * *br;
            }
        }
        if b.iter().all(|v| v.is_finite()) {
            Ok(())
        } else {
            Err(self.singular())
        }
    }

    /// [`Factored::solve_n`] for n = 2, its loops written out, inlined into the caller
    /// (four solves per ros4 step on Van der Pol). The 2 × 2 elimination interchanges
    /// rows 0 and 1 or nothing, so P is one flag.
    #[inline(always)]
    fn solve_2(&self, b: &mut [T]) -> Result<(), OdeError> {
        let (Some(lu), Some(b)) = (
            self.lu.as_slice().first_chunk::<4>(),
            b.first_chunk_mut::<2>(),
        ) else {
            return Err(self.singular());
        };
        let one = T::one();
        if !self.swaps.is_empty() {
            b.swap(0, 1);
        }
        // L y = P b.
        let coeff = -(b[0] / one);
        b[1] = coeff * lu[1] * one + one * b[1];
        // U x = y, backwards, by the reciprocal pivots on the diagonal.
        let coeff = b[1] * lu[3];
        b[1] = coeff;
        b[0] = -coeff * lu[2] * one + one * b[0];
        b[0] *= lu[0];
        if b[0].is_finite() && b[1].is_finite() {
            Ok(())
        } else {
            Err(self.singular())
        }
    }
}

/// Evaluates `$sized` with `$K` a compile-time constant equal to `$n` when `$n` is one
/// of the listed sizes, else `$other`: one source for the copies of a loop compiled for
/// each small size (constant trip counts, constant-size copies as loads and stores)
/// and for any size (`copy_short` below, `phi`'s `with_size!`).
macro_rules! with_const_size {
    ($n:expr, [$($size:literal)*], $K:ident => $sized:expr, _ => $other:expr) => {
        match $n {
            $($size => {
                const $K: usize = $size;
                $sized
            })*
            _ => $other,
        }
    };
}
pub(crate) use with_const_size;

/// `dst.copy_from_slice(src)` for the short vectors a step copies every time (a state,
/// a slope): lengths up to 4 as constant-size copies, i.e. plain loads and stores. In
/// WebAssembly a copy of unknown length is a `memory.copy`, which V8 (Node 20) runs as
/// a call out of the module: ~6 ns for 16 bytes against ~0.4 ns for two loads and two
/// stores, ~10 % of a ros4 solve on Van der Pol (three copies per step). Lengths 1 to
/// 4: the states of the models a student steps by hand and of the benchmarks. One copy of
/// the dispatch for all callers (not inlined: the run package's size).
#[inline(never)]
pub fn copy_short(dst: &mut [f64], src: &[f64]) {
    debug_assert_eq!(dst.len(), src.len());
    with_const_size!(src.len(), [1 2 3 4], K => dst[..K].copy_from_slice(&src[..K]), _ => dst.copy_from_slice(src))
}

/// `dst.extend_from_slice(src)`, with [`copy_short`]'s constant-size copies.
#[inline(never)]
pub fn append_short(dst: &mut Vec<f64>, src: &[f64]) {
    with_const_size!(src.len(), [1 2 3 4], K => dst.extend_from_slice(&src[..K]), _ => dst.extend_from_slice(src))
}

/// `dst.fill(value)`, with constant-size stores for [`copy_short`]'s lengths (a
/// `memory.fill` otherwise, the same call out of the module).
#[inline(never)]
pub fn fill_short(dst: &mut [f64], value: f64) {
    with_const_size!(dst.len(), [1 2 3 4], K => dst[..K].fill(value), _ => dst.fill(value))
}

/// The size of a system whose size the caller may know at compile time: `N` = 0 is
/// "any n" (returned as given), `N` > 0 promises n = N. The `_n::<N>` forms of
/// [`Factored`], `crate::linear_solver` and the Rosenbrock step are one source for
/// both; with a constant size every loop has a constant trip count, so a 2 × 2 system
/// costs its arithmetic and not the loop and view overhead of a general n.
#[inline(always)]
pub fn fixed<const N: usize>(n: usize) -> usize {
    if N == 0 {
        n
    } else {
        debug_assert_eq!(n, N, "a fixed-size path called with another size");
        N
    }
}
