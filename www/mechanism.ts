/**
 * The mechanism view, `<canvas id="mechanism">`: the run's physical system drawn at the
 * time cursor (shapes from www/drawing.ts), with the exact solution as a faint ghost
 * where it is known and every visible pin as a ghost in its colour. In step mode the
 * balls leave a dot at every stored step. The canvas keeps the shapes it drew last in
 * `data-shapes` (world coordinates), so tests check the picture against the states.
 */
import { byId, sizeCanvas } from './dom';
import { bounds, describer } from './drawing';
import type { Frame, Shape } from './drawing';
import { indexAt, rowAt, valueAt } from './run';
import type { Run } from './run';
import type { Store } from './store';
import { ink, onSchemeChange } from './theme';
import { pinNames } from './pins';

/** Frames sampled to fit the picture's window (the whole run must stay in view). */
const FIT_SAMPLES = 80;
/** How far (in first-frame sizes) a frame may reach and still widen the window. */
const FIT_REACH = 4;
/** Most step dots drawn in step mode (the latest ones). */
const MAX_STEP_DOTS = 400;
const EXACT_GHOST = '#868e96';

/** The run's values at `time` by name: states, outputs (`q:` body coordinates too), parameters. */
export function frameAt(run: Run, time: number, exact = false): Frame {
  const dim = run.names.length;
  const rows = exact && run.exact ? run.exact : run.y;
  const state = rowAt(run.t, rows, dim, time);
  const params = Object.fromEntries(run.model.params.map((p) => [p.name, p.value]));
  Object.assign(params, run.settings.params ?? {});
  return {
    t: time,
    value: (name: string): number => {
      const j = run.names.indexOf(name);
      if (j >= 0) return state[j];
      const series = run.outputs[name] ?? run.outputs[`q:${name}`];
      if (series) return valueAt(run.t, series, time);
      return params[name] ?? NaN;
    },
  };
}

/** Shapes of `run` at `time` (its exact solution's with `exact`), or [] if it has no picture. */
export function shapesAt(run: Run, time: number, exact = false): Shape[] {
  const describe = describer(run.model.id, run.names, Object.keys(run.outputs));
  return describe ? describe(frameAt(run, time, exact)) : [];
}

/** World → CSS pixel mapping, and the canvas's CSS size. */
type View = { x0: number; y0: number; scale: number; width: number; height: number };

export class MechanismView {
  private readonly canvas = byId<HTMLCanvasElement>('mechanism');
  private readonly figure = byId<HTMLElement>('fig-mechanism');
  private window: { x0: number; x1: number; y0: number; y1: number } | undefined;
  private frames = 0;
  /** Show a dot at every stored step (step-by-step mode). */
  stepMode = false;

  /** The canvas's CSS size as the last resize observation measured it. */
  private size: { width: number; height: number } | undefined;

  constructor(private readonly store: Store) {
    store.subscribe('run', () => this.fit());
    store.subscribe('pins', () => this.draw());
    store.subscribe('time', () => this.draw());
    onSchemeChange(() => this.draw());
    new ResizeObserver(() => {
      // Measured here, where layout is already done: drawing a run (or an animation
      // frame) then reads no layout, so it never forces the page to lay out again
      // after the other views changed it. Only a new size redraws.
      const [width, height] = [this.canvas.clientWidth, this.canvas.clientHeight];
      if (width === this.size?.width && height === this.size.height) return;
      this.size = { width, height };
      this.draw();
    }).observe(this.canvas);
  }

