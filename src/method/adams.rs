//! The one stepper behind `ab3` and `am-pece`: Adams formulas over the stepper-kept
//! history of `history.rs` (f at the last three equally spaced points).
//!
//! - `ab3`: y_{n+1} = y_n + h/12 (23 f_n − 16 f_{n−1} + 5 f_{n−2}) (Schwab & Delhaes §7.8);
//!   one f evaluation per step (f_{n+1}, made at the start of the next step).
//! - `am-pece`: predict with AB3, Evaluate f^p = f(t_{n+1}, y^p), Correct with the
//!   order-4 Adams–Moulton formula y_{n+1} = y_n + h/24 (9 f^p + 19 f_n − 5 f_{n−1} +
//!   f_{n−2}), Evaluate f_{n+1} (Schwab & Delhaes §7.8: "Predict with A-B order k … Correct with A-M
//!   order k+1", Shampine's PECE). Two f evaluations per step; order 4.
//!
//! **Start-up:** while fewer than three equally spaced points are known (the first two
//! steps of a run, and after any break: a changed h, an event cut), the step is a
//! classical RK4 step (`rk4.rs`), whose O(h⁵) local error does not spoil order 3 or 4.
//! Dense output: cubic Hermite on f at both ends.

use super::explicit_rk::ExplicitRk;
use super::hermite::{hermite_cubic, lazy_rhs};
use super::history::{same_time, History};
use super::{rk4, MethodInfo, Stepper};
use crate::error::OdeError;
use crate::problem::System;
use crate::stats::Stats;

/// Adams–Bashforth 3 weights of f_n, f_{n−1}, f_{n−2} (× h), Schwab & Delhaes §7.8.
pub const AB3: [f64; 3] = [23.0 / 12.0, -16.0 / 12.0, 5.0 / 12.0];
/// Adams–Moulton order-4 weights of f_{n+1}, f_n, f_{n−1}, f_{n−2} (× h), Schwab & Delhaes §7.8.
pub const AM4: [f64; 4] = [9.0 / 24.0, 19.0 / 24.0, -5.0 / 24.0, 1.0 / 24.0];

/// Which Adams scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Ab3,
    Pece,
}

pub struct Adams {
    info: &'static MethodInfo,
    scheme: Scheme,
    history: History,
    startup: ExplicitRk,
    f_pred: Vec<f64>,
    last_t: f64,
    last_h: f64,
    last_y: Vec<f64>,
    last_y_new: Vec<f64>,
    f_start: Vec<f64>,
}

impl Adams {
    pub fn new(info: &'static MethodInfo, scheme: Scheme, dim: usize) -> Self {
        Self {
            info,
            scheme,
            history: History::new(3),
            startup: ExplicitRk::new(&rk4::INFO, &rk4::TABLEAU, dim),
            f_pred: vec![0.0; dim],
            last_t: f64::NAN,
            last_h: f64::NAN,
            last_y: vec![0.0; dim],
            last_y_new: vec![0.0; dim],
            f_start: vec![0.0; dim],
        }
    }
}

impl Stepper for Adams {
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
        let usable = self.history.begin(t, y, h);
        let current = self.history.current_mut();
        if current.f.is_none() {
            let mut f = vec![0.0; y.len()];
            sys.rhs(t, y, &mut f);
            stats.nfev += 1;
            current.f = Some(f);
        }
        let f_of = |k: usize| self.history.back(k).f.as_deref().unwrap_or(&[]);
        self.f_start.copy_from_slice(f_of(0));
        let mut f_new = None;
        if usable < 3 {
            self.startup.step(sys, t, y, h, y_out, stats)?;
        } else {
            let (f0, f1, f2) = (f_of(0), f_of(1), f_of(2));
            for i in 0..y.len() {
                y_out[i] = y[i] + h * (AB3[0] * f0[i] + AB3[1] * f1[i] + AB3[2] * f2[i]);
            }
            if self.scheme == Scheme::Pece {
                sys.rhs(t + h, y_out, &mut self.f_pred);
                for i in 0..y.len() {
                    y_out[i] = y[i]
                        + h * (AM4[0] * self.f_pred[i]
                            + AM4[1] * f0[i]
                            + AM4[2] * f1[i]
                            + AM4[3] * f2[i]);
                }
                let mut f = vec![0.0; y.len()];
                sys.rhs(t + h, y_out, &mut f);
                stats.nfev += 2;
                f_new = Some(f);
            }
        }
        self.history.propose(t + h, y_out, f_new);
        self.last_t = t;
        self.last_h = h;
        self.last_y.copy_from_slice(y);
        self.last_y_new.copy_from_slice(y_out);
        Ok(())
    }

    fn dense_output(
        &mut self,
        sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let t_new = self.last_t + self.last_h;
        let Some(pending) = self.history.pending_mut() else {
            return Err(OdeError::BadTEval {
                message: "no step to interpolate".into(),
            });
        };
        if !(same_time(pending.t, t_new) && pending.y == self.last_y_new) {
            return Err(OdeError::BadTEval {
                message: "no step to interpolate".into(),
            });
        }
        // Evaluated once; the next step starts here and reuses it.
        let f_end = lazy_rhs(&mut pending.f, sys, t_new, &self.last_y_new, stats);
        hermite_cubic(
            theta,
            self.last_h,
            &self.last_y,
            &self.f_start,
            &self.last_y_new,
            f_end,
            out,
        );
        Ok(())
    }
}
