/**
 * Starts the engine as the page's very first module evaluation (www/start.ts imports
 * it before the views): the run package's .wasm is fetched and compiled here on the
 * page (streaming compilation, off the main thread) while the worker starts, and the
 * compiled module is handed to the worker (`EngineClient`'s `engineModule`). A
 * worker takes tens of milliseconds to start; the compile no longer waits for it, nor
 * for the views' modules. If the page cannot compile it (an old browser, a host that
 * serves .wasm with the wrong type), the worker loads the package itself.
 */
import engineWasm from '../pkg/odelab_bg.wasm?url';
import { EngineClient } from './client';

function compileEngine(): Promise<WebAssembly.Module | undefined> {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.compileStreaming !== 'function') return Promise.resolve(undefined);
  return WebAssembly.compileStreaming(fetch(engineWasm)).catch(() => undefined);
}

export const engine = new EngineClient(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }), compileEngine());

/** The catalogues, requested now; www/main.ts awaits them (and shows a failure). */
export const catalogRequest = engine.catalog();
// main() awaits it; until then a rejection is not "unhandled".
catalogRequest.catch(() => undefined);
