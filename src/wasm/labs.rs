//! The labs package (`pkg-labs/odelab_labs.js`, cargo feature `labs`), loaded by the
//! page on first use: the stability lab (`stabilityMap`, `stabilityContour`,
//! `stabilityFacts`, `stabilityAnalysis`), `spectrum` (the hλ markers), the convergence
//! lab, `analyzeTableau`, and the comparisons `compareRuns` and `compareFormulations`.
//! A new lab's binding goes here.

use super::{js_error, read, set, to_js};
use crate::convergence::{self, ConvergenceSpec};
use crate::spec::SolveSpec;
use crate::spectrum::SpectrumSpec;
use crate::stability::{self, Contour};
use crate::stability::{StabilitySpec, TableauSpec};
use js_sys::{Array, Float64Array, Object, Uint32Array};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_LABS_TYPES: &'static str = r#"
/** Error of one quantity against the reference (Negrut et al. 2003 Tables 4 and 6). */
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
  /** "index-3" only when the method is radau5 (the DAE's only integrator here). */
  formulation: "augmented" | "state-space" | "index-3";
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
   *  vehicle-stiff the chassis height yc and its rate (Negrut et al. 2003 Fig. 4); for a
   *  typed mechanism the last coordinate that moves (a slider-crank's piston x3). */
  position: ErrorRow;
  velocity: ErrorRow;
  stoppedBy?: string;
}
/** What `compareFormulations` returns (Negrut et al. 2003 Tables 4–6 layout). */
export interface FormulationComparison {
  model: string;
  method: string;
  /** The reference run in words: "native ros4 at rtol = atol = 1e-10", or for
   *  vehicle-stiff the same mechanism in the state-space formulation, for a typed
   *  mechanism the augmented one with projection. */
  reference: string;
  /** Steps of the reference run. */
  referenceSteps: number;
  rows: FormulationRow[];
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
  /** One diagonal block of ∂f/∂y of a slow/fast partition: "slow" (the λ_s of ξ = hλ_s) or "fast". */
  block?: 'slow' | 'fast';
  /** The fast states of that partition (default: the model's own). */
  fast?: number[];
}
/** What `structuralAnalysis` takes: a second-order integrator on q'' = −ω²q. */
export interface StructuralSpec {
  /** One of `structuralMethods()`: generalized-alpha, hht-alpha, newmark, midpoint2,
   *  stormer-verlet, implicit-midpoint, and the one-step methods on the first-order
   *  form (euler, heun, rk4, bs23, dp45, backward-euler, ros4, w2, radau5, llm). */
  method: string;
  /** generalized-alpha: { rhoInf }; hht-alpha: { alpha } or { rhoInf }; newmark:
   *  { beta, gamma } (as a run's `methodParams`). */
  methodParams?: MethodParams;
  /** The ωh values, each > 0 (default 10^-2 … 10^3, 40 a decade; at most 100000). */
  omegaH?: number[];
}
/** The curves of one method against Ω = ωh (Hilber, Hughes & Taylor 1977; Chung &
 *  Hulbert 1993): its principal roots are e^{Ω̄(−ξ̄ ± i)}. */
