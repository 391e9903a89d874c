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
