//! Watching switching functions along a run: after each accepted step, find the
//! earliest sign change on the step's dense output and cut the step there (seed 000
//! §3: "the time step t_{n+1} is reset to t* = min(t1*, t2*)").

use super::{locate_crossing, EventSource};
use crate::error::OdeError;
use crate::model::Model;
use crate::stats::Stats;

/// Relative accuracy in t to which event times are located.
pub const EVENT_RTOL: f64 = 1e-12;

/// An event that happened: the time, the state there, and which entry of the spec's
/// `events` list it was.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRecord {
    pub t: f64,
    pub y: Vec<f64>,
    pub index: usize,
}

struct Watch {
    source: EventSource,
    /// +1: only rising crossings (− to +), −1: only falling, 0: both.
    direction: i8,
    terminal: bool,
    /// g at the current point of the run.
    g: f64,
}

/// The switching functions of a run and their values at the current point.
#[derive(Default)]
pub struct Detector {
    watches: Vec<Watch>,
}

/// The dense output of the step being checked: writes y(t + θh) for θ ∈ [0, 1].
pub type DenseOutput<'a> = dyn FnMut(f64, &mut [f64], &mut Stats) -> Result<(), OdeError> + 'a;

/// The step the detector looks at: from (t, y) to (t_new, y_new), with the dense
/// output y(t + θ h) of the method for θ ∈ [0, 1] (h is the step the method took).
pub struct StepView<'a> {
    pub t: f64,
    pub h: f64,
    pub t_new: f64,
    pub y_new: &'a [f64],
}

fn crossed(g_old: f64, g_new: f64, direction: i8) -> bool {
    let rising = g_old < 0.0 && g_new >= 0.0;
    let falling = g_old > 0.0 && g_new <= 0.0;
    match direction {
        1 => rising,
        -1 => falling,
        _ => rising || falling,
    }
}

impl Detector {
    pub fn is_empty(&self) -> bool {
        self.watches.is_empty()
    }

    /// Adds a watched function (spec order is the event `index`).
    pub fn watch(&mut self, source: EventSource, direction: i8, terminal: bool) {
        self.watches.push(Watch {
            source,
            direction,
            terminal,
            g: f64::NAN,
        });
    }

    /// Evaluates every function at the start of the run.
    pub fn start(&mut self, model: &dyn Model, t: f64, y: &[f64]) {
        for w in &mut self.watches {
            w.g = w.source.eval(model, t, y);
        }
    }

    /// Checks an accepted step. If some function changed sign, locates the earliest
    /// crossing on the dense output (`dense(θ, out)`) to [`EVENT_RTOL`] in t and
    /// returns its time (`y_cut` is used as scratch space); the caller then ends the
    /// step there and reports the state it continues from with [`Detector::commit`].
    /// Otherwise stores the new g values and returns `None`.
    pub fn check(
        &mut self,
        model: &dyn Model,
        step: StepView<'_>,
        dense: &mut DenseOutput<'_>,
        stats: &mut Stats,
        y_cut: &mut [f64],
    ) -> Result<Option<f64>, OdeError> {
        let g_new: Vec<f64> = self
            .watches
            .iter()
            .map(|w| w.source.eval(model, step.t_new, step.y_new))
            .collect();
        let tol = EVENT_RTOL * step.t_new.abs().max(step.t_new - step.t);
        let mut earliest: Option<f64> = None;
        let mut failure = None;
        for (w, &gn) in self.watches.iter().zip(&g_new) {
            if !crossed(w.g, gn, w.direction) {
                continue;
            }
            let limit = earliest.unwrap_or(step.t_new);
            let mut g_at = |tau: f64| -> f64 {
                let theta = (tau - step.t) / step.h;
                match dense(theta, y_cut, stats) {
                    Ok(()) => w.source.eval(model, tau, y_cut),
                    Err(e) => {
                        failure = Some(e);
                        0.0
                    }
                }
            };
            // A crossing after the earliest one found so far does not matter; otherwise
            // the search is over [t, earliest].
            let g_limit = if limit == step.t_new { gn } else { g_at(limit) };
            if !crossed(w.g, g_limit, 0) {
                continue;
            }
            let root = locate_crossing(&mut g_at, step.t, w.g, limit, g_limit, tol);
            earliest = Some(root);
        }
        if let Some(e) = failure {
            return Err(e);
        }
        let Some(t_cut) = earliest else {
            for (w, gn) in self.watches.iter_mut().zip(g_new) {
                w.g = gn;
            }
            return Ok(None);
        };
        Ok(Some(t_cut))
    }

    /// Settles the run at a cut: evaluates every function at the state (t, y) the run
    /// continues from, and fires those that crossed since the last point (in their
    /// direction). Returns the indices that fired and whether one of them is terminal.
    ///
    /// The cut time came from the dense output; if the step recomputed to end there
    /// stops a hair short of the switch (the interpolant is less accurate than the
    /// step), nothing fires and the next step, starting much closer, finds the crossing
    /// again: a secant-like iteration on the true switching time.
    pub fn commit(&mut self, model: &dyn Model, t: f64, y: &[f64]) -> (Vec<usize>, bool) {
        let mut fired = Vec::new();
        let mut terminal = false;
        for (index, w) in self.watches.iter_mut().enumerate() {
            let g = w.source.eval(model, t, y);
            if crossed(w.g, g, w.direction) {
                fired.push(index);
                terminal |= w.terminal;
            }
            w.g = g;
        }
        (fired, terminal)
    }
}
