//! `bdf`: the variable-step, variable-order backward differentiation formulas of
//! orders 1–5 (κ = 0), and the stepper `ndf` shares (the numerical differentiation
//! formulas, κ of Shampine & Reichelt): Shampine & Reichelt, "The MATLAB ODE Suite",
//! SIAM J. Sci. Comput. 18 (1997), §2, in the quasi-constant step form SciPy's
//! `scipy/integrate/_ivp/bdf.py` implements (`BDF`; MATLAB's `ode15s` is the NDF).
//!
//! **The formula.** The solution is kept as its backward differences D[j] = ∇ʲy_n on
//! a grid of equal steps h (Shampine & Reichelt §2, eq. 2.3 and what follows). A step
//! of order k predicts y⁽⁰⁾ = Σ_{j≤k} D[j] and solves
//! `(1 − κ_k) γ_k (y − y⁽⁰⁾) + Σ_{j=1}^{k} γ_j D[j] = h f(t + h, y)`, γ_j = Σ_{i≤j} 1/i,
//! for the correction d = y − y⁽⁰⁾ by a simplified Newton iteration with I − (h/α_k)J,
//! α_k = (1 − κ_k)γ_k. Its local error is estimated as
//! (κ_kγ_k + 1/(k+1)) d (Shampine & Reichelt eq. 2.4 and §2.1).
//!
//! **Step and order.** A changed h rescales the differences to the new spacing (the
//! matrices R and U of Shampine & Reichelt §2.2, SciPy's `change_D`). After k + 1
//! accepted steps of equal size, the estimates of orders k − 1 and k + 1 from the same
//! differences are compared with order k's, and the order whose step can grow most is
//! taken (by at most 10×). A rejected step shrinks by ≥ 0.2 and keeps its order; a
//! Newton iteration that fails with a stale Jacobian gets a fresh one at the
//! predictor and tries again; one that fails with a fresh Jacobian halves h (as SciPy).
//! The policy is the method's own ([`crate::control::StepControl`]); the driver's loop
//! takes and retries the steps.
//!
//! **History.** The driver only calls `step(t, y, h)`: a step that starts where the
//! last one ended accepts it (its differences are committed); one that starts where
//! the last one started is a retry; anywhere else restarts at order 1 with
//! D[1] = h f(t, y).
//!
//! **Dense output.** The interpolating polynomial of the committed differences on the
//! step (SciPy's `BdfDenseOutput`): degree k through y_{n+1}, y_n, …, y_{n+1−k}.

// Index loops read as the formulas of Shampine & Reichelt §2 do.
#![allow(clippy::needless_range_loop)]

use super::{CharPoly, MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::control::{StepControl, Tolerance};
use crate::error::{NewtonReason, OdeError};
use crate::jacobian::JacobianProvider;
use crate::linear_solver::StepMatrix;
use crate::math;
use crate::problem::System;
use crate::stats::Stats;

pub const INFO: MethodInfo = MethodInfo {
    id: "bdf",
    name: "BDF (variable order 1–5)",
    order: 5,
    family: "implicit multistep (BDF), variable step and order",
    source: "Shampine & Reichelt, The MATLAB ODE Suite (1997), §2; as SciPy's BDF",
    stages: 1,
    adaptive: true,
    // The estimate the run starts with (order 1); the first step is chosen for it.
    embedded_order: Some(1),
    fsal: false,
    dense_order: 5,
    second_order: false,
    needs_jacobian: true,
    l_stable: false,
    partitioned: false,
    sparse: true,
};

/// Whole engine only (`full`): the first-load package lists it and draws its ξ-plane.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Multistep(CHAR_POLY_5),
}
.full();

/// Highest order.
pub const MAX_ORDER: usize = 5;

/// κ_k of the NDFs, Shampine & Reichelt (1997) Table 1 (SciPy's `kappa`; κ₅ = 0: NDF5
/// is BDF5). Index 0 is unused.
pub const NDF_KAPPA: [f64; MAX_ORDER + 1] = [0.0, -0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0];
/// κ = 0: the BDFs.
pub const BDF_KAPPA: [f64; MAX_ORDER + 1] = [0.0; MAX_ORDER + 1];

