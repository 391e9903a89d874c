//! The run package (`pkg/odelab.js`, cargo feature `run`): what the page needs for its
//! first plot — the method, model and stability-method catalogues, `describeSystem`,
//! `solve` and the step-by-step `Integrator`. Nothing of the labs is reachable from
//! here, so the first `.wasm` the page fetches carries none of their code; built
//! without the feature `full` it runs the catalogue models only, and `solve`,
//! `new Integrator` and `describeSystem` throw an `Error` with `code`
//! "not-in-this-build" for the rest (`OdeError::NotInThisBuild`). The labs package
//! exports these same bindings over the whole engine.

use super::{js_error, read, set, to_js};
use crate::driver::{self, Solution};
use crate::error::OdeError;
use crate::event::EventRecord;
use crate::method;
use crate::model;
use crate::spec::SolveSpec;
use crate::stability;
use js_sys::{Array, Float64Array, Object};
use std::ops::ControlFlow;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_RUN_TYPES: &'static str = r#"
/** A method in the catalogue (see `methods()`). */
export interface MethodInfo {
  id: string;
  name: string;
  order: number;
  family: string;
  source: string;
  /** Right-hand-side evaluations per step (a reused FSAL stage not counted). */
  stages: number;
  /** Has an error estimate: adapts its step by default. */
  adaptive: boolean;
  /** Order of the embedded error estimate, for adaptive methods. */
  embeddedOrder?: number;
  /** First same as last: the last stage of a step is the next step's first. */
  fsal: boolean;
  /** Order of the dense output used for tEval and events. */
  denseOrder: number;
  /** Only for second-order models (ModelInfo.secondOrder): y = (q, q'). */
  secondOrder: boolean;
  /** Uses the Jacobian ∂f/∂y and ∂f/∂t (the model's, or finite differences with
   *  `jacobian: "fd"`). */
  needsJacobian: boolean;
  /** L-stable: R(z) → 0 as z → −∞. */
  lStable: boolean;
  /** Needs a slow/fast partition (ModelInfo.fast or SolveSpec.fast). */
  partitioned: boolean;
}
/** A switching function a model declares; name it in SolveSpec.events by id. */
export interface EventInfo {
  id: string;
  description: string;
  /** Direction watched when the spec does not say: -1 falling, 0 both, 1 rising. */
  direction: number;
  /** Whether the run stops there when the spec does not say. */
  terminal: boolean;
  /** Watched even when the spec lists no events (a system's `event` lines). */
  watched: boolean;
}
/** A model parameter with its default value. */
export interface ParamInfo {
  name: string;
  value: number;
  unit: string;
  description: string;
  greaterThan?: number;
  /** An integer that sizes an array of states (N of `u[i]' = … for i = 1..N`). */
  integer?: boolean;
}
/** A model in the catalogue (see `models()`). */
export interface ModelInfo {
  id: string;
  name: string;
  dim: number;
  names: string[];
  params: ParamInfo[];
  y0: number[];
  /** Default start time (1/π for sin-inv-t, else 0). */
  t0: number;
  t1: number;
  source: string;
  outputs: string[];
  exact: boolean;
  /** Indices of the fast states of a slow/fast partition (Gil, Sanfelice & Nikravesh 2013); empty if none. */
  fast: number[];
  /** Formulations `SolveSpec.formulation` accepts ("native", "augmented",
   *  "state-space") for constrained mechanisms; empty otherwise. */
  formulations: string[];
  /** y = (q, q') halves of a second-order system q'' = f(t, q, q'). */
  secondOrder: boolean;
  /** Switching functions the model declares (for SolveSpec.events). */
  events: EventInfo[];
}
/** An event that fired: time, state there, index into SolveSpec.events. */
export interface EventRecord {
  t: number;
  y: Float64Array;
  index: number;
}
/** A re-partition of a state-space run (Negrut et al. 2003 Algorithm 1 step 7). */
export interface Repartition {
  t: number;
  /** cond(Φu) of the old partition that triggered it. */
  condition: number;
  /** The new independent coordinates; the columns of `y` hold them from here on. */
  independent: string[];
}
/** What a constrained formulation did besides stepping. */
export interface ConstraintReport {
  formulation: "augmented" | "state-space" | "index-3";
  /** The independent coordinates at the start (state-space). */
  independent: string[];
  repartitions: Repartition[];
  /** Newton iterations (state-space recovery of u, or projection). */
  newtonIterations: number;
  /** Saddle-point solves of Gil, Sanfelice & Nikravesh (LLM) eq. (9). */
  saddleSolves: number;
  /** The constraints that (nearly) lose rank together at the last accepted state,
   *  when Φ_q is close to singular there (a mechanism that locks); else empty. */
  locked: string[];
}
/** A whole run. `y` is row-major: `y[i * dim + j]` is state `names[j]` at `t[i]`. */
export interface Solution {
  t: Float64Array;
  y: Float64Array;
  dim: number;
  names: string[];
  /** Derived outputs (e.g. energy), one value per time point. */
  outputs: Record<string, Float64Array>;
  /** The exact solution at the same times (row-major like `y`), when known. */
  exact?: Float64Array;
  /** Step taken to reach each point after the first: h[i] = t[i+1] - t[i]. */
  h: Float64Array;
  /** Normalised error estimate of each step (<= 1: within tolerance); empty for
   *  methods without an error estimate. */
  errEst: Float64Array;
  /** Events that fired, in order. */
  events: EventRecord[];
  /** The tEval times reached, and y there (row-major like `y`). */
  tEval: Float64Array;
  yEval: Float64Array;
  stats: Stats;
  /** Why the run stopped before t1 (it blew up, step size underflow, step budget, a
   *  singular matrix, Newton failure, a non-finite exponential, a singular
   *  saddle-point matrix, constraint Newton failure, an unfixable partition), or why
   *  its result is doubtful: `diagnosis`'s message and advice when there is one. */
  warning?: string;
  /** Why the run stopped or why its result is doubtful, computed from the run. */
  diagnosis?: Diagnosis;
  /** Constrained formulations (SolveSpec.formulation): re-partitions, Newton work. */
  constraint?: ConstraintReport;
  /** Present when the run took more steps than fit in memory: only every 2^k-th step
   *  (and the start, every event and the end) was kept; says so in words. h[i] and
   *  errEst[i] are then the step that ended at t[i+1]. */
  thinned?: string;
  /** Every attempted step, when the spec asked (`inspect: true`). */
  inspect?: StepLog;
}
/** Every attempted step of a run, column by column: attempt i began at t[i] with step
 *  h[i], had the error norm err[i] against 1 (NaN without an estimate), came to
 *  causes[cause[i]] ("accepted", "error", "newton", "event", "step-floor", "other") and
 *  cost newton[i] Newton iterations, jacobians[i] Jacobian evaluations and lus[i] LU
 *  factorisations; order[i] is the order it used, for a method that changes its order
 *  (bdf, ndf; absent for the others). `truncated`: more than 2^20 attempts, the later
 *  ones not logged. */
