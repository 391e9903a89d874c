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
            // BDF2 looks back past a short step an event cut (`bdf2_previous`).
            history: History::new(3),
            psi: vec![0.0; dim],
            newton: newton::Workspace::default(),
            ends: StepEnds::new(dim),
        }
    }
}

/// Largest ratio ω = h_n / h_{n−1} BDF2 takes: the variable-step formula is zero-stable
/// for ω < 1 + √2 (Hairer, Nørsett & Wanner, Solving ODEs I, §III.5).
const MAX_OMEGA: f64 = 2.4;

impl ImplicitStepper {
    /// Starts a BDF2 step from (t, y) of size h: the history point it uses with y (the
    /// k-th newest) and ω = h / (t − t_k), or None for a backward Euler start-up (no
    /// earlier point, or every one so close that ω would pass [`MAX_OMEGA`]). An event
    /// cut leaves uneven steps; instead of starting up again (an O(h²) error at every
    /// event, 100× on a harmonic oscillator with a watched event), the formula for
    /// uneven steps continues. Equal steps give ω = 1 exactly.
    fn bdf2_previous(&mut self, t: f64, y: &[f64], h: f64) -> Option<(usize, f64)> {
        let n = self.history.begin_uneven(t, y);
        (1..n).find_map(|k| {
            let spacing = t - self.history.back(k).t;
            if super::history::same_time(spacing, h) || (spacing - h).abs() <= 1e-9 * h.abs() {
                return Some((k, 1.0));
            }
            let omega = h / spacing;
            (spacing > 0.0 && omega <= MAX_OMEGA).then_some((k, omega))
        })
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
        let previous = match self.formula {
            Formula::Bdf2 => self.bdf2_previous(t, y, h),
            Formula::BackwardEuler => None,
        };
        let (beta, what) = if let Some((k, omega)) = previous {
            let y_prev = &self.history.back(k).y;
            if omega == 1.0 {
                // Schwab & Delhaes §7.8 (corrected, the Sources panel's errata): y1 = 4/3 y0 − 1/3 y−1 + 2/3 h f(t1, y1).
                for i in 0..y.len() {
                    self.psi[i] = (4.0 * y[i] - y_prev[i]) / 3.0;
                }
                (2.0 / 3.0, "I − (2/3)hJ of the BDF2 Newton iteration")
            } else {
                // The variable-step BDF2 (Hairer, Nørsett & Wanner, Solving ODEs I, §III.5,
                // ω = h_n / h_{n−1}): y1 = ((1+ω)² y0 − ω² y−1)/(1+2ω) + h (1+ω)/(1+2ω) f(t1, y1);
                // ω = 1 is the formula above. A step cut by an event keeps order 2.
                let d = 1.0 + 2.0 * omega;
                let (a0, a1) = ((1.0 + omega) * (1.0 + omega) / d, omega * omega / d);
                for i in 0..y.len() {
                    self.psi[i] = a0 * y[i] - a1 * y_prev[i];
                }
                (
                    (1.0 + omega) / d,
                    "I − βhJ of the variable-step BDF2 Newton iteration",
                )
            }
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
