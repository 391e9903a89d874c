//! The past of a multistep method (`bdf2`, `ab3`, `am-pece`), kept by the stepper
//! itself so the driver needs to know nothing about it.
//!
//! The driver only ever calls `step(t, y, h)`; the history infers what happened from
//! where the next step starts:
//! - it starts at the end of the last step: that step was accepted, its point joins
//!   the history;
//! - it starts where the last step started (a rejection, or an event cut that
//!   recomputes the step to end at the switch): the last result is dropped;
//! - anywhere else (a new run, a state changed from outside): the history restarts.
//!
//! A multistep formula needs equally spaced points; [`History::begin`] reports how many
//! of the newest points are spaced exactly h apart (relative 1e-9, the fixed grid's
//! t_k = t0 + k h rounds), and forgets older ones, so a changed h (the shortened last
//! step of a grid, the step after an event cut) restarts the method's start-up.

use std::collections::VecDeque;

/// Whether two times are the same point of a run: the driver computes grid times as
/// t0 + k h while a stepper computes t + h, which may differ by a few ulps.
pub fn same_time(a: f64, b: f64) -> bool {
    (a - b).abs() <= 8.0 * f64::EPSILON * a.abs().max(b.abs())
}

/// A point of the solution with f there once it is known.
#[derive(Debug, Clone)]
pub struct Point {
    pub t: f64,
    pub y: Vec<f64>,
    pub f: Option<Vec<f64>>,
}

/// The newest `capacity` accepted points, and the result of the last step pending
/// acceptance.
#[derive(Debug, Clone)]
pub struct History {
    points: VecDeque<Point>,
    pending: Option<Point>,
    capacity: usize,
    /// State buffers of points that left the history, reused for the next ones (a step
    /// allocates nothing once the history is full).
    spare: Vec<Vec<f64>>,
}

/// Relative tolerance on the spacing of history points.
const SPACING_RTOL: f64 = 1e-9;

impl History {
    pub fn new(capacity: usize) -> Self {
        Self {
            points: VecDeque::with_capacity(capacity + 1),
            pending: None,
            capacity,
            // At most every point and the pending one are spare at once.
            spare: Vec::with_capacity(capacity + 2),
        }
    }

    /// A copy of `y` in a spare buffer (a new one only while the history fills).
    fn copy_of(&mut self, y: &[f64]) -> Vec<f64> {
        let mut v = self.spare.pop().unwrap_or_default();
        v.clear();
        v.extend_from_slice(y);
        v
    }

    /// Keeps a point's state buffer for reuse.
    fn recycle(&mut self, p: Point) {
        self.spare.push(p.y);
    }

    /// Drops the oldest points until at most `len` remain, keeping their buffers.
    fn keep_newest(&mut self, len: usize) {
        while self.points.len() > len {
            if let Some(p) = self.points.pop_front() {
                self.recycle(p);
            }
        }
    }

    /// Starts a step from (t, y) of size h: settles the pending point and returns how
    /// many newest points (the current one included) are equally spaced by h.
    pub fn begin(&mut self, t: f64, y: &[f64], h: f64) -> usize {
        if let Some(p) = self.pending.take() {
            if same_time(p.t, t) && p.y == y {
                self.points.push_back(p);
            } else {
                self.recycle(p);
            }
        }
        let continues = self
            .points
            .back()
            .is_some_and(|p| same_time(p.t, t) && p.y.as_slice() == y);
        if !continues {
            self.keep_newest(0);
            let y = self.copy_of(y);
            self.points.push_back(Point { t, y, f: None });
        }
        self.keep_newest(self.capacity);
        let n = self.points.len();
        let mut usable = 1;
        while usable < n {
            let newer = self.points[n - usable].t;
            let older = self.points[n - usable - 1].t;
            if ((newer - older) - h).abs() > SPACING_RTOL * h.abs() {
                break;
            }
            usable += 1;
        }
        // Points older than a break in the spacing can never be used again.
        self.keep_newest(usable);
        usable
    }

