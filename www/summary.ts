/**
 * A plot in words, for screen readers and for anyone who cannot see the canvas: the x
 * range, each series' range and final value, and the observed slope where the caller
 * fitted one (a convergence study's order, fitted by the core over the range where the
 * error behaves like C·hᵖ; a least-squares line through blow-up and round-off would
 * not be the order). Pure, so it is unit-tested in Node.
 */
import { formatNumber } from './format';

export interface SummaryInput {
  xLabel: string;
  x: ArrayLike<number>;
  /** `slope`: the series' fitted log–log slope, when it has one. */
  series: { label: string; y: ArrayLike<number>; slope?: number }[];
}

/** Series beyond this many are counted, not described. */
const MAX_SERIES = 8;

function finiteRange(v: ArrayLike<number>): [number, number, number] | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  let last = NaN;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!Number.isFinite(x)) continue;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
    last = x;
  }
  return lo <= hi ? [lo, hi, last] : undefined;
}

/** One or two sentences: "t from 0 to 10. x: from −1 to 1, final 0.5. …" */
export function summarize({ xLabel, x, series }: SummaryInput): string {
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
    if (s.slope !== undefined && Number.isFinite(s.slope)) text += `, observed slope ${s.slope.toFixed(2)}`;
    parts.push(`${text}.`);
  }
  if (series.length > MAX_SERIES) parts.push(`${series.length - MAX_SERIES} more series.`);
  return parts.join(' ');
}