/// The fixed-step BDF5 (= NDF5, κ₅ = 0), the highest order either method runs:
/// 137/60 y_{n+1} − 5y_n + 5y_{n−1} − 10/3 y_{n−2} + 5/4 y_{n−3} − 1/5 y_{n−4} = h f_{n+1}
/// (Σ_{j=1}^{5} ∇ʲ/j). Its region is the smallest of orders 1–5 (not A-stable: it
/// misses part of the left half-plane near the imaginary axis).
pub const CHAR_POLY_5: CharPoly = CharPoly {
    coef: &[
        &[-1.0 / 5.0, 0.0],
        &[5.0 / 4.0, 0.0],
        &[-10.0 / 3.0, 0.0],
        &[5.0, 0.0],
        &[-5.0, 0.0],
        &[137.0 / 60.0, -1.0],
    ],
};

/// Simplified Newton iterations per attempt (SciPy's `NEWTON_MAXITER`).
const NEWTON_MAXITER: u32 = 4;
/// Smallest factor a rejected step shrinks by, largest an accepted one grows by.
const MIN_FACTOR: f64 = 0.2;
const MAX_FACTOR: f64 = 10.0;
/// The Newton matrix, as errors name it.
const WHAT: &str = "I − (h/α_k)J of the BDF/NDF Newton iteration";

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Bdf::new(&INFO, BDF_KAPPA, dim, options)?))
}

/// The order cap a spec's `methodParams.maxOrder` asks for (5 when absent).
fn max_order(options: &MethodOptions, id: &str) -> Result<usize, OdeError> {
    #[cfg(feature = "full")]
    if let Some(p) = &options.params {
        let given = [
            ("rhoInf", p.rho_inf.is_some()),
            ("alpha", p.alpha.is_some()),
            ("beta", p.beta.is_some()),
            ("gamma", p.gamma.is_some()),
        ];
        if let Some((name, _)) = given.iter().find(|(_, g)| *g) {
            return Err(OdeError::BadSpec {
                message: format!("method \"{id}\" takes methodParams maxOrder, not {name}"),
            });
        }
        if let Some(k) = p.max_order {
            if !(k.is_finite() && k.fract() == 0.0 && (1.0..=MAX_ORDER as f64).contains(&k)) {
                return Err(OdeError::OutOfRange {
                    what: "methodParams.maxOrder".into(),
                    value: k,
                    allowed: "a whole number from 1 to 5".into(),
                });
            }
            return Ok(k as usize);
        }
    }
    let _ = (options, id);
    Ok(MAX_ORDER)
}

/// The result of the last attempt, waiting to be accepted.
#[derive(Debug, Clone, Copy)]
struct Pending {
    t_new: f64,
    h: f64,
    order: usize,
    /// Newton iterations it took (the step-size safety factor depends on them).
    iterations: u32,
    /// Its step-size control already chose the next order ([`StepControl::after_accept`]).
    decided: bool,
}

/// The variable-order BDF/NDF stepper (`bdf`, `ndf`).
pub struct Bdf {
    info: &'static MethodInfo,
    n: usize,
    max_order: usize,
    gamma: [f64; MAX_ORDER + 1],
    alpha: [f64; MAX_ORDER + 1],
    error_const: [f64; MAX_ORDER + 2],
    provider: JacobianProvider,
    lu: Option<StepMatrix>,
    /// The LU is of I − cJ for the current J and some c (possibly an earlier one: a
    /// retry after an error rejection keeps it, as SciPy).
    lu_valid: bool,
    have_jac: bool,
    /// J was evaluated during the step being taken (reset when a step is accepted).
    jac_current: bool,
    /// Differences D[0..MAX_ORDER+3] at `t_base` with spacing `h_d`, row by row.
    d: Vec<f64>,
    /// The differences after the pending step.
    d_next: Vec<f64>,
    t_base: f64,
    h_d: f64,
    started: bool,
    order: usize,
    n_equal: usize,
    pending: Option<Pending>,
    /// The order the step control chose for the steps after the pending one.
    decision: Option<usize>,
    /// The next rescaling of D comes from an error rejection: the LU is kept.
    keep_lu: bool,
    /// The order of the last attempt (the step inspector's column).
    last_order: usize,
    tol: Tolerance,
    newton_tol: f64,
    y_pred: Vec<f64>,
    psi: Vec<f64>,
    corr: Vec<f64>,
    dy: Vec<f64>,
    f: Vec<f64>,
    scale: Vec<f64>,
    est: Vec<f64>,
}

