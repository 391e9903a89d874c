/**
 * x–y plots on canvas, drawn by uPlot. This module only draws: the data it is given is
 * already shaped (columns) and it decimates long runs so a redraw stays cheap. Each
 * plot is an image with a name (its figure's caption) and a text alternative that is
 * regenerated with the data (www/summary.ts); axes follow the colour scheme.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { decimate, formatNumber, pick, tickLabel } from './format';
import { summarize } from './summary';
import { linearRange, linearSplits, yAxisSize } from './plot-data';

export interface SeriesStyle {
  label: string;
  color: string;
  /** Canvas dash pattern, e.g. [6, 4] for an exact solution drawn under the numerical one. */
  dash?: number[];
  /** Drawn translucent (a pinned run), so the live run stays visible where they coincide. */
  faint?: boolean;
}

export { PALETTE, seriesStyle } from './theme';

export interface PlotOptions {
  xLabel: string;
  yLabel: string;
  series: SeriesStyle[];
  /** Logarithmic y axis (values ≤ 0 are left out). */
  logY?: boolean;
  /** Logarithmic x axis (for error against h or against f-evaluations). */
  logX?: boolean;
  /** A fixed y range [min, max] for a linear axis (curves leave the plot beyond it). */
  yRange?: [number, number];
  /** Mark each point (few points, e.g. one per step size). */
  points?: boolean;
  height?: number;
  /** The accessible name; by default the figure's caption, else "y against x". */
  name?: string;
  /** The target's width in CSS pixels, when the caller measured it: building several
   *  plots then lays the page out once, not once per plot (each new uPlot changes the
   *  DOM, so the next `clientWidth` read forces a layout). */
  width?: number;
}

/** Axis ink for the page's colour scheme (canvas text cannot follow CSS). */
function axisColours(): { stroke: string; grid: string } {
  const dark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  return dark ? { stroke: '#c9d1e3', grid: 'rgba(255, 255, 255, 0.12)' } : { stroke: '#334', grid: 'rgba(0, 0, 0, 0.07)' };
}

/** The caption text of the figure around `target`, without its buttons and menus. */
function captionOf(target: HTMLElement): string {
  const caption = target.closest('figure')?.querySelector('figcaption');
  if (!caption) return '';
  const copy = caption.cloneNode(true) as HTMLElement;
  for (const el of copy.querySelectorAll('button, select')) el.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').replace(/:\s*$/, '').trim();
}

/**
 * Tick increments 1, 2, 2.5, 5 × 10^k over the whole range a run can reach (up to the
 * squares of the core's 1e150 blow-up bound, e.g. an energy); uPlot's defaults stop
 * near 1e16 and an unstable run would lose its axis labels.
 */
const TICK_INCREMENTS = Array.from({ length: 620 }, (_, i) => i - 310).flatMap((k) =>
  [1, 2, 2.5, 5].map((m) => Number(`${m}e${k}`)),
);

/** Whole decades around the data; uPlot's own log range is limited to about ±1e16. */
function logRange(_u: uPlot, min: number, max: number): uPlot.Range.MinMax {
  if (!(min > 0) || !(max > 0)) return [1e-16, 1];
  const lo = Math.floor(Math.log10(min));
  const hi = Math.max(Math.ceil(Math.log10(max)), lo + 1);
  return [Number(`1e${lo}`), Number(`1e${hi}`)];
}

/** Ticks at powers of ten, thinned to at most about six over any range of decades. */
function logSplits(_u: uPlot, _axis: number, min: number, max: number): number[] {
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const stride = Math.max(1, Math.ceil((hi - lo) / 6));
  const ticks: number[] = [];
  for (let k = lo; k <= hi; k += stride) {
    const v = Number(`1e${k}`);
    if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) ticks.push(v);
  }
  return ticks;
}

/** uPlot's padded range where it holds the data, else ours (see `linearRange`). */
function linearAutoRange(_u: uPlot, min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null) return [min, max];
  const [lo, hi] = uPlot.rangeNum(min, max, 0.1, true);
  return lo !== null && hi !== null && lo <= min && hi >= max && lo < hi ? [lo, hi] : linearRange(min, max);
}