export interface StepLog {
  t: Float64Array;
  h: Float64Array;
  err: Float64Array;
  cause: Uint8Array;
  newton: Uint32Array;
  jacobians: Uint32Array;
  lus: Uint32Array;
  order?: Uint32Array;
  causes: string[];
  truncated: boolean;
}
/** The published list of diagnosis codes (`diagnosisCodes()` in the labs package). */
export type DiagnosisCode =
  | "stiff"
  | "unstable-step"
  | "newton"
  | "not-finite"
  | "solution-blow-up"
  | "max-steps"
  | "tolerance-too-tight"
  | "event-chatter"
  | "step-underflow"
  | "singular-mechanism"
  | "work-budget";
/** One setting change that cures a diagnosed problem, and the words of its button. */
export interface DiagnosisFix {
  label: string;
  method?: string;
  h?: number;
  rtol?: number;
}
/** Why a run stopped, or why its result is doubtful. */
export interface Diagnosis {
  code: DiagnosisCode;
  /** What happened, in plain words. */
  message: string;
  /** What to do about it, naming controls the page has. */
  advice: string;
  /** Where it happened. */
  t?: number;
  /** The numbers behind it (eigenvalue, largest stable h…). */
  detail?: string;
  /** A one-click fix, when one setting change cures it. */
  fix?: DiagnosisFix;
}
/** What `Integrator.advance(n)` returns: up to n steps, flat and row-major. */
export interface Chunk {
  t: Float64Array;
  y: Float64Array;
  /** Model outputs, row-major: `outputs[i * outputNames.length + k]`. */
  outputs: Float64Array;
  exact?: Float64Array;
  done: boolean;
  /** Work counters of the whole run so far. */
  stats: Stats;
  /** Why the run stopped early (e.g. it blew up), if it did. */
  warning?: string;
  /** Its diagnosis (in the whole engine, the labs package). */
  diagnosis?: Diagnosis;
}
/** What `Integrator.step()` returns. */
export interface StepResult {
  t: number;
  y: Float64Array;
  h: number;
  /** The step's normalised error estimate, for methods that have one. */
  errEst?: number;
  /** Events that fired at the end of this step (usually none). */
  events: EventRecord[];
}
"#;

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

fn events_to_js(events: &[EventRecord]) -> Result<JsValue, JsValue> {
    let list = Array::new();
    for e in events {
        let obj = Object::new();
        set(&obj, "t", &JsValue::from_f64(e.t))?;
        set(&obj, "y", &Float64Array::from(&e.y[..]))?;
        set(&obj, "index", &JsValue::from(e.index as u32))?;
        list.push(&obj);
    }
    Ok(list.into())
}

