//! The run package (`pkg/odelab.js`, cargo feature `run`): what the page needs for its
//! first plot — the method, model and stability-method catalogues, `describeSystem`,
//! `solve` and the step-by-step `Integrator`. Nothing of the labs is reachable from
//! here, so the first `.wasm` the page fetches carries none of their code; built
//! without the feature `full` it runs the catalogue models only, and `solve`,
//! `new Integrator` and `describeSystem` throw an `Error` with `code`
//! "not-in-this-build" for the rest (`OdeError::NotInThisBuild`). The labs package
//! exports these same bindings over the whole engine.

use super::{js_error, read, set, to_js};
use crate::driver::{self, Diagnosis};
use crate::error::OdeError;
use crate::method;
use crate::model;
use crate::multibody::ConstraintReport;
use crate::spec::SolveSpec;
use crate::stability;
use crate::stats::Stats;
use js_sys::{Array, Float64Array, Object, Uint32Array, Uint8Array};
use serde::Serialize;
use serde_wasm_bindgen::preserve;
use std::ops::ControlFlow;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

/// An event that fired: time, state there, index into `SolveSpec.events`.
#[derive(Serialize, Tsify)]
pub struct EventRecord {
    pub t: f64,
    #[serde(with = "preserve")]
    pub y: Float64Array,
    pub index: u32,
}

/// A whole run. `y` is row-major: `y[i * dim + j]` is state `names[j]` at `t[i]`.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct Solution<'a> {
    #[serde(with = "preserve")]
    pub t: Float64Array,
    #[serde(with = "preserve")]
    pub y: Float64Array,
    pub dim: u32,
    pub names: &'a [String],
    /// What was integrated, in words: the model's source line, which for a constrained
    /// mechanism names the formulation that ran (its states are `names`).
    pub source: &'a str,
    /// y by state: `yColumns[j][i]` is state `names[j]` at `t[i]` (= `y[i * dim + j]`).
    #[serde(with = "preserve")]
    #[tsify(type = "Float64Array[]")]
    pub y_columns: Array,
    /// Whether the run chose its steps by error control (false: a fixed grid of h), as
    /// the spec's `adaptive` and the method decided.
    pub adaptive: bool,
    /// Derived outputs (e.g. energy), one value per time point.
    #[serde(with = "preserve")]
    #[tsify(type = "Record<string, Float64Array>")]
    pub outputs: Object,
    /// The exact solution at the same times (row-major like `y`), when known.
    #[serde(with = "preserve", skip_serializing_if = "JsValue::is_undefined")]
    #[tsify(optional, type = "Float64Array")]
    pub exact: JsValue,
    /// Step taken to reach each point after the first: h[i] = t[i+1] - t[i].
    #[serde(with = "preserve")]
    pub h: Float64Array,
    /// Normalised error estimate of each step (<= 1: within tolerance); empty for
    /// methods without an error estimate.
    #[serde(with = "preserve")]
    pub err_est: Float64Array,
    /// Events that fired, in order.
    pub events: Vec<EventRecord>,
    /// The tEval times reached, and y there (row-major like `y`).
    #[serde(with = "preserve")]
    pub t_eval: Float64Array,
    #[serde(with = "preserve")]
    pub y_eval: Float64Array,
    pub stats: &'a Stats,
    /// Why the run stopped before t1 (it blew up, step size underflow, step budget, a
    /// singular matrix, Newton failure, a non-finite exponential, a singular
    /// saddle-point matrix, constraint Newton failure, an unfixable partition), or why
    /// its result is doubtful: `diagnosis`'s message and advice when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub warning: Option<&'a str>,
    /// Why the run stopped or why its result is doubtful, computed from the run (in the
    /// whole engine, the labs package).
    #[cfg_attr(feature = "full", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(not(feature = "full"), serde(skip_serializing_if = "super::left_out"))]
    #[tsify(optional)]
    pub diagnosis: Option<&'a Diagnosis>,
    /// Constrained formulations (SolveSpec.formulation): re-partitions, Newton work.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub constraint: Option<&'a ConstraintReport>,
    /// Present when the run took more steps than fit in memory: only every 2^k-th step
    /// (and the start, every event and the end) was kept; says so in words. h[i] and
    /// errEst[i] are then the step that ended at t[i+1].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub thinned: Option<&'a str>,
    /// Every attempted step, when the spec asked (`inspect: true`).
    #[cfg_attr(feature = "full", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(not(feature = "full"), serde(skip_serializing_if = "super::left_out"))]
    #[tsify(optional)]
    pub inspect: Option<StepLog>,
}

