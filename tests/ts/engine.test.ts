// The engine wrapper (www/engine.ts) against the real built wasm package, in Node.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Integrator, initEngine, methods, models, solve } from '../../www/engine';

beforeAll(async () => {
  await initEngine(readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url)));
});

describe('engine', () => {
  it('initialises once and lists the catalogues', async () => {
    await initEngine(); // a second call reuses the loaded module
    expect(methods().map((m) => m.id)).toEqual(expect.arrayContaining(['euler', 'rk4']));
    expect(models().map((m) => m.id)).toEqual(expect.arrayContaining(['mass-spring-damper', 'pendulum']));
  });

  it('solves and reports observed orders 1 (Euler) and 4 (RK4) against the exact solution', () => {
    const slope = (method: string, hs: number[]): number => {
      const errs = hs.map((h) => {
        const sol = solve({ model: 'mass-spring-damper', method, t1: 1, h });
        const n = sol.t.length - 1;
        const exact = sol.exact;
        if (!exact) throw new Error('exact solution expected');
        return Math.max(Math.abs(sol.y[2 * n] - exact[2 * n]), Math.abs(sol.y[2 * n + 1] - exact[2 * n + 1]));
      });
      return Math.log(errs[0] / errs[errs.length - 1]) / Math.log(hs[0] / hs[hs.length - 1]);
    };
    expect(Math.abs(slope('euler', [1e-3, 5e-4, 2.5e-4]) - 1)).toBeLessThan(0.05);
    expect(Math.abs(slope('rk4', [0.02, 0.01, 0.005]) - 4)).toBeLessThan(0.1);
  });

  it('throws Errors with the core message', () => {
    expect(() => solve({ model: 'pendulum', method: 'rk4', t1: 1, h: 0 })).toThrow(/h must be a positive number/);
    expect(() => new Integrator({ model: 'pendulum', method: 'x', t1: 1, h: 0.1 })).toThrow(/unknown method "x"/);
  });
});
