//! The binding: the one module that knows about wasm-bindgen and js-sys.
//!
//! It turns core types into JavaScript values and core errors into thrown `Error`s.
//! Bulk arrays cross as `Float64Array` copies (never views into wasm memory, which
//! are invalidated when memory grows); small objects cross through serde.
//!
//! The same crate is built into two wasm packages, chosen by cargo features
//! (`scripts/build-wasm.sh`): `run.rs` (feature `run`, without `full`) is
//! `pkg/odelab.js`, what the page needs for its first plot — the catalogues, `solve`,
//! `Integrator`, `describeSystem` — over a core that runs the catalogue models only;
//! `labs.rs` (feature `labs`, with `run` and `full`) is `pkg-labs/odelab_labs.js`,
//! loaded on first use — the stability and convergence labs, `spectrum`, tableau
//! analysis, the run/formulation comparisons, and the run API again over the whole
//! engine (user systems, formulations, sparse LU). What pkg/ cannot run it refuses with
//! `OdeError::NotInThisBuild`, thrown with `code` = [`crate::error::NOT_IN_THIS_BUILD`] by `solve`,
//! `new Integrator` and `describeSystem`; the worker re-runs those in pkg-labs/. A new binding goes into the file of the package
//! that needs it (a lab's function into `labs.rs`), reads its request with [`read`],
//! and adds its TypeScript types to that file's `typescript_custom_section`; types both
//! packages mention stay here. Each package's `.wasm` holds only the core code its
//! bindings reach (the linker drops the rest).

#[cfg(feature = "labs")]
mod homework;
#[cfg(feature = "labs")]
mod labs;
#[cfg(feature = "run")]
mod run;