/// Every attempted step of a run, column by column: attempt i began at t[i] with step
/// h[i], had the error norm err[i] against 1 (NaN without an estimate), came to
/// causes[cause[i]] ("accepted", "error", "newton", "event", "step-floor", "other") and
/// cost newton[i] Newton iterations, jacobians[i] Jacobian evaluations and lus[i] LU
/// factorisations; order[i] is the order it used, for a method that changes its order
/// (bdf, ndf; absent for the others). `truncated`: more than 2^20 attempts, the later
/// ones not logged.
#[derive(Serialize, Tsify)]
pub struct StepLog {
    #[serde(with = "preserve")]
    pub t: Float64Array,
    #[serde(with = "preserve")]
    pub h: Float64Array,
    #[serde(with = "preserve")]
    pub err: Float64Array,
    #[serde(with = "preserve")]
    pub cause: Uint8Array,
    #[serde(with = "preserve")]
    pub newton: Uint32Array,
    #[serde(with = "preserve")]
    pub jacobians: Uint32Array,
    #[serde(with = "preserve")]
    pub lus: Uint32Array,
    #[serde(with = "preserve", skip_serializing_if = "JsValue::is_undefined")]
    #[tsify(optional, type = "Uint32Array")]
    pub order: JsValue,
    pub causes: &'static [&'static str],
    pub truncated: bool,
}

/// What `Integrator.advance(n)` returns: up to n steps, flat and row-major.
#[derive(Serialize, Tsify)]
pub struct Chunk<'a> {
    #[serde(with = "preserve")]
    pub t: Float64Array,
    #[serde(with = "preserve")]
    pub y: Float64Array,
    /// Model outputs, row-major: `outputs[i * outputNames.length + k]`.
    #[serde(with = "preserve")]
    pub outputs: Float64Array,
    #[serde(with = "preserve", skip_serializing_if = "JsValue::is_undefined")]
    #[tsify(optional, type = "Float64Array")]
    pub exact: JsValue,
    pub done: bool,
    /// Work counters of the whole run so far.
    pub stats: &'a Stats,
    /// Why the run stopped early (e.g. it blew up), if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub warning: Option<String>,
    /// Its diagnosis (in the whole engine, the labs package).
    #[cfg_attr(feature = "full", serde(skip_serializing_if = "Option::is_none"))]
    #[cfg_attr(not(feature = "full"), serde(skip_serializing_if = "super::left_out"))]
    #[tsify(optional)]
    pub diagnosis: Option<Diagnosis>,
}

/// What `Integrator.step()` returns.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct StepResult {
    pub t: f64,
    #[serde(with = "preserve")]
    pub y: Float64Array,
    pub h: f64,
    /// The step's normalised error estimate, for methods that have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub err_est: Option<f64>,
    /// Events that fired at the end of this step (usually none).
    pub events: Vec<EventRecord>,
}

/// Most steps `Integrator.advance(n)` reserves room for up front.
const ADVANCE_RESERVE: usize = 4096;

/// 2⁵³ − 1, the largest integer every JS number below it represents exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The method catalogue.
#[wasm_bindgen(unchecked_return_type = "MethodInfo[]")]
pub fn methods() -> Result<JsValue, JsValue> {
    to_js(method::CATALOG)
}

