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

  it('on the shared engine, cancel() rejects what was pending, leaves the shared port and goes on in a worker of its own', async () => {
    const shared = new FakeSharedWorker(() => undefined);
    const workers: FakeWorker[] = [];
    const engine = new EngineClient(
      () => {
        const w = new FakeWorker((req) => ({ id: req.id, ok: true, result: null }));
        workers.push(w);
        return w as unknown as Worker;
      },
      undefined,
      () => shared as unknown as SharedWorker,
    );
    expect(engine.shared).toBe(true);
    const pending = engine.solve({ model: 'pendulum', method: 'rk4', h: 1e-6 });
    expect(shared.port.requests.map((r) => r.op)).toEqual(['solve']);
    engine.cancel();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    // The engine is told to drop this frame's queued requests; the port is closed.
    expect(shared.port.handoffs).toEqual([{ op: 'engine', close: true }]);
    expect(shared.port.closed).toBe(true);
    expect(engine.shared).toBe(false);
    await expect(engine.close(1)).resolves.toBeNull();
    expect(workers).toHaveLength(1);
  });

  it('on the shared engine, cancel() with nothing pending keeps the shared engine', async () => {
    const shared = new FakeSharedWorker((req) => ({ id: req.id, ok: true, result: null }));
    const engine = new EngineClient(() => {
      throw new Error('no dedicated worker expected');
    }, undefined, () => shared as unknown as SharedWorker);
    await engine.close(1);
    engine.cancel();
    await expect(engine.close(2)).resolves.toBeNull();
    expect(engine.shared).toBe(true);
    expect(shared.port.closed).toBe(false);
  });

  it('keeps the structured error of a reply from the shared engine', async () => {
    const error = { message: 'line 3, column 7: unknown name "kk"', code: 'parse', line: 3, column: 7 };
    const shared = new FakeSharedWorker((req) => ({ id: req.id, ok: false, error }));
    const engine = new EngineClient(() => {
      throw new Error('no dedicated worker expected');
    }, undefined, () => shared as unknown as SharedWorker);
    const rejected: unknown = await engine.describe("x' = -kk*x").catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(EngineError);
    expect(rejected).toMatchObject(error);
  });

  it('sends the pending requests again to a worker of its own when the shared worker fails to start', async () => {
    const shared = new FakeSharedWorker(() => undefined);
    const workers: FakeWorker[] = [];
    const engine = new EngineClient(
      () => {
        const w = new FakeWorker((req) => ({ id: req.id, ok: true, result: null }));
        workers.push(w);
        return w as unknown as Worker;
      },
      undefined,
      () => shared as unknown as SharedWorker,
    );
    const pending = engine.close(7);
    shared.fail();
    await expect(pending).resolves.toBeNull();
    expect(workers).toHaveLength(1);
    expect(engine.shared).toBe(false);
  });
});

/** A stand-in SharedWorker: its port answers like FakeWorker; `fail()` reports a failed start. */
class FakeSharedWorker {
  readonly port: FakePort;
  private errorListeners: (() => void)[] = [];
  constructor(answer: (req: Request) => Reply | undefined) {
    this.port = new FakePort(answer);
  }
  addEventListener(type: string, fn: () => void): void {
    if (type === 'error') this.errorListeners.push(fn);
  }
  fail(): void {
    this.errorListeners.forEach((fn) => fn());
  }
}

class FakePort {
  closed = false;
  requests: Request[] = [];
  handoffs: EngineHandoff[] = [];
  private listeners: ((e: MessageEvent<Reply>) => void)[] = [];
  constructor(private readonly answer: (req: Request) => Reply | undefined) {}
  addEventListener(type: string, fn: (e: MessageEvent<Reply>) => void): void {
    if (type === 'message') this.listeners.push(fn);
  }
  start(): void {}
  close(): void {
    this.closed = true;
  }
  postMessage(req: Request | EngineHandoff): void {
    if (req.op === 'engine') {
      this.handoffs.push(req);
      return;
    }
    this.requests.push(req);
    const reply = this.answer(req);
    if (reply) setTimeout(() => this.listeners.forEach((fn) => fn({ data: reply } as MessageEvent<Reply>)), 0);
  }
}
