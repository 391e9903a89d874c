/**
 * The engine worker: runs the wasm core off the main thread, so the page never freezes
 * while a run computes. It answers the requests of www/protocol.ts one at a time and
 * transfers the result arrays (no copy). Cancelling = the page terminates this worker.
 * The run package (www/engine.ts) loads with the worker; the labs package
 * (www/engine-labs.ts) is imported on the first labs request, so the first plot
 * fetches one small .wasm. The labs package is also the whole engine: a solve, a
 * step-by-step run or a system description the run package refuses (`refusedHere`:
 * your own system, a formulation, …) is re-run there, so the page sees only the
 * answer, a moment later the first time.
 *
 * The same module runs as a dedicated worker (the playground's own engine) or as a
 * SharedWorker (one engine for every embed of a lecture page, www/boot.ts): each
 * connected page is a `Session` with its own step-by-step runs; the packages, the labs
 * module and the warm-up are the worker's, loaded once for all of them. A wasm call
 * runs to its end, so requests from all the frames are answered one after the other.
 */
import { Integrator, describeSystem, initEngine, methods, models, refusedHere, solve, stabilityMethods } from './engine';
import type { SolveSpec } from './engine';
import type { EngineErrorInfo, EngineHandoff, Reply, Request, Result } from './protocol';

type Labs = typeof import('./engine-labs');
/** A step-by-step run in either package (the same class, built twice). */
type Run = Integrator | InstanceType<Labs['Integrator']>;
let labsModule: Promise<Labs> | undefined;

/** The labs engine, fetched and instantiated on first use (once per worker). */
function labs(): Promise<Labs> {
  labsModule ??= import('./engine-labs')
    .then(async (module) => {
      await module.initLabs();
      return module;
    })
    .catch((e: unknown) => {
      labsModule = undefined; // a failed fetch is retried by the next labs request
      throw e;
    });
  return labsModule;
}

/** `first()` in the run package, or `whole(labs)` when the run package refuses the spec. */
async function firstOrWhole<T>(first: () => T, whole: (labs: Labs) => T): Promise<T> {
  try {
    return first();
  } catch (e) {
    if (!refusedHere(e)) throw e;
    return whole(await labs());
  }
}

