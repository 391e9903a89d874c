/**
 * The engine worker: runs the wasm core off the main thread, so the page never freezes
 * while a run computes. It answers the requests of www/protocol.ts one at a time and
 * transfers the result arrays (no copy). Cancelling = the page terminates this worker.
 */
import {
  Integrator,
  analyzeTableau,
  compareFormulations,
  compareRuns,
  convergence,
  describeSystem,
  gradeAssignment,
  initEngine,
  methods,
  models,
  readAssignment,
  solve,
  spectrum,
  stabilityAnalysis,
  stabilityMethods,
} from './engine';
import type { Reply, Request, Result } from './protocol';

const runs = new Map<number, Integrator>();

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

function handle(req: Request): Result {
  switch (req.op) {
    case 'catalog':
      return { methods: methods(), models: models(), stabilityMethods: stabilityMethods() };
    case 'solve':
      return solve(req.spec);
    case 'describe':
      return describeSystem(req.text);
    case 'spectrum':
      return spectrum(req.spec);
    case 'stability':
      return stabilityAnalysis(req.spec);
    case 'convergence':
      return convergence(req.spec);
    case 'tableau':
      return analyzeTableau(req.tableau);
    case 'compare':
      return compareRuns(req.run, req.reference);
    case 'formulations':
      return compareFormulations(req.spec);
    case 'assignment':
      return readAssignment(req.assignment);
    case 'grade':
      return gradeAssignment(req.assignment, req.work);
    case 'open': {
      runs.get(req.run)?.free();
      runs.delete(req.run);
      const integrator = new Integrator(req.spec);
      runs.set(req.run, integrator);
      return { t: integrator.t, y: integrator.y, outputs: integrator.outputs, exact: integrator.exact };
    }
    case 'advance': {
      const integrator = runs.get(req.run);
      if (!integrator) throw new Error(`run ${req.run} is not open`);
      return integrator.advance(req.steps);
    }
    case 'close':
      runs.get(req.run)?.free();
      runs.delete(req.run);
      return null;
  }
}

const ready = initEngine();

self.addEventListener('message', (event: MessageEvent<Request>) => {
  const req = event.data;
  ready
    .then(() => {
      const result = handle(req);
      const reply: Reply = { id: req.id, ok: true, result };
      (self as unknown as Worker).postMessage(reply, transferables(result));
    })
    .catch((e: unknown) => {
      const reply: Reply = { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) };
      (self as unknown as Worker).postMessage(reply);
    });
});
