/**
 * A finished run as the page keeps it (`Run`: its settings, model, method and solution),
 * and the pure questions every view asks of one: its state at a time t between stored
 * points, one named series, several runs on one time grid. No DOM here (unit-tested).
 */
import type { MethodInfo, ModelInfo, Solution } from './engine';
import type { RunSettings } from './settings';

export interface Run {
  settings: RunSettings;
  /** The model described (a typed system's own description). */
  model: ModelInfo;
  /** The method, with a custom tableau's capabilities (`customMethodInfo`). */
  method: MethodInfo | undefined;
  /** The step was adapted (an adaptive method without "fixed step"). */
  adaptive: boolean;
  t: ArrayLike<number>;
  /** Row-major, `names.length` per time. */
  y: ArrayLike<number>;
  /** y by state: `yColumns[j][i]` is state `names[j]` at `t[i]` (`Solution.yColumns`). */
  yColumns: ArrayLike<number>[];
  /** The run's state names: a formulation's coordinates differ from the model's. */
  names: string[];
  /** What was integrated, in words (a constrained mechanism's names its formulation). */
  source?: string;
  outputs: Record<string, ArrayLike<number>>;
  exact?: ArrayLike<number>;
  h?: ArrayLike<number>;
  /** Each step's error estimate measured against the tolerance (≤ 1 passes); adaptive runs of methods with one. */
  errEst?: ArrayLike<number>;
  constraint?: Solution['constraint'];
  stats: Solution['stats'];
  events?: Solution['events'];
  warning?: string;
}

/**
 * The last index i with t[i] ≤ time (0 before the start), for non-decreasing t: a run's
 * stored times, or the step inspector's attempts, several of which may begin at one t.
 */
export function indexAt(t: ArrayLike<number>, time: number): number {
  let lo = 0;
  let hi = t.length - 1;
  if (hi < 0 || !(time >= t[0])) return 0;
  if (time >= t[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (t[mid] <= time) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Where `time` falls: index i and the fraction s ∈ [0, 1) towards i + 1. */
function bracket(t: ArrayLike<number>, time: number): { i: number; s: number } {
  const i = indexAt(t, time);
  if (i + 1 >= t.length) return { i, s: 0 };
  const span = t[i + 1] - t[i];
  const s = span > 0 ? Math.min(1, Math.max(0, (time - t[i]) / span)) : 0;
  return { i, s };
}

/** Row `dim`-vector of `rows` at `time`, linear between stored points (exact at them). */
export function rowAt(t: ArrayLike<number>, rows: ArrayLike<number>, dim: number, time: number): number[] {
  const { i, s } = bracket(t, time);
  const out: number[] = [];
  for (let j = 0; j < dim; j++) {
    const a = rows[i * dim + j];
    out.push(s === 0 ? a : a + s * (rows[(i + 1) * dim + j] - a));
  }
  return out;
}

/** One value of a series at `time`, linear between stored points. */
export function valueAt(t: ArrayLike<number>, series: ArrayLike<number>, time: number): number {
  return rowAt(t, series, 1, time)[0];
}

/** What a run shows at `time`: its states, outputs and exact solution (if known) by name. */
export interface Sample {
  t: number;
  state: Record<string, number>;
  exact?: Record<string, number>;
}

export function sampleAt(run: Run, time: number): Sample {
  const dim = run.names.length;
  const byName = (values: number[]): Record<string, number> =>
    Object.fromEntries(run.names.map((n, j) => [n, values[j]]));
  const state = byName(rowAt(run.t, run.y, dim, time));
  for (const [name, series] of Object.entries(run.outputs)) state[name] = valueAt(run.t, series, time);
  const exact = run.exact ? byName(rowAt(run.t, run.exact, dim, time)) : undefined;
  return { t: time, state, ...(exact ? { exact } : {}) };
}

/** A state's or output's values over the run, or undefined if the run has no such name. */
export function seriesOf(run: Pick<Run, 'names' | 'yColumns' | 'outputs'>, name: string): ArrayLike<number> | undefined {
  const j = run.names.indexOf(name);
  return j < 0 ? run.outputs[name] : run.yColumns[j];
}

/** The sorted union of several time grids (duplicates once). */
export function unionGrid(grids: ArrayLike<number>[]): Float64Array {
  const all = Float64Array.from(grids.flatMap((g) => Array.from(g)));
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (n === 0 || all[i] !== all[n - 1]) all[n++] = all[i];
  return all.slice(0, n);
}

/** `series` (given on grid `t`) on another grid; NaN outside [t0, t_end] (a gap). */
export function resample(t: ArrayLike<number>, series: ArrayLike<number>, grid: ArrayLike<number>): Float64Array {
  const end = t[t.length - 1];
  return Float64Array.from(grid, (x) => (t.length === 0 || x < t[0] || x > end ? NaN : valueAt(t, series, x)));
}

/** A short description of a run for lists and legends: method and h or tolerances. */
export function describeRun(run: Run): string {
  const s = run.settings;
  const name = run.method?.name ?? s.method;
  return run.adaptive ? `${name}, rtol ${s.rtol}, atol ${s.atol}` : `${name}, h = ${s.h}`;
}

/** Largest |y − y_exact| over the run, when the exact solution is known. */
export function maxExactError(run: Run): number | undefined {
  if (!run.exact) return undefined;
  let max = 0;
  for (let i = 0; i < run.y.length; i++) max = Math.max(max, Math.abs(run.y[i] - run.exact[i]));
  return max;
}
