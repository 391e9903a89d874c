/**
 * The page's handle on the engine worker: promises in place of synchronous calls, and
 * `cancel()`, which terminates the worker (wasm cannot be interrupted mid-call) and
 * rejects whatever was pending with a `CancelledError`; the next call starts a fresh one.
 */
import type { Chunk, ModelInfo, SolveSpec, Solution, TableauSpec } from './engine';
import type { RunComparison, FormulationComparison, ConvergenceResult, ConvergenceSpec, SpectrumSpec, StabilityAnalysis, StabilitySpec, StructuralCurves, StructuralSpec, TableauAnalysis, AssignmentSummary, Grade } from './engine-labs';
import type { Catalog, EngineErrorInfo, EngineHandoff, Reply, Request, Result, RunStart } from './protocol';

/** Rejection of a request the user cancelled (not an error to show). */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/**
 * An error of the engine, rebuilt on the page: an `Error` whose `message` is the core's
 * text, with the core's `code` and, when known, the `line` and `column` of a typed
 * text's mistake, the step (`t`, `h`) a run failed at and its `diagnosis`
 * (www/protocol.ts `EngineErrorInfo`).
 */
export class EngineError extends Error implements EngineErrorInfo {
  readonly code?: string;
  readonly line?: number;
  readonly column?: number;
  readonly t?: number;
  readonly h?: number;
  readonly diagnosis?: EngineErrorInfo['diagnosis'];

  constructor(info: EngineErrorInfo) {
    super(info.message);
    this.name = 'EngineError';
    Object.assign(this, { ...info, message: info.message });
  }
}

type Pending = { resolve: (r: Result) => void; reject: (e: Error) => void };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class EngineClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private nextRun = 1;
  private readonly pending = new Map<number, Pending>();

  /**
   * `engineModule`: the run package compiled by the page (www/boot.ts), handed to every
   * worker this client starts so none fetches and compiles it again; without it each
   * worker loads the package itself.
   */
  constructor(
    private readonly makeWorker: () => Worker,
    private readonly engineModule?: Promise<WebAssembly.Module | undefined>,
  ) {}

  private ensureWorker(): Worker {
    if (!this.worker) {
      const worker = this.makeWorker();
      worker.addEventListener('message', (event: MessageEvent<Reply>) => {
        const reply = event.data;
        const p = this.pending.get(reply.id);
        if (!p) return;
        this.pending.delete(reply.id);
        if (reply.ok) p.resolve(reply.result);
        else p.reject(new EngineError(reply.error));
      });
      worker.addEventListener('error', (event) => {
        const error = new Error(`the engine worker failed: ${event.message}`);
        for (const p of this.pending.values()) p.reject(error);
        this.pending.clear();
        this.worker?.terminate();
        this.worker = undefined;
      });
      this.worker = worker;
      if (this.engineModule) {
        const post = (message: EngineHandoff): void => worker.postMessage(message);
        post({ op: 'engine', handoff: true });
        void this.engineModule.then((module) => post({ op: 'engine', module }), () => post({ op: 'engine', module: undefined }));
      }
    }
    return this.worker;
  }

  private request<T extends Result>(req: DistributiveOmit<Request, 'id'>): Promise<T> {
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (r) => resolve(r as T), reject });
      worker.postMessage({ ...req, id } as Request);
    });
  }

  /** Number of requests not answered yet. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  catalog(): Promise<Catalog> {
    return this.request<Catalog>({ op: 'catalog' });
  }

  solve(spec: SolveSpec): Promise<Solution> {
    return this.request<Solution>({ op: 'solve', spec });
  }

  /** Describes your own system's text; rejects with the parse error. */
  describe(text: string): Promise<ModelInfo> {
    return this.request<ModelInfo>({ op: 'describe', text });
  }

  /** Eigenvalues of ∂f/∂y at a state, interleaved [re0, im0, …]. */
  spectrum(spec: SpectrumSpec): Promise<Float64Array> {
    return this.request<Float64Array>({ op: 'spectrum', spec });
  }

  /** The model's exact solution at `times` for the run `spec` describes, row-major; null when the model knows none. */
  exactAt(spec: SolveSpec, times: Float64Array): Promise<Float64Array | null> {
    return this.request<Float64Array | null>({ op: 'exact', spec, times });
  }

  /** Map, boundary and facts of a stability region. */
  stability(spec: StabilitySpec): Promise<StabilityAnalysis> {
    return this.request<StabilityAnalysis>({ op: 'stability', spec });
  }

  /** A second-order integrator's spectral radius, damping ratio and period error against ωh. */
  structural(spec: StructuralSpec): Promise<StructuralCurves> {
    return this.request<StructuralCurves>({ op: 'structural', spec });
  }

  /** A convergence study (error vs h, work–precision, one-step error). */
  convergence(spec: ConvergenceSpec): Promise<ConvergenceResult> {
    return this.request<ConvergenceResult>({ op: 'convergence', spec });
  }

  /** Order conditions and R(z) of a Butcher tableau. */
  analyzeTableau(tableau: TableauSpec): Promise<TableauAnalysis> {
    return this.request<TableauAnalysis>({ op: 'tableau', tableau });
  }

  /** A run against a reference run (Negrut et al. 2003 §3.1). */
  compare(run: SolveSpec, reference: SolveSpec): Promise<RunComparison> {
    return this.request<RunComparison>({ op: 'compare', run, reference });
  }

  /** The two formulations of a constrained model side by side (Negrut et al. 2003 Tables 4–6). */
  formulations(spec: SolveSpec): Promise<FormulationComparison> {
    return this.request<FormulationComparison>({ op: 'formulations', spec });
  }

  /** Homework: checks an assignment's JSON text and lists its tasks. */
  readAssignment(assignment: string): Promise<AssignmentSummary> {
    return this.request<AssignmentSummary>({ op: 'assignment', assignment });
  }

  /** Homework: grades a work's JSON text against an assignment's (in the worker). */
  gradeAssignment(assignment: string, work: string): Promise<Grade> {
    return this.request<Grade>({ op: 'grade', assignment, work });
  }

  /** Opens a step-by-step run in the worker. */
  async open(spec: SolveSpec): Promise<RunHandle> {
    const run = this.nextRun++;
    const start = await this.request<RunStart>({ op: 'open', run, spec });
    return new RunHandle(this, run, start);
  }

  /** @internal */
  advance(run: number, steps: number): Promise<Chunk> {
    return this.request<Chunk>({ op: 'advance', run, steps });
  }

  /** @internal */
  close(run: number): Promise<null> {
    return this.request<null>({ op: 'close', run });
  }

  /** Stops everything in flight: terminates the worker, rejects pending requests. */
  cancel(): void {
    this.worker?.terminate();
    this.worker = undefined;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new CancelledError());
  }
}

/** A run kept in the worker, advanced in chunks. */
export class RunHandle {
  constructor(
    private readonly client: EngineClient,
    private readonly run: number,
    readonly start: RunStart,
  ) {}

  advance(steps: number): Promise<Chunk> {
    return this.client.advance(this.run, steps);
  }

  close(): Promise<null> {
    return this.client.close(this.run);
  }
}
