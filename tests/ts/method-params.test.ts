// A run's method parameters (generalized-α's ρ∞, HHT's α, Newmark's β and γ) as the
// page keeps them: into the spec only for the method that reads them, through share
// links checked field by field, and noticed when a scenario's run leaves them.
import { describe, expect, it } from 'vitest';
import { decodeSettings, encodeSettings } from '../../www/share';
import { leftScenario, methodParamsFor, toSpec } from '../../www/settings';
import type { RunSettings } from '../../www/settings';
import type { MethodInfo, ModelInfo } from '../../www/engine';

const model = { id: 'pendulum', events: [] } as unknown as ModelInfo;
const fixedStep = { adaptive: false } as MethodInfo;

describe('method parameters', () => {
  it('go into the spec only for the method that reads them', () => {
    const params = { rhoInf: 0.5, alpha: -0.2, beta: 0.3, gamma: 0.6 };
    const spec = (method: string) => toSpec({ model: 'pendulum', method, h: 0.01, methodParams: params }, model, fixedStep);
    expect(spec('generalized-alpha').methodParams).toEqual({ rhoInf: 0.5 });
    expect(spec('hht-alpha').methodParams).toEqual({ alpha: -0.2 });
    expect(spec('newmark').methodParams).toEqual({ beta: 0.3, gamma: 0.6 });
    expect(spec('rk4').methodParams).toBeUndefined();
    expect(methodParamsFor('newmark', { rhoInf: 0.5 })).toBeUndefined();
  });

  it('round-trip through a share link, and a hostile value is dropped', () => {
    const s: RunSettings = { model: 'pendulum', method: 'generalized-alpha', h: 0.01, methodParams: { rhoInf: 0.5 } };
    expect(decodeSettings(encodeSettings(s))).toEqual({ settings: s });
    const hostile = `#v1=${Buffer.from(JSON.stringify({ model: 'pendulum', method: 'newmark', methodParams: { gamma: '<b>', beta: 0.3, evil: 1 } })).toString('base64url')}`;
    expect(decodeSettings(hostile).settings?.methodParams).toEqual({ beta: 0.3 });
  });

  it("leave a scenario when changed, unless its controls offer them", () => {
    const base: RunSettings = { model: 'pendulum', method: 'generalized-alpha', h: 0.01, methodParams: { rhoInf: 0.5 } };
    const changed = { ...base, methodParams: { rhoInf: 1 } };
    expect(leftScenario(base, changed)).toBe('the method parameters');
    expect(leftScenario(base, changed, ['method-params'])).toBeUndefined();
    expect(leftScenario(base, { ...base })).toBeUndefined();
  });
});
