//! The one stepper behind `backward-euler` and `bdf2`: a Newton solve (`newton.rs`) of
//! y_{n+1} = ψ + hβ f(t_{n+1}, y_{n+1}) per step, with the history of `history.rs` for
//! BDF2's y_{n−1}, and the cubic Hermite dense output on f at both ends (f at the end
//! is evaluated once when asked and kept for the next step).
//!
//! BDF2 starts (at t0, and again after an event, where the right-hand side may switch and
//! the history before it is not the same smooth solution) with extrapolated backward Euler: two steps of h/2 and
//! one of h, combined as 2·y_{h/2,h/2} − y_h (Richardson; Hairer & Wanner, Solving ODEs II,
//! §IV.9). It is second order, so a start adds an O(h³) local error instead of backward
//! Euler's O(h²), and keeps L-stability: R(z) = 2/(1 − z/2)² − 1/(1 − z) has |R| ≤ 1 on
//! the left half-plane and R(−∞) = 0.

use super::hermite::StepEnds;
use super::history::History;
use super::newton::{self, Implicit};
use super::{MethodInfo, Stepper};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::problem::System;
use crate::stats::Stats;

/// Which formula: one-step backward Euler, or BDF2 (started by extrapolated backward Euler).
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
    /// BDF2's start-up: the state after the first half step, and after both.
    half: Vec<f64>,
    two_halves: Vec<f64>,
    /// Where the last step started, and whether a step was recomputed from there: on the
    /// fixed grid (BDF2's only mode) no step is rejected, so a recomputed step is an event
    /// cut, and the step after it starts BDF2 afresh.
    last_start: f64,
    cut_by_event: bool,
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
            provider: JacobianProvider::new(info.id, jacobian).sparse_if(info.sparse),
            // BDF2 looks back past a short step an event cut (`bdf2_previous`).
            history: History::new(3),
            psi: vec![0.0; dim],
            newton: newton::Workspace::default(),
            ends: StepEnds::new(dim),
            half: vec![0.0; if formula == Formula::Bdf2 { dim } else { 0 }],
            two_halves: vec![0.0; if formula == Formula::Bdf2 { dim } else { 0 }],
            last_start: f64::NAN,
            cut_by_event: false,
        }
    }
}

/// Largest ratio ω = h_n / h_{n−1} BDF2 takes: the variable-step formula is zero-stable
/// for ω < 1 + √2 (Hairer, Nørsett & Wanner, Solving ODEs I, §III.5).
const MAX_OMEGA: f64 = 2.4;

impl ImplicitStepper {
    /// Starts a BDF2 step from (t, y) of size h: the history point it uses with y (the
    /// k-th newest) and ω = h / (t − t_k), or None for a start-up (no earlier point, the
    /// first step after an event, or every point so close that ω would pass
    /// [`MAX_OMEGA`]). The step after an event's start-up is uneven; the formula for
    /// uneven steps takes it. Equal steps give ω = 1 exactly.
    fn bdf2_previous(&mut self, t: f64, y: &[f64], h: f64) -> Option<(usize, f64)> {
        let recomputed = super::history::same_time(t, self.last_start);
        self.last_start = t;
        let mut n = self.history.begin_uneven(t, y);
        if recomputed {
            self.cut_by_event = true;
        } else if std::mem::take(&mut self.cut_by_event) {
            // The run goes on from an event: the points before it may belong to the other
            // side of a switch (a contact that starts: 7× the error on the bouncing balls
            // when BDF2 looked back across it).
            self.history.restart_here();
            n = 1;
        }
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

impl ImplicitStepper {
    /// One Newton solve of y_{n+1} = ψ + hβ f(t + h, y_{n+1}) from the predictor y
    /// (robust for stiff decay; Newton does the rest) into `y_out`: every step of
    /// both formulas. `what` names I − βhJ in a singular-matrix message.
    #[allow(clippy::too_many_arguments)]
    fn newton_step(
        sys: &dyn System,
        provider: &mut JacobianProvider,
        newton: &mut newton::Workspace,
        (t, y, h): (f64, &[f64], f64),
        (psi, beta, what): (&[f64], f64, &'static str),
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        y_out.copy_from_slice(y);
        let eq = Implicit {
            t,
            h,
            t_new: t + h,
            psi,
            beta,
            what,
        };
        newton::solve(sys, provider, &eq, y, y_out, newton, stats)
    }

    /// One backward Euler step of BDF2's start-up (ψ = y, β = 1).
    fn start_euler(
        sys: &dyn System,
        provider: &mut JacobianProvider,
        newton: &mut newton::Workspace,
        (t, y, h): (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let what = "I − hJ of BDF2's start-up (extrapolated backward Euler)";
        Self::newton_step(
            sys,
            provider,
            newton,
            (t, y, h),
            (y, 1.0, what),
            y_out,
            stats,
        )
    }

    /// BDF2's start-up step: 2·(two backward Euler steps of h/2) − (one of h).
    fn extrapolated_start(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let (provider, newton) = (&mut self.provider, &mut self.newton);
        let half = 0.5 * h;
        Self::start_euler(sys, provider, newton, (t, y, half), &mut self.half, stats)?;
        Self::start_euler(
            sys,
            provider,
            newton,
            (t + half, &self.half, half),
            &mut self.two_halves,
            stats,
        )?;
        Self::start_euler(sys, provider, newton, (t, y, h), y_out, stats)?;
        for (out, two) in y_out.iter_mut().zip(&self.two_halves) {
            *out = 2.0 * two - *out;
        }
        Ok(())
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
        if self.formula == Formula::Bdf2 && previous.is_none() {
            self.extrapolated_start(sys, t, y, h, y_out, stats)?;
            self.history.propose(t + h, y_out, None);
            self.ends.record_carried(t, h, y, y_out, f_start);
            return Ok(());
        }
        let formula = if let Some((k, omega)) = previous {
            let y_prev = &self.history.back(k).y;
            if omega == 1.0 {
                // Schwab & Delhaes §7.8 (corrected, the Sources panel's errata): y1 = 4/3 y0 − 1/3 y−1 + 2/3 h f(t1, y1).
                for i in 0..y.len() {
                    self.psi[i] = (4.0 * y[i] - y_prev[i]) / 3.0;
                }
                (
                    &self.psi[..],
                    2.0 / 3.0,
                    "I − (2/3)hJ of the BDF2 Newton iteration",
                )
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
                    &self.psi[..],
                    (1.0 + omega) / d,
                    "I − βhJ of the variable-step BDF2 Newton iteration",
                )
            }
        } else {
            // Backward Euler (Schwab & Delhaes §7.7): ψ = y.
            (y, 1.0, "I − hJ of the backward Euler Newton iteration")
        };
        Self::newton_step(
            sys,
            &mut self.provider,
            &mut self.newton,
            (t, y, h),
            formula,
            y_out,
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
