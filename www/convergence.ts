/**
 * The convergence view: how the error falls with h. For the trajectory view's model it
 * runs each chosen method at h = T/2ⁿ and plots the global error at t1 against h on
 * log–log axes, with the fitted slope (the observed order) in the legend and the
 * round-off floor of Schwab & Delhaes §7.5 where the error stops falling; the Dₙ = |yₙ − yₙ₋₁|
 * sequence with Richardson's estimate (Schwab & Delhaes eq. 7.9); error against f-evaluations over a
 * tolerance sweep for the adaptive methods; and the error of one step against h (000
 * Fig. 6, with the method's own estimate where it has one). The numbers come from
 * `convergence()` in the worker; this view only draws.
 */
import { byId, fillTable } from './dom';
import { CancelledError } from './client';
import type { EngineClient } from './client';
import type { MethodInfo } from './engine';
import type { ConvergenceResult, ConvergenceSpec } from './engine-labs';
import { formatNumber } from './format';
import { PALETTE, Plot } from './plot';
import type { SeriesStyle } from './plot';

/** Methods' colours: the plots' twelve distinguishable ones (www/plot.ts). */
const COLOURS = PALETTE;
const DEFAULT_METHODS = ['euler', 'heun', 'rk4', 'dp45'];


/**
 * Dₙ₋₁/Dₙ where it tends to 2ᵖ: at the smallest h of the fitted range, where the error
 * still falls as hᵖ. Larger h may be outside the asymptotic range (or unstable), smaller
 * ones in round-off, where the ratio falls below 1 (dp45 on the damped spring: 0.37 at
 * h = T/2¹³); undefined without a fit.
 */
export function fittedRatio(g: Pick<ConvergenceResult['global'][number], 'dRatio' | 'fit'>): number | undefined {
  if (!Number.isFinite(g.fit.slope)) return undefined;
  const ratio = g.dRatio[g.fit.to];
  return Number.isFinite(ratio) ? ratio : undefined;
}

/** Ascending copies (uPlot wants increasing x): the arrays come with h decreasing. */
function ascending(x: ArrayLike<number>, ...ys: ArrayLike<number>[]): Float64Array[] {
  const order = Array.from({ length: x.length }, (_, i) => i).sort((a, b) => x[a] - x[b]);
  return [x, ...ys].map((a) => Float64Array.from(order, (i) => a[i]));
}

/**
 * Several series with their own x (f-evaluations) on one shared, sorted x axis: each
 * series has NaN where another series has a point (the plot spans the gaps).
 */
export function unionSeries(series: { x: ArrayLike<number>; y: ArrayLike<number> }[]): Float64Array[] {
  const xs = [...new Set(series.flatMap((s) => Array.from(s.x)))].filter(Number.isFinite).sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const ys = series.map((s) => {
    const col = new Float64Array(xs.length).fill(NaN);
    for (let i = 0; i < s.x.length; i++) {
      const k = index.get(s.x[i]);
      if (k !== undefined) col[k] = s.y[i];
    }
    return col;
  });
  return [Float64Array.from(xs), ...ys];
}

/** A fitted slope, or why there is none (fewer than two usable points). */
function slopeText(slope: number): string {
  return Number.isFinite(slope) ? `slope ${formatNumber(slope, 3)}` : 'no slope: fewer than two usable runs';
}

/** What the study runs on: the trajectory view's model, parameters, t1 and Jacobian settings. */
export interface ConvergenceSource {
  model: string;
  params: Record<string, number>;
  t1?: number;
  jacobianUpdate?: number;
  jacobianScale?: number;
}

export class ConvergenceView {
  private readonly methodsBox = byId<HTMLElement>('conv-methods');
  private readonly nMin = byId<HTMLInputElement>('conv-nmin');
  private readonly nMax = byId<HTMLInputElement>('conv-nmax');
  private readonly status = byId<HTMLElement>('conv-status');
  private readonly table = byId<HTMLElement>('conv-table');
  private plots: Plot[] = [];
  private running = false;

  constructor(
    private readonly engine: EngineClient,
    methods: MethodInfo[],
    private readonly source: () => ConvergenceSource | undefined,
  ) {
    for (const m of methods.filter((x) => !x.partitioned)) {
      const label = document.createElement('label');
      label.className = 'check';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = m.id;
      box.checked = DEFAULT_METHODS.includes(m.id);
      label.append(box, ` ${m.name}`);
      this.methodsBox.append(label);
    }
    byId('conv-run').addEventListener('click', () => void this.run());
    byId('conv-cancel').addEventListener('click', () => this.engine.cancel());
  }

  private chosen(): string[] {
    return [...this.methodsBox.querySelectorAll<HTMLInputElement>('input:checked')].map((b) => b.value);
  }

