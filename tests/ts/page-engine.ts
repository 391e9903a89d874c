// The engine as the page calls it, for the tests that run the scenarios: the run package
// first and the whole engine for what it leaves out (as www/worker.ts does), and the
// page's own settings → spec conversion.
import { readFileSync } from 'node:fs';
import { describeSystem as describeFirst, initEngine, methods, models, refusedHere, solve as solveFirst } from '../../www/engine';
import * as whole from '../../www/engine-labs';
import { initLabs } from '../../www/engine-labs';
import type { ModelInfo, Solution, SolveSpec } from '../../www/engine';
import scenarioList from '../../www/scenarios.json';
import { CUSTOM, DEFAULT_SYSTEM, toSpec } from '../../www/settings';
import type { RunSettings } from '../../www/settings';
import type { Scenario } from '../../www/main';

export const scenarios = scenarioList as Scenario[];

/** Instantiates both packages (call from `beforeAll`). */
export async function loadEngines(): Promise<void> {
  await initEngine(readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url)));
  await initLabs(readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)));
}

function firstOrWhole<T>(first: () => T, second: () => T): T {
  try {
    return first();
  } catch (e) {
    if (refusedHere(e)) return second();
    throw e;
  }
}
export const solve = (spec: SolveSpec): Solution => firstOrWhole(() => solveFirst(spec), () => whole.solve(spec));
export const describeSystem = (text: string): ModelInfo => firstOrWhole(() => describeFirst(text), () => whole.describeSystem(text));

/** The model the settings name (a typed system is described by the engine). */
export function modelOf(settings: RunSettings): ModelInfo {
  const model = settings.model === CUSTOM ? describeSystem(settings.system ?? DEFAULT_SYSTEM) : models().find((m) => m.id === settings.model);
  if (!model) throw new Error(`no model ${settings.model}`);
  return model;
}

/** The run the page makes for these settings. */
export function run(settings: RunSettings, extra: Partial<SolveSpec> = {}): Solution {
  const method = methods().find((m) => m.id === settings.method);
  const spec = toSpec({ ...settings, system: settings.system ?? DEFAULT_SYSTEM }, modelOf(settings), method);
  return solve({ ...spec, ...extra });
}

export const byId = (id: string): Scenario => {
  const s = scenarios.find((x) => x.id === id);
  if (!s) throw new Error(`scenario ${id} missing`);
  return s;
};
