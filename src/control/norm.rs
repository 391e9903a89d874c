//! The scaled error of a step: the weighted RMS norm of Negrut et al. 2003 eq. (5) or the max
//! norm of the ode23/ode45 listings in Schwab & Delhaes. A step is acceptable when it is ≤ 1.
//!
//! [`ErrorMeasure`] is what the driver hands a method with its step (the norm and the
//! tolerance), so that a method can measure its estimate while it forms y_{n+1}
//! (`Stepper::measured`); [`ErrorMeasure::of`] is that measurement, one loop for the
//! driver and for the methods (`of_n`, the size a constant where the method has one).

use super::Tolerance;
use crate::linalg::fixed;

/// Which norm measures the scaled error vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorNorm {
    /// [1/n Σ (e_i / sc_i)²]^½, Negrut et al. 2003 eq. (5) (also SciPy's and Hairer's choice).
    Rms,
    /// max_i |e_i| / sc_i, the `norm(…, inf)` of the ode23/ode45 listings.
    Max,
}

/// `a.max(b)`, bit for bit (NaN loses to a number), written as a comparison: for
/// wasm32 LLVM lowers `f64::max` to a call of `fmax` (its NaN rule is not wasm's
/// `f64.max`), which a per-component norm pays for on every step.
#[inline(always)]
pub fn larger(a: f64, b: f64) -> f64 {
    if a.is_nan() || b > a {
        b
    } else {
        a
    }
}

/// |e| / sc for one component, sc_i of Negrut et al. 2003 eq. (4). A component with sc = 0
/// (atol = 0 and y = 0) counts as infinitely wrong unless its error is 0 too.
#[inline(always)]
fn scaled(e: f64, y_old: f64, y_new: f64, rtol: f64, atol: f64) -> f64 {
    if e == 0.0 {
        0.0
    } else {
        (e / (atol + larger(y_old.abs(), y_new.abs()) * rtol)).abs()
    }
}

/// The norm of `err` scaled component-wise by sc_i (Negrut et al. 2003 eq. 4).
pub fn error_norm(
    norm: ErrorNorm,
    err: &[f64],
    y_old: &[f64],
    y_new: &[f64],
    tol: &Tolerance,
) -> f64 {
    error_norm_n::<0>(norm, err, y_old, y_new, tol)
}

/// [`error_norm`] with the size a compile-time constant (`linalg::fixed`: `N` = 0 is
/// any size): each component scaled by sc_i and added in component order (Σ s² or the
/// max, from 0). The one loop of the driver's and the methods' error measures.
#[inline(always)]
fn error_norm_n<const N: usize>(
    norm: ErrorNorm,
    err: &[f64],
    y_old: &[f64],
    y_new: &[f64],
    tol: &Tolerance,
) -> f64 {
    let n = fixed::<N>(err.len());
    let (err, y_old, y_new) = (&err[..n], &y_old[..n], &y_new[..n]);
    let (rtol, atol) = (&tol.rtol[..n], &tol.atol[..n]);
    let mut acc = NormAccumulator::new(norm);
    for i in 0..n {
        acc.add(scaled(err[i], y_old[i], y_new[i], rtol[i], atol[i]));
    }
    acc.norm(n)
}

/// A norm summed component by component (Σ s² from 0, or the max of s from 0, in
/// component order: the bits of the iterator sum and fold this replaced).
#[derive(Debug, Clone, Copy)]
struct NormAccumulator {
    rms: bool,
    acc: f64,
}

impl NormAccumulator {
    #[inline(always)]
    fn new(norm: ErrorNorm) -> Self {
        Self {
            rms: norm == ErrorNorm::Rms,
            acc: 0.0,
        }
    }

    /// Adds one scaled component |e_i| / sc_i.
    #[inline(always)]
    fn add(&mut self, s: f64) {
        self.acc = if self.rms {
            self.acc + s * s
        } else {
            larger(self.acc, s)
        };
    }

    /// The norm of the `n` components added.
    #[inline(always)]
    fn norm(self, n: usize) -> f64 {
        if self.rms {
            (self.acc / n.max(1) as f64).sqrt()
        } else {
            self.acc
        }
    }
}

/// How an adaptive run measures a step's error estimate: the norm and the tolerance
/// (the method's calibration of the run's, `Stepper::error_tolerance`).
#[derive(Debug, Clone, Copy)]
pub struct ErrorMeasure<'a> {
    pub norm: ErrorNorm,
    pub tolerance: &'a Tolerance,
}

impl ErrorMeasure<'_> {
    /// The normalised error of the step from `y` to `y_new` with estimate `est`;
    /// infinite if the step left the floating-point range (a non-finite y_new or a NaN
    /// norm), so the step is rejected and retried smaller.
    pub fn of(&self, est: &[f64], y: &[f64], y_new: &[f64]) -> f64 {
        // No copy for two states: it saved no time measurable on llm or radau5 (the
        // methods that measure here; BENCHMARKS.md, "Speed copies").
        self.of_n::<0>(est, y, y_new)
    }

    /// [`ErrorMeasure::of`] for a caller that knows the size at compile time
    /// (`linalg::fixed`: `N` = 0 is any size), inlined by a method that measures while
    /// it steps (`Stepper::measured`), so that its norm is the driver's bit for bit.
    #[inline(always)]
    pub fn of_n<const N: usize>(&self, est: &[f64], y: &[f64], y_new: &[f64]) -> f64 {
        let n = fixed::<N>(est.len());
        if !y_new[..n].iter().all(|v| v.is_finite()) {
            return f64::INFINITY;
        }
        finite_or_infinite(error_norm_n::<N>(self.norm, est, y, y_new, self.tolerance))
    }
}

#[inline(always)]
fn finite_or_infinite(err: f64) -> f64 {
    if err.is_nan() {
        f64::INFINITY
    } else {
        err
    }
}