impl Bdf {
    /// A stepper with the κ of `kappa` for a system of dimension `dim`.
    pub fn new(
        info: &'static MethodInfo,
        kappa: [f64; MAX_ORDER + 1],
        dim: usize,
        options: &MethodOptions,
    ) -> Result<Self, OdeError> {
        let max_order = max_order(options, info.id)?;
        // γ_k = Σ_{i≤k} 1/i, α_k = (1 − κ_k)γ_k, error constant κ_kγ_k + 1/(k+1)
        // (Shampine & Reichelt 1997 §2.1; SciPy's gamma, alpha, error_const).
        let mut gamma = [0.0; MAX_ORDER + 1];
        for k in 1..=MAX_ORDER {
            gamma[k] = gamma[k - 1] + 1.0 / k as f64;
        }
        let mut alpha = [0.0; MAX_ORDER + 1];
        let mut error_const = [0.0; MAX_ORDER + 2];
        for k in 0..=MAX_ORDER {
            alpha[k] = (1.0 - kappa[k]) * gamma[k];
            error_const[k] = kappa[k] * gamma[k] + 1.0 / (k + 1) as f64;
        }
        error_const[MAX_ORDER + 1] = 1.0 / (MAX_ORDER + 2) as f64;
        let rows = MAX_ORDER + 3;
        let tol = Tolerance::uniform(1e-3, 1e-6, dim)?;
        Ok(Self {
            info,
            n: dim,
            max_order,
            gamma,
            alpha,
            error_const,
            provider: JacobianProvider::new(info.id, options.jacobian).sparse_if(info.sparse),
            lu: None,
            lu_valid: false,
            have_jac: false,
            jac_current: false,
            d: vec![0.0; rows * dim],
            d_next: vec![0.0; rows * dim],
            t_base: f64::NAN,
            h_d: 0.0,
            started: false,
            order: 1,
            n_equal: 0,
            pending: None,
            decision: None,
            keep_lu: false,
            last_order: 1,
            newton_tol: newton_tolerance(&tol),
            tol,
            y_pred: vec![0.0; dim],
            psi: vec![0.0; dim],
            corr: vec![0.0; dim],
            dy: vec![0.0; dim],
            f: vec![0.0; dim],
            scale: vec![0.0; dim],
            est: vec![0.0; dim],
        })
    }

    /// Starts at (t, y): order 1, D[0] = y, D[1] = h f(t, y).
    fn restart(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = self.n;
        sys.rhs(t, y, &mut self.f);
        stats.nfev += 1;
        if let Some(component) = self.f.iter().position(|v| !v.is_finite()) {
            return Err(OdeError::NewtonFailed {
                t,
                h,
                iterations: 0,
                reason: NewtonReason::NotFinite { component },
            });
        }
        self.d.fill(0.0);
        self.d[..n].copy_from_slice(y);
        for i in 0..n {
            self.d[n + i] = h * self.f[i];
        }
        self.t_base = t;
        self.h_d = h;
        self.started = true;
        self.order = 1;
        self.n_equal = 0;
        self.pending = None;
        self.decision = None;
        self.keep_lu = false;
        self.lu_valid = false;
        self.have_jac = false;
        self.jac_current = false;
        Ok(())
    }

    /// The pending step was accepted: its differences become the history.
    fn commit(&mut self, p: Pending) {
        let decided = if p.decided {
            self.decision.take()
        } else {
            // No step control of its own (a fixed grid or the spec's controller): the
            // order is still chosen by the same comparison.
            let err = self.norm_of(self.error_const[p.order], p.order + 1);
            self.select(p, err).map(|(k, _)| k)
        };
        std::mem::swap(&mut self.d, &mut self.d_next);
        self.t_base = p.t_new;
        self.h_d = p.h;
        self.n_equal += 1;
        self.jac_current = false;
        self.pending = None;
        if let Some(k) = decided {
            self.order = k;
            self.n_equal = 0;
            self.lu_valid = false;
        }
    }

    /// RMS of c·D_next[row] scaled by atol + rtol |y_new| (SciPy's `norm(error / scale)`).
    fn norm_of(&self, c: f64, row: usize) -> f64 {
        let n = self.n;
        let y_new = &self.d_next[..n];
        let r = &self.d_next[row * n..(row + 1) * n];
        let mut sum = 0.0;
        for i in 0..n {
            let sc = self.tol.atol[i] + self.tol.rtol[i] * y_new[i].abs();
            let e = c * r[i] / sc;
            sum += e * e;
        }
        (sum / n as f64).sqrt()
    }

