/**
 * The phase portrait, `#plot-phase`: any two states or outputs of the run against each
 * other (default q against q̇ for a second-order model, else the first two states), the
 * pinned runs in their colours, the exact solution dashed, and a dot at the time cursor.
 * Drawn on its own canvas: the curve is not a function of x, which a time plot assumes.
 */
import { byId, sizeCanvas } from './dom';
import { isDrawOutput } from './drawing';
import { columns, tickLabels } from './format';
import { niceTicks } from './plane';
import { indexAt, seriesOf, valueAt } from './run';
import type { Run } from './run';
import type { Store } from './store';
import { ink, onSchemeChange } from './theme';
import { pinNames } from './pins';
import { denseExactOf, onDenseExact } from './plot-data';

const LIVE_COLOR = '#1f5fbf';
const EXACT_COLOR = '#868e96';
/** Longest polyline drawn per run (longer runs are thinned evenly). */
const MAX_POINTS = 20_000;
/** A pin widens the axes if it is at most this many times the live run's size. */
const PIN_REACH = 5;
/** Step points shown in step-by-step mode (the latest ones) and their colour. */
const MAX_STEP_DOTS = 400;
const STEP_COLOR = '#d9480f';
const MARGIN = { left: 64, right: 12, top: 10, bottom: 36 };


/** The names a phase portrait may use: states, then outputs that are quantities. */
export function phaseChoices(run: Run): string[] {
  return [...run.names, ...Object.keys(run.outputs).filter((o) => !isDrawOutput(o))];
}

/**
 * Whether the vertical axis's name is written upright: a short name (a state's symbol,
 * "ω", "vx") turned on its side reads as another letter ("ω" as "3"); a long one fits
 * the margin only turned.
 */
export function uprightAxisName(name: string): boolean {
  return [...name].length <= 3;
}

/**
 * q against q̇ for a second-order model (y = (q, q̇)), else the first two states; a run
 * with no state (a fully driven mechanism in state-space form) plots its first recorded
 * coordinate against its rate, else its first outputs.
 */
export function defaultPhaseAxes(run: Run): [string, string] {
  const n = run.names;
  if (run.model.secondOrder && n.length >= 2 && n.length % 2 === 0) return [n[0], n[n.length / 2]];
  if (n.length > 0) return [n[0], n[1] ?? n[0]];
  // The mechanism's recorded coordinates are (q, q̇): the first coordinate against its rate.
  const coordinates = Object.keys(run.outputs).filter((o) => o.startsWith('q:'));
  if (coordinates.length >= 2 && coordinates.length % 2 === 0) return [coordinates[0], coordinates[coordinates.length / 2]];
  const choices = phaseChoices(run);
  return [choices[0] ?? '', choices[1] ?? choices[0] ?? ''];
}

/** One run's curve in the portrait. */
interface Curve {
  color: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  t: ArrayLike<number>;
  dash?: number[];
}

export class PhaseView {
  private readonly target = byId<HTMLElement>('plot-phase');
  private readonly xSelect = byId<HTMLSelectElement>('phase-x');
  private readonly ySelect = byId<HTMLSelectElement>('phase-y');
  private readonly canvas = document.createElement('canvas');
  /** The curves without the cursor dots, and how they were mapped to pixels. */
  private readonly cache = document.createElement('canvas');
  /** Whether `cache` holds the current picture without dots. */
  private cached = false;
  /** The time cursor and the mode the dots on the canvas are drawn for. */
  private dotsAt = NaN;
  private dotsInStepMode = false;
  /** Mark the live run's stored steps up to the cursor (step-by-step mode). */
  stepMode = false;
  private drawn: { curves: Curve[]; px: (x: number) => number; py: (y: number) => number; clip: [number, number, number, number] } | undefined;
  /** The target's width as the last resize observation measured it. */
  private width: number | undefined;
  /** The choices the selects were filled for, to keep the user's pick across runs. */
  private choices = '';

  constructor(private readonly store: Store) {
    this.target.append(this.canvas);
    store.subscribe('run', () => this.fill());
    store.subscribe('pins', () => this.draw());
    store.subscribe('time', () => this.drawCursor());
    for (const select of [this.xSelect, this.ySelect]) select.addEventListener('change', () => this.draw());
    onSchemeChange(() => this.draw());
    onDenseExact(() => this.draw());
    new ResizeObserver(() => {
      // Measured here, where layout is already done; draw() then needs no layout read.
      // Only a new width redraws: the first observation after the first run's drawing
      // would otherwise draw the same picture again.
      const width = this.target.clientWidth;
      if (width === this.width) return;
      this.width = width;
      this.draw();
    }).observe(this.target);
  }