/// The model catalogue.
#[wasm_bindgen(unchecked_return_type = "ModelInfo[]")]
pub fn models() -> Result<JsValue, JsValue> {
    to_js(&model::catalog())
}

/// Parses and checks the text of your own system and describes it like a catalogue
/// model (states, parameters, initial values, outputs, events); throws an `Error`
/// naming the line and column of the first problem.
#[wasm_bindgen(js_name = describeSystem, unchecked_return_type = "ModelInfo")]
pub fn describe_system(text: &str) -> Result<JsValue, JsValue> {
    let spec = SolveSpec {
        system: Some(text.to_string()),
        ..Default::default()
    };
    let (info, _) = driver::build_model(&spec).map_err(js_error)?;
    to_js(&info)
}
/// The ids `stabilityMap` knows (method ids, plus "custom" for a user's tableau).
#[wasm_bindgen(js_name = stabilityMethods, unchecked_return_type = "string[]")]
pub fn stability_methods() -> Result<JsValue, JsValue> {
    to_js(&stability::amplification::ids())
}

fn events_of(events: &[crate::event::EventRecord]) -> Vec<EventRecord> {
    events
        .iter()
        .map(|e| EventRecord {
            t: e.t,
            y: Float64Array::from(&e.y[..]),
            index: e.index as u32,
        })
        .collect()
}

fn solution_to_js(sol: &driver::Solution) -> Result<JsValue, JsValue> {
    let f64s = |v: &[f64]| Float64Array::from(v);
    let y_columns = Array::new();
    let n = sol.t.len();
    for j in 0..sol.dim {
        let mut column = Vec::with_capacity(n);
        for i in 0..n {
            column.push(sol.y[i * sol.dim + j]);
        }
        y_columns.push(&f64s(&column));
    }
    let outputs = Object::new();
    for (name, series) in &sol.outputs {
        set(&outputs, name, &f64s(series))?;
    }
    to_js(&Solution {
        t: f64s(&sol.t),
        y: f64s(&sol.y),
        dim: sol.dim as u32,
        names: &sol.names,
        source: &sol.source,
        y_columns,
        adaptive: sol.adaptive,
        outputs,
        exact: sol
            .exact
            .as_deref()
            .map_or(JsValue::UNDEFINED, |e| f64s(e).into()),
        h: f64s(&sol.h),
        err_est: f64s(&sol.err_est),
        events: events_of(&sol.events),
        t_eval: f64s(&sol.t_eval),
        y_eval: f64s(&sol.y_eval),
        stats: &sol.stats,
        warning: sol.warning.as_deref(),
        #[cfg(feature = "full")]
        diagnosis: sol.diagnosis.as_ref(),
        #[cfg(not(feature = "full"))]
        diagnosis: None,
        constraint: sol.constraint.as_ref(),
        thinned: sol.thinned.as_deref(),
        #[cfg(feature = "full")]
        inspect: sol.inspect.as_ref().map(step_log),
        #[cfg(not(feature = "full"))]
        inspect: None,
    })
}

/// The step inspector's columns (`driver::inspect`).
#[cfg(feature = "full")]
fn step_log(log: &driver::inspect::StepLog) -> StepLog {
    StepLog {
        t: Float64Array::from(&log.t[..]),
        h: Float64Array::from(&log.h[..]),
        err: Float64Array::from(&log.err[..]),
        cause: Uint8Array::from(&log.cause[..]),
        newton: Uint32Array::from(&log.newton[..]),
        jacobians: Uint32Array::from(&log.jacobians[..]),
        lus: Uint32Array::from(&log.lus[..]),
        order: if log.order.is_empty() {
            JsValue::UNDEFINED
        } else {
            Uint32Array::from(&log.order[..]).into()
        },
        causes: &driver::inspect::CAUSES,
        truncated: log.truncated,
    }
}

