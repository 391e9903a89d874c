/**
 * The trajectory view's run lifecycle: every change of the run form (www/form.ts) solves
 * in the engine worker and puts the run into the store (www/store.ts), which the time
 * plots, the mechanism, the phase portrait, the pins and the stability view draw from.
 * A slow solve shows Cancel; changes made meanwhile coalesce into one more solve. Pins
 * restored from a link or session are solved again here. This module only orchestrates
 * (www/client.ts computes, the views draw).
 */
import { byId, fillDefinitions } from './dom';
import { CancelledError } from './client';
import type { EngineClient } from './client';
import type { Diagnosis, DiagnosisFix, Solution, TableauSpec } from './engine';
import type { TableauAnalysis } from './engine-labs';
import { Comparisons } from './comparison';
import { download, runsToCsv } from './export';
import { errorSeries, formatNumber, relativeDrift } from './format';
import { RunForm, message } from './form';
import { MechanismView } from './mechanism';
import { PhaseView } from './phase';
import { PinList } from './pins';
import { Playback } from './playback';
import type { Catalog } from './protocol';
import type { Run } from './run';
import { CUSTOM, customMethodInfo, toSpec } from './settings';
import type { PinSettings, RunSettings } from './settings';
import { HeatMap } from './heatmap';
import { attachPngExport } from './png';
import { StepInspector, rejectionRows } from './inspector';
import { Store } from './store';
import { TimePlots } from './time-plots';

/** A solve that takes longer than this shows the Cancel button. */
const SHOW_CANCEL_AFTER_MS = 150;

type Status = 'ok' | 'warning' | 'error' | 'running' | 'computing';

export class TrajectoryView {
  readonly store = new Store();
  private readonly form: RunForm;
  private readonly comparisons: Comparisons;
  private readonly playback: Playback;
  private readonly mechanism: MechanismView;
  private readonly inspector: StepInspector;
  /** A solve is in flight; `queued` says the controls changed meanwhile. */
  private inflight = false;
  private queued = false;
  /** Called after every successful run with the settings it used (e.g. to update the URL). */
  onRun: (settings: RunSettings) => void = () => undefined;
  /** Settles when the latest solve (and any coalesced follow-up) has been drawn. */
  private current: Promise<void> = Promise.resolve();

  private readonly cancelButton = byId<HTMLButtonElement>('cancel');
  private readonly messageBox = byId<HTMLElement>('message');
  /** The diagnosis's one-click fix ("Use h ≤ 0.004", "Run with ros4"), under the message. */
  private readonly fixButton = document.createElement('button');
  private fix: DiagnosisFix | undefined;
  private readonly stats = byId<HTMLElement>('stats');

  constructor(
    private readonly engine: EngineClient,
    catalog: Catalog,
  ) {
    this.form = new RunForm(engine, catalog);
    this.form.onChange = () => this.run();
    this.form.onSystemError = () => this.setStatus('error', 'Your system has an error: see under the editor.');
    this.comparisons = new Comparisons(engine);
    new TimePlots(this.store, engine);
    this.inspector = new StepInspector(this.store, byId('fig-steps'), () => void this.run());
    // Heat map and profile of an indexed family (`u[1]` … `u[N]`).
    const heatmap = new HeatMap(byId('fig-heatmap'));
    this.store.subscribe('run', () => {
      const run = this.store.run;
      if (run) heatmap.update(run.t, run.y, run.names);
    });
    this.store.subscribe('time', () => heatmap.showTime(this.store.time));
    // The state-space formulation's coordinates are known from its runs (the form lists them).
    this.store.subscribe('run', () => {
      if (this.store.run) this.form.showRun(this.store.run);
    });
    const phase = new PhaseView(this.store);
    new PinList(this.store, engine);
    this.mechanism = new MechanismView(this.store);
    this.playback = new Playback(this.store);
    this.playback.onPlaying = (playing) => {
      if (playing) this.setStatus('running', '');
      else if (document.body.dataset.status === 'running') this.setStatus('ok', '');
    };
    this.playback.onStepMode = (on) => {
      this.mechanism.stepMode = on;
      this.mechanism.draw();
      phase.stepMode = on;
      phase.drawCursor();
    };
    // Pins are part of the settings a link or session keeps.
    this.store.subscribe('pins', () => {
      if (this.store.run) this.onRun(this.settings());
    });
    byId('export-csv').addEventListener('click', () => this.exportCsv());
    byId('compare').addEventListener('click', () => void this.comparisons.compare(this.form.spec(), this.form.methodInfo()?.needsJacobian ?? false));
    byId('compare-formulations').addEventListener('click', () => void this.comparisons.compareFormulations(this.form.spec()));
    attachPngExport(() => `odelab-${this.store.run?.model.id}-${this.store.run?.settings.method}`);
    this.cancelButton.addEventListener('click', () => {
      this.queued = false;
      this.engine.cancel();
    });
    this.fixButton.id = 'message-fix';
    this.fixButton.type = 'button';
    this.fixButton.hidden = true;
    this.messageBox.after(this.fixButton);
    this.fixButton.addEventListener('click', () => void this.applyFix());
  }

