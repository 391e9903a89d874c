//! Gustafsson's predictive step-size controller as Hairer–Wanner's RADAU5 applies it
//! (Hairer–Wanner II §IV.8, eq. (8.25) and the "step size selection" of the published
//! `radau5.f`, version of 1996; read, not copied). radau5 owns one and hands it to the
//! driver through [`super::StepControl`].
//!
//! With err the normalised error of a step of size h (floored at 1e-10 as RADAU5's
//! ESTRAD does) and k the Newton iterations it took:
//!
//! ```text
//! fac  = min(safe, safe·(1 + 2·NIT)/(k + 2·NIT))      (less safety after more iterations)
//! quot = clamp(err^(1/4)/fac, 1/8, 5),  h_new = h/quot  (the elementary rule)
//! ```
//!
//! and, after an accepted step that follows an earlier accepted one (h_acc, err_acc),
//! Gustafsson's prediction quot_G = clamp((h_acc/h)(err²/err_acc)^(1/4)/safe, 1/8, 5)
//! is taken when it gives the smaller step; err_acc is the accepted error floored at
//! 0.01. After a rejection in the same step h may not grow. A new h within
//! [`KEEP_BAND`]·h of the old one is not taken when the method keeps its Jacobian (the
//! step, and so the factorisations, stay as they were). A rejected first step is
//! retried at h/10.
//!
//! The fourth roots are √√x rather than RADAU5's `ERR**0.25D0` (a `pow`): two per
//! accepted step were 9 % of a radau5 solve natively and more in WebAssembly, and the
//! two differ by at most an ulp, far below anything a step size decision rests on.

use crate::math;

/// The safety factor (RADAU5's SAFE).
const SAFE: f64 = 0.9;
/// Limits on h/h_new (RADAU5's FACR = 1/8 and FACL = 5): h_new ∈ [h/5, 8h].
const QUOT_MIN: f64 = 1.0 / 8.0;
const QUOT_MAX: f64 = 5.0;
/// A proposed h_new/h in this band keeps h (RADAU5's QUOT1 and QUOT2).
pub const KEEP_BAND: (f64, f64) = (1.0, 1.2);
/// The floor on err (RADAU5's ESTRAD) and on the remembered accepted error.
const ERR_FLOOR: f64 = 1e-10;
const ERR_ACC_FLOOR: f64 = 1e-2;

/// The controller's memory: the last accepted step and its error.
#[derive(Debug, Clone, PartialEq)]
pub struct Predictive {
    /// Newton iterations allowed per step (RADAU5's NIT), which sets the safety's drop.
    max_newton: u32,
    /// (h_acc, err_acc) of the last accepted step.
    accepted: Option<(f64, f64)>,
}

/// err floored as RADAU5 floors it; NaN (a step that left the floating-point range)
/// counts as infinitely wrong.
fn floored(err: f64) -> f64 {
    if err.is_nan() {
        f64::INFINITY
    } else {
        err.max(ERR_FLOOR)
    }
}

impl Predictive {
    pub fn new(max_newton: u32) -> Self {
        Self {
            max_newton,
            accepted: None,
        }
    }

    /// h/h_new of the elementary rule for a step with error `err` after `newton`
    /// iterations.
    fn quot(&self, err: f64, newton: u32) -> f64 {
        let nit2 = 2.0 * self.max_newton as f64;
        let fac = SAFE.min(SAFE * (1.0 + nit2) / (newton as f64 + nit2));
        (math::fourth_root(err) / fac).clamp(QUOT_MIN, QUOT_MAX)
    }

    /// The step after an accepted step of size h. `may_keep`: the method keeps its
    /// Jacobian for the next step, so an h within [`KEEP_BAND`] is kept with it.
    pub fn after_accept(
        &mut self,
        h: f64,
        err: f64,
        newton: u32,
        after_reject: bool,
        may_keep: bool,
    ) -> f64 {
        let err = floored(err);
        let mut quot = self.quot(err, newton);
        if let Some((h_acc, err_acc)) = self.accepted {
            let gustafsson = (h_acc / h) * math::fourth_root(err * err / err_acc) / SAFE;
            quot = quot.max(gustafsson.clamp(QUOT_MIN, QUOT_MAX));
        }
        self.accepted = Some((h, err.max(ERR_ACC_FLOOR)));
        let mut h_new = h / quot;
        if after_reject {
            h_new = h_new.min(h);
        }
        let ratio = h_new / h;
        if may_keep && ratio >= KEEP_BAND.0 && ratio <= KEEP_BAND.1 {
            h
        } else {
            h_new
        }
    }

    /// The retry after a step of size h failed its error test with `err` after
    /// `newton` iterations: h/10 before any step was accepted, else the elementary rule.
    pub fn after_reject(&self, h: f64, err: f64, newton: u32) -> f64 {
        if self.accepted.is_none() {
            0.1 * h
        } else {
            h / self.quot(floored(err), newton)
        }
    }
}
