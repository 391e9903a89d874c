/**
 * The trajectory view's time plots: states (with the exact solution dashed), energy,
 * another output of your choice, the error against the exact solution and the step sizes
 * an adaptive method chose. Pinned runs are drawn on the same axes in their colours
 * (several runs share one time grid, the union of theirs), and every plot shows the time
 * cursor as a vertical marker. A system of many states (an indexed family `u[1]` …
 * `u[N]`) draws only the states picked in `#state-picker` — by default its plain states
 * and the first, middle and last element of each family; the heat map shows the rest.
 * Redraws from the store only.
 */
import { byId } from './dom';
import { isDrawOutput } from './drawing';
import { families } from './heatmap';
import { columns, errorSeries } from './format';
import { Plot, seriesStyle } from './plot';
import type { SeriesStyle } from './plot';
import { pinNames } from './pins';
import { resample, unionGrid } from './run';
import type { Run } from './run';
import type { Pin, Store } from './store';
import { CancelledError } from './client';
import type { EngineClient } from './client';
import { toSpec } from './settings';
import { fineGrid, setDenseExact, spansDecades } from './plot-data';

/** A run with more stored points than this draws its exact solution at them: already fine. */
const EXACT_DENSE_UP_TO = 20_000;

/** Colours of the live run's states (www/plot.ts `seriesStyle` picks from it). */
export { PALETTE } from './plot';
/** A pin's states share its colour; dashes tell them apart. */
const PIN_DASHES = [[], [6, 3], [2, 3], [8, 3, 2, 3]];

/** Up to this many states, the trajectory plot draws them all by default. */
const ALL_STATES_UP_TO = 12;

/** The states drawn by default: all of a small system; else the plain ones and the first, middle and last element of each indexed family. */
export function defaultStates(names: readonly string[]): Set<string> {
  if (names.length <= ALL_STATES_UP_TO) return new Set(names);
  const inFamily = new Set<string>();
  const picked = new Set<string>();
  for (const f of families(names)) {
    for (const c of f.columns) inFamily.add(names[c]);
    for (const k of [0, f.columns.length >> 1, f.columns.length - 1]) picked.add(names[f.columns[k]]);
  }
  for (const n of names) if (!inFamily.has(n)) picked.add(n);
  return picked;
}


/** One curve over its own time grid. */
interface Curve {
  style: SeriesStyle;
  t: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** Draws curves with different time grids on one plot (resampled onto the union grid). */
function setCurves(plot: Plot, curves: Curve[]): void {
  if (curves.length === 0) return;
  const first = curves[0].t;
  if (curves.every((c) => c.t === first)) {
    plot.setData(first, curves.map((c) => c.values));
    return;
  }
  const grid = unionGrid([...new Set(curves.map((c) => c.t))]);
  plot.setData(
    grid,
    curves.map((c) => resample(c.t, c.values, grid)),
  );
}

/** The time at which each step of a run ends, t[1..]: step i ends at t[i + 1]. */
function stepEnds(run: Run): Float64Array {
  // A view, not a copy: a long run has a million steps.
  return run.t instanceof Float64Array ? run.t.subarray(1) : Float64Array.from(run.t).subarray(1);
}

/** The steps an adaptive run took: h[i] ends at t[i + 1]. */
function stepCurve(run: Run): { t: ArrayLike<number>; values: ArrayLike<number> } | undefined {
  if (!run.h || run.h.length === 0) return undefined;
  return { t: stepEnds(run), values: run.h };
}

/**
 * What the error test judged for each step, at the step's end: the error estimate over
 * the tolerance, per unit step (divided by h) under an EPUS controller (Gil, Sanfelice &
 * Nikravesh (LLM) eq. 39) — accepted at 1 or below either way.
 */
function errorEstimateCurve(run: Run): { t: ArrayLike<number>; values: ArrayLike<number> } | undefined {
  const est = run.errEst;
  if (!est || est.length === 0) return undefined;
  const t = stepEnds(run);
  if (!run.settings.controller?.perUnitStep || !run.h) return { t, values: est };
  const h = run.h;
  return { t, values: Float64Array.from(est, (e, i) => e / h[i]) };
}

export class TimePlots {
  private plots: { trajectory: Plot; energy?: Plot; error?: Plot; steps?: Plot; estimate?: Plot; other?: Plot } | undefined;
  /** What the plots were built for (the run's shape and the pins), to rebuild only on change. */
  private builtFor = '';
  private readonly choice = byId<HTMLSelectElement>('output-choice');
  private readonly picker = byId<HTMLElement>('state-choices');
  /** The states the trajectory plot draws, and the run shape (state names) they are for. */
  private shown = new Set<string>();
  private pickerFor = '';
  /** The reader's choice of a log t axis (undefined: decided by `spansDecades`), and the model it was made on. */
  private logChoice: { log: boolean; model: string } | undefined;
  private readonly logBox = document.createElement('input');
  private readonly panel = document.getElementById('view-trajectory');