  /** Reruns with the diagnosis's fix applied to the current settings (pins stay). */
  private applyFix(): Promise<void> {
    const fix = this.fix;
    if (!fix) return Promise.resolve();
    const change: Partial<RunSettings> = {
      ...(fix.method !== undefined ? { method: fix.method } : {}),
      ...(fix.h !== undefined ? { h: fix.h } : {}),
      ...(fix.rtol !== undefined ? { rtol: fix.rtol } : {}),
    };
    // A held run's button brings back its pins too.
    const pins = this.heldPins;
    this.heldPins = undefined;
    if (pins?.length) return this.start({ ...this.form.settings(), ...change, pins });
    return this.form.start({ ...this.form.settings(), ...change });
  }

  /** Called as a run of `settings` is sent to the engine (`onRun` follows when it succeeds). */
  onStart: (settings: RunSettings) => void = () => undefined;

  /** Why the next run is not made but offered (`holdNextRun`), and the pins it holds back. */
  private held: { text: string; pins?: PinSettings[] } | undefined;
  private heldPins: PinSettings[] | undefined;

  /**
   * The next `start` shows its settings without running them (nor their pins): `text`
   * says why and a button runs them. `undefined` lifts a hold not used.
   */
  holdNextRun(text: string | undefined): void {
    this.held = text === undefined ? undefined : { text };
  }

  /** Counts `start`s: pins solved for an earlier start are not pinned on a later one. */
  private generation = 0;
  /** The pins of the last `start` being solved (resolved when done or cancelled). */
  pinsRestored: Promise<void> = Promise.resolve();

  /**
   * Applies settings (all optional) and draws; then solves the pins they carry in the
   * background, so the page is usable (and Cancel stops them) while a link's heavy
   * pins take their time.
   */
  async start(settings: Partial<RunSettings> = {}): Promise<void> {
    this.store.clearPins();
    const generation = ++this.generation;
    // An earlier start's pins stop at their next step (see solvePins).
    delete document.body.dataset.pins;
    if (this.held) this.held.pins = settings.pins;
    await this.form.start(settings);
    if (settings.pins?.length && !this.held && generation === this.generation) {
      this.pinsRestored = this.restorePins(settings.pins, generation);
    }
  }

  /** The settings the controls describe, with the pins. */
  settings(): RunSettings {
    const pins: PinSettings[] = this.store.pins.map((p) => ({
      ...p.run.settings,
      color: p.color,
      ...(p.hidden ? { hidden: true } : {}),
    }));
    return { ...this.form.settings(), ...(pins.length > 0 ? { pins } : {}) };
  }

  /** Makes your tableau the method `custom` (adaptive when it has embedded weights) and runs it. */
  useTableau(tableau: TableauSpec, analysis: TableauAnalysis): Promise<void> {
    return this.form.useTableau(tableau, analysis);
  }

  /** The model currently shown. */
  modelInfo(): ReturnType<RunForm['modelInfo']> {
    return this.form.modelInfo();
  }