/// Integrates `spec` from t0 to t1; throws an `Error` saying what is wrong with a bad spec.
#[wasm_bindgen(unchecked_return_type = "Solution")]
pub fn solve(
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec = read::<SolveSpec>("the spec", spec)?;
    let sol = driver::solve(&spec).map_err(js_error)?;
    solution_to_js(&sol)
}

/// A run kept in the engine and advanced in chunks: the JS API for scripts, the
/// console and the worker's `open`/`advance` requests (`EngineClient.open`), which
/// want a long run's points as they come instead of one `Solution` at the end. The
/// page's Animate replays the stored run and does not use it. `advance(n)` and `step()`
/// go through the driver's one step loop (`driver::Integrator::run_steps`), so a
/// chunked run computes the same bits, and reports the same stop, as `solve`.
#[wasm_bindgen]
pub struct Integrator {
    inner: driver::Integrator,
    /// The spec, to diagnose a stop (the whole run again, recorded: `driver::solve`).
    #[cfg(feature = "full")]
    spec: SolveSpec,
}

/// The diagnosis of the run `spec` describes, when it stops: the step-by-step run keeps
/// no record, so the stop is diagnosed on the whole run again (same bits).
#[cfg(feature = "full")]
fn stop_diagnosis(spec: &SolveSpec) -> Option<driver::Diagnosis> {
    driver::diagnosis_of(spec)
}

