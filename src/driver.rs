//! The driver: runs a method over an interval, one step at a time ([`Integrator`]) or
//! all at once ([`solve`]), and records t, y, the model's outputs and statistics.
//!
//! Two pacings share one step loop: a fixed grid (t_k = t0 + k h) for methods without
//! an error estimate, and step-size control (`crate::control`) for the others. Events
//! (`crate::event`) cut either kind of step at a switching point.

use crate::control::{error_norm, initial_step, Controller, ErrorNorm, Tolerance};
use crate::error::OdeError;
use crate::event::detector::{StepView, EVENT_RTOL};
use crate::event::{Detector, EventRecord, EventSource};
use crate::expr::{build_user_system, compile_model_expr};
use crate::jacobian::{JacobianOptions, JacobianSource};
use crate::method::{self, MethodInfo, MethodOptions, Stepper};
use crate::model::{self, Model, ModelInfo};
use crate::multibody::{self, ConstraintReport, Formulation};
use crate::spec::{finite, Grid, SolveSpec};
pub use crate::stats::Stats;

/// A state component beyond this magnitude (or NaN) counts as a blow-up. It is far
/// above any physical value, and low enough that squares of it (energies, norms) stay
/// finite, so what was computed up to the blow-up can still be plotted.
pub const BLOW_UP: f64 = 1e150;

/// Consecutive step failures (singular matrix, Newton, exponential) an adaptive run
/// retries with a step cut by facMin before it reports the failure: 10 cuts of 0.2
/// shrink h by 1e-7, far past any step-size effect.
const MAX_STEP_FAILURES: u32 = 10;

/// Whether a state counts as blown up: a component past [`BLOW_UP`] or NaN (which
/// fails every comparison, hence the negated "within bounds" test).
fn blew_up(y: &[f64]) -> bool {
    !y.iter().all(|v| v.abs() <= BLOW_UP)
}

/// How the next step size is chosen.
enum Pacing {
    /// A checked grid; `k` is the index of the last grid point reached. `max_steps`
    /// bounds the steps taken, event cuts included (the grid alone is checked against
    /// it up front, but cuts add steps).
    Fixed {
        grid: Grid,
        k: usize,
        max_steps: usize,
    },
    /// Error control: `h` is the step the controller proposes next.
    Adaptive {
        controller: Controller,
        h: f64,
        max_steps: usize,
        /// Largest step allowed (`hMax`; infinite when not given).
        h_max: f64,
    },
}