  private fill(): void {
    const run = this.store.run;
    if (!run) return;
    const choices = phaseChoices(run);
    if (choices.join('\n') !== this.choices) {
      this.choices = choices.join('\n');
      const [x, y] = defaultPhaseAxes(run);
      for (const [select, value] of [[this.xSelect, x], [this.ySelect, y]] as const) {
        select.replaceChildren(...choices.map((c) => new Option(c, c)));
        select.value = value;
      }
    }
    this.draw();
  }

  /** Draws the run: axes and curves, then the dots at the time cursor. */
  draw(): void {
    if (!this.paint()) return;
    // The picture without dots is taken when the cursor first moves (`drawCursor`):
    // copying a canvas makes the browser rasterise it there and then, work the first
    // plot does not need.
    this.cached = false;
    this.drawDots();
    this.target.dataset.curves = String(this.drawn?.curves.length ?? 0);
  }

  /** Axes and curves, without the dots; false when there is nothing to draw. */
  private paint(): boolean {
    const run = this.store.run;
    const [xName, yName] = [this.xSelect.value, this.ySelect.value];
    this.drawn = undefined;
    if (!run || !xName || !yName) return false;
    // Before the first resize observation, measured now (and kept, so that observation
    // sees no change).
    this.width ??= this.target.clientWidth;
    const cssWidth = Math.max(this.width, 300);
    const cssHeight = 300;
    this.canvas.style.width = `${cssWidth}px`;
    this.canvas.style.height = `${cssHeight}px`;
    const ctx = sizeCanvas(this.canvas, cssWidth, cssHeight);
    if (!ctx) return false;

    const curves: Curve[] = [];
    const add = (r: Run, color: string, exact = false): void => {
      // The exact solution smooth where it was sampled on a fine grid (states only: the
      // outputs are known at the steps).
      const dense = exact ? denseExactOf(r) : undefined;
      const states = r.names.includes(xName) && r.names.includes(yName);
      if (dense && states) {
        const exactRun = { ...r, yColumns: columns(dense.exact, r.names.length) };
        const x = seriesOf(exactRun, xName);
        const y = seriesOf(exactRun, yName);
        if (x && y) curves.push({ color, x, y, t: dense.t, dash: [6, 4] });
        return;
      }
      const source = exact && r.exact ? { ...r, yColumns: columns(r.exact, r.names.length) } : r;
      const x = seriesOf(source, xName);
      const y = seriesOf(source, yName);
      if (x && y) curves.push({ color, x, y, t: r.t, ...(exact ? { dash: [6, 4] } : {}) });
    };
    if (run.exact) add(run, EXACT_COLOR, true);
    add(run, LIVE_COLOR);
    for (const pin of this.store.shownPins) add(pin.run, pin.color);
    const names = pinNames(this.store.shownPins.map((p) => p.run), [run]);
    this.target.dataset.legend = JSON.stringify([
      { label: `this run (${pinNames([run], this.store.shownPins.map((p) => p.run))[0]})`, color: LIVE_COLOR },
      ...(run.exact ? [{ label: 'exact solution', color: EXACT_COLOR, dash: [6, 4] }] : []),
      ...this.store.shownPins.map((p, k) => ({ label: names[k], color: p.color })),
    ]);

    // Axes fit the live run (and its exact solution), and every pin that stays within a
    // few times its size: an Euler spiral fits, a blown-up pin is clipped.
    const box = (c: Curve): [number, number, number, number] => {
      // Four numbers, not an array per point: a run may have tens of thousands.
      let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
      for (let i = 0; i < c.x.length; i++) {
        const x = c.x[i];
        const y = c.y[i];
        if (Number.isFinite(x) && Number.isFinite(y)) {
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
          y0 = Math.min(y0, y);
          y1 = Math.max(y1, y);
        }
      }
      return [x0, x1, y0, y1];
    };
    const join = (a: number[], b: number[]): [number, number, number, number] => [
      Math.min(a[0], b[0]),
      Math.max(a[1], b[1]),
      Math.min(a[2], b[2]),
      Math.max(a[3], b[3]),
    ];
    const own = (c: Curve): boolean => c.color === LIVE_COLOR || c.color === EXACT_COLOR;
    let [x0, x1, y0, y1] = curves.filter(own).map(box).reduce(join, [Infinity, -Infinity, Infinity, -Infinity]);
    const [w0, h0] = [x1 - x0, y1 - y0];
    for (const b of curves.filter((c) => !own(c)).map(box)) {
      if (b[1] - b[0] <= PIN_REACH * w0 && b[3] - b[2] <= PIN_REACH * h0) [x0, x1, y0, y1] = join([x0, x1, y0, y1], b);
    }
    if (!(x0 <= x1 && y0 <= y1)) return false;
    const padX = (x1 - x0 || Math.abs(x0) || 1) * 0.05;
    const padY = (y1 - y0 || Math.abs(y0) || 1) * 0.05;
    [x0, x1, y0, y1] = [x0 - padX, x1 + padX, y0 - padY, y1 + padY];
    const w = cssWidth - MARGIN.left - MARGIN.right;
    const h = cssHeight - MARGIN.top - MARGIN.bottom;
    const px = (x: number): number => MARGIN.left + ((x - x0) / (x1 - x0)) * w;
    const py = (y: number): number => MARGIN.top + ((y1 - y) / (y1 - y0)) * h;

    const colours = ink();
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = colours.text;
    ctx.strokeStyle = colours.grid;
    ctx.lineWidth = 1;
    ctx.textAlign = 'center';
    const xTicks = niceTicks(x0, x1, 6);
    const xLabels = tickLabels(xTicks);
    for (const [k, v] of xTicks.entries()) {
      ctx.beginPath();
      ctx.moveTo(px(v), MARGIN.top);
      ctx.lineTo(px(v), MARGIN.top + h);
      ctx.stroke();
      ctx.fillText(xLabels[k], px(v), MARGIN.top + h + 14);
    }
    ctx.textAlign = 'right';
    const yTicks = niceTicks(y0, y1, 5);
    const yLabels = tickLabels(yTicks);
    for (const [k, v] of yTicks.entries()) {
      ctx.beginPath();
      ctx.moveTo(MARGIN.left, py(v));
      ctx.lineTo(MARGIN.left + w, py(v));
      ctx.stroke();
      ctx.fillText(yLabels[k], MARGIN.left - 6, py(v) + 4);
    }
    ctx.textAlign = 'center';
    ctx.fillText(xName, MARGIN.left + w / 2, cssHeight - 4);
    if (uprightAxisName(yName)) ctx.fillText(yName, 12, MARGIN.top + h / 2 + 4);
    else {
      ctx.save();
      ctx.translate(12, MARGIN.top + h / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.fillText(yName, 0, 0);
      ctx.restore();
    }

    ctx.save();
    ctx.beginPath();
    ctx.rect(MARGIN.left, MARGIN.top, w, h);
    ctx.clip();
    for (const c of curves) {
      ctx.strokeStyle = c.color;
      ctx.lineWidth = 1.5;
      ctx.setLineDash(c.dash ?? []);
      ctx.beginPath();
      const stride = Math.max(1, Math.ceil(c.x.length / MAX_POINTS));
      let pen = false;
      for (let i = 0; i < c.x.length; i += stride) {
        const [X, Y] = [px(c.x[i]), py(c.y[i])];
        if (!Number.isFinite(X) || !Number.isFinite(Y)) {
          pen = false;
          continue;
        }
        if (pen) ctx.lineTo(X, Y);
        else ctx.moveTo(X, Y);
        pen = true;
      }
      ctx.stroke();
    }
    ctx.restore();
    this.drawn = { curves, px, py, clip: [MARGIN.left, MARGIN.top, w, h] };
    return true;
  }

  /**
   * Moves the dots to the store's time: the curves come from the picture kept without
   * dots (taken on the first move after a draw, by painting them once more).
   */
  drawCursor(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx || !this.drawn) return;
    // Just drawn with its dots at this time (a new run also moves the cursor).
    if (!this.cached && this.dotsAt === this.store.time && this.dotsInStepMode === this.stepMode) return;
    if (!this.cached) {
      if (!this.paint()) return;
      this.cache.width = this.canvas.width;
      this.cache.height = this.canvas.height;
      this.cache.getContext('2d')?.drawImage(this.canvas, 0, 0);
      this.cached = true;
    } else {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
      ctx.drawImage(this.cache, 0, 0);
    }
    this.drawDots();
  }

