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
 * kinetics from 1e-6 to 40 and beyond): an adaptive run whose end is at least 1000
 * times its first positive time and whose steps grew at least 100-fold on the way (a
 * fixed-step run, or an adaptive one over a steady oscillation, stays linear).
 */
export function spansDecades(t: ArrayLike<number>, h: ArrayLike<number> | undefined, adaptive: boolean): boolean {
  if (!adaptive || !h || h.length < 2 || t.length < 2) return false;
  let first = 0;
  while (first < t.length && !(t[first] > 0)) first++;
  if (first >= t.length) return false;
  const end = t[t.length - 1];
  return end / t[first] >= 1e3 && h[h.length - 1] / h[0] >= 100;
}
