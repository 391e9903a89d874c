/**
 * The page's handle on the engine worker: promises in place of synchronous calls, and
 * `cancel()`, which terminates the worker (wasm cannot be interrupted mid-call) and
 * rejects whatever was pending with a `CancelledError`; the next call starts a fresh one.
 *
 * An embed may instead talk to one engine shared by every frame of odelab's origin on
 * the lecture page (a SharedWorker running www/worker.ts; www/boot.ts decides). A shared
 * engine cannot be terminated for one frame, so `cancel()` there rejects what was
 * pending, closes this frame's port (the engine drops the frame's queued requests) and
 * moves this frame to a dedicated worker of its own: the cancel is as immediate as
 * before, and the other embeds keep their engine. If the shared worker cannot start,
 * the frame's requests are sent again to a dedicated worker.
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

type Pending = { resolve: (r: Result) => void; reject: (e: Error) => void; request: Request };

/** What the client posts to and hears from: a dedicated worker, or a shared worker's port. */
interface Channel {
  post(message: Request | EngineHandoff, transfer?: Transferable[]): void;
  /** Stops listening; a dedicated worker is terminated. */
  close(): void;
  shared: boolean;
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class EngineClient {
  private channel: Channel | undefined;
  /** False once this frame has left the shared engine (a cancel, or it failed to start). */
  private useShared: boolean;
  private nextId = 1;
  private nextRun = 1;
  private readonly pending = new Map<number, Pending>();

  /**
   * `engineModule`: the run package compiled by the page (www/boot.ts), handed to every
   * worker this client starts so none fetches and compiles it again; without it each
   * worker loads the package itself. `makeShared`: the engine shared with the page's
   * other embeds, used until a cancel (then `makeWorker`'s dedicated worker).
   */
  constructor(
    private readonly makeWorker: () => Worker,
    private readonly engineModule?: Promise<WebAssembly.Module | undefined>,
    private readonly makeShared?: () => SharedWorker,
  ) {
    this.useShared = makeShared !== undefined;
  }

  /** True while this client's requests go to the engine shared by the page's embeds. */
  get shared(): boolean {
    return this.useShared;
  }

  private answer(reply: Reply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (reply.ok) p.resolve(reply.result);
    else p.reject(new EngineError(reply.error));
  }

  private ensureChannel(): Channel {
    if (!this.channel) this.channel = this.useShared && this.makeShared ? this.openShared(this.makeShared) : this.openDedicated();
    return this.channel;
  }

  private openShared(makeShared: () => SharedWorker): Channel {
    let failed = false;
    let worker: SharedWorker;
    try {
      worker = makeShared();
    } catch {
      // A browser or policy that refuses a SharedWorker: this frame keeps its own engine.
      this.useShared = false;
      return this.openDedicated();
    }
    const port = worker.port;
    const channel: Channel = {
      shared: true,
      post: (message, transfer = []) => port.postMessage(message, transfer),
      close: () => {
        port.postMessage({ op: 'engine', close: true } satisfies EngineHandoff);
        port.close();
      },
    };
    port.addEventListener('message', (event: MessageEvent<Reply>) => {
      if (!failed) this.answer(event.data);
    });
    // A shared worker reports only a failure to start on its object: its requests go
    // again, to a dedicated worker.
    worker.addEventListener('error', () => {
      if (failed || this.channel !== channel) return;
      failed = true;
      port.close();
      this.useShared = false;
      this.channel = undefined;
      const replay = [...this.pending.values()].map((p) => p.request);
      if (replay.length === 0) return;
      const dedicated = this.ensureChannel();
      for (const request of replay) dedicated.post(request);
    });
    port.start();
    // A frame that unloads (a lecture page releasing an embed far from the reader,
    // www/embed.ts, or a reload) frees its runs in the engine the other frames keep.
    // (`globalThis.…?.`: a client outside a page, as in tests, has no page to leave.)
    globalThis.addEventListener?.('pagehide', (event: PageTransitionEvent) => {
      if (!event.persisted && this.channel === channel) port.postMessage({ op: 'engine', close: true } satisfies EngineHandoff);
    });
    return channel;
  }

  private openDedicated(): Channel {
    const worker = this.makeWorker();
    const channel: Channel = {
      shared: false,
      post: (message, transfer = []) => worker.postMessage(message, transfer),
      close: () => worker.terminate(),
    };
    worker.addEventListener('message', (event: MessageEvent<Reply>) => this.answer(event.data));
    worker.addEventListener('error', (event) => {
      const error = new Error(`the engine worker failed: ${event.message}`);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      worker.terminate();
      if (this.channel === channel) this.channel = undefined;
    });
    if (this.engineModule) {
      channel.post({ op: 'engine', handoff: true });
      void this.engineModule.then(
        (module) => channel.post({ op: 'engine', module }),
        () => channel.post({ op: 'engine', module: undefined }),
      );
    }
    return channel;
  }

  private request<T extends Result>(req: DistributiveOmit<Request, 'id'>): Promise<T> {
    const id = this.nextId++;
    const channel = this.ensureChannel();
    const request = { ...req, id } as Request;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (r) => resolve(r as T), reject, request });
      channel.post(request);
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

  /**
   * Stops everything in flight: terminates the worker, rejects pending requests. On the
   * shared engine, with nothing pending there is nothing to stop; otherwise this frame
   * leaves it for a dedicated worker of its own (see the class comment).
   */
  cancel(): void {
    if (this.channel?.shared && this.pending.size === 0) return;
    this.channel?.close();
    this.channel = undefined;
    this.useShared = false;
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
