/**
 * What a run is, as the page and its links know it (`RunSettings`), and the one place
 * that turns it into the engine's `SolveSpec`. Pure: the view, the share links, the
 * scenario gallery and the scenario claim tests all go through `toSpec`.
 */
import type { MethodInfo, ModelInfo, SolveSpec, TableauSpec } from './engine';
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
  /** Your own Butcher tableau, used when method is `custom`. */
  tableau?: TableauSpec;
  /** A constrained mechanism's formulation: augmented (000 eq. 9) or state-space (001). */
  formulation?: string;
  /** Constraint stabilisation of the augmented formulation: baumgarte or projection. */
  stabilization?: string;
  /** Runs pinned beside this one (drawn on the same axes), re-solved when opened. */
  pins?: PinSettings[];
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
    if (settings.hMax !== undefined) spec.hMax = settings.hMax;
  } else {
    spec.h = settings.h;
    if (method?.adaptive) spec.adaptive = false;
  }
  if (settings.method === CUSTOM && settings.tableau) spec.tableau = settings.tableau;
  if (settings.formulation === 'augmented' || settings.formulation === 'state-space') {
    spec.formulation = settings.formulation;
    if (settings.formulation === 'augmented' && (settings.stabilization === 'baumgarte' || settings.stabilization === 'projection')) {
      spec.stabilization = settings.stabilization;
    }
  }
  const declared = model.events.filter((e) => !e.watched);
  if (settings.events && declared.length > 0) spec.events = declared.map((e) => ({ id: e.id }));
  return spec;
}
