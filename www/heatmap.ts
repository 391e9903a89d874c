/**
 * Views for many states: an indexed family (states named `u[1]` … `u[N]`, as the
 * system language names them) drawn as a space–time heat map (index × t, colour =
 * value) and as a profile (value against index) at the page's time cursor (or its own slider). A
 * trajectory with 200 lines is noise; these two show the same data readably.
 *
 * Both have axes with ticks (t and the element's index; index and value), and the map a
 * colour bar with its values. The colours span the 1st to 99th percentile of the values
 * (`robustRange`), so one spike does not wash the map out: values beyond are drawn in
 * the end colours, and the bar says so and gives the whole range.
 *
 * Pure helpers (`families`, `colour`, `robustRange`) are separate from the drawing so
 * they can be tested without a canvas.
 */
import { sizeCanvas } from './dom';
import { formatNumber, tickLabels } from './format';
import { niceTicks } from './plane';
import { indexAt } from './run';
import { ink, onSchemeChange } from './theme';

/** One indexed family: its name and, in index order, the state column of each element. */
export interface Family {
  name: string;
  indices: number[];
  columns: number[];
}

const ELEMENT = /^(.+)\[(-?\d+)\]$/;

/** The indexed families among `names` (at least `min` elements each), largest first. */
export function families(names: readonly string[], min = 3): Family[] {
  const byName = new Map<string, { index: number; column: number }[]>();
  names.forEach((n, column) => {
    const m = ELEMENT.exec(n);
    if (!m) return;
    const list = byName.get(m[1]) ?? [];
    list.push({ index: Number(m[2]), column });
    byName.set(m[1], list);
  });
  return [...byName.entries()]
    .filter(([, list]) => list.length >= min)
    .map(([name, list]) => {
      list.sort((a, b) => a.index - b.index);
      return { name, indices: list.map((e) => e.index), columns: list.map((e) => e.column) };
    })
    .sort((a, b) => b.columns.length - a.columns.length);
}

/** A blue–white–red diverging colour for `v` in [lo, hi] (white at the middle). */
export function colour(v: number, lo: number, hi: number): [number, number, number] {
  if (!Number.isFinite(v)) return [0, 0, 0];
  const s = hi > lo ? Math.min(1, Math.max(0, (v - lo) / (hi - lo))) : 0.5;
  const w = 1 - Math.abs(2 * s - 1);
  const base = s < 0.5 ? [33, 102, 172] : [178, 24, 43];
  return [0, 1, 2].map((k) => Math.round(base[k] + (255 - base[k]) * w)) as [number, number, number];
}

/** Most values `robustRange` sorts (an even sample of a larger run). */
const RANGE_SAMPLE = 200_000;

/** The colour scale of a map: the span coloured, and the data's whole span. */
export interface ColourRange {
  lo: number;
  hi: number;
  min: number;
  max: number;
  /** Whether values beyond [lo, hi] exist (drawn in the end colours). */
  clipped: boolean;
}

/**
 * The `q`-th and (1 − q)-th quantiles of the finite values (nearest rank), and their
 * min and max: colours over [lo, hi] show the bulk of the data when a few values spike.
 * Where the quantiles meet (a constant field), the whole range is used.
 */
export function robustRange(values: ArrayLike<number>, q = 0.01): ColourRange {
  const stride = Math.max(1, Math.ceil(values.length / RANGE_SAMPLE));
  const finite: number[] = [];
  let [min, max] = [Infinity, -Infinity];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    if (i % stride === 0) finite.push(v);
  }
  if (finite.length === 0) return { lo: 0, hi: 1, min: 0, max: 1, clipped: false };
  finite.sort((a, b) => a - b);
  const at = (p: number): number => finite[Math.min(finite.length - 1, Math.max(0, Math.round(p * (finite.length - 1))))];
  let [lo, hi] = [at(q), at(1 - q)];
  if (!(hi > lo)) [lo, hi] = [min, max];
  return { lo, hi, min, max, clipped: min < lo || max > hi };
}

/** Space around the map's image and the profile's curve (CSS px): axes, labels, the colour bar. */
const MAP_MARGIN = { left: 58, right: 100, top: 8, bottom: 40 };
const PROFILE_MARGIN = { left: 58, right: 12, top: 8, bottom: 36 };
/** Widest image (samples in t) a map keeps; a longer run is sampled evenly. */
const MAP_COLUMNS = 800;
const FONT = '11px system-ui, sans-serif';

/** Ticks at whole indices within [lo, hi]. */
function indexTicks(lo: number, hi: number): number[] {
  return niceTicks(lo, hi, 6).filter((v) => Number.isInteger(v));
}

