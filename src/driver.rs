//! The driver: runs a method over an interval, one step at a time ([`Integrator`]) or
//! all at once ([`solve`]), and records t, y, the model's outputs and statistics.

use crate::error::OdeError;
use crate::method::{self, Stepper};
use crate::model::{self, Model, ModelInfo};
use crate::spec::{finite, Grid, SolveSpec, DEFAULT_MAX_STEPS};
pub use crate::stats::Stats;

/// A state component beyond this magnitude (or NaN) counts as a blow-up. It is far
/// above any physical value, and low enough that squares of it (energies, norms) stay
/// finite, so what was computed up to the blow-up can still be plotted.
pub const BLOW_UP: f64 = 1e150;

/// A run in progress: model, method, current state, kept between calls.
pub struct Integrator {
    info: ModelInfo,
    model: Box<dyn Model>,
    stepper: Box<dyn Stepper>,
    grid: Grid,
    k: usize,
    t: f64,
    y: Vec<f64>,
    y0: Vec<f64>,
    y_next: Vec<f64>,
    stats: Stats,
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepInfo {
    /// Time reached.
    pub t: f64,
    /// Step size taken.
    pub h: f64,
}

impl Integrator {
    /// Validates the spec and sets up a run at (t0, y0).
    pub fn new(spec: &SolveSpec) -> Result<Self, OdeError> {
        let (info, model) = model::build(&spec.model, &spec.params)?;
        let stepper = method::create(&spec.method, info.dim)?;
        let y0 = match &spec.y0 {
            Some(y0) if y0.len() != info.dim => {
                return Err(OdeError::WrongLength {
                    what: format!("initial state y0 of model \"{}\"", info.id),
                    expected: info.dim,
                    got: y0.len(),
                })
            }
            Some(y0) => y0.clone(),
            None => info.y0.clone(),
        };
        for (v, name) in y0.iter().zip(&info.names) {
            finite(*v, &format!("initial value of {name}"))?;
        }
        let h = spec.h.ok_or_else(|| OdeError::BadSpec {
            message: format!(
                "method \"{}\" takes a fixed step: give a step size h",
                spec.method
            ),
        })?;
        let grid = Grid::new(
            spec.t0.unwrap_or(0.0),
            spec.t1.unwrap_or(info.t1),
            h,
            spec.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
        )?;
        Ok(Self {
            y_next: vec![0.0; info.dim],
            info,
            model,
            stepper,
            t: grid.t0,
            grid,
            k: 0,
            y: y0.clone(),
            y0,
            stats: Stats::default(),
        })
    }

    /// Takes the next step of the grid.
    pub fn step(&mut self) -> Result<StepInfo, OdeError> {
        if self.done() {
            return Err(OdeError::Finished { t1: self.grid.t1 });
        }
        let t_next = self.grid.time(self.k + 1);
        // Every step but a shortened last one uses exactly the requested h.
        let h = if self.k + 1 < self.grid.steps {
            self.grid.h
        } else {
            t_next - self.t
        };
        self.stepper.step(
            self.model.as_ref(),
            self.t,
            &self.y,
            h,
            &mut self.y_next,
            &mut self.stats,
        )?;
        // NaN fails every comparison, so test for "within bounds" and negate.
        let within = |v: &f64| v.abs() <= BLOW_UP;
        if !self.y_next.iter().all(within) {
            return Err(OdeError::BlewUp { t: t_next, h });
        }
        std::mem::swap(&mut self.y, &mut self.y_next);
        self.t = t_next;
        self.k += 1;
        self.stats.nsteps += 1;
        Ok(StepInfo { t: t_next, h })
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

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// True once the run has reached t1.
    pub fn done(&self) -> bool {
        self.k >= self.grid.steps
    }

    /// The model's outputs (energy…) at the current state.
    pub fn outputs(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.info.outputs.len()];
        self.model.outputs(self.t, &self.y, &mut out);
        out
    }

    /// The exact solution at the current time, if the model knows it.
    pub fn exact(&self) -> Option<Vec<f64>> {
        let mut out = vec![0.0; self.info.dim];
        self.model
            .exact(self.grid.t0, &self.y0, self.t, &mut out)
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
    pub stats: Stats,
    /// Why the run stopped before t1, if it did (e.g. the solution blew up). The
    /// points up to that moment are kept so the blow-up can be seen.
    pub warning: Option<String>,
}

/// Integrates the spec from t0 to t1 and records every step.
pub fn solve(spec: &SolveSpec) -> Result<Solution, OdeError> {
    let mut run = Integrator::new(spec)?;
    let dim = run.info.dim;
    let n = run.grid.steps + 1;
    let mut t = Vec::with_capacity(n);
    let mut y = Vec::with_capacity(n * dim);
    let n_out = run.info.outputs.len();
    let mut outputs: Vec<Vec<f64>> = vec![Vec::with_capacity(n); n_out];
    let mut out = vec![0.0; n_out];
    let has_exact = run.info.exact;
    let mut exact = Vec::with_capacity(if has_exact { n * dim } else { 0 });
    let mut exact_point = vec![0.0; dim];
    let mut warning = None;
    loop {
        t.push(run.t);
        y.extend_from_slice(&run.y);
        run.model.outputs(run.t, &run.y, &mut out);
        for (series, v) in outputs.iter_mut().zip(&out) {
            series.push(*v);
        }
        if has_exact {
            run.model
                .exact(run.grid.t0, &run.y0, run.t, &mut exact_point);
            exact.extend_from_slice(&exact_point);
        }
        if run.done() {
            break;
        }
        match run.step() {
            Ok(_) => {}
            Err(e @ OdeError::BlewUp { .. }) => {
                warning = Some(e.to_string());
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
        stats: run.stats,
        warning,
    })
}
