// CSV and session files (www/export.ts).
import { describe, expect, it } from 'vitest';
import { runToCsv, runsToCsv, sessionFromJson, sessionToJson } from '../../www/export';
import type { Run } from '../../www/run';
import type { ModelInfo } from '../../www/engine';
import { columns } from '../../www/format';

/** A run of two states for the CSV, with what it needs to be described. */
function fakeRun(method: string, h: number, t: number[], y: number[]): Run {
  return {
    settings: { model: 'pendulum', method, h },
    model: { id: 'pendulum', params: [] } as unknown as ModelInfo,
    method: undefined,
    adaptive: false,
    t,
    y,
    yColumns: columns(y, 2),
    names: ['θ', 'ω'],
    outputs: {},
    stats: { nfev: 0, naccept: 0, nreject: 0 } as Run['stats'],
  };
}

describe('CSV', () => {
  it('names its columns and keeps full precision', () => {
    const csv = runToCsv([0, 0.1], [1, 0, 0.995004165278026, -0.0998334166468282], ['θ', 'ω'], {
      energy: [4.5, 4.500000000001],
    });
    expect(csv).toBe('t,θ,ω,energy\n0,1,0,4.5\n0.1,0.995004165278026,-0.0998334166468282,4.500000000001\n');
  });
  it("put a pinned run's states beside the current run's, at its times", () => {
    const live = fakeRun('rk4', 0.5, [0, 0.5, 1], [1, 0, 2, 0, 3, 0]);
    const pin = fakeRun('euler', 1, [0, 1], [10, 1, 20, 2]);
    const lines = runsToCsv(live, [pin]).trim().split('\n');
    expect(lines[0]).toBe('t,θ,ω,"pin 1 (euler, h = 1): θ","pin 1 (euler, h = 1): ω"');
    expect(lines.slice(1)).toEqual(['0,1,0,10,1', '0.5,2,0,15,1.5', '1,3,0,20,2']);
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
  it('keep pinned runs', () => {
    const settings = { model: 'pendulum', method: 'rk4', h: 0.01, pins: [{ model: 'pendulum', method: 'euler', h: 0.01, color: '#f59f00' }] };
    expect(sessionFromJson(sessionToJson(settings))).toEqual({ settings });
  });
  it('refuse what is not a session, or is from a newer version', () => {
    expect(sessionFromJson('nope').error).toMatch(/not JSON/);
    expect(sessionFromJson('{"a":1}').error).toMatch(/not an odelab session/);
    expect(sessionFromJson('{"odelab":7,"settings":{}}').error).toMatch(/newer odelab/);
  });
  it('name a malformed session file a session file, not a link', () => {
    const error = sessionFromJson('{"odelab":1,"settings":{"model":"<b>","method":"rk4"}}').error ?? '';
    expect(error).toBe('This session file names no valid model and method.');
    expect(error).not.toMatch(/link/);
  });
  it('keep a parameter named ω', () => {
    const settings = { model: 'custom', method: 'rk4', system: "param ω = 2\nx' = -ω*x", params: { ω: 3 } };
    expect(sessionFromJson(sessionToJson(settings))).toEqual({ settings });
  });
});
