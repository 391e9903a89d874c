/**
 * Views for many states: an indexed family (states named `u[1]` … `u[N]`, as the
 * system language names them) drawn as a space–time heat map (index × t, colour =
 * value) and as a profile (value against index) at the page's time cursor (or its own slider). A
 * trajectory with 200 lines is noise; these two show the same data readably.
 *
 * Pure helpers (`families`, `colour`) are separate from the drawing so they can be
 * tested without a canvas.
 */
import { formatNumber } from './format';
import { indexAt } from './run';

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

/** The heat map and profile of the first family of a run, inside `box`. */
export class HeatMap {
  private readonly map: HTMLCanvasElement;
  private readonly profile: HTMLCanvasElement;
  private readonly time: HTMLInputElement;
  private readonly label: HTMLElement;
  private readonly choice: HTMLSelectElement;
  private run?: { t: ArrayLike<number>; y: ArrayLike<number>; dim: number; families: Family[] };

  constructor(private readonly box: HTMLElement) {
    this.map = box.querySelector<HTMLCanvasElement>('canvas.heatmap') ?? document.createElement('canvas');
    this.profile = box.querySelector<HTMLCanvasElement>('canvas.profile') ?? document.createElement('canvas');
    this.time = box.querySelector<HTMLInputElement>('input.heatmap-time') ?? document.createElement('input');
    this.label = box.querySelector<HTMLElement>('.heatmap-t') ?? document.createElement('span');
    this.choice = box.querySelector<HTMLSelectElement>('select.heatmap-family') ?? document.createElement('select');
    this.time.addEventListener('input', () => this.drawProfile());
    this.choice.addEventListener('change', () => this.draw());
  }

  /** Shows the run's families (hides the box when there are none). */
  update(t: ArrayLike<number>, y: ArrayLike<number>, names: readonly string[]): void {
    const found = families(names);
    this.box.hidden = found.length === 0 || t.length === 0;
    this.box.dataset.family = '';
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

  private range(f: Family): [number, number] {
    const run = this.run;
    if (!run) return [0, 1];
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < run.t.length; i++) {
      for (const c of f.columns) {
        const v = run.y[i * run.dim + c];
        if (Number.isFinite(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    return lo <= hi ? [lo, hi] : [0, 1];
  }

  private draw(): void {
    const run = this.run;
    const f = this.family();
    if (!run || !f) return;
    const [lo, hi] = this.range(f);
    // One pixel per (time sample, element), stretched by CSS: rows = index, columns = t.
    const width = Math.min(run.t.length, 800);
    const height = f.columns.length;
    this.map.width = width;
    this.map.height = height;
    const ctx = this.map.getContext('2d');
    if (ctx) {
      const image = ctx.createImageData(width, height);
      for (let x = 0; x < width; x++) {
        const i = Math.round((x * (run.t.length - 1)) / Math.max(1, width - 1));
        for (let r = 0; r < height; r++) {
          const [cr, cg, cb] = colour(run.y[i * run.dim + f.columns[height - 1 - r]], lo, hi);
          const p = 4 * (r * width + x);
          image.data[p] = cr;
          image.data[p + 1] = cg;
          image.data[p + 2] = cb;
          image.data[p + 3] = 255;
        }
      }
      ctx.putImageData(image, 0, 0);
    }
    this.map.setAttribute(
      'aria-label',
      `heat map of ${f.name}[${f.indices[0]}…${f.indices[f.indices.length - 1]}] over t from ` +
        `${formatNumber(run.t[0])} to ${formatNumber(run.t[run.t.length - 1])}; values ${formatNumber(lo)} to ${formatNumber(hi)}`,
    );
    this.box.dataset.family = f.name;
    this.box.dataset.elements = String(f.columns.length);
    this.drawProfile();
  }

  private drawProfile(): void {
    const run = this.run;
    const f = this.family();
    if (!run || !f) return;
    const i = Math.min(Number(this.time.value), run.t.length - 1);
    this.label.textContent = `t = ${formatNumber(run.t[i])}`;
    const [lo, hi] = this.range(f);
    const w = (this.profile.width = 400);
    const h = (this.profile.height = 160);
    const ctx = this.profile.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, w, h);
    ctx.strokeStyle = '#1c7ed6';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    f.columns.forEach((c, k) => {
      const x = (k / Math.max(1, f.columns.length - 1)) * (w - 8) + 4;
      const v = run.y[i * run.dim + c];
      const yPix = h - 4 - ((v - lo) / (hi - lo || 1)) * (h - 8);
      if (k === 0) ctx.moveTo(x, yPix);
      else ctx.lineTo(x, yPix);
    });
    ctx.stroke();
    this.profile.setAttribute('aria-label', `profile of ${f.name} against its index at t = ${formatNumber(run.t[i])}`);
  }
}