    /// The order and step factor after the pending step with error norm `err`, or
    /// None while fewer than k + 1 equal steps were taken at order k (Shampine &
    /// Reichelt §2.2; SciPy's `_step_impl`).
    fn select(&self, p: Pending, err: f64) -> Option<(usize, f64)> {
        let k = p.order;
        // n_equal counts the pending step once it is committed.
        if self.n_equal + 1 < k + 1 {
            return None;
        }
        let err_m = if k > 1 {
            self.norm_of(self.error_const[k - 1], k)
        } else {
            f64::INFINITY
        };
        let err_p = if k < self.max_order {
            self.norm_of(self.error_const[k + 1], k + 2)
        } else {
            f64::INFINITY
        };
        let factor_of = |e: f64, q: usize| {
            if e == 0.0 {
                f64::INFINITY
            } else {
                math::powf(e, -1.0 / q as f64)
            }
        };
        let factors = [
            factor_of(err_m, k),
            factor_of(err, k + 1),
            factor_of(err_p, k + 2),
        ];
        // numpy's argmax: the first largest; a NaN counts as not larger.
        let mut best = 0;
        for i in 1..3 {
            if factors[i] > factors[best] || factors[best].is_nan() {
                best = i;
            }
        }
        let order = k + best - 1;
        let safety = safety(p.iterations);
        let factor = (safety * factors[best]).min(MAX_FACTOR);
        Some((order, if factor.is_nan() { 1.0 } else { factor }))
    }

    /// Rescales D from spacing h_d to h (Shampine & Reichelt §2.2: D ← (RU)ᵀ D, SciPy's
    /// `change_D`).
    fn change_d(&mut self, h: f64) {
        let k = self.order;
        let factor = h / self.h_d;
        let r = compute_r(k, factor);
        let u = compute_r(k, 1.0);
        // RU, (k+1) × (k+1).
        let mut ru = [[0.0; MAX_ORDER + 1]; MAX_ORDER + 1];
        for i in 0..=k {
            for j in 0..=k {
                let mut s = 0.0;
                for l in 0..=k {
                    s += r[i][l] * u[l][j];
                }
                ru[i][j] = s;
            }
        }
        let n = self.n;
        // D_new[j] = Σ_i RU[i][j] D[i], into d_next then back.
        for j in 0..=k {
            for c in 0..n {
                let mut s = 0.0;
                for (i, row) in ru.iter().enumerate().take(k + 1) {
                    s += row[j] * self.d[i * n + c];
                }
                self.d_next[j * n + c] = s;
            }
        }
        self.d[..(k + 1) * n].copy_from_slice(&self.d_next[..(k + 1) * n]);
        self.h_d = h;
        self.n_equal = 0;
    }

    /// Makes sure the LU of I − cJ exists (a fresh J at (t, y) if none is held).
    fn factorise(
        &mut self,
        sys: &dyn System,
        (t, y): (f64, &[f64]),
        c: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        if self.lu_valid {
            return Ok(());
        }
        let jac = if self.have_jac {
            match self.provider.held() {
                Some(j) => j,
                None => self.provider.fresh(sys, t, y, stats)?,
            }
        } else {
            self.have_jac = true;
            self.provider.fresh(sys, t, y, stats)?
        };
        StepMatrix::in_kept(&mut self.lu, jac, 1.0, c, WHAT, t, h, stats).map_err(|e| match e {
            OdeError::SingularMatrix { what, .. } => OdeError::NewtonFailed {
                t,
                h,
                iterations: 0,
                reason: NewtonReason::Singular { what },
            },
            other => other,
        })?;
        self.lu_valid = true;
        Ok(())
    }