/// A run in progress: model, method, current state, kept between calls.
pub struct Integrator {
    info: ModelInfo,
    method: MethodInfo,
    model: Box<dyn Model>,
    stepper: Box<dyn Stepper>,
    /// How the stepper was made, to restart it when a model rewrites its coordinates
    /// (a state-space re-partition, issue 8).
    options: MethodOptions,
    /// The model rewrote its state in new coordinates at the last step: the method
    /// restarts before the next step (its dense output of the last step, in the old
    /// coordinates, stays available for tEval until then).
    restart: bool,
    pacing: Pacing,
    tolerance: Tolerance,
    norm: ErrorNorm,
    detector: Detector,
    t0: f64,
    t1: f64,
    t: f64,
    y: Vec<f64>,
    y0: Vec<f64>,
    y_next: Vec<f64>,
    y_cut: Vec<f64>,
    /// Start and method step size of the last accepted step (for dense output).
    last_step: Option<(f64, f64)>,
    events: Vec<EventRecord>,
    stopped_by_event: bool,
    stats: Stats,
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepInfo {
    /// Time reached.
    pub t: f64,
    /// Step size taken (t − t_previous; shorter than the method's step if an event cut it).
    pub h: f64,
    /// The normalised error estimate of the step (≤ 1 means within tolerance), for
    /// methods with an embedded formula.
    pub err_est: Option<f64>,
    /// How many events fired at the end of this step (the last entries of
    /// [`Integrator::events`]).
    pub new_events: usize,
}

fn check_interval(t0: f64, t1: f64) -> Result<(f64, f64), OdeError> {
    let t0 = finite(t0, "start time t0")?;
    let t1 = finite(t1, "end time t1")?;
    if t1 <= t0 {
        return Err(OdeError::BadInterval { t0, t1 });
    }
    Ok((t0, t1))
}

/// The normalised error of the step just computed into `y_new`, if the method
/// estimates one; infinite if the step left the floating-point range.
fn step_error(
    stepper: &dyn Stepper,
    norm: ErrorNorm,
    y: &[f64],
    y_new: &[f64],
    tolerance: &Tolerance,
) -> Option<f64> {
    let est = stepper.error_estimate()?;
    if y_new.iter().any(|v| !v.is_finite()) {
        return Some(f64::INFINITY);
    }
    let err = error_norm(norm, est, y, y_new, tolerance);
    Some(if err.is_nan() { f64::INFINITY } else { err })
}

/// The watched functions of a spec, checked against the model's declarations.
fn build_detector(spec: &SolveSpec, info: &ModelInfo) -> Result<Detector, OdeError> {
    let known: Vec<String> = info.events.iter().map(|e| e.id.clone()).collect();
    let mut detector = Detector::default();
    for (index, e) in spec.events.iter().enumerate() {
        let source = match (&e.id, &e.expr) {
            (Some(_), Some(_)) => {
                return Err(OdeError::BadEvent {
                    index,
                    message: "give either id or expr, not both".into(),
                })
            }
            (None, None) => {
                return Err(OdeError::BadEvent {
                    index,
                    message: "name a switching function with id (or expr)".into(),
                })
            }
            // A text expression over the model's states, parameters and t.
            (None, Some(expr)) => {
                EventSource::Function(Box::new(compile_model_expr(expr, info, &spec.params)?))
            }
            (Some(id), None) => match known.iter().position(|k| k == id) {
                Some(i) => EventSource::Model(i),
                None => {
                    return Err(OdeError::UnknownEvent {
                        model: info.id.clone(),
                        id: id.clone(),
                        known,
                    })
                }
            },
        };
        let direction = match e.direction {
            None => 0,
            Some(0.0) => 0,
            Some(1.0) => 1,
            Some(-1.0) => -1,
            Some(d) => {
                return Err(OdeError::OutOfRange {
                    what: format!("events[{index}].direction"),
                    value: d,
                    allowed: "-1 (falling), 0 (both) or 1 (rising)".into(),
                })
            }
        };
        detector.watch(source, direction, e.terminal.unwrap_or(false));
    }
    // A user system's `event` lines are watched unless the spec lists its own events.
    if spec.events.is_empty() {
        for (i, e) in info.events.iter().enumerate().filter(|(_, e)| e.watched) {
            detector.watch(EventSource::Model(i), e.direction, e.terminal);
        }
    }
    Ok(detector)
}

/// The model a spec names, or the user's system text it carries.
pub(crate) fn build_model(spec: &SolveSpec) -> Result<(ModelInfo, Box<dyn Model>), OdeError> {
    match (&spec.system, spec.model.is_empty()) {
        (Some(text), true) if spec.formulation.is_none() => build_user_system(text, &spec.params),
        (Some(_), true) => Err(OdeError::BadSpec {
            message: "formulation is for the constrained catalogue models".into(),
        }),
        (Some(_), false) => Err(OdeError::BadSpec {
            message: "give either model or system, not both".into(),
        }),
        (None, true) => Err(OdeError::BadSpec {
            message: "missing field `model` (a model id, or give your own `system` text)".into(),
        }),
        (None, false) => match multibody::build(spec)? {
            Some(built) => Ok(built),
            None => model::build(&spec.model, &spec.params),
        },
    }
}

impl Integrator {
    /// Validates the spec and sets up a run at (t0, y0).
    pub fn new(spec: &SolveSpec) -> Result<Self, OdeError> {
        let (info, model) = build_model(spec)?;
        let (method, custom) = method::resolve(&spec.method, spec.tableau.as_ref())?;
        if method.second_order && !info.second_order {
            return Err(OdeError::NeedsSecondOrderModel {
                method: method.id.into(),
                model: info.id.clone(),
            });
        }
        let jacobian = JacobianOptions::from_spec(
            spec.jacobian.as_deref(),
            spec.jacobian_update,
            spec.jacobian_scale,
        )?;
        let fast = match &spec.fast {
            Some(fast) => fast.clone(),
            None => info.fast.clone(),
        };
        if method.partitioned && fast.is_empty() {
            return Err(OdeError::BadSpec {
                message: format!(
                    "method \"{}\" needs the fast states: model \"{}\" declares none, so \
                     give their indices in the spec, e.g. fast: [1]",
                    method.id, info.id
                ),
            });
        }
        let options = MethodOptions {
            jacobian,
            fast,
            custom,
        };
        let stepper = method::create_with(&spec.method, info.dim, &options)?;
        // A non-native formulation maps the spec's y0 (native layout) itself.
        let native = Formulation::parse(spec.formulation.as_deref())? == Formulation::Native;
        let spec_y0 = if native { spec.y0.as_ref() } else { None };
        let y0 = match spec_y0 {
            Some(y0) if y0.len() != info.dim => {
                return Err(OdeError::WrongLength {
                    what: format!("initial state y0 of model \"{}\"", info.id),
                    expected: info.dim,
                    got: y0.len(),
                })
            }
            Some(y0) => y0.clone(),
            None => model.default_y0().unwrap_or_else(|| info.y0.clone()),
        };
        for (v, name) in y0.iter().zip(&info.names) {
            finite(*v, &format!("initial value of {name}"))?;
        }
        // Refuse up front, with both names, a method that needs derivatives the model
        // does not give (rather than failing at the first step).
        if method.needs_jacobian
            && jacobian.source == JacobianSource::Analytic
            && (model.jacobian(spec.t0.unwrap_or(info.t0), &y0).is_none()
                || model.dfdt(spec.t0.unwrap_or(info.t0), &y0).is_none())
        {
            return Err(OdeError::NoJacobian {
                method: method.id.into(),
                model: info.id.clone(),
            });
        }
        let adaptive = match spec.adaptive {
            None => method.adaptive,
            Some(true) if !method.adaptive => {
                return Err(OdeError::NotAdaptive {
                    method: method.id.into(),
                    adaptive: method::CATALOG
                        .iter()
                        .filter(|m| m.adaptive)
                        .map(|m| m.id.to_string())
                        .collect(),
                })
            }
            Some(a) => a,
        };
        let q = method.embedded_order.unwrap_or(method.order);
        let tolerance = spec.tolerance(info.dim)?;
        let norm = spec.error_norm()?;
        let controller = spec.controller(q)?;
        let mut detector = build_detector(spec, &info)?;
        let mut stats = Stats::default();
        let t0 = spec.t0.unwrap_or(info.t0);
        let t1 = spec.t1.unwrap_or(info.t1);
        let max_steps = spec.checked_max_steps()?;
        let pacing = if adaptive {
            let (t0, t1) = check_interval(t0, t1)?;
            let h_max = match spec.h_max {
                None => f64::INFINITY,
                Some(m) if m.is_nan() || m <= 0.0 => {
                    return Err(OdeError::OutOfRange {
                        what: "hMax (the largest step)".into(),
                        value: m,
                        allowed: "a positive number".into(),
                    })
                }
                Some(m) => m,
            };
            let h = match spec.h {
                Some(h) if h.is_nan() || h <= 0.0 => return Err(OdeError::BadStepSize { h }),
                Some(h) => finite(h, "step size h")?.min(t1 - t0),
                None => {
                    let h = initial_step(model.as_ref(), t0, &y0, t1, q, &tolerance, &mut stats);
                    // A constraint failure at the start shows again at the first step.
                    let _ = model.take_failure();
                    h
                }
            };
            Pacing::Adaptive {
                controller,
                h: h.min(h_max),
                max_steps,
                h_max,
            }
        } else {
            let h = spec.h.ok_or_else(|| OdeError::BadSpec {
                message: format!(
                    "method \"{}\" takes a fixed step: give a step size h",
                    spec.method
                ),
            })?;
            Pacing::Fixed {
                grid: Grid::new(t0, t1, h, max_steps)?,
                k: 0,
                max_steps,
            }
        };
        spec.checked_t_eval(t0, t1)?;
        detector.start(model.as_ref(), t0, &y0);
        Ok(Self {
            y_next: vec![0.0; info.dim],
            y_cut: vec![0.0; info.dim],
            info,
            method,
            model,
            stepper,
            options,
            restart: false,
            pacing,
            tolerance,
            norm,
            detector,
            t0,
            t1,
            t: t0,
            y: y0.clone(),
            y0,
            last_step: None,
            events: Vec::new(),
            stopped_by_event: false,
            stats,
        })
    }