  /** A dot on each curve at the time cursor (and the live run's steps in step mode). */
  private drawDots(): void {
    const ctx = this.canvas.getContext('2d');
    const run = this.store.run;
    if (!ctx || !this.drawn || !run) return;
    const { curves, px, py, clip } = this.drawn;
    const ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.save();
    ctx.beginPath();
    ctx.rect(...clip);
    ctx.clip();
    const time = this.store.time;
    [this.dotsAt, this.dotsInStepMode] = [time, this.stepMode];
    if (this.stepMode && curves.length > 0) {
      // The live run's stored steps up to the cursor (the latest few hundred).
      const live = curves.find((c) => c.color === LIVE_COLOR) ?? curves[0];
      const last = indexAt(live.t, time);
      ctx.fillStyle = STEP_COLOR;
      for (let i = Math.max(0, last - MAX_STEP_DOTS); i <= last; i++) {
        ctx.beginPath();
        ctx.arc(px(live.x[i]), py(live.y[i]), 2, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    for (const c of curves) {
      if (c.t.length === 0 || time < c.t[0] || time > c.t[c.t.length - 1]) continue;
      ctx.fillStyle = c.color;
      ctx.beginPath();
      ctx.arc(px(valueAt(c.t, c.x, time)), py(valueAt(c.t, c.y, time)), 4, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.restore();
    this.target.dataset.index = String(indexAt(run.t, time));
  }
}
