// Every factual sentence of a scenario caption (www/scenarios.json) is a claim, and every
// claim is computed here by the engine on that scenario's own settings: a mode decays or is
// kept, an order, a run stays bounded or blows up, a marker is inside or outside a region,
// step counts, drifts, f-evaluations. Each entry quotes its sentence, and the test first
// checks that the sentence is still in the caption: editing a caption breaks its claim
// until the claim is reviewed. A caption whose every sentence is a suggestion ("Try: …")
// still carries the claims those suggestions imply.
import { beforeAll, describe, expect, it } from 'vitest';
import { methods } from '../../www/engine';
import * as whole from '../../www/engine-labs';
import { convergence, spectrum, stabilityAnalysis, structuralAnalysis } from '../../www/engine-labs';
import type { Solution } from '../../www/engine';
import { fastVerdict } from '../../www/stability';
import { CUSTOM, DEFAULT_SYSTEM, toSpec } from '../../www/settings';
import type { RunSettings } from '../../www/settings';
import { byId, describeSystem as describeText, loadEngines, modelOf, run, scenarios } from './page-engine';

beforeAll(loadEngines);

const settingsOf = (id: string): RunSettings => byId(id).settings;

// ---- measurements ---------------------------------------------------------------------

/** Largest relative change of an output from its first value. */
const drift = (e: Float64Array): number => e.reduce((w, v) => Math.max(w, Math.abs(v - e[0]) / Math.abs(e[0])), 0);
const maxAbs = (a: ArrayLike<number>): number => {
  let w = 0;
  for (let i = 0; i < a.length; i++) w = Math.max(w, Math.abs(a[i]));
  return w;
};
const column = (sol: Solution, name: string): number[] => {
  const j = sol.names.indexOf(name);
  expect(j, `state ${name}`).toBeGreaterThanOrEqual(0);
  return Array.from({ length: sol.t.length }, (_, i) => sol.y[i * sol.dim + j]);
};
const lastT = (sol: Solution): number => sol.t[sol.t.length - 1];
const maxError = (sol: Solution): number => {
  const exact = sol.exact as Float64Array;
  return sol.y.reduce((w, v, i) => Math.max(w, Math.abs(v - exact[i])), 0);
};
/**
 * The undamped spring's amplitude about its equilibrium x* = mg/k (the mass starts at rest
 * at x = 0), √((x − x*)² + (u/ω)²), largest over the samples with t in [a, b]; `exact`
 * measures the exact solution instead. A step multiplies it by |R(hλ)| exactly.
 */
function amplitude(sol: Solution, a: number, b: number, exact = false): number {
  const y = exact ? (sol.exact as Float64Array) : sol.y;
  const [m, k, g] = ['m', 'k', 'g'].map((n) => modelOf({ model: 'mass-spring-damper', method: 'rk4' }).params.find((p) => p.name === n)?.value ?? NaN);
  const omega = Math.sqrt(k / m);
  let w = 0;
  for (let i = 0; i < sol.t.length; i++) if (sol.t[i] >= a && sol.t[i] <= b) w = Math.max(w, Math.hypot(y[i * 2] - (m * g) / k, y[i * 2 + 1] / omega));
  return w;
}
/** Eigenvalues λ of ∂f/∂y at state i of a run, as [re, im] pairs. */
function eigenvaluesAt(settings: RunSettings, sol: Solution, i: number, extra: Record<string, unknown> = {}): [number, number][] {
  const y = Array.from({ length: sol.dim }, (_, j) => sol.y[i * sol.dim + j]);
  const source = settings.model === CUSTOM ? { system: settings.system } : { model: settings.model };
  const flat = spectrum({ ...source, params: settings.params ?? {}, t: sol.t[i], y, ...extra });
  return Array.from({ length: flat.length / 2 }, (_, k) => [flat[2 * k], flat[2 * k + 1]] as [number, number]);
}
/** |R(ξ)| (ρ of the amplification matrix) of a method at one point ξ, from the stability lab. */
function rho(method: string, re: number, im: number, extra: Record<string, number> = {}): number {
  return stabilityAnalysis({ method, re: [re, re + 1], im: [im, im + 1], nx: 2, ny: 2, ...extra }).values[0];
}
const facts = (method: string, extra = {}) => stabilityAnalysis({ method, re: [-4, 2], im: [-3, 3], nx: 64, ny: 64, ...extra }).facts;
/** The exponent p of a ∝ hᵖ between two runs. */
const exponent = (a1: number, a2: number, h1: number, h2: number): number => Math.log(a2 / a1) / Math.log(h2 / h1);
const RK4_IMAG = 2 * Math.SQRT2;
/**
 * A mode's amplitude √(s² + (s'/ω)²) of a typed second-order system's state `name`
 * (its velocity is the state `name'`), largest over the samples with t in [a, b].
 */
function modeAmplitude(sol: Solution, name: string, omega: number, a: number, b: number): number {
  const [s, v] = [column(sol, name), column(sol, `${name}'`)];
  let w = 0;
  for (let i = 0; i < sol.t.length; i++) if (sol.t[i] >= a && sol.t[i] <= b) w = Math.max(w, Math.hypot(s[i], v[i] / omega));
  return w;
}
/** The smallest such amplitude over [a, b]. */
function modeAmplitudeMin(sol: Solution, name: string, omega: number, a: number, b: number): number {
  const [s, v] = [column(sol, name), column(sol, `${name}'`)];
  let w = Infinity;
  for (let i = 0; i < sol.t.length; i++) if (sol.t[i] >= a && sol.t[i] <= b) w = Math.min(w, Math.hypot(s[i], v[i] / omega));
  return w;
}
/** |R(iy)| of RK4 (R(z) = 1 + z + z²/2 + z³/6 + z⁴/24). */
const rk4OnAxis = (y: number): number => Math.hypot(1 - (y * y) / 2 + y ** 4 / 24, y - y ** 3 / 6);

// ---- the claims -------------------------------------------------------------------------

interface Claim {
  scenario: string;
  /** Quoted from the caption, word for word. */
  sentence: string;
  check: () => void;
}

