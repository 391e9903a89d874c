/**
 * The page's entry module, kept tiny: it starts the engine worker (www/boot.ts) and
 * only then imports the views (www/main.ts, with uPlot and every view: most of the
 * page's script). A worker's start needs a few turns of the page's main thread (its
 * script arrives through it); evaluating the views' modules first would hold those
 * turns for tens of milliseconds, so the worker, its .wasm and the catalogues now
 * load while the views' chunk is fetched and evaluated. The stylesheet is imported
 * here so the page is styled from its first paint.
 */
import { showFatal } from './fatal';
import { missingWasmSupport } from './wasm-support';
import './boot';
import './style.css';

const missing = missingWasmSupport();
if (missing) {
  // The header and this message, not a page whose plots never fill.
  showFatal(missing);
} else {
  import('./main').catch((e: unknown) => {
    showFatal(`The page's script could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
  });
}