/** The heat map and profile of the first family of a run, inside `box`. */
export class HeatMap {
  private readonly map: HTMLCanvasElement;
  private readonly profile: HTMLCanvasElement;
  private readonly time: HTMLInputElement;
  private readonly label: HTMLElement;
  private readonly choice: HTMLSelectElement;
  private run?: { t: ArrayLike<number>; y: ArrayLike<number>; dim: number; families: Family[] };
  /** The colour range of the family shown, computed once per run and family. */
  private ranged: { family: string; range: ColourRange } | undefined;

  constructor(private readonly box: HTMLElement) {
    this.map = box.querySelector<HTMLCanvasElement>('canvas.heatmap') ?? document.createElement('canvas');
    this.profile = box.querySelector<HTMLCanvasElement>('canvas.profile') ?? document.createElement('canvas');
    this.time = box.querySelector<HTMLInputElement>('input.heatmap-time') ?? document.createElement('input');
    this.label = box.querySelector<HTMLElement>('.heatmap-t') ?? document.createElement('span');
    this.choice = box.querySelector<HTMLSelectElement>('select.heatmap-family') ?? document.createElement('select');
    this.time.addEventListener('input', () => this.drawProfile());
    this.choice.addEventListener('change', () => this.draw());
    onSchemeChange(() => this.draw());
    // Drawn in CSS pixels: a new width (a turned phone, a resized window) redraws.
    let width = -1;
    new ResizeObserver(() => {
      if (this.box.hidden || this.map.clientWidth === width) return;
      width = this.map.clientWidth;
      this.draw();
    }).observe(this.map);
  }

  /** Shows the run's families (hides the box when there are none). */
  update(t: ArrayLike<number>, y: ArrayLike<number>, names: readonly string[]): void {
    const found = families(names);
    this.box.hidden = found.length === 0 || t.length === 0;
    this.box.dataset.family = '';
    this.ranged = undefined;
    if (this.box.hidden) {
      this.run = undefined;
      return;
    }
    const previous = this.choice.value;
    this.choice.replaceChildren(...found.map((f) => new Option(`${f.name}[${f.indices[0]}…${f.indices[f.indices.length - 1]}]`, f.name)));
    if (found.some((f) => f.name === previous)) this.choice.value = previous;
    this.run = { t, y, dim: names.length, families: found };
    this.time.max = String(t.length - 1);
    if (Number(this.time.value) > t.length - 1) this.time.value = String(t.length - 1);
    this.draw();
  }

  /** Moves the profile to the stored step at or before `time` (the page's time cursor). */
  showTime(time: number): void {
    if (!this.run) return;
    this.time.value = String(indexAt(this.run.t, time));
    this.drawProfile();
  }

  private family(): Family | undefined {
    return this.run?.families.find((f) => f.name === this.choice.value) ?? this.run?.families[0];
  }

  private range(f: Family): ColourRange {
    const run = this.run;
    if (!run) return { lo: 0, hi: 1, min: 0, max: 1, clipped: false };
    if (this.ranged?.family === f.name) return this.ranged.range;
    const values = new Float64Array(run.t.length * f.columns.length);
    let k = 0;
    for (let i = 0; i < run.t.length; i++) for (const c of f.columns) values[k++] = run.y[i * run.dim + c];
    const range = robustRange(values);
    this.ranged = { family: f.name, range };
    return range;
  }

  /** The map's image: one pixel per (time sample, element), index growing upwards. */
  private image(f: Family, range: ColourRange): HTMLCanvasElement {
    const run = this.run;
    const off = document.createElement('canvas');
    if (!run) return off;
    const width = Math.min(run.t.length, MAP_COLUMNS);
    const height = f.columns.length;
    off.width = width;
    off.height = height;
    const ctx = off.getContext('2d');
    if (!ctx) return off;
    const image = ctx.createImageData(width, height);
    for (let x = 0; x < width; x++) {
      const i = Math.round((x * (run.t.length - 1)) / Math.max(1, width - 1));
      for (let r = 0; r < height; r++) {
        const [cr, cg, cb] = colour(run.y[i * run.dim + f.columns[height - 1 - r]], range.lo, range.hi);
        const p = 4 * (r * width + x);
        image.data[p] = cr;
        image.data[p + 1] = cg;
        image.data[p + 2] = cb;
        image.data[p + 3] = 255;
      }
    }
    ctx.putImageData(image, 0, 0);
    return off;
  }