    /// One step on the fixed grid: (t_new, method h, error estimate).
    fn fixed_step(&mut self) -> Result<(f64, f64, Option<f64>), OdeError> {
        let Pacing::Fixed { grid, k, max_steps } = &self.pacing else {
            unreachable!("fixed_step is only called on a fixed grid");
        };
        let (grid, k, max_steps) = (*grid, *k, *max_steps);
        // Event cuts add steps to the grid's; a switch the run cannot get past (issue 9:
        // a state one ulp short of it that a tiny step cannot move) would otherwise cut
        // forever.
        if self.stats.nsteps >= max_steps as u64 {
            return Err(OdeError::AdaptiveBudget {
                t: self.t,
                max_steps,
            });
        }
        let t_next = grid.time(k + 1);
        // Every step but a shortened last one (or the rest of a step an event cut)
        // uses exactly the requested h.
        let h = if k + 1 < grid.steps && self.t == grid.time(k) {
            grid.h
        } else {
            t_next - self.t
        };
        let result = self.stepper.step(
            self.model.as_ref(),
            self.t,
            &self.y,
            h,
            &mut self.y_next,
            &mut self.stats,
        );
        if let Some(f) = self.model.take_failure() {
            return Err(f.at(self.t, h));
        }
        result?;
        self.stats.nsteps += 1;
        if blew_up(&self.y_next) {
            return Err(OdeError::BlewUp { t: t_next, h });
        }
        let err = step_error(
            self.stepper.as_ref(),
            self.norm,
            &self.y,
            &self.y_next,
            &self.tolerance,
        );
        Ok((t_next, h, err))
    }