export interface StructuralCurves {
  method: string;
  omegaH: Float64Array;
  /** ρ of the amplification matrix (largest root modulus). */
  spectralRadius: Float64Array;
  /** ξ̄ = −ln|λ|/Ω̄; NaN where the principal roots are real (no oscillation left). */
  dampingRatio: Float64Array;
  /** (T̄ − T)/T = Ω/Ω̄ − 1; NaN where the principal roots are real. */
  periodError: Float64Array;
  /** lim ρ as ωh → ∞ (Infinity for explicit methods; ρ∞ for generalized-α). */
  spectralRadiusAtInfinity: number;
}
/** One row of `compareRuns`: a state's largest error Δ, where (t*), relative, RMS. */
export interface ComponentError {
  name: string;
  maxError: number;
  tMax: number;
  relativeError: number;
  /** Δ/|E*|, E* the reference at tMax (Negrut et al. 2003 §3.1's RelErr, not in per cent). */
  relativeAtMax: number;
  rmsError: number;
}
/** What `compareRuns` returns (Negrut et al. 2003 §3.1, Tables 4 and 6). */
export interface RunComparison {
  table: ComponentError[];
  runStats: Stats;
  referenceStats: Stats;
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
   *  Gil, Sanfelice & Nikravesh 2013 eq. (51). */
  alpha?: number;
  beta?: number;
  /** method "custom" only: an s × s lower-triangular A (explicit or diagonally
   *  implicit), s weights b, optional s nodes c (see `TableauSpec`). */
  tableau?: TableauSpec;
  /** "region" (default: |R(ξ)|, stable where ≤ 1) or "order-star" (|R(ξ)e^{−ξ}| against
   *  1, for a method with a rational R; Hairer & Wanner, Solving ODEs II, §IV.4). */
  mode?: "region" | "order-star";
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
  /** Methods that use ∂f/∂y get the one of every k-th step only (default 1). */
  jacobianUpdate?: number;
  /** Methods that use ∂f/∂y get s·∂f/∂y (default 1): the order with a wrong Jacobian. */
  jacobianScale?: number;
  /** Work budget of the whole study, all runs together, in states × f evaluations
   *  (+ entries × Jacobians and LUs), not time (default 1e9): once spent, the study
   *  stops with a "work-budget" diagnosis and keeps the step sizes it finished. */
  maxWork?: number;
}
/** A least-squares slope of log(error) vs log(h) over points from..to (inclusive). */
export interface SlopeFit {
  /** NaN if fewer than two usable points. */
  slope: number;
  from: number;
  to: number;
  /** Index of the smallest error when the error stops decreasing after it (the
   *  round-off floor of Schwab & Delhaes §7.5); absent if still decreasing at the smallest h. */
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
  /** D_n = |y_n − y_(n−1)| (Schwab & Delhaes §7.6); NaN at the first level. */
  d: Float64Array;
  /** D_(n−1)/D_n → 2^p; NaN at the first two levels. */
  dRatio: Float64Array;
  /** Richardson's estimate of the error of y_n, D_n/(2^p − 1) (Schwab & Delhaes eq. 7.9). */
  richardson: Float64Array;
  fit: SlopeFit;
  /** Why no slope could be fitted (fewer than two usable runs): the diagnosis of the
   *  first run that stopped, in the words `solve` uses. */
  diagnosis?: Diagnosis;
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
  /** Max norm of the method's own error estimate of that step (Gil, Sanfelice & Nikravesh (LLM) Fig. 6); NaN for
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
  /** Why no error can be measured: the reference run did not reach t1. */
  diagnosis?: Diagnosis;
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

/// Solves `run` and `reference` (same model and interval) and compares them: per state
/// the largest error and when it happens, relative and RMS errors, with the reference
/// interpolated by a natural cubic spline (Negrut et al. 2003 §3.1).
/// The published list of diagnosis codes (`Diagnosis.code`), in order.
#[wasm_bindgen(js_name = diagnosisCodes, unchecked_return_type = "DiagnosisCode[]")]
pub fn diagnosis_codes() -> Result<JsValue, JsValue> {
    to_js(crate::driver::Code::ALL)
}

#[wasm_bindgen(js_name = compareRuns, unchecked_return_type = "RunComparison")]
pub fn compare_runs(
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] run: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] reference: JsValue,
) -> Result<JsValue, JsValue> {
    let run: SolveSpec = read("the spec", run)?;
    let reference: SolveSpec = read("the reference spec", reference)?;
    let c = crate::reference::compare(&run, &reference).map_err(js_error)?;
    let obj = Object::new();
    set(&obj, "table", &to_js(&c.table)?)?;
    set(&obj, "runStats", &to_js(&c.run.stats)?)?;
    set(&obj, "referenceStats", &to_js(&c.reference.stats)?)?;
    Ok(obj.into())
}