  /** The live run's exact solution on a fine grid (`fineGrid`), for the run it was asked for (`key`). */
  private dense: { key: string; t: Float64Array; exact: Float64Array } | undefined;
  private densePending = '';

  constructor(
    private readonly store: Store,
    private readonly engine?: EngineClient,
  ) {
    store.subscribe('run', () => this.draw());
    store.subscribe('pins', () => this.draw());
    store.subscribe('time', () => this.mark());
    this.choice.addEventListener('change', () => {
      this.builtFor = '';
      this.draw();
    });
    this.logBox.type = 'checkbox';
    this.logBox.id = 'log-time';
    const label = document.createElement('label');
    label.className = 'check log-time';
    label.title = 'Logarithmic time axis: for runs that span decades of t (it starts at the first positive t)';
    label.append(this.logBox, ' log t');
    // Beside the plot, not in its caption (the caption names the plot and its PNG).
    byId('plot-trajectory').after(label);
    this.logBox.addEventListener('change', () => {
      this.logChoice = { log: this.logBox.checked, model: this.store.run?.model.id ?? '' };
      this.draw();
    });
  }

  /** Whether the time plots use a log t axis for `run`: the reader's choice on this model, else `spansDecades`. */
  private logTime(run: Run): boolean {
    if (this.logChoice && this.logChoice.model === run.model.id) return this.logChoice.log;
    this.logChoice = undefined;
    return spansDecades(run.t, run.adaptive);
  }

  /** Every plot, for the marker and PNG export. */
  private all(): Plot[] {
    const p = this.plots;
    return p ? [p.trajectory, p.energy, p.error, p.steps, p.estimate, p.other].filter((x): x is Plot => x !== undefined) : [];
  }

  private mark(): void {
    for (const plot of this.all()) plot.setMarker(this.store.time);
  }

  /** The outputs worth a plot of their own (not energy, not a drawing). */
  private static others(run: Run): string[] {
    return Object.keys(run.outputs).filter((o) => o !== 'energy' && !isDrawOutput(o));
  }

  /** A checkbox per state of a new run shape, ticked as `defaultStates` says. */
  private pick(names: readonly string[]): void {
    const key = names.join('\u0000');
    if (key === this.pickerFor) return;
    this.pickerFor = key;
    this.shown = defaultStates(names);
    this.picker.replaceChildren(
      ...names.map((name) => {
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.checked = this.shown.has(name);
        box.dataset.state = name;
        box.addEventListener('change', () => {
          if (box.checked) this.shown.add(name);
          else this.shown.delete(name);
          this.draw();
        });
        const label = document.createElement('label');
        label.className = 'check';
        label.append(box, ` ${name}`);
        return label;
      }),
    );
  }

  /** Columns of `names` the trajectory plot draws. */
  private columnsShown(names: readonly string[]): number[] {
    return names.flatMap((n, i) => (this.shown.has(n) ? [i] : []));
  }