fn solution_to_js(sol: &Solution) -> Result<JsValue, JsValue> {
    let obj = Object::new();
    set(&obj, "t", &Float64Array::from(&sol.t[..]))?;
    set(&obj, "y", &Float64Array::from(&sol.y[..]))?;
    set(&obj, "dim", &JsValue::from(sol.dim as u32))?;
    set(&obj, "names", &to_js(&sol.names)?)?;
    let outputs = Object::new();
    for (name, series) in &sol.outputs {
        set(&outputs, name, &Float64Array::from(&series[..]))?;
    }
    set(&obj, "outputs", &outputs)?;
    if let Some(exact) = &sol.exact {
        set(&obj, "exact", &Float64Array::from(&exact[..]))?;
    }
    set(&obj, "h", &Float64Array::from(&sol.h[..]))?;
    set(&obj, "errEst", &Float64Array::from(&sol.err_est[..]))?;
    set(&obj, "events", &events_to_js(&sol.events)?)?;
    set(&obj, "tEval", &Float64Array::from(&sol.t_eval[..]))?;
    set(&obj, "yEval", &Float64Array::from(&sol.y_eval[..]))?;
    set(&obj, "stats", &to_js(&sol.stats)?)?;
    if let Some(w) = &sol.warning {
        set(&obj, "warning", &JsValue::from_str(w))?;
    }
    #[cfg(feature = "full")]
    if let Some(d) = &sol.diagnosis {
        set(&obj, "diagnosis", &to_js(d)?)?;
    }
    if let Some(c) = &sol.constraint {
        set(&obj, "constraint", &to_js(c)?)?;
    }
    if let Some(note) = &sol.thinned {
        set(&obj, "thinned", &JsValue::from_str(note))?;
    }
    #[cfg(feature = "full")]
    if let Some(log) = &sol.inspect {
        set(&obj, "inspect", &step_log_to_js(log)?)?;
    }
    Ok(obj.into())
}
/// The step inspector's columns (`driver::inspect`).
#[cfg(feature = "full")]
fn step_log_to_js(log: &driver::inspect::StepLog) -> Result<JsValue, JsValue> {
    let obj = Object::new();
    set(&obj, "t", &Float64Array::from(&log.t[..]))?;
    set(&obj, "h", &Float64Array::from(&log.h[..]))?;
    set(&obj, "err", &Float64Array::from(&log.err[..]))?;
    set(&obj, "cause", &js_sys::Uint8Array::from(&log.cause[..]))?;
    set(&obj, "newton", &js_sys::Uint32Array::from(&log.newton[..]))?;
    set(
        &obj,
        "jacobians",
        &js_sys::Uint32Array::from(&log.jacobians[..]),
    )?;
    set(&obj, "lus", &js_sys::Uint32Array::from(&log.lus[..]))?;
    if !log.order.is_empty() {
        set(&obj, "order", &js_sys::Uint32Array::from(&log.order[..]))?;
    }
    set(&obj, "causes", &to_js(&driver::inspect::CAUSES)?)?;
    set(&obj, "truncated", &JsValue::from_bool(log.truncated))?;
    Ok(obj.into())
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
        let obj = Object::new();
        set(&obj, "t", &JsValue::from_f64(info.t))?;
        set(&obj, "y", &Float64Array::from(&self.inner.reported_y()[..]))?;
        set(&obj, "h", &JsValue::from_f64(info.h))?;
        if let Some(e) = info.err_est {
            set(&obj, "errEst", &JsValue::from_f64(e))?;
        }
        let fired = self.inner.events();
        let new = &fired[fired.len().saturating_sub(info.new_events)..];
        set(&obj, "events", &events_to_js(new)?)?;
        Ok(obj.into())
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
        let obj = Object::new();
        set(&obj, "t", &Float64Array::from(&t[..]))?;
        set(&obj, "y", &Float64Array::from(&y[..]))?;
        set(&obj, "outputs", &Float64Array::from(&outputs[..]))?;
        if has_exact {
            set(&obj, "exact", &Float64Array::from(&exact[..]))?;
        }
        let done = self.inner.done() || warning.is_some();
        set(&obj, "done", &JsValue::from_bool(done))?;
        set(&obj, "stats", &to_js(&self.inner.stats())?)?;
        if let Some(w) = warning {
            set(&obj, "warning", &JsValue::from_str(&w))?;
        }
        #[cfg(feature = "full")]
        if let Some(d) = &diagnosis {
            set(&obj, "diagnosis", &to_js(d)?)?;
        }
        Ok(obj.into())
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
        events_to_js(self.inner.events())
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
