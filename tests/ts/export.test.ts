// CSV and session files (www/export.ts).
import { describe, expect, it } from 'vitest';
import { runToCsv, sessionFromJson, sessionToJson } from '../../www/export';

describe('CSV', () => {
  it('names its columns and keeps full precision', () => {
    const csv = runToCsv([0, 0.1], [1, 0, 0.995004165278026, -0.0998334166468282], ['θ', 'ω'], {
      energy: [4.5, 4.500000000001],
    });
    expect(csv).toBe('t,θ,ω,energy\n0,1,0,4.5\n0.1,0.995004165278026,-0.0998334166468282,4.500000000001\n');
  });
  it('quotes names with commas or quotes', () => {
    expect(runToCsv([0], [1], ['a,b'], { 'say "hi"': [2] }).split('\n')[0]).toBe('t,"a,b","say ""hi"""');
  });
});

describe('session files', () => {
  it('round-trip', () => {
    const settings = { model: 'pendulum', method: 'rk4', h: 0.01, t1: 10, params: { g: 9.81 } };
    expect(sessionFromJson(sessionToJson(settings))).toEqual({ settings });
  });
  it('refuse what is not a session, or is from a newer version', () => {
    expect(sessionFromJson('nope').error).toMatch(/not JSON/);
    expect(sessionFromJson('{"a":1}').error).toMatch(/not an odelab session/);
    expect(sessionFromJson('{"odelab":7,"settings":{}}').error).toMatch(/newer odelab/);
  });
});
