//! The scaled error of a step: the weighted RMS norm of seed 001 eq. (5) or the max
//! norm of the ode23/ode45 listings in seed 002. A step is acceptable when it is ≤ 1.
//!
//! [`ErrorMeasure`] is what the driver hands a method with its step (the norm and the
//! tolerance), so that a method can measure its estimate while it forms y_{n+1}
//! (`Stepper::measured`); [`ErrorMeasure::of`] is that measurement done afterwards,
//! the same operations in the same order.

use super::Tolerance;

/// Which norm measures the scaled error vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorNorm {
    /// [1/n Σ (e_i / sc_i)²]^½, seed 001 eq. (5) (also SciPy's and Hairer's choice).
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

/// |e| / sc for one component, sc_i of seed 001 eq. (4). A component with sc = 0
/// (atol = 0 and y = 0) counts as infinitely wrong unless its error is 0 too.
#[inline(always)]
fn scaled(e: f64, y_old: f64, y_new: f64, rtol: f64, atol: f64) -> f64 {
    if e == 0.0 {
        0.0
    } else {
        (e / (atol + larger(y_old.abs(), y_new.abs()) * rtol)).abs()
    }
}

/// The norm of `err` scaled component-wise by sc_i (seed 001 eq. 4).
pub fn error_norm(
    norm: ErrorNorm,
    err: &[f64],
    y_old: &[f64],
    y_new: &[f64],
    tol: &Tolerance,
) -> f64 {
    let mut acc = NormAccumulator::new(norm);
    let n = err.len();
    let (y_old, y_new) = (&y_old[..n], &y_new[..n]);
    let (rtol, atol) = (&tol.rtol[..n], &tol.atol[..n]);
    for i in 0..n {
        acc.add(scaled(err[i], y_old[i], y_new[i], rtol[i], atol[i]));
    }
    acc.norm(n)
}

/// A norm summed component by component (Σ s² from 0, or the max of s from 0, in
/// component order: the bits of the iterator sum and fold this replaced).
#[derive(Debug, Clone, Copy)]
pub struct NormAccumulator {
    rms: bool,
    acc: f64,
}

impl NormAccumulator {
    #[inline(always)]
    pub fn new(norm: ErrorNorm) -> Self {
        Self {
            rms: norm == ErrorNorm::Rms,
            acc: 0.0,
        }
    }

    /// Adds one scaled component |e_i| / sc_i.
    #[inline(always)]
    pub fn add(&mut self, s: f64) {
        self.acc = if self.rms {
            self.acc + s * s
        } else {
            larger(self.acc, s)
        };
    }

    /// The norm of the `n` components added.
    #[inline(always)]
    pub fn norm(self, n: usize) -> f64 {
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
        if y_new.iter().any(|v| !v.is_finite()) {
            return f64::INFINITY;
        }
        finite_or_infinite(error_norm(self.norm, est, y, y_new, self.tolerance))
    }

    /// One component's scaled error, for a method that measures while it steps
    /// (`NormAccumulator::add` it, then [`ErrorMeasure::finish`]).
    #[inline(always)]
    pub fn scaled(&self, i: usize, e: f64, y_old: f64, y_new: f64) -> f64 {
        scaled(
            e,
            y_old,
            y_new,
            self.tolerance.rtol[i],
            self.tolerance.atol[i],
        )
    }

    /// The measure of a step whose components were accumulated in `acc`: as
    /// [`ErrorMeasure::of`], infinite when y_new was not all finite.
    #[inline(always)]
    pub fn finish(&self, acc: NormAccumulator, n: usize, y_new_finite: bool) -> f64 {
        if y_new_finite {
            finite_or_infinite(acc.norm(n))
        } else {
            f64::INFINITY
        }
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
