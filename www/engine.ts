/**
 * The engine: the one TypeScript module that imports the generated wasm package
 * (`pkg/`). Everything else in the front end talks to the core through here.
 */
import init, * as wasm from '../pkg/odelab.js';
import type {
  Chunk,
  RunComparison,
  FormulationComparison,
  MethodInfo,
  ModelInfo,
  ParamInfo,
  SolveSpec,
  Solution,
  SpectrumSpec,
  ConvergenceResult,
  ConvergenceSpec,
  StabilityAnalysis,
  StabilityContour,
  StabilityFacts,
  StabilitySpec,
  Stats,
  TableauAnalysis,
  TableauSpec,
  StepResult,
  AssignmentSummary,
  AssignmentTask,
  Grade,
  TaskGrade,
} from '../pkg/odelab.js';

export type {
  Chunk,
  RunComparison,
  FormulationComparison,
  ConvergenceResult,
  ConvergenceSpec,
  MethodInfo,
  ModelInfo,
  ParamInfo,
  SolveSpec,
  Solution,
  SpectrumSpec,
  StabilityAnalysis,
  StabilityContour,
  StabilityFacts,
  StabilitySpec,
  Stats,
  StepResult,
  TableauAnalysis,
  TableauSpec,
  AssignmentSummary,
  AssignmentTask,
  Grade,
  TaskGrade,
};

/** A run kept in Rust, stepped one step at a time; call `free()` when done with it. */
export const Integrator = wasm.Integrator;
export type Integrator = wasm.Integrator;

let ready: Promise<void> | undefined;

/**
 * Loads the wasm module once. In the browser the default locates `odelab_bg.wasm` next
 * to the bundle; in Node, pass the file's bytes.
 */
export function initEngine(source?: BufferSource): Promise<void> {
  ready ??= init(source === undefined ? undefined : { module_or_path: source }).then(() => undefined);
  return ready;
}

/** The method catalogue. */
export function methods(): MethodInfo[] {
  return wasm.methods();
}

/** The model catalogue. */
export function models(): ModelInfo[] {
  return wasm.models();
}

/** Describes your own system's text like a catalogue model; throws on a parse error. */
export function describeSystem(text: string): ModelInfo {
  return wasm.describeSystem(text);
}

/** Eigenvalues of ∂f/∂y at a state, interleaved [re0, im0, …], largest |λ| first. */
export function spectrum(spec: SpectrumSpec): Float64Array {
  return wasm.spectrum(spec) as Float64Array;
}

/** Map, boundary and facts of a method's stability region over a window of the ξ-plane. */
export function stabilityAnalysis(spec: StabilitySpec): StabilityAnalysis {
  return wasm.stabilityAnalysis(spec);
}

/** Error against h (and f-evaluations, and one step) for several methods on a model. */
export function convergence(spec: ConvergenceSpec): ConvergenceResult {
  return wasm.convergence(spec);
}

/** Order conditions up to order 5 and R(z) of a Butcher tableau; throws naming a bad entry. */
export function analyzeTableau(tableau: TableauSpec): TableauAnalysis {
  return wasm.analyzeTableau(tableau);
}

/** A run against a reference run: per-state max error, t*, relative and RMS errors. */
export function compareRuns(run: SolveSpec, reference: SolveSpec): RunComparison {
  return wasm.compareRuns(run, reference);
}

/** A constrained model in the augmented and the state-space formulation against a reference (001 Tables 4–6). */
export function compareFormulations(spec: SolveSpec): FormulationComparison {
  return wasm.compareFormulations(spec);
}

/** The method ids `stabilityAnalysis` knows. */
export function stabilityMethods(): string[] {
  return wasm.stabilityMethods();
}

/** Integrates a spec; throws an `Error` whose message says what is wrong with a bad spec. */
export function solve(spec: SolveSpec): Solution {
  return wasm.solve(spec);
}

/** Checks an assignment (JSON text) and lists its tasks; throws naming the place of a mistake. */
export function readAssignment(assignment: string): AssignmentSummary {
  return wasm.readAssignment(assignment);
}

/** Grades a work (JSON text) against an assignment (JSON text), re-running every check. */
export function gradeAssignment(assignment: string, work: string): Grade {
  return wasm.gradeAssignment(assignment, work);
}
