/**
 * odelab as an anywidget module (dist/anywidget.js): one ES module whose default export
 * has `render({ model, el })`, the front-end format Jupyter, JupyterLab, marimo and
 * MyST's `{anywidget}` directive load. It draws what `<ode-playground>` draws, a frame of
 * the playground in its embed form (www/embed-url.ts), from the model's values:
 *
 *   scenario, view, controls, link: as the element's attributes (strings);
 *   readonly: a boolean; height: a CSS height (a number is pixels), else the frame
 *   follows its content; base: the URL of odelab's folder (where index.html is), by
 *   default the folder this module was loaded from.
 *
 * A change of any of them (`change:scenario`, …) reloads the frame; `render` returns the
 * cleanup that anywidget calls when the view goes away.
 */
import { HEIGHT_MESSAGE } from './embedded';
import { embedUrl } from './embed-url';

/** The part of anywidget's model this module uses (anywidget's AFM interface). */
export interface WidgetModel {
  get(name: string): unknown;
  on(event: string, callback: () => void): void;
  off(event?: string | null, callback?: (() => void) | null): void;
}

const TRAITS = ['scenario', 'view', 'readonly', 'controls', 'link', 'height', 'base'] as const;
const MAX_HEIGHT = 20000;

/** This module's folder when it was loaded from a web address (not when inlined as a string). */
function ownFolder(): string | undefined {
  const url = import.meta.url;
  return /^https?:/.test(url) ? url.replace(/[?#].*$/, '').replace(/[^/]*$/, '') : undefined;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function render({ model, el }: { model: WidgetModel; el: HTMLElement }): () => void {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width:100%;border:1px solid #d3d8e4;border-radius:6px;display:block;box-sizing:border-box';
  el.append(frame);

  const fixedHeight = (): string | null => {
    const height = model.get('height');
    if (typeof height === 'number' && height > 0) return `${height}px`;
    return text(height);
  };
  const update = (): void => {
    let base = text(model.get('base')) ?? ownFolder();
    if (!base) {
      el.textContent = 'odelab: set the widget\'s "base" to the web address of odelab (the folder of its index.html).';
      return;
    }
    if (!base.endsWith('/')) base += '/';
    const scenario = text(model.get('scenario'));
    frame.title = `odelab: ${scenario ?? 'playground'}`;
    const readonly = model.get('readonly') === true;
    frame.style.height = fixedHeight() ?? (frame.style.height || `${readonly ? 480 : 900}px`);
    const src = embedUrl(base, { scenario, view: text(model.get('view')), readonly, controls: text(model.get('controls')), link: text(model.get('link')) });
    if (frame.src !== src) frame.src = src;
  };
  const onMessage = (e: MessageEvent): void => {
    if (e.source !== frame.contentWindow || fixedHeight()) return;
    const data: unknown = e.data;
    if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== HEIGHT_MESSAGE) return;
    const height = Number((data as { height?: unknown }).height);
    if (height > 0 && height <= MAX_HEIGHT) frame.style.height = `${Math.ceil(height) + 2}px`;
  };
  window.addEventListener('message', onMessage);
  for (const trait of TRAITS) model.on(`change:${trait}`, update);
  update();
  return () => {
    window.removeEventListener('message', onMessage);
    for (const trait of TRAITS) model.off(`change:${trait}`, update);
    frame.remove();
  };
}

export default { render };
export { render };
