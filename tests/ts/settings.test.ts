// When a run has left the settings a scenario opened with (www/settings.ts), and the
// "did you mean" for a mistyped scenario id.
import { describe, expect, it } from 'vitest';
import { closestId, leftScenario, type RunSettings } from '../../www/settings';

const base: RunSettings = { model: 'pendulum', method: 'rk4', h: 0.2, t1: 10, params: { g: 9.81, L: 1 } };

describe('leaving a scenario', () => {
  it('stay in the scenario while only the controls its caption lists change', () => {
    expect(leftScenario(base, { ...base }, ['h'])).toBeUndefined();
    expect(leftScenario(base, { ...base, h: 0.1 }, ['h'])).toBeUndefined();
    expect(leftScenario(base, { ...base, params: { g: 9.81, L: 2 } }, ['param:L'])).toBeUndefined();
    // Pins are not run settings.
    expect(leftScenario(base, { ...base, pins: [{ model: 'pendulum', method: 'euler' }] }, [])).toBeUndefined();
  });

  it('leave it on a setting the scenario fixed, naming that setting', () => {
    expect(leftScenario(base, { ...base, model: 'van-der-pol' }, ['h'])).toBe('the model');
    expect(leftScenario(base, { ...base, method: 'heun' }, ['h'])).toBe('the method');
    expect(leftScenario(base, { ...base, h: 0.1 }, [])).toBe('h');
    expect(leftScenario(base, { ...base, t1: 5 }, ['h'])).toBe('t1');
    expect(leftScenario(base, { ...base, params: { g: 9.81, L: 2 } }, ['h'])).toBe('L');
    expect(leftScenario(base, { ...base, formulation: 'augmented' }, ['h'])).toBe('the formulation');
  });

  it('let the step settings follow a method the caption invites changing', () => {
    const dp45: RunSettings = { model: 'pendulum', method: 'dp45', rtol: 1e-6, atol: 1e-9, t1: 10, params: base.params };
    expect(leftScenario(base, dp45, ['method'])).toBeUndefined();
    // With the scenario's method, a step setting it fixed still counts.
    expect(leftScenario(base, { ...base, h: 0.1 }, ['method'])).toBe('h');
    const adaptive: RunSettings = { ...dp45 };
    expect(leftScenario(adaptive, { ...adaptive, fixedStep: true, h: 0.01 }, ['tolerances'])).toBe('fixed step');
    expect(leftScenario(adaptive, { ...adaptive, hMax: 0.1 }, ['tolerances'])).toBeUndefined();
    expect(leftScenario(adaptive, { ...adaptive, hMax: 0.1 }, [])).toBe('hMax');
  });

  it('treat your own system as one control: its text and its parameters', () => {
    const own: RunSettings = { model: 'custom', method: 'rk4', h: 0.01, t1: 10, system: "x' = -x\nx(0) = 1", params: {} };
    const edited = { ...own, system: "param k = 2\nx' = -k*x\nx(0) = 1", params: { k: 2 } };
    expect(leftScenario(own, edited, ['system'])).toBeUndefined();
    expect(leftScenario(own, edited, [])).toBe('the system');
  });
});

describe('closest scenario id', () => {
  const ids = ['rk4-region', 'rk4-pendulum-energy', 'euler-pendulum-blowup', 'backward-euler'];
  it('suggest the id a typo came from', () => {
    expect(closestId('rk4-regoin', ids)).toBe('rk4-region');
    expect(closestId('backward-eular', ids)).toBe('backward-euler');
    expect(closestId('RK4-REGION', ids)).toBe('rk4-region');
  });
  it('suggest nothing for a word that is no near miss', () => {
    expect(closestId('bogus', ids)).toBeUndefined();
    expect(closestId('', ids)).toBeUndefined();
  });
});
