//! The one stepper behind `backward-euler` and `bdf2`: a Newton solve (`newton.rs`) of
//! y_{n+1} = ψ + hβ f(t_{n+1}, y_{n+1}) per step, with the history of `history.rs` for
//! BDF2's y_{n−1}, and the cubic Hermite dense output on f at both ends (f at the end
//! is evaluated once when asked and kept for the next step).

use super::hermite::StepEnds;
use super::history::History;
use super::newton::{self, Implicit};
use super::{MethodInfo, Stepper};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::problem::System;
use crate::stats::Stats;

/// Which formula: one-step backward Euler, or BDF2 (started by one backward Euler step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formula {
    BackwardEuler,
    Bdf2,
}

pub struct ImplicitStepper {
    info: &'static MethodInfo,
    formula: Formula,
    provider: JacobianProvider,
    history: History,
    psi: Vec<f64>,
    newton: newton::Workspace,
    /// The last step's ends and slopes (dense output).
    ends: StepEnds,
}

impl ImplicitStepper {
    pub fn new(
        info: &'static MethodInfo,
        formula: Formula,
        dim: usize,
        jacobian: JacobianOptions,
    ) -> Self {
        Self {
            info,
            formula,
            provider: JacobianProvider::new(info.id, jacobian).sparse(),
            history: History::new(2),
            psi: vec![0.0; dim],
            newton: newton::Workspace::default(),
            ends: StepEnds::new(dim),
        }
    }
}

impl Stepper for ImplicitStepper {
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
        // f at the start, for the dense output: kept from a retry, or the last step's end
        // slope if the dense output evaluated it there.
        let f_start = self.ends.carry_f(t, y);
        let usable = self.history.begin(t, y, h);
        let (beta, what) = if self.formula == Formula::Bdf2 && usable >= 2 {
            // Schwab & Delhaes §7.8 (corrected, the Sources panel's errata): y1 = 4/3 y0 − 1/3 y−1 + 2/3 h f(t1, y1).
            let y_prev = &self.history.back(1).y;
            for i in 0..y.len() {
                self.psi[i] = (4.0 * y[i] - y_prev[i]) / 3.0;
            }
            (2.0 / 3.0, "I − (2/3)hJ of the BDF2 Newton iteration")
        } else {
            // Backward Euler (Schwab & Delhaes §7.7), also BDF2's start-up step.
            self.psi.copy_from_slice(y);
            (1.0, "I − hJ of the backward Euler Newton iteration")
        };
        // Predictor: the current state (robust for stiff decay; Newton does the rest).
        y_out.copy_from_slice(y);
        let eq = Implicit {
            t,
            h,
            t_new: t + h,
            psi: &self.psi,
            beta,
            what,
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
        self.history.propose(t + h, y_out, None);
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
