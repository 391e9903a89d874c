/**
 * "PNG" on every plot: the figure's canvases with its title above and its legend below,
 * as one image (www/export.ts `composeFigure`). The time plots have their buttons in
 * index.html; the other figures (mechanism, phase portrait, heat map, ξ-plane,
 * convergence) get theirs here. A uPlot plot's legend is read from its own legend; a
 * view drawn on its own canvas publishes its legend as JSON in `data-legend`, and may
 * name its picture in `data-title` (else the figure's caption is the title).
 */
import { composeFigure, download } from './export';
import type { FigureImage, LegendEntry } from './export';
import { ink } from './theme';

/** The elements holding the canvases of the figures that get a button here. */
const TARGETS = ['mechanism', 'plot-phase', 'plot-heatmap', 'plane', 'plot-global', 'plot-dn', 'plot-wp', 'plot-local'];

/** A figure's caption as text: its selects read as their chosen option, its buttons left out. */
export function captionText(figure: Element | null): string {
  const caption = figure?.querySelector('figcaption');
  if (!caption) return '';
  const copy = caption.cloneNode(true) as HTMLElement;
  const selects = caption.querySelectorAll('select');
  copy.querySelectorAll('select').forEach((s, k) => s.replaceWith(selects[k]?.selectedOptions[0]?.textContent ?? ''));
  for (const el of copy.querySelectorAll('button, .plane-buttons')) el.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').replace(/:\s*$/, '').trim();
}

/** A uPlot plot's legend (published by www/plot.ts) without the series its reader switched off. */
function uplotLegend(target: HTMLElement): LegendEntry[] {
  const rows = [...target.querySelectorAll<HTMLElement>('.u-legend .u-series')].slice(1);
  return publishedLegend(target).filter((_, k) => !rows[k]?.classList.contains('u-off'));
}

/** The legend a canvas view published in `data-legend` (JSON), or none. */
function publishedLegend(target: HTMLElement): LegendEntry[] {
  try {
    const parsed: unknown = JSON.parse(target.dataset.legend ?? '[]');
    return Array.isArray(parsed) ? (parsed as LegendEntry[]).filter((e) => typeof e?.label === 'string' && typeof e.color === 'string') : [];
  } catch {
    return [];
  }
}

/** Everything `composeFigure` needs for the plot in element `id`, or undefined if it shows nothing. */
export function figureImage(id: string): FigureImage | undefined {
  const target = document.getElementById(id);
  if (!target) return undefined;
  const own = target instanceof HTMLCanvasElement ? [target] : [...target.querySelectorAll('canvas')].slice(0, 1);
  // The heat map's profile belongs to its picture.
  const profile = id === 'plot-heatmap' ? document.getElementById('plot-profile') : null;
  const canvases = [...own, ...(profile instanceof HTMLCanvasElement ? [profile] : [])].filter((c) => c.width > 0 && c.height > 0);
  if (canvases.length === 0) return undefined;
  const { background, text } = ink();
  return {
    title: target.dataset.title || captionText(target.closest('figure')),
    legend: target.querySelector('.u-legend') ? uplotLegend(target) : publishedLegend(target),
    canvases,
    background,
    text,
    ratio: window.devicePixelRatio || 1,
  };
}

/** Adds the PNG buttons the page does not have and makes every `[data-png]` button export; `name` gives the file's stem. */
export function attachPngExport(name: () => string): void {
  for (const id of TARGETS) {
    const caption = document.getElementById(id)?.closest('figure')?.querySelector('figcaption');
    if (!caption || caption.querySelector(`[data-png="${id}"]`)) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'png';
    button.dataset.png = id;
    button.title = 'Download this plot as PNG (with its title and legend)';
    button.textContent = 'PNG';
    // In the ξ-plane's caption the zoom buttons come last: PNG goes beside them.
    (caption.querySelector('.plane-buttons') ?? caption).append(button);
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-png]')) {
    button.addEventListener('click', () => exportPng(button.dataset.png ?? '', name()));
  }
}

/** Downloads the plot in element `id` as `<stem>-<plot>.png`. */
function exportPng(id: string, stem: string): void {
  const figure = figureImage(id);
  if (!figure) return;
  composeFigure(figure).toBlob((blob) => {
    if (blob) download(`${stem}-${id.replace('plot-', '')}.png`, blob);
  }, 'image/png');
}
