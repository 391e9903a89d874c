//! Watching switching functions along a run: after each accepted step, find the
//! earliest sign change on the step's dense output and cut the step there (Gil, Sanfelice & Nikravesh (LLM)
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
    /// The side of g = 0 the run is on: the sign of `g`, or, when the run was cut
    /// exactly on the switch (g = 0), the side the crossing led into (±1; 0 before any
    /// crossing).
    side: f64,
}

/// The equal parts of a step in which g is looked at on the dense output: a crossing
/// and the crossing back inside one step are found when g stays past the switch for
/// more than a quarter of the step. Gil, Sanfelice & Nikravesh (LLM) §3's shortest contact (7 ms, the balls
/// against each other) is then found with steps up to 0.028 s.
const SAMPLES: usize = 4;

/// The side of g = 0 a value is on: ±1, or `previous` when g = 0.
fn side_of(g: f64, previous: f64) -> f64 {
    if g > 0.0 {
        1.0
    } else if g < 0.0 {
        -1.0
    } else {
        previous
    }
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
            side: 0.0,
        });
    }

    /// Evaluates every function at the start of the run.
    pub fn start(&mut self, model: &dyn Model, t: f64, y: &[f64]) {
        for w in &mut self.watches {
            w.g = w.source.eval(model, t, y);
            w.side = side_of(w.g, 0.0);
        }
    }

    /// Checks an accepted step. If some function changed sign, locates the earliest
    /// crossing on the dense output (`dense(θ, out)`) to [`EVENT_RTOL`] in t and
    /// returns its time (`y_cut` is used as scratch space); the caller then ends the
    /// step there and reports the state it continues from with [`Detector::commit`].
    /// Otherwise stores the new g values and returns `None`.
    ///
    /// g is looked at in [`SAMPLES`] equal parts of the step, not only at its ends: a
    /// crossing and the crossing back can both fall inside one step (a 7 ms contact in
    /// a 20 ms step, Gil, Sanfelice & Nikravesh (LLM) §3), which the ends alone do not show.
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
        // A switching function that is not a number at a finite state (a division by
        // zero, sqrt of a negative) has no sign: its crossings would pass unseen. Only a
        // typed event can be (the whole engine's); the catalogue models' functions are
        // finite wherever the state is, so the first-load build leaves the check out.
        #[cfg(feature = "full")]
        if step.y_new.iter().all(|v| v.is_finite()) {
            if let Some(index) = g_new.iter().position(|g| g.is_nan()) {
                return Err(OdeError::BadEvent {
                    index,
                    message: format!(
                        "its switching function is not a number (NaN) at t = {}, so its \
                         sign changes cannot be found; check it for a division by zero or \
                         a square root or logarithm of a negative value",
                        crate::error::num(step.t_new)
                    ),
                });
            }
        }
        let dim = step.y_new.len();
        // The states at the inner sample points, shared by every watched function.
        let span = step.t_new - step.t;
        let sample_t: Vec<f64> = (1..SAMPLES)
            .map(|j| step.t + span * j as f64 / SAMPLES as f64)
            .collect();
        let mut sample_y = vec![0.0; sample_t.len() * dim];
        for (tau, out) in sample_t.iter().zip(sample_y.chunks_mut(dim)) {
            dense((tau - step.t) / step.h, out, stats)?;
        }
        let tol = EVENT_RTOL * step.t_new.abs().max(span);
        let mut earliest: Option<f64> = None;
        let mut failure = None;
        for (w, &gn) in self.watches.iter().zip(&g_new) {
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
            // The first pair of neighbouring points (start, samples before `limit`,
            // `limit`) between which g crossed: the bracket of the earliest crossing.
            // A start exactly on the switch (g = 0) counts as the side the run is on.
            let start = if w.g == 0.0 { w.side } else { w.g };
            let mut a = (step.t, start);
            let mut bracket = None;
            let inner = sample_t
                .iter()
                .zip(sample_y.chunks(dim))
                .filter(|(&tau, _)| tau < limit)
                .map(|(&tau, y)| (tau, w.source.eval(model, tau, y)));
            for (tau, g) in inner.chain(std::iter::once((limit, f64::NAN))) {
                let g = if tau < limit {
                    g
                } else if limit == step.t_new {
                    gn
                } else {
                    g_at(limit)
                };
                if crossed(a.1, g, w.direction) {
                    bracket = Some((a, (tau, g)));
                    break;
                }
                a = (tau, g);
            }
            let Some(((a, ga), (b, gb))) = bracket else {
                continue;
            };
            // From a start on the switch, any value on the run's side begins the search
            // (its first trial point is then the bisection's).
            let ga = if ga.abs() == 1.0 && a == step.t && w.g == 0.0 {
                ga * gb.abs()
            } else {
                ga
            };
            let root = locate_crossing(&mut g_at, a, ga, b, gb, tol);
            earliest = Some(root);
        }
        if let Some(e) = failure {
            return Err(e);
        }
        let Some(t_cut) = earliest else {
            for (w, gn) in self.watches.iter_mut().zip(g_new) {
                w.side = side_of(gn, w.side);
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
            // Cut exactly on the switch (g = 0 where it was not before): the run is on
            // the side the crossing leads into.
            let side = if g == 0.0 && w.g != 0.0 {
                -w.side
            } else {
                side_of(g, w.side)
            };
            if crossed(w.side, side, w.direction) {
                fired.push(index);
                terminal |= w.terminal;
            }
            w.side = side;
            w.g = g;
        }
        (fired, terminal)
    }
}