function linearAxisSplits(_u: uPlot, _axis: number, min: number, max: number, increment: number): number[] {
  return linearSplits(min, max, increment);
}

/** Narrowest plot (px): a lecture's embed on a small phone is about 280 px inside. */
const MIN_WIDTH = 200;

/** Points kept per pixel column bucket when decimating; 4 per bucket survive. */
const BUCKETS = 1500;

/**
 * An axis's tick labels, always ours: on a log axis 3 significant digits, on a linear
 * one as many as the tick spacing needs. uPlot's default formats with Intl, whose first
 * use costs the page ~10–20 ms before its first plot (vite.config.ts, `deferUplotIntl`).
 */
function axisLabels(log: boolean): uPlot.Axis.Values {
  return (_u: uPlot, splits: number[], _axis: number, _space: number, increment: number) =>
    log ? splits.map((v) => formatNumber(v, 3)) : splits.map((v) => tickLabel(v, increment));
}

export class Plot {
  private readonly uplot: uPlot;
  private readonly logY: boolean;
  private readonly logX: boolean;
  private readonly resizeObserver: ResizeObserver;
  /** x of the vertical time marker (the page's time cursor), if shown. */
  private marker: number | undefined;
  private readonly markerLine = document.createElement('div');
  private readonly summary: HTMLElement;
  private readonly options: PlotOptions;
  private readonly slopes = new Map<number, number>();
  private data: { x: ArrayLike<number>; ys: ArrayLike<number>[] } = { x: [], ys: [] };