use crate::convergence::ConvergenceSpec;
use crate::error::OdeError;
use crate::spec::{check_fields, field_names, ControllerSpec, EventSpec, SolveSpec};
use crate::spectrum::SpectrumSpec;
use crate::stability::{StabilitySpec, TableauSpec};
use js_sys::{Array, Object, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The TypeScript types both packages use (the spec of a run, its tableau, its counters).
#[wasm_bindgen(typescript_custom_section)]
const TS_SHARED_TYPES: &'static str = r#"
/** Step-size controller settings (adaptive methods). Defaults: kind "i", safety 0.9,
 *  facMin 0.2, facMax 10, kI = 1/k ("i") or 0.3/k with kP = 0.4/k ("pi"), where
 *  k = embeddedOrder + 1 (or embeddedOrder with perUnitStep). Without a controller,
 *  radau5 chooses its steps as Hairer's RADAU5 does (Gustafsson's predictive
 *  controller); naming one (e.g. { kind: "i" }) uses it instead. */
export interface ControllerSpec {
  kind?: "i" | "pi";
  kI?: number;
  kP?: number;
  safety?: number;
  facMin?: number;
  facMax?: number;
  perUnitStep?: boolean;
}
/** An event to watch: a sign change of the model's switching function `id`, or of
 *  `expr`, a text expression in the model's states, parameters and t (the labs
 *  package; the run package answers `not-in-this-build`). */
export interface EventSpec {
  id?: string;
  expr?: string;
  /** 1: rising only, -1: falling only, 0 (default): both. */
  direction?: -1 | 0 | 1;
  /** Stop the run at this event. */
  terminal?: boolean;
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
  /** Largest step an adaptive method may take (MATLAB's MaxStep): keeps it from
   *  stepping over a short input such as a bump in the road. */
  hMax?: number;
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
  /** Where ∂f/∂y and ∂f/∂t come from: "analytic" (default) or "fd" (finite differences). */
  jacobian?: "analytic" | "fd";
  /** Re-evaluate the Jacobian only every k steps (default 1). */
  jacobianUpdate?: number;
  /** Hand the method s·J instead of J (default 1; 0 gives J = 0). */
  jacobianScale?: number;
  /** Indices of the fast states for "slowfast" (default: ModelInfo.fast). */
  fast?: number[];
  /** generalized-alpha: { rhoInf } (ρ∞ in [0, 1], default 0.9); hht-alpha: { alpha }
   *  (in [−1/3, 0], default −0.1) or { rhoInf } (in [1/2, 1]); newmark: { beta, gamma }
   *  (γ ≥ 1/2, default 1/2; β ≥ 0, default (γ + 1/2)²/4). Other methods take none. */
  methodParams?: MethodParams;
  /** method "custom" only: your own explicit tableau. Adaptive (error estimate
   *  b − bHat, order from `analyzeTableau`) when it has bHat, fixed step otherwise. */
  tableau?: TableauSpec;
  /** Constrained models (double-pendulum-stiff, double-pendulum-rsda,
   *  pendulum-particle): "native" (default, the model file's own state), "augmented"
   *  (body coordinates, Gil, Sanfelice & Nikravesh (LLM) eq. 9: y = (q, q̇)) or "state-space" (Negrut et al. 2003 Algorithm 1:
   *  y = (v, v̇), the independent coordinates). `y0` stays in the native layout. Both
   *  non-native formulations report the same outputs: the native ones, "constraint |Φ|",
   *  "velocity constraint |Φq q̇|" and every body coordinate and rate as "q:x1", …,
   *  "q:φ̇2". The state-space Jacobian defaults to "fd" (through the constraint solve). */
  formulation?: "native" | "augmented" | "state-space" | "index-3";
  /** Augmented formulation only: "none" (default), "baumgarte" or "projection". */
  stabilization?: "none" | "baumgarte" | "projection";
  /** Baumgarte α and β (default 10 each): γ ← γ − 2αΦq q̇ − β²Φ. */
  baumgarteAlpha?: number;
  baumgarteBeta?: number;
  /** State-space: re-partition when cond(Φu) exceeds this (default 100). */
  partitionLimit?: number;
  /** State-space: the initial independent coordinates by name, e.g. ["φ1", "φ2"]
   *  (default: chosen by full-pivoting LU of Φq). */
  independent?: string[];
  /** Record every attempted step (default false): Solution.inspect. Runs without it
   *  record nothing extra. */
  inspect?: boolean;
}
/** What an `Error` thrown by the engine carries besides `message`, the text to show. */
export interface OdeErrorFields {
  /** The kind of error, stable across versions: "unknown-method", "bad-spec",
   *  "parse", "blew-up", "not-in-this-build", … (one per kind; the text may change). */
  code: string;
  /** A mistake in a typed text: its line and column (1-based; columns count characters). */
  line?: number;
  column?: number;
  /** An error of a running step: the t and h of that step. */
  t?: number;
  h?: number;
}
/** The parameters of the structural-dynamics methods (Chung & Hulbert 1993; Hilber,
 *  Hughes & Taylor 1977; Newmark 1959). */
export interface MethodParams {
  rhoInf?: number;
  alpha?: number;
  beta?: number;
  gamma?: number;
  /** The highest order bdf and ndf may use, a whole number 1–5 (default 5). */
  maxOrder?: number;
}
/** Work counters of a run. */
export interface Stats {
  nfev: number;
  /** Attempted steps (accepted + rejected). */
  nsteps: number;
  naccept: number;
  nreject: number;
  /** Jacobian evaluations. */
  njev: number;
  /** LU factorisations. */
  nlu: number;
  /** Matrix exponentials. */
  nexpm: number;
  /** Newton iterations. */
  nnewton: number;
  /** Attempts that did not become a step, by cause (nreject counts the retried ones;
   *  event: steps redone to end at an event; stepFloor: h at 16 eps |t|, the stop).
   *  In the whole engine only (pkg-labs, which runs every `inspect: true` spec). */
  rejectedByCause?: { error: number; newton: number; event: number; stepFloor: number; other: number };
}
/** A tableau entry: a number, or a string such as "1/6", "-3/4", "0.5" or
 *  "(3-sqrt(3))/6" (the system language's functions and pi, e; no variables). */
export type TableauEntry = number | string;
/** Your own Runge–Kutta method. s = b.length, 1 <= s <= 16; `a` is s × s and lower
 *  triangular (explicit: zero diagonal; diagonally implicit: a diagonal); `c` must be
 *  the row sums of `a` (to 1e-12; the default); `bHat` the weights of an embedded
 *  formula. Errors name the entry, e.g. "tableau.a[2][1] (row 3, column 2)". */
export interface TableauSpec {
  a: TableauEntry[][];
  b: TableauEntry[];
  c?: TableauEntry[];
  bHat?: TableauEntry[];
}
"#;

/// A core error as a thrown JS `Error`: `message` is its text, and the fields say what
/// a program needs without reading it: `code` ([`OdeError::code`]; the worker re-runs a
/// [`crate::error::NOT_IN_THIS_BUILD`] in pkg-labs/), `line` and `column` (1-based) for a located
/// error in a text, `t` and `h` for an error of a running step.
fn js_error(e: OdeError) -> JsValue {
    let value: JsValue = JsError::new(&e.to_string()).into();
    // Setting a property of a fresh Error object cannot fail.
    let put = |key: &str, v: JsValue| {
        let _ = Reflect::set(&value, &JsValue::from_str(key), &v);
    };
    put("code", JsValue::from_str(e.code()));
    if let OdeError::Parse { line, column, .. } = e {
        put("line", JsValue::from(line as f64));
        put("column", JsValue::from(column as f64));
    }
    if let Some((t, h)) = e.step() {
        put("t", JsValue::from(t));
        put("h", JsValue::from(h));
    }
    value
}

fn set(obj: &Object, key: &str, value: &JsValue) -> Result<(), JsValue> {
    Reflect::set(obj, &JsValue::from_str(key), value)
        .map(|_| ())
        .map_err(|_| JsError::new(&format!("could not set field {key}")).into())
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    serde_wasm_bindgen::to_value(value).map_err(|e| JsError::new(&e.to_string()).into())
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

/// An object nested in a request whose keys [`read`] checks too.
struct Nested {
    /// The request's field that holds it.
    key: &'static str,
    /// The nested struct's own fields (`field_names::<T>`).
    fields: fn() -> &'static [&'static str],
    /// The field is a list of such objects (`events`), not one object.
    list: bool,
}

impl Nested {
    const fn object(key: &'static str, fields: fn() -> &'static [&'static str]) -> Self {
        Nested {
            key,
            fields,
            list: false,
        }
    }

    const fn list(key: &'static str, fields: fn() -> &'static [&'static str]) -> Self {
        Nested {
            key,
            fields,
            list: true,
        }
    }
}

/// A request JS sends: a serde struct whose keys are checked before it is read.
/// serde-wasm-bindgen reads only the fields a struct declares, so serde's
/// `deny_unknown_fields` never sees a misspelt JS key; [`read`] refuses it instead.
trait Request: DeserializeOwned {
    /// The nested objects whose keys are checked as well.
    const NESTED: &'static [Nested] = &[];
}

const TABLEAU: Nested = Nested::object("tableau", field_names::<TableauSpec>);
#[cfg(feature = "full")]
const METHOD_PARAMS: Nested =
    Nested::object("methodParams", field_names::<crate::method::MethodParams>);

impl Request for SolveSpec {
    const NESTED: &'static [Nested] = &[
        Nested::object("controller", field_names::<ControllerSpec>),
        TABLEAU,
        Nested::list("events", field_names::<EventSpec>),
        #[cfg(feature = "full")]
        METHOD_PARAMS,
    ];
}
impl Request for TableauSpec {}
impl Request for StabilitySpec {
    const NESTED: &'static [Nested] = &[TABLEAU];
}
impl Request for ConvergenceSpec {
    const NESTED: &'static [Nested] = &[TABLEAU];
}
impl Request for SpectrumSpec {}
#[cfg(feature = "labs")]
impl Request for crate::stability::structural::StructuralSpec {
    const NESTED: &'static [Nested] = &[METHOD_PARAMS];
}

/// Refuses keys of `value` (named `what` in the message) and of its nested objects
/// that `T` does not declare.
fn check_keys<T: Request>(what: &str, value: &JsValue) -> Result<(), OdeError> {
    if let Some(keys) = object_keys(value) {
        check_fields(what, &keys, field_names::<T>())?;
    }
    for nested in T::NESTED {
        let Ok(inner) = Reflect::get(value, &JsValue::from_str(nested.key)) else {
            continue;
        };
        if nested.list {
            if Array::is_array(&inner) {
                for (i, item) in Array::from(&inner).iter().enumerate() {
                    if let Some(keys) = object_keys(&item) {
                        check_fields(&format!("{}[{i}]", nested.key), &keys, (nested.fields)())?;
                    }
                }
            }
        } else if let Some(keys) = object_keys(&inner) {
            check_fields(nested.key, &keys, (nested.fields)())?;
        }
    }
    Ok(())
}

/// Reads the request `what` ("the spec", "tableau", …): refuses unknown keys (with a
/// "did you mean" suggestion), then deserialises it; every failure is a `BadSpec` that
/// names `what` ("invalid type: string \"big\", expected f64 in the spec").
fn read<T: Request>(what: &str, value: JsValue) -> Result<T, JsValue> {
    check_keys::<T>(what, &value).map_err(js_error)?;
    serde_wasm_bindgen::from_value(value).map_err(|e| {
        // The JS error's text starts with its class name ("Error: …"); the page shows
        // only the message.
        let text = e.to_string();
        js_error(OdeError::BadSpec {
            message: format!("{} in {what}", text.trim_start_matches("Error: ")),
        })
    })
}