    /// Starts a step from (t, y) like [`History::begin`], but keeps the newest points
    /// whatever their spacing (a method whose formula takes uneven steps): returns how
    /// many there are, the current one included.
    // BDF2 is its one user, and the first-load package leaves BDF2 out.
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub fn begin_uneven(&mut self, t: f64, y: &[f64]) -> usize {
        if let Some(p) = self.pending.take() {
            if same_time(p.t, t) && p.y == y {
                self.points.push_back(p);
            } else {
                self.recycle(p);
            }
        }
        let continues = self
            .points
            .back()
            .is_some_and(|p| same_time(p.t, t) && p.y.as_slice() == y);
        if !continues {
            self.keep_newest(0);
            // Every buffer the history will hold (its points, one more while the
            // oldest leaves, the pending one), made at the start: the steps after the
            // first allocate nothing.
            while self.spare.len() < self.capacity + 2 {
                self.spare.push(Vec::with_capacity(y.len()));
            }
            let y = self.copy_of(y);
            self.points.push_back(Point { t, y, f: None });
        }
        self.keep_newest(self.capacity);
        self.points.len()
    }

    /// The k-th newest point (0: the current one).
    pub fn back(&self, k: usize) -> &Point {
        &self.points[self.points.len() - 1 - k]
    }

    /// The current point, to store f there.
    pub fn current_mut(&mut self) -> &mut Point {
        let n = self.points.len();
        &mut self.points[n - 1]
    }

    /// Forgets every point but the current one: the method starts again from here.
    // BDF2 is its one user, and the first-load package leaves BDF2 out.
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub fn restart_here(&mut self) {
        self.keep_newest(1);
    }

    /// Records the result of the step just taken (accepted or not is known next time).
    pub fn propose(&mut self, t: f64, y: &[f64], f: Option<Vec<f64>>) {
        if let Some(p) = self.pending.take() {
            self.recycle(p);
        }
        let y = self.copy_of(y);
        self.pending = Some(Point { t, y, f });
    }

    /// The pending result, to store f there (the dense output evaluates it).
    pub fn pending_mut(&mut self) -> Option<&mut Point> {
        self.pending.as_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::History;

    #[test]
    fn accepted_steps_build_up_an_equally_spaced_history() {
        let mut hist = History::new(3);
        assert_eq!(hist.begin(0.0, &[1.0], 0.1), 1);
        hist.propose(0.1, &[2.0], None);
        assert_eq!(hist.begin(0.1, &[2.0], 0.1), 2);
        hist.propose(0.2, &[3.0], None);
        assert_eq!(hist.begin(0.2, &[3.0], 0.1), 3);
        hist.propose(0.30000000000000004, &[4.0], None);
        // The grid's t0 + 3h differs from 0.2 + 0.1 by an ulp: still the same point.
        assert_eq!(hist.begin(0.3, &[4.0], 0.1), 3);
        assert_eq!(hist.back(2).y, [2.0]);
    }

    #[test]
    fn an_uneven_history_keeps_its_points_across_a_cut() {
        let mut hist = History::new(3);
        assert_eq!(hist.begin_uneven(0.0, &[1.0]), 1);
        hist.propose(0.1, &[2.0], None);
        assert_eq!(hist.begin_uneven(0.1, &[2.0]), 2);
        hist.propose(0.2, &[3.0], None);
        // An event cut recomputes the step from 0.1: the pending point is dropped, the
        // points before stay.
        assert_eq!(hist.begin_uneven(0.1, &[2.0]), 2);
        hist.propose(0.13, &[2.3], None);
        assert_eq!(hist.begin_uneven(0.13, &[2.3]), 3);
        assert_eq!(hist.back(1).t, 0.1);
        // A state changed from outside restarts.
        hist.propose(0.2, &[3.0], None);
        assert_eq!(hist.begin_uneven(0.2, &[9.0]), 1);
    }

    #[test]
    fn a_rejected_step_is_dropped_and_a_changed_h_restarts() {
        let mut hist = History::new(3);
        hist.begin(0.0, &[1.0], 0.1);
        hist.propose(0.1, &[2.0], None);
        hist.begin(0.1, &[2.0], 0.1);
        hist.propose(0.2, &[3.0], None);
        // Retried from 0.1 (a rejection, or an event cut recomputing the step).
        assert_eq!(hist.begin(0.1, &[2.0], 0.05), 1);
        hist.propose(0.15, &[2.5], None);
        // The next step starts at the cut; its spacing differs: start-up again.
        assert_eq!(hist.begin(0.15, &[2.5], 0.1), 1);
        // A state changed from outside (same t, other y) restarts too.
        hist.propose(0.25, &[3.5], None);
        assert_eq!(hist.begin(0.25, &[9.0], 0.1), 1);
    }
}
