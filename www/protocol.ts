/**
 * The messages between the page (www/client.ts) and the engine worker (www/worker.ts).
 * Every request carries an id; the worker answers each with exactly one reply of the
 * same id, `ok: true` with a result or `ok: false` with the core's error as a value
 * (`EngineErrorInfo`: its text and, where the core knows them, its code and place).
 */
import type { Chunk, Diagnosis, MethodInfo, ModelInfo, SolveSpec, Solution, TableauSpec } from './engine';
import type { RunComparison, FormulationComparison, ConvergenceResult, ConvergenceSpec, SpectrumSpec, StabilityAnalysis, StabilitySpec, StructuralCurves, StructuralSpec, TableauAnalysis, AssignmentSummary, Grade } from './engine-labs';

export type Request =
  | { id: number; op: 'catalog' }
  | { id: number; op: 'solve'; spec: SolveSpec }
  | { id: number; op: 'describe'; text: string }
  | { id: number; op: 'spectrum'; spec: SpectrumSpec }
  /** The model's exact solution at `times` (null when it knows none). */
  | { id: number; op: 'exact'; spec: SolveSpec; times: Float64Array }
  | { id: number; op: 'stability'; spec: StabilitySpec }
  /** A second-order integrator's curves against ωh (www/structural.ts). */
  | { id: number; op: 'structural'; spec: StructuralSpec }
  | { id: number; op: 'convergence'; spec: ConvergenceSpec }
  | { id: number; op: 'tableau'; tableau: TableauSpec }
  | { id: number; op: 'compare'; run: SolveSpec; reference: SolveSpec }
  | { id: number; op: 'formulations'; spec: SolveSpec }
  /** Homework: an assignment's JSON text checked and listed. */
  | { id: number; op: 'assignment'; assignment: string }
  /** Homework: a work's JSON text graded against an assignment's. */
  | { id: number; op: 'grade'; assignment: string; work: string }
  /** Sets up a step-by-step run kept in the worker under `run`. */
  | { id: number; op: 'open'; run: number; spec: SolveSpec }
  /** Takes up to `steps` steps of run `run`. */
  | { id: number; op: 'advance'; run: number; steps: number }
  | { id: number; op: 'close'; run: number };

export interface Catalog {
  methods: MethodInfo[];
  models: ModelInfo[];
  /** Method ids the stability view can map. */
  stabilityMethods: string[];
}

/** What an opened run starts from. */
export interface RunStart {
  t: number;
  y: Float64Array;
  outputs: Float64Array;
  exact?: Float64Array;
}

export type Result = Catalog | Solution | ModelInfo | RunStart | Chunk | Float64Array | StabilityAnalysis | StructuralCurves | ConvergenceResult | TableauAnalysis | RunComparison | FormulationComparison | AssignmentSummary | Grade | null;

/**
 * The page's first message to a new worker when it compiles the run package itself
 * (www/boot.ts): `{ handoff: true }` says a compiled module follows, then
 * `{ module }` brings it (undefined if the page's compile failed: the worker then
 * fetches the .wasm itself). A worker whose first message is a request loads the
 * package itself. The shared engine (a SharedWorker serving every embed of a page)
 * always loads the package itself: a compiled module cannot be posted to it.
 */
export type EngineHandoff =
  | { op: 'engine'; handoff: true }
  | { op: 'engine'; module: WebAssembly.Module | undefined }
  /** To the shared engine: this frame leaves (a cancel); its queued requests are dropped. */
  | { op: 'engine'; close: true };

/**
 * An error of the engine as it crosses the worker boundary. `message` is the text the
 * page shows; the other fields are there when the core knows them: `code`, a stable
 * name per kind of error (the core's `OdeError::code`, e.g. "parse", "blew-up",
 * "not-in-this-build"); `line` and `column` (1-based, columns in characters) of an
 * error in a typed text; `t` and `h`, the step an error of a running step happened
 * at; `diagnosis`, why the run failed.
 */
export interface EngineErrorInfo {
  message: string;
  code?: string;
  line?: number;
  column?: number;
  t?: number;
  h?: number;
  diagnosis?: Diagnosis;
}

export type Reply = { id: number; ok: true; result: Result } | { id: number; ok: false; error: EngineErrorInfo };