function transferables(result: Result): Transferable[] {
  if (result === null || typeof result !== 'object') return [];
  // A Set: listing one buffer twice would make postMessage throw.
  const buffers = new Set<ArrayBuffer>();
  const visit = (value: unknown): void => {
    if (value instanceof Float64Array || value instanceof Uint32Array) buffers.add(value.buffer as ArrayBuffer);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(result);
  return [...buffers];
}

/** The fields of an error that cross to the page (a thrown wasm `Error` carries them as own properties). */
const ERROR_FIELDS = ['code', 'line', 'column', 't', 'h', 'diagnosis'] as const;

/** A thrown value as a structured clone the page can rebuild an `EngineError` from. */
function errorInfo(e: unknown): EngineErrorInfo {
  const info: EngineErrorInfo = { message: e instanceof Error ? e.message : String(e) };
  if (e !== null && typeof e === 'object') {
    const fields = e as Record<string, unknown>;
    for (const key of ERROR_FIELDS) {
      const value = fields[key];
      if (value === undefined || value === null) continue;
      if (key === 'code' ? typeof value === 'string' : key === 'diagnosis' ? typeof value === 'object' : typeof value === 'number') {
        Object.assign(info, { [key]: value });
      }
    }
  }
  return info;
}

/** One connected page: its step-by-step runs, by the ids its client chose. */
class Session {
  readonly runs = new Map<number, Run>();
  /** Each open run's spec, to diagnose its stop in the whole engine. */
  readonly specs = new Map<number, SolveSpec>();
  /** Set when the page left (a cancel): its queued requests are not run. */
  closed = false;

  close(): void {
    this.closed = true;
    for (const run of this.runs.values()) run.free();
    this.runs.clear();
    this.specs.clear();
  }

  async handle(req: Request): Promise<Result> {
    const { runs, specs } = this;
    switch (req.op) {
      case 'catalog':
        return { methods: methods(), models: models(), stabilityMethods: stabilityMethods() };
      case 'solve':
        return firstOrWhole(
          () => solve(req.spec),
          (whole) => whole.solve(req.spec),
        );
      case 'describe':
        return firstOrWhole(
          () => describeSystem(req.text),
          (whole) => whole.describeSystem(req.text),
        );
      case 'spectrum':
        return (await labs()).spectrum(req.spec);
      case 'exact':
        return (await labs()).exactAt(req.spec, req.times) ?? null;
      case 'stability':
        return (await labs()).stabilityAnalysis(req.spec);
      case 'structural':
        return (await labs()).structuralAnalysis(req.spec);
      case 'convergence':
        return (await labs()).convergence(req.spec);
      case 'tableau':
        return (await labs()).analyzeTableau(req.tableau);
      case 'compare':
        return (await labs()).compareRuns(req.run, req.reference);
      case 'formulations':
        return (await labs()).compareFormulations(req.spec);
      case 'assignment':
        return (await labs()).readAssignment(req.assignment);
      case 'grade':
        return (await labs()).gradeAssignment(req.assignment, req.work);
      case 'open': {
        runs.get(req.run)?.free();
        runs.delete(req.run);
        const integrator = await firstOrWhole<Run>(
          () => new Integrator(req.spec),
          (whole) => new whole.Integrator(req.spec),
        );
        runs.set(req.run, integrator);
        specs.set(req.run, req.spec);
        return { t: integrator.t, y: integrator.y, outputs: integrator.outputs, exact: integrator.exact };
      }
      case 'advance': {
        const integrator = runs.get(req.run);
        if (!integrator) throw new Error(`run ${req.run} is not open`);
        const chunk = integrator.advance(req.steps);
        // A stop in the run package comes without a diagnosis: the whole engine's solve of
        // the same spec (same bits) gives it, so Animate and Solve say the same.
        const spec = specs.get(req.run);
        if (chunk.warning !== undefined && chunk.diagnosis === undefined && spec) {
          const sol = (await labs()).solve(spec);
          if (sol.diagnosis) {
            chunk.diagnosis = sol.diagnosis;
            chunk.warning = sol.warning;
          }
        }
        return chunk;
      }
      case 'close':
        runs.get(req.run)?.free();
        runs.delete(req.run);
        specs.delete(req.run);
        return null;
    }
  }
}

/**
 * One tiny solve right after the catalogues are answered, while the page builds its
 * views (tens of milliseconds before it asks for its first run): V8 compiles a wasm
 * function on its first call, and the driver, a model, a method and the result's
 * conversion compiled now make the page's first run 3× faster (in Node: 13–15 ms cold,
 * 4–5 ms after this 5–7 ms warm-up). Its result is thrown away.
 */
function warmUp(): void {
  try {
    solve({ model: 'pendulum', method: 'rk4', h: 0.1, t1: 0.2 });
  } catch {
    // Only a head start: the page's own first run reports any real problem.
  }
}

/** The run package: handed over compiled by the page, or loaded here (see EngineHandoff). */
let ready: Promise<void> | undefined;
let handedOver: ((module: WebAssembly.Module | undefined) => void) | undefined;
let warmed = false;

type Post = (message: Reply, transfer: Transferable[]) => void;

/** Answers one request of `session` through `post`, exactly once. */
function answer(session: Session, req: Request, post: Post): void {
  ready ??= initEngine();
  ready
    .then(() => (session.closed ? null : session.handle(req)))
    .then((result) => {
      if (session.closed) return;
      post({ id: req.id, ok: true, result }, transferables(result));
      if (req.op === 'catalog' && !warmed) {
        warmed = true;
        setTimeout(warmUp, 0);
      }
    })
    .catch((e: unknown) => {
      if (!session.closed) post({ id: req.id, ok: false, error: errorInfo(e) }, []);
    });
}

interface SharedScope {
  addEventListener(type: 'connect', listener: (event: MessageEvent) => void): void;
}

if ('onconnect' in self) {
  // A SharedWorker: one session per connected frame.
  (self as unknown as SharedScope).addEventListener('connect', (event) => {
    const port = event.ports[0];
    const session = new Session();
    port.addEventListener('message', (message: MessageEvent<Request | EngineHandoff>) => {
      const data = message.data;
      if (data.op === 'engine') {
        if ('close' in data) session.close();
        return;
      }
      answer(session, data, (reply, transfer) => port.postMessage(reply, transfer));
    });
    port.start();
  });
} else {
  const session = new Session();
  self.addEventListener('message', (event: MessageEvent<Request | EngineHandoff>) => {
    const message = event.data;
    if (message.op === 'engine') {
      if ('handoff' in message) ready ??= new Promise<WebAssembly.Module | undefined>((resolve) => (handedOver = resolve)).then((module) => initEngine(module));
      else if ('module' in message) handedOver?.(message.module);
      return;
    }
    answer(session, message, (reply, transfer) => (self as unknown as Worker).postMessage(reply, transfer));
  });
}
