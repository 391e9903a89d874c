/**
 * The page's entry point: starts the engine worker, reads the catalogues, then starts
 * the views. If the engine cannot load, the page says so instead of failing silently.
 */
import { EngineClient } from './client';
import type { Catalog } from './protocol';
import { TrajectoryView } from './trajectory';
import './style.css';

function showFatal(text: string): void {
  const message = document.getElementById('message');
  if (message) {
    message.hidden = false;
    message.className = 'error';
    message.textContent = text;
  }
  document.body.dataset.status = 'error';
}

async function main(): Promise<void> {
  const engine = new EngineClient(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));
  let catalog: Catalog;
  try {
    catalog = await engine.catalog();
  } catch (e) {
    showFatal(`The numerical engine could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  // The API on the page's console, for students and lecturers (runs in the worker):
  //   await odelab.solve({ model: 'pendulum', method: 'rk4', t1: 10, h: 0.01 })
  Object.assign(window, {
    odelab: {
      solve: engine.solve.bind(engine),
      open: engine.open.bind(engine),
      cancel: engine.cancel.bind(engine),
      methods: () => catalog.methods,
      models: () => catalog.models,
    },
  });
  const params = new URLSearchParams(location.search);
  const view = new TrajectoryView(engine, catalog);
  await view.start({ model: params.get('model') ?? 'pendulum', method: params.get('method') ?? 'euler' });
  document.body.dataset.ready = 'true';
}

void main();