/// The model's exact solution at `times` for the run `spec` describes (its t0 and y0),
/// row-major like a solution's `y`, or `undefined` when the model knows none: the page
/// samples it on a fine grid so the exact curve is drawn smooth, not as a polygon
/// through the step points.
#[wasm_bindgen(js_name = exactAt, unchecked_return_type = "Float64Array | undefined")]
pub fn exact_at(
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] spec: JsValue,
    times: &[f64],
) -> Result<JsValue, JsValue> {
    let spec: SolveSpec = read("the spec", spec)?;
    let values = crate::reference::exact_at(&spec, times).map_err(js_error)?;
    Ok(match values {
        Some(v) => Float64Array::from(&v[..]).into(),
        None => JsValue::UNDEFINED,
    })
}

/// Eigenvalues λ of ∂f/∂y at a state, interleaved [re0, im0, re1, im1, …] and sorted
/// by decreasing |λ|: multiply by h to place them in a stability map.
#[wasm_bindgen(unchecked_return_type = "Float64Array")]
pub fn spectrum(
    #[wasm_bindgen(unchecked_param_type = "SpectrumSpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: SpectrumSpec = read("the spectrum spec", spec)?;
    let values = crate::spectrum::of_spec(&spec).map_err(js_error)?;
    let flat: Vec<f64> = values.iter().flat_map(|c| [c.re, c.im]).collect();
    Ok(Float64Array::from(&flat[..]).into())
}

/// The spec's constrained model (a catalogue model or a typed mechanism in `system`) run
/// in the augmented and the state-space formulation, and with radau5 also as the index-3
/// DAE, side by side against a fine reference (Negrut et al. 2003 Tables 4–6 layout).
#[wasm_bindgen(js_name = compareFormulations, unchecked_return_type = "FormulationComparison")]
pub fn compare_formulations(
    #[wasm_bindgen(unchecked_param_type = "SolveSpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: SolveSpec = read("the spec", spec)?;
    let c = crate::compare::compare_formulations(&spec, &js_sys::Date::now).map_err(js_error)?;
    to_js(&c)
}

/// Your own method: its order conditions up to order 5 (and those of bHat), its order
/// and R(z); throws an `Error` naming the bad entry.
#[wasm_bindgen(js_name = analyzeTableau, unchecked_return_type = "TableauAnalysis")]
pub fn analyze_tableau(
    #[wasm_bindgen(unchecked_param_type = "TableauSpec")] tableau: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: TableauSpec = read("tableau", tableau)?;
    to_js(&crate::tableau::analyze_tableau(&spec).map_err(js_error)?)
}

fn contour_to_js(c: &Contour) -> Result<JsValue, JsValue> {
    let obj = Object::new();
    set(&obj, "xy", &Float64Array::from(&c.xy[..]))?;
    set(&obj, "offsets", &Uint32Array::from(&c.offsets[..]))?;
    set(&obj, "closed", &to_js(&c.closed)?)?;
    Ok(obj.into())
}

/// The stability map: nx·ny values, `values[iy * nx + ix]` (see `StabilityAnalysis`).
#[wasm_bindgen(js_name = stabilityMap)]
pub fn stability_map(
    #[wasm_bindgen(unchecked_param_type = "StabilitySpec")] spec: JsValue,
) -> Result<Float64Array, JsValue> {
    let spec: StabilitySpec = read("the stability spec", spec)?;
    let grid = spec.grid().map_err(js_error)?;
    let amp = stability::Amplification::from_spec(&spec).map_err(js_error)?;
    // Each row goes into the returned array as soon as it is computed (a mirrored row
    // is copied within it): no whole-map buffer in wasm memory and no second 8 MB copy.
    let nx = grid.nx;
    let out = Float64Array::new_with_length((nx * grid.ny) as u32);
    let at = |iy: usize| (iy * nx) as u32;
    stability::map::map_rows(&amp, &grid, |iy, row| match row {
        stability::map::Row::Values(v) => out.subarray(at(iy), at(iy + 1)).copy_from(v),
        stability::map::Row::MirrorOf(j) => {
            out.copy_within(at(iy) as i32, at(j) as i32, at(j + 1) as i32);
        }
    });
    Ok(out)
}

