//! The binding: the one module that knows about wasm-bindgen and js-sys.
//!
//! It turns core types into JavaScript values and core errors into thrown `Error`s.
//! Bulk arrays cross as `Float64Array` copies (never views into wasm memory, which
//! are invalidated when memory grows); small objects cross through serde.

use crate::convergence::{self, ConvergenceSpec};
use crate::driver::{self, Solution};
use crate::error::OdeError;
use crate::event::EventRecord;
use crate::method;
use crate::model;
use crate::spec::{check_fields, field_names, ControllerSpec, EventSpec, SolveSpec};
use crate::stability::{self, Contour, StabilitySpec, TableauSpec};
use js_sys::{Array, Float64Array, Object, Reflect, Uint32Array};
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
  /** Indices of the fast states of a slow/fast partition (seed 003); empty if none. */
  fast: number[];
  /** Formulations `SolveSpec.formulation` accepts ("native", "augmented",
   *  "state-space") for constrained mechanisms; empty otherwise. */
  formulations: string[];
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
  /** method "custom" only: your own explicit tableau. Adaptive (error estimate
   *  b − bHat, order from `analyzeTableau`) when it has bHat, fixed step otherwise. */
  tableau?: TableauSpec;
  /** Constrained models (double-pendulum-stiff, double-pendulum-rsda,
   *  pendulum-particle): "native" (default, the model file's own state), "augmented"
   *  (body coordinates, 000 eq. 9: y = (q, q̇)) or "state-space" (001 Algorithm 1:
   *  y = (v, v̇), the independent coordinates). `y0` stays in the native layout. Both
   *  non-native formulations report the same outputs: the native ones, "constraint |Φ|",
   *  "velocity constraint |Φq q̇|" and every body coordinate and rate as "q:x1", …,
   *  "q:φ̇2". The state-space Jacobian defaults to "fd" (through the constraint solve). */
  formulation?: "native" | "augmented" | "state-space";
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
}
/** A re-partition of a state-space run (001 Algorithm 1 step 7). */
export interface Repartition {
  t: number;
  /** cond(Φu) of the old partition that triggered it. */
  condition: number;
  /** The new independent coordinates; the columns of `y` hold them from here on. */
  independent: string[];
}
/** What a constrained formulation did besides stepping. */
export interface ConstraintReport {
  formulation: "augmented" | "state-space";
  /** The independent coordinates at the start (state-space). */
  independent: string[];
  repartitions: Repartition[];
  /** Newton iterations (state-space recovery of u, or projection). */
  newtonIterations: number;
  /** Saddle-point solves of 000 eq. (9). */
  saddleSolves: number;
}
/** Error of one quantity against the reference (001 Tables 4 and 6). */
export interface ErrorRow {
  quantity: string;
  /** Time of the largest error. */
  tStar: number;
  max: number;
  relErrPercent: number;
  /** RMS error over the steps. */
  rms: number;
}
/** One formulation's run in `compareFormulations`. */
export interface FormulationRow {
  formulation: "augmented" | "state-space";
  naccept: number;
  nreject: number;
  nfev: number;
  njev: number;
  nlu: number;
  newtonIterations: number;
  repartitions: number;
  maxDrift: number;
  maxVelocityDrift: number;
  finalDrift: number;
  finalVelocityDrift: number;
  /** Wall time of the run in milliseconds (Date.now(), so millisecond resolution). */
  timeMs: number;
  /** Body 1's angle φ1 (Table 4) and rate φ̇1 (Table 6) against the reference; for
   *  vehicle-stiff the chassis height yc and its rate (001 Fig. 4). */
  position: ErrorRow;
  velocity: ErrorRow;
  stoppedBy?: string;
}
/** What `compareFormulations` returns (001 Tables 4–6 layout). */
export interface FormulationComparison {
  model: string;
  method: string;
  /** The reference run in words: "native ros4 at rtol = atol = 1e-10", or for
   *  vehicle-stiff the same mechanism in the state-space formulation. */
  reference: string;
  /** Steps of the reference run. */
  referenceSteps: number;
  rows: FormulationRow[];
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
   *  saddle-point matrix, constraint Newton failure, an unfixable partition). */
  warning?: string;
  /** Constrained formulations (SolveSpec.formulation): re-partitions, Newton work. */
  constraint?: ConstraintReport;
}
/** What `spectrum()` takes: a model (or system text), its parameters and a state. */
export interface SpectrumSpec {
  model?: string;
  system?: string;
  params?: Record<string, number>;
  t?: number;
  /** The state; the model's default initial state when absent. */
  y?: number[];
  /** A constrained model's formulation: eigenvalues of that formulation's ODE, y in its layout. */
  formulation?: 'native' | 'augmented' | 'state-space';
  /** The state-space coordinates y is written in (after a re-partition). */
  independent?: string[];
  /** The augmented run's stabilisation: Baumgarte changes the ODE (α, β default 10). */
  stabilization?: 'none' | 'baumgarte' | 'projection';
  baumgarteAlpha?: number;
  baumgarteBeta?: number;
}
/** One row of `compareRuns`: a state's largest error Δ, where (t*), relative, RMS. */
export interface ComponentError {
  name: string;
  maxError: number;
  tMax: number;
  relativeError: number;
  rmsError: number;
}
/** What `compareRuns` returns (seed 001 §3.1, Tables 4 and 6). */
export interface RunComparison {
  table: ComponentError[];
  runStats: Stats;
  referenceStats: Stats;
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
/** What the stability lab accepts. The map's value at ξ = hλ is |R(ξ)| (one-step
 *  methods), ρ(M(ξ)) (midpoint2, slowfast) or the largest root modulus of the
 *  characteristic polynomial (ab3, am-pece = AB3 + AM4 PECE, bdf2); the region of
 *  absolute stability is where it is <= 1. midpoint2 is for q'' + 2βωq' + ω²q = 0: ξ
 *  stands for that oscillator's eigenvalue pair hλ, hλ̄ (hω = |ξ|, β = −Re ξ/|ξ|). */
export interface StabilitySpec {
  /** One of `stabilityMethods()`: euler, heun, rk4, bs23, dp45, midpoint2,
   *  backward-euler, bdf2, ab3, am-pece, ros4, w2, llm, slowfast, or "custom" with
   *  `tableau`. */
  method: string;
  /** [a, b], a < b: the Re ξ range (maps and contours). */
  re?: [number, number];
  /** [c, d], c < d: the Im ξ range. */
  im?: [number, number];
  /** Columns and rows, each >= 2, nx * ny <= 4194304 (2048²). */
  nx?: number;
  ny?: number;
  /** slowfast only: α = λf/λs (default 100) and β = δ/λf = μ/λs (default 0.1),
   *  seed 003 eq. (51). */
  alpha?: number;
  beta?: number;
  /** method "custom" only: an s × s lower-triangular A (explicit or diagonally
   *  implicit), s weights b, optional s nodes c (see `TableauSpec`). */
  tableau?: TableauSpec;
}
/** The boundary value = 1 as polylines: polyline k is points offsets[k] .. offsets[k+1]
 *  (exclusive) of `xy`, which holds (Re ξ, Im ξ) pairs: its coordinates are
 *  xy[2*offsets[k] .. 2*offsets[k+1]]. A closed polyline repeats its first point last. */
export interface StabilityContour {
  xy: Float64Array;
  /** npolylines + 1 point indices, offsets[0] = 0. */
  offsets: Uint32Array;
  closed: boolean[];
}
/** Facts by root refinement (to ~1e-12), independent of the window. */
export interface StabilityFacts {
  /** End of the stable interval [x, 0] on the negative real axis; -Infinity if the whole
   *  axis (to |ξ| = 1e8) is stable; absent if unstable just left of 0. */
  realIntercept?: number;
  /** End of the stable interval [0, i y]; Infinity if unbounded; absent if no part of
   *  the imaginary axis but 0 is stable. */
  imagExtent?: number;
  /** The closed left half-plane is inside the region. */
  aStable: boolean;
  /** The value as ξ → −∞ along the real axis (|R(−∞)|; Infinity for explicit methods). */
  valueAtMinusInfinity: number;
  /** A-stable and valueAtMinusInfinity < 1e-6. */
  lStable: boolean;
}
/** Map, contour and facts from one call. `values[iy * nx + ix]` is the value at
 *  Re ξ = re[0] + ix (re[1] − re[0])/(nx − 1), Im ξ = im[0] + iy (im[1] − im[0])/(ny − 1);
 *  values are >= 0 and may be Infinity (a pole, or overflow), never NaN. */
export interface StabilityAnalysis {
  values: Float64Array;
  nx: number;
  ny: number;
  contour: StabilityContour;
  facts: StabilityFacts;
}
/** What `convergence` runs. h = (t1 − t0)/2^n for n = nMin..nMax (defaults 4, 14;
 *  nMax <= 23, at least three levels; all fixed-step runs together <= 2^25 steps). */
export interface ConvergenceSpec {
  model: string;
  params?: Record<string, number>;
  y0?: number[];
  t0?: number;
  t1?: number;
  /** Method ids (see `methods()`); adaptive ones also run the tolerance sweep. */
  methods: string[];
  nMin?: number;
  nMax?: number;
  /** Work–precision tolerances, rtol = atol = tol (default 1e-2 … 1e-10; [] for none). */
  tols?: number[];
  /** One-step study step sizes (default 0.1 · 2^-k, k = 0..9). */
  localH?: number[];
}
/** A least-squares slope of log(error) vs log(h) over points from..to (inclusive). */
export interface SlopeFit {
  /** NaN if fewer than two usable points. */
  slope: number;
  from: number;
  to: number;
  /** Index of the smallest error when the error stops decreasing after it (the
   *  round-off floor of seed 002 §7.5); absent if still decreasing at the smallest h. */
  floor?: number;
}
/** Global error at t1 for each h (arrays indexed by level, h decreasing). */
export interface GlobalSeries {
  method: string;
  /** The method's order p, used by Richardson. */
  order: number;
  n: Float64Array;
  h: Float64Array;
  /** Max-norm error at t1; Infinity where the run blew up. */
  error: Float64Array;
  nfev: Float64Array;
  /** D_n = |y_n − y_(n−1)| (seed 002 §7.6); NaN at the first level. */
  d: Float64Array;
  /** D_(n−1)/D_n → 2^p; NaN at the first two levels. */
  dRatio: Float64Array;
  /** Richardson's estimate of the error of y_n, D_n/(2^p − 1) (002 eq. 7.9). */
  richardson: Float64Array;
  fit: SlopeFit;
}
export interface WorkPrecisionSeries {
  method: string;
  tol: Float64Array;
  nfev: Float64Array;
  nsteps: Float64Array;
  error: Float64Array;
}
/** Error of one step from the exact state at t0, for each h (decreasing). */
export interface LocalSeries {
  method: string;
  h: Float64Array;
  error: Float64Array;
  /** Max norm of the method's own error estimate of that step (000 Fig. 6); NaN for
   *  methods without one. */
  estimate: Float64Array;
  fit: SlopeFit;
}
export interface ConvergenceResult {
  /** "exact" (the model's solution) or the reference run used. */
  reference: string;
  t0: number;
  t1: number;
  global: GlobalSeries[];
  workPrecision: WorkPrecisionSeries[];
  local: LocalSeries[];
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
/** One order condition Σ bᵢ Φᵢ(t) = 1/γ(t) for a rooted tree t (HNW I §II.2). */
export interface OrderCondition {
  /** Order of the tree, 1..5. */
  order: number;
  /** Butcher's bracket notation, e.g. "[τ[τ]]". */
  tree: string;
  /** e.g. "Σ bᵢcᵢ² = 1/3". */
  name: string;
  value: number;
  target: number;
  /** value - target. */
  residual: number;
  /** |residual| <= 1e-12 · max(1, the sum with absolute values). */
  holds: boolean;
}
/** R(z) = N(z)/D(z), coefficients in ascending powers of z. */
export interface StabilityFunction {
  numerator: number[];
  /** [1] for explicit methods. */
  denominator: number[];
  /** The coefficients as fractions ("1/24"), when every entry of A and b is a fraction
   *  or a short decimal. */
  numeratorExact?: string[];
  denominatorExact?: string[];
  /** e.g. "1 + z + z^2/2 + z^3/6 + z^4/24"; "(N) / (D)" for implicit tableaux. A float
   *  coefficient within 1e-14 (relative) of a fraction p/q with q <= 10^6 is shown as
   *  p/q; the arrays keep the computed values. */
  text: string;
  /** For KaTeX, e.g. "1 + z + \frac{z^{2}}{2} + …"; "\frac{N}{D}" for implicit ones. */
  tex: string;
}
/** What `analyzeTableau` returns. */
export interface TableauAnalysis {
  stages: number;
  explicit: boolean;
  /** Highest p <= 5 such that every condition of order <= p holds (0: Σ b ≠ 1). */
  order: number;
  /** The same for bHat, when given. */
  embeddedOrder?: number;
  /** The 17 conditions up to order 5 (1, 1, 2, 4, 9 per order), for b. */
  conditions: OrderCondition[];
  /** The 17 conditions for bHat, when given. */
  embeddedConditions?: OrderCondition[];
  stability: StabilityFunction;
  /** The nodes (the row sums of a when c was not given). */
  c: number[];
  /** The last row of a equals b and b_s = 0: first same as last. */
  fsal: boolean;
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
    if let Some(keys) = field("tableau").as_ref().and_then(object_keys) {
        check_fields("tableau", &keys, field_names::<TableauSpec>())?;
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

/// Solves `run` and `reference` (same model and interval) and compares them: per state
/// the largest error and when it happens, relative and RMS errors, with the reference
/// interpolated by a natural cubic spline (seed 001 §3.1).
#[wasm_bindgen(js_name = compareRuns, unchecked_return_type = "RunComparison")]
pub fn compare_runs(
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] run: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] reference: JsValue,
) -> Result<JsValue, JsError> {
    let run = read_spec(run)?;
    let reference = read_spec(reference)?;
    let c = crate::reference::compare(&run, &reference).map_err(js_error)?;
    let obj = Object::new();
    set(&obj, "table", &to_js(&c.table)?)?;
    set(&obj, "runStats", &to_js(&c.run.stats)?)?;
    set(&obj, "referenceStats", &to_js(&c.reference.stats)?)?;
    Ok(obj.into())
}

/// Eigenvalues λ of ∂f/∂y at a state, interleaved [re0, im0, re1, im1, …] and sorted
/// by decreasing |λ|: multiply by h to place them in a stability map.
#[wasm_bindgen(unchecked_return_type = "Float64Array")]
pub fn spectrum(
    #[wasm_bindgen(unchecked_param_type = "SpectrumSpec")] spec: JsValue,
) -> Result<JsValue, JsError> {
    let spec: crate::spectrum::SpectrumSpec =
        serde_wasm_bindgen::from_value(spec).map_err(|e| {
            js_error(OdeError::BadSpec {
                message: e.to_string().trim_start_matches("Error: ").to_string(),
            })
        })?;
    let values = crate::spectrum::of_spec(&spec).map_err(js_error)?;
    let flat: Vec<f64> = values.iter().flat_map(|c| [c.re, c.im]).collect();
    Ok(Float64Array::from(&flat[..]).into())
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
    if let Some(c) = &sol.constraint {
        set(&obj, "constraint", &to_js(c)?)?;
    }
    Ok(obj.into())
}

/// The spec's constrained model run in the augmented and the state-space formulation
/// side by side, against a fine reference (001 Tables 4–6 layout; issue 8).
#[wasm_bindgen(js_name = compareFormulations, unchecked_return_type = "FormulationComparison")]
pub fn compare_formulations(
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] spec: JsValue,
) -> Result<JsValue, JsError> {
    let spec = read_spec(spec)?;
    let c = crate::multibody::compare::compare_formulations(&spec, &js_sys::Date::now)
        .map_err(js_error)?;
    to_js(&c)
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

    /// The run's model description: with a `formulation` its state names and outputs
    /// differ from the catalogue entry's (issue 8).
    #[wasm_bindgen(js_name = modelInfo, unchecked_return_type = "ModelInfo")]
    pub fn model_info(&self) -> Result<JsValue, JsError> {
        to_js(self.inner.model_info())
    }

    /// Re-partitions and Newton work of a constrained formulation, if any.
    #[wasm_bindgen(js_name = constraintReport, unchecked_return_type = "ConstraintReport | undefined")]
    pub fn constraint_report(&self) -> Result<JsValue, JsError> {
        match self.inner.constraint_report() {
            Some(c) => to_js(&c),
            None => Ok(JsValue::UNDEFINED),
        }
    }
}

/// Reads a tableau, refusing unknown keys.
fn read_tableau(tableau: JsValue) -> Result<TableauSpec, JsError> {
    if let Some(keys) = object_keys(&tableau) {
        check_fields("tableau", &keys, field_names::<TableauSpec>()).map_err(js_error)?;
    }
    serde_wasm_bindgen::from_value(tableau).map_err(|e| {
        let text = e.to_string();
        js_error(OdeError::BadSpec {
            message: format!("tableau: {}", text.trim_start_matches("Error: ")),
        })
    })
}

/// Your own method: its order conditions up to order 5 (and those of bHat), its order
/// and R(z); throws an `Error` naming the bad entry.
#[wasm_bindgen(js_name = analyzeTableau, unchecked_return_type = "TableauAnalysis")]
pub fn analyze_tableau(
    #[wasm_bindgen(unchecked_param_type = "TableauSpec")] tableau: JsValue,
) -> Result<JsValue, JsError> {
    let spec = read_tableau(tableau)?;
    to_js(&crate::tableau::analyze_tableau(&spec).map_err(js_error)?)
}

/// Reads a stability request, refusing unknown keys (here and in `tableau`).
fn read_stability_spec(spec: JsValue) -> Result<StabilitySpec, JsError> {
    if let Some(keys) = object_keys(&spec) {
        check_fields("the stability spec", &keys, field_names::<StabilitySpec>())
            .map_err(js_error)?;
    }
    if let Some(keys) = Reflect::get(&spec, &JsValue::from_str("tableau"))
        .ok()
        .as_ref()
        .and_then(object_keys)
    {
        check_fields("tableau", &keys, field_names::<TableauSpec>()).map_err(js_error)?;
    }
    serde_wasm_bindgen::from_value(spec).map_err(|e| {
        let text = e.to_string();
        js_error(OdeError::BadSpec {
            message: text.trim_start_matches("Error: ").to_string(),
        })
    })
}

fn contour_to_js(c: &Contour) -> Result<JsValue, JsError> {
    let obj = Object::new();
    set(&obj, "xy", &Float64Array::from(&c.xy[..]))?;
    set(&obj, "offsets", &Uint32Array::from(&c.offsets[..]))?;
    set(&obj, "closed", &to_js(&c.closed)?)?;
    Ok(obj.into())
}

/// The ids `stabilityMap` knows (method ids, plus "custom" for a user's tableau).
#[wasm_bindgen(js_name = stabilityMethods, unchecked_return_type = "string[]")]
pub fn stability_methods() -> Result<JsValue, JsError> {
    to_js(stability::amplification::IDS)
}

/// The stability map: nx·ny values, `values[iy * nx + ix]` (see `StabilityAnalysis`).
#[wasm_bindgen(js_name = stabilityMap)]
pub fn stability_map(
    #[wasm_bindgen(unchecked_param_type = "StabilitySpec")] spec: JsValue,
) -> Result<Float64Array, JsError> {
    let spec = read_stability_spec(spec)?;
    let values = stability::stability_map(&spec).map_err(js_error)?;
    Ok(Float64Array::from(&values[..]))
}

/// The boundary value = 1 of the map of `spec`, as polylines.
#[wasm_bindgen(js_name = stabilityContour, unchecked_return_type = "StabilityContour")]
pub fn stability_contour(
    #[wasm_bindgen(unchecked_param_type = "StabilitySpec")] spec: JsValue,
) -> Result<JsValue, JsError> {
    let spec = read_stability_spec(spec)?;
    let c = stability::stability_contour(&spec).map_err(js_error)?;
    contour_to_js(&c)
}

/// Intercept, extent, A- and L-stability of `spec.method` (re, im, nx, ny not needed).
#[wasm_bindgen(js_name = stabilityFacts, unchecked_return_type = "StabilityFacts")]
pub fn stability_facts(
    #[wasm_bindgen(unchecked_param_type = "StabilitySpec")] spec: JsValue,
) -> Result<JsValue, JsError> {
    let spec = read_stability_spec(spec)?;
    to_js(&stability::stability_facts(&spec).map_err(js_error)?)
}

/// Map, contour and facts in one call.
#[wasm_bindgen(js_name = stabilityAnalysis, unchecked_return_type = "StabilityAnalysis")]
pub fn stability_analysis(
    #[wasm_bindgen(unchecked_param_type = "StabilitySpec")] spec: JsValue,
) -> Result<JsValue, JsError> {
    let spec = read_stability_spec(spec)?;
    let a = stability::stability_analysis(&spec).map_err(js_error)?;
    let obj = Object::new();
    set(&obj, "values", &Float64Array::from(&a.values[..]))?;
    set(&obj, "nx", &JsValue::from(spec.nx.unwrap_or(0) as u32))?;
    set(&obj, "ny", &JsValue::from(spec.ny.unwrap_or(0) as u32))?;
    set(&obj, "contour", &contour_to_js(&a.contour)?)?;
    set(&obj, "facts", &to_js(&a.facts)?)?;
    Ok(obj.into())
}

fn f64s(v: &[f64]) -> Float64Array {
    Float64Array::from(v)
}

/// Runs the convergence studies of `spec` (global error vs h, work–precision, local error).
#[wasm_bindgen(unchecked_return_type = "ConvergenceResult")]
pub fn convergence(
    #[wasm_bindgen(unchecked_param_type = "ConvergenceSpec")] spec: JsValue,
) -> Result<JsValue, JsError> {
    if let Some(keys) = object_keys(&spec) {
        check_fields(
            "the convergence spec",
            &keys,
            field_names::<ConvergenceSpec>(),
        )
        .map_err(js_error)?;
    }
    let spec: ConvergenceSpec = serde_wasm_bindgen::from_value(spec).map_err(|e| {
        let text = e.to_string();
        js_error(OdeError::BadSpec {
            message: text.trim_start_matches("Error: ").to_string(),
        })
    })?;
    let r = convergence::convergence(&spec).map_err(js_error)?;
    let obj = Object::new();
    set(&obj, "reference", &JsValue::from_str(&r.reference))?;
    set(&obj, "t0", &JsValue::from_f64(r.t0))?;
    set(&obj, "t1", &JsValue::from_f64(r.t1))?;
    let global = Array::new();
    for g in &r.global {
        let o = Object::new();
        set(&o, "method", &JsValue::from_str(&g.method))?;
        set(&o, "order", &JsValue::from(g.order))?;
        let n: Vec<f64> = g.n.iter().map(|&n| n as f64).collect();
        set(&o, "n", &f64s(&n))?;
        set(&o, "h", &f64s(&g.h))?;
        set(&o, "error", &f64s(&g.error))?;
        set(&o, "nfev", &f64s(&g.nfev))?;
        set(&o, "d", &f64s(&g.d))?;
        set(&o, "dRatio", &f64s(&g.d_ratio))?;
        set(&o, "richardson", &f64s(&g.richardson))?;
        set(&o, "fit", &to_js(&g.fit)?)?;
        global.push(&o);
    }
    set(&obj, "global", &global)?;
    let work = Array::new();
    for w in &r.work_precision {
        let o = Object::new();
        set(&o, "method", &JsValue::from_str(&w.method))?;
        set(&o, "tol", &f64s(&w.tol))?;
        set(&o, "nfev", &f64s(&w.nfev))?;
        set(&o, "nsteps", &f64s(&w.nsteps))?;
        set(&o, "error", &f64s(&w.error))?;
        work.push(&o);
    }
    set(&obj, "workPrecision", &work)?;
    let local = Array::new();
    for l in &r.local {
        let o = Object::new();
        set(&o, "method", &JsValue::from_str(&l.method))?;
        set(&o, "h", &f64s(&l.h))?;
        set(&o, "error", &f64s(&l.error))?;
        set(&o, "estimate", &f64s(&l.estimate))?;
        set(&o, "fit", &to_js(&l.fit)?)?;
        local.push(&o);
    }
    set(&obj, "local", &local)?;
    Ok(obj.into())
}
