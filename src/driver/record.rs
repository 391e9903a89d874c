//! The trajectory a run keeps, within a memory budget: t, y, the model's outputs, the
//! exact solution, and each kept point's step size and error estimate. A run that
//! takes more steps than fit keeps every 2nd, then every 4th… step (the stride doubles
//! and the points already kept are thinned to it), and always the start, every point
//! where an event fired and the end, so a long run costs bounded memory instead of
//! aborting the module (a 400-state Euler run of 10⁷ steps asked for 32 GB).

use crate::error::OdeError;
use crate::linalg::append_short;

/// Floating-point values a run may keep (2²⁴ values, 128 MiB): the trajectory, and
/// what no thinning can shrink (tEval states, a method's n × n matrices).
pub const MAX_RECORDED_VALUES: usize = 1 << 24;

/// Floating-point values reserved up front for a run whose step count is not known
/// (an adaptive run): 256 KiB, a few thousand points of a small system. Growing from a
/// few points instead cost ~30 reallocations and copies of the whole record per run
/// (2 % of a dp45 pendulum solve, callgrind).
const ADAPTIVE_RESERVE_VALUES: usize = 1 << 15;

/// Points reserved at least (a large system's adaptive run).
const MIN_FIRST_RESERVE: usize = 64;

/// Fewest points a trajectory must be able to keep; a state too large for this many
/// points in [`MAX_RECORDED_VALUES`] is refused.
pub const MIN_RECORDED_POINTS: usize = 1000;

fn megabytes(values: u64) -> f64 {
    (values as f64 * 8.0 / 1e6).round()
}

/// The number of floats in a block of `factors[0] × factors[1] × …`, computed in u64 and
/// saturating: on wasm32 `usize` has 32 bits, and a product such as 4·n² for n = 32 768
/// would wrap to a small number and pass the budget it was meant to fail.
pub fn values_in(factors: &[usize]) -> u64 {
    factors
        .iter()
        .fold(1u64, |acc, &f| acc.saturating_mul(f as u64))
}

/// Whether a block of `values` floats stays within [`MAX_RECORDED_VALUES`].
pub fn fits(values: u64) -> bool {
    values <= MAX_RECORDED_VALUES as u64
}

/// The typed refusal of a request that needs `values` floats for `what`.
pub fn too_large(what: String, values: u64) -> OdeError {
    OdeError::TooLarge {
        what,
        megabytes: megabytes(values),
        limit_megabytes: megabytes(MAX_RECORDED_VALUES as u64),
    }
}

/// Most events a run of `dim` states keeps: each holds its state, and each is a point
/// the record keeps whatever its stride, so a chattering switch (an event at every
/// step) would otherwise grow memory without bound. A 32nd of the record's budget (4 MiB),
/// and never more than 100 000: 5 000 events of 100 states, 12 000 of a ten-ball model.
pub fn max_events(dim: usize) -> usize {
    (MAX_RECORDED_VALUES / 32 / (dim + 2)).min(100_000)
}

/// The recorded points, thinned to fit.
pub struct Recorder {
    dim: usize,
    has_exact: bool,
    /// Points kept at most before the next thinning.
    capacity: usize,
    /// Every `stride`-th step is kept (a power of two; 1 until the first thinning).
    stride: u64,
    pub t: Vec<f64>,
    pub y: Vec<f64>,
    pub outputs: Vec<Vec<f64>>,
    pub exact: Vec<f64>,
    /// The step that reached each kept point after the first, and its error estimate.
    pub h: Vec<f64>,
    pub err_est: Vec<f64>,
    /// The step number of each kept point, from the first thinning on (until then
    /// every point is kept and point i is step i, so nothing is stored per point).
    step: Vec<u64>,
    /// The step numbers of the points that must stay (the start, events), ascending.
    pinned: Vec<u64>,
    /// Steps taken (the number of the last point offered).
    steps: u64,
    /// Whether the last point offered was kept.
    last_kept: bool,
}

/// One point of the run offered to the recorder.
pub struct Point<'a> {
    pub t: f64,
    pub y: &'a [f64],
    pub outputs: &'a [f64],
    pub exact: Option<&'a [f64]>,
    /// The step that reached it and its error estimate (none for the start).
    pub h: Option<f64>,
    pub err_est: Option<f64>,
    /// Kept whatever the stride (the start, an event).
    pub pinned: bool,
}

