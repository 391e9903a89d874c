// The run controls added beside h and the tolerances (per-state atol, the step-size
// controller, Baumgarte's α and β, the independent coordinates, the Jacobian's refresh
// and scale): settings → spec only where each applies, share links and sessions keep
// them, a hostile link cannot smuggle bad values in, and leaving a scenario names them.
import { describe, expect, it } from 'vitest';
import type { MethodInfo, ModelInfo } from '../../www/engine';
import { sessionFromJson, sessionToJson } from '../../www/export';
import { decodeSettings, encodeSettings } from '../../www/share';
import { leftScenario, toSpec } from '../../www/settings';
import type { RunSettings } from '../../www/settings';

const model = { id: 'double-pendulum-rsda', names: ['φ1', 'φ2', 'ω1', 'ω2'], events: [] } as unknown as ModelInfo;
const method = (adaptive: boolean, needsJacobian: boolean): MethodInfo => ({ id: 'm', adaptive, needsJacobian }) as unknown as MethodInfo;

const everything: RunSettings = {
  model: 'double-pendulum-rsda',
  method: 'ros4',
  rtol: 1e-6,
  atol: 1e-9,
  atolPerState: [1e-3, 1e-3, 1e-9, 1e-9],
  controller: { kind: 'pi', kI: 0.1, kP: 0.05, safety: 0.8, facMin: 0.5, facMax: 2, perUnitStep: true },
  formulation: 'augmented',
  stabilization: 'baumgarte',
  baumgarteAlpha: 5,
  baumgarteBeta: 20,
  jacobianUpdate: 10,
  jacobianScale: 0.5,
};

describe('run controls', () => {
  it('reach the spec where they apply', () => {
    const spec = toSpec(everything, model, method(true, true));
    expect(spec.atol).toEqual([1e-3, 1e-3, 1e-9, 1e-9]);
    expect(spec.controller).toEqual({ kind: 'pi', kI: 0.1, kP: 0.05, safety: 0.8, facMin: 0.5, facMax: 2, perUnitStep: true });
    expect([spec.baumgarteAlpha, spec.baumgarteBeta]).toEqual([5, 20]);
    expect([spec.jacobianUpdate, spec.jacobianScale]).toEqual([10, 0.5]);
    expect(spec.independent).toBeUndefined();
    const stateSpace = toSpec({ ...everything, formulation: 'state-space', independent: ['φ1', 'φ2'] }, model, method(true, true));
    expect(stateSpace.independent).toEqual(['φ1', 'φ2']);
    expect(stateSpace.baumgarteAlpha).toBeUndefined();
  });

  it('stay out of the spec where they do not apply', () => {
    const fixed = toSpec(everything, model, method(false, false));
    for (const key of ['controller', 'atol', 'jacobianUpdate', 'jacobianScale'] as const) expect(fixed[key], key).toBeUndefined();
    const projection = toSpec({ ...everything, stabilization: 'projection' }, model, method(true, true));
    expect(projection.baumgarteAlpha).toBeUndefined();
    const fixedStep = toSpec({ ...everything, fixedStep: true, h: 0.01 }, model, method(true, true));
    expect(fixedStep.controller).toBeUndefined();
    expect(fixedStep.jacobianScale).toBe(0.5);
  });

  it('round-trip through a share link and a session file', () => {
    const stateSpace: RunSettings = { ...everything, formulation: 'state-space', independent: ['φ1', 'x2'] };
    for (const s of [everything, stateSpace]) {
      expect(decodeSettings(encodeSettings(s))).toEqual({ settings: s });
      expect(sessionFromJson(sessionToJson(s)).settings).toEqual(s);
    }
  });

  it('drop hostile or absurd values field by field', () => {
    const hostile = encodeSettings({
      model: 'pendulum',
      method: 'dp45',
      atolPerState: [1e-3, '<b>'],
      controller: { kind: 'pid', kI: 'x', safety: Infinity, perUnitStep: 'yes', extra: 1 },
      baumgarteAlpha: 'ten',
      independent: ['φ1', '<img src=x onerror=alert(1)>'],
      jacobianUpdate: 2.5,
      jacobianScale: null,
    } as unknown as RunSettings);
    expect(decodeSettings(hostile).settings).toEqual({ model: 'pendulum', method: 'dp45' });
  });

  it('name what changed when a run leaves a scenario, unless the scenario invites it', () => {
    const base: RunSettings = { model: 'mass-spring-damper', method: 'ros4', h: 0.01, jacobianScale: 0.5 };
    expect(leftScenario(base, { ...base, jacobianScale: 1 })).toBe('the Jacobian scale');
    expect(leftScenario(base, { ...base, jacobianScale: 1 }, ['jacobian'])).toBeUndefined();
    expect(leftScenario(base, { ...base, controller: { kind: 'pi' } })).toBe('the step-size controller');
    expect(leftScenario(base, { ...base, controller: { kind: 'pi' } }, ['controller'])).toBeUndefined();
    expect(leftScenario(base, { ...base, baumgarteAlpha: 3 }, ['formulation'])).toBeUndefined();
    expect(leftScenario(base, { ...base, atolPerState: [1, 1] })).toBe('atol per state');
  });
});
