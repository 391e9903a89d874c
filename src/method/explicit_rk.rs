//! A generic explicit Runge–Kutta step driven by a Butcher tableau (A, b, c), with the
//! optional extras of an embedded pair: error weights E = b − b̂, first-same-as-last
//! (FSAL) reuse of the last stage, and dense-output polynomials.
//!
//! Every explicit RK method in odelab is a `const` [`Tableau`] plus this one loop, so
//! the stability analysis can read the same coefficients the integrator uses, and what a
//! method can do (estimate its error, interpolate) is data in its tableau, not `if`s here.
//!
//! The stepper reads its coefficients through [`Coefficients`], implemented by the
//! `const` [`Tableau`] (borrowed `'static`, monomorphised: the catalogue's methods pay
//! nothing for it) and by [`OwnedTableau`], a user's tableau from the page,
//! owned by its stepper and freed with it.

use super::hermite::hermite_cubic;
use super::{MethodInfo, Stepper};
use crate::error::OdeError;
use crate::problem::System;
use crate::stats::Stats;
use std::borrow::Cow;

/// A Butcher tableau of an explicit method: `a[i]` holds the `i` entries left of the
/// diagonal in row `i` (row 0 is empty), `b` the weights, `c` the nodes.
///
/// FSAL methods are written as in the ode23/ode45 listings of Schwab & Delhaes: the last stage
/// row of `a` equals `b` (its `b` entry is 0), so that stage is f(t + h, y_{n+1}) and
/// becomes the first stage of the next step.
#[derive(Debug, Clone, Copy)]
pub struct Tableau {
    pub a: &'static [&'static [f64]],
    pub b: &'static [f64],
    pub c: &'static [f64],
    /// Error weights E = b − b̂ (one per stage): the local error estimate of a step is
    /// h Σ E_i k_i. `None` for methods without an embedded formula.
    pub error: Option<&'static [f64]>,
    /// The last stage is f(t + h, y_{n+1}) and is reused as the next step's first stage.
    pub fsal: bool,
    /// Dense output: `dense[i][j]` is the coefficient of θ^(j+1) in the weight of k_i,
    /// y(t + θh) ≈ y_n + h Σ_i k_i Σ_j `dense[i][j]` θ^(j+1) (the `BI` matrices of
    /// ntrp23/ntrp45). `None`: a cubic Hermite interpolant is used instead.
    pub dense: Option<&'static [&'static [f64]]>,
}

impl Tableau {
    /// Number of stages (for FSAL methods, including the reused last one).
    pub const fn stages(&self) -> usize {
        self.b.len()
    }
}

/// Where the stepper reads its coefficients: a `const` [`Tableau`] or an [`OwnedTableau`].
pub trait Coefficients {
    /// Number of stages s.
    fn stages(&self) -> usize;
    /// Row i of A left of the diagonal (i entries).
    fn row(&self, i: usize) -> &[f64];
    fn b(&self) -> &[f64];
    fn c(&self) -> &[f64];
    /// Error weights E = b − b̂, if the method has an embedded formula.
    fn error(&self) -> Option<&[f64]>;
    /// First same as last (see [`Tableau::fsal`]).
    fn fsal(&self) -> bool;
    /// Dense-output polynomials (see [`Tableau::dense`]); `None`: cubic Hermite.
    fn dense(&self) -> Option<&[&'static [f64]]>;
}

impl Coefficients for &'static Tableau {
    #[inline]
    fn stages(&self) -> usize {
        self.b.len()
    }
    #[inline]
    fn row(&self, i: usize) -> &[f64] {
        self.a[i]
    }
    #[inline]
    fn b(&self) -> &[f64] {
        self.b
    }
    #[inline]
    fn c(&self) -> &[f64] {
        self.c
    }
    #[inline]
    fn error(&self) -> Option<&[f64]> {
        self.error
    }
    #[inline]
    fn fsal(&self) -> bool {
        self.fsal
    }
    #[inline]
    fn dense(&self) -> Option<&[&'static [f64]]> {
        self.dense
    }
}

