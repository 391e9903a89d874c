/**
 * The trajectory view: pick a model, a method, h and t1; see the states against time,
 * the energy, and the error against the exact solution where the model knows it. Moving
 * the h slider re-solves and redraws at once; "Animate" advances a run kept in the
 * engine worker a few steps per frame so it unfolds in front of the student. All the
 * computing happens in the worker (www/client.ts); this view only draws.
 */
import { CancelledError } from './client';
import type { EngineClient, RunHandle } from './client';
import type { MethodInfo, ModelInfo, Solution, SolveSpec } from './engine';
import type { Catalog } from './protocol';
import { columns, errorSeries, formatNumber, logToValue, niceStep, relativeDrift, valueToLog } from './format';
import type { LogScale } from './format';
import { Plot } from './plot';

const PALETTE = ['#1f5fbf', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285'];
const H_SCALE: LogScale = { min: 1e-4, max: 0.5, steps: 400 };
/** How long an animation of a whole run lasts, about. */
const ANIMATION_FRAMES = 240;

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page is missing #${id}`);
  return el as T;
}

type Status = 'ok' | 'warning' | 'error' | 'running' | 'computing';

/** A solve that takes longer than this shows the Cancel button. */
const SHOW_CANCEL_AFTER_MS = 150;

export class TrajectoryView {
  private readonly modelList: ModelInfo[];
  private readonly methodList: MethodInfo[];
  private model: ModelInfo;
  private plots: { trajectory: Plot; energy?: Plot; error?: Plot } | undefined;
  private animation: { handle: RunHandle; frame: number; stopped: boolean } | undefined;
  /** A solve is in flight; `queued` says the controls changed meanwhile. */
  private inflight = false;
  private queued = false;

  private readonly modelSelect = byId<HTMLSelectElement>('model');
  private readonly methodSelect = byId<HTMLSelectElement>('method');
  private readonly hSlider = byId<HTMLInputElement>('h-slider');
  private readonly hInput = byId<HTMLInputElement>('h');
  private readonly t1Input = byId<HTMLInputElement>('t1');
  private readonly paramsBox = byId<HTMLElement>('params');
  private readonly animateButton = byId<HTMLButtonElement>('animate');
  private readonly cancelButton = byId<HTMLButtonElement>('cancel');
  private readonly message = byId<HTMLElement>('message');
  private readonly stats = byId<HTMLElement>('stats');

  constructor(
    private readonly engine: EngineClient,
    catalog: Catalog,
  ) {
    this.modelList = catalog.models;
    this.methodList = catalog.methods;
    for (const m of this.modelList) this.modelSelect.add(new Option(m.name, m.id));
    for (const m of this.methodList) this.methodSelect.add(new Option(`${m.name} (order ${m.order})`, m.id));
    this.model = this.modelList[0];
    this.hSlider.max = String(H_SCALE.steps);
    this.setH(0.01);

    this.modelSelect.addEventListener('change', () => this.selectModel(this.modelSelect.value));
    this.methodSelect.addEventListener('change', () => this.run());
    this.hSlider.addEventListener('input', () => {
      this.hInput.value = String(niceStep(logToValue(H_SCALE, Number(this.hSlider.value))));
      this.run();
    });
    this.hInput.addEventListener('input', () => {
      const h = Number(this.hInput.value);
      if (h > 0) this.hSlider.value = String(valueToLog(H_SCALE, h));
      this.run();
    });
    this.t1Input.addEventListener('input', () => this.run());
    this.animateButton.addEventListener('click', () => (this.animation ? this.stopAnimation() : void this.animate()));
    this.cancelButton.addEventListener('click', () => {
      this.queued = false;
      this.engine.cancel();
    });
  }

  /** Selects the initial model and method, then draws. */
  start(modelId = 'pendulum', methodId = 'euler'): void {
    this.methodSelect.value = methodId;
    this.selectModel(modelId);
  }

  private setH(h: number): void {
    this.hInput.value = String(h);
    this.hSlider.value = String(valueToLog(H_SCALE, h));
  }

