/**
 * Starts the engine as the page's very first module evaluation (www/start.ts imports
 * it before the views): the run package's .wasm is fetched and compiled here on the
 * page (streaming compilation, off the main thread) while the worker starts, and the
 * compiled module is handed to the worker (`EngineClient`'s `engineModule`). A
 * worker takes tens of milliseconds to start; the compile no longer waits for it, nor
 * for the views' modules. If the page cannot compile it (an old browser, a host that
 * serves .wasm with the wrong type), the worker loads the package itself.
 *
 * An embed (`?embed=1`, www/embedded.ts) shares one engine with every other embed of
 * the lecture page: a SharedWorker of the same script, which every frame of odelab's
 * origin on that page connects to (ten embeds, one engine instead of ten). It compiles
 * the package once for all of them, so an embed compiles nothing itself. Where
 * SharedWorker is missing (Chrome on Android), or with `engine=own` in the query, an
 * embed runs its own dedicated worker as the playground does.
 */
import engineWasm from '../pkg/odelab_bg.wasm?url';
import { EngineClient } from './client';

function compileEngine(): Promise<WebAssembly.Module | undefined> {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.compileStreaming !== 'function') return Promise.resolve(undefined);
  return WebAssembly.compileStreaming(fetch(engineWasm)).catch(() => undefined);
}

const query = new URLSearchParams(location.search);
/** True when this page is an embed that joins the lecture page's shared engine. */
export const sharedEngine = query.get('embed') === '1' && query.get('engine') !== 'own' && typeof SharedWorker === 'function';

// Which engine this page uses, for tests and for anyone inspecting a lecture page.
document.documentElement.dataset.engine = sharedEngine ? 'shared' : 'own';

const dedicated = (): Worker => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });

export const engine = sharedEngine
  ? new EngineClient(dedicated, undefined, () => new SharedWorker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'odelab-engine' }))
  : new EngineClient(dedicated, compileEngine());

/** The catalogues, requested now; www/main.ts awaits them (and shows a failure). */
export const catalogRequest = engine.catalog();
// main() awaits it; until then a rejection is not "unhandled".
catalogRequest.catch(() => undefined);
