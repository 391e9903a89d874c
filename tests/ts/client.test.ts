// The worker client (www/client.ts) against a fake worker: replies matched by id,
// errors become Errors, cancel() rejects what is pending and starts a fresh worker, and
// the page's compiled run package is handed to every worker before any request runs.
import { describe, expect, it } from 'vitest';
import { CancelledError, EngineError, EngineClient } from '../../www/client';
import type { EngineHandoff, Reply, Request } from '../../www/protocol';

/** A stand-in Worker that answers from `answer` after a tick, or never when it returns undefined. */
class FakeWorker {
  terminated = false;
  /** The engine handoff messages received, in order. */
  handoffs: EngineHandoff[] = [];
  private listeners: ((e: MessageEvent<Reply>) => void)[] = [];
  constructor(private readonly answer: (req: Request) => Reply | undefined) {}
  addEventListener(type: string, fn: (e: MessageEvent<Reply>) => void): void {
    if (type === 'message') this.listeners.push(fn);
  }
  postMessage(req: Request | EngineHandoff): void {
    if (req.op === 'engine') {
      this.handoffs.push(req);
      return;
    }
    const reply = this.answer(req);
    if (reply) setTimeout(() => this.listeners.forEach((fn) => fn({ data: reply } as MessageEvent<Reply>)), 0);
  }
  terminate(): void {
    this.terminated = true;
  }
}

function client(
  answer: (req: Request) => Reply | undefined,
  engineModule?: Promise<WebAssembly.Module | undefined>,
): { engine: EngineClient; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const engine = new EngineClient(() => {
    const w = new FakeWorker(answer);
    workers.push(w);
    return w as unknown as Worker;
  }, engineModule);
  return { engine, workers };
}

describe('EngineClient', () => {
  it('resolves each request with the reply of the same id', async () => {
    const { engine } = client((req) => ({ id: req.id, ok: true, result: { methods: [], models: [], stabilityMethods: [] } }));
    await expect(engine.catalog()).resolves.toEqual({ methods: [], models: [], stabilityMethods: [] });
  });

  it('turns an error reply into an Error with the core message', async () => {
    const { engine } = client((req) => ({ id: req.id, ok: false, error: { message: 'unknown method "x"', code: 'unknown-method' } }));
    await expect(engine.solve({ model: 'pendulum', method: 'x', h: 0.1 })).rejects.toThrow('unknown method "x"');
  });

  it('keeps the code and place of an error reply on the rejected Error', async () => {
    const error = { message: 'line 2, column 9: unknown name "kk"', code: 'parse', line: 2, column: 9 };
    const { engine } = client((req) => ({ id: req.id, ok: false, error }));
    const rejected: unknown = await engine.describe("x' = -kk*x").catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(EngineError);
    expect(rejected).toBeInstanceOf(Error);
    expect(rejected).toMatchObject(error);
  });

  it('cancel() rejects pending requests and the next call uses a new worker', async () => {
    let hang = true;
    const { engine, workers } = client((req) => (hang ? undefined : { id: req.id, ok: true, result: null }));
    const pending = engine.solve({ model: 'pendulum', method: 'rk4', h: 1e-6 });
    expect(engine.busy).toBe(true);
    engine.cancel();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(workers[0].terminated).toBe(true);
    expect(engine.busy).toBe(false);
    hang = false;
    await expect(engine.close(1)).resolves.toBeNull();
    expect(workers).toHaveLength(2);
  });

  it('announces the compiled run package to each new worker and hands it over when it is ready', async () => {
    // A minimal valid module: the 8-byte header of an empty wasm binary.
    const module = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    let compiled: (m: WebAssembly.Module | undefined) => void = () => undefined;
    const { engine, workers } = client(
      (req) => ({ id: req.id, ok: true, result: null }),
      new Promise((resolve) => (compiled = resolve)),
    );
    const first = engine.close(1);
    // The announcement goes first, so the worker waits for the module instead of fetching it.
    expect(workers[0].handoffs).toEqual([{ op: 'engine', handoff: true }]);
    compiled(module);
    await first;
    expect(workers[0].handoffs).toEqual([{ op: 'engine', handoff: true }, { op: 'engine', module }]);
    engine.cancel();
    await engine.close(2);
    expect(workers[1].handoffs).toEqual([{ op: 'engine', handoff: true }, { op: 'engine', module }]);
  });

  it('tells the worker to load the package itself when the page could not compile it', async () => {
    const { engine, workers } = client((req) => ({ id: req.id, ok: true, result: null }), Promise.reject(new Error('wrong MIME type')));
    await engine.close(1);
    await Promise.resolve();
    expect(workers[0].handoffs).toEqual([{ op: 'engine', handoff: true }, { op: 'engine', module: undefined }]);
  });

  it('sends no handoff when no module is given: the worker loads the package itself', async () => {
    const { engine, workers } = client((req) => ({ id: req.id, ok: true, result: null }));
    await engine.close(1);
    expect(workers[0].handoffs).toEqual([]);
  });
});
