//! A diagonally implicit Runge–Kutta step over a user's tableau: stage by
//! stage, Y_i = y_n + h Σ_{j<i} a_ij k_j + h a_ii f(t_n + c_i h, Y_i), each implicit
//! stage solved by the simplified Newton iteration of `newton.rs` (ψ = the known part,
//! β = a_ii; J at the start of the step, re-factorised per stage), Hairer–Wanner II
//! §IV.6 and §IV.8. The stage derivative is taken as k_i = (Y_i − ψ_i)/(h a_ii) rather
//! than f(Y_i) (HW II §IV.8, "the use of f(Y_i) can be dangerous for stiff problems":
//! the Newton residual would be amplified by the stiff Jacobian); explicit stages
//! (a_ii = 0) are evaluated directly. y_{n+1} = y_n + h Σ b_i k_i; with b̂ the local
//! error estimate is h Σ (b_i − b̂_i) k_i. Dense output: the cubic Hermite interpolant.

use super::hermite::StepEnds;
use super::newton::{self, Implicit};
use super::{MethodInfo, Stepper};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::problem::System;
use crate::stats::Stats;
use crate::tableau::ButcherTableau;

/// What a singular Newton matrix is called in errors.
const NEWTON_MATRIX: &str = "I − h·a_ii·J of a diagonally implicit stage";

pub struct Dirk {
    info: MethodInfo,
    a: Vec<Vec<f64>>,
    b: Vec<f64>,
    c: Vec<f64>,
    error_weights: Option<Vec<f64>>,
    provider: JacobianProvider,
    k: Vec<Vec<f64>>,
    psi: Vec<f64>,
    stage: Vec<f64>,
    error: Vec<f64>,
    newton: newton::Workspace,
    /// The last step's ends and slopes (dense output).
    ends: StepEnds,
}

impl Dirk {
    pub fn new(info: MethodInfo, tab: &ButcherTableau, dim: usize, jac: JacobianOptions) -> Self {
        let s = tab.stages();
        Self {
            provider: JacobianProvider::new(info.id, jac),
            info,
            a: tab.a.clone(),
            b: tab.b.clone(),
            c: tab.c.clone(),
            error_weights: tab
                .b_hat
                .as_ref()
                .map(|bh| tab.b.iter().zip(bh).map(|(b, bh)| b - bh).collect()),
            k: vec![vec![0.0; dim]; s],
            psi: vec![0.0; dim],
            stage: vec![0.0; dim],
            error: vec![0.0; dim],
            newton: newton::Workspace::default(),
            ends: StepEnds::new(dim),
        }
    }
}

/// out = y + h Σ_j w_j k_j over the non-zero weights.
fn combine(out: &mut [f64], y: &[f64], h: f64, w: &[f64], k: &[Vec<f64>]) {
    out.copy_from_slice(y);
    for (&wj, kj) in w.iter().zip(k) {
        if wj != 0.0 {
            for (o, kv) in out.iter_mut().zip(kj) {
                *o += h * wj * kv;
            }
        }
    }
}

impl Stepper for Dirk {
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
        // f at the start, for the dense output: kept from a retry, or the last step's end
        // slope if the dense output evaluated it there.
        let f_start = self.ends.carry_f(t, y);
        for i in 0..self.b.len() {
            combine(&mut self.psi, y, h, &self.a[i][..i], &self.k[..i]);
            let t_stage = t + self.c[i] * h;
            let aii = self.a[i][i];
            if aii == 0.0 {
                sys.rhs(t_stage, &self.psi, &mut self.k[i]);
                stats.nfev += 1;
                continue;
            }
            self.stage.copy_from_slice(&self.psi);
            let eq = Implicit {
                t,
                h,
                t_new: t_stage,
                psi: &self.psi,
                beta: aii,
                what: NEWTON_MATRIX,
            };
            newton::solve(
                sys,
                &mut self.provider,
                &eq,
                y,
                &mut self.stage,
                &mut self.newton,
                stats,
            )?;
            for ((kv, s), p) in self.k[i].iter_mut().zip(&self.stage).zip(&self.psi) {
                *kv = (s - p) / (h * aii);
            }
        }
        combine(y_out, y, h, &self.b, &self.k);
        if let Some(e) = &self.error_weights {
            let zero = vec![0.0; y.len()];
            combine(&mut self.error, &zero, h, e, &self.k);
        }
        self.ends.record_carried(t, h, y, y_out, f_start);
        Ok(())
    }

    fn error_estimate(&self) -> Option<&[f64]> {
        self.error_weights.as_ref().map(|_| &self.error[..])
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