  private build(run: Run, pins: Pin[], logX: boolean): void {
    for (const plot of this.all()) plot.destroy();
    const names = run.names;
    const exact = run.model.exact && run.exact !== undefined;
    const live = this.columnsShown(names);
    // Styles by place among the lines drawn (not by column): no two drawn lines alike.
    const series: SeriesStyle[] = live.map((i, k) => ({ label: names[i], ...seriesStyle(k) }));
    if (exact) series.push(...live.map((i, k) => ({ label: `${names[i]} exact`, color: seriesStyle(k).color, dash: [6, 4] })));
    const pinned = pinNames(pins.map((p) => p.run), [run]);
    for (const [k, pin] of pins.entries()) {
      series.push(
        ...this.columnsShown(pin.run.names).map((j) => ({
          label: `${pin.run.names[j]} (${pinned[k]})`,
          color: pin.color,
          dash: PIN_DASHES[j % PIN_DASHES.length],
          faint: true,
        })),
      );
    }
    // Which figures this run shows, decided before any plot is built, so that every
    // target is measured in one layout (`widths`) instead of one forced layout per plot.
    const hasEnergy = 'energy' in run.outputs;
    byId('fig-energy').hidden = !hasEnergy;
    byId('fig-error').hidden = !exact;
    const others = TimePlots.others(run);
    byId('fig-outputs').hidden = others.length === 0;
    const previous = this.choice.value;
    this.choice.replaceChildren(...others.map((o) => new Option(o, o)));
    if (others.includes(previous)) this.choice.value = previous;
    // A fully driven mechanism in state-space form has no state to draw: say why, and
    // show the user's own output (else a coordinate) where the trajectory would be.
    const stateless = names.length === 0;
    byId('no-states').hidden = !stateless;
    if (stateless && !others.includes(previous)) {
      const own = others.find((o) => !/^(q:|λ:|constraint |velocity constraint )/.test(o));
      if (own) this.choice.value = own;
    }
    const chosen = this.choice.value;
    byId('fig-steps').hidden = !run.adaptive;
    // With no state there is no error to estimate: every step is accepted at its largest.
    const estimated = run.adaptive && !stateless && (run.errEst?.length ?? 0) > 0;
    byId('fig-estimate').hidden = !estimated;
    const ids = ['plot-trajectory', 'plot-energy', 'plot-outputs', 'plot-error', 'plot-steps', 'plot-estimate'];
    const widths = new Map(ids.map((id) => [id, byId(id).clientWidth]));
    /** A small plot of one quantity of the live run (its colour) and of every pin. */
    const small = (id: string, label: string, color: string, yLabel = label, logY = false): Plot =>
      new Plot(byId(id), {
        xLabel: 't',
        height: 200,
        yLabel,
        logY,
        width: widths.get(id),
        logX,
        series: [{ label, color }, ...pins.map((pin, k) => ({ label: `${label} (${pinned[k]})`, color: pin.color, faint: true }))],
      });
    this.plots = {
      trajectory: new Plot(byId('plot-trajectory'), { xLabel: 't', yLabel: 'state', series, width: widths.get('plot-trajectory'), logX }),
      energy: hasEnergy ? small('plot-energy', 'energy', '#c92a2a') : undefined,
      // Constraint drift spans decades: a log axis shows it.
      other: chosen
        ? small('plot-outputs', chosen, '#2b8a3e', chosen, chosen.startsWith('constraint') || chosen.startsWith('velocity constraint'))
        : undefined,
      error: exact ? small('plot-error', 'max error', '#5f3dc4', '|y − y_exact|', true) : undefined,
      steps: run.adaptive ? small('plot-steps', 'h', '#0b7285', 'step size h', true) : undefined,
      estimate: estimated ? small('plot-estimate', 'error estimate', '#e8590c', 'estimate / tolerance', true) : undefined,
    };
  }