  /** Runs the study for the trajectory view's model and draws it. */
  async run(): Promise<void> {
    if (this.running) return;
    const source = this.source();
    if (!source) {
      this.setStatus('error', 'The convergence study runs on a catalogue model; pick one in the Model menu.');
      return;
    }
    const spec: ConvergenceSpec = {
      model: source.model,
      params: source.params,
      t1: source.t1,
      // The trajectory view's inexact Jacobian, if any: the slopes show what it costs.
      ...(source.jacobianUpdate !== undefined ? { jacobianUpdate: source.jacobianUpdate } : {}),
      ...(source.jacobianScale !== undefined ? { jacobianScale: source.jacobianScale } : {}),
      methods: this.chosen(),
      nMin: Number(this.nMin.value),
      nMax: Number(this.nMax.value),
    };
    this.running = true;
    byId('conv-cancel').hidden = false;
    this.setStatus('computing', `Running ${spec.methods.length} methods at h = T/2ⁿ, n = ${spec.nMin} … ${spec.nMax}…`);
    try {
      const result = await this.engine.convergence(spec);
      this.draw(result);
      // An unusable result says why, in the words a run's diagnosis uses.
      const why = [result.diagnosis, ...result.global.map((g) => g.diagnosis)]
        .filter((d) => d !== undefined)
        .map((d) => `${d.message} ${d.advice}`);
      const head = `Errors against ${result.reference === 'exact' ? 'the exact solution' : `a reference run (${result.reference})`} at t1 = ${formatNumber(result.t1)}.`;
      const inexact = [
        ...(spec.jacobianScale !== undefined ? [`${formatNumber(spec.jacobianScale)}·∂f/∂y`] : []),
        ...(spec.jacobianUpdate !== undefined ? [`refreshed every ${spec.jacobianUpdate} steps`] : []),
      ];
      const jacobian = inexact.length > 0 ? [`Methods that use ∂f/∂y get ${inexact.join(', ')} (the trajectory view's Jacobian settings).`] : [];
      this.setStatus(why.length > 0 ? 'warning' : 'ok', [head, ...jacobian, ...why].join(' '));
    } catch (e) {
      if (e instanceof CancelledError) this.setStatus('warning', 'Cancelled.');
      else this.setStatus('error', e instanceof Error ? e.message : String(e));
    } finally {
      this.running = false;
      byId('conv-cancel').hidden = true;
    }
  }

  private setStatus(state: string, text: string): void {
    this.status.textContent = text;
    this.status.className = state;
    document.body.dataset.convergence = state;
  }

  private draw(result: ConvergenceResult): void {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    const colour = (i: number): string => COLOURS[i % COLOURS.length];

    // Global error vs h, with Richardson's estimate dashed in the same colour.
    const global = result.global;
    if (global.length > 0) {
      const series: SeriesStyle[] = global.flatMap((g, i) => [
        { label: g.method, color: colour(i) },
        { label: `${g.method} Richardson`, color: colour(i), dash: [5, 4] },
      ]);
      const plot = new Plot(byId('plot-global'), { xLabel: 'h', yLabel: 'error at t1', series, logX: true, logY: true, points: true });
      const [h, ...cols] = ascending(global[0].h, ...global.flatMap((g) => [g.error, g.richardson]));
      plot.setData(h, cols);
      global.forEach((g, i) => plot.setLabel(1 + 2 * i, `${g.method} (${slopeText(g.fit.slope)})`, g.fit.slope));
      this.plots.push(plot);

      const dPlot = new Plot(byId('plot-dn'), {
        xLabel: 'h = T/2ⁿ',
        yLabel: 'Dₙ = |yₙ − yₙ₋₁|',
        series: global.map((g, i) => ({ label: g.method, color: colour(i) })),
        logX: true,
        logY: true,
        points: true,
      });
      const [hd, ...ds] = ascending(global[0].h, ...global.map((g) => g.d));
      dPlot.setData(hd, ds);
      this.plots.push(dPlot);
    }

    const wp = result.workPrecision.filter((w) => w.nfev.length > 0);
    byId('fig-wp').hidden = wp.length === 0;
    if (wp.length > 0) {
      const plot = new Plot(byId('plot-wp'), {
        xLabel: 'f-evaluations',
        yLabel: 'error at t1',
        series: wp.map((w, i) => ({ label: w.method, color: colour(global.length + i) })),
        logX: true,
        logY: true,
        points: true,
      });
      const [x, ...ys] = unionSeries(wp.map((w) => ({ x: w.nfev, y: w.error })));
      plot.setData(x, ys);
      this.plots.push(plot);
    }

    const local = result.local.filter((l) => l.h.length > 0);
    byId('fig-local').hidden = local.length === 0;
    if (local.length > 0) {
      const series: SeriesStyle[] = local.flatMap((l, i) => [
        { label: l.method, color: colour(i) },
        { label: `${l.method} estimate`, color: colour(i), dash: [5, 4] },
      ]);
      const plot = new Plot(byId('plot-local'), { xLabel: 'h', yLabel: 'error of one step', series, logX: true, logY: true, points: true });
      const [h, ...cols] = ascending(local[0].h, ...local.flatMap((l) => [l.error, l.estimate]));
      plot.setData(h, cols);
      local.forEach((l, i) => plot.setLabel(1 + 2 * i, `${l.method} (${slopeText(l.fit.slope)})`, l.fit.slope));
      this.plots.push(plot);
    }
    this.showTable(result);
  }

  private showTable(result: ConvergenceResult): void {
    const head = ['method', 'order p', 'observed slope', 'fitted over h', 'round-off floor at h', 'Dₙ₋₁/Dₙ at the fit’s smallest h (→ 2ᵖ)'];
    const rows = result.global.map((g) => {
      const ratio = fittedRatio(g);
      const cells = [
        g.method,
        String(g.order),
        Number.isFinite(g.fit.slope) ? formatNumber(g.fit.slope, 3) : 'none',
        Number.isFinite(g.fit.slope) ? `${formatNumber(g.h[g.fit.from], 3)} … ${formatNumber(g.h[g.fit.to], 3)}` : (g.diagnosis?.code ?? 'fewer than two usable runs'),
        g.fit.floor === undefined ? 'not reached' : formatNumber(g.h[g.fit.floor], 3),
        ratio === undefined ? '—' : formatNumber(ratio, 3),
      ];
      return { cells, data: { method: g.method } };
    });
    fillTable(this.table, head, rows);
  }
}