  private selectModel(id: string): void {
    this.stopAnimation();
    this.model = this.modelList.find((m) => m.id === id) ?? this.modelList[0];
    this.modelSelect.value = this.model.id;
    byId('model-source').textContent = `${this.model.source}; states ${this.model.names.join(', ')}`;
    this.t1Input.value = String(this.model.t1);
    this.renderParams();
    this.buildPlots();
    this.run();
  }

  private renderParams(): void {
    this.paramsBox.replaceChildren();
    const legend = document.createElement('legend');
    legend.textContent = 'Parameters';
    this.paramsBox.append(legend);
    for (const p of this.model.params) {
      const label = document.createElement('label');
      label.title = p.description;
      const input = document.createElement('input');
      input.type = 'number';
      input.step = 'any';
      input.value = String(p.value);
      input.dataset.param = p.name;
      input.addEventListener('input', () => this.run());
      label.append(`${p.name} (${p.unit})`, input);
      this.paramsBox.append(label);
    }
  }

  private buildPlots(): void {
    if (this.plots) {
      this.plots.trajectory.destroy();
      this.plots.energy?.destroy();
      this.plots.error?.destroy();
    }
    const names = this.model.names;
    const series = names.map((n, i) => ({ label: n, color: PALETTE[i % PALETTE.length] }));
    if (this.model.exact) {
      series.push(...names.map((n, i) => ({ label: `${n} exact`, color: PALETTE[i % PALETTE.length], dash: [6, 4] })));
    }
    const trajectory = new Plot(byId('plot-trajectory'), { xLabel: 't', yLabel: 'state', series });
    const hasEnergy = this.model.outputs.includes('energy');
    byId('fig-energy').hidden = !hasEnergy;
    byId('fig-error').hidden = !this.model.exact;
    this.plots = {
      trajectory,
      energy: hasEnergy
        ? new Plot(byId('plot-energy'), {
            xLabel: 't',
            yLabel: 'energy',
            series: [{ label: 'energy', color: '#c92a2a' }],
            height: 200,
          })
        : undefined,
      error: this.model.exact
        ? new Plot(byId('plot-error'), {
            xLabel: 't',
            yLabel: '|y − y_exact|',
            series: [{ label: 'max error', color: '#5f3dc4' }],
            logY: true,
            height: 200,
          })
        : undefined,
    };
  }

  /** The spec the controls describe. */
  spec(): SolveSpec {
    const params: Record<string, number> = {};
    for (const input of this.paramsBox.querySelectorAll<HTMLInputElement>('input[data-param]')) {
      const name = input.dataset.param;
      if (name) params[name] = input.value === '' ? NaN : Number(input.value);
    }
    return {
      model: this.model.id,
      method: this.methodSelect.value,
      params,
      t1: this.t1Input.value === '' ? NaN : Number(this.t1Input.value),
      h: this.hInput.value === '' ? NaN : Number(this.hInput.value),
    };
  }

  /**
   * Solves the current spec in the worker and redraws; a bad spec shows its message and
   * changes nothing else. While a solve is in flight, further changes coalesce into one
   * more solve of the latest settings (dragging the slider never queues a backlog).
   */
  run(): void {
    this.stopAnimation();
    if (this.inflight) {
      this.queued = true;
      return;
    }
    this.inflight = true;
    const showCancel = setTimeout(() => {
      this.cancelButton.hidden = false;
      this.setStatus('computing', '');
    }, SHOW_CANCEL_AFTER_MS);
    this.engine
      .solve(this.spec())
      .then((sol: Solution) => {
        this.draw(sol.t, sol.y, sol.outputs.energy, sol.exact);
        this.setStatus(sol.warning ? 'warning' : 'ok', sol.warning ?? '');
        this.showStats(sol.t.length - 1, sol.stats.nfev, sol.t, sol.y, sol.outputs.energy, sol.exact);
      })
      .catch((e: unknown) => {
        if (e instanceof CancelledError) this.setStatus('warning', 'Cancelled; change a setting to run again.');
        else this.setStatus('error', e instanceof Error ? e.message : String(e));
      })
      .finally(() => {
        clearTimeout(showCancel);
        this.cancelButton.hidden = true;
        this.inflight = false;
        if (this.queued) {
          this.queued = false;
          this.run();
        }
      });
  }