    /// Attempts steps until one passes the error test: (t_new, h, error estimate).
    fn adaptive_step(&mut self) -> Result<(f64, f64, Option<f64>), OdeError> {
        let Pacing::Adaptive {
            controller,
            h: h_proposed,
            max_steps,
            h_max,
        } = &mut self.pacing
        else {
            unreachable!("adaptive_step is only called with step-size control");
        };
        let mut rejected = false;
        let mut failures = 0;
        loop {
            if self.stats.nsteps >= *max_steps as u64 {
                return Err(OdeError::AdaptiveBudget {
                    t: self.t,
                    max_steps: *max_steps,
                });
            }
            *h_proposed = h_proposed.min(*h_max);
            // Land exactly on t1; h is recomputed from the times ("purify h", ode45).
            let t_new = if self.t + *h_proposed >= self.t1 {
                self.t1
            } else {
                self.t + *h_proposed
            };
            let h = t_new - self.t;
            // ode23/ode45's hmin = 16 eps |t|: below it t + h cannot be told from t.
            let h_min = 16.0 * f64::EPSILON * self.t.abs();
            if h.is_nan() || h <= h_min {
                return Err(OdeError::StepSizeUnderflow { t: self.t, h });
            }
            let result = self.stepper.step(
                self.model.as_ref(),
                self.t,
                &self.y,
                h,
                &mut self.y_next,
                &mut self.stats,
            );
            // A failed constraint solve inside f (issue 8) is the precise reason.
            let result = match self.model.take_failure() {
                Some(f) => Err(f.at(self.t, h)),
                None => result,
            };
            match result {
                Ok(()) => {}
                // A step too large for its linear algebra (a singular I − γhJ, Newton
                // not converging, e^{hJ} overflowing) is retried smaller, like a
                // rejected step; after MAX_STEP_FAILURES cuts in a row the failure is
                // the answer, with the t and h where it happened.
                Err(
                    e @ (OdeError::SingularMatrix { .. }
                    | OdeError::NewtonFailed { .. }
                    | OdeError::ExpmNotFinite { .. }
                    | OdeError::SingularSaddlePoint { .. }
                    | OdeError::ConstraintNewtonFailed { .. }),
                ) => {
                    self.stats.nsteps += 1;
                    self.stats.nreject += 1;
                    failures += 1;
                    if failures >= MAX_STEP_FAILURES {
                        return Err(e);
                    }
                    rejected = true;
                    *h_proposed = controller.after_reject(h, f64::INFINITY);
                    continue;
                }
                Err(e) => return Err(e),
            }
            self.stats.nsteps += 1;
            let err = step_error(
                self.stepper.as_ref(),
                self.norm,
                &self.y,
                &self.y_next,
                &self.tolerance,
            )
            .unwrap_or(0.0);
            let r = controller.measure(err, h);
            if controller.accepts(r) {
                *h_proposed = controller.after_accept(h, r, rejected);
                return Ok((t_new, h, Some(err)));
            }
            self.stats.nreject += 1;
            rejected = true;
            *h_proposed = controller.after_reject(h, r);
        }
    }

