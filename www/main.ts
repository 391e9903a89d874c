/**
 * The page's entry point: loads the wasm engine, then starts the views. If the engine
 * cannot load, the page says so instead of failing silently.
 */
import { Integrator, initEngine, methods, models, solve } from './engine';
import { TrajectoryView } from './trajectory';
import './style.css';

async function main(): Promise<void> {
  try {
    await initEngine();
  } catch (e) {
    const message = document.getElementById('message');
    if (message) {
      message.hidden = false;
      message.className = 'error';
      message.textContent = `The numerical engine could not be loaded: ${e instanceof Error ? e.message : String(e)}`;
    }
    document.body.dataset.status = 'error';
    return;
  }
  // The API on the page's console, for students and lecturers: odelab.solve({...}).
  Object.assign(window, { odelab: { solve, methods, models, Integrator } });
  const params = new URLSearchParams(location.search);
  const view = new TrajectoryView();
  view.start(params.get('model') ?? 'pendulum', params.get('method') ?? 'euler');
  document.body.dataset.ready = 'true';
}

void main();