  /**
   * Solves the current spec in the worker and puts the run in the store; a bad spec
   * shows its message and changes nothing else. While a solve is in flight, further
   * changes coalesce into one more solve of the latest settings (dragging a slider never
   * queues a backlog).
   */
  run(): Promise<void> {
    this.playback.stop();
    byId('compare-box').hidden = true;
    if (this.held) {
      const pins = this.held.pins;
      this.setStatus('warning', this.held.text);
      this.held = undefined;
      this.fix = { label: 'Run them' };
      this.heldPins = pins;
      this.fixButton.hidden = false;
      this.fixButton.textContent = 'Run them';
      return Promise.resolve();
    }
    if (this.inflight) {
      this.queued = true;
      return this.current;
    }
    this.inflight = true;
    const showCancel = setTimeout(() => {
      this.cancelButton.hidden = false;
      this.setStatus('computing', '');
    }, SHOW_CANCEL_AFTER_MS);
    const settings = this.form.settings();
    const model = this.form.modelInfo();
    const method = this.form.methodInfo();
    const adaptive = this.form.isAdaptive();
    this.onStart(settings);
    this.current = this.engine
      .solve(this.inspector.request(toSpec(settings, model, method)))
      .then((sol: Solution) => {
        const run = toRun(settings, model, method, adaptive, sol);
        this.store.setRun(run);
        this.inspector.show(sol);
        // A run too long to keep whole is thinned by the core; the page says so.
        // A stop or a doubtful run: the diagnosis's message and advice (`warning`),
        // and its fix as a button.
        const notes = [sol.warning, sol.thinned].filter((n): n is string => n !== undefined);
        this.setStatus(notes.length > 0 ? 'warning' : 'ok', notes.join(' '), sol.diagnosis);
        this.showStats(run);
        // What ran (the controls may have moved on while it solved), with the pins.
        const pins = this.settings().pins;
        this.onRun({ ...settings, ...(pins ? { pins } : {}) });
      })
      .catch((e: unknown) => {
        if (e instanceof CancelledError) this.setStatus('warning', 'Cancelled; change a setting to run again.');
        else this.setStatus('error', message(e));
      })
      .finally(() => {
        clearTimeout(showCancel);
        // Pins still being solved keep Cancel.
        this.cancelButton.hidden = document.body.dataset.pins !== 'restoring';
        this.inflight = false;
        if (this.queued) {
          this.queued = false;
          return this.run();
        }
      });
    return this.current;
  }

  /** Solves each pinned run of a link or session (one after the other) and pins it. */
  private async restorePins(pins: PinSettings[], generation: number): Promise<void> {
    // Each pin is a whole solve: the page's Cancel stops the rest (engine.cancel()).
    this.cancelButton.hidden = false;
    document.body.dataset.pins = 'restoring';
    try {
      await this.solvePins(pins, generation);
    } finally {
      if (generation === this.generation) document.body.dataset.pins = 'done';
      this.cancelButton.hidden = !this.inflight && document.body.dataset.pins !== 'restoring';
    }
  }

  private async solvePins(pins: PinSettings[], generation: number): Promise<void> {
    for (const [k, { color, hidden, ...settings }] of pins.entries()) {
      // Other settings were started meanwhile: these pins are no longer theirs.
      if (generation !== this.generation) return;
      try {
        const model =
          settings.model === CUSTOM
            ? await this.form.describeText(settings.system ?? '')
            : this.form.modelList.find((m) => m.id === settings.model);
        if (!model) continue;
        const method =
          settings.method === CUSTOM && settings.tableau
            ? customMethodInfo(await this.engine.analyzeTableau(settings.tableau))
            : this.form.methodList.find((m) => m.id === settings.method);
        const adaptive = (method?.adaptive ?? false) && !settings.fixedStep;
        const sol = await this.engine.solve(toSpec(settings, model, method));
        if (generation !== this.generation) return;
        this.store.pin(toRun(settings, model, method, adaptive, sol), { color, hidden });
      } catch (e) {
        if (e instanceof CancelledError) {
          if (generation === this.generation) this.notice(`Cancelled: ${k} of the link's ${pins.length} pinned runs were restored.`);
          return;
        }
        this.notice(`A pinned run could not be restored: ${message(e)}`);
      }
    }
  }