    /// The earliest crossing of a watched function in the step from (t, y) to
    /// (t_new, y_next), on the method's dense output of that step.
    fn find_crossing(&mut self, t_new: f64, h_method: f64) -> Result<Option<f64>, OdeError> {
        let stepper = &mut self.stepper;
        let model = self.model.as_ref();
        let mut dense = |theta: f64, out: &mut [f64], stats: &mut Stats| {
            stepper.dense_output(model, theta, out, stats)
        };
        let view = StepView {
            t: self.t,
            h: h_method,
            t_new,
            y_new: &self.y_next,
        };
        self.detector
            .check(model, view, &mut dense, &mut self.stats, &mut self.y_cut)
    }

    /// Looks for events in the accepted step to (t_new, y_next); if one fired, ends the
    /// step there. Returns (time reached, error estimate, events fired, whether cut).
    ///
    /// The step is recomputed to end at the located time rather than keeping the
    /// interpolated state there: the dense output is less accurate than the step, and
    /// its error would enter the solution at every switch. When the first step
    /// straddled the switch (so its dense output saw the other regime), the crossing is
    /// located again on the recomputed, shorter step, a few times at most.
    fn settle_events(
        &mut self,
        t_new: f64,
        h_method: f64,
        err_est: Option<f64>,
    ) -> Result<(f64, Option<f64>, usize, bool), OdeError> {
        const MAX_PASSES: usize = 4;
        let Some(mut t_cut) = self.find_crossing(t_new, h_method)? else {
            return Ok((t_new, err_est, 0, false));
        };
        let mut err_est = err_est;
        for pass in 1..=MAX_PASSES {
            let h = t_cut - self.t;
            self.stepper.step(
                self.model.as_ref(),
                self.t,
                &self.y,
                h,
                &mut self.y_next,
                &mut self.stats,
            )?;
            if let Some(f) = self.model.take_failure() {
                return Err(f.at(self.t, h));
            }
            if blew_up(&self.y_next) {
                return Err(OdeError::BlewUp { t: t_cut, h });
            }
            if err_est.is_some() {
                err_est = step_error(
                    self.stepper.as_ref(),
                    self.norm,
                    &self.y,
                    &self.y_next,
                    &self.tolerance,
                );
            }
            if pass == MAX_PASSES {
                break;
            }
            // None: the recomputed step stops short of the switch; the next step
            // starts there and finds it again.
            match self.find_crossing(t_cut, h)? {
                Some(again) if t_cut - again > EVENT_RTOL * t_cut.abs().max(h) => t_cut = again,
                _ => break,
            }
        }
        let (fired, terminal) = self
            .detector
            .commit(self.model.as_ref(), t_cut, &self.y_next);
        for &index in &fired {
            self.events.push(EventRecord {
                t: t_cut,
                y: self.y_next.clone(),
                index,
            });
        }
        self.stopped_by_event |= terminal;
        Ok((t_cut, err_est, fired.len(), true))
    }

