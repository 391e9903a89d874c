/**
 * The trajectory view: pick a model (or type your own system), a method, h or the
 * tolerances, and t1; see the states against time, the energy, the error against the
 * exact solution where the model knows it, and the step sizes an adaptive method chose.
 * Every change re-solves in the engine worker and redraws; "Animate" advances a run kept
 * in the worker a few steps per frame. This view only draws (www/client.ts computes).
 */
import { byId, fillDefinitions, fillTable } from './dom';
import { CancelledError } from './client';
import type { EngineClient, RunHandle } from './client';
import type { MethodInfo, ModelInfo, Solution, SolveSpec, TableauAnalysis, TableauSpec } from './engine';
import { download, runToCsv } from './export';
import {
  columns,
  defaultBounds,
  errorSeries,
  formatNumber,
  logToValue,
  niceStep,
  relativeDrift,
  sliderPosition,
  sliderValue,
  valueToLog,
} from './format';
import type { LogScale } from './format';
import { HeatMap } from './heatmap';
import { Plot } from './plot';
import type { Catalog } from './protocol';
import { CUSTOM, DEFAULT_SYSTEM, toSpec } from './settings';
import type { RunSettings } from './settings';

const PALETTE = ['#1f5fbf', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285', '#5c940d', '#e67700'];
const H_SCALE: LogScale = { min: 1e-5, max: 0.5, steps: 500 };
const RTOL_SCALE: LogScale = { min: 1e-12, max: 1e-1, steps: 110 };
/** How many animation frames a fixed-step run takes, about. */
const ANIMATION_FRAMES = 240;
/** Steps per frame when animating an adaptive run (its step count is not known ahead). */
const ADAPTIVE_STEPS_PER_FRAME = 4;
/** A solve that takes longer than this shows the Cancel button. */
const SHOW_CANCEL_AFTER_MS = 150;
/** Pause after typing in the system editor before it is parsed. */
const EDIT_DEBOUNCE_MS = 250;



function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

type Status = 'ok' | 'warning' | 'error' | 'running' | 'computing';

export class TrajectoryView {
  private readonly modelList: ModelInfo[];
  private readonly methodList: MethodInfo[];
  /** Your own method (the tableau tab's), once there is one. */
  private custom: { tableau: TableauSpec; info: MethodInfo } | undefined;
  private model: ModelInfo;
  private plots: { trajectory: Plot; energy?: Plot; error?: Plot; steps?: Plot; other?: Plot } | undefined;
  /**
   * What the plots are built for: the state names and outputs of the run. They are the
   * model's, except in an augmented or state-space formulation (other coordinates).
   */
  private shape: { names: string[]; outputs: string[]; exact: boolean } = { names: [], outputs: [], exact: false };
  private animation: { handle: RunHandle; frame: number; stopped: boolean } | undefined;
  /** A solve is in flight; `queued` says the controls changed meanwhile. */
  private inflight = false;
  private queued = false;
  private editTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last run drawn, for export. */
  private last:
    | {
        t: ArrayLike<number>;
        y: ArrayLike<number>;
        outputs: Record<string, ArrayLike<number>>;
        exact?: ArrayLike<number>;
        h?: ArrayLike<number>;
        constraint?: Solution['constraint'];
      }
    | undefined;
  /** Called after every successful run with the settings it used (e.g. to update the URL). */
  onRun: (settings: RunSettings) => void = () => undefined;
  /** Settles when the latest solve (and any coalesced follow-up) has been drawn. */
  private current: Promise<void> = Promise.resolve();

  private readonly modelSelect = byId<HTMLSelectElement>('model');
  private readonly methodSelect = byId<HTMLSelectElement>('method');
  private readonly systemBox = byId<HTMLElement>('system-box');
  private readonly systemText = byId<HTMLTextAreaElement>('system');
  private readonly systemError = byId<HTMLElement>('system-error');
  private readonly fixedBox = byId<HTMLElement>('fixed-box');
  private readonly hSlider = byId<HTMLInputElement>('h-slider');
  private readonly hInput = byId<HTMLInputElement>('h');
  private readonly adaptiveBox = byId<HTMLElement>('adaptive-box');
  private readonly rtolSlider = byId<HTMLInputElement>('rtol-slider');
  private readonly rtolInput = byId<HTMLInputElement>('rtol');
  private readonly atolInput = byId<HTMLInputElement>('atol');
  private readonly hMaxInput = byId<HTMLInputElement>('hmax');
  private readonly fixedStepBox = byId<HTMLElement>('fixed-step-box');
  private readonly fixedStep = byId<HTMLInputElement>('fixed-step');
  private readonly formulationBox = byId<HTMLElement>('formulation-box');
  private readonly formulationSelect = byId<HTMLSelectElement>('formulation');
  private readonly stabilizationBox = byId<HTMLElement>('stabilization-box');
  private readonly stabilizationSelect = byId<HTMLSelectElement>('stabilization');
  private readonly t1Input = byId<HTMLInputElement>('t1');
  private readonly paramsBox = byId<HTMLElement>('params');
  /** Heat map and profile of an indexed family (`u[1]` … `u[N]`). */
  private readonly heatmap = new HeatMap(byId('fig-heatmap'));
  private readonly eventsBox = byId<HTMLElement>('events-box');
  private readonly eventsCheck = byId<HTMLInputElement>('events');
  private readonly animateButton = byId<HTMLButtonElement>('animate');
  private readonly cancelButton = byId<HTMLButtonElement>('cancel');
  private readonly messageBox = byId<HTMLElement>('message');
  private readonly stats = byId<HTMLElement>('stats');

  constructor(
    private readonly engine: EngineClient,
    catalog: Catalog,
  ) {
    this.modelList = catalog.models;
    this.methodList = catalog.methods;
    for (const m of this.modelList) this.modelSelect.add(new Option(m.name, m.id));
    this.modelSelect.add(new Option('Your own system…', CUSTOM));
    const families = [...new Set(this.methodList.map((m) => m.family))];
    for (const family of families) {
      const group = document.createElement('optgroup');
      group.label = family;
      for (const m of this.methodList.filter((x) => x.family === family)) {
        group.append(new Option(`${m.name} (order ${m.order})`, m.id));
      }
      this.methodSelect.append(group);
    }
    this.model = this.modelList[0];
    this.hSlider.max = String(H_SCALE.steps);
    this.rtolSlider.max = String(RTOL_SCALE.steps);
    this.setH(0.01);
    this.setRtol(1e-6);
    this.atolInput.value = '1e-9';
    this.systemText.value = DEFAULT_SYSTEM;

    this.modelSelect.addEventListener('change', () => void this.selectModel(this.modelSelect.value));
    this.methodSelect.addEventListener('change', () => {
      this.showMethodControls();
      void this.run();
    });
    this.hSlider.addEventListener('input', () => {
      this.hInput.value = String(niceStep(logToValue(H_SCALE, Number(this.hSlider.value))));
      void this.run();
    });
    this.hInput.addEventListener('input', () => {
      const h = Number(this.hInput.value);
      if (h > 0) this.hSlider.value = String(valueToLog(H_SCALE, h));
      void this.run();
    });
    this.rtolSlider.addEventListener('input', () => {
      this.rtolInput.value = String(niceStep(logToValue(RTOL_SCALE, Number(this.rtolSlider.value))));
      void this.run();
    });
    this.rtolInput.addEventListener('input', () => {
      const r = Number(this.rtolInput.value);
      if (r > 0) this.rtolSlider.value = String(valueToLog(RTOL_SCALE, r));
      void this.run();
    });
    this.atolInput.addEventListener('input', () => void this.run());
    this.hMaxInput.addEventListener('input', () => void this.run());
    this.fixedStep.addEventListener('change', () => {
      this.showMethodControls();
      void this.run();
    });
    this.t1Input.addEventListener('input', () => void this.run());
    this.eventsCheck.addEventListener('change', () => void this.run());
    this.systemText.addEventListener('input', () => {
      clearTimeout(this.editTimer);
      this.editTimer = setTimeout(() => void this.describeSystem(), EDIT_DEBOUNCE_MS);
    });
    this.animateButton.addEventListener('click', () => (this.animation ? this.stopAnimation() : void this.animate()));
    byId('export-csv').addEventListener('click', () => this.exportCsv());
    byId('compare').addEventListener('click', () => void this.compare());
    byId('output-choice').addEventListener('change', () => {
      this.buildPlots(this.shape);
      if (this.last) this.draw(this.last.t, this.last.y, this.last.outputs.energy, this.last.exact, this.last.h);
      this.drawOther();
    });
    this.formulationSelect.addEventListener('change', () => {
      this.stabilizationBox.hidden = this.formulationSelect.value !== 'augmented';
      void this.run();
    });
    this.stabilizationSelect.addEventListener('change', () => void this.run());
    byId('compare-formulations').addEventListener('click', () => void this.compareFormulations());
    for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-png]')) {
      button.addEventListener('click', () => this.exportPng(button.dataset.png ?? ''));
    }
    this.cancelButton.addEventListener('click', () => {
      this.queued = false;
      this.engine.cancel();
    });
  }

  /** Applies settings (all optional) and draws. */
  async start(settings: Partial<RunSettings> = {}): Promise<void> {
    if (settings.system !== undefined) this.systemText.value = settings.system;
    if (settings.method && this.methodList.some((m) => m.id === settings.method)) {
      this.methodSelect.value = settings.method;
    }
    if (settings.h !== undefined) this.setH(settings.h);
    if (settings.rtol !== undefined) this.setRtol(settings.rtol);
    if (settings.atol !== undefined) this.atolInput.value = String(settings.atol);
    this.hMaxInput.value = settings.hMax !== undefined ? String(settings.hMax) : '';
    this.fixedStep.checked = settings.fixedStep ?? false;
    this.formulationSelect.value = settings.formulation ?? 'native';
    this.stabilizationSelect.value = settings.stabilization ?? 'none';
    this.stabilizationBox.hidden = this.formulationSelect.value !== 'augmented';
    this.eventsCheck.checked = settings.events ?? false;
    await this.selectModel(settings.model ?? 'pendulum', settings);
  }

  /** The settings the controls describe (empty fields read as NaN, which the engine refuses). */
  settings(): RunSettings {
    const num = (input: HTMLInputElement): number => (input.value === '' ? NaN : Number(input.value));
    const params: Record<string, number> = {};
    for (const input of this.paramsBox.querySelectorAll<HTMLInputElement>('input[data-param]')) {
      const name = input.dataset.param;
      if (name) params[name] = num(input);
    }
    const custom = this.model.id === CUSTOM;
    const adaptive = this.adaptive();
    const hMax = this.hMaxInput.value === '' ? {} : { hMax: num(this.hMaxInput) };
    return {
      model: custom ? CUSTOM : this.model.id,
      method: this.methodSelect.value,
      ...(custom ? { system: this.systemText.value } : {}),
      ...(adaptive ? { rtol: num(this.rtolInput), atol: num(this.atolInput), ...hMax } : { h: num(this.hInput) }),
      ...(this.fixedStep.checked && !this.fixedStepBox.hidden ? { fixedStep: true } : {}),
      t1: num(this.t1Input),
      params,
      ...(this.eventsBox.hidden ? {} : { events: this.eventsCheck.checked }),
      ...(this.methodSelect.value === CUSTOM && this.custom ? { tableau: this.custom.tableau } : {}),
      ...(!this.formulationBox.hidden && this.formulationSelect.value !== 'native'
        ? {
            formulation: this.formulationSelect.value,
            ...(this.formulationSelect.value === 'augmented' && this.stabilizationSelect.value !== 'none'
              ? { stabilization: this.stabilizationSelect.value }
              : {}),
          }
        : {}),
    };
  }

  private setH(h: number): void {
    this.hInput.value = String(h);
    this.hSlider.value = String(valueToLog(H_SCALE, h));
  }

  private setRtol(r: number): void {
    this.rtolInput.value = String(r);
    this.rtolSlider.value = String(valueToLog(RTOL_SCALE, r));
  }

  private method(): MethodInfo | undefined {
    if (this.methodSelect.value === CUSTOM) return this.custom?.info;
    return this.methodList.find((m) => m.id === this.methodSelect.value);
  }

  /**
   * Makes your tableau the method `custom` (adaptive when it has embedded weights) and
   * selects it.
   */
  async useTableau(tableau: TableauSpec, analysis: TableauAnalysis): Promise<void> {
    const info: MethodInfo = {
      ...this.methodList[0],
      id: CUSTOM,
      name: 'Your method',
      order: analysis.order,
      family: 'your tableau',
      source: 'the tableau tab',
      stages: analysis.stages,
      adaptive: analysis.embeddedOrder !== undefined,
      embeddedOrder: analysis.embeddedOrder,
      fsal: false,
    };
    this.custom = { tableau, info };
    let option = [...this.methodSelect.options].find((o) => o.value === CUSTOM);
    if (!option) {
      option = new Option('', CUSTOM);
      this.methodSelect.add(option);
    }
    option.textContent = `Your method (order ${analysis.order})`;
    this.methodSelect.value = CUSTOM;
    this.showMethodControls();
    await this.run();
  }

  /** The method adapts its step in this run (it can, and fixed step is not ticked). */
  private adaptive(): boolean {
    return (this.method()?.adaptive ?? false) && !this.fixedStep.checked;
  }

  private showMethodControls(): void {
    const adaptive = this.adaptive();
    this.fixedStepBox.hidden = !(this.method()?.adaptive ?? false);
    this.fixedBox.hidden = adaptive;
    this.adaptiveBox.hidden = !adaptive;
    if (this.plots) this.buildPlots();
  }

  private async selectModel(id: string, settings: Partial<RunSettings> = {}): Promise<void> {
    this.stopAnimation();
    this.modelSelect.value = id;
    this.systemBox.hidden = id !== CUSTOM;
    if (id === CUSTOM) {
      const info = await this.describe();
      if (!info) return;
      this.model = info;
    } else {
      this.model = this.modelList.find((m) => m.id === id) ?? this.modelList[0];
      this.modelSelect.value = this.model.id;
    }
    this.t1Input.value = String(settings.t1 ?? this.model.t1);
    this.applyModel(settings.params);
    await this.run();
  }

  /** Parses the system text in the worker; shows the error under the editor if it fails. */
  private async describe(): Promise<ModelInfo | undefined> {
    try {
      const info = await this.engine.describe(this.systemText.value);
      this.systemError.hidden = true;
      this.systemError.textContent = '';
      return info;
    } catch (e) {
      if (e instanceof CancelledError) return undefined;
      this.systemError.hidden = false;
      this.systemError.textContent = message(e);
      this.setStatus('error', 'Your system has an error: see under the editor.');
      return undefined;
    }
  }

  private async describeSystem(): Promise<void> {
    const info = await this.describe();
    if (!info) return;
    const sameShape =
      info.names.join() === this.model.names.join() &&
      info.params.map((p) => p.name).join() === this.model.params.map((p) => p.name).join() &&
      info.outputs.join() === this.model.outputs.join();
    const previous = this.spec().params;
    this.model = info;
    if (!sameShape) this.applyModel(previous);
    else this.renderSource();
    await this.run();
  }

  private renderSource(): void {
    const events = this.model.events.map((e) => e.id);
    byId('model-source').textContent =
      `${this.model.source}; states ${this.model.names.join(', ')}` +
      (this.model.fast.length ? `; fast: ${this.model.fast.map((i) => this.model.names[i]).join(', ')}` : '');
    this.eventsBox.hidden = events.length === 0 || this.model.events.every((e) => e.watched);
    this.formulationBox.hidden = this.model.formulations.length === 0;
    byId('compare-formulations').hidden = this.formulationBox.hidden;
    byId('formulations-box').hidden = true;
    byId('events-label').textContent = `Locate events (${events.join(', ')})`;
  }

  private applyModel(params?: Record<string, number>): void {
    this.renderSource();
    this.renderParams(params);
    this.showMethodControls();
    this.buildPlots();
  }

  private renderParams(values: Record<string, number> = {}): void {
    this.paramsBox.replaceChildren();
    const legend = document.createElement('legend');
    legend.textContent = 'Parameters';
    this.paramsBox.append(legend);
    this.paramsBox.hidden = this.model.params.length === 0;
    const STEPS = 200;
    for (const p of this.model.params) {
      const value = values[p.name] ?? p.value;
      const bounds = defaultBounds(p.value, p.greaterThan);
      const row = document.createElement('div');
      row.className = 'param';
      row.title = p.description;
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'number';
      // An array size (N) steps by whole numbers; changing it re-builds the system.
      input.step = p.integer ? '1' : 'any';
      input.value = String(value);
      input.dataset.param = p.name;
      label.append(p.unit ? `${p.name} (${p.unit})` : p.name, input);
      const bound = (v: number, what: string): HTMLInputElement => {
        const b = document.createElement('input');
        b.type = 'number';
        b.step = 'any';
        b.value = String(Number(v.toPrecision(3)));
        b.className = 'bound';
        b.setAttribute('aria-label', `${what} of the ${p.name} slider`);
        return b;
      };
      const lo = bound(bounds.min, 'lower end');
      const hi = bound(bounds.max, 'upper end');
      const slider = document.createElement('input');
      slider.type = 'range';
      slider.min = '0';
      slider.max = String(STEPS);
      slider.dataset.slider = p.name;
      slider.setAttribute('aria-label', `${p.name} slider`);
      const place = (): void => {
        slider.value = String(sliderPosition(Number(input.value), Number(lo.value), Number(hi.value), STEPS));
      };
      place();
      slider.addEventListener('input', () => {
        const v = sliderValue(Number(slider.value), Number(lo.value), Number(hi.value), STEPS);
        input.value = String(p.integer ? Math.max(1, Math.round(v)) : v);
        void this.run();
      });
      input.addEventListener('input', () => {
        place();
        void this.run();
      });
      lo.addEventListener('input', place);
      hi.addEventListener('input', place);
      const range = document.createElement('div');
      range.className = 'param-range';
      range.append(lo, slider, hi);
      row.append(label, range);
      this.paramsBox.append(row);
    }
  }

  private buildPlots(shape = { names: this.model.names, outputs: this.model.outputs, exact: this.model.exact }): void {
    if (this.plots) {
      this.plots.trajectory.destroy();
      this.plots.energy?.destroy();
      this.plots.error?.destroy();
      this.plots.steps?.destroy();
      this.plots.other?.destroy();
    }
    this.shape = shape;
    const names = shape.names;
    const series = names.map((n, i) => ({ label: n, color: PALETTE[i % PALETTE.length] }));
    if (shape.exact) {
      series.push(...names.map((n, i) => ({ label: `${n} exact`, color: PALETTE[i % PALETTE.length], dash: [6, 4] })));
    }
    const trajectory = new Plot(byId('plot-trajectory'), { xLabel: 't', yLabel: 'state', series });
    const hasEnergy = shape.outputs.includes('energy');
    const adaptive = this.adaptive();
    byId('fig-energy').hidden = !hasEnergy;
    byId('fig-error').hidden = !shape.exact;
    const others = shape.outputs.filter((o) => o !== 'energy');
    byId('fig-outputs').hidden = others.length === 0;
    const choice = byId<HTMLSelectElement>('output-choice');
    const previous = choice.value;
    choice.replaceChildren(...others.map((o) => new Option(o, o)));
    if (others.includes(previous)) choice.value = previous;
    const chosen = choice.value;
    byId('fig-steps').hidden = !adaptive;
    const small = { xLabel: 't', height: 200 };
    this.plots = {
      trajectory,
      energy: hasEnergy
        ? new Plot(byId('plot-energy'), { ...small, yLabel: 'energy', series: [{ label: 'energy', color: '#c92a2a' }] })
        : undefined,
      other: chosen
        ? new Plot(byId('plot-outputs'), {
            ...small,
            yLabel: chosen,
            series: [{ label: chosen, color: '#2b8a3e' }],
            // Constraint drift spans decades: a log axis shows it.
            logY: chosen.startsWith('constraint') || chosen.startsWith('velocity constraint'),
          })
        : undefined,
      error: shape.exact
        ? new Plot(byId('plot-error'), {
            ...small,
            yLabel: '|y − y_exact|',
            series: [{ label: 'max error', color: '#5f3dc4' }],
            logY: true,
          })
        : undefined,
      steps: adaptive
        ? new Plot(byId('plot-steps'), {
            ...small,
            yLabel: 'step size h',
            series: [{ label: 'h', color: '#0b7285' }],
            logY: true,
          })
        : undefined,
    };
  }

  /** The spec the controls describe. */
  spec(): SolveSpec {
    return toSpec(this.settings(), this.model, this.method());
  }

  /**
   * Solves the current spec in the worker and redraws; a bad spec shows its message and
   * changes nothing else. While a solve is in flight, further changes coalesce into one
   * more solve of the latest settings (dragging a slider never queues a backlog).
   */
  run(): Promise<void> {
    this.stopAnimation();
    byId('compare-box').hidden = true;
    if (this.inflight) {
      this.queued = true;
      return this.current;
    }
    this.inflight = true;
    const showCancel = setTimeout(() => {
      this.cancelButton.hidden = false;
      this.setStatus('computing', '');
    }, SHOW_CANCEL_AFTER_MS);
    const settings = this.settings();
    this.current = this.engine
      .solve(toSpec(settings, this.model, this.method()))
      .then((sol: Solution) => {
        this.last = { t: sol.t, y: sol.y, outputs: sol.outputs, exact: sol.exact, h: sol.h, constraint: sol.constraint };
        const outputs = Object.keys(sol.outputs);
        if (sol.names.join() !== this.shape.names.join() || outputs.join() !== this.shape.outputs.join()) {
          this.buildPlots({ names: sol.names, outputs, exact: this.model.exact && sol.exact !== undefined });
        }
        this.draw(sol.t, sol.y, sol.outputs.energy, sol.exact, sol.h);
        this.heatmap.update(sol.t, sol.y, sol.names);
        this.drawOther();
        this.setStatus(sol.warning ? 'warning' : 'ok', sol.warning ?? '');
        this.showStats(sol, sol.t, sol.y, sol.outputs.energy, sol.exact);
        this.onRun(settings);
      })
      .catch((e: unknown) => {
        if (e instanceof CancelledError) this.setStatus('warning', 'Cancelled; change a setting to run again.');
        else this.setStatus('error', message(e));
      })
      .finally(() => {
        clearTimeout(showCancel);
        this.cancelButton.hidden = true;
        this.inflight = false;
        if (this.queued) {
          this.queued = false;
          return this.run();
        }
      });
    return this.current;
  }

  private draw(
    t: ArrayLike<number>,
    y: ArrayLike<number>,
    energy?: ArrayLike<number>,
    exact?: ArrayLike<number>,
    h?: ArrayLike<number>,
  ): void {
    if (!this.plots) return;
    const dim = this.shape.names.length;
    const cols: ArrayLike<number>[] = columns(y, dim);
    if (this.shape.exact) {
      cols.push(...(exact ? columns(exact, dim) : gapColumns(dim, t.length)));
    }
    this.plots.trajectory.setData(t, cols);
    if (energy) this.plots.energy?.setData(t, [energy]);
    if (exact) this.plots.error?.setData(t, [errorSeries(y, exact, dim)]);
    if (h && h.length > 0 && this.plots.steps) {
      // h[i] is the step that ends at t[i + 1].
      this.plots.steps.setData(Array.prototype.slice.call(t, 1), [h]);
    }
    document.body.dataset.points = String(t.length);
  }

  private showStats(
    sol: { stats: { nfev: number; naccept: number; nreject: number }; events?: { t: number }[] },
    t: ArrayLike<number>,
    y: ArrayLike<number>,
    energy?: ArrayLike<number>,
    exact?: ArrayLike<number>,
  ): void {
    const rows: [string, string][] = [['steps', String(sol.stats.naccept)]];
    if (sol.stats.nreject > 0 || this.adaptive()) rows.push(['rejected', String(sol.stats.nreject)]);
    rows.push(['f-evaluations', String(sol.stats.nfev)], ['reached t', formatNumber(t[t.length - 1] ?? NaN)]);
    if (energy && energy.length > 0) {
      // Relative drift needs a nonzero reference; a run from E0 = 0 (the spring from
      // rest) gets the absolute change instead.
      if (energy[0] !== 0) rows.push(['energy drift', `${formatNumber(100 * relativeDrift(energy), 3)} %`]);
      else rows.push(['energy change', formatNumber(energy[energy.length - 1] - energy[0], 3)]);
    }
    if (exact) {
      const err = errorSeries(y, exact, this.shape.names.length);
      rows.push(['max error', formatNumber(err.reduce((a, b) => Math.max(a, b), 0), 3)]);
    }
    if (sol.events && sol.events.length > 0) {
      rows.push(['events', `${sol.events.length} (first at t = ${formatNumber(sol.events[0].t)})`]);
    }
    fillDefinitions(this.stats, 'stat', rows);
  }

  /**
   * Compares the current run with a reference run of the same model over the same
   * interval (dp45 at rtol 1e-12, or ros4 at 1e-10 for the stiff methods' runs), as seed
   * 001 §3.1 does in its Tables 4 and 6.
   */
  async compare(): Promise<void> {
    const spec = this.spec();
    const stiff = ['ros4', 'w2', 'llm', 'backward-euler', 'bdf2', 'slowfast', 'ros4-t2'].includes(spec.method);
    const reference: SolveSpec = {
      ...(spec.system !== undefined ? { system: spec.system } : { model: spec.model }),
      params: spec.params,
      t1: spec.t1,
      method: stiff ? 'ros4' : 'dp45',
      rtol: stiff ? 1e-10 : 1e-12,
      atol: stiff ? 1e-12 : 1e-14,
      maxSteps: 2_000_000,
    };
    if (spec.events) reference.events = spec.events;
    const caption = byId('compare-caption');
    byId('compare-box').hidden = false;
    caption.textContent = `Running the reference (${reference.method}, rtol ${reference.rtol})…`;
    try {
      const c = await this.engine.compare(spec, reference);
      caption.textContent =
        `Against ${reference.method} at rtol ${reference.rtol} (${c.referenceStats.nfev} f-evaluations), ` +
        'interpolated by a cubic spline:';
      fillTable(
        byId('compare-table'),
        ['state', 'max error Δ', 't*', 'relative', 'RMS'],
        c.table.map((r) => ({
          cells: [r.name, formatNumber(r.maxError, 3), formatNumber(r.tMax, 4), formatNumber(r.relativeError, 3), formatNumber(r.rmsError, 3)],
          data: { state: r.name },
        })),
      );
    } catch (e) {
      if (e instanceof CancelledError) return;
      caption.textContent = e instanceof Error ? e.message : String(e);
      byId('compare-table').replaceChildren();
    }
  }

  /**
   * The augmented and the state-space formulation of the current mechanism side by side
   * against a fine reference, in the layout of seed 001 Tables 4–6.
   */
  async compareFormulations(): Promise<void> {
    const box = byId('formulations-box');
    const caption = byId('formulations-caption');
    box.hidden = false;
    caption.textContent = 'Running both formulations and the reference…';
    const { formulation: _ignored, ...spec } = this.spec();
    void _ignored;
    try {
      const c = await this.engine.formulations(spec);
      const [position, rate] = [c.rows[0]?.position.quantity ?? 'φ1', c.rows[0]?.velocity.quantity ?? 'φ̇1'];
      caption.textContent = `${c.model}, ${c.method}; reference: ${c.reference} (${c.referenceSteps} steps). Errors of ${position} and ${rate}:`;
      const head = ['formulation', 'steps', 'rejected', 'f-evals', 'max ‖Φ‖', 'ms', `${position}: t*`, 'Δ', 'RelErr %', 'RMS', `${rate}: Δ`];
      const rows = c.rows.map((r) => {
        const cells = [
          r.formulation,
          String(r.naccept),
          String(r.nreject),
          String(r.nfev),
          formatNumber(r.maxDrift, 2),
          formatNumber(r.timeMs, 3),
          formatNumber(r.position.tStar, 4),
          formatNumber(r.position.max, 3),
          formatNumber(r.position.relErrPercent, 3),
          formatNumber(r.position.rms, 3),
          formatNumber(r.velocity.max, 3),
        ];
        return { cells, data: { formulation: r.formulation } };
      });
      fillTable(byId('formulations-table'), head, rows);
    } catch (e) {
      if (e instanceof CancelledError) return;
      caption.textContent = e instanceof Error ? e.message : String(e);
      byId('formulations-table').replaceChildren();
    }
  }

  /** Draws the output chosen under "Other outputs" from the last run. */
  private drawOther(): void {
    const name = byId<HTMLSelectElement>('output-choice').value;
    const series = this.last?.outputs[name];
    if (this.last && series) this.plots?.other?.setData(this.last.t, [series]);
  }

  /**
   * The last run drawn (t, row-major y of `dim` columns), if any; `native` is false when
   * its states are an augmented or state-space formulation's body coordinates, not the
   * model's own (so the model's ∂f/∂y does not apply to them: `constraint` then says
   * which formulation and, for state-space, which coordinates were independent when).
   */
  lastRun():
    | { t: ArrayLike<number>; y: ArrayLike<number>; dim: number; native: boolean; constraint?: Solution['constraint'] }
    | undefined {
    if (!this.last) return undefined;
    const names = this.shape.names;
    return {
      t: this.last.t,
      y: this.last.y,
      dim: names.length,
      native: names.join() === this.model.names.join(),
      constraint: this.last.constraint,
    };
  }

  /** The model currently shown. */
  modelInfo(): ModelInfo {
    return this.model;
  }

  private exportCsv(): void {
    if (!this.last) return;
    // The run's own state names: a formulation's coordinates differ from the model's.
    const csv = runToCsv(this.last.t, this.last.y, this.shape.names, this.last.outputs);
    download(`odelab-${this.model.id}-${this.methodSelect.value}.csv`, new Blob([csv], { type: 'text/csv' }));
  }

  private exportPng(plotId: string): void {
    const canvas = document.querySelector<HTMLCanvasElement>(`#${plotId} canvas`);
    canvas?.toBlob((blob) => {
      if (blob) download(`odelab-${this.model.id}-${this.methodSelect.value}-${plotId.replace('plot-', '')}.png`, blob);
    }, 'image/png');
  }

  /** Shows a message without changing what is drawn (e.g. why a link was not used). */
  notice(text: string): void {
    this.setStatus('warning', text);
  }

  private setStatus(status: Status, text: string): void {
    document.body.dataset.status = status;
    this.messageBox.hidden = text === '';
    this.messageBox.textContent = text;
    this.messageBox.className = status;
  }

  /** Advances a run in the worker a few steps per animation frame, drawing as it goes. */
  private async animate(): Promise<void> {
    this.stopAnimation();
    let handle: RunHandle;
    try {
      handle = await this.engine.open(this.spec());
    } catch (e) {
      this.setStatus('error', message(e));
      return;
    }
    const nOut = this.model.outputs.length;
    const energyIndex = this.model.outputs.indexOf('energy');
    const t: number[] = [handle.start.t];
    const y: number[] = Array.from(handle.start.y);
    const energy: number[] = energyIndex >= 0 ? [handle.start.outputs[energyIndex]] : [];
    const exact: number[] | undefined = handle.start.exact ? Array.from(handle.start.exact) : undefined;
    const h: number[] = [];
    const perFrame = this.adaptive()
      ? ADAPTIVE_STEPS_PER_FRAME
      : Math.max(1, Math.ceil(Number(this.t1Input.value) / Number(this.hInput.value) / ANIMATION_FRAMES));
    const animation = { handle, frame: 0, stopped: false };
    this.animation = animation;
    this.animateButton.textContent = 'Stop';
    this.setStatus('running', '');
    const tick = async (): Promise<void> => {
      if (animation.stopped) return;
      let chunk;
      try {
        chunk = await handle.advance(perFrame);
      } catch (e) {
        if (!animation.stopped) {
          this.finishAnimation();
          this.setStatus('error', message(e));
        }
        return;
      }
      if (animation.stopped) return;
      for (const ti of chunk.t) {
        h.push(ti - t[t.length - 1]);
        t.push(ti);
      }
      y.push(...chunk.y);
      if (energyIndex >= 0) for (let i = 0; i < chunk.t.length; i++) energy.push(chunk.outputs[i * nOut + energyIndex]);
      if (exact && chunk.exact) exact.push(...chunk.exact);
      const e = energyIndex >= 0 ? energy : undefined;
      this.last = { t, y, outputs: energyIndex >= 0 ? { energy } : {} };
      this.draw(t, y, e, exact, h);
      this.showStats(chunk, t, y, e, exact);
      if (chunk.done) {
        this.finishAnimation();
        this.setStatus(chunk.warning ? 'warning' : 'ok', chunk.warning ?? '');
      } else {
        animation.frame = requestAnimationFrame(() => void tick());
      }
    };
    animation.frame = requestAnimationFrame(() => void tick());
  }

  private finishAnimation(): void {
    if (!this.animation) return;
    this.animation.stopped = true;
    cancelAnimationFrame(this.animation.frame);
    void this.animation.handle.close().catch(() => undefined);
    this.animation = undefined;
    this.animateButton.textContent = 'Animate';
  }

  private stopAnimation(): void {
    if (this.animation) {
      this.finishAnimation();
      if (document.body.dataset.status === 'running') this.setStatus('ok', '');
    }
  }
}

/** `dim` columns of NaN (gaps), for series with no data yet. */
function gapColumns(dim: number, n: number): Float64Array[] {
  return Array.from({ length: dim }, () => new Float64Array(n).fill(NaN));
}
