/**
 * A plot in words, for screen readers and for anyone who cannot see the canvas: the x
 * range, each series' range and final value, and on log–log axes the observed slope
 * (least squares on log10 y against log10 x: the observed order of an error-vs-h plot).
 * Pure, so it is unit-tested in Node.
 */
import { formatNumber } from './format';

export interface SummaryInput {
  xLabel: string;
  x: ArrayLike<number>;
  series: { label: string; y: ArrayLike<number> }[];
  /** Both axes logarithmic: report each series' slope. */
  logLog?: boolean;
}

/** Series beyond this many are counted, not described. */
const MAX_SERIES = 4;

/** Least-squares slope of log10 y against log10 x over the points where both are > 0. */
export function logLogSlope(x: ArrayLike<number>, y: ArrayLike<number>): number | undefined {
  const pts: [number, number][] = [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] > 0 && y[i] > 0 && Number.isFinite(x[i]) && Number.isFinite(y[i])) pts.push([Math.log10(x[i]), Math.log10(y[i])]);
  }
  if (pts.length < 2) return undefined;
  const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
  const my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  const sxx = pts.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  if (!(sxx > 0)) return undefined;
  return pts.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0) / sxx;
}

function finiteRange(v: ArrayLike<number>): [number, number, number] | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  let last = NaN;
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i])) continue;
    lo = Math.min(lo, v[i]);
    hi = Math.max(hi, v[i]);
    last = v[i];
  }
  return lo <= hi ? [lo, hi, last] : undefined;
}

/** One or two sentences: "t from 0 to 10. x: from −1 to 1, final 0.5. …" */
export function summarize({ xLabel, x, series, logLog = false }: SummaryInput): string {
  const xs = finiteRange(x);
  if (!xs) return 'No data yet.';
  const parts = [`${xLabel} from ${formatNumber(xs[0])} to ${formatNumber(xs[1])}.`];
  for (const s of series.slice(0, MAX_SERIES)) {
    const r = finiteRange(s.y);
    if (!r) {
      parts.push(`${s.label}: no finite values.`);
      continue;
    }
    let text = `${s.label}: from ${formatNumber(r[0])} to ${formatNumber(r[1])}, final ${formatNumber(r[2])}`;
    const slope = logLog ? logLogSlope(x, s.y) : undefined;
    if (slope !== undefined) text += `, observed slope ${slope.toFixed(2)}`;
    parts.push(`${text}.`);
  }
  if (series.length > MAX_SERIES) parts.push(`${series.length - MAX_SERIES} more series.`);
  return parts.join(' ');
}
