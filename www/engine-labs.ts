/**
 * The labs engine: the one TypeScript module that imports the generated labs package
 * (`pkg-labs/odelab_labs.js`: the stability and convergence labs, spectrum, tableau
 * analysis, run and formulation comparisons, and the run API — solve, Integrator,
 * describeSystem — over the whole engine). The worker imports it dynamically on the
 * first labs request, or when the run package refuses a spec it leaves out (your own
 * system, a formulation, …: `refusedHere` in www/engine.ts), so the page's first plot
 * fetches only the run package (www/engine.ts). Its wasm module is a separate instance
 * with its own memory: requests carry plain specs, so nothing is shared between the two.
 */
import init, * as wasm from '../pkg-labs/odelab_labs.js';
import type { ModelInfo, SolveSpec, Solution } from '../pkg-labs/odelab_labs.js';

export type {
  ConvergenceResult,
  ConvergenceSpec,
  FormulationComparison,
  RunComparison,
  SpectrumSpec,
  StabilityAnalysis,
  StabilityContour,
  StabilityFacts,
  StabilitySpec,
  StructuralCurves,
  StructuralSpec,
  TableauAnalysis,
  AssignmentSummary,
  AssignmentTask,
  Grade,
  TaskGrade,
} from '../pkg-labs/odelab_labs.js';

/** A run kept in the whole engine, stepped like www/engine.ts's; `free()` when done. */
export const Integrator = wasm.Integrator;
export type Integrator = wasm.Integrator;

let ready: Promise<void> | undefined;

/**
 * Loads the labs wasm module once. In the browser the default locates
 * `odelab_labs_bg.wasm` next to the bundle; in Node, pass the file's bytes.
 */
export function initLabs(source?: BufferSource): Promise<void> {
  ready ??= init(source === undefined ? undefined : { module_or_path: source }).then(() => undefined);
  return ready;
}

/** Integrates any spec the core reads (the run package's `solve` over the whole engine). */
export function solve(spec: SolveSpec): Solution {
  return wasm.solve(spec);
}

/** Describes your own system's text like a catalogue model; throws on a parse error. */
export function describeSystem(text: string): ModelInfo {
  return wasm.describeSystem(text);
}

/** The model's exact solution at `times` for the run `spec` describes (row-major), or undefined when it knows none. */
export function exactAt(spec: SolveSpec, times: Float64Array): Float64Array | undefined {
  return wasm.exactAt(spec, times) as Float64Array | undefined;
}

/** Eigenvalues of ∂f/∂y at a state, interleaved [re0, im0, …], largest |λ| first. */
export function spectrum(spec: wasm.SpectrumSpec): Float64Array {
  return wasm.spectrum(spec) as Float64Array;
}

/** Map, boundary and facts of a method's stability region over a window of the ξ-plane. */
export function stabilityAnalysis(spec: wasm.StabilitySpec): wasm.StabilityAnalysis {
  return wasm.stabilityAnalysis(spec);
}

/** Spectral radius, damping ratio and period error of a second-order integrator on q'' = −ω²q against ωh. */
export function structuralAnalysis(spec: wasm.StructuralSpec): wasm.StructuralCurves {
  return wasm.structuralAnalysis(spec);
}

/** Error against h (and f-evaluations, and one step) for several methods on a model. */
export function convergence(spec: wasm.ConvergenceSpec): wasm.ConvergenceResult {
  return wasm.convergence(spec);
}

/** Order conditions up to order 5 and R(z) of a Butcher tableau; throws naming a bad entry. */
export function analyzeTableau(tableau: wasm.TableauSpec): wasm.TableauAnalysis {
  return wasm.analyzeTableau(tableau);
}

/** A run against a reference run: per-state max error, t*, relative and RMS errors. */
export function compareRuns(run: wasm.SolveSpec, reference: wasm.SolveSpec): wasm.RunComparison {
  return wasm.compareRuns(run, reference);
}

/** A constrained model in the augmented and the state-space formulation against a reference (Negrut et al. 2003 Tables 4–6). */
export function compareFormulations(spec: wasm.SolveSpec): wasm.FormulationComparison {
  return wasm.compareFormulations(spec);
}

/** Checks an assignment (JSON text) and lists its tasks; throws naming the place of a mistake. */
export function readAssignment(assignment: string): wasm.AssignmentSummary {
  return wasm.readAssignment(assignment);
}

/** Grades a work (JSON text) against an assignment (JSON text), re-running every check. */
export function gradeAssignment(assignment: string, work: string): wasm.Grade {
  return wasm.gradeAssignment(assignment, work);
}
