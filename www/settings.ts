/**
 * What a run is, as the page and its links know it (`RunSettings`), and the one place
 * that turns it into the engine's `SolveSpec`. Pure: the view, the share links, the
 * scenario gallery and the scenario claim tests all go through `toSpec`.
 */
import type { MethodInfo, MethodParams, ModelInfo, SolveSpec, TableauSpec } from './engine';
import type { TableauAnalysis } from './engine-labs';

/** The model id that means "the system typed in the editor". */
export const CUSTOM = 'custom';

/** What the editor shows first: the example, a forced and damped spring. */
export const DEFAULT_SYSTEM = `# Your own system: a forced, damped spring (edit me)
param k = 100, c = 0.5
x' = v
v' = -k*x - c*v + sin(t)
x(0) = 1, v(0) = 0
output energy = 0.5*v^2 + 0.5*k*x^2
event crossing: x`;

export interface RunSettings {
  /** A model id, or `custom` for `system`. */
  model: string;
  method: string;
  /** The text of your own system (when model is `custom`). */
  system?: string;
  /** Step size of fixed-step methods. */
  h?: number;
  /** Tolerances of adaptive methods. */
  rtol?: number;
  atol?: number;
  /** Largest step of an adaptive method (so it cannot step over a short input). */
  hMax?: number;
  /** Run an adaptive method on a fixed grid of step h instead. */
  fixedStep?: boolean;
  t1?: number;
  params?: Record<string, number>;
  /** Locate the model's declared events. */
  events?: boolean;
  /** generalized-alpha's ρ∞, HHT's α, Newmark's β and γ (the methods that read them). */
  methodParams?: MethodParams;
  /** Your own Butcher tableau, used when method is `custom`. */
  tableau?: TableauSpec;
  /** A constrained mechanism's formulation: augmented (Gil, Sanfelice & Nikravesh (LLM) eq. 9) or state-space (001). */
  formulation?: string;
  /** Constraint stabilisation of the augmented formulation: baumgarte or projection. */
  stabilization?: string;
  /** One absolute tolerance per state (adaptive methods); replaces `atol` when given. */
  atolPerState?: number[];
  /** The step-size controller (adaptive methods): left out, the method's default. */
  controller?: ControllerSettings;
  /** Baumgarte's α and β (augmented formulation, stabilization baumgarte; default 10). */
  baumgarteAlpha?: number;
  baumgarteBeta?: number;
  /** The state-space formulation's initial independent coordinates, by name. */
  independent?: string[];
  /** Methods that use ∂f/∂y: refresh it every k-th step only (default 1). */
  jacobianUpdate?: number;
  /** Methods that use ∂f/∂y: hand them s·∂f/∂y (default 1). */
  jacobianScale?: number;
  /** Runs pinned beside this one (drawn on the same axes), re-solved when opened. */
  pins?: PinSettings[];
}

/**
 * The step-size controller of Gil, Sanfelice & Nikravesh (LLM) §5: elementary (I,
 * eq. 38) or PI (eq. 40), on the error per step (EPS) or per unit step (EPUS, eq. 39).
 * A gain left out takes the method's default.
 */
export interface ControllerSettings {
  kind?: 'i' | 'pi';
  kI?: number;
  kP?: number;
  safety?: number;
  /** Limits on h_new / h (default 0.2 and 10). */
  facMin?: number;
  facMax?: number;
  perUnitStep?: boolean;
}

/** A pinned run as links and session files keep it: its settings and its style. */
export type PinSettings = Omit<RunSettings, 'pins'> & { color?: string; hidden?: boolean };

/**
 * Your tableau's capabilities, from the engine's analysis of it (`analyzeTableau`), as
 * the core's src/method/custom.rs states them: adaptive when it has embedded weights,
 * dense output of order min(p, 3), a reused FSAL stage not counted.
 */
export function customMethodInfo(analysis: TableauAnalysis): MethodInfo {
  return {
    id: CUSTOM,
    name: 'Your method',
    order: analysis.order,
    family: 'your tableau',
    source: 'the tableau tab',
    stages: analysis.stages - (analysis.fsal ? 1 : 0),
    adaptive: analysis.embeddedOrder !== undefined,
    ...(analysis.embeddedOrder !== undefined ? { embeddedOrder: analysis.embeddedOrder } : {}),
    fsal: analysis.fsal,
    denseOrder: Math.min(analysis.order, 3),
    secondOrder: false,
    needsJacobian: !analysis.explicit,
    lStable: false,
    partitioned: false,
  };
}