/// An explicit tableau owned by its stepper (a user's method): the same layout as
/// [`Tableau`] (`a[i]` holds the i entries left of the diagonal), no dense-output
/// polynomials (the cubic Hermite interpolant is used).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedTableau {
    pub a: Vec<Vec<f64>>,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    pub error: Option<Vec<f64>>,
    pub fsal: bool,
}

impl Coefficients for OwnedTableau {
    fn stages(&self) -> usize {
        self.b.len()
    }
    fn row(&self, i: usize) -> &[f64] {
        &self.a[i]
    }
    fn b(&self) -> &[f64] {
        &self.b
    }
    fn c(&self) -> &[f64] {
        &self.c
    }
    fn error(&self) -> Option<&[f64]> {
        self.error.as_deref()
    }
    fn fsal(&self) -> bool {
        self.fsal
    }
    fn dense(&self) -> Option<&[&'static [f64]]> {
        None
    }
}

/// A stage value f(t, y) remembered with the point it was evaluated at, so that a step
/// starting from exactly that point can reuse it instead of calling f again.
#[derive(Debug, Clone)]
struct CachedStage {
    t: f64,
    y: Vec<f64>,
    f: Vec<f64>,
    valid: bool,
}

impl CachedStage {
    fn new(dim: usize) -> Self {
        Self {
            t: f64::NAN,
            y: vec![0.0; dim],
            f: vec![0.0; dim],
            valid: false,
        }
    }

    /// True if the stage was evaluated at (t, y). The time may differ by a few ulps
    /// because the driver snaps the last step onto t1 (ode45's "purify h").
    fn holds(&self, t: f64, y: &[f64]) -> bool {
        self.valid
            && (t - self.t).abs() <= 8.0 * f64::EPSILON * t.abs().max(self.t.abs())
            && self.y == y
    }

    fn store(&mut self, t: f64, y: &[f64], f: &[f64]) {
        self.t = t;
        self.y.copy_from_slice(y);
        self.f.copy_from_slice(f);
        self.valid = true;
    }
}

/// An explicit RK stepper with its stage vectors allocated once. It keeps the last
/// step (t_n, h, y_n, y_{n+1}, stages) for the error estimate and dense output.
pub struct ExplicitRk<T: Coefficients = &'static Tableau> {
    info: Cow<'static, MethodInfo>,
    tableau: T,
    k: Vec<Vec<f64>>,
    y_stage: Vec<f64>,
    /// f at the start of the last step (a rejected step is retried from there).
    start: CachedStage,
    /// f at the end of the last step: the FSAL stage, or the one the Hermite
    /// interpolant evaluated; the next step starts there when the step is accepted.
    end: CachedStage,
    last_t: f64,
    last_h: f64,
    last_y: Vec<f64>,
    last_y_new: Vec<f64>,
    error: Vec<f64>,
}

impl ExplicitRk {
    /// A catalogue method: its `const` tableau and catalogue entry.
    pub fn new(info: &'static MethodInfo, tableau: &'static Tableau, dim: usize) -> Self {
        ExplicitRk::with_coefficients(Cow::Borrowed(info), tableau, dim)
    }
}

impl<T: Coefficients> ExplicitRk<T> {
    /// A stepper over any coefficients, e.g. a user's [`OwnedTableau`].
    pub fn with_coefficients(info: Cow<'static, MethodInfo>, tableau: T, dim: usize) -> Self {
        Self {
            info,
            k: vec![vec![0.0; dim]; tableau.stages()],
            tableau,
            y_stage: vec![0.0; dim],
            start: CachedStage::new(dim),
            end: CachedStage::new(dim),
            last_t: f64::NAN,
            last_h: f64::NAN,
            last_y: vec![0.0; dim],
            last_y_new: vec![0.0; dim],
            error: vec![0.0; dim],
        }
    }