impl Recorder {
    /// A recorder for `expected` points (the grid's; `None` for an adaptive run) of
    /// `dim` states; refuses a state too large to keep [`MIN_RECORDED_POINTS`] points of.
    pub fn new(
        dim: usize,
        n_outputs: usize,
        has_exact: bool,
        expected: Option<usize>,
    ) -> Result<Self, OdeError> {
        let per_point = 3 + dim + n_outputs + if has_exact { dim } else { 0 };
        let capacity = MAX_RECORDED_VALUES / per_point;
        if capacity < MIN_RECORDED_POINTS {
            return Err(too_large(
                format!("recording {MIN_RECORDED_POINTS} points of {dim} states"),
                values_in(&[MIN_RECORDED_POINTS, per_point]),
            ));
        }
        let reserve = expected
            .unwrap_or(ADAPTIVE_RESERVE_VALUES / per_point)
            .clamp(MIN_FIRST_RESERVE, capacity);
        Ok(Self {
            dim,
            has_exact,
            capacity,
            stride: 1,
            t: Vec::with_capacity(reserve),
            y: Vec::with_capacity(reserve * dim),
            outputs: vec![Vec::with_capacity(reserve); n_outputs],
            exact: Vec::with_capacity(if has_exact { reserve * dim } else { 0 }),
            h: Vec::with_capacity(reserve),
            // Adaptive runs estimate the error of every step.
            err_est: Vec::with_capacity(if expected.is_none() { reserve } else { 0 }),
            step: Vec::new(),
            pinned: Vec::new(),
            steps: 0,
            last_kept: false,
        })
    }

    /// Offers the next point of the run (`end`: the run stops here); keeps it if it
    /// is on the stride, pinned, or the end.
    // Inlined into the solve loop, its one caller per step (ros4 on Van der Pol in WASM
    // −1 %: the point is no longer built in memory and passed by reference).
    #[inline]
    pub fn offer(&mut self, p: Point<'_>, end: bool) {
        if p.h.is_some() {
            self.steps += 1;
        }
        // The stride is a power of two: a mask, not a 64-bit division per step.
        self.last_kept = p.pinned || end || self.steps & (self.stride - 1) == 0;
        if !self.last_kept {
            return;
        }
        if self.t.len() >= self.capacity {
            self.thin();
        }
        self.t.push(p.t);
        append_short(&mut self.y, p.y);
        for (series, v) in self.outputs.iter_mut().zip(p.outputs) {
            series.push(*v);
        }
        if let Some(e) = p.exact.filter(|_| self.has_exact) {
            append_short(&mut self.exact, e);
        }
        if let Some(h) = p.h {
            self.h.push(h);
            // A method estimates the error of every step or of none.
            if let Some(e) = p.err_est {
                self.err_est.push(e);
            }
        }
        if p.pinned {
            self.pinned.push(self.steps);
        }
        if self.stride > 1 {
            self.step.push(self.steps);
        }
    }

    /// Whether the last point offered was kept.
    pub fn last_kept(&self) -> bool {
        self.last_kept
    }

    /// Keeps the last point offered after all: the run stopped early there, and the end
    /// of a run is always kept.
    pub fn keep_last(&mut self, p: Point<'_>) {
        if !self.last_kept {
            if p.h.is_some() {
                self.steps -= 1;
            }
            self.offer(p, true);
        }
    }

    /// Doubles the stride and drops the kept points off it (pinned ones stay). If
    /// pinned points alone fill the budget, it grows instead of thinning forever.
    fn thin(&mut self) {
        if self.stride == 1 {
            self.step = (0..self.t.len() as u64).collect();
        }
        self.stride *= 2;
        let dim = self.dim;
        let with_err_est = !self.err_est.is_empty();
        let mut kept = 0;
        // Both ascending: walk the pinned step numbers alongside the kept points.
        let mut pinned = self.pinned.iter().copied().peekable();
        for i in 0..self.t.len() {
            let step = self.step[i];
            while pinned.next_if(|&p| p < step).is_some() {}
            let is_pinned = pinned.peek() == Some(&step);
            if !(is_pinned || step.is_multiple_of(self.stride)) {
                continue;
            }
            self.t[kept] = self.t[i];
            self.y.copy_within(i * dim..(i + 1) * dim, kept * dim);
            for series in &mut self.outputs {
                series[kept] = series[i];
            }
            if self.has_exact {
                self.exact.copy_within(i * dim..(i + 1) * dim, kept * dim);
            }
            // Point 0 (the start, always pinned) has no step before it.
            if i > 0 {
                self.h[kept - 1] = self.h[i - 1];
                if with_err_est {
                    self.err_est[kept - 1] = self.err_est[i - 1];
                }
            }
            self.step[kept] = step;
            kept += 1;
        }
        self.t.truncate(kept);
        self.y.truncate(kept * dim);
        for series in &mut self.outputs {
            series.truncate(kept);
        }
        if self.has_exact {
            self.exact.truncate(kept * dim);
        }
        self.h.truncate(kept.saturating_sub(1));
        if with_err_est {
            self.err_est.truncate(kept.saturating_sub(1));
        }
        self.step.truncate(kept);
        if kept * 4 > self.capacity * 3 {
            self.capacity = kept * 2;
        }
    }

    /// What thinning did, in words, if it did anything.
    pub fn note(&self) -> Option<String> {
        (self.stride > 1).then(|| {
            format!(
                "the run took {} steps, more than fit in memory: every {}th step is kept \
                 ({} points of {} states), with the start, every event and the end",
                self.steps,
                self.stride,
                self.t.len(),
                self.dim
            )
        })
    }
}
