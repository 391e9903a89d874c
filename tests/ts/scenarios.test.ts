// Every scenario of the gallery (www/scenarios.json) runs through the real engine and
// its claim — what the paper's figure or table says — holds.
import { beforeAll, describe, expect, it } from 'vitest';
import { methods, models } from '../../www/engine';
import { convergence, stabilityAnalysis } from '../../www/engine-labs';
import type { Solution } from '../../www/engine';
import { CUSTOM } from '../../www/settings';
import { byId, describeSystem, loadEngines, run, scenarios } from './page-engine';

beforeAll(loadEngines);

const drift = (e: Float64Array): number => e.reduce((w, v) => Math.max(w, Math.abs(v - e[0]) / Math.abs(e[0])), 0);
const maxOf = (a: Float64Array): number => a.reduce((w, v) => Math.max(w, Math.abs(v)), 0);

describe('scenarios', () => {
  it('name models and methods that exist, with a caption and a source', () => {
    const modelIds = new Set([...models().map((m) => m.id), CUSTOM]);
    const methodIds = new Set(methods().map((m) => m.id));
    expect(new Set(scenarios.map((s) => s.id)).size).toBe(scenarios.length);
    for (const s of scenarios) {
      expect(modelIds.has(s.settings.model), s.id).toBe(true);
      expect(methodIds.has(s.settings.method), s.id).toBe(true);
      expect(s.caption.length, s.id).toBeGreaterThan(40);
      expect(s.source.length, s.id).toBeGreaterThan(3);
    }
  });

  it('Schwab & Delhaes Fig. 7.5: Euler more than doubles the pendulum energy in 10 s', () => {
    const e = run(byId('euler-pendulum-blowup').settings).outputs.energy;
    expect(e[e.length - 1]).toBeGreaterThan(2 * e[0]);
  });

  it('Schwab & Delhaes §7.3: RK4 at the same h keeps it to 1e-6', () => {
    expect(drift(run(byId('rk4-pendulum-energy').settings).outputs.energy)).toBeLessThan(1e-6);
  });

  it('Schwab & Delhaes §7.3: RK4 blows up just above h = 2√2/ω and not just below', () => {
    const s = byId('rk4-stability-limit').settings;
    // |R(2.9i)| ≈ 1.193 per step: past 1e150 after ~1960 steps, near t = 568.
    const above = run(s);
    expect(above.warning).toMatch(/blew up/);
    expect(above.t[above.t.length - 1]).toBeGreaterThan(500);
    const below = run({ ...s, h: 0.28 });
    expect(below.warning).toBeUndefined();
    expect(maxOf(below.y)).toBeLessThan(2);
  });

  it('Gil, Sanfelice & Nikravesh (LLM) §3: events cut the bouncing balls energy drift at least fourfold', () => {
    const s = byId('bouncing-balls-events').settings;
    const withEvents = run(s);
    const without = run({ ...s, events: false });
    expect(withEvents.events.length).toBeGreaterThan(10);
    expect(drift(withEvents.outputs.energy) * 4).toBeLessThan(drift(without.outputs.energy));
  });

  it('Gil, Sanfelice & Nikravesh 2013 Fig. 7: RK4 at h = 0.005 blows up near t = 1.26, at h = 0.001 it conserves energy', () => {
    const s = byId('pendulum-particle-rk4').settings;
    const coarse = run(s);
    expect(coarse.warning).toMatch(/blew up/);
    expect(coarse.t[coarse.t.length - 1]).toBeGreaterThan(1.2);
    expect(coarse.t[coarse.t.length - 1]).toBeLessThan(1.3);
    expect(drift(run({ ...s, h: 0.001 }).outputs.energy)).toBeLessThan(1e-9);
  });

  it('Gil, Sanfelice & Nikravesh (LLM) eq. (35): dp45 follows sin(1/t) from t0 = 1/π to 1e-5', () => {
    const sol = run(byId('sin-inv-t').settings);
    expect(sol.t[0]).toBeCloseTo(1 / Math.PI, 15);
    const exact = sol.exact as Float64Array;
    expect(sol.y.reduce((w, v, i) => Math.max(w, Math.abs(v - exact[i])), 0)).toBeLessThan(1e-5);
  });

  it('Gil, Sanfelice & Nikravesh (LLM) §2: the body-coordinate double pendulum keeps its joints to round-off', () => {
    const sol = run(byId('double-pendulum-stiff-rk4').settings);
    expect(maxOf(sol.outputs['constraint |Φ|'])).toBeLessThan(1e-8);
    expect(maxOf(sol.outputs['velocity constraint |Φq q̇|'])).toBeLessThan(1e-8);
    // E0 = 0 (both links at rest, horizontal) while the motion carries ~m g L ≈ 10 J:
    // measure the absolute change (4.4e-6 J when measured).
    const e = sol.outputs.energy;
    expect(e.reduce((w, v) => Math.max(w, Math.abs(v - e[0])), 0)).toBeLessThan(1e-4);
  });

  it('Negrut et al. 2003 §3.2: the stiff vehicle costs an explicit method over 1e5 f-evaluations', () => {
    const sol = run(byId('vehicle-explicit').settings);
    expect(sol.warning).toBeUndefined();
    expect(sol.stats.nfev).toBeGreaterThan(100_000);
  });

  it('Van der Pol μ = 1000: stability, not accuracy, limits dp45 (over 1e6 f-evaluations)', () => {
    const sol = run(byId('van-der-pol-explicit').settings);
    expect(sol.stats.nfev).toBeGreaterThan(1_000_000);
    expect(sol.stats.nreject).toBeGreaterThan(0.1 * sol.stats.naccept);
  });

  it('Negrut et al. 2003 §3.1: body 1 of the RSDA pendulum swings between ~4 and ~6 rad towards 3π/2', () => {
    const sol = run(byId('double-pendulum-rsda').settings);
    const theta1 = sol.y.filter((_, i) => i % sol.dim === 0);
    expect(Math.min(...theta1)).toBeLessThan(4);
    expect(Math.max(...theta1)).toBeGreaterThan(6);
    expect(Math.abs(theta1[theta1.length - 1] - (3 * Math.PI) / 2)).toBeLessThan(0.2);
  });

  it('Gil, Sanfelice & Nikravesh 2013 Figs. 7–8: slowfast at h = 0.005 stays bounded, energy drift like dp45 at rtol 1e-3', () => {
    const sol = run(byId('pendulum-particle-slowfast').settings);
    expect(sol.warning).toBeUndefined();
    const dp45 = run({ model: 'pendulum-particle', method: 'dp45', rtol: 1e-3, atol: 1e-6, t1: 10 });
    const [mine, theirs] = [drift(sol.outputs.energy), drift(dp45.outputs.energy)];
    expect(mine).toBeLessThan(1e-6);
    expect(mine / theirs).toBeGreaterThan(0.1);
    expect(mine / theirs).toBeLessThan(10);
    expect(sol.stats.nfev).toBeLessThan(dp45.stats.nfev);
  });

  it('Gil, Sanfelice & Nikravesh (LLM) Fig. 5: LLM with events keeps the energy to 1e-12; dp45 without events does not', () => {
    const llm = run(byId('bouncing-balls-llm').settings);
    expect(llm.events.length).toBeGreaterThan(20);
    expect(drift(llm.outputs.energy)).toBeLessThan(1e-12);
    const dp45 = run({ model: 'bouncing-balls', method: 'dp45', rtol: 1e-3, atol: 1e-6, t1: 3 });
    expect(drift(dp45.outputs.energy)).toBeGreaterThan(1e-2);
  });

  it('Gil, Sanfelice & Nikravesh (LLM) Fig. 6: adaptive LLM follows sin(1/t) to 2e-4', () => {
    const sol = run(byId('sin-inv-t-llm').settings);
    const exact = sol.exact as Float64Array;
    expect(sol.y.reduce((w, v, i) => Math.max(w, Math.abs(v - exact[i])), 0)).toBeLessThan(2e-4);
  });

  it('Negrut et al. 2003 Tables 4–6: ros4 step counts within a factor 1.5 of the paper for tol 1e-2 … 1e-7', () => {
    const base = byId('double-pendulum-rsda-ros4').settings;
    const seed = [29, 49, 85, 148, 264, 467];
    seed.forEach((steps, k) => {
      const tol = 10 ** -(k + 2);
      const ours = run({ ...base, rtol: tol, atol: tol }).stats.naccept;
      expect(ours / steps, `tol ${tol}: ${ours} vs ${steps}`).toBeGreaterThan(1 / 1.5);
      expect(ours / steps, `tol ${tol}: ${ours} vs ${steps}`).toBeLessThan(1.5);
    });
  });

  it('Negrut et al. 2003 §3.2: ros4 (hMax 5 ms) needs two orders fewer f-evaluations than dp45 for the same bump', () => {
    const ros4 = run(byId('vehicle-ros4').settings);
    const dp45 = run(byId('vehicle-explicit').settings);
    expect(dp45.stats.nfev / ros4.stats.nfev).toBeGreaterThan(100);
    const range = (s: Solution): number => {
      const h = s.outputs['chassis height'];
      return Math.max(...h) - Math.min(...h);
    };
    expect(Math.abs(range(ros4) - range(dp45))).toBeLessThan(0.02 * range(dp45));
  });

  it('Negrut et al. 2003 §3.2, Algorithm 1: the state-space vehicle keeps Φ at round-off, the augmented one drifts, same chassis height', () => {
    const s = byId('vehicle-state-space').settings;
    expect(s.formulation).toBe('state-space');
    const tEval = Array.from({ length: 501 }, (_, i) => i * 0.01);
    const ss = run(s, { tEval });
    const aug = run({ ...s, formulation: 'augmented' }, { tEval });
    for (const sol of [ss, aug]) {
      expect(sol.warning).toBeUndefined();
      expect(sol.t[sol.t.length - 1]).toBe(5);
    }
    expect(ss.constraint?.formulation).toBe('state-space');
    expect(aug.constraint?.formulation).toBe('augmented');
    // Measured: state-space max ‖Φ‖ 2.4e-15, ‖Φq q̇‖ 6e-16; augmented ‖Φ‖ grows to 1.8e-5.
    expect(maxOf(ss.outputs['constraint |Φ|'])).toBeLessThan(1e-10);
    expect(maxOf(ss.outputs['velocity constraint |Φq q̇|'])).toBeLessThan(1e-10);
    expect(maxOf(aug.outputs['constraint |Φ|'])).toBeGreaterThan(1e-7);
    // Chassis height (measured): at rest on the flat road at the height the model computes
    // from its masses and spring preloads (0.71004), peaks 0.7389 at t ≈ 0.6 (front
    // wheel on the bump from 0.5 s) and 0.7374 at t ≈ 1.3 (rear wheel from 1.2 s), and
    // within 1e-4 of 0.71 from t = 4 on.
    const height = ss.outputs['chassis height'];
    const within = (a: number, b: number): number[] => [...height].filter((_, i) => ss.t[i] >= a && ss.t[i] <= b);
    expect(Math.abs(height[0] - 0.71)).toBeLessThan(1e-4);
    expect(Math.max(...within(0, 0.5).map((v) => Math.abs(v - height[0])))).toBeLessThan(1e-6);
    expect(Math.max(...within(0.5, 1.2))).toBeGreaterThan(0.73);
    expect(Math.max(...within(1.2, 2))).toBeGreaterThan(0.73);
    expect(Math.max(...within(4, 5).map((v) => Math.abs(v - 0.71)))).toBeLessThan(1e-3);
    // Both formulations on one time grid (dense output): yc agrees to 1.1e-7 when measured.
    const yc = (sol: Solution): number[] => {
      const j = sol.names.indexOf('yc');
      expect(j).toBeGreaterThanOrEqual(0);
      expect(sol.tEval.length).toBe(tEval.length);
      return tEval.map((_, i) => sol.yEval[i * sol.dim + j]);
    };
    const [a, b] = [yc(ss), yc(aug)];
    expect(a.reduce((w, v, i) => Math.max(w, Math.abs(v - b[i])), 0)).toBeLessThan(1e-5);
    // About as many steps either way (1194 and 1169 when measured; hMax = 5 ms sets most).
    expect(ss.stats.naccept / aug.stats.naccept).toBeGreaterThan(2 / 3);
    expect(ss.stats.naccept / aug.stats.naccept).toBeLessThan(1.5);
  });

  it('Van der Pol μ = 1000: ros4 over [0, 3000] in under 20,000 f-evaluations, near the reference', () => {
    const sol = run(byId('van-der-pol-ros4').settings);
    expect(sol.stats.nfev).toBeLessThan(20_000);
    const n = sol.t.length - 1;
    expect(Math.abs(sol.y[2 * n] - -1.51060693674397)).toBeLessThan(1e-5);
  });

  const facts = (method: string, extra = {}) =>
    stabilityAnalysis({ method, re: [-4, 2], im: [-3, 3], nx: 64, ny: 64, ...extra }).facts;

  it('a caption that asks to set n lists the n-range control, which a read-only embed then shows', () => {
    const asking = scenarios.filter((s) => /\bset n\b/.test(s.caption));
    expect(asking.map((s) => s.id)).toContain('heun-error-vs-h');
    for (const s of asking) expect(s.controls, s.id).toContain('nrange');
  });

  it('a caption kept up while its tolerances change says at which tolerance its step and f-evaluation counts hold', () => {
    // The caption stays while the reader moves a control it lists (www/settings.ts): a
    // count measured at the scenario's own rtol must name it, or it reads as true for every rtol.
    const counted = /(?<!every )\b\d[\d,]*\s+(steps|f-evaluations)\b/;
    const checked: string[] = [];
    for (const s of scenarios.filter((x) => x.controls?.includes('tolerances'))) {
      for (const sentence of s.caption.split(/(?<=\.)\s+(?=[A-Z])/)) {
        if (!counted.test(sentence)) continue;
        checked.push(s.id);
        expect(sentence, s.id).toMatch(/rtol|tolerance/);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['sin-inv-t-llm', 'vehicle-ros4', 'andrews-squeezer', 'double-pendulum-rsda-ros4']));
  });

  it('every view a scenario names exists', () => {
    for (const s of scenarios) expect(['trajectory', 'stability', 'convergence', undefined]).toContain(s.view);
  });

  it("Schwab & Delhaes Fig. 7.4: Euler's region is the disc through −2, and the pendulum's hλ lies outside it", () => {
    const s = byId('euler-region').settings;
    const f = facts(s.method);
    expect(f.realIntercept).toBeCloseTo(-2, 9);
    expect(f.imagExtent).toBeUndefined();
    const hw = (s.h ?? 0) * Math.sqrt(9.81);
    expect(Math.hypot(1, hw)).toBeGreaterThan(1);
  });

  it('Schwab & Delhaes Fig. 7.6: Heun reaches −2 and misses the imaginary axis', () => {
    const f = facts(byId('heun-region').settings.method);
    expect(f.realIntercept).toBeCloseTo(-2, 9);
    expect(f.imagExtent).toBeUndefined();
  });

  it('Schwab & Delhaes Figs. 7.7–7.9: RK4 is stable up to 2√2 on the imaginary axis, so hω = 2 stays bounded', () => {
    const s = byId('rk4-region').settings;
    expect(facts(s.method).imagExtent).toBeCloseTo(2 * Math.SQRT2, 9);
    const sol = run(s);
    expect(sol.warning).toBeUndefined();
    expect(maxOf(sol.y)).toBeLessThan(1);
  });

  it('Schwab & Delhaes Fig. 7.16: backward Euler is A- and L-stable', () => {
    const f = facts(byId('backward-euler-region').settings.method);
    expect(f.aStable).toBe(true);
    expect(f.lStable).toBe(true);
  });

  it('Schwab & Delhaes Figs. 7.10–7.14: Heun converges with slope 2 and Richardson tracks the error', () => {
    const s = byId('heun-error-vs-h').settings;
    const result = convergence({ model: s.model, params: s.params, t1: s.t1, methods: ['heun'], tols: [], localH: [] });
    const heun = result.global[0];
    expect(Math.abs(heun.fit.slope - 2)).toBeLessThan(0.15);
    const k = heun.fit.to;
    expect(heun.richardson[k] / heun.error[k]).toBeGreaterThan(0.5);
    expect(heun.richardson[k] / heun.error[k]).toBeLessThan(2);
  });

  it('Gil, Sanfelice & Nikravesh 2013 Figs. 2–3: with β = 0 the slow/fast region is stable at −1 and unstable right of 0', () => {
    const s = byId('slowfast-region').settings;
    const map = (beta: number) =>
      stabilityAnalysis({ method: s.method, re: [-1, 0.5], im: [0, 0.5], nx: 2, ny: 2, alpha: 100, beta }).values;
    const v = map(0);
    expect(v[0]).toBeLessThan(1); // ξ = −1
    expect(v[1]).toBeGreaterThan(1); // ξ = 0.5
  });

  it('Gil, Sanfelice & Nikravesh (LLM) §1: LLM is A-stable (R = e^ξ), with the whole imaginary axis', () => {
    const f = facts(byId('llm-region').settings.method);
    expect(f.aStable).toBe(true);
    expect(f.imagExtent).toBe(Infinity);
  });

  it('Negrut et al. 2003 §2: ros4 is L-stable', () => {
    const f = facts(byId('ros4-region').settings.method);
    expect(f.lStable).toBe(true);
    expect(f.valueAtMinusInfinity).toBeLessThan(1e-6);
  });

  it('heat equation: explicit Euler is stable just below h = 1/(2D(N+1)²) and not above', () => {
    const s = byId('heat-equation-stiffness').settings;
    const last = (sol: Solution): Float64Array => sol.y.slice(sol.y.length - sol.names.length);
    expect(describeSystem(s.system ?? '').params.find((p) => p.name === 'N')?.integer).toBe(true);
    const below = run(s);
    expect(below.names.length).toBe(20);
    expect(below.names[0]).toBe('u[1]');
    // The smooth mode decays as e^{λ₁t}, λ₁ = −4·21² sin²(π/42) ≈ −9.86: max u(0.5) ≈ 0.0072.
    expect(maxOf(last(below))).toBeGreaterThan(0.006);
    expect(maxOf(last(below))).toBeLessThan(0.008);
    // Above the limit the round-off in the highest mode grows by |1 + hλ₂₀| ≈ 1.105 a step.
    expect(maxOf(last(run({ ...s, h: 0.0012 })))).toBeGreaterThan(1);
    // Stiffness grows as N²: with 40 cells the same h is four times over the limit.
    const n40 = run({ ...s, params: { N: 40 } });
    expect(n40.names.length).toBe(40);
    expect(n40.warning ?? `${maxOf(last(n40))}`).toMatch(/blew up|e\+/);
  });

  it('1-D Brusselator: ros4 on 80 states with far fewer f-evaluations than dp45', () => {
    const s = byId('brusselator-1d').settings;
    const ros4 = run(s);
    expect(ros4.warning).toBeUndefined();
    expect(ros4.names.length).toBe(80);
    const dp45 = run({ ...s, method: 'dp45' });
    expect(ros4.stats.nfev * 2).toBeLessThan(dp45.stats.nfev);
  });

  it('your own system: the example solves and its event line fires', () => {
    const sol = run(byId('your-system').settings);
    expect(sol.warning).toBeUndefined();
    expect(sol.events.length).toBeGreaterThan(5);
  });
});