  private draw(): void {
    const run = this.run;
    const f = this.family();
    if (!run || !f) return;
    const range = this.range(f);
    const { lo, hi } = range;
    const [cssWidth, cssHeight] = [Math.max(this.map.clientWidth, 320), Math.max(this.map.clientHeight, 160)];
    const ctx = sizeCanvas(this.map, cssWidth, cssHeight);
    if (ctx) {
      const colours = ink();
      ctx.fillStyle = colours.background;
      ctx.fillRect(0, 0, cssWidth, cssHeight);
      const m = MAP_MARGIN;
      const [w, h] = [cssWidth - m.left - m.right, cssHeight - m.top - m.bottom];
      // Each sample a sharp block: smoothing would blend neighbouring elements.
      ctx.imageSmoothingEnabled = false;
      const image = this.image(f, range);
      ctx.drawImage(image, m.left, m.top, w, h);
      // Its pixels now live in the map: give the backing store back now, not at some GC.
      image.width = image.height = 0;
      const [t0, t1] = [run.t[0], run.t[run.t.length - 1]];
      const [i0, i1] = [f.indices[0], f.indices[f.indices.length - 1]];
      const n = f.columns.length;
      // Element k's row is centred at (k + ½)/n of the height, counted from the bottom.
      const px = (t: number): number => m.left + (t1 > t0 ? ((t - t0) / (t1 - t0)) * w : 0);
      const py = (index: number): number => {
        const k = f.indices.indexOf(index);
        const at = k >= 0 ? k : ((index - i0) / Math.max(1, i1 - i0)) * (n - 1);
        return m.top + h - ((at + 0.5) / n) * h;
      };
      ctx.font = FONT;
      ctx.fillStyle = colours.text;
      ctx.strokeStyle = colours.text;
      ctx.lineWidth = 1;
      ctx.strokeRect(m.left - 0.5, m.top - 0.5, w + 1, h + 1);
      ctx.textAlign = 'center';
      ctx.beginPath();
      for (const v of niceTicks(t0, t1, Math.max(2, Math.floor(w / 90)))) {
        ctx.moveTo(px(v), m.top + h);
        ctx.lineTo(px(v), m.top + h + 4);
        ctx.fillText(formatNumber(v, 4), px(v), m.top + h + 15);
      }
      ctx.fillText('t', m.left + w / 2, cssHeight - 4);
      ctx.textAlign = 'right';
      for (const v of indexTicks(i0, i1)) {
        ctx.moveTo(m.left - 4, py(v));
        ctx.lineTo(m.left, py(v));
        ctx.fillText(String(v), m.left - 6, py(v) + 4);
      }
      ctx.stroke();
      ctx.save();
      ctx.translate(14, m.top + h / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'center';
      ctx.fillText(`index i of ${f.name}[i]`, 0, 0);
      ctx.restore();
      this.drawColourBar(ctx, cssWidth - m.right + 14, m.top, h, range);
    }
    this.map.setAttribute(
      'aria-label',
      `heat map of ${f.name}[${f.indices[0]}…${f.indices[f.indices.length - 1]}] over t from ` +
        `${formatNumber(run.t[0])} to ${formatNumber(run.t[run.t.length - 1])}; colours span ${formatNumber(lo)} to ${formatNumber(hi)}` +
        (range.clipped ? ` (1st to 99th percentile; values run from ${formatNumber(range.min)} to ${formatNumber(range.max)})` : ''),
    );
    this.box.dataset.family = f.name;
    this.box.dataset.elements = String(f.columns.length);
    this.box.dataset.range = `${lo},${hi}`;
    this.box.dataset.clipped = String(range.clipped);
    this.drawProfile();
  }

  /**
   * The colour bar at (x, y), `height` tall: the colours from lo (bottom) to hi (top)
   * with ticks; when the range is clipped, "≥"/"≤" at its ends and the data's own
   * extremes written beneath.
   */
  private drawColourBar(ctx: CanvasRenderingContext2D, x: number, y: number, height: number, range: ColourRange): void {
    const { lo, hi } = range;
    const barWidth = 12;
    for (let k = 0; k < height; k++) {
      const v = hi - ((k + 0.5) / height) * (hi - lo);
      const [r, g, b] = colour(v, lo, hi);
      ctx.fillStyle = `rgb(${r}, ${g}, ${b})`;
      ctx.fillRect(x, y + k, barWidth, 1);
    }
    const colours = ink();
    ctx.strokeStyle = colours.text;
    ctx.strokeRect(x - 0.5, y - 0.5, barWidth + 1, height + 1);
    ctx.fillStyle = colours.text;
    ctx.font = FONT;
    ctx.textAlign = 'left';
    const py = (v: number): number => y + ((hi - v) / (hi - lo || 1)) * height;
    // Inner ticks clear of the end labels.
    const ticks = niceTicks(lo, hi, 5);
    const labels = tickLabels(ticks);
    ctx.beginPath();
    for (const [k, v] of ticks.entries()) {
      if (py(v) <= y + 20 || py(v) >= y + height - 16) continue;
      ctx.moveTo(x + barWidth, py(v));
      ctx.lineTo(x + barWidth + 3, py(v));
      ctx.fillText(labels[k], x + barWidth + 5, py(v) + 4);
    }
    ctx.stroke();
    const clippedHigh = range.max > hi;
    const clippedLow = range.min < lo;
    ctx.fillText(`${clippedHigh ? '≥ ' : ''}${formatNumber(hi, 3)}`, x + barWidth + 5, y + 9);
    ctx.fillText(`${clippedLow ? '≤ ' : ''}${formatNumber(lo, 3)}`, x + barWidth + 5, y + height);
    if (range.clipped) {
      // Right-aligned to the canvas's edge, clear of the last t tick.
      ctx.font = '10px system-ui, sans-serif';
      ctx.textAlign = 'right';
      ctx.fillText('colours: 1–99 %', x + 84, y + height + 14);
      ctx.fillText(`all ${formatNumber(range.min, 2)}…${formatNumber(range.max, 2)}`, x + 84, y + height + 27);
    }
  }

  private drawProfile(): void {
    const run = this.run;
    const f = this.family();
    if (!run || !f) return;
    const i = Math.min(Number(this.time.value), run.t.length - 1);
    this.label.textContent = `t = ${formatNumber(run.t[i])}`;
    // The map's colour range, widened to this profile's own values so none is cut off.
    let { lo, hi } = this.range(f);
    for (const c of f.columns) {
      const v = run.y[i * run.dim + c];
      if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
    }
    if (!(hi > lo)) [lo, hi] = [lo - 1, hi + 1];
    const pad = 0.05 * (hi - lo);
    [lo, hi] = [lo - pad, hi + pad];
    const [cssWidth, cssHeight] = [Math.max(this.profile.clientWidth, 280), Math.max(this.profile.clientHeight, 120)];
    const ctx = sizeCanvas(this.profile, cssWidth, cssHeight);
    if (!ctx) return;
    const colours = ink();
    ctx.fillStyle = colours.background;
    ctx.fillRect(0, 0, cssWidth, cssHeight);
    const m = PROFILE_MARGIN;
    const [w, h] = [cssWidth - m.left - m.right, cssHeight - m.top - m.bottom];
    const [i0, i1] = [f.indices[0], f.indices[f.indices.length - 1]];
    const px = (index: number): number => m.left + (i1 > i0 ? ((index - i0) / (i1 - i0)) * w : w / 2);
    const py = (v: number): number => m.top + h - ((v - lo) / (hi - lo)) * h;
    ctx.font = FONT;
    ctx.fillStyle = colours.text;
    ctx.strokeStyle = colours.grid;
    ctx.lineWidth = 1;
    ctx.textAlign = 'center';
    ctx.beginPath();
    for (const v of indexTicks(i0, i1)) {
      ctx.moveTo(px(v), m.top);
      ctx.lineTo(px(v), m.top + h);
      ctx.fillText(String(v), px(v), m.top + h + 14);
    }
    ctx.textAlign = 'right';
    for (const v of niceTicks(lo, hi, 5)) {
      ctx.moveTo(m.left, py(v));
      ctx.lineTo(m.left + w, py(v));
      ctx.fillText(formatNumber(v, 3), m.left - 6, py(v) + 4);
    }
    ctx.stroke();
    ctx.textAlign = 'center';
    ctx.fillText(`index i`, m.left + w / 2, cssHeight - 4);
    ctx.save();
    ctx.translate(14, m.top + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(`${f.name}[i]`, 0, 0);
    ctx.restore();
    ctx.strokeStyle = colours.text;
    ctx.strokeRect(m.left - 0.5, m.top - 0.5, w + 1, h + 1);
    ctx.save();
    ctx.beginPath();
    ctx.rect(m.left, m.top, w, h);
    ctx.clip();
    ctx.strokeStyle = '#1c7ed6';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    f.columns.forEach((c, k) => {
      const x = px(f.indices[k]);
      const yPix = py(run.y[i * run.dim + c]);
      if (k === 0) ctx.moveTo(x, yPix);
      else ctx.lineTo(x, yPix);
    });
    ctx.stroke();
    ctx.restore();
    this.profile.setAttribute('aria-label', `profile of ${f.name} against its index at t = ${formatNumber(run.t[i])}`);
    this.map.dataset.legend = JSON.stringify([{ label: `below: profile ${f.name}[i] at t = ${formatNumber(run.t[i])}`, color: '#1c7ed6' }]);
  }
}
