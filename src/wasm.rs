//! The binding: the one module that knows about wasm-bindgen and js-sys.
//!
//! It turns core types into JavaScript values and core errors into thrown `Error`s.
//! Bulk arrays cross as `Float64Array` copies (never views into wasm memory, which
//! are invalidated when memory grows); small objects cross through serde.

use crate::driver::{self, Solution};
use crate::error::OdeError;
use crate::event::EventRecord;
use crate::method;
use crate::model;
use crate::spec::{check_fields, field_names, ControllerSpec, EventSpec, SolveSpec};
use js_sys::{Array, Float64Array, Object, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
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
  /** Indices of the fast states of a slow/fast partition (seed 003); empty if none. */
  fast: number[];
  /** y = (q, q') halves of a second-order system q'' = f(t, q, q'). */
  secondOrder: boolean;
  /** Switching functions the model declares (for SolveSpec.events). */
  events: EventInfo[];
}
/** Step-size controller settings (adaptive methods). Defaults: kind "i", safety 0.9,
 *  facMin 0.2, facMax 10, kI = 1/k ("i") or 0.3/k with kP = 0.4/k ("pi"), where
 *  k = embeddedOrder + 1 (or embeddedOrder with perUnitStep). */
export interface ControllerSpec {
  kind?: "i" | "pi";
  kI?: number;
  kP?: number;
  safety?: number;
  facMin?: number;
  facMax?: number;
  perUnitStep?: boolean;
}
/** An event to watch: a sign change of the model's switching function `id`. `expr`
 *  (a text expression) is reserved: it is refused with an error for now. */
export interface EventSpec {
  id?: string;
  expr?: string;
  /** 1: rising only, -1: falling only, 0 (default): both. */
  direction?: -1 | 0 | 1;
  /** Stop the run at this event. */
  terminal?: boolean;
}
/** An event that fired: time, state there, index into SolveSpec.events. */
export interface EventRecord {
  t: number;
  y: Float64Array;
  index: number;
}
/** What `solve` and `new Integrator` accept. */
export interface SolveSpec {
  /** A model id; or give `system` instead. */
  model?: string;
  /**
   * Your own system as text, e.g. "param k = 100\nx' = v\nv' = -k*x\nx(0) = 1".
   * Errors name the line and column. Its `event` lines are watched unless `events` is given.
   */
  system?: string;
  params?: Record<string, number>;
  y0?: number[];
  method: string;
  t0?: number;
  t1?: number;
  /** Fixed-step methods: the step. Adaptive methods: the first step (optional). */
  h?: number;
  /** Step budget; for adaptive methods, attempted steps. */
  maxSteps?: number;
  /** Relative tolerance, one or per component (default 1e-3). */
  rtol?: number | number[];
  /** Absolute tolerance, one or per component (default 1e-6). */
  atol?: number | number[];
  /** Error norm: "rms" (default) or "max". */
  norm?: "rms" | "max";
  controller?: ControllerSpec;
  /** false: run an adaptive method on the fixed grid of h. */
  adaptive?: boolean;
  /** Sorted times in [t0, t1] at which to report y from the dense output. */
  tEval?: number[];
  events?: EventSpec[];
}
/** Work counters of a run. */
export interface Stats {
  nfev: number;
  /** Attempted steps (accepted + rejected). */
  nsteps: number;
  naccept: number;
  nreject: number;
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
  /** Why the run stopped before t1 (it blew up, step size underflow, step budget). */
  warning?: string;
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

fn js_error(e: OdeError) -> JsError {
    JsError::new(&e.to_string())
}

fn set(obj: &Object, key: &str, value: &JsValue) -> Result<(), JsError> {
    Reflect::set(obj, &JsValue::from_str(key), value)
        .map(|_| ())
        .map_err(|_| JsError::new(&format!("could not set field {key}")))
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    serde_wasm_bindgen::to_value(value).map_err(|e| JsError::new(&e.to_string()))
}

/// The own keys of a plain JS object (not of arrays or other values).
fn object_keys(value: &JsValue) -> Option<Vec<String>> {
    if !value.is_object() || Array::is_array(value) {
        return None;
    }
    let obj: &Object = value.unchecked_ref();
    Some(
        Object::keys(obj)
            .iter()
            .filter_map(|k| k.as_string())
            .collect(),
    )
}

/// Refuses misspelt keys in the spec, its controller and its events (serde-wasm-bindgen
/// reads only the fields it knows, so serde's `deny_unknown_fields` never sees them).
fn check_spec_keys(spec: &JsValue) -> Result<(), OdeError> {
    if let Some(keys) = object_keys(spec) {
        check_fields("the spec", &keys, field_names::<SolveSpec>())?;
    }
    let field = |name: &str| Reflect::get(spec, &JsValue::from_str(name)).ok();
    if let Some(keys) = field("controller").as_ref().and_then(object_keys) {
        check_fields("controller", &keys, field_names::<ControllerSpec>())?;
    }
    if let Some(events) = field("events").filter(Array::is_array) {
        for (i, event) in Array::from(&events).iter().enumerate() {
            if let Some(keys) = object_keys(&event) {
                check_fields(&format!("events[{i}]"), &keys, field_names::<EventSpec>())?;
            }
        }
    }
    Ok(())
}

fn read_spec(spec: JsValue) -> Result<SolveSpec, JsError> {
    check_spec_keys(&spec).map_err(js_error)?;
    serde_wasm_bindgen::from_value(spec).map_err(|e| {
        // The JS error's text starts with its class name ("Error: …"); the page shows
        // only the message.
        let text = e.to_string();
        js_error(OdeError::BadSpec {
            message: text.trim_start_matches("Error: ").to_string(),
        })
    })
}

/// The method catalogue.
#[wasm_bindgen(unchecked_return_type = "MethodInfo[]")]
pub fn methods() -> Result<JsValue, JsError> {
    to_js(method::CATALOG)
}

/// The model catalogue.
#[wasm_bindgen(unchecked_return_type = "ModelInfo[]")]
pub fn models() -> Result<JsValue, JsError> {
    to_js(&model::catalog())
}

/// Parses and checks the text of your own system and describes it like a catalogue
/// model (states, parameters, initial values, outputs, events); throws an `Error`
/// naming the line and column of the first problem.
#[wasm_bindgen(js_name = describeSystem, unchecked_return_type = "ModelInfo")]
pub fn describe_system(text: &str) -> Result<JsValue, JsError> {
    let (info, _) = crate::expr::build_user_system(text, &Default::default()).map_err(js_error)?;
    to_js(&info)
}

fn events_to_js(events: &[EventRecord]) -> Result<JsValue, JsError> {
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

fn solution_to_js(sol: &Solution) -> Result<JsValue, JsError> {
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
    Ok(obj.into())
}

/// Integrates `spec` from t0 to t1; throws an `Error` saying what is wrong with a bad spec.
#[wasm_bindgen(unchecked_return_type = "Solution")]
pub fn solve(
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] spec: JsValue,
) -> Result<JsValue, JsError> {
    let spec = read_spec(spec)?;
    let sol = driver::solve(&spec).map_err(js_error)?;
    solution_to_js(&sol)
}

/// A run kept in Rust, advanced one step at a time (for animation).
#[wasm_bindgen]
pub struct Integrator {
    inner: driver::Integrator,
}

#[wasm_bindgen]
impl Integrator {
    /// Validates `spec` and sets up the run at (t0, y0).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SolveSpec")] spec: JsValue,
    ) -> Result<Integrator, JsError> {
        let spec = read_spec(spec)?;
        Ok(Integrator {
            inner: driver::Integrator::new(&spec).map_err(js_error)?,
        })
    }