    /// Takes the next step: one grid step, or one accepted adaptive step; either may be
    /// cut short by an event.
    pub fn step(&mut self) -> Result<StepInfo, OdeError> {
        if self.done() {
            return Err(OdeError::Finished { t1: self.t1 });
        }
        if self.restart {
            self.stepper = method::create_with(self.method.id, self.info.dim, &self.options)?;
            self.last_step = None;
            self.restart = false;
        }
        let (t_new, h_method, err_est) = match self.pacing {
            Pacing::Fixed { .. } => self.fixed_step()?,
            Pacing::Adaptive { .. } => self.adaptive_step()?,
        };
        let (t_new, err_est, new_events, cut) = if self.detector.is_empty() {
            (t_new, err_est, 0, false)
        } else {
            self.settle_events(t_new, h_method, err_est)?
        };
        if let Pacing::Fixed { grid, k, .. } = &mut self.pacing {
            // A cut inside the step leaves the grid point ahead; a crossing located at
            // the very end of the step reaches it.
            if !cut || t_new >= grid.time(*k + 1) {
                *k += 1;
            }
        }
        let h = t_new - self.t;
        // After a cut the method's last step is the recomputed one, ending at t_new.
        self.last_step = Some((self.t, if cut { h } else { h_method }));
        // Constrained formulations (issue 8): recover the dependent coordinates, check
        // the partition or project; a state rewritten in new coordinates restarts the
        // method there.
        if self
            .model
            .after_step(t_new, &mut self.y_next)
            .map_err(|f| f.at(t_new, h))?
        {
            self.restart = true;
        }
        std::mem::swap(&mut self.y, &mut self.y_next);
        self.t = t_new;
        self.stats.naccept += 1;
        Ok(StepInfo {
            t: t_new,
            h,
            err_est,
            new_events,
        })
    }

    /// The solution at time `t` within the last step, from the method's dense output.
    pub fn interpolate(&mut self, t: f64, out: &mut [f64]) -> Result<(), OdeError> {
        if t == self.t {
            out.copy_from_slice(&self.y);
            return Ok(());
        }
        let (t_prev, h) = self.last_step.ok_or(OdeError::BadTEval {
            message: format!("t = {} is not within a step taken", crate::error::num(t)),
        })?;
        if !(t >= t_prev && t <= self.t) {
            return Err(OdeError::BadTEval {
                message: format!(
                    "t = {} is outside the last step [{}, {}]",
                    crate::error::num(t),
                    crate::error::num(t_prev),
                    crate::error::num(self.t)
                ),
            });
        }
        self.stepper
            .dense_output(self.model.as_ref(), (t - t_prev) / h, out, &mut self.stats)
    }

    pub fn t(&self) -> f64 {
        self.t
    }

    pub fn y(&self) -> &[f64] {
        &self.y
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    pub fn model_info(&self) -> &ModelInfo {
        &self.info
    }

    pub fn method_info(&self) -> &MethodInfo {
        &self.method
    }

    /// True if the step size is chosen by error control.
    pub fn is_adaptive(&self) -> bool {
        matches!(self.pacing, Pacing::Adaptive { .. })
    }

    /// The fixed grid, for fixed-step runs.
    pub fn grid(&self) -> Option<&Grid> {
        match &self.pacing {
            Pacing::Fixed { grid, .. } => Some(grid),
            Pacing::Adaptive { .. } => None,
        }
    }

    pub fn t0(&self) -> f64 {
        self.t0
    }

    pub fn t1(&self) -> f64 {
        self.t1
    }

    /// Every event that has fired so far, in order.
    pub fn events(&self) -> &[EventRecord] {
        &self.events
    }

    /// True once the run has reached t1 or stopped at a terminal event.
    pub fn done(&self) -> bool {
        self.stopped_by_event
            || match &self.pacing {
                Pacing::Fixed { grid, k, .. } => *k >= grid.steps,
                Pacing::Adaptive { .. } => self.t >= self.t1,
            }
    }

    /// The model's outputs (energy…) at the current state.
    pub fn outputs(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.info.outputs.len()];
        self.model.outputs(self.t, &self.y, &mut out);
        out
    }

    /// What a constrained formulation did so far (issue 8), if the model is one.
    pub fn constraint_report(&self) -> Option<ConstraintReport> {
        self.model.constraint_report()
    }