  constructor(
    private readonly target: HTMLElement,
    options: PlotOptions,
  ) {
    this.options = options;
    this.logY = options.logY ?? false;
    this.logX = options.logX ?? false;
    const ink = axisColours();
    const logAxis = { splits: logSplits, filter: (_u: uPlot, splits: number[]) => splits };
    const opts: uPlot.Options = {
      width: Math.max(options.width ?? target.clientWidth, MIN_WIDTH),
      height: options.height ?? 260,
      scales: {
        x: this.logX ? { time: false, distr: 3, range: logRange } : { time: false },
        y: this.logY ? { distr: 3, range: logRange } : { range: options.yRange ?? linearAutoRange },
      },
      axes: [
        {
          label: options.xLabel,
          stroke: ink.stroke,
          grid: { stroke: ink.grid },
          ticks: { stroke: ink.grid },
          ...(this.logX ? logAxis : {}),
          values: axisLabels(this.logX),
        },
        {
          label: options.yLabel,
          stroke: ink.stroke,
          grid: { stroke: ink.grid },
          ticks: { stroke: ink.grid },
          size: (_u: uPlot, values: string[] | null) => yAxisSize(values),
          // Our own log ticks are already thinned; uPlot's log filter would thin them again.
          incrs: TICK_INCREMENTS,
          ...(this.logY ? logAxis : { splits: linearAxisSplits }),
          values: axisLabels(this.logY),
        },
      ],
      series: [
        { label: options.xLabel },
        ...options.series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 1.5,
          ...(s.faint ? { alpha: 0.5 } : {}),
          dash: s.dash,
          // Sparse data (convergence studies) may have gaps where a run blew up.
          spanGaps: options.points ?? false,
          points: { show: options.points ?? false, size: 6 },
        })),
      ],
      cursor: { drag: { x: true, y: true, uni: 40 } },
      // The time marker is an element over the plot, so moving it redraws nothing.
      hooks: { setSize: [() => this.placeMarker()], setScale: [() => this.placeMarker()] },
      legend: { live: true },
    };
    this.uplot = new uPlot(opts, [[], ...options.series.map(() => [])], target);
    this.markerLine.className = 'time-marker';
    this.markerLine.hidden = true;
    this.uplot.over.append(this.markerLine);
    this.resizeObserver = new ResizeObserver(() => {
      const width = Math.max(this.target.clientWidth, MIN_WIDTH);
      if (width !== this.uplot.width) this.uplot.setSize({ width, height: this.uplot.height });
    });
    this.resizeObserver.observe(target);
    // The plot is one image to assistive technology; its legend's live values are not.
    target.setAttribute('role', 'img');
    target.setAttribute('aria-label', options.name ?? (captionOf(target) || `${options.yLabel} against ${options.xLabel}`));
    const summaryId = `${target.id || 'plot'}-summary`;
    this.summary = document.getElementById(summaryId) ?? document.createElement('p');
    this.summary.id = summaryId;
    this.summary.className = 'plot-summary visually-hidden';
    if (!this.summary.isConnected) target.after(this.summary);
    target.setAttribute('aria-describedby', summaryId);
    this.summary.textContent = 'No data yet.';
    this.publishLegend();
  }

  /** The series' labels and line styles as JSON in `data-legend`, for the PNG export (www/png.ts). */
  private publishLegend(): void {
    this.target.dataset.legend = JSON.stringify(
      this.options.series.map((s, i) => ({ label: this.labelOf(i + 1), color: s.color, ...(s.dash ? { dash: s.dash } : {}), ...(s.faint ? { faint: true } : {}) })),
    );
  }

  /** Renames series `index` (1-based: 0 is x), e.g. to show its fitted `slope` (also told in the summary). */
  setLabel(index: number, label: string, slope?: number): void {
    const el = this.target.querySelectorAll('.u-legend .u-series')[index]?.querySelector('.u-label');
    if (el) el.textContent = label;
    if (slope !== undefined) this.slopes.set(index, slope);
    this.describe();
    this.publishLegend();
  }

  /** Replaces the data; `ys` are columns of the same length as `x`. */
  setData(x: ArrayLike<number>, ys: ArrayLike<number>[]): void {
    if (this.logX && x.length > 0 && !(x[0] > 0)) {
      // A log axis has no place for x ≤ 0 (a run from t0 = 0): it starts at the first positive x.
      let first = 0;
      while (first < x.length && !(x[first] > 0)) first++;
      const from = <T extends ArrayLike<number>>(a: T): ArrayLike<number> =>
        a instanceof Float64Array ? a.subarray(first) : Array.prototype.slice.call(a, first);
      [x, ys] = [from(x), ys.map(from)];
    }
    const idx = decimate(x.length, ys, BUCKETS);
    const [xs, ...cols] = pick([x, ...ys], idx);
    // NaN marks where a run has no value (a pinned run shorter than the live one): a gap.
    const series: ((number | null)[] | Float64Array)[] = this.logY
      ? cols.map((c) => Array.from(c, (v) => (v > 0 && Number.isFinite(v) ? v : null)))
      : cols.map((c) => (c.some(Number.isNaN) ? Array.from(c, (v) => (Number.isNaN(v) ? null : v)) : c));
    this.uplot.setData([xs, ...series] as uPlot.AlignedData);
    this.data = { x, ys };
    this.describe();
  }

  /** Rewrites the text alternative from the data and labels shown. */
  private describe(): void {
    this.summary.textContent = summarize({
      xLabel: this.options.xLabel,
      x: this.data.x,
      series: this.data.ys.map((y, i) => ({ label: this.labelOf(i + 1), y, slope: this.slopes.get(i + 1) })),
    });
  }

  /** Series `index`'s label as shown (setLabel may have renamed it). */
  private labelOf(index: number): string {
    const shown = this.target.querySelectorAll('.u-legend .u-series')[index]?.querySelector('.u-label')?.textContent;
    return shown || (this.options.series[index - 1]?.label ?? `series ${index}`);
  }

  /** Moves the vertical marker to `x` (undefined hides it). */
  setMarker(x: number | undefined): void {
    this.marker = x;
    this.placeMarker();
  }

  private placeMarker(): void {
    // uPlot calls the hooks while it is being built, before `this.uplot` is set.
    const u = this.uplot as uPlot | undefined;
    if (!u) return;
    const left = this.marker === undefined ? NaN : u.valToPos(this.marker, 'x');
    // The plotting area's width from uPlot's own geometry (canvas pixels), not
    // `over.clientWidth`: reading layout here forced a reflow of the page for every
    // plot a run redraws (23 ms of the first plot's main-thread work).
    const shown = Number.isFinite(left) && left >= 0 && left <= u.bbox.width / uPlot.pxRatio;
    this.markerLine.hidden = !shown;
    if (shown) this.markerLine.style.transform = `translateX(${left}px)`;
  }

  destroy(): void {
    this.resizeObserver.disconnect();
    this.uplot.destroy();
    this.summary.remove();
  }
}
