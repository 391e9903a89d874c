/**
 * Pure helpers of the page: slider scales, number formatting, array reshaping and
 * decimation. No DOM here, so everything is unit-tested in Node.
 */

/** A logarithmic slider: position p ∈ [0, steps] ↔ value in [min, max]. */
export interface LogScale {
  min: number;
  max: number;
  steps: number;
}

export function logToValue(scale: LogScale, position: number): number {
  const f = Math.min(Math.max(position / scale.steps, 0), 1);
  return Math.exp(Math.log(scale.min) + f * (Math.log(scale.max) - Math.log(scale.min)));
}

export function valueToLog(scale: LogScale, value: number): number {
  const v = Math.min(Math.max(value, scale.min), scale.max);
  const f = (Math.log(v) - Math.log(scale.min)) / (Math.log(scale.max) - Math.log(scale.min));
  return Math.round(f * scale.steps);
}

/**
 * A parameter slider's range around its default: a decade either side for a positive
 * value (on a log scale), a symmetric linear range otherwise. Users can edit both ends.
 */
export function defaultBounds(value: number, greaterThan?: number): { min: number; max: number } {
  if (value > 0) return { min: Number((value / 10).toPrecision(12)), max: Number((value * 10).toPrecision(12)) };
  if (value < 0) return { min: Number((value * 10).toPrecision(12)), max: Number((-value * 10).toPrecision(12)) };
  return greaterThan !== undefined && greaterThan >= 0 ? { min: 0, max: 1 } : { min: -1, max: 1 };
}

/** Slider position (0…steps) → value on [min, max]: logarithmic when min > 0, else linear. */
export function sliderValue(position: number, min: number, max: number, steps: number): number {
  if (min > 0 && max > min) return Number(logToValue({ min, max, steps }, position).toPrecision(3));
  const f = Math.min(Math.max(position / steps, 0), 1);
  return Number((min + f * (max - min)).toPrecision(3));
}

/** Value → slider position, the inverse of `sliderValue` (clamped to the ends). */
export function sliderPosition(value: number, min: number, max: number, steps: number): number {
  if (min > 0 && max > min) return valueToLog({ min, max, steps }, value);
  if (!(max > min)) return 0;
  return Math.round(Math.min(Math.max((value - min) / (max - min), 0), 1) * steps);
}

/** Rounds a step size to 2 significant digits so slider values read 0.0012, not 0.00123456. */
export function niceStep(h: number): number {
  if (!(h > 0) || !Number.isFinite(h)) return h;
  return Number(h.toPrecision(2));
}

/** A number for people: up to `digits` significant digits, scientific when tiny or huge. */
export function formatNumber(x: number, digits = 4): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e6) return String(Number(x.toPrecision(digits)));
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  return `${String(Number(mantissa))}e${exponent.replace('+', '')}`;
}

/**
 * A tick label with as many significant digits as the tick spacing needs, so ticks
 * 14.7001 and 14.7002 do not both read "14.7" (an energy that barely drifts).
 */
export function tickLabel(value: number, increment: number): string {
  if (!(increment > 0) || value === 0) return formatNumber(value, 3);
  const digits = Math.ceil(Math.log10(Math.abs(value) / increment)) + 1;
  return formatNumber(value, Math.min(15, Math.max(3, digits)));
}

/** Labels for evenly spaced ticks (as `niceTicks` makes them), with the digits their spacing needs. */
export function tickLabels(ticks: readonly number[]): string[] {
  const spacing = ticks.length > 1 ? ticks[1] - ticks[0] : 0;
  return ticks.map((v) => tickLabel(v, spacing));
}

/** Splits a row-major `n × dim` array into `dim` columns. */
export function columns(rowMajor: ArrayLike<number>, dim: number): Float64Array[] {
  const n = Math.floor(rowMajor.length / dim);
  const cols = Array.from({ length: dim }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < dim; j++) cols[j][i] = rowMajor[i * dim + j];
  }
  return cols;
}

/**
 * Min–max decimation for plotting: for each of `buckets` equal runs of points it keeps
 * the first, the last, and each series' minimum and maximum, in order; a million-point
 * run then draws the same envelope as the full data at a fraction of the cost.
 * Returns the indices to keep.
 */
export function decimate(n: number, ys: ArrayLike<number>[], buckets: number): Uint32Array {
  if (n <= 4 * buckets) return Uint32Array.from({ length: n }, (_, i) => i);
  const keep = new Set<number>();
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor((b * n) / buckets);
    const end = Math.floor(((b + 1) * n) / buckets);
    keep.add(start);
    keep.add(end - 1);
    for (const y of ys) {
      let lo = start;
      let hi = start;
      for (let i = start; i < end; i++) {
        if (y[i] < y[lo]) lo = i;
        if (y[i] > y[hi]) hi = i;
      }
      keep.add(lo);
      keep.add(hi);
    }
  }
  return Uint32Array.from([...keep].sort((a, b) => a - b));
}

/** Picks `indices` out of each array. */
export function pick(arrays: ArrayLike<number>[], indices: Uint32Array): Float64Array[] {
  return arrays.map((a) => Float64Array.from(indices, (i) => a[i]));
}

/** Largest relative change of a conserved quantity over a run: max |E − E0| / |E0|. */
export function relativeDrift(series: ArrayLike<number>): number {
  if (series.length === 0) return 0;
  const e0 = series[0];
  const scale = Math.abs(e0) > 0 ? Math.abs(e0) : 1;
  let worst = 0;
  for (let i = 0; i < series.length; i++) worst = Math.max(worst, Math.abs(series[i] - e0) / scale);
  return worst;
}

/** Max-norm error of a row-major run against the exact solution, per time point. */
export function errorSeries(y: ArrayLike<number>, exact: ArrayLike<number>, dim: number): Float64Array {
  const n = Math.floor(y.length / dim);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let e = 0;
    for (let j = 0; j < dim; j++) e = Math.max(e, Math.abs(y[i * dim + j] - exact[i * dim + j]));
    out[i] = e;
  }
  return out;
}