    /// k_1 = f(t, y), from a cache when this point was seen before (FSAL, or a retry
    /// after a rejected step), else evaluated.
    fn first_stage(&mut self, sys: &dyn System, t: f64, y: &[f64], stats: &mut Stats) {
        if self.end.holds(t, y) {
            self.k[0].copy_from_slice(&self.end.f);
        } else if self.start.holds(t, y) {
            self.k[0].copy_from_slice(&self.start.f);
        } else {
            sys.rhs(t, y, &mut self.k[0]);
            stats.nfev += 1;
        }
        self.start.store(t, y, &self.k[0]);
    }
}

impl<T: Coefficients> Stepper for ExplicitRk<T> {
    fn info(&self) -> &MethodInfo {
        &self.info
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
        self.first_stage(sys, t, y, stats);
        let tab = &self.tableau;
        for i in 1..tab.stages() {
            let row = tab.row(i);
            self.y_stage.copy_from_slice(y);
            for (j, &aij) in row.iter().enumerate() {
                if aij != 0.0 {
                    for (ys, kj) in self.y_stage.iter_mut().zip(&self.k[j]) {
                        *ys += h * aij * kj;
                    }
                }
            }
            sys.rhs(t + tab.c()[i] * h, &self.y_stage, &mut self.k[i]);
            stats.nfev += 1;
        }
        // Same operations in the same order as the FSAL stage row, so for FSAL methods
        // y_out is bit-for-bit the point the last stage was evaluated at.
        y_out.copy_from_slice(y);
        for (&bi, ki) in tab.b().iter().zip(&self.k) {
            if bi != 0.0 {
                for (yo, kv) in y_out.iter_mut().zip(ki) {
                    *yo += h * bi * kv;
                }
            }
        }
        if let Some(e) = tab.error() {
            self.error.fill(0.0);
            for (&ei, ki) in e.iter().zip(&self.k) {
                if ei != 0.0 {
                    for (err, kv) in self.error.iter_mut().zip(ki) {
                        *err += h * ei * kv;
                    }
                }
            }
        }
        self.end.valid = false;
        if tab.fsal() {
            if let Some(last) = self.k.last() {
                self.end.store(t + h, y_out, last);
            }
        }
        self.last_t = t;
        self.last_h = h;
        self.last_y.copy_from_slice(y);
        self.last_y_new.copy_from_slice(y_out);
        Ok(())
    }

    fn error_estimate(&self) -> Option<&[f64]> {
        self.tableau.error().map(|_| &self.error[..])
    }

    fn dense_output(
        &mut self,
        sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let h = self.last_h;
        match self.tableau.dense() {
            Some(rows) => {
                out.copy_from_slice(&self.last_y);
                for (row, ki) in rows.iter().zip(&self.k) {
                    // Horner in θ for Σ_j d_j θ^(j+1).
                    let w = row.iter().rev().fold(0.0, |acc, d| (acc + d) * theta);
                    if w != 0.0 {
                        for (o, kv) in out.iter_mut().zip(ki) {
                            *o += h * w * kv;
                        }
                    }
                }
            }
            None => {
                let t_new = self.last_t + h;
                if !self.end.holds(t_new, &self.last_y_new) {
                    // One extra evaluation per interpolated step; the next step starts
                    // at this point and reuses it as its first stage.
                    let mut f_new = vec![0.0; out.len()];
                    sys.rhs(t_new, &self.last_y_new, &mut f_new);
                    stats.nfev += 1;
                    self.end.store(t_new, &self.last_y_new, &f_new);
                }
                hermite_cubic(
                    theta,
                    h,
                    &self.last_y,
                    &self.start.f,
                    &self.last_y_new,
                    &self.end.f,
                    out,
                );
            }
        }
        Ok(())
    }
}
