//! `implicit-midpoint`: y_{n+1} = y_n + h f(t_n + h/2, (y_n + y_{n+1})/2), the one-stage
//! Gauss collocation method (Butcher tableau c = ½, A = (½), b = (1)). Hairer, Lubich &
//! Wanner, Geometric Numerical Integration, 2nd ed. (2006), §I.1.2 and §II.1.1: order 2,
//! symmetric, symplectic (HLW Theorem VI.4.2) and conserving every quadratic invariant
//! yᵀCy of the flow exactly (HLW Theorem IV.2.2), e.g. the energy of the harmonic
//! oscillator, up to round-off and the Newton tolerance. On y' = λy,
//! R(z) = (1 + z/2)/(1 − z/2): |R(iy)| = 1 and |R(z)| < 1 for Re z < 0 (A-stable, not
//! L-stable: R(−∞) = −1, stiff components flip sign instead of decaying).
//!
//! The step solves for the midpoint u = (y_n + y_{n+1})/2, which satisfies
//! u = y_n + (h/2) f(t_n + h/2, u): a backward Euler step of h/2, by the Newton
//! iteration of `newton.rs` (ψ = y_n, β = ½, an LU of I − (h/2)J); then
//! y_{n+1} = 2u − y_n. Dense output: cubic Hermite on f at both ends.

use super::hermite::StepEnds;
use super::newton::{self, Implicit};
use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::problem::System;
use crate::stats::Stats;

pub const INFO: MethodInfo = MethodInfo {
    id: "implicit-midpoint",
    name: "Implicit midpoint",
    order: 2,
    family: "implicit symplectic Runge–Kutta (Gauss, Newton)",
    source:
        "Hairer, Lubich & Wanner, Geometric Numerical Integration (2006), §I.1.2, §II.1.1, §VI.3",
    stages: 1,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 2,
    second_order: false,
    needs_jacobian: true,
    l_stable: false,
    partitioned: false,
    sparse: true,
};

/// Whole engine only (`full`): its Newton iteration is code the first-load package
/// does not carry (as for backward Euler).
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Diagonal(A, B),
}
.full();

/// The Butcher tableau A = (½), b = (1) (HLW §II.1.1): R(z) = (1 + z/2)/(1 − z/2).
pub const A: &[&[f64]] = &[&[0.5]];
pub const B: &[f64] = &[1.0];

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(ImplicitMidpoint::new(dim, options.jacobian)))
}

pub struct ImplicitMidpoint {
    provider: JacobianProvider,
    newton: newton::Workspace,
    /// The last step's ends and slopes (dense output).
    ends: StepEnds,
}

impl ImplicitMidpoint {
    pub fn new(dim: usize, jacobian: JacobianOptions) -> Self {
        Self {
            provider: JacobianProvider::new(INFO.id, jacobian).sparse_if(INFO.sparse),
            newton: newton::Workspace::default(),
            ends: StepEnds::new(dim),
        }
    }
}

impl Stepper for ImplicitMidpoint {
    fn info(&self) -> &MethodInfo {
        &INFO
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
        let f_start = self.ends.carry_f(t, y);
        // Predictor u = y_n; Newton does the rest.
        y_out.copy_from_slice(y);
        let eq = Implicit {
            t,
            h,
            t_new: t + 0.5 * h,
            psi: y,
            beta: 0.5,
            what: "I − (h/2)J of the implicit midpoint Newton iteration",
        };
        newton::solve(
            sys,
            &mut self.provider,
            &eq,
            y,
            y_out,
            &mut self.newton,
            stats,
        )?;
        for (out, &start) in y_out.iter_mut().zip(y) {
            *out = 2.0 * *out - start;
        }
        self.ends.record_carried(t, h, y, y_out, f_start);
        Ok(())
    }

    fn dense_output(
        &mut self,
        sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.ends.interpolate(sys, theta, out, stats);
        Ok(())
    }
}