  /** The canvas's CSS size: observed, or measured now (and kept) before the first observation. */
  private cssSize(): { width: number; height: number } {
    this.size ??= { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
    return this.size;
  }

  /** Chooses the world window that holds the whole live run (and its exact solution). */
  private fit(): void {
    const run = this.store.run;
    const describe = run && describer(run.model.id, run.names, Object.keys(run.outputs));
    this.figure.hidden = !describe;
    this.window = undefined;
    if (!describe) this.canvas.dataset.shapes = '[]';
    if (!run || !describe || run.t.length === 0) return;
    // Every sampled frame within a few first-frame sizes of the first frame: a run that
    // blows up flies out of the picture instead of shrinking the mechanism to a dot.
    const first = bounds(describe(frameAt(run, run.t[0])));
    if (!first) return;
    const span = Math.max(first.x1 - first.x0, first.y1 - first.y0, 1e-9);
    const [cx, cy] = [(first.x0 + first.x1) / 2, (first.y0 + first.y1) / 2];
    const near = (b: typeof first): boolean =>
      b.x0 > cx - FIT_REACH * span && b.x1 < cx + FIT_REACH * span && b.y0 > cy - FIT_REACH * span && b.y1 < cy + FIT_REACH * span;
    const n = run.t.length;
    let [x0, x1, y0, y1] = [first.x0, first.x1, first.y0, first.y1];
    for (let k = 0; k <= FIT_SAMPLES; k++) {
      const i = Math.round((k / FIT_SAMPLES) * (n - 1));
      for (const exact of run.exact ? [false, true] : [false]) {
        const b = bounds(describe(frameAt(run, run.t[i], exact)));
        if (!b || !near(b)) continue;
        [x0, x1, y0, y1] = [Math.min(x0, b.x0), Math.max(x1, b.x1), Math.min(y0, b.y0), Math.max(y1, b.y1)];
      }
    }
    const pad = 0.08 * Math.max(x1 - x0, y1 - y0, 1e-9);
    this.window = { x0: x0 - pad, x1: x1 + pad, y0: y0 - pad, y1: y1 + pad };
    this.draw();
  }

  /** Draws the live run, its exact ghost and the pins' ghosts at the store's time. */
  draw(): void {
    const run = this.store.run;
    if (!run || !this.window || this.figure.hidden) return;
    const ctx = this.prepare();
    if (!ctx) return;
    const view = this.view();
    const time = this.store.time;
    for (const pin of this.store.shownPins) {
      if (pin.run.model.id !== run.model.id) continue;
      paint(ctx, view, shapesAt(pin.run, time), { stroke: pin.color, fill: pin.color, box: pin.color }, 0.45);
    }
    if (run.exact) paint(ctx, view, shapesAt(run, time, true), { stroke: EXACT_GHOST, fill: EXACT_GHOST, box: EXACT_GHOST }, 0.3);
    if (this.stepMode) this.drawSteps(ctx, view, run, time);
    const live = shapesAt(run, time);
    const { stroke, fill, box } = ink();
    paint(ctx, view, live, { stroke, fill, box }, 1);
    this.frames++;
    this.canvas.dataset.shapes = JSON.stringify(live);
    this.canvas.dataset.t = String(time);
    this.canvas.dataset.frames = String(this.frames);
    this.publishLegend(run);
  }

  /** What the picture shows, for its PNG (www/png.ts): set only when it changes (this runs every frame). */
  private publishLegend(run: Run): void {
    const pins = this.store.shownPins.filter((p) => p.run.model.id === run.model.id);
    const names = pinNames(pins.map((p) => p.run), [run]);
    const legend = JSON.stringify([
      { label: `this run (${pinNames([run], pins.map((p) => p.run))[0]}), t = ${Number(this.store.time.toPrecision(4))}`, color: ink().fill },
      ...(run.exact ? [{ label: 'exact solution (faint)', color: EXACT_GHOST }] : []),
      ...pins.map((p, k) => ({ label: names[k], color: p.color })),
    ]);
    if (this.canvas.dataset.legend !== legend) this.canvas.dataset.legend = legend;
  }

  private drawSteps(ctx: CanvasRenderingContext2D, view: View, run: Run, time: number): void {
    const last = indexAt(run.t, time);
    ctx.fillStyle = '#d9480f';
    for (let i = Math.max(0, last - MAX_STEP_DOTS); i <= last; i++) {
      for (const s of shapesAt(run, run.t[i])) {
        if (s.kind !== 'ball') continue;
        const [px, py] = toPixel(view, s.x, s.y);
        ctx.beginPath();
        ctx.arc(px, py, 2, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
  }

  /** Sizes the backing store to the element and clears it to the figure's background (drawing in CSS pixels). */
  private prepare(): CanvasRenderingContext2D | null {
    const { width, height } = this.cssSize();
    const ctx = sizeCanvas(this.canvas, width, height);
    if (!ctx) return null;
    ctx.fillStyle = ink().background;
    ctx.fillRect(0, 0, width, height);
    return ctx;
  }

  /** World → pixel: equal scale on both axes, the window centred. */
  private view(): View {
    const w = this.window ?? { x0: -1, x1: 1, y0: -1, y1: 1 };
    const { width, height } = this.cssSize();
    const scale = Math.min(width / (w.x1 - w.x0), height / (w.y1 - w.y0));
    const cx = (w.x0 + w.x1) / 2;
    const cy = (w.y0 + w.y1) / 2;
    return { x0: cx - width / 2 / scale, y0: cy + height / 2 / scale, scale, width, height };
  }
}

function toPixel(view: View, x: number, y: number): [number, number] {
  return [(x - view.x0) * view.scale, (view.y0 - y) * view.scale];
}

/** Strokes and fills `shapes`; `alpha` < 1 for ghosts. */
function paint(
  ctx: CanvasRenderingContext2D,
  view: View,
  shapes: Shape[],
  colors: { stroke: string; fill: string; box: string },
  alpha: number,
): void {
  const px = (x: number, y: number): [number, number] => toPixel(view, x, y);
  const len = (d: number): number => Math.abs(d) * view.scale;
  const unit = Math.max(1.5, view.height / 160);
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = colors.stroke;
  for (const s of shapes) {
    ctx.beginPath();
    ctx.lineWidth = unit;
    switch (s.kind) {
      case 'rod': {
        ctx.lineWidth = 2 * unit;
        ctx.moveTo(...px(s.x1, s.y1));
        ctx.lineTo(...px(s.x2, s.y2));
        ctx.stroke();
        break;
      }
      case 'spring':
        zigzag(ctx, px(s.x1, s.y1), px(s.x2, s.y2), 3 * unit);
        break;
      case 'damper':
        dashpot(ctx, px(s.x1, s.y1), px(s.x2, s.y2), 3 * unit);
        break;
      case 'ball': {
        ctx.arc(...px(s.x, s.y), Math.max(len(s.r), 2), 0, 2 * Math.PI);
        ctx.fillStyle = colors.fill;
        ctx.fill();
        ctx.stroke();
        break;
      }
      case 'pin': {
        ctx.arc(...px(s.x, s.y), 1.5 * unit, 0, 2 * Math.PI);
        ctx.fillStyle = ink().background;
        ctx.fill();
        ctx.stroke();
        break;
      }
      case 'coil': {
        const [cx, cy] = px(s.x, s.y);
        const r = Math.max(len(s.r), 4 * unit);
        for (let k = 0; k <= 60; k++) {
          const a = (k / 60) * 4 * Math.PI;
          const rr = (r * (0.4 + (0.6 * k) / 60));
          if (k === 0) ctx.moveTo(cx + rr * Math.cos(a), cy - rr * Math.sin(a));
          else ctx.lineTo(cx + rr * Math.cos(a), cy - rr * Math.sin(a));
        }
        ctx.stroke();
        break;
      }
      case 'ground': {
        const [, y] = px(0, s.y);
        ctx.moveTo(0, y);
        ctx.lineTo(view.width, y);
        for (let x = 0; x < view.width; x += 4 * unit) {
          ctx.moveTo(x, y);
          ctx.lineTo(x - 3 * unit, y + 3 * unit * Math.sign(view.scale));
        }
        ctx.stroke();
        break;
      }
      case 'box': {
        const [cx, cy] = px(s.x, s.y);
        ctx.save();
        ctx.translate(cx, cy);
        ctx.rotate(-(s.angle ?? 0));
        ctx.rect(-len(s.w) / 2, -len(s.h) / 2, len(s.w), len(s.h));
        ctx.fillStyle = colors.box;
        ctx.fill();
        ctx.stroke();
        ctx.restore();
        break;
      }
      case 'path': {
        s.points.forEach(([x, y], k) => (k === 0 ? ctx.moveTo(...px(x, y)) : ctx.lineTo(...px(x, y))));
        ctx.stroke();
        break;
      }
    }
  }
  ctx.restore();
}

/** A coil spring between two pixel points: straight ends, a zigzag of width `w` between. */
function zigzag(ctx: CanvasRenderingContext2D, a: [number, number], b: [number, number], w: number): void {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const length = Math.hypot(dx, dy);
  const [nx, ny] = length > 0 ? [-dy / length, dx / length] : [0, 0];
  const turns = 10;
  ctx.moveTo(...a);
  for (let k = 0; k <= 2 * turns; k++) {
    const s = 0.1 + (0.8 * k) / (2 * turns);
    const side = k === 0 || k === 2 * turns ? 0 : k % 2 === 0 ? 1 : -1;
    ctx.lineTo(a[0] + s * dx + side * w * nx, a[1] + s * dy + side * w * ny);
  }
  ctx.lineTo(...b);
  ctx.stroke();
}

/** A damper (dashpot) between two pixel points: a cylinder and a piston. */
function dashpot(ctx: CanvasRenderingContext2D, a: [number, number], b: [number, number], w: number): void {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const length = Math.hypot(dx, dy);
  const [nx, ny] = length > 0 ? [-dy / length, dx / length] : [0, 0];
  const at = (s: number, side: number): [number, number] => [a[0] + s * dx + side * w * nx, a[1] + s * dy + side * w * ny];
  ctx.moveTo(...a);
  ctx.lineTo(...at(0.45, 0));
  ctx.moveTo(...at(0.45, -1));
  ctx.lineTo(...at(0.45, 1));
  ctx.moveTo(...at(0.3, -1.4));
  ctx.lineTo(...at(0.6, -1.4));
  ctx.moveTo(...at(0.3, 1.4));
  ctx.lineTo(...at(0.6, 1.4));
  ctx.moveTo(...at(0.6, -1.4));
  ctx.lineTo(...at(0.6, 1.4));
  ctx.moveTo(...at(0.6, 0));
  ctx.lineTo(...b);
  ctx.stroke();
}
