//! The labs package (`pkg-labs/odelab_labs.js`, cargo feature `labs`), loaded by the
//! page on first use: the stability lab (`stabilityMap`, `stabilityContour`,
//! `stabilityFacts`, `stabilityAnalysis`), `spectrum` (the hλ markers), the convergence
//! lab, `analyzeTableau`, and the comparisons `compareRuns` and `compareFormulations`.
//! A new lab's binding goes here.

use super::{js_error, read, to_js};
use crate::convergence::fit::SlopeFit;
use crate::convergence::{self, ConvergenceSpec};
use crate::driver::Diagnosis;
use crate::reference::ComponentError;
use crate::spec::SolveSpec;
use crate::spectrum::SpectrumSpec;
use crate::stability::facts::StabilityFacts;
use crate::stability::{self, Contour};
use crate::stability::{StabilitySpec, TableauSpec};
use crate::stats::Stats;
use js_sys::{Float64Array, Uint32Array};
use serde::Serialize;
use serde_wasm_bindgen::preserve;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

/// The boundary value = 1 as polylines: polyline k is points offsets[k] .. offsets[k+1]
/// (exclusive) of `xy`, which holds (Re ξ, Im ξ) pairs: its coordinates are
/// xy[2*offsets[k] .. 2*offsets[k+1]]. A closed polyline repeats its first point last.
#[derive(Serialize, Tsify)]
pub struct StabilityContour<'a> {
    #[serde(with = "preserve")]
    pub xy: Float64Array,
    /// npolylines + 1 point indices, offsets[0] = 0.
    #[serde(with = "preserve")]
    pub offsets: Uint32Array,
    pub closed: &'a [bool],
}

/// Map, contour and facts from one call. `values[iy * nx + ix]` is the value at
/// Re ξ = re[0] + ix (re[1] − re[0])/(nx − 1), Im ξ = im[0] + iy (im[1] − im[0])/(ny − 1);
/// values are >= 0 and may be Infinity (a pole, or overflow), never NaN.
#[derive(Serialize, Tsify)]
pub struct StabilityAnalysis<'a> {
    #[serde(with = "preserve")]
    pub values: Float64Array,
    pub nx: u32,
    pub ny: u32,
    pub contour: StabilityContour<'a>,
    pub facts: &'a StabilityFacts,
}

/// The curves of one method against Ω = ωh (Hilber, Hughes & Taylor 1977; Chung &
/// Hulbert 1993): its principal roots are e^{Ω̄(−ξ̄ ± i)}.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct StructuralCurves<'a> {
    pub method: &'a str,
    #[serde(with = "preserve")]
    pub omega_h: Float64Array,
    /// ρ of the amplification matrix (largest root modulus).
    #[serde(with = "preserve")]
    pub spectral_radius: Float64Array,
    /// ξ̄ = −ln|λ|/Ω̄; NaN where the principal roots are real (no oscillation left).
    #[serde(with = "preserve")]
    pub damping_ratio: Float64Array,
    /// (T̄ − T)/T = Ω/Ω̄ − 1; NaN where the principal roots are real.
    #[serde(with = "preserve")]
    pub period_error: Float64Array,
    /// lim ρ as ωh → ∞ (Infinity for explicit methods; ρ∞ for generalized-α).
    pub spectral_radius_at_infinity: f64,
}

/// What `compareRuns` returns (Negrut et al. 2003 §3.1, Tables 4 and 6).
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct RunComparison<'a> {
    pub table: &'a [ComponentError],
    pub run_stats: &'a Stats,
    pub reference_stats: &'a Stats,
}

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
    to_js(&RunComparison {
        table: &c.table,
        run_stats: &c.run.stats,
        reference_stats: &c.reference.stats,
    })
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

fn contour(c: &Contour) -> StabilityContour<'_> {
    StabilityContour {
        xy: Float64Array::from(&c.xy[..]),
        offsets: Uint32Array::from(&c.offsets[..]),
        closed: &c.closed,
    }
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
    to_js(&contour(&c))
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
    to_js(&StabilityAnalysis {
        values: Float64Array::from(&a.values[..]),
        nx: spec.nx.unwrap_or(0) as u32,
        ny: spec.ny.unwrap_or(0) as u32,
        contour: contour(&a.contour),
        facts: &a.facts,
    })
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
    to_js(&StructuralCurves {
        method: &spec.method,
        omega_h: f64s(&c.omega_h),
        spectral_radius: f64s(&c.spectral_radius),
        damping_ratio: f64s(&c.damping_ratio),
        period_error: f64s(&c.period_error),
        spectral_radius_at_infinity: c.spectral_radius_at_infinity,
    })
}