/** The engine spec for `settings`, given the chosen model's and method's descriptions. */
export function toSpec(settings: RunSettings, model: ModelInfo, method: MethodInfo | undefined): SolveSpec {
  const spec: SolveSpec = { method: settings.method, params: { ...(settings.params ?? {}) } };
  if (settings.t1 !== undefined) spec.t1 = settings.t1;
  if (settings.model === CUSTOM) spec.system = settings.system ?? '';
  else spec.model = settings.model;
  if (method?.adaptive && !settings.fixedStep) {
    if (settings.rtol !== undefined) spec.rtol = settings.rtol;
    if (settings.atol !== undefined) spec.atol = settings.atol;
    if (settings.atolPerState !== undefined) spec.atol = settings.atolPerState;
    if (settings.hMax !== undefined) spec.hMax = settings.hMax;
    if (settings.controller !== undefined) spec.controller = { ...settings.controller };
  } else {
    spec.h = settings.h;
    if (method?.adaptive) spec.adaptive = false;
  }
  if (settings.method === CUSTOM && settings.tableau) spec.tableau = settings.tableau;
  const params = methodParamsFor(settings.method, settings.methodParams);
  if (params) spec.methodParams = params;
  if (settings.formulation === 'augmented' || settings.formulation === 'state-space' || settings.formulation === 'index-3') {
    spec.formulation = settings.formulation;
    if (settings.formulation === 'augmented' && (settings.stabilization === 'baumgarte' || settings.stabilization === 'projection')) {
      spec.stabilization = settings.stabilization;
      if (settings.stabilization === 'baumgarte') {
        if (settings.baumgarteAlpha !== undefined) spec.baumgarteAlpha = settings.baumgarteAlpha;
        if (settings.baumgarteBeta !== undefined) spec.baumgarteBeta = settings.baumgarteBeta;
      }
    }
    if (settings.formulation === 'state-space' && settings.independent !== undefined) spec.independent = [...settings.independent];
  }
  if (method?.needsJacobian) {
    if (settings.jacobianUpdate !== undefined) spec.jacobianUpdate = settings.jacobianUpdate;
    if (settings.jacobianScale !== undefined) spec.jacobianScale = settings.jacobianScale;
  }
  const declared = model.events.filter((e) => !e.watched);
  if (settings.events && declared.length > 0) spec.events = declared.map((e) => ({ id: e.id }));
  return spec;
}

/** Which `methodParams` each method reads (src/method/generalized_alpha.rs). */
export const METHOD_PARAMS: Record<string, (keyof MethodParams)[]> = {
  'generalized-alpha': ['rhoInf'],
  'hht-alpha': ['alpha'],
  newmark: ['beta', 'gamma'],
  ndf: ['maxOrder'],
  bdf: ['maxOrder'],
};

/** The parameters of `params` that `method` reads, or undefined if none. */
export function methodParamsFor(method: string, params: MethodParams | undefined): MethodParams | undefined {
  const kept = Object.fromEntries((METHOD_PARAMS[method] ?? []).filter((k) => params?.[k] !== undefined).map((k) => [k, params?.[k]]));
  return Object.keys(kept).length > 0 ? (kept as MethodParams) : undefined;
}

/** What each scenario control (`controls` in www/scenarios.json) lets the reader change. */
const CONTROL_SETTINGS: Record<string, string[]> = {
  h: ['h'],
  tolerances: ['rtol', 'atol', 'hMax', 'atolPerState'],
  t1: ['t1'],
  method: ['method', 'tableau', 'fixedStep', 'methodParams'],
  'method-params': ['methodParams'],
  events: ['events'],
  formulation: ['formulation', 'stabilization', 'baumgarteAlpha', 'baumgarteBeta', 'independent'],
  controller: ['controller'],
  'fixed-step': ['fixedStep'],
  jacobian: ['jacobianUpdate', 'jacobianScale'],
  // Your own system: the text is the model, its parameters come with it.
  system: ['system', 'params'],
};

