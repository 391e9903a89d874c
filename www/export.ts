/**
 * Getting things out of the page: a run as CSV (named columns, pinned runs beside it),
 * a plot as PNG, the session as JSON (and back in, pins included). The builders are pure and unit-tested; `download`
 * is the only part that touches the DOM.
 */
import { describeRun, resample, seriesOf } from './run';
import type { Run } from './run';
import type { RunSettings } from './settings';
import { SHARE_VERSION, decodeSettings, encodeSettings } from './share';

/** A run as CSV: t, the states and the outputs by name; full double precision. */
export function runToCsv(
  t: ArrayLike<number>,
  y: ArrayLike<number>,
  names: string[],
  outputs: Record<string, ArrayLike<number>> = {},
): string {
  const dim = names.length;
  const outNames = Object.keys(outputs);
  const quote = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [['t', ...names, ...outNames].map(quote).join(',')];
  for (let i = 0; i < t.length; i++) {
    const row = [t[i]];
    for (let j = 0; j < dim; j++) row.push(y[i * dim + j]);
    for (const o of outNames) row.push(outputs[o][i]);
    lines.push(row.map((v) => String(v)).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The current run as CSV with the pinned runs as more columns, `pin k (method, h): name`
 * for each state and output, at the current run's times (linear between a pin's own
 * points, exact where the grids agree; NaN outside a pin's interval).
 */
export function runsToCsv(run: Run, pins: Run[]): string {
  const extra: Record<string, ArrayLike<number>> = { ...run.outputs };
  for (const [k, pin] of pins.entries()) {
    for (const name of [...pin.names, ...Object.keys(pin.outputs)]) {
      const series = seriesOf(pin, name);
      if (series) extra[`pin ${k + 1} (${describeRun(pin)}): ${name}`] = resample(pin.t, series, run.t);
    }
  }
  return runToCsv(run.t, run.y, run.names, extra);
}

/** The session file: the settings with a format version, as pretty JSON. */
export function sessionToJson(settings: RunSettings): string {
  return `${JSON.stringify({ odelab: SHARE_VERSION, settings }, null, 2)}\n`;
}

/**
 * Reads a session file; the settings go through the same checks as a share link, so a
 * hand-edited or hostile file cannot inject anything.
 */
export function sessionFromJson(text: string): { settings?: RunSettings; error?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { error: 'This file is not an odelab session (it is not JSON).' };
  }
  const r = raw as { odelab?: unknown; settings?: unknown };
  if (typeof r !== 'object' || r === null || typeof r.odelab !== 'number' || typeof r.settings !== 'object') {
    return { error: 'This file is not an odelab session.' };
  }
  if (r.odelab > SHARE_VERSION) return { error: `This session was saved by a newer odelab (version ${r.odelab}).` };
  const decoded = decodeSettings(encodeSettings(r.settings as RunSettings));
  // The checks are a link's; their words must say what was opened.
  if (decoded.error) decoded.error = decoded.error.replace(/^This link/, 'This session file').replace('; the defaults are shown.', '.');
  return decoded;
}

/** Offers `data` to the user as a file named `name`. */
export function download(name: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One entry of an exported figure's legend: a line of `color` (dashed by `dash`). */
export interface LegendEntry {
  label: string;
  color: string;
  dash?: number[];
}

/** What an exported figure shows: its title, legend and the canvases of the plot (stacked). */
export interface FigureImage {
  title: string;
  legend: LegendEntry[];
  canvases: HTMLCanvasElement[];
  /** Background and text colours (the page's scheme when exported). */
  background: string;
  text: string;
  /** Device pixels per CSS pixel of the canvases (their backing stores are that much larger). */
  ratio: number;
}

/** CSS pixels of the title band, of one legend row, and of the margins. */
const TITLE_BAND = 26;
const LEGEND_ROW = 18;
const PAD = 8;

/** Legend entries laid out in rows that fit `width` (CSS px): [row, x] of each. */
export function legendLayout(
  widths: number[],
  width: number,
): { rows: number; at: [number, number][] } {
  const at: [number, number][] = [];
  let [row, x] = [0, PAD];
  for (const w of widths) {
    if (x > PAD && x + w > width - PAD) [row, x] = [row + 1, PAD];
    at.push([row, x]);
    x += w + 14;
  }
  return { rows: widths.length === 0 ? 0 : row + 1, at };
}

/**
 * A plot as one picture: the title above, the canvases of the plot (each at its
 * resolution, stacked), and the legend below, on the figure's background. The plots'
 * own legends are HTML beside the canvas, so a PNG of the canvas alone had neither.
 */
export function composeFigure(figure: FigureImage): HTMLCanvasElement {
  const r = figure.ratio;
  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');
  const width = Math.max(1, ...figure.canvases.map((c) => c.width));
  const cssWidth = width / r;
  const font = (size: number, weight = ''): string => `${weight} ${size}px system-ui, sans-serif`.trim();
  // Measure legend entries: a 22 px line sample, a gap, the label.
  const measure = document.createElement('canvas').getContext('2d');
  if (measure) measure.font = font(12);
  const widths = figure.legend.map((e) => 28 + (measure?.measureText(e.label).width ?? 7 * e.label.length));
  const layout = legendLayout(widths, cssWidth);
  const body = figure.canvases.reduce((sum, c) => sum + c.height, 0);
  const legendHeight = layout.rows > 0 ? layout.rows * LEGEND_ROW + PAD : 0;
  out.width = width;
  out.height = Math.round(TITLE_BAND * r + body + legendHeight * r);
  if (!ctx) return out;
  ctx.fillStyle = figure.background;
  ctx.fillRect(0, 0, out.width, out.height);
  let y = TITLE_BAND * r;
  for (const c of figure.canvases) {
    ctx.drawImage(c, 0, y);
    y += c.height;
  }
  ctx.setTransform(r, 0, 0, r, 0, 0);
  ctx.fillStyle = figure.text;
  ctx.textBaseline = 'middle';
  // The title at 14 px, smaller (down to 10 px) where it is long, squeezed only beyond that.
  let size = 14;
  ctx.font = font(size, '600');
  while (size > 10 && ctx.measureText(figure.title).width > cssWidth - 2 * PAD) ctx.font = font(--size, '600');
  ctx.fillText(figure.title, PAD, TITLE_BAND / 2, cssWidth - 2 * PAD);
  ctx.font = font(12);
  const top = (TITLE_BAND * r + body) / r;
  figure.legend.forEach((entry, k) => {
    const [row, x] = layout.at[k];
    const cy = top + PAD / 2 + row * LEGEND_ROW + LEGEND_ROW / 2;
    ctx.strokeStyle = entry.color;
    ctx.lineWidth = 2;
    ctx.setLineDash(entry.dash ?? []);
    ctx.beginPath();
    ctx.moveTo(x, cy);
    ctx.lineTo(x + 22, cy);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = figure.text;
    ctx.fillText(entry.label, x + 28, cy);
  });
  return out;
}
