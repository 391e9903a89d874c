/**
 * The run form: pick a model (or type your own system), a method, h or the tolerances,
 * t1, the parameters, a formulation. It says what run the controls describe
 * (`settings()`, `spec()`) and calls `onChange` whenever they describe another one; it
 * never solves (www/trajectory.ts does).
 */
import { byId } from './dom';
import { CancelledError } from './client';
import { enhanceEditor, showProblem } from './editor';
import type { EngineClient } from './client';
import type { MethodInfo, MethodParams, ModelInfo, SolveSpec, TableauSpec } from './engine';
import type { TableauAnalysis } from './engine-labs';
import { defaultBounds, formatNumber, logToValue, niceStep, sliderPosition, sliderValue, valueToLog } from './format';
import type { LogScale } from './format';
import type { Catalog } from './protocol';
import type { Run } from './run';
import { CUSTOM, DEFAULT_SYSTEM, METHOD_PARAMS, customMethodInfo, toSpec } from './settings';
import type { ControllerSettings, RunSettings } from './settings';

const H_SCALE: LogScale = { min: 1e-5, max: 0.5, steps: 500 };
const RTOL_SCALE: LogScale = { min: 1e-12, max: 1e-1, steps: 110 };
/** Pause after typing in the system editor before it is parsed. */
const EDIT_DEBOUNCE_MS = 250;
/** Most states that get an atol field each (a bigger system keeps the one atol). */
const MAX_ATOL_FIELDS = 40;
/** The prefix of a formulation's body-coordinate outputs ("q:x1", "q:φ̇2"). */
const COORDINATE_PREFIX = 'q:';
/** The combining dot that marks a rate ("φ̇1") among the coordinates. */
const RATE_MARK = '\u0307';

/** A number field's value, or undefined when it is empty. */
function optionalNumber(input: HTMLInputElement): number | undefined {
  return input.value.trim() === '' ? undefined : Number(input.value);
}

export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Keeps a logarithmic slider and its number field in step; either one changes the run. */
function linkLogSlider(slider: HTMLInputElement, input: HTMLInputElement, scale: LogScale, changed: () => void): void {
  slider.addEventListener('input', () => {
    input.value = String(niceStep(logToValue(scale, Number(slider.value))));
    changed();
  });
  input.addEventListener('input', () => {
    const value = Number(input.value);
    if (value > 0) slider.value = String(valueToLog(scale, value));
    changed();
  });
}