fn f64s(v: &[f64]) -> Float64Array {
    Float64Array::from(v)
}

/// What `convergence(spec)` returns: the global-error, work–precision and local-error
/// studies, their series as typed arrays.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ConvergenceResult<'a> {
    /// What the errors are measured against: "exact" or a reference run.
    pub reference: &'a str,
    pub t0: f64,
    pub t1: f64,
    /// Why the errors cannot be measured: the reference run did not reach t1.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub diagnosis: Option<&'a Diagnosis>,
    pub global: Vec<GlobalSeries<'a>>,
    pub work_precision: Vec<WorkPrecisionSeries<'a>>,
    pub local: Vec<LocalSeries<'a>>,
}

/// One method's global error against h; arrays are indexed by level (h decreasing).
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct GlobalSeries<'a> {
    pub method: &'a str,
    /// The method's order p (from the catalogue), used by Richardson.
    pub order: u32,
    /// n of h = T/2ⁿ.
    #[serde(with = "preserve")]
    pub n: Float64Array,
    #[serde(with = "preserve")]
    pub h: Float64Array,
    #[serde(with = "preserve")]
    pub error: Float64Array,
    #[serde(with = "preserve")]
    pub nfev: Float64Array,
    /// Dₙ (NaN at the first level).
    #[serde(with = "preserve")]
    pub d: Float64Array,
    /// Dₙ₋₁/Dₙ (NaN at the first two levels).
    #[serde(with = "preserve")]
    pub d_ratio: Float64Array,
    /// Richardson's error estimate of yₙ, Schwab & Delhaes eq. (7.9) (NaN at the first level).
    #[serde(with = "preserve")]
    pub richardson: Float64Array,
    pub fit: &'a SlopeFit,
    /// Why no slope could be fitted: the diagnosis of the run at the largest h that stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub diagnosis: Option<&'a Diagnosis>,
}

/// One adaptive method's error at t1 against its work over a tolerance sweep.
#[derive(Serialize, Tsify)]
pub struct WorkPrecisionSeries<'a> {
    pub method: &'a str,
    #[serde(with = "preserve")]
    pub tol: Float64Array,
    #[serde(with = "preserve")]
    pub nfev: Float64Array,
    /// Accepted plus rejected steps.
    #[serde(with = "preserve")]
    pub nsteps: Float64Array,
    #[serde(with = "preserve")]
    pub error: Float64Array,
}

/// One method's local error of a single step against h.
#[derive(Serialize, Tsify)]
pub struct LocalSeries<'a> {
    pub method: &'a str,
    /// Step sizes, decreasing.
    #[serde(with = "preserve")]
    pub h: Float64Array,
    /// Max-norm distance of the step's result from the reference.
    #[serde(with = "preserve")]
    pub error: Float64Array,
    /// Max norm of the method's own error estimate of the step (NaN for methods
    /// without one).
    #[serde(with = "preserve")]
    pub estimate: Float64Array,
    pub fit: &'a SlopeFit,
}

/// Runs the convergence studies of `spec` (global error vs h, work–precision, local error).
#[wasm_bindgen(unchecked_return_type = "ConvergenceResult")]
pub fn convergence(
    #[wasm_bindgen(unchecked_param_type = "ConvergenceSpec")] spec: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: ConvergenceSpec = read("the convergence spec", spec)?;
    let r = convergence::convergence(&spec).map_err(js_error)?;
    to_js(&ConvergenceResult {
        reference: &r.reference,
        t0: r.t0,
        t1: r.t1,
        diagnosis: r.diagnosis.as_ref(),
        global: r
            .global
            .iter()
            .map(|g| GlobalSeries {
                method: &g.method,
                order: g.order,
                n: f64s(&g.n.iter().map(|&n| f64::from(n)).collect::<Vec<f64>>()),
                h: f64s(&g.h),
                error: f64s(&g.error),
                nfev: f64s(&g.nfev),
                d: f64s(&g.d),
                d_ratio: f64s(&g.d_ratio),
                richardson: f64s(&g.richardson),
                fit: &g.fit,
                diagnosis: g.diagnosis.as_ref(),
            })
            .collect(),
        work_precision: r
            .work_precision
            .iter()
            .map(|w| WorkPrecisionSeries {
                method: &w.method,
                tol: f64s(&w.tol),
                nfev: f64s(&w.nfev),
                nsteps: f64s(&w.nsteps),
                error: f64s(&w.error),
            })
            .collect(),
        local: r
            .local
            .iter()
            .map(|l| LocalSeries {
                method: &l.method,
                h: f64s(&l.h),
                error: f64s(&l.error),
                estimate: f64s(&l.estimate),
                fit: &l.fit,
            })
            .collect(),
    })
}