/** How a page names a setting in "you changed …". */
const SETTING_NAMES: Record<string, string> = {
  model: 'the model',
  method: 'the method',
  system: 'the system',
  h: 'h',
  rtol: 'rtol',
  atol: 'atol',
  hMax: 'hMax',
  fixedStep: 'fixed step',
  t1: 't1',
  events: 'event location',
  tableau: 'your method',
  formulation: 'the formulation',
  methodParams: 'the method parameters',
  stabilization: 'the stabilisation',
  atolPerState: 'atol per state',
  controller: 'the step-size controller',
  baumgarteAlpha: 'Baumgarte α',
  baumgarteBeta: 'Baumgarte β',
  independent: 'the independent coordinates',
  jacobianUpdate: 'the Jacobian refresh',
  jacobianScale: 'the Jacobian scale',
};

/**
 * Whether `current` has left the settings a scenario opened with (`baseline`, the
 * settings of its first run): the name of the first setting changed that none of the
 * scenario's `controls` covers, or undefined while the run is still the scenario's.
 * A control the caption invites ("Try: halve h") keeps the scenario; pins and the
 * views' own controls are not run settings and never leave it. The step settings
 * (h, or rtol/atol/hMax, fixed step) follow the method: compared when the method is
 * the scenario's, and left to the method control when it is not.
 */
export function leftScenario(baseline: RunSettings, current: RunSettings, controls: readonly string[] = []): string | undefined {
  const free = new Set(controls.flatMap((c) => CONTROL_SETTINGS[c] ?? []));
  const freeParams = new Set(controls.filter((c) => c.startsWith('param:')).map((c) => c.slice('param:'.length)));
  const differs = (key: string, a: unknown, b: unknown): boolean => !free.has(key) && JSON.stringify(a) !== JSON.stringify(b);
  const keys: [string, unknown, unknown][] = [
    ['model', baseline.model, current.model],
    ['method', baseline.method, current.method],
    ['system', baseline.system, current.system],
    ['t1', baseline.t1, current.t1],
    ['formulation', baseline.formulation ?? 'native', current.formulation ?? 'native'],
    ['stabilization', baseline.stabilization ?? 'none', current.stabilization ?? 'none'],
    ['baumgarteAlpha', baseline.baumgarteAlpha, current.baumgarteAlpha],
    ['baumgarteBeta', baseline.baumgarteBeta, current.baumgarteBeta],
    ['independent', baseline.independent, current.independent],
  ];
  if (baseline.events !== undefined && current.events !== undefined) keys.push(['events', baseline.events, current.events]);
  if (baseline.method === current.method) {
    keys.push(
      ['fixedStep', baseline.fixedStep ?? false, current.fixedStep ?? false],
      ['h', baseline.h, current.h],
      ['rtol', baseline.rtol, current.rtol],
      ['atol', baseline.atol, current.atol],
      ['hMax', baseline.hMax, current.hMax],
      ['atolPerState', baseline.atolPerState, current.atolPerState],
      ['controller', baseline.controller, current.controller],
      ['jacobianUpdate', baseline.jacobianUpdate, current.jacobianUpdate],
      ['jacobianScale', baseline.jacobianScale, current.jacobianScale],
    );
    if (current.method === CUSTOM) keys.push(['tableau', baseline.tableau, current.tableau]);
    keys.push(['methodParams', methodParamsFor(baseline.method, baseline.methodParams), methodParamsFor(current.method, current.methodParams)]);
  }
  for (const [key, a, b] of keys) if (differs(key, a, b)) return SETTING_NAMES[key] ?? key;
  if (!free.has('params') && baseline.model === current.model) {
    const before = baseline.params ?? {};
    const now = current.params ?? {};
    for (const name of new Set([...Object.keys(before), ...Object.keys(now)])) {
      if (!freeParams.has(name) && before[name] !== now[name]) return name;
    }
  }
  return undefined;
}

/** The id among `ids` closest to a mistyped `id`, if it is close enough to be a typo. */
export function closestId(id: string, ids: readonly string[]): string | undefined {
  // Within one edit per three characters (as the system language's "did you mean").
  const allowed = Math.max(1, Math.floor(id.length / 3));
  let best: { id: string; d: number } | undefined;
  for (const candidate of ids) {
    const d = editDistance(id.toLowerCase(), candidate.toLowerCase());
    if (d <= allowed && (!best || d < best.d)) best = { id: candidate, d };
  }
  return best?.id;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 0; i < a.length; i++) {
    const cur = [i + 1];
    for (let j = 0; j < b.length; j++) {
      cur.push(Math.min(prev[j] + (a[i] === b[j] ? 0 : 1), prev[j + 1] + 1, cur[j] + 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
