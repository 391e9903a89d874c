//! Newton's method for the implicit stage of `backward-euler` and `bdf2`:
//!
//! ```text
//! G(y) = y − ψ − hβ f(t_new, y) = 0,   (I − hβJ) Δ = −G(y^k),   y^{k+1} = y^k + Δ
//! ```
//!
//! (backward Euler: ψ = y_n, β = 1, seed 002 §7.7; BDF2: ψ = (4y_n − y_{n−1})/3,
//! β = 2/3, 002 §7.8 corrected per `../shared/METHODS.md`). Simplified Newton: J is
//! taken at the start of the step and I − hβJ factorised once (dense or sparse LU,
//! `crate::linear_solver`), refactorised in the storage a [`Workspace`] keeps with the
//! other buffers, so a step allocates nothing. The
//! iteration stops when the scaled correction max_i |Δ_i|/(ATOL + RTOL |y_i|) ≤ 1;
//! if it has not after [`MAX_ITERATIONS`], or the corrections stop shrinking (a
//! diverging or stalled iteration is abandoned early), J is
//! re-evaluated at the latest iterate, re-factorised, and Newton restarts once from
//! the predictor; a second failure is [`OdeError::NewtonFailed`] at (t, h). These
//! methods run on a fixed grid, so there is no step-size reduction to fall back on:
//! the message asks for a smaller h.

use crate::error::OdeError;
use crate::jacobian::JacobianProvider;
use crate::linear_solver::{Jacobian, StepMatrix};
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::DVector;

/// Newton stops at a correction below ATOL + RTOL |y| in every component: far below
/// the discretisation error of a first- or second-order method at any sensible h.
pub const NEWTON_RTOL: f64 = 1e-10;
pub const NEWTON_ATOL: f64 = 1e-12;
/// Iterations per attempt (two attempts: J from the step start, then refreshed).
pub const MAX_ITERATIONS: u32 = 10;

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

/// The buffers [`solve`] keeps between steps (the predictor, f, the Newton right-hand
/// side and the LU of I − hβJ, refactorised in its own storage): a step allocates
/// nothing once they exist.
#[derive(Default)]
pub struct Workspace {
    predictor: Vec<f64>,
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

/// Solves the implicit equation from the predictor `y` (overwritten with the solution);
/// J comes from `provider` at (t, y_start).
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
    let Workspace {
        predictor,
        f,
        rhs,
        lu: kept,
    } = work;
    if f.len() != n {
        *predictor = vec![0.0; n];
        *f = vec![0.0; n];
        *rhs = DVector::zeros(n);
    }
    predictor.copy_from_slice(y);
    let mut iterations = 0;
    for attempt in 0..2 {
        let lu = if attempt == 0 {
            let (jac, _) = provider.at_any(sys, eq.t, y_start, stats)?;
            factorise(kept, jac, eq, stats)?
        } else {
            // Refresh J at the latest iterate and start again from the predictor.
            let jac = provider.fresh(sys, eq.t_new, y, stats)?;
            let lu = factorise(kept, jac, eq, stats)?;
            y.copy_from_slice(predictor);
            lu
        };
        let mut previous = f64::INFINITY;
        for _ in 0..MAX_ITERATIONS {
            sys.rhs(eq.t_new, y, f);
            stats.nfev += 1;
            stats.nnewton += 1;
            iterations += 1;
            for i in 0..n {
                rhs[i] = -(y[i] - eq.psi[i] - eq.h * eq.beta * f[i]);
            }
            lu.solve_in_place(rhs)?;
            let mut size: f64 = 0.0;
            for i in 0..n {
                y[i] += rhs[i];
                size = size.max(rhs[i].abs() / (NEWTON_ATOL + NEWTON_RTOL * y[i].abs()));
            }
            if !size.is_finite() {
                break;
            }
            if size <= 1.0 {
                return Ok(());
            }
            // Corrections that do not shrink: the iteration diverges or stalls.
            if size >= previous {
                break;
            }
            previous = size;
        }
    }
    Err(OdeError::NewtonFailed {
        t: eq.t,
        h: eq.h,
        iterations,
    })
}