  /**
   * The live run's exact solution on `fineGrid(run.t)`, once the worker has sampled it
   * (asked for on the first draw of a run, which redraws when it comes); undefined until
   * then, or when the run's own points are already fine.
   */
  private denseExact(run: Run): { t: Float64Array; exact: Float64Array } | undefined {
    const n = run.t.length;
    if (!this.engine || n < 2 || n > EXACT_DENSE_UP_TO) return undefined;
    const spec = toSpec(run.settings, run.model, run.method);
    const key = JSON.stringify([spec, run.t[0], run.t[n - 1], n]);
    if (this.dense?.key === key) return this.dense;
    if (this.densePending !== key) {
      this.densePending = key;
      const t = fineGrid(run.t);
      const dim = run.names.length;
      this.engine
        .exactAt(spec, t)
        .then((exact) => {
          if (!exact || exact.length !== t.length * dim) return;
          this.dense = { key, t, exact };
          if (this.store.run !== run) return;
          setDenseExact(run, { t, exact });
          this.draw();
        })
        // The step points stay; a cancelled worker (a new run started) may be asked again.
        .catch((e: unknown) => {
          if (e instanceof CancelledError && this.densePending === key) this.densePending = '';
        });
    }
    return undefined;
  }

  /** Redraws every plot from the store's run and visible pins. */
  draw(): void {
    const run = this.store.run;
    // A read-only embed of another view never shows these plots (www/main.ts marks the
    // panel `data-dormant`): building and drawing them would be work for no reader.
    if (!run || this.panel?.dataset.dormant !== undefined) return;
    const pins = this.store.shownPins;
    this.pick(run.names);
    const summary = document.querySelector('#state-picker summary');
    if (summary) summary.textContent = `States drawn (${this.shown.size} of ${run.names.length})`;
    const logX = this.logTime(run);
    this.logBox.checked = logX;
    const key = JSON.stringify([
      logX,
      run.names,
      [...this.shown],
      Object.keys(run.outputs),
      run.model.exact && run.exact !== undefined,
      run.adaptive,
      (run.errEst?.length ?? 0) > 0,
      pins.map((p) => [p.id, p.color, p.run.names]),
    ]);
    if (key !== this.builtFor || !this.plots) {
      this.build(run, pins, logX);
      this.builtFor = key;
    }
    const plots = this.plots;
    if (!plots) return;
    const dim = run.names.length;
    const curve = (t: ArrayLike<number>, values: ArrayLike<number>): Curve => ({ style: { label: '', color: '' }, t, values });
    const live = this.columnsShown(run.names);
    const picked = (values: ArrayLike<number>, width: number, which: number[]): ArrayLike<number>[] => {
      const all = columns(values, width);
      return which.map((j) => all[j]);
    };
    const states: Curve[] = live.map((j) => curve(run.t, run.yColumns[j]));
    const exact = run.model.exact && run.exact !== undefined;
    // The exact solution smooth: on a fine grid when the worker has sampled it, else at the step points.
    const dense = exact ? this.denseExact(run) : undefined;
    if (dense) states.push(...picked(dense.exact, dim, live).map((c) => curve(dense.t, c)));
    else if (exact && run.exact) states.push(...picked(run.exact, dim, live).map((c) => curve(run.t, c)));
    byId('plot-trajectory').dataset.exactPoints = String(dense ? dense.t.length : exact ? run.t.length : 0);
    for (const pin of pins) states.push(...this.columnsShown(pin.run.names).map((j) => curve(pin.run.t, pin.run.yColumns[j])));
    setCurves(plots.trajectory, states);
    // The other plots: the live run, then each pin (a gap where a pin lacks the quantity).
    const withPins = (plot: Plot | undefined, of: (r: Run) => { t: ArrayLike<number>; values: ArrayLike<number> } | undefined): void => {
      const live = of(run);
      if (!plot || !live) return;
      const nan = { t: run.t, values: new Float64Array(run.t.length).fill(NaN) };
      setCurves(plot, [live, ...pins.map((p) => of(p.run) ?? nan)].map((c) => curve(c.t, c.values)));
    };
    const output = (name: string) => (r: Run) => (r.outputs[name] ? { t: r.t, values: r.outputs[name] } : undefined);
    withPins(plots.energy, output('energy'));
    withPins(plots.other, output(this.choice.value));
    withPins(plots.error, (r) =>
      r.exact ? { t: r.t, values: errorSeries(r.y, r.exact, r.names.length) } : undefined,
    );
    withPins(plots.steps, stepCurve);
    withPins(plots.estimate, errorEstimateCurve);
    this.mark();
    document.body.dataset.points = String(run.t.length);
  }
}
