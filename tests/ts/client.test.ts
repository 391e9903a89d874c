// The worker client (www/client.ts) against a fake worker: replies matched by id,
// errors become Errors, cancel() rejects what is pending and starts a fresh worker.
import { describe, expect, it } from 'vitest';
import { CancelledError, EngineClient } from '../../www/client';
import type { Reply, Request } from '../../www/protocol';

/** A stand-in Worker that answers from `answer` after a tick, or never when it returns undefined. */
class FakeWorker {
  terminated = false;
  private listeners: ((e: MessageEvent<Reply>) => void)[] = [];
  constructor(private readonly answer: (req: Request) => Reply | undefined) {}
  addEventListener(type: string, fn: (e: MessageEvent<Reply>) => void): void {
    if (type === 'message') this.listeners.push(fn);
  }
  postMessage(req: Request): void {
    const reply = this.answer(req);
    if (reply) setTimeout(() => this.listeners.forEach((fn) => fn({ data: reply } as MessageEvent<Reply>)), 0);
  }
  terminate(): void {
    this.terminated = true;
  }
}

function client(answer: (req: Request) => Reply | undefined): { engine: EngineClient; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const engine = new EngineClient(() => {
    const w = new FakeWorker(answer);
    workers.push(w);
    return w as unknown as Worker;
  });
  return { engine, workers };
}

describe('EngineClient', () => {
  it('resolves each request with the reply of the same id', async () => {
    const { engine } = client((req) => ({ id: req.id, ok: true, result: { methods: [], models: [], stabilityMethods: [] } }));
    await expect(engine.catalog()).resolves.toEqual({ methods: [], models: [], stabilityMethods: [] });
  });

  it('turns an error reply into an Error with the core message', async () => {
    const { engine } = client((req) => ({ id: req.id, ok: false, error: 'unknown method "x"' }));
    await expect(engine.solve({ model: 'pendulum', method: 'x', h: 0.1 })).rejects.toThrow('unknown method "x"');
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
});