export class RunForm {
  readonly modelList: ModelInfo[];
  readonly methodList: MethodInfo[];
  /** Your own method (the tableau tab's), once there is one. */
  private custom: { tableau: TableauSpec; info: MethodInfo } | undefined;
  private model: ModelInfo;
  private editTimer: ReturnType<typeof setTimeout> | undefined;
  /** The controls now describe another run. */
  onChange: () => Promise<void> = () => Promise.resolve();
  /** The typed system cannot be parsed (the message is under the editor). */
  onSystemError: () => void = () => undefined;

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
  private readonly methodParamsBox = byId<HTMLElement>('method-params-box');
  /** The inputs of `methodParams`, by key. */
  private readonly methodParamInputs: Record<keyof MethodParams, HTMLInputElement> = {
    rhoInf: byId<HTMLInputElement>('param-rho-inf'),
    alpha: byId<HTMLInputElement>('param-hht-alpha'),
    beta: byId<HTMLInputElement>('param-beta'),
    gamma: byId<HTMLInputElement>('param-gamma'),
    maxOrder: byId<HTMLInputElement>('param-max-order'),
  };
  private readonly newmarkNote = byId<HTMLElement>('newmark-note');
  private readonly paramsBox = byId<HTMLElement>('params');
  private readonly eventsBox = byId<HTMLElement>('events-box');
  private readonly eventsCheck = byId<HTMLInputElement>('events');
  private readonly atolStatesBox = byId<HTMLDetailsElement>('atol-states-box');
  private readonly atolStates = byId<HTMLElement>('atol-states');
  private readonly controllerBox = byId<HTMLDetailsElement>('controller-box');
  private readonly controllerKind = byId<HTMLSelectElement>('controller-kind');
  private readonly controllerPer = byId<HTMLSelectElement>('controller-per');
  private readonly controllerKi = byId<HTMLInputElement>('controller-ki');
  private readonly controllerKpBox = byId<HTMLElement>('controller-kp-box');
  private readonly controllerKp = byId<HTMLInputElement>('controller-kp');
  private readonly controllerSafety = byId<HTMLInputElement>('controller-safety');
  private readonly controllerFacMin = byId<HTMLInputElement>('controller-facmin');
  private readonly controllerFacMax = byId<HTMLInputElement>('controller-facmax');
  private readonly baumgarteBox = byId<HTMLElement>('baumgarte-box');
  private readonly baumgarteAlpha = byId<HTMLInputElement>('baumgarte-alpha');
  private readonly baumgarteBeta = byId<HTMLInputElement>('baumgarte-beta');
  private readonly independentBox = byId<HTMLElement>('independent-box');
  private readonly independentChoices = byId<HTMLElement>('independent-choices');
  private readonly independentNote = byId<HTMLElement>('independent-note');
  private readonly jacobianBox = byId<HTMLDetailsElement>('jacobian-box');
  private readonly jacobianUpdate = byId<HTMLInputElement>('jacobian-update');
  private readonly jacobianScale = byId<HTMLInputElement>('jacobian-scale');
  /**
   * The state-space formulation's coordinates, learnt from its last run (the model
   * description does not list them), and the independent ones chosen in the page
   * (undefined: the engine's own choice).
   */
  private coordinates: { key: string; names: string[]; dof: number; initial: string[] } | undefined;
  private independentChosen: string[] | undefined;

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