  private draw(t: ArrayLike<number>, y: ArrayLike<number>, energy?: ArrayLike<number>, exact?: ArrayLike<number>): void {
    if (!this.plots) return;
    const dim = this.model.dim;
    const cols: ArrayLike<number>[] = columns(y, dim);
    if (exact && this.model.exact) cols.push(...columns(exact, dim));
    this.plots.trajectory.setData(t, cols);
    if (energy) this.plots.energy?.setData(t, [energy]);
    if (exact) this.plots.error?.setData(t, [errorSeries(y, exact, dim)]);
    document.body.dataset.points = String(t.length);
  }

  private showStats(
    steps: number,
    nfev: number,
    t: ArrayLike<number>,
    y: ArrayLike<number>,
    energy?: ArrayLike<number>,
    exact?: ArrayLike<number>,
  ): void {
    const rows: [string, string][] = [
      ['steps', String(steps)],
      ['f-evaluations', String(nfev)],
      ['reached t', formatNumber(t[t.length - 1] ?? NaN)],
    ];
    if (energy && energy.length > 0) {
      // Relative drift needs a nonzero reference; a run from E0 = 0 (the spring from
      // rest) gets the absolute change instead.
      if (energy[0] !== 0) rows.push(['energy drift', `${formatNumber(100 * relativeDrift(energy), 3)} %`]);
      else rows.push(['energy change', formatNumber(energy[energy.length - 1] - energy[0], 3)]);
    }
    if (exact) {
      const err = errorSeries(y, exact, this.model.dim);
      rows.push(['max error', formatNumber(err.reduce((a, b) => Math.max(a, b), 0), 3)]);
    }
    this.stats.replaceChildren(
      ...rows.flatMap(([k, v]) => {
        const dt = document.createElement('dt');
        dt.textContent = k;
        const dd = document.createElement('dd');
        dd.textContent = v;
        dd.dataset.stat = k;
        return [dt, dd];
      }),
    );
  }

  private setStatus(status: Status, text: string): void {
    document.body.dataset.status = status;
    this.message.hidden = text === '';
    this.message.textContent = text;
    this.message.className = status;
  }

  /** Advances a run in the worker a few steps per animation frame, drawing as it goes. */
  private async animate(): Promise<void> {
    this.stopAnimation();
    let handle: RunHandle;
    try {
      handle = await this.engine.open(this.spec());
    } catch (e) {
      this.setStatus('error', e instanceof Error ? e.message : String(e));
      return;
    }
    const nOut = this.model.outputs.length;
    const energyIndex = this.model.outputs.indexOf('energy');
    const t: number[] = [handle.start.t];
    const y: number[] = Array.from(handle.start.y);
    const energy: number[] = energyIndex >= 0 ? [handle.start.outputs[energyIndex]] : [];
    const exact: number[] | undefined = handle.start.exact ? Array.from(handle.start.exact) : undefined;
    let nfev = 0;
    const expectedSteps = Math.max(1, Math.ceil(Number(this.t1Input.value) / Number(this.hInput.value)));
    const perFrame = Math.max(1, Math.ceil(expectedSteps / ANIMATION_FRAMES));
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
          this.setStatus('error', e instanceof Error ? e.message : String(e));
        }
        return;
      }
      if (animation.stopped) return;
      t.push(...chunk.t);
      y.push(...chunk.y);
      if (energyIndex >= 0) for (let i = 0; i < chunk.t.length; i++) energy.push(chunk.outputs[i * nOut + energyIndex]);
      if (exact && chunk.exact) exact.push(...chunk.exact);
      nfev = chunk.stats.nfev;
      const e = energyIndex >= 0 ? energy : undefined;
      this.draw(t, y, e, exact);
      this.showStats(t.length - 1, nfev, t, y, e, exact);
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