    /// The exact solution at the current time, if the model knows it.
    pub fn exact(&self) -> Option<Vec<f64>> {
        let mut out = vec![0.0; self.info.dim];
        self.model
            .exact(self.t0, &self.y0, self.t, &mut out)
            .then_some(out)
    }
}

/// A whole run. Arrays are flat: `y[i * dim + j]` is state j at time `t[i]`, and
/// likewise `outputs[o][i]` and `exact[i * dim + j]`.
#[derive(Debug, Clone)]
pub struct Solution {
    pub t: Vec<f64>,
    pub y: Vec<f64>,
    pub dim: usize,
    pub names: Vec<String>,
    /// Derived outputs by name, one value per time point.
    pub outputs: Vec<(String, Vec<f64>)>,
    /// The exact solution at the same times, when the model knows it.
    pub exact: Option<Vec<f64>>,
    /// The step taken to reach each point after the first: `h[i] = t[i + 1] − t[i]`.
    pub h: Vec<f64>,
    /// The normalised error estimate of each accepted step (same length as `h`), for
    /// methods with an embedded formula; empty otherwise.
    pub err_est: Vec<f64>,
    /// The events that fired, in order.
    pub events: Vec<EventRecord>,
    /// The requested output times that the run reached (all of `tEval` unless it
    /// stopped early) and the states there, row-major like `y`.
    pub t_eval: Vec<f64>,
    pub y_eval: Vec<f64>,
    pub stats: Stats,
    /// Why the run stopped before t1, if it did (e.g. the solution blew up). The
    /// points up to that moment are kept so the blow-up can be seen.
    pub warning: Option<String>,
    /// The same reason as a typed error.
    pub stopped_by: Option<OdeError>,
    /// Re-partitions and Newton work of a constrained formulation (issue 8).
    pub constraint: Option<ConstraintReport>,
}

/// Integrates the spec from t0 to t1 and records every step.
pub fn solve(spec: &SolveSpec) -> Result<Solution, OdeError> {
    let mut run = Integrator::new(spec)?;
    let t_eval_wanted = spec.checked_t_eval(run.t0, run.t1)?;
    let dim = run.info.dim;
    let n = run.grid().map_or(64, |g| g.steps + 1);
    let mut t = Vec::with_capacity(n);
    let mut y = Vec::with_capacity(n * dim);
    let n_out = run.info.outputs.len();
    let mut outputs: Vec<Vec<f64>> = vec![Vec::with_capacity(n); n_out];
    let mut out = vec![0.0; n_out];
    let has_exact = run.info.exact;
    let mut exact = Vec::with_capacity(if has_exact { n * dim } else { 0 });
    let mut exact_point = vec![0.0; dim];
    let mut hs = Vec::with_capacity(n);
    let mut err_est = Vec::new();
    let mut t_eval = Vec::with_capacity(t_eval_wanted.len());
    let mut y_eval = Vec::with_capacity(t_eval_wanted.len() * dim);
    let mut y_point = vec![0.0; dim];
    let mut next_eval = 0;
    let mut stopped_by = None;
    loop {
        t.push(run.t);
        y.extend_from_slice(&run.y);
        run.model.outputs(run.t, &run.y, &mut out);
        for (series, v) in outputs.iter_mut().zip(&out) {
            series.push(*v);
        }
        if has_exact {
            run.model.exact(run.t0, &run.y0, run.t, &mut exact_point);
            exact.extend_from_slice(&exact_point);
        }
        while let Some(&te) = t_eval_wanted.get(next_eval) {
            if te > run.t {
                break;
            }
            run.interpolate(te, &mut y_point)?;
            t_eval.push(te);
            y_eval.extend_from_slice(&y_point);
            next_eval += 1;
        }
        if run.done() {
            break;
        }
        match run.step() {
            Ok(info) => {
                hs.push(info.h);
                if let Some(e) = info.err_est {
                    err_est.push(e);
                }
            }
            Err(
                e @ (OdeError::BlewUp { .. }
                | OdeError::StepSizeUnderflow { .. }
                | OdeError::AdaptiveBudget { .. }
                | OdeError::SingularMatrix { .. }
                | OdeError::NewtonFailed { .. }
                | OdeError::ExpmNotFinite { .. }
                | OdeError::SingularSaddlePoint { .. }
                | OdeError::ConstraintNewtonFailed { .. }
                | OdeError::IllConditionedPartition { .. }),
            ) => {
                stopped_by = Some(e);
                break;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Solution {
        t,
        y,
        dim,
        names: run.info.names.clone(),
        outputs: run.info.outputs.iter().cloned().zip(outputs).collect(),
        exact: has_exact.then_some(exact),
        h: hs,
        err_est,
        events: run.events.clone(),
        t_eval,
        y_eval,
        stats: run.stats,
        warning: stopped_by.as_ref().map(|e| e.to_string()),
        stopped_by,
        constraint: run.model.constraint_report(),
    })
}
