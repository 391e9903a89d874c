//! The binding: the one module that knows about wasm-bindgen and js-sys.
//!
//! It turns core types into JavaScript values and core errors into thrown `Error`s.
//! Bulk arrays cross as `Float64Array` copies (never views into wasm memory, which
//! are invalidated when memory grows); small objects cross through serde.

use crate::driver::{self, Solution};
use crate::error::OdeError;
use crate::method;
use crate::model;
use crate::spec::{check_field_names, SolveSpec};
use js_sys::{Float64Array, Object, Reflect};
use serde::de::IgnoredAny;
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A method in the catalogue (see `methods()`). */
export interface MethodInfo {
  id: string;
  name: string;
  order: number;
  family: string;
  source: string;
  stages: number;
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
  t1: number;
  source: string;
  outputs: string[];
  exact: boolean;
}
/** What `solve` and `new Integrator` accept. */
export interface SolveSpec {
  model: string;
  params?: Record<string, number>;
  y0?: number[];
  method: string;
  t0?: number;
  t1?: number;
  h?: number;
  maxSteps?: number;
}
/** Work counters of a run. */
export interface Stats {
  nfev: number;
  nsteps: number;
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
  stats: Stats;
  /** Why the run stopped before t1 (e.g. it blew up), if it did. */
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
}
"#;

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

fn read_spec(spec: JsValue) -> Result<SolveSpec, JsError> {
    let bad = |e: serde_wasm_bindgen::Error| {
        js_error(OdeError::BadSpec {
            message: e.to_string(),
        })
    };
    // serde-wasm-bindgen reads only the fields a struct names, so a misspelt field
    // would pass silently: check the object's own keys first.
    let keys: BTreeMap<String, IgnoredAny> =
        serde_wasm_bindgen::from_value(spec.clone()).map_err(bad)?;
    check_field_names(keys.keys().map(String::as_str)).map_err(js_error)?;
    serde_wasm_bindgen::from_value(spec).map_err(bad)
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
        Ok(obj.into())
    }

    /// Takes up to `max_steps` steps (fewer at t1 or at a blow-up) and returns them as
    /// flat arrays: one call per animation frame instead of one per step.
    #[wasm_bindgen(unchecked_return_type = "Chunk")]
    pub fn advance(&mut self, max_steps: u32) -> Result<JsValue, JsError> {
        let dim = self.inner.y().len();
        let n_out = self.inner.model_info().outputs.len();
        let n = max_steps as usize;
        let mut t = Vec::with_capacity(n);
        let mut y = Vec::with_capacity(n * dim);
        let mut outputs = Vec::with_capacity(n * n_out);
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

    /// True once the run has reached t1.
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