  private showStats(run: Run): void {
    const { t, stats } = run;
    const energy = run.outputs.energy;
    const rows: [string, string][] = [['steps', String(stats.naccept)]];
    if (stats.nreject > 0 || run.adaptive) rows.push(['rejected', String(stats.nreject)]);
    rows.push(...rejectionRows(stats));
    const last = t[t.length - 1] ?? NaN;
    rows.push(['f-evaluations', String(stats.nfev)], ['reached t', formatNumber(last, 6)]);
    // A stopped run keeps its last accepted point; the stop names the end of the step
    // that failed. Both times are shown, so the stats and the warning say the same.
    const failedAt = failedStepEnd(run.warning, last, run.settings.t1 ?? run.model.t1);
    if (failedAt !== undefined) rows.push(['failed step', `t = ${formatNumber(last, 6)} → ${formatNumber(failedAt, 6)}`]);
    if (energy && energy.length > 0) {
      // Relative drift needs a nonzero reference; a run from E0 = 0 (the spring from
      // rest) gets the absolute change instead.
      if (energy[0] !== 0) rows.push(['energy drift', `${formatNumber(100 * relativeDrift(energy), 3)} %`]);
      else rows.push(['energy change', formatNumber(energy[energy.length - 1] - energy[0], 3)]);
    }
    if (run.exact) {
      const err = errorSeries(run.y, run.exact, run.names.length);
      rows.push(['max error', formatNumber(err.reduce((a, b) => Math.max(a, b), 0), 3)]);
    }
    if (run.events && run.events.length > 0) {
      rows.push(['events', `${run.events.length} (first at t = ${formatNumber(run.events[0].t)})`]);
    }
    fillDefinitions(this.stats, 'stat', rows);
  }

  private exportCsv(): void {
    const run = this.store.run;
    if (!run) return;
    const csv = runsToCsv(run, this.store.pins.map((p) => p.run));
    download(`odelab-${run.model.id}-${run.settings.method}.csv`, new Blob([csv], { type: 'text/csv' }));
  }

  /** Shows a message without changing what is drawn (e.g. why a link was not used). */
  notice(text: string): void {
    this.setStatus('warning', text);
  }

  private setStatus(status: Status, text: string, diagnosis?: Diagnosis): void {
    document.body.dataset.status = status;
    this.messageBox.hidden = text === '';
    this.messageBox.textContent = text;
    this.messageBox.className = status;
    if (diagnosis) this.messageBox.dataset.code = diagnosis.code;
    else delete this.messageBox.dataset.code;
    this.fix = diagnosis?.fix;
    this.fixButton.hidden = this.fix === undefined;
    this.fixButton.textContent = this.fix?.label ?? '';
  }
}

/** The time a stop's message names ("… at t = 1.2 …"), if it names one. */
export function stopTime(warning: string | undefined): number | undefined {
  const match = warning === undefined ? null : /\bt = (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)/.exec(warning);
  return match ? Number(match[1]) : undefined;
}

/**
 * Where the step that stopped a run ended, for a run whose last point `last` falls short
 * of `t1`; undefined for a run that reached t1. A run that reached t1 may still carry a
 * warning that names times (a solution that grew, a stiff stretch "near t = …", the
 * eigenvalue's "(at t = …)"), but none of them is a failed step.
 */
export function failedStepEnd(warning: string | undefined, last: number, t1: number): number | undefined {
  if (last >= t1) return undefined;
  const failedAt = stopTime(warning);
  return failedAt !== undefined && failedAt !== last ? failedAt : undefined;
}

/** A solution with what produced it, as the store keeps it. */
function toRun(
  settings: RunSettings,
  model: Run['model'],
  method: Run['method'],
  adaptive: boolean,
  sol: Solution,
): Run {
  return {
    settings,
    model,
    method,
    adaptive,
    t: sol.t,
    y: sol.y,
    yColumns: sol.yColumns,
    names: sol.names,
    ...(sol.source ? { source: sol.source } : {}),
    outputs: sol.outputs,
    stats: sol.stats,
    ...(sol.exact ? { exact: sol.exact } : {}),
    ...(sol.h ? { h: sol.h } : {}),
    ...(sol.errEst && sol.errEst.length > 0 ? { errEst: sol.errEst } : {}),
    ...(sol.constraint ? { constraint: sol.constraint } : {}),
    ...(sol.events ? { events: sol.events } : {}),
    ...(sol.warning ? { warning: sol.warning } : {}),
  };
}
