/**
 * Pure helpers that shape a run's data for the time plots (no DOM, unit-tested): the
 * fine time grid the exact solution is sampled on, and whether a run spans decades of
 * time (a log t axis).
 */

/** Even points of the exact solution's fine grid (the step points are added to them). */
export const EXACT_SAMPLES = 1000;

/** `samples` even times over [t[0], t[end]] and every time of `t`, sorted, without repeats. */
export function fineGrid(t: ArrayLike<number>, samples = EXACT_SAMPLES): Float64Array {
  const n = t.length;
  if (n === 0) return new Float64Array();
  const [t0, t1] = [t[0], t[n - 1]];
  const all = Array.from(t);
  for (let k = 0; k <= samples; k++) all.push(k === samples ? t1 : t0 + ((t1 - t0) * k) / samples);
  all.sort((a, b) => a - b);
  return Float64Array.from(all.filter((v, i) => i === 0 || v !== all[i - 1]));
}

/**
 * Whether a run spans decades of time, so that a log t axis shows it (Robertson's
 * kinetics from 1e-4 to 40 and beyond: ros4 takes 9 of its 18 steps before t = 0.73): an adaptive run whose end is at least 1000
 * times its first positive time and which took half its steps in the first 5 % of its
 * interval (its steps grew with t). A fixed-step run, or an adaptive one over an
 * oscillation or a relaxation cycle (steps spread over the whole interval), stays linear.
 */
export function spansDecades(t: ArrayLike<number>, adaptive: boolean): boolean {
  const n = t.length;
  if (!adaptive || n < 3) return false;
  let first = 0;
  while (first < n && !(t[first] > 0)) first++;
  if (first >= n) return false;
  const [t0, end] = [t[0], t[n - 1]];
  const middle = t[Math.floor((n - 1) / 2)];
  return end / t[first] >= 1e3 && (middle - t0) / (end - t0) <= 0.05;
}

/** A run's exact solution on a fine grid: `exact[i * dim + j]` at `t[i]`. */
export interface DenseExact {
  t: Float64Array;
  exact: Float64Array;
}

/** Each run's dense exact solution, once sampled (www/time-plots.ts asks the worker). */
const denseExacts = new WeakMap<object, DenseExact>();
const denseListeners: (() => void)[] = [];

/** Keeps `run`'s dense exact solution and tells the views that draw it (the phase portrait). */
export function setDenseExact(run: object, dense: DenseExact): void {
  denseExacts.set(run, dense);
  for (const listener of denseListeners) listener();
}

/** `run`'s dense exact solution, if it has been sampled. */
export function denseExactOf(run: object): DenseExact | undefined {
  return denseExacts.get(run);
}

/** Calls `listener` whenever a run's dense exact solution arrives. */
export function onDenseExact(listener: () => void): void {
  denseListeners.push(listener);
}

/**
 * A linear axis's range around data in [min, max], padded by a tenth of the spread.
 * uPlot's own range (and its ticks) round through a heuristic that reads six 9s or 0s
 * after the point as float noise, so data such as 0.99999993 … 1 (a radius that stays 1
 * to 1e-7) collapse to [1, 1] and the plot draws nothing. Flat data get ±10 % of the
 * value (±1 at 0), as uPlot gives them.
 */
export function linearRange(min: number, max: number): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  const spread = max - min;
  const pad = spread > Math.abs(max) * 1e-13 ? spread * 0.1 : Math.abs(max) * 0.1 || 1;
  return [min - pad, max + pad];
}

/** Ticks at the multiples of `increment` in [min, max], rounded to 15 significant digits. */
export function linearSplits(min: number, max: number, increment: number): number[] {
  if (!(increment > 0) || !(max >= min)) return [];
  const ticks: number[] = [];
  const first = Math.ceil(min / increment - 1e-9);
  const last = Math.floor(max / increment + 1e-9);
  for (let k = first; k <= last && ticks.length < 100; k++) ticks.push(Number((k * increment).toPrecision(15)));
  return ticks;
}

/** Least width (px) of a y axis: what a tick label of six characters needs. */
export const Y_AXIS_MIN = 70;

/**
 * The width (px) of a y axis whose tick labels are `labels`, so that the longest one
 * (an energy that drifts in its ninth digit reads "4.50963438") stays clear of the axis
 * name beside it: about 7.5 px a character of uPlot's 12 px font, plus the ticks and gap.
 */
export function yAxisSize(labels: readonly string[] | null | undefined): number {
  const longest = (labels ?? []).reduce((w, l) => Math.max(w, l.length), 0);
  return Math.max(Y_AXIS_MIN, Math.ceil(18 + 7.5 * longest));
}