/// The boundary value = 1 of the map of `spec`, as polylines.
#[wasm_bindgen(js_name = stabilityContour, unchecked_return_type = "StabilityContour")]
pub fn stability_contour(
    #[wasm_bindgen(unchecked_param_type = "StabilitySpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: StabilitySpec = read("the stability spec", spec)?;
    let c = stability::stability_contour(&spec).map_err(js_error)?;
    contour_to_js(&c)
}

/// Intercept, extent, A- and L-stability of `spec.method` (re, im, nx, ny not needed).
#[wasm_bindgen(js_name = stabilityFacts, unchecked_return_type = "StabilityFacts")]
pub fn stability_facts(
    #[wasm_bindgen(unchecked_param_type = "StabilitySpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: StabilitySpec = read("the stability spec", spec)?;
    to_js(&stability::stability_facts(&spec).map_err(js_error)?)
}

/// Map, contour and facts in one call.
#[wasm_bindgen(js_name = stabilityAnalysis, unchecked_return_type = "StabilityAnalysis")]
pub fn stability_analysis(
    #[wasm_bindgen(unchecked_param_type = "StabilitySpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: StabilitySpec = read("the stability spec", spec)?;
    let a = stability::stability_analysis(&spec).map_err(js_error)?;
    let obj = Object::new();
    set(&obj, "values", &Float64Array::from(&a.values[..]))?;
    set(&obj, "nx", &JsValue::from(spec.nx.unwrap_or(0) as u32))?;
    set(&obj, "ny", &JsValue::from(spec.ny.unwrap_or(0) as u32))?;
    set(&obj, "contour", &contour_to_js(&a.contour)?)?;
    set(&obj, "facts", &to_js(&a.facts)?)?;
    Ok(obj.into())
}

/// The methods `structuralAnalysis` knows.
#[wasm_bindgen(js_name = structuralMethods, unchecked_return_type = "string[]")]
pub fn structural_methods() -> Result<JsValue, JsValue> {
    to_js(stability::structural::IDS)
}

/// Spectral radius, damping ratio and period error of a second-order integrator on
/// q'' = −ω²q against ωh (`crate::stability::structural`).
#[wasm_bindgen(js_name = structuralAnalysis, unchecked_return_type = "StructuralCurves")]
pub fn structural_analysis(
    #[wasm_bindgen(unchecked_param_type = "StructuralSpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: stability::structural::StructuralSpec = read("the structural spec", spec)?;
    let c = stability::structural::structural_analysis(&spec).map_err(js_error)?;
    let obj = Object::new();
    set(&obj, "method", &JsValue::from_str(&spec.method))?;
    set(&obj, "omegaH", &f64s(&c.omega_h))?;
    set(&obj, "spectralRadius", &f64s(&c.spectral_radius))?;
    set(&obj, "dampingRatio", &f64s(&c.damping_ratio))?;
    set(&obj, "periodError", &f64s(&c.period_error))?;
    set(
        &obj,
        "spectralRadiusAtInfinity",
        &JsValue::from_f64(c.spectral_radius_at_infinity),
    )?;
    Ok(obj.into())
}

fn f64s(v: &[f64]) -> Float64Array {
    Float64Array::from(v)
}

/// Runs the convergence studies of `spec` (global error vs h, work–precision, local error).
#[wasm_bindgen(unchecked_return_type = "ConvergenceResult")]
pub fn convergence(
    #[wasm_bindgen(unchecked_param_type = "ConvergenceSpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: ConvergenceSpec = read("the convergence spec", spec)?;
    let r = convergence::convergence(&spec).map_err(js_error)?;
    let obj = Object::new();
    set(&obj, "reference", &JsValue::from_str(&r.reference))?;
    set(&obj, "t0", &JsValue::from_f64(r.t0))?;
    set(&obj, "t1", &JsValue::from_f64(r.t1))?;
    if let Some(d) = &r.diagnosis {
        set(&obj, "diagnosis", &to_js(d)?)?;
    }
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
        if let Some(d) = &g.diagnosis {
            set(&o, "diagnosis", &to_js(d)?)?;
        }
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