    const changed = (): void => void this.onChange();
    this.modelSelect.addEventListener('change', () => {
      this.independentChosen = undefined;
      void this.selectModel(this.modelSelect.value);
    });
    this.methodSelect.addEventListener('change', () => {
      this.showMethodControls();
      changed();
    });
    linkLogSlider(this.hSlider, this.hInput, H_SCALE, changed);
    linkLogSlider(this.rtolSlider, this.rtolInput, RTOL_SCALE, changed);
    this.atolInput.addEventListener('input', changed);
    this.hMaxInput.addEventListener('input', changed);
    this.fixedStep.addEventListener('change', () => {
      this.showMethodControls();
      changed();
    });
    this.t1Input.addEventListener('input', changed);
    this.eventsCheck.addEventListener('change', changed);
    enhanceEditor(this.systemText, { names: () => (this.model.id === CUSTOM ? [...this.model.names, ...this.model.params.map((p) => p.name), ...this.model.outputs] : []) });
    this.systemText.addEventListener('input', () => {
      clearTimeout(this.editTimer);
      this.editTimer = setTimeout(() => void this.describeSystem(), EDIT_DEBOUNCE_MS);
    });
    this.formulationSelect.addEventListener('change', () => {
      this.independentChosen = undefined;
      this.showFormulationControls();
      changed();
    });
    this.stabilizationSelect.addEventListener('change', () => {
      this.showFormulationControls();
      changed();
    });
    this.atolInput.addEventListener('input', () => this.showAtolPlaceholders());
    for (const select of [this.controllerKind, this.controllerPer]) {
      select.addEventListener('change', () => {
        this.showControllerDefaults();
        changed();
      });
    }
    for (const input of [
      this.controllerKi,
      this.controllerKp,
      this.controllerSafety,
      this.controllerFacMin,
      this.controllerFacMax,
      this.baumgarteAlpha,
      this.baumgarteBeta,
      this.jacobianUpdate,
      this.jacobianScale,
    ]) {
      input.addEventListener('input', changed);
    }
    for (const input of Object.values(this.methodParamInputs)) {
      input.addEventListener('change', changed);
      input.addEventListener('input', () => this.showNewmarkNote());
    }
  }

  /** Shows the formulation's own controls: stabilisation and Baumgarte's α, β; the coordinates. */
  private showFormulationControls(): void {
    const formulation = this.formulationBox.hidden ? 'native' : this.formulationSelect.value;
    this.stabilizationBox.hidden = formulation !== 'augmented';
    this.baumgarteBox.hidden = formulation !== 'augmented' || this.stabilizationSelect.value !== 'baumgarte';
    this.independentBox.hidden = formulation !== 'state-space' || this.coordinates?.key !== this.coordinateKey();
    // The fields name the model's own states; another formulation integrates other ones.
    this.atolStatesBox.hidden = formulation !== 'native' || this.model.names.length > MAX_ATOL_FIELDS;
  }

  /** Which coordinate list applies: the model (and its typed text) in the state-space formulation. */
  private coordinateKey(): string {
    return `${this.model.id}\n${this.model.id === CUSTOM ? this.systemText.value : ''}`;
  }

  /**
   * Learns the state-space formulation's coordinates from a run of it (its "q:" outputs,
   * rates left out; as many independent ones as it has states / 2) and lists them, the
   * run's own independent ones ticked.
   */
  showRun(run: Run): void {
    // The line under the model says what ran: a formulation integrates other states, and
    // a parameter that sizes a typed system's arrays (the Brusselator's N) makes others.
    const otherStates = run.names.join() !== this.model.names.join();
    if (run.source && run.model.id === this.model.id && (!this.formulationBox.hidden || otherStates)) this.renderSourceLine(run.source, run.names);
    if (run.settings.formulation !== 'state-space' || !run.constraint) return;
    const names = Object.keys(run.outputs)
      .filter((k) => k.startsWith(COORDINATE_PREFIX) && !k.includes(RATE_MARK))
      .map((k) => k.slice(COORDINATE_PREFIX.length));
    const key = this.coordinateKey();
    if (this.coordinates?.key !== key || this.coordinates.names.join() !== names.join()) {
      this.coordinates = { key, names, dof: run.names.length / 2, initial: run.constraint.independent };
      this.renderCoordinates();
    } else this.coordinates.initial = run.constraint.independent;
    this.tickCoordinates();
    this.showFormulationControls();
  }

  private renderCoordinates(): void {
    const coords = this.coordinates;
    if (!coords) return;
    this.independentChoices.replaceChildren();
    for (const name of coords.names) {
      const label = document.createElement('label');
      label.className = 'check';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.dataset.coordinate = name;
      box.addEventListener('change', () => {
        const ticked = [...this.independentChoices.querySelectorAll<HTMLInputElement>('input[data-coordinate]')]
          .filter((b) => b.checked)
          .map((b) => b.dataset.coordinate ?? '');
        this.independentChosen = ticked;
        this.showCoordinateNote();
        if (ticked.length === coords.dof) void this.onChange();
      });
      label.append(box, ` ${name}`);
      this.independentChoices.append(label);
    }
  }

  /** Ticks the chosen coordinates, or the ones the last run started from. */
  private tickCoordinates(): void {
    const ticked = this.independentChosen ?? this.coordinates?.initial ?? [];
    for (const box of this.independentChoices.querySelectorAll<HTMLInputElement>('input[data-coordinate]')) {
      box.checked = ticked.includes(box.dataset.coordinate ?? '');
    }
    this.showCoordinateNote();
  }

  private showCoordinateNote(): void {
    const dof = this.coordinates?.dof ?? 0;
    const ticked = this.independentChosen ?? this.coordinates?.initial ?? [];
    this.independentNote.textContent =
      dof === 0
        ? 'The mechanism has no degrees of freedom: the constraints and the driver fix every coordinate, so there is nothing to choose.'
        : ticked.length === dof
        ? `The run integrates these ${dof} and solves the constraints for the rest; it re-partitions when they become a poor choice.`
        : `Tick exactly ${dof} (the mechanism has ${dof} degrees of freedom); ${ticked.length} ticked, so the run has not changed.`;
  }

  /** One atol field per state (empty: the atol above), for systems small enough to list. */
  private renderAtolStates(values?: number[]): void {
    const names = this.model.names;
    this.atolStates.replaceChildren();
    this.atolStatesBox.hidden = names.length > MAX_ATOL_FIELDS;
    if (this.atolStatesBox.hidden) return;
    const keep = values && values.length === names.length ? values : undefined;
    names.forEach((name, i) => {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'number';
      input.step = 'any';
      input.min = '0';
      input.dataset.atolState = String(i);
      input.setAttribute('aria-label', `atol of ${name}`);
      if (keep && keep[i] !== Number(this.atolInput.value)) input.value = String(keep[i]);
      input.addEventListener('input', () => void this.onChange());
      label.append(`${name} `, input);
      this.atolStates.append(label);
    });
    this.atolStatesBox.open ||= keep !== undefined;
    this.showAtolPlaceholders();
  }

  private showAtolPlaceholders(): void {
    for (const input of this.atolStates.querySelectorAll<HTMLInputElement>('input[data-atol-state]')) {
      input.placeholder = this.atolInput.value;
    }
  }

  /** The per-state atol list, or undefined while every field is empty. */
  private atolPerState(): number[] | undefined {
    const fields = [...this.atolStates.querySelectorAll<HTMLInputElement>('input[data-atol-state]')];
    if (this.atolStatesBox.hidden || fields.every((f) => f.value.trim() === '')) return undefined;
    const atol = this.atolInput.value === '' ? NaN : Number(this.atolInput.value);
    return fields.map((f) => optionalNumber(f) ?? atol);
  }

  /** The controller the fields describe, or undefined for the method's default. */
  private controller(): ControllerSettings | undefined {
    const pi = this.controllerKind.value === 'pi';
    const kI = optionalNumber(this.controllerKi);
    const kP = pi ? optionalNumber(this.controllerKp) : undefined;
    const safety = optionalNumber(this.controllerSafety);
    const facMin = optionalNumber(this.controllerFacMin);
    const facMax = optionalNumber(this.controllerFacMax);
    const c: ControllerSettings = {
      ...(pi ? { kind: 'pi' as const } : {}),
      ...(kI !== undefined ? { kI } : {}),
      ...(kP !== undefined ? { kP } : {}),
      ...(safety !== undefined ? { safety } : {}),
      ...(facMin !== undefined ? { facMin } : {}),
      ...(facMax !== undefined ? { facMax } : {}),
      ...(this.controllerPer.value === 'epus' ? { perUnitStep: true } : {}),
    };
    return Object.keys(c).length > 0 ? c : undefined;
  }

  /**
   * The gains a controller takes when its field is empty, as placeholders: with k the
   * estimate's order q + 1 per step, q per unit step, kI = 1/k (I) or 0.3/k, kP = 0.4/k
   * (PI), as src/control/controller.rs.
   */
  private showControllerDefaults(): void {
    const pi = this.controllerKind.value === 'pi';
    this.controllerKpBox.hidden = !pi;
    const q = this.method()?.embeddedOrder;
    if (q === undefined) {
      this.controllerKi.placeholder = 'default';
      this.controllerKp.placeholder = 'default';
      return;
    }
    const k = this.controllerPer.value === 'epus' ? q : q + 1;
    const round = (v: number): string => String(Number(v.toPrecision(3)));
    this.controllerKi.placeholder = round((pi ? 0.3 : 1) / k);
    this.controllerKp.placeholder = round(0.4 / k);
  }

  /** Puts a link's or scenario's controller, Baumgarte and Jacobian settings into the fields. */
  private applyExtras(settings: Partial<RunSettings>): void {
    const c = settings.controller ?? {};
    this.controllerKind.value = c.kind ?? 'i';
    this.controllerPer.value = c.perUnitStep ? 'epus' : 'eps';
    this.controllerKi.value = c.kI !== undefined ? String(c.kI) : '';
    this.controllerKp.value = c.kP !== undefined ? String(c.kP) : '';
    this.controllerSafety.value = c.safety !== undefined ? String(c.safety) : '';
    this.controllerFacMin.value = c.facMin !== undefined ? String(c.facMin) : '';
    this.controllerFacMax.value = c.facMax !== undefined ? String(c.facMax) : '';
    this.controllerBox.open ||= settings.controller !== undefined;
    this.baumgarteAlpha.value = settings.baumgarteAlpha !== undefined ? String(settings.baumgarteAlpha) : '';
    this.baumgarteBeta.value = settings.baumgarteBeta !== undefined ? String(settings.baumgarteBeta) : '';
    this.jacobianUpdate.value = String(settings.jacobianUpdate ?? 1);
    this.jacobianScale.value = String(settings.jacobianScale ?? 1);
    this.jacobianBox.open ||= settings.jacobianUpdate !== undefined || settings.jacobianScale !== undefined;
    this.independentChosen = settings.independent ? [...settings.independent] : undefined;
  }

  /** Applies settings (all optional) and runs them. */
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
    this.eventsCheck.checked = settings.events ?? false;
    this.applyExtras(settings);
    // Settings that name no per-state atol have none (the fields are refilled if they do).
    for (const input of this.atolStates.querySelectorAll<HTMLInputElement>('input[data-atol-state]')) input.value = '';
    for (const [key, input] of Object.entries(this.methodParamInputs)) {
      const value = settings.methodParams?.[key as keyof MethodParams];
      input.value = value === undefined ? '' : String(value);
    }
    this.showNewmarkNote();
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
    // Your own system is chosen even while its text does not parse (no model yet).
    const custom = this.model.id === CUSTOM || this.modelSelect.value === CUSTOM;
    const adaptive = this.adaptive();
    const hMax = this.hMaxInput.value === '' ? {} : { hMax: num(this.hMaxInput) };
    const formulation = this.formulationBox.hidden ? 'native' : this.formulationSelect.value;
    const atolPerState = formulation === 'native' ? this.atolPerState() : undefined;
    const controller = this.controller();
    const baumgarte = formulation === 'augmented' && this.stabilizationSelect.value === 'baumgarte';
    const alpha = baumgarte ? optionalNumber(this.baumgarteAlpha) : undefined;
    const beta = baumgarte ? optionalNumber(this.baumgarteBeta) : undefined;
    const dof = this.coordinates?.key === this.coordinateKey() ? this.coordinates.dof : undefined;
    const independent =
      formulation === 'state-space' && this.independentChosen && (dof === undefined || this.independentChosen.length === dof)
        ? this.independentChosen
        : undefined;
    const jacobian = !this.jacobianBox.hidden;
    const update = jacobian ? optionalNumber(this.jacobianUpdate) : undefined;
    const scale = jacobian ? optionalNumber(this.jacobianScale) : undefined;
    const extras: Partial<RunSettings> = {
      ...(adaptive && atolPerState ? { atolPerState } : {}),
      ...(adaptive && controller ? { controller } : {}),
      ...(alpha !== undefined ? { baumgarteAlpha: alpha } : {}),
      ...(beta !== undefined ? { baumgarteBeta: beta } : {}),
      ...(independent ? { independent: [...independent] } : {}),
      ...(update !== undefined && update !== 1 ? { jacobianUpdate: update } : {}),
      ...(scale !== undefined && scale !== 1 ? { jacobianScale: scale } : {}),
    };
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
      ...this.methodParams(),
      ...(!this.formulationBox.hidden && this.formulationSelect.value !== 'native'
        ? {
            formulation: this.formulationSelect.value,
            ...(this.formulationSelect.value === 'augmented' && this.stabilizationSelect.value !== 'none'
              ? { stabilization: this.stabilizationSelect.value }
              : {}),
          }
        : {}),
      ...extras,
    };
  }

  /** The method's parameters typed in (an empty field: the method's default). */
  private methodParams(): { methodParams?: MethodParams } {
    const typed: MethodParams = {};
    for (const key of METHOD_PARAMS[this.methodSelect.value] ?? []) {
      const input = this.methodParamInputs[key];
      if (input.value !== '') typed[key] = Number(input.value);
    }
    return Object.keys(typed).length > 0 ? { methodParams: typed } : {};
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
  useTableau(tableau: TableauSpec, analysis: TableauAnalysis): Promise<void> {
    const info = customMethodInfo(analysis);
    this.custom = { tableau, info };
    let option = [...this.methodSelect.options].find((o) => o.value === CUSTOM);
    if (!option) {
      option = new Option('', CUSTOM);
      this.methodSelect.add(option);
    }
    option.textContent = `Your method (order ${analysis.order})`;
    this.methodSelect.value = CUSTOM;
    this.showMethodControls();
    return this.onChange();
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
    this.jacobianBox.hidden = !(this.method()?.needsJacobian ?? false);
    this.showControllerDefaults();
    const takes = METHOD_PARAMS[this.methodSelect.value] ?? [];
    this.methodParamsBox.hidden = takes.length === 0;
    for (const label of this.methodParamsBox.querySelectorAll<HTMLElement>('[data-method-param]')) {
      label.hidden = !takes.includes(label.dataset.methodParam as keyof MethodParams);
    }
    this.showNewmarkNote();
  }

  /**
   * Newmark with β < γ/2 (γ ≥ ½) is only conditionally stable: an undamped mode of
   * frequency ω stays bounded for ωh ≤ 1/√(γ/2 − β) (Hughes, The Finite Element Method,
   * 1987, §9.1). Said beside β, as the engine runs such β as asked.
   */
  private showNewmarkNote(): void {
    const { beta, gamma } = this.methodParamInputs;
    const g = gamma.value === '' ? 0.5 : Number(gamma.value);
    // An empty β is the engine's default ¼(γ + ½)², never below γ/2.
    const b = beta.value === '' ? ((g + 0.5) * (g + 0.5)) / 4 : Number(beta.value);
    const conditional = this.methodSelect.value === 'newmark' && Number.isFinite(b) && Number.isFinite(g) && g >= 0.5 && b >= 0 && b < g / 2;
    this.newmarkNote.hidden = !conditional;
    this.newmarkNote.textContent = conditional
      ? `β = ${formatNumber(b)} is below γ/2 = ${formatNumber(g / 2)}: conditionally stable. An undamped mode of frequency ω stays bounded only while ωh ≤ 1/√(γ/2 − β) = ${formatNumber(1 / Math.sqrt(g / 2 - b), 4)} (Hughes, The Finite Element Method, §9.1); β ≥ γ/2 is stable at every h.`
      : '';
  }

  private async selectModel(id: string, settings: Partial<RunSettings> = {}): Promise<void> {
    this.modelSelect.value = id;
    this.systemBox.hidden = id !== CUSTOM;
    if (id === CUSTOM) {
      const info = await this.describe();
      if (!info) {
        // Text that does not parse still keeps the rest of what was saved with it.
        if (settings.t1 !== undefined) this.t1Input.value = String(settings.t1);
        return;
      }
      this.model = info;
    } else {
      this.model = this.modelList.find((m) => m.id === id) ?? this.modelList[0];
      this.modelSelect.value = this.model.id;
    }
    this.t1Input.value = String(settings.t1 ?? this.model.t1);
    this.applyModel(settings.params, settings.atolPerState);
    await this.onChange();
  }

  /** Parses the system text in the worker; shows the error under the editor if it fails. */
  private async describe(): Promise<ModelInfo | undefined> {
    const text = this.systemText.value;
    try {
      const info = await this.engine.describe(text);
      showProblem(this.systemText, undefined, text);
      this.systemError.hidden = true;
      this.systemError.textContent = '';
      return info;
    } catch (e) {
      if (e instanceof CancelledError) return undefined;
      showProblem(this.systemText, e, text);
      this.systemError.hidden = false;
      this.systemError.textContent = message(e);
      this.onSystemError();
      return undefined;
    }
  }

  /**
   * The text is the model: a parameter whose value the text changed takes the text's
   * new value in its field (and slider); one the text left alone keeps what its field
   * holds, so a value typed into the field overrides until the text changes that
   * parameter again.
   */
  private async describeSystem(): Promise<void> {
    const info = await this.describe();
    if (!info) return;
    const sameShape =
      info.names.join() === this.model.names.join() &&
      info.params.map((p) => p.name).join() === this.model.params.map((p) => p.name).join() &&
      info.outputs.join() === this.model.outputs.join();
    const before = new Map(this.model.id === CUSTOM ? this.model.params.map((p) => [p.name, p.value]) : []);
    const fields = this.settings().params ?? {};
    const values: Record<string, number> = {};
    let textChanged = false;
    for (const p of info.params) {
      const kept = before.get(p.name) === p.value && p.name in fields;
      if (!kept) textChanged = true;
      values[p.name] = kept ? fields[p.name] : p.value;
    }
    this.model = info;
    if (!sameShape || textChanged) this.applyModel(values);
    else this.renderSource();
    await this.onChange();
  }

  private renderSourceLine(source: string, names: readonly string[]): void {
    byId('model-source').textContent =
      `${source}; states ${names.join(', ')}` +
      (this.model.fast.length ? `; fast: ${this.model.fast.map((i) => this.model.names[i]).join(', ')}` : '');
  }

  private renderSource(): void {
    const events = this.model.events.map((e) => e.id);
    this.renderSourceLine(this.model.source, this.model.names);
    this.eventsBox.hidden = events.length === 0 || this.model.events.every((e) => e.watched);
    this.formulationBox.hidden = this.model.formulations.length === 0;
    byId('compare-formulations').hidden = this.formulationBox.hidden;
    byId('formulations-box').hidden = true;
    byId('events-label').textContent = `Locate events (${events.join(', ')})`;
  }

  private applyModel(params?: Record<string, number>, atolPerState?: number[]): void {
    this.renderSource();
    this.renderParams(params);
    if (this.atolStates.childElementCount !== this.model.names.length || atolPerState !== undefined || this.atolNames !== this.model.names.join()) {
      this.atolNames = this.model.names.join();
      this.renderAtolStates(atolPerState);
    }
    this.showMethodControls();
    this.showFormulationControls();
  }

  /** The state names the atol fields were made for. */
  private atolNames = '';

  private renderParams(values: Record<string, number> = {}): void {
    this.paramsBox.replaceChildren();
    const legend = document.createElement('legend');
    legend.textContent = 'Parameters';
    this.paramsBox.append(legend);
    this.paramsBox.hidden = this.model.params.length === 0;
    const STEPS = 200;
    for (const p of this.model.params) {
      const value = values[p.name] ?? p.value;
      // Around the default, unless a scenario or link sets a value outside that range
      // (a damper of 1000 where the model's default is 0.5): then around the value.
      const around = defaultBounds(p.value, p.greaterThan);
      const bounds = value >= around.min && value <= around.max ? around : defaultBounds(value, p.greaterThan);
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
      // A field that overrides your text's value says so (the run uses the field).
      const note = document.createElement('small');
      note.className = 'param-text';
      const markOverride = (): void => {
        const differs = this.model.id === CUSTOM && input.value !== '' && Number(input.value) !== p.value;
        note.textContent = differs ? ` (text: ${p.value})` : '';
      };
      markOverride();
      const name = document.createElement('span');
      name.append(p.unit ? `${p.name} (${p.unit})` : p.name, note);
      label.append(name, input);
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
        markOverride();
        void this.onChange();
      });
      input.addEventListener('input', () => {
        place();
        markOverride();
        void this.onChange();
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


  /** The spec the controls describe. */
  spec(): SolveSpec {
    return toSpec(this.settings(), this.model, this.method());
  }

  /** The model currently shown. */
  modelInfo(): ModelInfo {
    return this.model;
  }

  /** The method chosen (your tableau's capabilities for `custom`). */
  methodInfo(): MethodInfo | undefined {
    return this.method();
  }

  /** The run adapts its step (an adaptive method, "fixed step" not ticked). */
  isAdaptive(): boolean {
    return this.adaptive();
  }

  /** Describes a typed system in the worker (for a pin restored from a link). */
  describeText(text: string): Promise<ModelInfo> {
    return this.engine.describe(text);
  }
}
