/**
 * Starts the engine worker and asks it for the catalogues as the page's very first
 * module evaluation (www/main.ts imports this module first), so the worker's script,
 * the run package's fetch and its compilation overlap the evaluation of the rest of
 * the page's modules (uPlot, the views) instead of following it.
 */
import { EngineClient } from './client';

export const engine = new EngineClient(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));

/** The catalogues, requested now; www/main.ts awaits them (and shows a failure). */
export const catalogRequest = engine.catalog();
// main() awaits it; until then a rejection is not "unhandled".
catalogRequest.catch(() => undefined);
