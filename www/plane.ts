/**
 * Pure geometry and colour for the ξ-plane (stability) view: the window onto the complex
 * plane, pan and zoom, tick positions, and the colour of |R(ξ)| on a log scale. No DOM,
 * so all of it is unit-tested.
 */

/** A window onto the complex plane: Re ξ ∈ [re0, re1], Im ξ ∈ [im0, im1]. */
export interface PlaneWindow {
  re: [number, number];
  im: [number, number];
}

/** Pixel (x right, y down, in a w × h canvas) → ξ. */
export function pixelToXi(win: PlaneWindow, w: number, h: number, x: number, y: number): [number, number] {
  return [win.re[0] + (x / w) * (win.re[1] - win.re[0]), win.im[1] - (y / h) * (win.im[1] - win.im[0])];
}

/** ξ → pixel. */
export function xiToPixel(win: PlaneWindow, w: number, h: number, re: number, im: number): [number, number] {
  return [((re - win.re[0]) / (win.re[1] - win.re[0])) * w, ((win.im[1] - im) / (win.im[1] - win.im[0])) * h];
}

/**
 * The largest |Re ξ|, |Im ξ| zoom and pan reach: a tenth of what the engine maps
 * (src/stability/spec.rs `MAX_WINDOW`, 1e15), leaving room for `fitAspect`'s widening.
 */
export const MAX_WINDOW = 1e14;

/** `next` if it stays within ±MAX_WINDOW on both axes, else `win` unchanged. */
function within(win: PlaneWindow, next: PlaneWindow): PlaneWindow {
  return [...next.re, ...next.im].every((v) => Math.abs(v) <= MAX_WINDOW) ? next : win;
}

/**
 * `win` widened along one axis so that one unit of Re ξ and one unit of Im ξ span the
 * same number of pixels in a w × h canvas (a circle in the ξ-plane is drawn round). The
 * window keeps its centre and never shrinks: everything asked for stays in view.
 */
export function fitAspect(win: PlaneWindow, w: number, h: number): PlaneWindow {
  if (!(w > 0) || !(h > 0)) return win;
  const [reSpan, imSpan] = [win.re[1] - win.re[0], win.im[1] - win.im[0]];
  if (!(reSpan > 0) || !(imSpan > 0)) return win;
  const [cRe, cIm] = [(win.re[0] + win.re[1]) / 2, (win.im[0] + win.im[1]) / 2];
  // Units per pixel along each axis; the larger one wins for both.
  const scale = Math.max(reSpan / w, imSpan / h);
  const [halfRe, halfIm] = [(scale * w) / 2, (scale * h) / 2];
  return { re: [cRe - halfRe, cRe + halfRe], im: [cIm - halfIm, cIm + halfIm] };
}

/** The window zoomed by `factor` (< 1 zooms in) about the point ξ = (re, im). */
export function zoomAt(win: PlaneWindow, re: number, im: number, factor: number): PlaneWindow {
  return within(win, {
    re: [re + (win.re[0] - re) * factor, re + (win.re[1] - re) * factor],
    im: [im + (win.im[0] - im) * factor, im + (win.im[1] - im) * factor],
  });
}

/** The window moved by (dRe, dIm). */
export function pan(win: PlaneWindow, dRe: number, dIm: number): PlaneWindow {
  return within(win, { re: [win.re[0] + dRe, win.re[1] + dRe], im: [win.im[0] + dIm, win.im[1] + dIm] });
}

/** Round tick values (1, 2, 5 × 10^k spacing) covering [min, max], about `count` of them. */
export function niceTicks(min: number, max: number, count = 6): number[] {
  if (!(max > min) || !Number.isFinite(min) || !Number.isFinite(max)) return [];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  // The 1e-9 slack keeps -0.3 / 0.1 = -2.9999999999999996 from losing the first tick.
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + step * 1e-9; k++) {
    const v = k * step;
    ticks.push(Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  }
  return ticks;
}

/** Decades of |R| shown: 10^-DECADES (deep blue) … 10^DECADES (deep red). */
const DECADES = 3;

/**
 * RGBA pixels of a map of |R(ξ)| (row iy = Im index from the bottom, as the core
 * returns it) on a log scale: stable (< 1) in blues, unstable (> 1) in reds, darker
 * the further from 1; NaN grey. The canvas row 0 is the top, so rows are flipped.
 */
export function colorize(values: ArrayLike<number>, nx: number, ny: number): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(new ArrayBuffer(nx * ny * 4));
  for (let iy = 0; iy < ny; iy++) {
    const row = ny - 1 - iy;
    for (let ix = 0; ix < nx; ix++) {
      const v = values[iy * nx + ix];
      const o = (row * nx + ix) * 4;
      // Written element by element: a map is ~500,000 pixels, and an array per pixel
      // (two, with a destructuring) was most of the ξ-plane's drawing time and garbage.
      out[o + 3] = 255;
      if (!Number.isFinite(v) && !(v === Infinity)) {
        out[o] = out[o + 1] = out[o + 2] = 200;
        continue;
      }
      const l = Math.max(-DECADES, Math.min(DECADES, Math.log10(Math.max(v, 1e-300)))) / DECADES;
      const s = Math.sqrt(Math.abs(l)) * 0.85 + 0.15;
      // Stable: from light to deep blue; unstable: from light to deep red.
      if (l <= 0) {
        out[o] = 255 - 225 * s;
        out[o + 1] = 255 - 160 * s;
        out[o + 2] = 255 - 40 * s;
      } else {
        out[o] = 255 - 40 * s;
        out[o + 1] = 255 - 200 * s;
        out[o + 2] = 255 - 215 * s;
      }
    }
  }
  return out;
}