    /// SciPy's `solve_bdf_system`: simplified Newton from the predictor for the
    /// correction `corr`; the iterate ends in `y`. Ok(iterations) when it converged,
    /// Err(why not) otherwise.
    fn newton(
        &mut self,
        sys: &dyn System,
        (t, h, t_new, c): (f64, f64, f64, f64),
        y: &mut [f64],
        stats: &mut Stats,
    ) -> Result<Result<u32, (u32, NewtonReason)>, OdeError> {
        let n = self.n;
        y.copy_from_slice(&self.y_pred);
        self.corr.fill(0.0);
        let mut norm_old: Option<f64> = None;
        let mut rate = 0.0;
        for k in 0..NEWTON_MAXITER {
            sys.rhs(t_new, y, &mut self.f);
            stats.nfev += 1;
            stats.nnewton += 1;
            if let Some(component) = self.f.iter().position(|v| !v.is_finite()) {
                return Ok(Err((k + 1, NewtonReason::NotFinite { component })));
            }
            for i in 0..n {
                self.dy[i] = c * self.f[i] - self.psi[i] - self.corr[i];
            }
            // Built only on the error path (a String would be allocated every iteration).
            let lu = self.lu.as_ref().ok_or_else(|| OdeError::SingularMatrix {
                what: WHAT.into(),
                t,
                h,
            })?;
            if let Err(e) = lu.solve_slice(&mut self.dy) {
                return match e {
                    OdeError::SingularMatrix { what, .. } => {
                        Ok(Err((k + 1, NewtonReason::Singular { what })))
                    }
                    other => Err(other),
                };
            }
            let mut sum = 0.0;
            for i in 0..n {
                let e = self.dy[i] / self.scale[i];
                sum += e * e;
            }
            let dy_norm = (sum / n as f64).sqrt();
            if let Some(old) = norm_old {
                rate = dy_norm / old;
                let left = (NEWTON_MAXITER - k) as i32;
                if rate.is_nan()
                    || rate >= 1.0
                    || math::powi(rate, left) / (1.0 - rate) * dy_norm > self.newton_tol
                {
                    let reason = if rate < 1.0 {
                        NewtonReason::SlowContraction { theta: rate }
                    } else {
                        NewtonReason::Diverged { theta: rate }
                    };
                    return Ok(Err((k + 1, reason)));
                }
            }
            for ((v, c), d) in y.iter_mut().zip(self.corr.iter_mut()).zip(&self.dy) {
                *v += d;
                *c += d;
            }
            if dy_norm == 0.0
                || (norm_old.is_some() && rate / (1.0 - rate) * dy_norm < self.newton_tol)
            {
                return Ok(Ok(k + 1));
            }
            norm_old = Some(dy_norm);
        }
        Ok(Err((
            NEWTON_MAXITER,
            NewtonReason::SlowContraction { theta: rate },
        )))
    }
}

/// SciPy's `newton_tol`: max(10 u / rtol, min(0.03, √rtol)).
fn newton_tolerance(tol: &Tolerance) -> f64 {
    let rtol = tol.rtol_min();
    (10.0 * f64::EPSILON / rtol).max(0.03_f64.min(rtol.sqrt()))
}

/// The step-size safety factor after a Newton iteration of `iterations` corrections
/// (SciPy: 0.9 (2·4 + 1)/(2·4 + n_iter)).
fn safety(iterations: u32) -> f64 {
    let m = NEWTON_MAXITER as f64;
    0.9 * (2.0 * m + 1.0) / (2.0 * m + iterations as f64)
}

/// The (k+1) × (k+1) matrix R of Shampine & Reichelt §2.2 for a step ratio `factor`:
/// row 0 ones, M[i][j] = (i − 1 − factor·j)/i, cumulative products down the columns
/// (SciPy's `compute_R`).
fn compute_r(k: usize, factor: f64) -> [[f64; MAX_ORDER + 1]; MAX_ORDER + 1] {
    let mut m = [[0.0; MAX_ORDER + 1]; MAX_ORDER + 1];
    m[0][..=k].fill(1.0);
    for i in 1..=k {
        for j in 1..=k {
            m[i][j] = (i as f64 - 1.0 - factor * j as f64) / i as f64;
        }
    }
    for i in 1..=k {
        for j in 0..=k {
            m[i][j] *= m[i - 1][j];
        }
    }
    m
}

