import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '../../www/engine';
import { defaultPhaseAxes, uprightAxisName } from '../../www/phase';
import type { Run } from '../../www/run';

function runWith(names: string[], outputs: string[], secondOrder = false): Run {
  return {
    names,
    outputs: Object.fromEntries(outputs.map((o) => [o, new Float64Array()])),
    model: { id: 'custom', params: [], secondOrder } as unknown as ModelInfo,
  } as unknown as Run;
}

describe('the phase portrait’s default axes', () => {
  it('are q against q̇ for a second-order model', () => {
    expect(defaultPhaseAxes(runWith(['x', 'y', 'vx', 'vy'], [], true))).toEqual(['x', 'vx']);
  });

  it('are the first two states otherwise', () => {
    expect(defaultPhaseAxes(runWith(['u', 'v', 'w'], ['energy']))).toEqual(['u', 'v']);
  });

  it('are a recorded coordinate against its rate when the run integrates no state', () => {
    // A fully driven mechanism in state-space form records q and q̇ as outputs.
    const outputs = ['piston', 'constraint |Φ|', 'q:x1', 'q:y1', 'q:ẋ1', 'q:ẏ1', 'λ:Ox'];
    expect(defaultPhaseAxes(runWith([], outputs))).toEqual(['q:x1', 'q:ẋ1']);
  });

  it('are the first outputs when nothing else is known', () => {
    expect(defaultPhaseAxes(runWith([], ['piston', 'crank']))).toEqual(['piston', 'crank']);
  });
});

describe('the phase portrait’s vertical axis name', () => {
  it('is upright when short, where turned "ω" would read as "3", and turned when long', () => {
    expect(uprightAxisName('ω')).toBe(true);
    expect(uprightAxisName('vx')).toBe(true);
    expect(uprightAxisName('q:ẋ1')).toBe(false);
    expect(uprightAxisName('energy')).toBe(false);
  });
});
