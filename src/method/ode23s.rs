//! `ode23s`: the modified Rosenbrock pair of order 2(3) of MATLAB's `ode23s` (Shampine &
//! Reichelt, "The MATLAB ODE Suite", SIAM J. Sci. Comput. 18:1–22, 1997, §3), with its
//! error estimate and its free interpolant. With d = 1/(2 + √2), e32 = 6 + √2,
//! W = I − h d J, J = ∂f/∂y and T = ∂f/∂t at the step's start:
//!
//! ```text
//! F0 = f(t_n, y_n)
//! k1 = W⁻¹ (F0 + h d T)
//! F1 = f(t_n + h/2, y_n + h k1/2)
//! k2 = W⁻¹ (F1 − k1) + k1
//! y_{n+1} = y_n + h k2
//! F2 = f(t_{n+1}, y_{n+1})
//! k3 = W⁻¹ [F2 − e32 (k2 − F1) − 2 (k1 − F0) + h d T]
//! error ≈ h/6 (k1 − 2 k2 + k3)
//! ```
//!
//! The solution is of order 2 and L-stable (it is a W-method: order 2 for any J); the
//! estimate is the difference to a third-order solution, so it is O(h³) and the
//! controller's exponent is 1/3 (`embedded_order` below is q = min(p, p̂) = 2 of
//! Negrut et al. 2003 eq. 6). F2 is the next step's F0 (first same as last): two f
//! evaluations, one Jacobian and one LU of W (dense or sparse, through
//! `crate::linear_solver`) per step. A retry after a rejection reuses F0 and J.
//!
//! **Dense output** (Shampine & Reichelt 1997 §3, free): for s ∈ [0, 1],
//! y(t_n + sh) ≈ y_n + h [s(1 − s)/(1 − 2d) k1 + s(s − 2d)/(1 − 2d) k2], of order 2.
//!
//! As a Rosenbrock table (Negrut et al. 2003 eq. 2, stages K_i = h k_i, substituting
//! hF1 = W(K2 − K1) + K1 and hF0 = W K1 − h²dT): γ = d, α21 = ½, γ21 = −d,
//! α32 = 1, γ31 = (e32 − 2)d, γ32 = −e32 d, b = (0, 1, 0) and b̂ = (−⅙, 4/3, −⅙), so that
//! b − b̂ gives the estimate above; the ξ-plane reads R(z) from it.

use super::{MeasuredStep, MethodEntry, MethodInfo, MethodOptions, RosenbrockTableau, Stepper, Xi};
use crate::control::ErrorMeasure;
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::{copy_short, fixed};
use crate::linear_solver::StepMatrix;
use crate::problem::System;
use crate::stats::Stats;

/// d = 1/(2 + √2) (the f64 nearest to 1/(2 + √2) as evaluated in f64).
pub const D: f64 = 0.2928932188134525;
/// e32 = 6 + √2.
pub const E32: f64 = 7.414213562373095;

/// The same method as a Rosenbrock table (module doc), for the ξ-plane and the order
/// conditions.
pub const TABLEAU: RosenbrockTableau = RosenbrockTableau {
    gamma_diag: D,
    alpha: &[&[], &[0.5], &[0.0, 1.0]],
    gamma: &[&[], &[-D], &[(E32 - 2.0) * D, -E32 * D]],
    b: &[0.0, 1.0, 0.0],
    b_hat: &[-1.0 / 6.0, 4.0 / 3.0, -1.0 / 6.0],
};

pub const INFO: MethodInfo = MethodInfo {
    id: "ode23s",
    name: "ode23s (modified Rosenbrock 2(3))",
    order: 2,
    family: "Rosenbrock",
    source: "Shampine & Reichelt, The MATLAB ODE Suite, 1997, §3",
    stages: 2,
    adaptive: true,
    embedded_order: Some(2),
    fsal: true,
    dense_order: 2,
    second_order: false,
    needs_jacobian: true,
    l_stable: true,
    partitioned: false,
    sparse: true,
};

/// The whole engine's only (cargo feature `full`), as the other stiff additions.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Rosenbrock(&TABLEAU),
}
.full();

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Ode23s::new(dim, options.jacobian)))
}

/// The stage vectors (K_i = h k_i) and the slopes.
struct Work {
    k1: Vec<f64>,
    k2: Vec<f64>,
    k3: Vec<f64>,
    f0: Vec<f64>,
    f1: Vec<f64>,
    f2: Vec<f64>,
    arg: Vec<f64>,
    error: Vec<f64>,
}

/// The ode23s stepper.
pub struct Ode23s {
    provider: JacobianProvider,
    lu: Option<StepMatrix>,
    work: Work,
    /// Where `work.f0` was evaluated (the last step's start: a retry reuses it).
    f0_at: Option<f64>,
    /// Where `work.f2` was evaluated (the last step's end: the next step's F0).
    f2_at: Option<f64>,
    /// The last step's start and end.
    y0: Vec<f64>,
    y1: Vec<f64>,
}