const claims: Claim[] = [
  // Schwab & Delhaes §7.1, Fig. 7.5.
  {
    scenario: 'euler-pendulum-blowup',
    sentence: "Euler's amplification factor 1 + hλ has modulus √(1 + (hω)²) > 1 on the imaginary axis",
    check: () => {
      const s = settingsOf('euler-pendulum-blowup');
      const sol = run(s);
      for (const [re, im] of eigenvaluesAt(s, sol, 0)) {
        expect(Math.abs(re)).toBeLessThan(1e-12);
        const h = s.h ?? NaN;
        expect(rho('euler', h * re, h * im)).toBeCloseTo(Math.sqrt(1 + (h * im) ** 2), 6);
        expect(rho('euler', h * re, h * im)).toBeGreaterThan(1);
      }
    },
  },
  {
    scenario: 'euler-pendulum-blowup',
    sentence: 'an undamped pendulum gains energy every step and its swing grows',
    check: () => {
      const sol = run(settingsOf('euler-pendulum-blowup'));
      const e = sol.outputs.energy;
      for (let i = 1; i < e.length; i++) expect(e[i], `step ${i}`).toBeGreaterThan(e[i - 1]);
      const theta = column(sol, sol.names[0]);
      const first = Math.max(...theta.filter((_, i) => sol.t[i] <= 2).map(Math.abs));
      const last = Math.max(...theta.filter((_, i) => sol.t[i] >= 8).map(Math.abs));
      expect(last).toBeGreaterThan(first);
    },
  },
  {
    scenario: 'euler-pendulum-blowup',
    sentence: 'halve h — the growth slows but never stops',
    check: () => {
      const s = settingsOf('euler-pendulum-blowup');
      const gain = (h: number): number => {
        const e = run({ ...s, h }).outputs.energy;
        return e[e.length - 1] / e[0] - 1;
      };
      const [full, half, quarter] = [gain(s.h ?? NaN), gain((s.h ?? NaN) / 2), gain((s.h ?? NaN) / 4)];
      expect(half).toBeLessThan(full);
      expect(quarter).toBeLessThan(half);
      expect(quarter).toBeGreaterThan(0);
    },
  },

  // Schwab & Delhaes §7.1, Fig. 7.4.
  {
    scenario: 'euler-region',
    sentence: 'Explicit Euler is stable only inside the disc of radius 1 centred at −1.',
    check: () => {
      const f = facts('euler');
      expect(f.realIntercept).toBeCloseTo(-2, 9);
      expect(f.imagExtent).toBeUndefined();
      for (const [re, im, inside] of [[-1, 0.99, true], [-1, 1.01, false], [-0.01, 0, true], [0.01, 0, false], [-1.99, 0, true], [-2.01, 0, false]] as const) {
        expect(rho('euler', re, im) <= 1, `ξ = ${re} + ${im}i`).toBe(inside);
      }
    },
  },
  {
    scenario: 'euler-region',
    sentence: "The pendulum's eigenvalues are ±i√((g/L) cos θ), on the imaginary axis: times h they sit just outside the disc, for every h and at every time of the run",
    check: () => {
      const s = settingsOf('euler-region');
      const sol = run(s);
      const model = modelOf(s);
      const g = model.params.find((p) => p.name === 'g')?.value ?? NaN;
      const L = model.params.find((p) => p.name === 'L')?.value ?? NaN;
      for (let i = 0; i < sol.t.length; i += 50) {
        const theta = sol.y[i * sol.dim];
        for (const [re, im] of eigenvaluesAt(s, sol, i)) {
          expect(Math.abs(re)).toBeLessThan(1e-9);
          expect(Math.abs(im)).toBeCloseTo(Math.sqrt((g / L) * Math.cos(theta)), 9);
          for (const h of [1e-4, s.h ?? NaN, 0.5]) expect(rho('euler', h * re, h * im)).toBeGreaterThan(1);
        }
      }
    },
  },

  // Schwab & Delhaes §7.2, Fig. 7.6.
  {
    scenario: 'heun-region',
    sentence: '|1 + ξ + ξ²/2| ≤ 1 reaches −2 on the real axis but touches the imaginary axis only at 0',
    check: () => {
      const f = facts('heun');
      expect(f.realIntercept).toBeCloseTo(-2, 9);
      expect(f.imagExtent).toBeUndefined();
      expect(rho('heun', 0, 0.01)).toBeGreaterThan(1);
    },
  },
  {
    scenario: 'heun-region',
    sentence: 'Heun also gains energy on an undamped oscillator, much more slowly than Euler',
    check: () => {
      const s = settingsOf('heun-region');
      const heun = run({ ...s, t1: 100 }).outputs.energy;
      const euler = run({ ...s, method: 'euler' }).outputs.energy;
      const heunGain = heun[heun.length - 1] / heun[0] - 1;
      const eulerGain = euler[euler.length - 1] / euler[0] - 1;
      expect(heunGain).toBeGreaterThan(0);
      // Over ten times as long, still far less than Euler's gain in 10 s.
      expect(heunGain * 100).toBeLessThan(eulerGain);
    },
  },

  // Schwab & Delhaes §7.3.
  {
    scenario: 'rk4-pendulum-energy',
    sentence: 'with RK4 the energy drifts by less than one part in a million',
    check: () => {
      expect(drift(run(settingsOf('rk4-pendulum-energy')).outputs.energy)).toBeLessThan(1e-6);
    },
  },
  {
    scenario: 'rk4-pendulum-energy',
    sentence: 'the drift grows as h⁵, about 30-fold per doubling of h',
    check: () => {
      // |R(iy)|² = 1 − y⁶/72 + y⁸/576: each step takes (hω)⁶/72 of the energy, and a fixed
      // time takes 1/h steps, so the drift over it is ∝ h⁵.
      const s = settingsOf('rk4-pendulum-energy');
      const hs = [0.01, 0.02, 0.04];
      const d = hs.map((h) => drift(run({ ...s, h }).outputs.energy));
      for (const k of [0, 1]) {
        expect(d[k + 1] / d[k]).toBeGreaterThan(26);
        expect(d[k + 1] / d[k]).toBeLessThan(34);
        expect(exponent(d[k], d[k + 1], hs[k], hs[k + 1])).toBeCloseTo(5, 0);
      }
      for (const y of [0.1, 0.5, 1]) expect(rk4OnAxis(y) ** 2).toBeCloseTo(1 - y ** 6 / 72 + y ** 8 / 576, 14);
    },
  },
  {
    scenario: 'rk4-pendulum-energy',
    sentence: 'RK4 takes energy out',
    check: () => {
      const e = run({ ...settingsOf('rk4-pendulum-energy'), h: 0.1 }).outputs.energy;
      expect(e[e.length - 1]).toBeLessThan(e[0]);
    },
  },

  // Schwab & Delhaes §7.3, Figs. 7.7–7.9.
  {
    scenario: 'rk4-region',
    sentence: 'RK4 is stable on the imaginary axis up to 2√2 ≈ 2.83 and on the real axis down to −2.785',
    check: () => {
      const f = facts('rk4');
      expect(f.imagExtent).toBeCloseTo(RK4_IMAG, 9);
      expect(f.realIntercept).toBeCloseTo(-2.785293563405282, 9);
    },
  },
  {
    scenario: 'rk4-region',
    sentence: 'at h = 0.2 the undamped spring (ω = 10) has hλ = ±2i, where |R| ≈ 0.75',
    check: () => {
      const s = settingsOf('rk4-region');
      expect(s.h).toBe(0.2);
      const sol = run(s);
      for (const [re, im] of eigenvaluesAt(s, sol, 0)) {
        expect(Math.abs(re)).toBeLessThan(1e-12);
        expect(Math.abs(im)).toBeCloseTo(10, 12);
      }
      expect(rho('rk4', 0, 2)).toBeCloseTo(0.745, 3);
    },
  },
  {
    scenario: 'rk4-region',
    sentence: 'so its amplitude shrinks by a quarter every step, to under a millionth by t = 10, although the exact solution keeps it',
    check: () => {
      const sol = run(settingsOf('rk4-region'));
      const start = amplitude(sol, 0, 0);
      const end = amplitude(sol, 9.5, 10);
      expect(end / start).toBeLessThan(1e-6);
      expect(end / start).toBeGreaterThan(1e-7);
      expect(sol.t.length).toBe(51);
      expect(amplitude(sol, 9.5, 10, true) / start).toBeCloseTo(1, 12);
    },
  },
  {
    scenario: 'rk4-region',
    sentence: 'Inside the region a mode decays; only on its boundary |R| = 1 is it kept',
    check: () => {
      // Points strictly inside on the imaginary axis decay, the boundary keeps |R| = 1.
      for (const y of [0.5, 1, 2, 2.8]) expect(rho('rk4', 0, y)).toBeLessThan(1);
      expect(rho('rk4', 0, RK4_IMAG)).toBeCloseTo(1, 12);
    },
  },

  // Schwab & Delhaes §7.3, Fig. 7.8: the step limit (corrected).
  {
    scenario: 'rk4-stability-limit',
    sentence: 'h < 2√2/ω = 0.2828 for k = 100, m = 1 (0.450 T0, not the notes\' 0.4 T0)',
    check: () => {
      const model = modelOf(settingsOf('rk4-stability-limit'));
      const k = model.params.find((p) => p.name === 'k')?.value ?? NaN;
      const m = model.params.find((p) => p.name === 'm')?.value ?? NaN;
      expect([k, m]).toEqual([100, 1]);
      const omega = Math.sqrt(k / m);
      expect((facts('rk4').imagExtent ?? NaN) / omega).toBeCloseTo(0.2828, 4);
      expect(RK4_IMAG / omega / ((2 * Math.PI) / omega)).toBeCloseTo(0.45, 3);
    },
  },
  {
    scenario: 'rk4-stability-limit',
    sentence: 'At h = 0.29 each step multiplies the amplitude by |R(2.9i)| ≈ 1.19',
    check: () => {
      expect(settingsOf('rk4-stability-limit').h).toBe(0.29);
      expect(rho('rk4', 0, 2.9)).toBeCloseTo(1.19, 2);
    },
  },
  {
    scenario: 'rk4-stability-limit',
    sentence: 'tenfold every 13 steps, so the spring passes 1e10 before t = 60 and the run blows up',
    check: () => {
      expect(Math.log(10) / Math.log(rho('rk4', 0, 2.9))).toBeCloseTo(13, 0);
      const sol = run(settingsOf('rk4-stability-limit'));
      expect(sol.warning).toMatch(/blew up/);
      const i = sol.t.findIndex((_, k) => Math.abs(sol.y[k * sol.dim]) > 1e10);
      expect(i).toBeGreaterThan(0);
      expect(sol.t[i]).toBeLessThan(60);
    },
  },
  {
    scenario: 'rk4-stability-limit',
    sentence: 'try h = 0.28, just inside: the amplitude no longer grows but decays, by 7 % a step (|R(2.8i)| ≈ 0.93)',
    check: () => {
      const below = run({ ...settingsOf('rk4-stability-limit'), h: 0.28 });
      expect(below.warning).toBeUndefined();
      expect(rho('rk4', 0, 2.8)).toBeCloseTo(0.93, 2);
      expect(amplitude(below, 900, 1000)).toBeLessThan(1e-10 * amplitude(below, 0, 0));
    },
  },

  // Schwab & Delhaes §7.7, Figs. 7.15–7.16.
  {
    scenario: 'backward-euler-region',
    sentence: 'R = 1/(1 − ξ): unstable only inside |ξ − 1| < 1, so the whole left half-plane is stable (A-stable) and R(−∞) = 0 (L-stable).',
    check: () => {
      const f = facts('backward-euler');
      expect(f.aStable).toBe(true);
      expect(f.lStable).toBe(true);
      expect(f.valueAtMinusInfinity).toBe(0);
      expect(rho('backward-euler', 1, 0.99)).toBeGreaterThan(1);
      expect(rho('backward-euler', 1, 1.01)).toBeLessThan(1);
      expect(rho('backward-euler', 2.01, 0)).toBeLessThan(1);
      expect(rho('backward-euler', -1e6, 0)).toBeLessThan(1e-5);
    },
  },
  {
    scenario: 'backward-euler-region',
    sentence: 'Even very stiff components are damped, whatever h.',
    check: () => {
      const s = settingsOf('backward-euler-region');
      for (const h of [s.h ?? NaN, 2, 5]) {
        const sol = run({ ...s, h });
        expect(sol.warning, `h = ${h}`).toBeUndefined();
        expect(lastT(sol)).toBe(s.t1);
        expect(amplitude(sol, 9, 10)).toBeLessThan(amplitude(sol, 0, 0));
      }
    },
  },

  // Schwab & Delhaes §7.5–7.6, Figs. 7.10–7.14.
  {
    scenario: 'heun-error-vs-h',
    sentence: 'On log–log axes the global error falls with slope p (1 for Euler, 2 for Heun, 4 for RK4) until round-off takes over at very small h (E = C1·hᵖ + C2/h): RK4 bottoms out near 1e-15 at n = 14 and climbs again beyond it (set n up to 20).',
    check: () => {
      const s = settingsOf('heun-error-vs-h');
      const result = convergence({ model: s.model, params: s.params, t1: s.t1, methods: ['euler', 'heun', 'rk4'], tols: [], localH: [], nMax: 20 });
      const slope = (id: string): number => result.global.find((g) => g.method === id)?.fit.slope ?? NaN;
      expect(slope('euler')).toBeCloseTo(1, 0);
      expect(Math.abs(slope('heun') - 2)).toBeLessThan(0.15);
      expect(Math.abs(slope('rk4') - 4)).toBeLessThan(0.2);
      // RK4's round-off floor: the smallest error at n = 14, larger ones from n = 16 on.
      const rk4 = result.global.find((g) => g.method === 'rk4');
      const floor = rk4?.fit.floor ?? -1;
      expect(rk4?.n[floor]).toBe(14);
      expect(rk4?.error[floor]).toBeLessThan(2e-15);
      expect(rk4?.error[floor]).toBeGreaterThan(1e-16);
      const last = (rk4?.error.length ?? 0) - 1;
      expect(rk4?.n[last]).toBe(20);
      expect(rk4?.error[last]).toBeGreaterThan(10 * (rk4?.error[floor] ?? NaN));
    },
  },
  {
    scenario: 'heun-error-vs-h',
    sentence: "Dₙ = |yₙ − yₙ₋₁| with h = T/2ⁿ shows the same without knowing the exact solution, and Richardson's estimate Dₙ/(2ᵖ − 1) tracks the true error.",
    check: () => {
      const s = settingsOf('heun-error-vs-h');
      const heun = convergence({ model: s.model, params: s.params, t1: s.t1, methods: ['heun'], tols: [], localH: [] }).global[0];
      const k = heun.fit.to;
      expect(heun.dRatio[k]).toBeGreaterThan(3.5);
      expect(heun.dRatio[k]).toBeLessThan(4.5);
      for (let i = heun.fit.from + 1; i <= k; i++) {
        expect(heun.richardson[i] / heun.error[i]).toBeGreaterThan(0.5);
        expect(heun.richardson[i] / heun.error[i]).toBeLessThan(2);
      }
    },
  },

  // Gil, Sanfelice & Nikravesh, LLM §3, Fig. 5.
  {
    scenario: 'bouncing-balls-events',
    sentence: 'every step ends exactly where the contact force switches on or off',
    check: () => {
      const sol = run(settingsOf('bouncing-balls-events'));
      expect(sol.events.length).toBeGreaterThan(10);
      const steps = new Set(sol.t);
      for (const e of sol.events) {
        expect(steps.has(e.t), `event at ${e.t} is a step point`).toBe(true);
        // Ψ1 = 2R − (y1 − y2) or Ψ2 = R − y2 vanishes there (R = 0.1).
        const psi = e.index === 0 ? 0.2 - (e.y[0] - e.y[1]) : 0.1 - e.y[1];
        expect(Math.abs(psi)).toBeLessThan(1e-8);
      }
    },
  },
  {
    scenario: 'bouncing-balls-events',
    sentence: 'the energy drift drops about 7.5-fold at the same tolerance',
    check: () => {
      const s = settingsOf('bouncing-balls-events');
      const ratio = drift(run({ ...s, events: false }).outputs.energy) / drift(run(s).outputs.energy);
      expect(ratio).toBeGreaterThan(7);
      expect(ratio).toBeLessThan(8);
    },
  },
  {
    scenario: 'bouncing-balls-llm',
    sentence: 'with the switching functions located as events and h = 0.5 ms, the energy is kept to 1e-12',
    check: () => {
      const s = settingsOf('bouncing-balls-llm');
      expect(s.h).toBe(0.0005);
      const sol = run(s);
      expect(sol.events.length).toBeGreaterThan(20);
      expect(drift(sol.outputs.energy)).toBeLessThan(1e-12);
    },
  },
  {
    scenario: 'bouncing-balls-llm',
    sentence: 'dp45 without events drifts by 8 % at its default tolerance',
    check: () => {
      const dp45 = methods().find((m) => m.id === 'dp45');
      expect(dp45).toBeDefined();
      const sol = run({ model: 'bouncing-balls', method: 'dp45', t1: 3, rtol: 1e-3, atol: 1e-6 });
      expect(drift(sol.outputs.energy)).toBeGreaterThan(0.07);
      expect(drift(sol.outputs.energy)).toBeLessThan(0.09);
    },
  },

  // Gil, Sanfelice & Nikravesh, LLM eq. (35), Fig. 6.
  {
    scenario: 'sin-inv-t',
    sentence: 'From t0 = 1/π the exact solution is [sin(1/t), cos(1/t), t].',
    check: () => {
      const sol = run(settingsOf('sin-inv-t'));
      expect(sol.t[0]).toBeCloseTo(1 / Math.PI, 15);
      const exact = sol.exact as Float64Array;
      for (const i of [0, sol.t.length - 1]) {
        const t = sol.t[i];
        expect(exact[i * 3]).toBeCloseTo(Math.sin(1 / t), 12);
        expect(exact[i * 3 + 1]).toBeCloseTo(Math.cos(1 / t), 12);
        expect(exact[i * 3 + 2]).toBeCloseTo(t, 12);
      }
    },
  },
  {
    scenario: 'sin-inv-t',
    sentence: 'The error control takes small steps where the oscillation is fast and long ones later',
    check: () => {
      const sol = run(settingsOf('sin-inv-t'));
      const h = Array.from({ length: sol.t.length - 1 }, (_, i) => sol.t[i + 1] - sol.t[i]);
      expect(h[h.length - 2]).toBeGreaterThan(3 * Math.min(...h.slice(0, 5)));
    },
  },
  {
    scenario: 'sin-inv-t',
    sentence: 'dp45 stays within 1e-5 of the exact solution',
    check: () => {
      expect(maxError(run(settingsOf('sin-inv-t')))).toBeLessThan(1e-5);
    },
  },
  {
    scenario: 'sin-inv-t-llm',
    sentence: 'steps from 1/π to 1 with the error against the exact solution near 1e-4',
    check: () => {
      const sol = run(settingsOf('sin-inv-t-llm'));
      expect(maxError(sol)).toBeGreaterThan(3e-5);
      expect(maxError(sol)).toBeLessThan(3e-4);
    },
  },
  {
    scenario: 'sin-inv-t-llm',
    sentence: '230 steps',
    check: () => {
      const sol = run(settingsOf('sin-inv-t-llm'));
      expect(sol.stats.naccept).toBeGreaterThan(210);
      expect(sol.stats.naccept).toBeLessThan(250);
    },
  },

  // Gil, Sanfelice & Nikravesh, LLM §1, eq. (1).
  {
    scenario: 'llm-region',
    sentence: 'On y\' = λy the local linearization method is exact: R(ξ) = e^ξ, so |R| ≤ 1 exactly on the closed left half-plane — A-stable without solving any equation.',
    check: () => {
      const f = facts('llm');
      expect(f.aStable).toBe(true);
      expect(f.imagExtent).toBe(Infinity);
      for (const [re, im] of [[-0.5, 3], [0.3, -2], [-100, 0]]) expect(rho('llm', re, im)).toBeCloseTo(Math.exp(re), 12);
      expect(rho('llm', 1e-3, 0)).toBeGreaterThan(1);
      // Exact to round-off relative to |y0|, for any h (eq. 1 computes yₙ + φ).
      for (const h of [0.01, 0.5, 1]) {
        const sol = whole.solve({ system: "y' = -100*y\ny(0) = 1", method: 'llm', t1: 1, h, adaptive: false });
        expect(Math.abs(sol.y[sol.y.length - 1] - Math.exp(-100))).toBeLessThan(1e-12);
      }
    },
  },

  // Gil, Sanfelice & Nikravesh, LLM §2, Fig. 2.
  {
    scenario: 'double-pendulum-stiff-rk4',
    sentence: 'Two links joined by a 3000 N·m/deg torsional spring, six body coordinates and four joint constraints solved for the accelerations at every f-evaluation.',
    check: () => {
      const s = settingsOf('double-pendulum-stiff-rk4');
      const model = modelOf(s);
      expect(model.params.find((p) => p.name === 'k')?.value).toBe(3000);
      expect(model.dim).toBe(12);
    },
  },
  {
    scenario: 'double-pendulum-stiff-rk4',
    sentence: 'The constraint residuals stay below 1e-8 while RK4 resolves the fast bending mode (±1535i) at h = 1e-3.',
    check: () => {
      const s = settingsOf('double-pendulum-stiff-rk4');
      const sol = run(s);
      // Measured: |Φ| ≤ 9.3e-10, |Φq q̇| ≤ 2.2e-9 (only their second derivative is imposed).
      expect(maxAbs(sol.outputs['constraint |Φ|'])).toBeLessThan(1e-8);
      expect(maxAbs(sol.outputs['velocity constraint |Φq q̇|'])).toBeLessThan(1e-8);
      const fastest = eigenvaluesAt(s, sol, 0)[0];
      expect(Math.abs(fastest[1])).toBeGreaterThan(1530);
      expect(Math.abs(fastest[1])).toBeLessThan(1540);
      expect(rho('rk4', (s.h ?? NaN) * fastest[0], (s.h ?? NaN) * fastest[1])).toBeLessThanOrEqual(1);
    },
  },
  {
    scenario: 'double-pendulum-stiff-rk4',
    sentence: 'Try: h = 2e-3, where h·1535 = 3.07 > 2.83: the bending mode grows and the run blows up.',
    check: () => {
      const s = settingsOf('double-pendulum-stiff-rk4');
      const sol = run({ ...s, h: 2e-3 });
      expect(sol.warning).toMatch(/blew up/);
    },
  },

  // Gil, Sanfelice & Nikravesh 2013, Figs. 6–7.
  {
    scenario: 'pendulum-particle-rk4',
    sentence: 'the fast eigenvalue is ±707i, so at h = 0.005 the product hλ ≈ 3.54i lies outside RK4\'s region (extent 2.83)',
    check: () => {
      const s = settingsOf('pendulum-particle-rk4');
      expect(s.h).toBe(0.005);
      const sol = run({ ...s, t1: 0.1 });
      const [re, im] = eigenvaluesAt(s, sol, 0)[0];
      expect(Math.abs(im)).toBeCloseTo(707.1, 1);
      expect(Math.abs(re)).toBeLessThan(1e-6);
      expect(0.005 * Math.abs(im)).toBeCloseTo(3.54, 2);
      expect(rho('rk4', 0, 3.54)).toBeGreaterThan(1);
    },
  },
  {
    scenario: 'pendulum-particle-rk4',
    sentence: 'the run blows up before t = 1.3, although the slow motion is gentle',
    check: () => {
      const s = settingsOf('pendulum-particle-rk4');
      const sol = run(s);
      expect(sol.warning).toMatch(/blew up/);
      expect(lastT(sol)).toBeLessThan(1.3);
      // The slow block (the bar: θ, θ̇) has |λ| of a few rad/s.
      for (const [re, im] of eigenvaluesAt(s, sol, 0, { block: 'slow' })) expect(Math.hypot(re, im)).toBeLessThan(5);
    },
  },
  {
    scenario: 'pendulum-particle-rk4',
    sentence: 'Try: h = 0.001 (hλ ≈ 0.71i, inside).',
    check: () => {
      const sol = run({ ...settingsOf('pendulum-particle-rk4'), h: 0.001 });
      expect(sol.warning).toBeUndefined();
      expect(drift(sol.outputs.energy)).toBeLessThan(1e-9);
      expect(rho('rk4', 0, 0.7071)).toBeLessThan(1);
    },
  },

  // Gil, Sanfelice & Nikravesh 2013, Figs. 7–8.
  {
    scenario: 'pendulum-particle-slowfast',
    sentence: 'integrates the particle\'s fast states with a matrix exponential and the bar with RK4, stays bounded',
    check: () => {
      const s = settingsOf('pendulum-particle-slowfast');
      expect(modelOf(s).fast).toEqual([2, 3, 4, 5]);
      const sol = run(s);
      expect(sol.warning).toBeUndefined();
      expect(lastT(sol)).toBe(s.t1);
      expect(sol.stats.nexpm).toBeGreaterThan(0);
      expect(maxAbs(sol.y)).toBeLessThan(10);
    },
  },
  {
    scenario: 'pendulum-particle-slowfast',
    sentence: 'drifts in energy about as much as dp45 at rtol 1e-3 (3.6e-8 vs 3.4e-8)',
    check: () => {
      const sol = run(settingsOf('pendulum-particle-slowfast'));
      const dp45 = run({ model: 'pendulum-particle', method: 'dp45', rtol: 1e-3, atol: 1e-6, t1: 10 });
      const [mine, theirs] = [drift(sol.outputs.energy), drift(dp45.outputs.energy)];
      expect(mine).toBeGreaterThan(3.55e-8);
      expect(mine).toBeLessThan(3.65e-8);
      expect(theirs).toBeGreaterThan(3.35e-8);
      expect(theirs).toBeLessThan(3.45e-8);
    },
  },
  {
    scenario: 'pendulum-particle-slowfast',
    sentence: 'with a quarter of its f-evaluations',
    check: () => {
      const sol = run(settingsOf('pendulum-particle-slowfast'));
      const dp45 = run({ model: 'pendulum-particle', method: 'dp45', rtol: 1e-3, atol: 1e-6, t1: 10 });
      const ratio = sol.stats.nfev / dp45.stats.nfev;
      expect(ratio).toBeGreaterThan(0.2);
      expect(ratio).toBeLessThan(0.3);
    },
  },
  {
    scenario: 'pendulum-particle-slowfast',
    sentence: "the markers are hλₛ of the slow block (the bar), next to 0 on the region's edge: at the map's β = 0.1 |R| exceeds 1 by at most 5e-9 a step, under 1e-5 over the 2000 steps. The fast block's ±707i is listed apart, integrated by its matrix exponential and stable for every h.",
    check: () => {
      const s = settingsOf('pendulum-particle-slowfast');
      const sol = run(s);
      const h = s.h ?? NaN;
      // The ξ-plane's default α = 100, β = 0.1 (index.html), at several times of the run.
      for (let i = 0; i < sol.t.length; i += 100) {
        const slow = eigenvaluesAt(s, sol, i, { block: 'slow' });
        expect(slow.length).toBe(2);
        for (const [re, im] of slow) {
          expect(Math.abs(re)).toBeLessThan(1e-9);
          expect(Math.abs(h * im)).toBeLessThan(0.01);
          const excess = rho('slowfast', h * re, h * im, { alpha: 100, beta: 0.1 }) - 1;
          expect(excess).toBeGreaterThan(1e-9);
          expect(excess).toBeLessThan(5e-9);
          expect((1 + excess) ** ((s.t1 ?? NaN) / h) - 1).toBeLessThan(1e-5);
          // Decoupled (β = 0) the same point is on the edge exactly: RK4 inside, e^{αξ} on |z| = 1.
          expect(rho('slowfast', h * re, h * im, { alpha: 100, beta: 0 })).toBeLessThanOrEqual(1 + 1e-12);
        }
        const fast = eigenvaluesAt(s, sol, i, { block: 'fast' });
        expect(fast.length).toBe(4);
        for (const [re, im] of fast) {
          expect(Math.abs(im)).toBeCloseTo(707.1, 0);
          expect(Math.abs(re)).toBeLessThan(1e-9 * Math.abs(im));
        }
        expect(fastVerdict(fast.flat())).toMatch(/λ = ±707i \(×2\), integrated by its matrix exponential — stable for every h/);
      }
    },
  },

  // Gil, Sanfelice & Nikravesh 2013, eqs. (48)–(62), Figs. 2–3.
  {
    scenario: 'slowfast-region',
    sentence: 'With β = 0 it is RK4\'s region cut by the left half-plane, and α barely changes it.',
    check: () => {
      const grid = { re: [-3.5, 1] as [number, number], im: [0, 3.5] as [number, number], nx: 91, ny: 71 };
      const rk4 = stabilityAnalysis({ method: 'rk4', ...grid }).values;
      const map = (alpha: number, beta: number): Float64Array => stabilityAnalysis({ method: 'slowfast', ...grid, alpha, beta }).values;
      // The imaginary axis is the edge for β = 0, where ρ = 1 up to round-off.
      const inside = (v: ArrayLike<number>, i: number): boolean => v[i] <= 1 + 1e-12;
      const decoupled = map(100, 0);
      let disagree = 0;
      for (let i = 0; i < rk4.length; i++) {
        const re = grid.re[0] + ((i % grid.nx) * (grid.re[1] - grid.re[0])) / (grid.nx - 1);
        if (inside(decoupled, i) !== (inside(rk4, i) && re <= 0)) disagree++;
      }
      expect(disagree).toBe(0);
      const [a10, a1000] = [map(10, 0.1), map(1000, 0.1)];
      let changed = 0;
      for (let i = 0; i < a10.length; i++) if (inside(a10, i) !== inside(a1000, i)) changed++;
      expect(changed / a10.length).toBeLessThan(0.02);
    },
  },

  // Negrut et al. 2003, §3.1.
  {
    scenario: 'double-pendulum-rsda',
    sentence: 'body 1 swings between about 3.7 and 6.3 rad and settles towards 3π/2',
    check: () => {
      const sol = run(settingsOf('double-pendulum-rsda'));
      const theta1 = column(sol, sol.names[0]);
      expect(Math.min(...theta1)).toBeCloseTo(3.7, 1);
      expect(Math.max(...theta1)).toBeCloseTo(6.3, 1);
      expect(Math.abs(theta1[theta1.length - 1] - (3 * Math.PI) / 2)).toBeLessThan(0.2);
    },
  },
  {
    scenario: 'double-pendulum-rsda',
    sentence: 'the stiff second joint (k2 = 3e5) forces small explicit steps',
    check: () => {
      const s = settingsOf('double-pendulum-rsda');
      expect(modelOf(s).params.find((p) => p.name === 'k2')?.value).toBe(3e5);
      const sol = run(s);
      const [re, im] = eigenvaluesAt(s, sol, 0)[0];
      const mean = (s.t1 ?? NaN) / sol.stats.naccept;
      // The mean step times |λmax| sits at dp45's stability boundary (−3.3 on the real axis).
      expect(mean * Math.hypot(re, im)).toBeGreaterThan(1);
      expect(mean * Math.hypot(re, im)).toBeLessThan(4);
    },
  },
  {
    scenario: 'double-pendulum-rsda-ros4',
    sentence: 'takes 27, 48, 84, 147, 258 and 457 steps for tolerances 1e-2 … 1e-7',
    check: () => {
      const base = settingsOf('double-pendulum-rsda-ros4');
      const steps = [2, 3, 4, 5, 6, 7].map((k) => run({ ...base, rtol: 10 ** -k, atol: 10 ** -k }).stats.naccept);
      expect(steps).toEqual([27, 48, 84, 147, 258, 457]);
    },
  },

  // Negrut et al. 2003, §3.2.
  {
    scenario: 'vehicle-explicit',
    sentence: 'Suspension elements of 2e7 N/m put eigenvalues near −2.6e5 on the real axis',
    check: () => {
      const s = settingsOf('vehicle-explicit');
      const sol = run({ ...s, t1: 0.01 });
      const [re, im] = eigenvaluesAt(s, sol, 0)[0];
      expect(re).toBeLessThan(-2.5e5);
      expect(re).toBeGreaterThan(-2.7e5);
      expect(Math.abs(im)).toBeLessThan(1e-3 * Math.abs(re));
    },
  },
  {
    scenario: 'vehicle-explicit',
    sentence: 'dp45 must keep |hλ| ≲ 3.3 whatever the accuracy asked, and spends about 450,000 f-evaluations on 2 s',
    check: () => {
      const s = settingsOf('vehicle-explicit');
      expect(facts('dp45').realIntercept).toBeCloseTo(-3.3066, 3);
      const sol = run(s);
      expect(sol.warning).toBeUndefined();
      expect(sol.stats.nfev).toBeGreaterThan(420_000);
      expect(sol.stats.nfev).toBeLessThan(480_000);
      // A looser tolerance does not buy longer steps: the count barely moves.
      const loose = run({ ...s, rtol: 1e-1, atol: 1e-2 });
      expect(loose.stats.nfev / sol.stats.nfev).toBeGreaterThan(0.8);
    },
  },
  {
    scenario: 'vehicle-ros4',
    sentence: 'ros4 needs about 1,500 f-evaluations where dp45 needs 450,000 (about 290 times fewer)',
    check: () => {
      const ros4 = run(settingsOf('vehicle-ros4'));
      const dp45 = run(settingsOf('vehicle-explicit'));
      expect(ros4.stats.nfev).toBeGreaterThan(1300);
      expect(ros4.stats.nfev).toBeLessThan(1700);
      expect(dp45.stats.nfev / ros4.stats.nfev).toBeGreaterThan(260);
      expect(dp45.stats.nfev / ros4.stats.nfev).toBeLessThan(320);
    },
  },
  {
    scenario: 'vehicle-ros4',
    sentence: 'for the same chassis motion over the bump',
    check: () => {
      const range = (sol: Solution): number => Math.max(...sol.outputs['chassis height']) - Math.min(...sol.outputs['chassis height']);
      const [ros4, dp45] = [run(settingsOf('vehicle-ros4')), run(settingsOf('vehicle-explicit'))];
      expect(Math.abs(range(ros4) - range(dp45))).toBeLessThan(0.02 * range(dp45));
    },
  },
  {
    scenario: 'vehicle-ros4',
    sentence: 'clear hMax and it takes 11 steps and never sees the bump',
    check: () => {
      const s = settingsOf('vehicle-ros4');
      const free = run({ ...s, hMax: undefined });
      expect(free.stats.naccept).toBe(11);
      const range = (sol: Solution): number => Math.max(...sol.outputs['chassis height']) - Math.min(...sol.outputs['chassis height']);
      expect(range(free)).toBeLessThan(0.1 * range(run(s)));
    },
  },

  // Negrut et al. 2003, §3.2, Algorithm 1.
  {
    scenario: 'vehicle-state-space',
    sentence: 'a chassis and two wheel bodies on translational joints (9 coordinates, 4 constraints). ros4 integrates only the independent coordinates (xc, yc, φc, yf, yr)',
    check: () => {
      const sol = run(settingsOf('vehicle-state-space'));
      const independent = ['xc', 'yc', 'φc', 'yf', 'yr'];
      expect(sol.constraint?.independent).toEqual(independent);
      expect(sol.names.slice(0, 5)).toEqual(independent);
      expect(sol.dim).toBe(10);
      // The augmented form carries all 9 coordinates; 9 − 5 = 4 constraints.
      const aug = run({ ...settingsOf('vehicle-state-space'), formulation: 'augmented' }, { t1: 0.01 });
      expect(aug.dim).toBe(18);
    },
  },
  {
    scenario: 'vehicle-state-space',
    sentence: 'it rises when the front wheel hits the bump at 0.5 s and the rear one at 1.2 s, then settles to 0.71 m',
    check: () => {
      const sol = run(settingsOf('vehicle-state-space'));
      const height = sol.outputs['chassis height'];
      const within = (a: number, b: number): number[] => [...height].filter((_, i) => sol.t[i] >= a && sol.t[i] <= b);
      expect(Math.max(...within(0, 0.5).map((v) => Math.abs(v - 0.71)))).toBeLessThan(1e-6);
      expect(Math.max(...within(0.5, 1.2))).toBeGreaterThan(0.73);
      expect(Math.max(...within(1.2, 2))).toBeGreaterThan(0.73);
      expect(Math.max(...within(4, 5).map((v) => Math.abs(v - 0.71)))).toBeLessThan(1e-3);
    },
  },
  {
    scenario: 'vehicle-state-space',
    sentence: 'the step-size plot dips at both',
    check: () => {
      const sol = run(settingsOf('vehicle-state-space'));
      const steps = Array.from({ length: sol.t.length - 1 }, (_, i) => [sol.t[i], sol.t[i + 1] - sol.t[i]]);
      const smallest = (a: number, b: number): number => Math.min(...steps.filter(([t]) => t >= a && t < b).map(([, h]) => h));
      const calm = smallest(2.5, 4.5);
      expect(smallest(0.45, 0.6)).toBeLessThan(0.5 * calm);
      expect(smallest(1.15, 1.3)).toBeLessThan(0.5 * calm);
    },
  },
  {
    scenario: 'vehicle-state-space',
    sentence: "Pick 'constraint |Φ|': it stays at round-off (1e-15).",
    check: () => {
      const sol = run(settingsOf('vehicle-state-space'));
      expect(maxAbs(sol.outputs['constraint |Φ|'])).toBeLessThan(1e-14);
    },
  },
  {
    scenario: 'vehicle-state-space',
    sentence: 'the same chassis height and about as many steps, but |Φ| drifts to 1e-5',
    check: () => {
      const s = settingsOf('vehicle-state-space');
      const ss = run(s);
      const aug = run({ ...s, formulation: 'augmented' });
      expect(aug.constraint?.formulation).toBe('augmented');
      const phi = maxAbs(aug.outputs['constraint |Φ|']);
      expect(phi).toBeGreaterThan(3e-6);
      expect(phi).toBeLessThan(3e-5);
      expect(ss.stats.naccept / aug.stats.naccept).toBeGreaterThan(2 / 3);
      expect(ss.stats.naccept / aug.stats.naccept).toBeLessThan(1.5);
    },
  },
  {
    scenario: 'vehicle-state-space',
    sentence: 'ros4 gets the state-space Jacobian analytically, one per accepted step',
    check: () => {
      const sol = run(settingsOf('vehicle-state-space'));
      expect(sol.stats.njev).toBe(sol.stats.naccept);
    },
  },
  {
    scenario: 'vehicle-state-space',
    sentence: 'press “Compare the two formulations” to run both side by side against a 1e-10 reference',
    check: () => {
      const s = settingsOf('vehicle-state-space');
      const method = methods().find((m) => m.id === s.method);
      const c = whole.compareFormulations(toSpec(s, modelOf(s), method));
      expect(c.reference).toMatch(/1e-10/);
      expect(c.rows.length).toBe(2);
    },
  },
  {
    scenario: 'vehicle-state-space',
    sentence: 'its dominant eigenvalue is ≈ −2.66e5',
    check: () => {
      const s = settingsOf('vehicle-state-space');
      const sol = run(s);
      const [re] = eigenvaluesAt(s, sol, 0, { formulation: 'state-space' })[0];
      expect(re / -2.66e5).toBeCloseTo(1, 2);
    },
  },

  // Negrut et al. 2003, §2, Table 1.
  {
    scenario: 'ros4-region',
    sentence: 'R(−∞) ≈ 1e-8 (γ printed to 8 digits): stiff components are damped in one step.',
    check: () => {
      const f = facts('ros4');
      expect(f.lStable).toBe(true);
      expect(f.valueAtMinusInfinity).toBeGreaterThan(5e-9);
      expect(f.valueAtMinusInfinity).toBeLessThan(2e-8);
    },
  },

  // Van der Pol, μ = 1000.
  {
    scenario: 'van-der-pol-explicit',
    sentence: 'On the slow branches the solution barely moves, yet the step sizes stay tiny: stability, not accuracy, limits an explicit method on a stiff problem.',
    check: () => {
      const s = settingsOf('van-der-pol-explicit');
      const sol = run(s);
      expect(sol.stats.nfev).toBeGreaterThan(1_000_000);
      expect(sol.stats.nreject).toBeGreaterThan(0.1 * sol.stats.naccept);
      // On a slow branch (t ≈ 400 into the first one) the step times |λ| sits on dp45's
      // boundary, and ros4 at the same tolerance takes steps hundreds of times longer.
      const i = sol.t.findIndex((t) => t > 200);
      const [re, im] = eigenvaluesAt(s, sol, i)[0];
      const h = sol.t[i + 1] - sol.t[i];
      expect(h * Math.hypot(re, im)).toBeGreaterThan(1.5);
      expect(h * Math.hypot(re, im)).toBeLessThan(4);
      const ros4 = run({ ...s, method: 'ros4' });
      const j = ros4.t.findIndex((t) => t > 200);
      expect(ros4.t[j + 1] - ros4.t[j]).toBeGreaterThan(100 * h);
    },
  },
  {
    scenario: 'van-der-pol-ros4',
    sentence: 'Over [0, 3000] ros4 takes about 2,700 steps and 8,800 f-evaluations',
    check: () => {
      const sol = run(settingsOf('van-der-pol-ros4'));
      expect(sol.stats.naccept).toBeGreaterThan(2500);
      expect(sol.stats.naccept).toBeLessThan(2900);
      expect(sol.stats.nfev).toBeGreaterThan(8400);
      expect(sol.stats.nfev).toBeLessThan(9200);
    },
  },
  {
    scenario: 'van-der-pol-ros4',
    sentence: 'dp45 needs 11.8 million f-evaluations for the same tolerance',
    check: () => {
      const sol = run({ ...settingsOf('van-der-pol-ros4'), method: 'dp45' }, { maxSteps: 5_000_000 });
      expect(lastT(sol)).toBe(3000);
      expect(sol.stats.nfev / 11.8e6).toBeCloseTo(1, 1);
    },
  },

  // The heat equation by the method of lines.
  {
    scenario: 'heat-equation-stiffness',
    sentence: 'The N-cell heat equation has eigenvalues −4D(N+1)² sin²(kπ/(2(N+1))), down to about −4D(N+1)²',
    check: () => {
      const s = settingsOf('heat-equation-stiffness');
      const sol = run({ ...s, t1: 0.01 });
      const got = eigenvaluesAt(s, sol, 0).map(([re, im]) => {
        expect(Math.abs(im)).toBeLessThan(1e-9);
        return re;
      });
      const N = 20;
      const want = Array.from({ length: N }, (_, k) => -4 * (N + 1) ** 2 * Math.sin(((k + 1) * Math.PI) / (2 * (N + 1))) ** 2);
      got.sort((a, b) => a - b);
      want.sort((a, b) => a - b);
      got.forEach((v, k) => expect(v / want[k]).toBeCloseTo(1, 9));
      expect(want[0] / (-4 * (N + 1) ** 2)).toBeGreaterThan(0.99);
    },
  },
  {
    scenario: 'heat-equation-stiffness',
    sentence: "explicit Euler is stable only while the spectrum's leftmost marker hλ stays right of −2, the edge of Euler's disc: h ≤ 2/|λ_N| = 1.14e-3 for N = 20, about 1/(2D(N+1)²) = 1.13e-3. h = 1.1e-3 is just inside.",
    check: () => {
      const s = settingsOf('heat-equation-stiffness');
      expect(1 / (2 * 21 ** 2)).toBeCloseTo(1.13e-3, 5);
      const sol = run(s);
      const leftmost = Math.min(...eigenvaluesAt(s, sol, 0).map(([re]) => re));
      expect(2 / -leftmost).toBeCloseTo(1.14e-3, 5);
      expect(rho('euler', 1.15e-3 * leftmost, 0)).toBeGreaterThan(1);
      expect((s.h ?? NaN) * leftmost).toBeGreaterThan(-2);
      expect(rho('euler', (s.h ?? NaN) * leftmost, 0)).toBeLessThan(1);
      const last = sol.y.slice(sol.y.length - sol.dim);
      expect(maxAbs(last)).toBeLessThan(0.01);
    },
  },
  {
    scenario: 'heat-equation-stiffness',
    sentence: 'Try: h = 1.2e-3 (the high modes blow up from round-off), or double N — the limit drops almost fourfold',
    check: () => {
      const s = settingsOf('heat-equation-stiffness');
      const above = run({ ...s, h: 0.0012 });
      expect(maxAbs(above.y.slice(above.y.length - above.dim))).toBeGreaterThan(1);
      const ratio = (41 / 21) ** 2;
      expect(ratio).toBeGreaterThan(3.7);
      expect(ratio).toBeLessThan(4);
      const n40 = run({ ...s, params: { N: 40 } });
      expect(n40.warning ?? `${maxAbs(n40.y.slice(n40.y.length - n40.dim))}`).toMatch(/blew up|e\+/);
    },
  },

  // The 1-D Brusselator.
  {
    scenario: 'brusselator-1d',
    sentence: 'ros4 factorises I − γhJ with a sparse LU (the Jacobian couples a cell only to its neighbours and to the other species in the same cell) and evaluates J in a few colour sweeps instead of 80.',
    check: () => {
      const sol = run(settingsOf('brusselator-1d'));
      expect(sol.warning).toBeUndefined();
      expect(sol.names.length).toBe(80);
      // Three f-evaluations a step; the rest are the Jacobian's colour sweeps, far fewer
      // than 80 per Jacobian.
      const sweeps = (sol.stats.nfev - 3 * sol.stats.nsteps) / sol.stats.njev;
      expect(sweeps).toBeLessThan(10);
    },
  },
  {
    scenario: 'brusselator-1d',
    sentence: 'Try: N = 200, or dp45 — it needs many more f-evaluations as the diffusion stiffens with N².',
    check: () => {
      const s = settingsOf('brusselator-1d');
      const ros4 = run(s);
      const dp45 = run({ ...s, method: 'dp45' });
      expect(dp45.stats.nfev).toBeGreaterThan(2 * ros4.stats.nfev);
    },
  },

  // Generalized-α (Chung & Hulbert 1993) against Newmark's average acceleration.
  {
    scenario: 'generalized-alpha-damping',
    sentence: 'Two modes of a structure, ω = 1 and ω = 1000, at h = 0.05: the fast one (ωh = 50) is far too quick for the step and shows only as noise on q = x + z.',
    check: () => {
      const s = settingsOf('generalized-alpha-damping');
      expect(s.h).toBe(0.05);
      const info = modelOf(s);
      expect(info.secondOrder).toBe(true);
      expect(info.params.map((p) => [p.name, p.value])).toEqual([
        ['w1', 1],
        ['w2', 1000],
      ]);
      expect(info.outputs).toEqual(['q']);
      // ωh = 50: a period of 2π/1000 is an eighth of a step.
      expect(1000 * (s.h ?? NaN)).toBe(50);
    },
  },
  {
    scenario: 'generalized-alpha-damping',
    sentence: "Newmark's average acceleration keeps its amplitude exactly, while generalized-α with ρ∞ = 0.5 (pinned) damps it to below a millionth of its start by t = 2.",
    check: () => {
      const s = settingsOf('generalized-alpha-damping');
      expect(s.method).toBe('newmark');
      expect(s.methodParams).toBeUndefined();
      const newmark = run(s);
      expect(Math.abs(modeAmplitude(newmark, 'z', 1000, 0, 20) / 0.1 - 1)).toBeLessThan(1e-9);
      expect(Math.abs(modeAmplitudeMin(newmark, 'z', 1000, 0, 20) / 0.1 - 1)).toBeLessThan(1e-9);
      const pin = s.pins?.[0] as RunSettings;
      expect(pin.method).toBe('generalized-alpha');
      expect(pin.methodParams).toEqual({ rhoInf: 0.5 });
      const alpha = run(pin);
      expect(alpha.warning).toBeUndefined();
      expect(modeAmplitude(alpha, 'z', 1000, 2, 20)).toBeLessThan(1e-6 * 0.1);
    },
  },
  {
    scenario: 'generalized-alpha-damping',
    sentence: 'The slow mode (ωh = 0.05) is barely touched: generalized-α takes less than 1e-4 of its amplitude in 20 s.',
    check: () => {
      const sol = run(settingsOf('generalized-alpha-damping').pins?.[0] as RunSettings);
      expect(lastT(sol)).toBe(20);
      const kept = modeAmplitudeMin(sol, 'x', 1, 0, 20);
      expect(kept).toBeGreaterThan(1 - 1e-4);
      expect(kept).toBeLessThan(1);
    },
  },
  {
    scenario: 'generalized-alpha-damping',
    sentence: 'Try: switch the method to generalized-α and set ρ∞ = 1 (the average-acceleration rule again: the noise stays); the Second-order (ωh) tab shows ρ at ωh = 50 is 0.56, on its way down to ρ∞ = 0.5 as ωh grows.',
    check: () => {
      const s = settingsOf('generalized-alpha-damping');
      const one = run({ ...s, method: 'generalized-alpha', methodParams: { rhoInf: 1 } });
      expect(Math.abs(modeAmplitudeMin(one, 'z', 1000, 0, 20) / 0.1 - 1)).toBeLessThan(1e-9);
      const c = structuralAnalysis({ method: 'generalized-alpha', methodParams: { rhoInf: 0.5 }, omegaH: [50, 1e3, 1e5] });
      expect(c.spectralRadius[0]).toBeCloseTo(0.56, 2);
      expect(c.spectralRadius[1]).toBeLessThan(c.spectralRadius[0]);
      expect(c.spectralRadius[2]).toBeLessThan(c.spectralRadius[1]);
      expect(c.spectralRadiusAtInfinity).toBeCloseTo(0.5, 12);
    },
  },

  // Your own system.
  {
    scenario: 'your-system',
    sentence: 'every parameter becomes an input, and errors point at the line and column',
    check: () => {
      const info = describeText(DEFAULT_SYSTEM);
      expect(info.params.length).toBeGreaterThan(0);
      expect(() => describeText("x' = v\nv' = -k*\nx(0) = 1, v(0) = 0")).toThrow(/line 2, column/);
    },
  },
  {
    scenario: 'your-system',
    sentence: "Try: add a term, or an event 'event top: v, falling'.",
    check: () => {
      const info = describeText(`${DEFAULT_SYSTEM}\nevent top: v, falling`);
      expect(info.events.map((e) => e.id)).toContain('top');
    },
  },
];

describe('caption claims', () => {
  it('every scenario has claims, and no claim names a scenario that is gone', () => {
    const ids = new Set(scenarios.map((s) => s.id));
    for (const c of claims) expect(ids.has(c.scenario), c.scenario).toBe(true);
    for (const s of scenarios) expect(claims.some((c) => c.scenario === s.id), s.id).toBe(true);
  });

  for (const c of claims) {
    it(
      `${c.scenario}: "${c.sentence}"`,
      () => {
        expect(byId(c.scenario).caption, 'the caption still says it').toContain(c.sentence);
        c.check();
      },
      60_000,
    );
  }
});