#[wasm_bindgen]
impl Integrator {
    /// Validates `spec` and sets up the run at (t0, y0).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SolveSpec")] spec: JsValue,
    ) -> Result<Integrator, JsValue> {
        let spec = read::<SolveSpec>("the spec", spec)?;
        Ok(Integrator {
            inner: driver::Integrator::new(&spec).map_err(js_error)?,
            #[cfg(feature = "full")]
            spec,
        })
    }

    /// Takes one step; returns the time reached, the new state and the step size.
    #[wasm_bindgen(unchecked_return_type = "StepResult")]
    pub fn step(&mut self) -> Result<JsValue, JsValue> {
        let info = self.inner.step().map_err(js_error)?;
        let fired = self.inner.events();
        let new = &fired[fired.len().saturating_sub(info.new_events)..];
        to_js(&StepResult {
            t: info.t,
            y: Float64Array::from(&self.inner.reported_y()[..]),
            h: info.h,
            err_est: info.err_est,
            events: events_of(new),
        })
    }

    /// Takes up to `max_steps` steps (fewer at t1, at a stop, or when the chunk holds as
    /// many values as a run may record) and returns them as flat arrays: one call per
    /// animation frame instead of one per step. `max_steps` is a JS number, checked here:
    /// a u32 parameter would turn −1 into 2³² − 1 and 2³² into 0 without a word.
    #[wasm_bindgen(unchecked_return_type = "Chunk")]
    pub fn advance(&mut self, max_steps: f64) -> Result<JsValue, JsValue> {
        if !(max_steps >= 0.0 && max_steps.fract() == 0.0 && max_steps <= MAX_SAFE_INTEGER) {
            return Err(js_error(OdeError::OutOfRange {
                what: "advance(n): the number of steps n".into(),
                value: max_steps,
                allowed: "a whole number from 0 to 2^53 − 1".into(),
            }));
        }
        let dim = self.inner.y().len();
        let n_out = self.inner.model_info().outputs.len();
        // Each step adds t, y, the outputs and the exact solution to the chunk.
        let exact_dim = usize::from(self.inner.model_info().exact) * dim;
        let per_step = 1 + dim + n_out + exact_dim;
        let fit = driver::record::MAX_RECORDED_VALUES / per_step;
        let n = (max_steps as u64).min(fit as u64) as usize;
        // Reserve for a frame's worth of steps at most: `n` comes from JS and the run may
        // end long before; a huge reservation would abort the module. The vectors grow
        // if a run really takes more steps.
        let reserve = n.min(ADVANCE_RESERVE);
        let mut t = Vec::with_capacity(reserve);
        let mut y = Vec::with_capacity(reserve * dim);
        let mut outputs = Vec::with_capacity(reserve * n_out);
        let has_exact = self.inner.model_info().exact;
        let mut exact = Vec::new();
        let mut warning = None;
        #[cfg(feature = "full")]
        let mut diagnosis = None;
        // The same stop `solve` reports as a warning (driver::Ended::Stopped).
        let mut taken = 0;
        let ended = if n == 0 {
            driver::Ended::Finished
        } else {
            self.inner
                .run_steps(|run, info| {
                    t.push(info.t);
                    y.extend(run.reported_y());
                    outputs.extend(run.outputs());
                    if has_exact {
                        exact.extend(run.exact().unwrap_or_default());
                    }
                    taken += 1;
                    Ok(if taken < n {
                        ControlFlow::Continue(())
                    } else {
                        ControlFlow::Break(())
                    })
                })
                .map_err(js_error)?
        };
        if let driver::Ended::Stopped(e) = ended {
            warning = Some(e.to_string());
            #[cfg(feature = "full")]
            {
                diagnosis = stop_diagnosis(&self.spec);
                if let Some(d) = &diagnosis {
                    warning = Some(d.text());
                }
            }
        }
        let done = self.inner.done() || warning.is_some();
        to_js(&Chunk {
            t: Float64Array::from(&t[..]),
            y: Float64Array::from(&y[..]),
            outputs: Float64Array::from(&outputs[..]),
            exact: if has_exact {
                Float64Array::from(&exact[..]).into()
            } else {
                JsValue::UNDEFINED
            },
            done,
            stats: &self.inner.stats(),
            warning,
            #[cfg(feature = "full")]
            diagnosis,
            #[cfg(not(feature = "full"))]
            diagnosis: None,
        })
    }

    /// Current time.
    #[wasm_bindgen(getter)]
    pub fn t(&self) -> f64 {
        self.inner.t()
    }

    /// Current state (a copy).
    #[wasm_bindgen(getter)]
    pub fn y(&self) -> Float64Array {
        Float64Array::from(self.inner.y())
    }

    /// Every event that has fired so far.
    #[wasm_bindgen(getter, unchecked_return_type = "EventRecord[]")]
    pub fn events(&self) -> Result<JsValue, JsValue> {
        to_js(&events_of(self.inner.events()))
    }

    /// True once the run has reached t1 (or stopped at a terminal event).
    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.inner.done()
    }

    /// The model's outputs (e.g. energy) at the current state, in `ModelInfo.outputs` order.
    #[wasm_bindgen(getter)]
    pub fn outputs(&self) -> Float64Array {
        Float64Array::from(&self.inner.outputs()[..])
    }

    /// The exact solution at the current time, when the model knows it.
    #[wasm_bindgen(getter)]
    pub fn exact(&self) -> Option<Float64Array> {
        self.inner.exact().map(|e| Float64Array::from(&e[..]))
    }

    /// Work counters so far.
    #[wasm_bindgen(getter, unchecked_return_type = "Stats")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.stats())
    }

    /// The run's model description: with a `formulation` its state names and outputs
    /// differ from the catalogue entry's.
    #[wasm_bindgen(js_name = modelInfo, unchecked_return_type = "ModelInfo")]
    pub fn model_info(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.model_info())
    }

    /// Re-partitions and Newton work of a constrained formulation, if any.
    #[wasm_bindgen(js_name = constraintReport, unchecked_return_type = "ConstraintReport | undefined")]
    pub fn constraint_report(&self) -> Result<JsValue, JsValue> {
        match self.inner.constraint_report() {
            Some(c) => to_js(&c),
            None => Ok(JsValue::UNDEFINED),
        }
    }
}
