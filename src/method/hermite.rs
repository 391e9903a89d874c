//! Cubic Hermite interpolation between two steps: the dense output of methods whose
//! source gives none (Euler, Heun, RK4). Matches y and y' = f at both ends, so its
//! error is O(h⁴) whatever the method's order (Hairer–Nørsett–Wanner I, §II.6).

use crate::linalg::copy_short;
use crate::problem::System;
use crate::stats::Stats;

/// Writes the cubic through (y0, f0) at θ = 0 and (y1, f1) at θ = 1, on a step of size
/// h, at θ ∈ [0, 1]: (1 − θ) y0 + θ y1 + θ(θ − 1)[(1 − 2θ)(y1 − y0) + (θ − 1) h f0 + θ h f1].
pub fn hermite_cubic(
    theta: f64,
    h: f64,
    y0: &[f64],
    f0: &[f64],
    y1: &[f64],
    f1: &[f64],
    out: &mut [f64],
) {
    let s = theta;
    for (i, o) in out.iter_mut().enumerate() {
        let dy = y1[i] - y0[i];
        *o = (1.0 - s) * y0[i]
            + s * y1[i]
            + s * (s - 1.0) * ((1.0 - 2.0 * s) * dy + (s - 1.0) * h * f0[i] + s * h * f1[i]);
    }
}

/// f(t, y) kept in `slot`: evaluated (and counted) the first time a step's dense output
/// needs it, reused afterwards — the end-of-step slope of the Hermite interpolant.
pub(crate) fn lazy_rhs<'a>(
    slot: &'a mut Option<Vec<f64>>,
    sys: &dyn System,
    t: f64,
    y: &[f64],
    stats: &mut Stats,
) -> &'a [f64] {
    slot.get_or_insert_with(|| {
        let mut f = vec![0.0; y.len()];
        sys.rhs(t, y, &mut f);
        stats.nfev += 1;
        f
    })
}

/// The two ends of the last step taken and, once known, the slopes there: what a cubic
/// Hermite dense output needs, and what lets the next step (or a retry of this one)
/// reuse an f already evaluated. One per stepper that has no interpolant of its own.
#[derive(Debug, Clone)]
pub(crate) struct StepEnds {
    pub t: f64,
    pub h: f64,
    pub y: Vec<f64>,
    pub y_new: Vec<f64>,
    /// f(t, y), when the method had it or the dense output evaluated it.
    pub f_start: Option<Vec<f64>>,
    /// f(t + h, y_new), once the dense output evaluated it.
    pub f_end: Option<Vec<f64>>,
}

impl StepEnds {
    pub fn new(dim: usize) -> Self {
        Self {
            t: f64::NAN,
            h: f64::NAN,
            y: vec![0.0; dim],
            y_new: vec![0.0; dim],
            f_start: None,
            f_end: None,
        }
    }

    /// Records the step t → t + h just taken; `f_start` is f(t, y) if the method has it.
    pub fn record(&mut self, t: f64, h: f64, y: &[f64], y_new: &[f64], f_start: Option<&[f64]>) {
        self.t = t;
        self.h = h;
        copy_short(&mut self.y, y);
        copy_short(&mut self.y_new, y_new);
        match (f_start, &mut self.f_start) {
            (Some(f), Some(kept)) => copy_short(kept, f),
            (Some(f), None) => self.f_start = Some(f.to_vec()),
            (None, kept) => *kept = None,
        }
        self.f_end = None;
    }

    /// Which end of the last step (t, y) is: its start (a retry from the same point)
    /// or its end (the next step). `Some(true)` for the start.
    fn at_start(&self, t: f64, y: &[f64]) -> Option<bool> {
        if t == self.t && y == self.y.as_slice() {
            Some(true)
        } else if super::history::same_time(t, self.t + self.h) && y == self.y_new.as_slice() {
            Some(false)
        } else {
            None
        }
    }

    /// f(t, y) if it is already known: (t, y) is where the last step started (a retry)
    /// or ended (the next step, after the dense output evaluated it there).
    pub fn known_f(&self, t: f64, y: &[f64]) -> Option<&[f64]> {
        // The usual case first, without the comparisons of `at_start`: a new step after
        // one whose end slope nobody evaluated, where nothing is known (~1 % of a ros4
        // solve of Van der Pol in WASM).
        if self.f_end.is_none() && t != self.t {
            return None;
        }
        match self.at_start(t, y)? {
            true => self.f_start.as_deref(),
            false => self.f_end.as_deref(),
        }
    }

    /// f(t, y) into `out` for a method that needs f at a step's start: the known one
    /// ([`StepEnds::known_f`]), or evaluated and counted.
    pub fn start_f(&self, sys: &dyn System, t: f64, y: &[f64], out: &mut [f64], stats: &mut Stats) {
        match self.known_f(t, y) {
            Some(f) => copy_short(out, f),
            None => {
                sys.rhs(t, y, out);
                stats.nfev += 1;
            }
        }
    }

    /// For a method that does not need f at a step's start: the f known at (t, y),
    /// moved out to be handed back with [`StepEnds::record_carried`] (no copy).
    pub fn carry_f(&mut self, t: f64, y: &[f64]) -> Option<Vec<f64>> {
        match self.at_start(t, y)? {
            true => self.f_start.take(),
            false => self.f_end.take(),
        }
    }

    /// Records the step t → t + h with the start slope carried by [`StepEnds::carry_f`].
    pub fn record_carried(
        &mut self,
        t: f64,
        h: f64,
        y: &[f64],
        y_new: &[f64],
        f_start: Option<Vec<f64>>,
    ) {
        self.t = t;
        self.h = h;
        copy_short(&mut self.y, y);
        copy_short(&mut self.y_new, y_new);
        self.f_start = f_start;
        self.f_end = None;
    }

    /// The cubic Hermite interpolant of the last step at t + θh, evaluating (and
    /// counting) whichever end slope is not known yet.
    pub fn interpolate(
        &mut self,
        sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) {
        let f0 = lazy_rhs(&mut self.f_start, sys, self.t, &self.y, stats);
        let f1 = lazy_rhs(&mut self.f_end, sys, self.t + self.h, &self.y_new, stats);
        hermite_cubic(theta, self.h, &self.y, f0, &self.y_new, f1, out);
    }
}