    /// Takes one step; returns the time reached, the new state and the step size.
    #[wasm_bindgen(unchecked_return_type = "StepResult")]
    pub fn step(&mut self) -> Result<JsValue, JsError> {
        let info = self.inner.step().map_err(js_error)?;
        let obj = Object::new();
        set(&obj, "t", &JsValue::from_f64(info.t))?;
        set(&obj, "y", &Float64Array::from(self.inner.y()))?;
        set(&obj, "h", &JsValue::from_f64(info.h))?;
        if let Some(e) = info.err_est {
            set(&obj, "errEst", &JsValue::from_f64(e))?;
        }
        let fired = self.inner.events();
        let new = &fired[fired.len().saturating_sub(info.new_events)..];
        set(&obj, "events", &events_to_js(new)?)?;
        Ok(obj.into())
    }

    /// Takes up to `max_steps` steps (fewer at t1 or at a blow-up) and returns them as
    /// flat arrays: one call per animation frame instead of one per step.
    #[wasm_bindgen(unchecked_return_type = "Chunk")]
    pub fn advance(&mut self, max_steps: u32) -> Result<JsValue, JsError> {
        let dim = self.inner.y().len();
        let n_out = self.inner.model_info().outputs.len();
        let n = max_steps as usize;
        // Reserve for a frame's worth of steps at most: `n` comes from JS (up to 2³² − 1)
        // and the run may end long before; a huge reservation would abort the module
        // (issue 9). The vectors grow if a run really takes more steps.
        let reserve = n.min(ADVANCE_RESERVE);
        let mut t = Vec::with_capacity(reserve);
        let mut y = Vec::with_capacity(reserve * dim);
        let mut outputs = Vec::with_capacity(reserve * n_out);
        let has_exact = self.inner.model_info().exact;
        let mut exact = Vec::new();
        let mut warning = None;
        for _ in 0..n {
            if self.inner.done() {
                break;
            }
            match self.inner.step() {
                Ok(info) => t.push(info.t),
                Err(e @ OdeError::BlewUp { .. }) => {
                    warning = Some(e.to_string());
                    break;
                }
                Err(e) => return Err(js_error(e)),
            }
            y.extend_from_slice(self.inner.y());
            outputs.extend(self.inner.outputs());
            if has_exact {
                exact.extend(self.inner.exact().unwrap_or_default());
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
    pub fn events(&self) -> Result<JsValue, JsError> {
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
    pub fn stats(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.stats())
    }
}
