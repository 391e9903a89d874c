//! Newton's method for the implicit stage of `backward-euler`, `bdf2` and the
//! diagonally implicit stages of `custom` (`dirk.rs`):
//!
//! ```text
//! G(y) = y − ψ − hβ f(t_new, y) = 0,   (I − hβJ) Δ = −G(y^k),   y^{k+1} = y^k + Δ
//! ```
//!
//! (backward Euler: ψ = y_n, β = 1, Schwab & Delhaes, Lecture Notes Multibody Dynamics
//! B, §7.7; BDF2: ψ = (4y_n − y_{n−1})/3, β = 2/3, §7.8 with its misprints corrected).
//! These methods run on a fixed grid, so there is no smaller step to fall back on: the
//! iteration runs until it converges or shows that it cannot, after Hairer & Wanner,
//! Solving Ordinary Differential Equations II (1996), §IV.8, "stopping criterion".
//!
//! - **Simplified Newton first.** J is the provider's at the start of the step, and
//!   I − hβJ is factorised once (dense or sparse LU, `crate::linear_solver`) in the
//!   storage a [`Workspace`] keeps, so a step allocates nothing.
//! - **Contraction rate.** θₖ = ‖Δₖ‖/‖Δₖ₋₁‖ over the corrections made with one LU, in
//!   the scaled norm max_i |Δ_i|/(ATOL + RTOL |y_i|). The iteration has converged when
//!   ‖Δₖ‖ ≤ 1 or, once θ is known and below 1, when the predicted remaining error
//!   θ/(1 − θ)·‖Δₖ‖ ≤ 1 (HW II eq. 8.10 with κ·Tol = 1 on this tight scale).
//! - **A fresh Jacobian when the iteration is poor.** When θ ≥ 1 (the corrections
//!   grow) or the predicted error after the iterations left, θ^(left)·θ/(1 − θ)·‖Δₖ‖,
//!   stays above 1 (too slow to finish), J is evaluated at the current iterate, I − hβJ
//!   refactorised, and the correction of this iterate solved again with it (the residual
//!   is already known: no extra f). A slow iteration thus becomes full Newton, which
//!   converges quadratically near a root: Robertson at h = 1 from the start state, where
//!   J at the start has no y₂ terms, needs this.
//! - **When it gives up.** Corrections that still grow right after J was evaluated at
//!   the previous iterate: Newton itself diverges from here ([`NewtonReason::Diverged`]).
//!   [`MAX_ITERATIONS`] evaluations of f without converging:
//!   [`NewtonReason::SlowContraction`]. A singular I − hβJ at any iterate:
//!   [`NewtonReason::Singular`]; a non-finite f at an iterate: [`NewtonReason::NotFinite`].
//!   Each is [`OdeError::NewtonFailed`] at the step's (t, h).

use crate::error::{NewtonReason, OdeError};
use crate::jacobian::JacobianProvider;
use crate::linear_solver::{Jacobian, StepMatrix};
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::DVector;

/// Newton stops at a correction below ATOL + RTOL |y| in every component: far below
/// the discretisation error of a first- or second-order method at any sensible h, and
/// far above round-off (u ≈ 1.1e-16).
pub const NEWTON_RTOL: f64 = 1e-10;
pub const NEWTON_ATOL: f64 = 1e-12;
/// Evaluations of f (one per correction) a solve may use at most. A contracting
/// iteration gets them all; a diverging one stops long before.
pub const MAX_ITERATIONS: u32 = 30;

/// The implicit equation of one step.
pub struct Implicit<'a> {
    pub t: f64,
    pub h: f64,
    pub t_new: f64,
    /// ψ: the known part.
    pub psi: &'a [f64],
    /// β: the weight of h f(t_new, y).
    pub beta: f64,
    pub what: &'static str,
}

impl Implicit<'_> {
    fn failed(&self, iterations: u32, reason: NewtonReason) -> OdeError {
        OdeError::NewtonFailed {
            t: self.t,
            h: self.h,
            iterations,
            reason,
        }
    }

    /// A singular I − hβJ (from its factorisation or solve) as a Newton failure.
    fn singular(&self, iterations: u32, e: OdeError) -> OdeError {
        match e {
            OdeError::SingularMatrix { what, .. } => {
                self.failed(iterations, NewtonReason::Singular { what })
            }
            other => other,
        }
    }

    /// rhs = −G(y) = −(y − ψ − hβ f).
    fn residual(&self, y: &[f64], f: &[f64], rhs: &mut DVector<f64>) {
        let hb = self.h * self.beta;
        for i in 0..y.len() {
            rhs[i] = -(y[i] - self.psi[i] - hb * f[i]);
        }
    }
}