impl Ode23s {
    pub fn new(dim: usize, jacobian: JacobianOptions) -> Self {
        let v = || vec![0.0; dim];
        Self {
            provider: JacobianProvider::new(INFO.id, jacobian).sparse_if(INFO.sparse),
            lu: None,
            work: Work {
                k1: v(),
                k2: v(),
                k3: v(),
                f0: v(),
                f1: v(),
                f2: v(),
                arg: v(),
                error: v(),
            },
            f0_at: None,
            f2_at: None,
            y0: v(),
            y1: v(),
        }
    }
}

impl MeasuredStep for Ode23s {
    fn step_measuring(
        &mut self,
        sys: &dyn System,
        (t, y, h): (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let n = y.len();
        let retry = self.f0_at == Some(t) && self.y0.as_slice() == y;
        if !retry {
            if self.f2_at == Some(t) && self.y1.as_slice() == y {
                // First same as last: the last step's F2 is this one's F0.
                std::mem::swap(&mut self.work.f0, &mut self.work.f2);
            } else {
                sys.rhs(t, y, &mut self.work.f0);
                stats.nfev += 1;
            }
            self.f0_at = Some(t);
            copy_short(&mut self.y0, y);
        }
        self.f2_at = None;
        let (jac, ft) = self.provider.at_any(sys, t, y, stats)?;
        let what = "W = I − h d J of the ode23s step";
        let lu = StepMatrix::in_kept(&mut self.lu, jac, 1.0, h * D, what, t, h, stats)?;
        let ft = ft.as_slice();
        let err = match n {
            2 => self
                .work
                .run::<2>(lu, sys, (t, y, h), ft, y_out, stats, measure)?,
            _ => self
                .work
                .run::<0>(lu, sys, (t, y, h), ft, y_out, stats, measure)?,
        };
        copy_short(&mut self.y1, y_out);
        self.f2_at = Some(t + h);
        Ok(err)
    }
}

impl Work {
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run<const N: usize>(
        &mut self,
        lu: &StepMatrix,
        sys: &dyn System,
        (t, y, h): (f64, &[f64], f64),
        ft: &[f64],
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let n = fixed::<N>(y.len());
        let (y, y_out, ft) = (&y[..n], &mut y_out[..n], &ft[..n]);
        let (k1, k2, k3) = (&mut self.k1[..n], &mut self.k2[..n], &mut self.k3[..n]);
        let (f0, f1, f2) = (&self.f0[..n], &mut self.f1[..n], &mut self.f2[..n]);
        let (arg, error) = (&mut self.arg[..n], &mut self.error[..n]);
        let hdh = h * D * h;
        // K1 = W⁻¹ (h F0 + h² d T).
        for ((k, f), tt) in k1.iter_mut().zip(f0).zip(ft) {
            *k = h * f + hdh * tt;
        }
        lu.solve_n::<N>(k1)?;
        for ((a, yi), k) in arg.iter_mut().zip(y).zip(k1.iter()) {
            *a = yi + 0.5 * k;
        }
        sys.rhs(t + 0.5 * h, arg, f1);
        stats.nfev += 1;
        // K2 = W⁻¹ (h F1 − K1) + K1.
        for ((k, f), k1i) in k2.iter_mut().zip(f1.iter()).zip(k1.iter()) {
            *k = h * f - k1i;
        }
        lu.solve_n::<N>(k2)?;
        for ((k, k1i), (yo, yi)) in k2.iter_mut().zip(k1.iter()).zip(y_out.iter_mut().zip(y)) {
            *k += k1i;
            *yo = yi + *k;
        }
        sys.rhs(t + h, y_out, f2);
        stats.nfev += 1;
        // K3 = W⁻¹ [h F2 − e32 (K2 − h F1) − 2 (K1 − h F0) + h² d T].
        for r in 0..n {
            k3[r] = h * f2[r] - E32 * (k2[r] - h * f1[r]) - 2.0 * (k1[r] - h * f0[r]) + hdh * ft[r];
        }
        lu.solve_n::<N>(k3)?;
        for r in 0..n {
            error[r] = (k1[r] - 2.0 * k2[r] + k3[r]) / 6.0;
        }
        Ok(match measure {
            None => 0.0,
            Some(m) => m.of_n::<N>(error, y, y_out),
        })
    }
}

impl Stepper for Ode23s {
    fn info(&self) -> &MethodInfo {
        &INFO
    }

    measured_step!();

    fn error_estimate(&self) -> Option<&[f64]> {
        Some(&self.work.error)
    }

    fn dense_output(
        &mut self,
        _sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let s = theta;
        let w1 = s * (1.0 - s) / (1.0 - 2.0 * D);
        let w2 = s * (s - 2.0 * D) / (1.0 - 2.0 * D);
        let w = &self.work;
        for (r, o) in out.iter_mut().enumerate() {
            *o = self.y0[r] + w1 * w.k1[r] + w2 * w.k2[r];
        }
        Ok(())
    }
}
