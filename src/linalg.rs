//! The two dense linear-algebra operations of the stiff and exponential methods, from
//! nalgebra, wrapped so that failure is a typed [`OdeError`] at the (t, h) where it
//! happened, never a panic: an LU factorisation with its solve, and the matrix
//! exponential of a (Van Loan) block matrix.
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

use crate::error::OdeError;
use crate::stats::Stats;
use nalgebra::{DMatrix, DVector, LU};

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
/// radau5's (γ̂/h)I − J and ((α + iβ)/h)I − J). A sparse or banded factorisation
/// would be another implementation of these calls.
pub struct Factored<T: nalgebra::ComplexField = f64> {
    lu: LU<T, nalgebra::Dyn, nalgebra::Dyn>,
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
        let singular = || OdeError::SingularMatrix {
            t,
            h,
            what: what.to_string(),
        };
        if !m.iter().all(|v| v.is_finite()) {
            return Err(singular());
        }
        stats.nlu += 1;
        let lu = m.lu();
        if !lu.is_invertible() {
            return Err(singular());
        }
        Ok(Self { lu, t, h, what })
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
        let n = jac.nrows();
        let m = DMatrix::<T>::from_fn(n, n, |i, j| {
            let d = if i == j { shift } else { T::zero() };
            d - T::from_real(jac[(i, j)] * scale)
        });
        Self::new(m, what, t, h, stats)
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
        let ok = self.lu.solve_mut(b);
        if ok && b.iter().all(|v| v.is_finite()) {
            Ok(())
        } else {
            Err(OdeError::SingularMatrix {
                t: self.t,
                h: self.h,
                what: self.what.to_string(),
            })
        }
    }
}