impl Stepper for Bdf {
    fn info(&self) -> &MethodInfo {
        self.info
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
        let n = self.n;
        match self.pending {
            Some(p) if super::history::same_time(t, p.t_new) => {
                self.commit(p);
                // The model may have adjusted the state after the step (a projection).
                self.d[..n].copy_from_slice(y);
            }
            _ if self.started && super::history::same_time(t, self.t_base) => {
                self.pending = None;
            }
            _ => self.restart(sys, t, y, h, stats)?,
        }
        if h != self.h_d {
            self.change_d(h);
            if !self.keep_lu {
                self.lu_valid = false;
            }
        }
        self.keep_lu = false;
        let k = self.order;
        self.last_order = k;
        let t_new = t + h;
        // Predictor y⁽⁰⁾ = Σ_{j≤k} D[j]; ψ = Σ_{j=1}^{k} γ_j D[j] / α_k.
        self.y_pred.fill(0.0);
        self.psi.fill(0.0);
        for j in 0..=k {
            let g = self.gamma[j] / self.alpha[k];
            for i in 0..n {
                let v = self.d[j * n + i];
                self.y_pred[i] += v;
                if j >= 1 {
                    self.psi[i] += g * v;
                }
            }
        }
        for i in 0..n {
            self.scale[i] = self.tol.atol[i] + self.tol.rtol[i] * self.y_pred[i].abs();
        }
        let c = h / self.alpha[k];
        let iterations = loop {
            self.factorise(sys, (t, y), c, h, stats)?;
            match self.newton(sys, (t, h, t_new, c), y_out, stats)? {
                Ok(iterations) => break iterations,
                Err((iterations, reason)) => {
                    if self.jac_current {
                        return Err(OdeError::NewtonFailed {
                            t,
                            h,
                            iterations,
                            reason,
                        });
                    }
                    // A stale J: evaluate it at the predictor and try again.
                    let y_pred = std::mem::take(&mut self.y_pred);
                    let fresh = self.provider.fresh(sys, t_new, &y_pred, stats).map(|_| ());
                    self.y_pred = y_pred;
                    fresh?;
                    self.have_jac = true;
                    self.jac_current = true;
                    self.lu_valid = false;
                }
            }
        };
        // The error estimate and the differences after this step (committed when the
        // next step starts at t_new).
        for i in 0..n {
            self.est[i] = self.error_const[k] * self.corr[i];
        }
        let rows = (k + 3).min(MAX_ORDER + 3);
        self.d_next[..rows * n].copy_from_slice(&self.d[..rows * n]);
        if k + 2 < MAX_ORDER + 3 {
            for i in 0..n {
                self.d_next[(k + 2) * n + i] = self.corr[i] - self.d[(k + 1) * n + i];
            }
        }
        self.d_next[(k + 1) * n..(k + 2) * n].copy_from_slice(&self.corr);
        for j in (0..=k).rev() {
            for i in 0..n {
                self.d_next[j * n + i] = self.d[j * n + i] + self.d_next[(j + 1) * n + i];
            }
        }
        self.pending = Some(Pending {
            t_new,
            h,
            order: k,
            iterations,
            decided: false,
        });
        Ok(())
    }

    fn set_tolerance(&mut self, tolerance: &Tolerance) {
        self.tol = tolerance.clone();
        self.newton_tol = newton_tolerance(tolerance);
    }

    fn step_control(&mut self) -> Option<&mut dyn StepControl> {
        Some(self)
    }

    fn error_estimate(&self) -> Option<&[f64]> {
        Some(&self.est)
    }

    fn order_used(&self) -> Option<u32> {
        Some(self.last_order as u32)
    }

    fn dense_output(
        &mut self,
        _sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = self.n;
        let Some(p) = self.pending else {
            out.copy_from_slice(&self.d[..n]);
            return Ok(());
        };
        // p(t_{n+1} + (θ − 1)h) = D[0] + Σ_{j=1}^{k} D[j] Π_{i<j} (θ − 1 + i)/(i + 1).
        out.copy_from_slice(&self.d_next[..n]);
        let mut prod = 1.0;
        for j in 1..=p.order {
            let i = (j - 1) as f64;
            prod *= (theta - 1.0 + i) / (i + 1.0);
            for (o, v) in out.iter_mut().zip(&self.d_next[j * n..(j + 1) * n]) {
                *o += prod * v;
            }
        }
        Ok(())
    }
}

impl StepControl for Bdf {
    fn after_accept(&mut self, h: f64, err: f64, _after_reject: bool) -> f64 {
        let Some(mut p) = self.pending else {
            return h;
        };
        let choice = self.select(p, err);
        p.decided = true;
        self.pending = Some(p);
        match choice {
            Some((order, factor)) => {
                self.decision = Some(order);
                h * factor
            }
            None => {
                self.decision = None;
                h
            }
        }
    }

    fn after_reject(&mut self, h: f64, err: f64) -> f64 {
        let (k, iterations) = self
            .pending
            .map_or((self.order, NEWTON_MAXITER), |p| (p.order, p.iterations));
        let grow = if err.is_finite() && err > 0.0 {
            safety(iterations) * math::powf(err, -1.0 / (k + 1) as f64)
        } else {
            0.0
        };
        // SciPy keeps the LU after an error rejection (its Newton converged).
        self.keep_lu = true;
        h * grow.max(MIN_FACTOR)
    }

    fn after_failure(&mut self, h: f64) -> f64 {
        self.lu_valid = false;
        self.keep_lu = false;
        0.5 * h
    }
}