/// The buffers [`solve`] keeps between steps (f, the Newton right-hand side and the LU
/// of I − hβJ, refactorised in its own storage): a step allocates nothing once they
/// exist.
#[derive(Default)]
pub struct Workspace {
    f: Vec<f64>,
    rhs: DVector<f64>,
    lu: Option<StepMatrix>,
}

/// I − hβJ for J, in the LU the workspace keeps.
fn factorise<'a>(
    kept: &'a mut Option<StepMatrix>,
    jac: &Jacobian,
    eq: &Implicit,
    stats: &mut Stats,
) -> Result<&'a StepMatrix, OdeError> {
    let c = eq.h * eq.beta;
    StepMatrix::in_kept(kept, jac, 1.0, c, eq.what, eq.t, eq.h, stats)
}

/// max_i |Δ_i|/(ATOL + RTOL |y_i + Δ_i|): the correction against the tolerance at the
/// iterate it leads to.
fn scaled_norm(delta: &DVector<f64>, y: &[f64]) -> f64 {
    let mut size: f64 = 0.0;
    for (d, v) in delta.iter().zip(y) {
        size = size.max(d.abs() / (NEWTON_ATOL + NEWTON_RTOL * (v + d).abs()));
    }
    size
}

/// Solves the implicit equation from the predictor `y` (overwritten with the solution);
/// J comes from `provider` at (t, y_start), and is refreshed at the iterates when the
/// iteration contracts poorly.
pub fn solve(
    sys: &dyn System,
    provider: &mut JacobianProvider,
    eq: &Implicit,
    y_start: &[f64],
    y: &mut [f64],
    work: &mut Workspace,
    stats: &mut Stats,
) -> Result<(), OdeError> {
    let n = y.len();
    let Workspace { f, rhs, lu: kept } = work;
    if f.len() != n {
        *f = vec![0.0; n];
        *rhs = DVector::zeros(n);
    }
    // The LU of the step's J, made after f at the predictor is known to be finite (a
    // non-finite f is the precise reason, rather than the matrix it makes singular).
    let mut lu = None;
    // Corrections made with the current LU, the last one's norm, and whether the LU's
    // J was evaluated in this solve (at the iterate its corrections started from).
    let mut with_lu = 0u32;
    let mut previous = 0.0;
    let mut refreshed = false;
    let mut theta = 0.0;
    for iteration in 1..=MAX_ITERATIONS {
        sys.rhs(eq.t_new, y, f);
        stats.nfev += 1;
        stats.nnewton += 1;
        if let Some(component) = f.iter().position(|v| !v.is_finite()) {
            return Err(eq.failed(iteration, NewtonReason::NotFinite { component }));
        }
        let step_lu = match lu {
            Some(kept_lu) => kept_lu,
            None => {
                let (jac, _) = provider.at_any(sys, eq.t, y_start, stats)?;
                factorise(kept, jac, eq, stats).map_err(|e| eq.singular(0, e))?
            }
        };
        lu = Some(step_lu);
        eq.residual(y, f, rhs);
        step_lu
            .solve_in_place(rhs)
            .map_err(|e| eq.singular(iteration, e))?;
        let mut size = scaled_norm(rhs, y);
        let mut converged = size <= 1.0;
        if !converged && with_lu >= 1 {
            theta = size / previous;
            // θ ≥ 1 (or not a number: an overflowing correction) diverges; otherwise
            // the error predicted after the iterations left must reach the tolerance.
            let eta = theta / (1.0 - theta);
            let left = (MAX_ITERATIONS - iteration) as i32;
            let contracting = theta < 1.0;
            converged = contracting && eta * size <= 1.0;
            let on_time = contracting && eta * size * crate::math::powi(theta, left) <= 1.0;
            if !converged && !on_time {
                if refreshed && with_lu == 1 && !contracting {
                    // J was evaluated at the previous iterate and its full Newton
                    // correction still grew.
                    return Err(eq.failed(iteration, NewtonReason::Diverged { theta }));
                }
                let jac = provider.fresh(sys, eq.t_new, y, stats)?;
                let fresh_lu =
                    factorise(kept, jac, eq, stats).map_err(|e| eq.singular(iteration, e))?;
                lu = Some(fresh_lu);
                refreshed = true;
                with_lu = 0;
                eq.residual(y, f, rhs);
                fresh_lu
                    .solve_in_place(rhs)
                    .map_err(|e| eq.singular(iteration, e))?;
                size = scaled_norm(rhs, y);
                converged = size <= 1.0;
            }
        }
        for (v, d) in y.iter_mut().zip(rhs.iter()) {
            *v += d;
        }
        if converged {
            return Ok(());
        }
        with_lu += 1;
        previous = size;
    }
    Err(eq.failed(MAX_ITERATIONS, NewtonReason::SlowContraction { theta }))
}
