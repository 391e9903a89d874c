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

/** The range of the chassis height over the run's points with from ≤ t < to (0 if none). */
const chassisSwingIn = (sol: Solution, from: number, to: number): number => {
  const h = sol.outputs['chassis height'].filter((_, i) => sol.t[i] >= from && sol.t[i] < to);
  return h.length > 0 ? Math.max(...h) - Math.min(...h) : 0;
};

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
/**
 * Largest relative error of Andrews' squeezer's seven angles at the run's end against the
 * reference solution at t = 0.03 of the Test Set for IVP Solvers (Mazzia & Magherini,
 * problem andrews, its subroutine solut).
 */
const andrewsError = (sol: Solution): number => {
  const reference: [string, number][] = [
    ['q:β', 0.1581077119629904e2],
    ['q:Θ', -0.1575637105984298e2],
    ['q:γ', 0.4082224013073101e-1],
    ['q:Φ', -0.5347301163226948],
    // The published digits (one more than a double holds).
    ['q:δ', Number('0.5244099658805304')],
    ['q:Ω', 0.5347301163226948],
    ['q:ε', 0.1048080741042263e1],
  ];
  return Math.max(...reference.map(([name, r]) => {
    const q = sol.outputs[name];
    return Math.abs((q[q.length - 1] - r) / r);
  }));
};
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
/** The fast jumps of the NDF run: maximal runs [start, end) of steps off the slow branches. */
function ndfJumps(slow: boolean[]): [number, number][] {
  const jumps: [number, number][] = [];
  for (let i = 0; i < slow.length; i++) {
    if (slow[i]) continue;
    const start = i;
    while (i < slow.length && !slow[i]) i++;
    jumps.push([start, i]);
  }
  return jumps;
}
/**
 * The NDF scenario's run with its step log: the order of every accepted step (step i
 * from t[i] to t[i+1]) and whether it starts on a slow branch (|y2| < 0.01; in a jump |y2|
 * reaches ~μ).
 */
function ndfOrders(): { sol: Solution; orders: number[]; slow: boolean[] } {
  const sol = run(settingsOf('van-der-pol-ndf'), { inspect: true });
  const log = sol.inspect;
  if (!log?.order) throw new Error('ndf logs its orders');
  const orders = Array.from(log.order).filter((_, i) => log.causes[log.cause[i]] === 'accepted');
  expect(orders.length).toBe(sol.t.length - 1);
  const slow = orders.map((_, i) => Math.abs(sol.y[i * 2 + 1]) < 0.01);
  return { sol, orders, slow };
}
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

  // Hairer, Lubich & Wanner, Geometric Numerical Integration (2006), §I.1.4, §VI.3, §IX.8.
  {
    scenario: 'symplectic-energy',
    sentence: 'Störmer–Verlet against RK4 (pinned) on the pendulum at h = 0.1 over 2000 s, about 935 periods.',
    check: () => {
      const s = settingsOf('symplectic-energy');
      expect([s.model, s.method, s.h, s.t1]).toEqual(['pendulum', 'verlet', 0.1, 2000]);
      expect(s.pins?.map((p) => [p.model, p.method, p.h, p.t1])).toEqual([['pendulum', 'rk4', 0.1, 2000]]);
      // The period from the upward zero crossings of θ.
      const sol = run(s);
      const theta = column(sol, 'θ');
      const up: number[] = [];
      for (let i = 1; i < theta.length; i++) {
        if (theta[i - 1] < 0 && theta[i] >= 0) up.push(sol.t[i - 1] + ((sol.t[i] - sol.t[i - 1]) * -theta[i - 1]) / (theta[i] - theta[i - 1]));
      }
      const period = (up[up.length - 1] - up[0]) / (up.length - 1);
      expect(2000 / period).toBeGreaterThan(930);
      expect(2000 / period).toBeLessThan(940);
    },
  },
  {
    scenario: 'symplectic-energy',
    sentence: "Verlet's energy oscillates but stays within 2.5 % of its start, and its largest error over the last 1000 s is that over the first 1000 s: no drift.",
    check: () => {
      const sol = run(settingsOf('symplectic-energy'));
      const e = sol.outputs.energy;
      expect(drift(e)).toBeLessThan(0.025);
      expect(drift(e)).toBeGreaterThan(0.02);
      const half = sol.t.findIndex((t) => t > 1000);
      const worst = (a: number, b: number) => drift(Float64Array.from([e[0], ...e.slice(a, b)]));
      const [first, last] = [worst(1, half), worst(half, e.length)];
      expect(Math.abs(last - first)).toBeLessThan(1e-3 * first);
      // It oscillates: down by 2 % and back to within 0.2 % of its start.
      const low = e.indexOf(Math.min(...e));
      expect(e[low]).toBeLessThan(0.98 * e[0]);
      expect(e.slice(low).some((v) => Math.abs(v - e[0]) < 0.002 * e[0])).toBe(true);
    },
  },
  {
    scenario: 'symplectic-energy',
    sentence: 'The method is symplectic, so it keeps a modified energy close to the true one.',
    check: () => {
      // Symplectic (Hairer, Lubich & Wanner Theorem VI.3.4), and its energy error is the
      // O(h²) distance to the kept modified energy: a quarter at h/2, bounded at both.
      expect(methods().find((m) => m.id === 'verlet')?.family).toMatch(/symplectic/);
      const s = settingsOf('symplectic-energy');
      const ratio = drift(run(s).outputs.energy) / drift(run({ ...s, h: 0.05 }).outputs.energy);
      expect(ratio).toBeGreaterThan(3.8);
      expect(ratio).toBeLessThan(4.2);
    },
  },
  {
    scenario: 'symplectic-energy',
    sentence: "RK4 spends four f-evaluations a step to Verlet's one and loses energy steadily: 9 % of it is gone at t = 1000 and 17 % at t = 2000.",
    check: () => {
      const s = settingsOf('symplectic-energy');
      const verlet = run(s);
      const rk4 = run({ ...s, ...s.pins?.[0] });
      expect(rk4.stats.nfev).toBe(4 * rk4.stats.nsteps);
      expect(verlet.stats.nfev).toBe(verlet.stats.nsteps + 1);
      const e = rk4.outputs.energy;
      // Steadily: the largest energy of each 100 s is below the one before.
      const peaks = Array.from({ length: 20 }, (_, k) => e.filter((_, i) => rk4.t[i] >= 100 * k && rk4.t[i] < 100 * (k + 1)).reduce((m, v) => Math.max(m, v), -Infinity));
      for (let k = 1; k < peaks.length; k++) expect(peaks[k]).toBeLessThan(peaks[k - 1]);
      const at = (t: number) => 1 - e[rk4.t.findIndex((x) => x >= t - 1e-9)] / e[0];
      expect(at(1000)).toBeGreaterThan(0.085);
      expect(at(1000)).toBeLessThan(0.095);
      expect(at(2000)).toBeGreaterThan(0.165);
      expect(at(2000)).toBeLessThan(0.175);
    },
  },
  {
    scenario: 'symplectic-energy',
    sentence: "Try: halve h — Verlet's band narrows fourfold (order 2) and RK4's loss about 30-fold, but RK4's loss still grows with t.",
    check: () => {
      const s = settingsOf('symplectic-energy');
      const half = { ...s, h: 0.05 };
      const band = drift(run(s).outputs.energy) / drift(run(half).outputs.energy);
      expect(band).toBeCloseTo(4, 1);
      const rk4 = run({ ...s, ...s.pins?.[0] });
      const rk4Half = run({ ...half, ...s.pins?.[0], h: 0.05 });
      const loss = (sol: Solution) => 1 - sol.outputs.energy[sol.outputs.energy.length - 1] / sol.outputs.energy[0];
      expect(loss(rk4) / loss(rk4Half)).toBeGreaterThan(27);
      expect(loss(rk4) / loss(rk4Half)).toBeLessThan(33);
      const e = rk4Half.outputs.energy;
      const mid = rk4Half.t.findIndex((t) => t >= 1000);
      expect(e[e.length - 1]).toBeLessThan(e[mid]);
      expect(e[mid]).toBeLessThan(e[0]);
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
    sentence: 'at rtol 1e-6, 230 steps',
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
    sentence: 'dp45 must keep |hλ| ≲ 3.3 whatever the accuracy asked, and spends about 840,000 f-evaluations on 2 s',
    check: () => {
      const s = settingsOf('vehicle-explicit');
      expect(facts('dp45').realIntercept).toBeCloseTo(-3.3066, 3);
      const sol = run(s);
      expect(sol.warning).toBeUndefined();
      // Measured: 843,741.
      expect(sol.stats.nfev).toBeGreaterThan(820_000);
      expect(sol.stats.nfev).toBeLessThan(860_000);
      // A looser tolerance does not buy longer steps: the count barely moves.
      const loose = run({ ...s, rtol: 1e-1, atol: 1e-2 });
      expect(loose.stats.nfev / sol.stats.nfev).toBeGreaterThan(0.8);
    },
  },
  {
    scenario: 'vehicle-ros4',
    sentence: 'At rtol 1e-3, ros4 needs about 1,500 f-evaluations where dp45 needs 840,000 (about 550 times fewer)',
    check: () => {
      const ros4 = run(settingsOf('vehicle-ros4'));
      const dp45 = run(settingsOf('vehicle-explicit'));
      expect(ros4.stats.nfev).toBeGreaterThan(1300);
      expect(ros4.stats.nfev).toBeLessThan(1700);
      // Measured: 843,741 / 1,542 = 547.
      expect(dp45.stats.nfev / ros4.stats.nfev).toBeGreaterThan(520);
      expect(dp45.stats.nfev / ros4.stats.nfev).toBeLessThan(580);
    },
  },
  {
    scenario: 'vehicle-explicit',
    sentence: "hMax = 5 ms, as for ros4, keeps it from stepping over the front wheel's bump at 0.5 s from the quiet road before it.",
    check: () => {
      const s = settingsOf('vehicle-explicit');
      expect(s.hMax).toBe(0.005);
      // Without it dp45 has no point between t = 0.45 and 0.9: it meets only the rear wheel's bump.
      const free = run({ ...s, hMax: undefined });
      expect(Array.from(free.t).some((t) => t > 0.45 && t < 0.9)).toBe(false);
      expect(chassisSwingIn(free, 0.45, 0.9)).toBe(0);
      expect(chassisSwingIn(run(s), 0.45, 0.9)).toBeGreaterThan(0.02);
    },
  },
  {
    scenario: 'vehicle-ros4',
    sentence: 'for the same chassis motion over the bump',
    check: () => {
      const [ros4, dp45] = [run(settingsOf('vehicle-ros4')), run(settingsOf('vehicle-explicit'))];
      // Both wheels' hits (front 0.45–0.9 s, rear after 1.15 s), each seen by both runs.
      for (const [from, to] of [[0.45, 0.9], [1.15, 2]]) {
        const swing = chassisSwingIn(dp45, from, to);
        expect(swing).toBeGreaterThan(0.02);
        expect(Math.abs(chassisSwingIn(ros4, from, to) - swing)).toBeLessThan(0.02 * swing);
      }
    },
  },
  {
    scenario: 'vehicle-ros4',
    sentence: 'clear hMax and at that rtol it takes 11 steps and never sees the bump',
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
      // At rest before the bump the chassis sits at the height the model computes from
      // its masses and spring preloads (0.71004 m with the defaults), not at a placed 0.71.
      const rest = height[0];
      expect(Math.abs(rest - 0.71)).toBeLessThan(1e-3);
      expect(Math.max(...within(0, 0.5).map((v) => Math.abs(v - rest)))).toBeLessThan(1e-6);
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

  {
    scenario: 'van-der-pol-ndf',
    sentence: "ndf is the method of MATLAB's ode15s: numerical differentiation formulas of orders 1 to 5 that choose both the step and the order as they go",
    check: () => {
      const info = methods().find((m) => m.id === 'ndf');
      expect(info?.order).toBe(5);
      expect(info?.adaptive).toBe(true);
      const { orders, sol } = ndfOrders();
      expect(new Set(orders)).toEqual(new Set([1, 2, 3, 4, 5]));
      expect(Math.max(...sol.h) / Math.min(...sol.h.filter((h) => h > 0))).toBeGreaterThan(1e3);
    },
  },
  {
    scenario: 'van-der-pol-ndf',
    sentence: "Over [0, 3000] it takes about 1,640 steps and 5,070 f-evaluations, fewer than ros4's 8,800",
    check: () => {
      const { sol } = ndfOrders();
      expect(lastT(sol)).toBe(3000);
      expect(sol.stats.naccept / 1640).toBeCloseTo(1, 1);
      expect(sol.stats.nfev / 5070).toBeCloseTo(1, 1);
      const ros4 = run({ ...settingsOf('van-der-pol-ndf'), method: 'ros4' });
      expect(ros4.stats.nfev / 8800).toBeCloseTo(1, 1);
      expect(sol.stats.nfev).toBeLessThan(ros4.stats.nfev);
    },
  },
  {
    scenario: 'van-der-pol-ndf',
    sentence: 'Most steps, about 87 %, are taken at order 5, and about 80 % of all steps lie within 5 time units of the three fast jumps',
    check: () => {
      const { sol, orders, slow } = ndfOrders();
      const jumps = ndfJumps(slow);
      expect(jumps.length).toBe(3);
      const fifth = orders.filter((k) => k === 5).length;
      expect(fifth / orders.length).toBeGreaterThan(0.84);
      expect(fifth / orders.length).toBeLessThan(0.9);
      const near = orders.filter((_, i) => jumps.some(([a, b]) => sol.t[i] >= sol.t[a] - 5 && sol.t[i] <= sol.t[b] + 5)).length;
      expect(near / orders.length).toBeGreaterThan(0.77);
      expect(near / orders.length).toBeLessThan(0.83);
    },
  },
  {
    scenario: 'van-der-pol-ndf',
    sentence: 'As each jump lands on a slow branch the order drops step by step to 1 while h grows from below 1e-3 to over 5 within 25 steps; then the order climbs back to 5 as the branch goes on',
    check: () => {
      const { sol, orders, slow } = ndfOrders();
      const jumps = ndfJumps(slow);
      jumps.forEach(([, end], j) => {
        const next = j + 1 < jumps.length ? jumps[j + 1][0] : orders.length;
        const after = orders.slice(end, next);
        const one = after.indexOf(1);
        expect(one, `order 1 after jump ${j}`).toBeGreaterThan(0);
        // Down 5 → 4 → 3 → 2 → 1, one order at a time, from the last order-5 step.
        const start = after.lastIndexOf(5, one);
        const down = after.slice(start, one + 1).filter((k, i, a) => i === 0 || k !== a[i - 1]);
        expect(down, `after jump ${j}`).toEqual([5, 4, 3, 2, 1]);
        const d = end + start + 1;
        expect(sol.h[d], `h as the descent begins after jump ${j}`).toBeLessThan(1e-3);
        const long = sol.h.findIndex((h, i) => i > d && h > 5);
        expect(long - d, `steps to h > 5 after jump ${j}`).toBeLessThanOrEqual(25);
        expect(long, `h > 5 before the next jump`).toBeLessThan(next);
        expect(after.slice(one), `after jump ${j}`).toContain(5);
      });
    },
  },
  {
    scenario: 'van-der-pol-ndf',
    sentence: "switch to bdf, SciPy's formulas (κ = 0)",
    check: () => {
      // SciPy 1.17.1 BDF on this problem at this tolerance: 5,107 f-evaluations, 4.12
      // digits at t = 3000 (tests/method/bdf.rs pins the comparison).
      const sol = run({ ...settingsOf('van-der-pol-ndf'), method: 'bdf' }, { inspect: true });
      expect(lastT(sol)).toBe(3000);
      expect(new Set(sol.inspect?.order)).toEqual(new Set([1, 2, 3, 4, 5]));
      expect(sol.stats.nfev / 5107).toBeGreaterThan(0.9);
      expect(sol.stats.nfev / 5107).toBeLessThan(1.1);
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
    sentence: 'ros4 factorises I − γhJ with a sparse LU (the Jacobian couples a cell only to its neighbours and to the other species in the same cell) and evaluates J in a few colour sweeps instead of one per state (80 at N = 40).',
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

  // Negrut et al. 2003, Tables 1 and 3: an inexact Jacobian.
  {
    scenario: 'ros4-wrong-jacobian',
    sentence: 'ros4 needs the exact Jacobian ∂f/∂y for its order 4. Handed half of it (s = 0.5), it drops to order 1: at h = 0.01 the max error is 2.5e-2, and halving h only halves it.',
    check: () => {
      const s = settingsOf('ros4-wrong-jacobian');
      expect(s.jacobianScale).toBe(0.5);
      expect(s.h).toBe(0.01);
      const [e1, e2, e4] = [1, 2, 4].map((k) => maxError(run({ ...s, h: 0.01 / k })));
      expect(e1).toBeGreaterThan(2.4e-2);
      expect(e1).toBeLessThan(2.6e-2);
      expect(exponent(e1, e2, 0.01, 0.005)).toBeCloseTo(1, 1);
      expect(exponent(e2, e4, 0.005, 0.0025)).toBeCloseTo(1, 1);
    },
  },
  {
    scenario: 'ros4-wrong-jacobian',
    sentence: 'With s = 1 the error is 3.9e-5 and halving h divides it by 16.',
    check: () => {
      const s = settingsOf('ros4-wrong-jacobian');
      const [e1, e2, e4] = [1, 2, 4].map((k) => maxError(run({ ...s, h: 0.01 / k, jacobianScale: 1 })));
      expect(e1).toBeGreaterThan(3.85e-5);
      expect(e1).toBeLessThan(3.95e-5);
      for (const ratio of [e1 / e2, e2 / e4]) {
        expect(ratio).toBeGreaterThan(15);
        expect(ratio).toBeLessThan(17);
      }
    },
  },
  {
    scenario: 'ros4-wrong-jacobian',
    sentence: 'With error control (untick Fixed step; rtol = atol = 1e-6) the wrong Jacobian costs about 5,100 steps instead of about 500.',
    check: () => {
      const s = settingsOf('ros4-wrong-jacobian');
      expect([s.rtol, s.atol]).toEqual([1e-6, 1e-6]);
      const adaptive = { ...s, fixedStep: false };
      const wrong = run(adaptive).stats.naccept;
      const exact = run({ ...adaptive, jacobianScale: 1 }).stats.naccept;
      expect(Math.abs(wrong / 5100 - 1)).toBeLessThan(0.05);
      expect(Math.abs(exact / 500 - 1)).toBeLessThan(0.05);
    },
  },
  {
    scenario: 'ros4-wrong-jacobian',
    sentence: 'w2, a W-method, keeps its order 2 with any matrix in place of ∂f/∂y: at s = 0.5, 0 or 1, halving h divides its error by about 4.',
    check: () => {
      const s = { ...settingsOf('ros4-wrong-jacobian'), method: 'w2' };
      for (const jacobianScale of [0.5, 0, 1]) {
        const [e1, e2] = [0.01, 0.005].map((h) => maxError(run({ ...s, h, jacobianScale })));
        expect(e1 / e2, `s = ${jacobianScale}`).toBeGreaterThan(3.5);
        expect(e1 / e2, `s = ${jacobianScale}`).toBeLessThan(4.5);
      }
    },
  },
  {
    scenario: 'ros4-wrong-jacobian',
    sentence: 'The Convergence tab studies the same Jacobian: tick ros4 and w2, and the fitted slopes are about 1 and 2 (4 and 2 at s = 1).',
    check: () => {
      const s = settingsOf('ros4-wrong-jacobian');
      // The study as the Convergence tab asks for it (its default n = 4 … 14).
      const slopes = (jacobianScale: number): number[] =>
        convergence({ model: s.model, params: s.params ?? {}, t1: s.t1, methods: ['ros4', 'w2'], nMin: 4, nMax: 14, jacobianScale }).global.map((g) => g.fit.slope);
      const [ros4Half, w2Half] = slopes(s.jacobianScale ?? NaN);
      const [ros4Exact, w2Exact] = slopes(1);
      expect(ros4Half).toBeCloseTo(1, 0);
      expect(w2Half).toBeCloseTo(2, 0);
      expect(ros4Exact).toBeCloseTo(4, 0);
      expect(w2Exact).toBeCloseTo(2, 0);
    },
  },
  {
    scenario: 'ros4-wrong-jacobian',
    sentence: 'Try: change s, or refresh ∂f/∂y only every 10 steps — on this linear spring ∂f/∂y is constant, so that changes nothing.',
    check: () => {
      const s = settingsOf('ros4-wrong-jacobian');
      const every = run(s);
      const tenth = run({ ...s, jacobianUpdate: 10 });
      expect(Array.from(tenth.y)).toEqual(Array.from(every.y));
      // Changing s does change the run.
      expect(maxError(run({ ...s, jacobianScale: 1 }))).not.toBe(maxError(every));
    },
  },

  // Constrained mechanisms typed in the system language.
  {
    scenario: 'slider-crank',
    sentence: 'the piston position x3 equals r cos ωt + √(l² − r² sin² ωt) at every step, to round-off.',
    check: () => {
      const sol = run(settingsOf('slider-crank'));
      const [r, l, w] = [0.2, 0.6, 2 * Math.PI];
      const piston = sol.outputs.piston;
      for (let i = 0; i < sol.t.length; i++) {
        const s = Math.sin(w * sol.t[i]);
        expect(Math.abs(piston[i] - (r * Math.cos(w * sol.t[i]) + Math.sqrt(l * l - r * r * s * s)))).toBeLessThan(1e-12);
      }
      expect(sol.dim).toBe(0);
    },
  },
  {
    scenario: 'slider-crank',
    sentence: 'In state-space form the coordinates are recovered by Newton at every evaluation and constraint |Φ| stays below 1e-12.',
    check: () => {
      const sol = run(settingsOf('slider-crank'));
      expect(sol.constraint?.formulation).toBe('state-space');
      expect(sol.constraint?.newtonIterations ?? 0).toBeGreaterThan(0);
      expect(maxAbs(sol.outputs['constraint |Φ|'])).toBeLessThan(1e-12);
    },
  },
  {
    scenario: 'slider-crank',
    sentence: 'Try: Formulation → augmented without stabilisation: |Φ| drifts above 1e-9; with projection it stays below 1e-10.',
    check: () => {
      const s = settingsOf('slider-crank');
      const plain = run({ ...s, formulation: 'augmented' });
      expect(maxAbs(plain.outputs['constraint |Φ|'])).toBeGreaterThan(1e-9);
      const projected = run({ ...s, formulation: 'augmented', stabilization: 'projection' });
      expect(maxAbs(projected.outputs['constraint |Φ|'])).toBeLessThan(1e-10);
    },
  },
  {
    scenario: 'four-bar',
    sentence: 'the shortest plus the longest link (1.3) are less than the other two (1.6) and the shortest is the crank, so the crank turns fully round while the rocker only swings.',
    check: () => {
      const sol = run(settingsOf('four-bar'));
      const [a, b, c, d] = [0.3, 0.9, 0.7, 1];
      expect(a + d).toBeCloseTo(1.3, 12);
      expect(b + c).toBeCloseTo(1.6, 12);
      const crank = sol.outputs['q:φ1'];
      const rocker = sol.outputs['q:φ3'];
      expect(Math.max(...crank) - Math.min(...crank)).toBeGreaterThan(2 * Math.PI);
      expect(Math.max(...rocker) - Math.min(...rocker)).toBeLessThan(Math.PI);
    },
  },
  {
    scenario: 'four-bar',
    sentence: 'The pose is typed approximately and the start moves it onto Φ = 0 with the least change.',
    check: () => {
      const sol = run(settingsOf('four-bar'));
      expect(sol.outputs['q:φ1'][0]).not.toBe(1.5708);
      expect(Math.abs(sol.outputs['q:φ1'][0] - 1.5708)).toBeLessThan(0.01);
      expect(sol.outputs['constraint |Φ|'][0]).toBeLessThan(1e-12);
      expect(modelOf(settingsOf('four-bar')).source).toContain('least change');
    },
  },
  {
    scenario: 'four-bar',
    sentence: 'In state-space form the energy output stays constant to 1e-5 and constraint |Φ| stays below 1e-12.',
    check: () => {
      const sol = run(settingsOf('four-bar'));
      const e = sol.outputs.energy;
      expect(Math.max(...[...e].map((v) => Math.abs(v - e[0])))).toBeLessThan(1e-5);
      expect(maxAbs(sol.outputs['constraint |Φ|'])).toBeLessThan(1e-12);
    },
  },
  {
    scenario: 'four-bar',
    sentence: 'Try: Formulation → augmented without stabilisation: |Φ| drifts above 1e-8.',
    check: () => {
      const sol = run({ ...settingsOf('four-bar'), formulation: 'augmented' });
      expect(maxAbs(sol.outputs['constraint |Φ|'])).toBeGreaterThan(1e-8);
    },
  },

  {
    scenario: 'pendulum-chain',
    sentence: 'Five uniform rods hinged end to end, written once for i = 1..N: 15 body coordinates and 10 hinge constraints, released at rest from the horizontal.',
    check: () => {
      const s = settingsOf('pendulum-chain');
      expect(modelOf(s).params.find((p) => p.name === 'N')?.value).toBe(5);
      expect(s.system).toContain('for i = 1..N');
      const sol = run(s);
      const keys = Object.keys(sol.outputs);
      // q: lists each coordinate (then each velocity, q:ẋ[1], …).
      const coordinates = [1, 2, 3, 4, 5].flatMap((i) => [`q:x[${i}]`, `q:y[${i}]`, `q:φ[${i}]`]);
      expect(keys.filter((k) => k.startsWith('q:')).slice(0, 15)).toEqual(coordinates);
      expect(keys.filter((k) => k.startsWith('q:'))).toHaveLength(30);
      expect(keys.filter((k) => k.startsWith('λ:'))).toHaveLength(10);
      for (let i = 1; i <= 5; i++) {
        expect(sol.outputs[`q:y[${i}]`][0]).toBe(0);
        expect(sol.outputs[`q:φ[${i}]`][0]).toBe(0);
      }
      expect(sol.outputs.energy[0]).toBeCloseTo(0, 12);
    },
  },
  {
    scenario: 'pendulum-chain',
    sentence: 'In state-space form constraint |Φ| stays below 1e-14 and the energy output stays at its starting 0 J to within 1e-4 J.',
    check: () => {
      const sol = run(settingsOf('pendulum-chain'));
      expect(sol.constraint?.formulation).toBe('state-space');
      expect(lastT(sol)).toBe(4);
      expect(maxAbs(sol.outputs['constraint |Φ|'])).toBeLessThan(1e-14);
      // Measured 5.9e-5 J; the chain does move (its lowest link falls by more than a link).
      expect(maxAbs(sol.outputs.energy)).toBeLessThan(1e-4);
      expect(Math.min(...sol.outputs['q:y[5]'])).toBeLessThan(-0.5);
    },
  },
  {
    scenario: 'pendulum-chain',
    sentence: 'Try: Formulation → augmented without stabilisation: |Φ| drifts to about 3e-6 by t = 4; with Baumgarte stabilisation it stays near 2e-7.',
    check: () => {
      const s = settingsOf('pendulum-chain');
      // Measured 2.9e-6 and 1.7e-7 (ros4, rtol 1e-6).
      const plain = maxAbs(run({ ...s, formulation: 'augmented' }).outputs['constraint |Φ|']);
      expect(plain).toBeGreaterThan(2e-6);
      expect(plain).toBeLessThan(4e-6);
      const baumgarte = maxAbs(run({ ...s, formulation: 'augmented', stabilization: 'baumgarte' }).outputs['constraint |Φ|']);
      expect(baumgarte).toBeGreaterThan(1e-7);
      expect(baumgarte).toBeLessThan(3e-7);
    },
  },
  {
    scenario: 'pendulum-chain',
    sentence: 'Try: N = 10 in the parameters: 30 coordinates and 20 constraints, all ten links drawn, and |Φ| still below 1e-14.',
    check: () => {
      const sol = run({ ...settingsOf('pendulum-chain'), params: { N: 10 } });
      const keys = Object.keys(sol.outputs);
      expect(keys.filter((k) => k.startsWith('q:'))).toHaveLength(60);
      expect(keys.filter((k) => k.startsWith('λ:'))).toHaveLength(20);
      expect(lastT(sol)).toBe(4);
      // Measured 1.9e-15.
      expect(maxAbs(sol.outputs['constraint |Φ|'])).toBeLessThan(1e-14);
      // Ten rods from the one draw line written for i = 1..N; the tenth ends at the
      // chain's tip.
      expect(keys.filter((k) => k.startsWith('draw ') && k.endsWith(' rod x2'))).toHaveLength(10);
      const last = sol.t.length - 1;
      const tip = sol.outputs['q:x[10]'][last] + 0.25 * Math.cos(sol.outputs['q:φ[10]'][last]);
      expect(sol.outputs['draw 1.10 rod x2'][last]).toBeCloseTo(tip, 12);
      expect(sol.outputs['draw 1.9 rod x2'][last]).not.toBeCloseTo(tip, 3);
    },
  },
  {
    scenario: 'andrews-squeezer',
    sentence: 'Seven bodies in relative joint angles, a full symmetric mass matrix M(q) written entry by entry, Coriolis forces, a stiff spring and six loop-closure constraints, typed in the textbook form.',
    check: () => {
      const s = settingsOf('andrews-squeezer');
      expect(s.system).toContain('coordinates β, Θ, γ, Φ, δ, Ω, ε');
      // Ten entries: the diagonal and the three couplings (β, Θ), (Φ, δ), (Ω, ε), two of them
      // depending on q; the velocities appear in the forces.
      expect(s.system?.match(/^mass\(/gmu)).toHaveLength(10);
      expect(s.system).toContain("force β = mom - m2*da*rr*Θ'*(Θ' + 2*β')*sin(Θ)");
      expect(modelOf(s).params.find((p) => p.name === 'c0')?.value).toBe(4530);
      const keys = Object.keys(run(s).outputs);
      expect(keys.filter((k) => k.startsWith('λ:'))).toHaveLength(6);
      expect(keys.filter((k) => k.startsWith('q:'))).toHaveLength(14);
    },
  },
  {
    scenario: 'andrews-squeezer',
    sentence: 'In state-space form at rtol 1e-6 the seven angles at t = 0.03 agree with the published reference solution of the Test Set for IVP Solvers to five digits; the crank turns about two and a half times in those 30 ms.',
    check: () => {
      const s = settingsOf('andrews-squeezer');
      expect(s.formulation).toBe('state-space');
      expect(s.rtol).toBe(1e-6);
      const sol = run(s);
      expect(lastT(sol)).toBe(0.03);
      // Measured: largest relative error 5.5e-6 (γ).
      expect(andrewsError(sol)).toBeLessThan(1e-5);
      const beta = sol.outputs['q:β'];
      const turns = (beta[beta.length - 1] - beta[0]) / (2 * Math.PI);
      // Measured: 2.53 turns.
      expect(turns).toBeGreaterThan(2.4);
      expect(turns).toBeLessThan(2.6);
    },
  },
  {
    scenario: 'andrews-squeezer',
    sentence: "Try: Method → radau5: 112 steps instead of ros4's 242 (state-space, rtol 1e-6), and closer still to the reference.",
    check: () => {
      const s = settingsOf('andrews-squeezer');
      const ros4 = run(s);
      const radau5 = run({ ...s, method: 'radau5' });
      expect(ros4.stats.naccept).toBe(242);
      expect(radau5.stats.naccept).toBe(112);
      // Measured: 1.4e-6 against 5.5e-6.
      expect(andrewsError(radau5)).toBeLessThan(andrewsError(ros4) / 2);
    },
  },
  {
    scenario: 'bushing-double-pendulum',
    sentence: 'Two rods hinged to the ground and to each other, the elbow held straight by a torsional bushing of stiffness 1e6 N·m/rad and damping 100 N·m·s/rad, typed as bodies and joints.',
    check: () => {
      const s = settingsOf('bushing-double-pendulum');
      const info = modelOf(s);
      expect(info.params.find((p) => p.name === 'kb')?.value).toBe(1e6);
      expect(info.params.find((p) => p.name === 'cb')?.value).toBe(100);
      for (const line of ['body upper:', 'body lower:', 'revolute O:', 'revolute A:', 'torsion B: upper, lower, k kb, c cb']) expect(s.system).toContain(line);
      // Drawn from the joints, with no draw lines in the text.
      expect(s.system).not.toContain('draw ');
      expect(Object.keys(run(s).outputs).some((k) => k.startsWith('draw '))).toBe(true);
    },
  },
  {
    scenario: 'bushing-double-pendulum',
    sentence: "At rtol 1e-6 dp45 takes about 2,600 steps (and 470 rejected) and 21,000 f-evaluations over 2 s, against ros4's (pinned) 279 steps and 871 f-evaluations; radau5 takes 122 steps.",
    check: () => {
      const s = settingsOf('bushing-double-pendulum');
      expect(s.method).toBe('dp45');
      expect(s.rtol).toBe(1e-6);
      const dp45 = run(s);
      expect(lastT(dp45)).toBe(2);
      // Measured 2609 accepted steps (the page's "steps") and 469 rejected, 21079 f-evaluations.
      expect(dp45.stats.naccept).toBeGreaterThan(2450);
      expect(dp45.stats.naccept).toBeLessThan(2750);
      expect(dp45.stats.nreject).toBeGreaterThan(420);
      expect(dp45.stats.nreject).toBeLessThan(520);
      expect(dp45.stats.nfev).toBeGreaterThan(20000);
      expect(dp45.stats.nfev).toBeLessThan(22000);
      const pin = s.pins?.[0] as RunSettings;
      expect(pin.method).toBe('ros4');
      expect(pin.rtol).toBe(s.rtol);
      const ros4 = run(pin);
      expect(ros4.stats.naccept).toBeGreaterThan(265);
      expect(ros4.stats.naccept).toBeLessThan(295);
      expect(ros4.stats.nfev).toBeGreaterThan(830);
      expect(ros4.stats.nfev).toBeLessThan(910);
      const radau5 = run({ ...s, method: 'radau5' });
      expect(radau5.stats.naccept).toBeGreaterThan(115);
      expect(radau5.stats.naccept).toBeLessThan(130);
    },
  },
  {
    scenario: 'bushing-double-pendulum',
    sentence: "dp45 still needs about 20,500 f-evaluations at rtol 1e-3: the bushing's fast mode, not the accuracy, sets its steps.",
    check: () => {
      const s = settingsOf('bushing-double-pendulum');
      // Measured 20541 at rtol 1e-3 against 21079 at 1e-6: a thousandfold looser tolerance saves 3%.
      const loose = run({ ...s, rtol: 1e-3, atol: 1e-6 });
      expect(loose.stats.nfev).toBeGreaterThan(19500);
      expect(loose.stats.nfev).toBeLessThan(21500);
      expect(loose.stats.nfev / run(s).stats.nfev).toBeGreaterThan(0.9);
      // The fast mode: the largest eigenvalue of ∂f/∂y mid-run times dp45's mean step
      // is past 1, the scale of its stability region.
      const h = 2 / loose.stats.naccept;
      const lambda = eigenvaluesAt(s, loose, Math.floor(loose.t.length / 2));
      expect(Math.max(...lambda.map(([re, im]) => Math.hypot(re, im))) * h).toBeGreaterThan(1);
    },
  },
  {
    scenario: 'bushing-double-pendulum',
    sentence: 'With projection, constraint |Φ| stays below 1e-11 in every run.',
    check: () => {
      const s = settingsOf('bushing-double-pendulum');
      expect(s.stabilization).toBe('projection');
      for (const settings of [s, s.pins?.[0] as RunSettings, { ...s, method: 'radau5' }, { ...s, rtol: 1e-3, atol: 1e-6 }]) {
        expect(maxAbs(run(settings).outputs['constraint |Φ|'])).toBeLessThan(1e-11);
      }
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

  // Gil, Sanfelice & Nikravesh, Local Linearization Method §5, Fig. 7.
  {
    scenario: 'llm-adaptive-double-pendulum',
    sentence: "The paper's adaptive run: the local linearization method's own error estimate, measured per unit step (EPUS, k = 2) with safety γ = 0.9, held to tolerance 0.1 on the stiff double pendulum, against 0.05 (pinned).",
    check: () => {
      const s = settingsOf('llm-adaptive-double-pendulum');
      expect([s.model, s.method, s.atol]).toEqual(['double-pendulum-stiff', 'llm', 0.1]);
      // EPUS with the elementary controller: k = q = 2 for LLM's h³ estimate.
      expect(s.controller).toEqual({ kind: 'i', perUnitStep: true, safety: 0.9 });
      expect(s.pins?.map((p) => [p.method, p.atol, p.controller?.perUnitStep])).toEqual([['llm', 0.05, true]]);
      // rtol is negligible: the tolerance is absolute, as the paper's.
      expect(s.rtol).toBeLessThan(1e-12);
    },
  },
  {
    scenario: 'llm-adaptive-double-pendulum',
    sentence: 'The stricter tolerance takes the smaller steps and more of them: 33 accepted steps over 2 s against 49.',
    check: () => {
      const s = settingsOf('llm-adaptive-double-pendulum');
      const [loose, strict] = [run(s), run((s.pins ?? [])[0])];
      expect(loose.stats.naccept).toBe(33);
      expect(strict.stats.naccept).toBe(49);
      expect(lastT(loose)).toBe(2);
      const median = (sol: Solution): number => {
        const h = Array.from({ length: sol.t.length - 1 }, (_, i) => sol.t[i + 1] - sol.t[i]).sort((a, b) => a - b);
        return h[h.length >> 1];
      };
      expect(median(strict)).toBeLessThan(median(loose));
    },
  },
  {
    scenario: 'llm-adaptive-double-pendulum',
    sentence: "Every accepted step's estimated error per unit step stays within its tolerance (at most 0.98 of it).",
    check: () => {
      const s = settingsOf('llm-adaptive-double-pendulum');
      for (const sol of [run(s), run((s.pins ?? [])[0])]) {
        // errEst is ‖l‖ over the tolerance; per unit step (eq. 39) it is divided by h.
        const r = Array.from(sol.errEst, (e, i) => e / (sol.t[i + 1] - sol.t[i]));
        expect(r.length).toBe(sol.t.length - 1);
        expect(Math.max(...r)).toBeLessThanOrEqual(0.985);
        expect(Math.max(...r)).toBeGreaterThan(0.9);
      }
    },
  },

  // Gil, Sanfelice & Nikravesh, Local Linearization Method §2, Fig. 2.
  {
    scenario: 'llm-stiff-double-pendulum',
    sentence: "The paper's headline: the local linearization method at a uniform h = 0.02 takes 100 steps and 101 f-evaluations over 2 s, against dp45 and ros4 (pinned) at rtol 1e-3, MATLAB's default.",
    check: () => {
      const s = settingsOf('llm-stiff-double-pendulum');
      const sol = run(s);
      expect(sol.stats.naccept).toBe(100);
      expect(sol.stats.nfev).toBe(101);
      expect(lastT(sol)).toBe(2);
      expect(s.pins?.map((p) => [p.method, p.rtol])).toEqual([
        ['dp45', 1e-3],
        ['ros4', 1e-3],
      ]);
    },
  },
  {
    scenario: 'llm-stiff-double-pendulum',
    sentence: "Its total energy varies by 0.03 J, like ros4's 0.02 J and 50 times less than dp45's 1.5 J.",
    check: () => {
      const s = settingsOf('llm-stiff-double-pendulum');
      const spread = (e: Float64Array): number => e.reduce((w, v) => Math.max(w, Math.abs(v - e[0])), 0);
      // Measured: llm 0.0268 J, ros4 0.0219 J, dp45 1.46 J (E0 = 0: links at rest, horizontal).
      const llm = spread(run(s).outputs.energy);
      const [dp45, ros4] = (s.pins ?? []).map((p) => spread(run(p).outputs.energy));
      expect(llm).toBeGreaterThan(0.025);
      expect(llm).toBeLessThan(0.035);
      expect(ros4).toBeGreaterThan(0.015);
      expect(ros4).toBeLessThan(0.025);
      expect(dp45).toBeGreaterThan(1.25);
      expect(dp45).toBeLessThan(1.75);
      expect(dp45 / llm).toBeGreaterThan(40);
      expect(dp45 / llm).toBeLessThan(65);
    },
  },
  {
    scenario: 'llm-stiff-double-pendulum',
    sentence: "Its joint drift |Φ| reaches 1.3e-3, like ros4's and about a sixth of dp45's.",
    check: () => {
      const s = settingsOf('llm-stiff-double-pendulum');
      const drift = (p: RunSettings): number => maxAbs(run(p).outputs['constraint |Φ|']);
      // Measured: llm 1.27e-3, ros4 1.21e-3, dp45 8.24e-3.
      const llm = drift(s);
      const [dp45, ros4] = (s.pins ?? []).map(drift);
      expect(llm).toBeGreaterThan(1.2e-3);
      expect(llm).toBeLessThan(1.4e-3);
      expect(Math.abs(ros4 / llm - 1)).toBeLessThan(0.15);
      expect(dp45 / llm).toBeGreaterThan(5);
      expect(dp45 / llm).toBeLessThan(8);
    },
  },
  {
    scenario: 'llm-stiff-double-pendulum',
    sentence: 'dp45 needs 21,000 f-evaluations whatever its tolerance: the bending mode (±1535i), not the accuracy, sets its steps.',
    check: () => {
      const s = settingsOf('llm-stiff-double-pendulum');
      const dp45Settings = (s.pins ?? [])[0];
      const dp45 = run(dp45Settings);
      expect(dp45.stats.nfev).toBeGreaterThan(20_000);
      expect(dp45.stats.nfev).toBeLessThan(22_000);
      // Stability, not accuracy: a hundred times tighter, about as many f-evaluations.
      const tight = run({ ...dp45Settings, rtol: 1e-5, atol: 1e-8 });
      expect(Math.abs(tight.stats.nfev / dp45.stats.nfev - 1)).toBeLessThan(0.1);
      const fastest = eigenvaluesAt(s, run(s), 0)[0];
      expect(Math.abs(fastest[1])).toBeGreaterThan(1530);
      expect(Math.abs(fastest[1])).toBeLessThan(1540);
    },
  },
  {
    scenario: 'llm-stiff-double-pendulum',
    sentence: 'Try: pin radau5 at rtol 1e-3, which varies the energy and drifts less than all three.',
    check: () => {
      const s = settingsOf('llm-stiff-double-pendulum');
      const radau5 = run({ ...(s.pins ?? [])[1], method: 'radau5' });
      const spread = (e: Float64Array): number => e.reduce((w, v) => Math.max(w, Math.abs(v - e[0])), 0);
      for (const other of [s, ...(s.pins ?? [])]) {
        const sol = run(other);
        expect(spread(radau5.outputs.energy)).toBeLessThan(spread(sol.outputs.energy));
        expect(maxAbs(radau5.outputs['constraint |Φ|'])).toBeLessThan(maxAbs(sol.outputs['constraint |Φ|']));
      }
    },
  },

  // Schwab & Delhaes §7.4, Euler 2.
  {
    scenario: 'euler2-oscillator',
    sentence: 'Euler 2 evaluates f once per step, at the midpoint.',
    check: () => {
      const s = settingsOf('euler2-oscillator');
      const sol = run(s);
      expect(sol.stats.nfev).toBe(sol.stats.naccept);
      expect(sol.stats.naccept).toBe(1000);
    },
  },
  {
    scenario: 'euler2-oscillator',
    sentence: 'On the undamped spring (ω = 10 rad/s) its amplification matrix has determinant 1, so for hω < 2 the swing neither decays nor grows: at h = 0.1 its amplitude stays between 1 and 1.12 times the start for 100 s, the same in the last 10 s as in the first period.',
    check: () => {
      const s = settingsOf('euler2-oscillator');
      // One step of q'' = −ω²q from (1, 0) and from (0, 1): the columns of the matrix.
      const omega = 10;
      const h = s.h ?? NaN;
      const stepOf = (q: number, z: number): [number, number] => {
        const k1 = -omega * omega * (q + (h / 2) * z);
        return [q + h * z + 0.5 * h * h * k1, z + h * k1];
      };
      const [a, c] = stepOf(1, 0);
      const [b, d] = stepOf(0, 1);
      expect(a * d - b * c).toBeCloseTo(1, 14);
      const sol = run(s);
      const start = amplitude(sol, 0, 0);
      const lowest = (from: number, to: number): number => {
        let w = Infinity;
        for (let i = 0; i < sol.t.length; i++) {
          if (sol.t[i] < from || sol.t[i] > to) continue;
          w = Math.min(w, Math.hypot(sol.y[2 * i] - 0.0981, sol.y[2 * i + 1] / omega));
        }
        return w;
      };
      // Measured: between 0.0981 and 0.10968 (1.118 times) in the first period and the last 10 s alike.
      expect(lowest(0, 100) / start).toBeGreaterThan(1 - 1e-9);
      expect(amplitude(sol, 0, 100) / start).toBeLessThan(1.12);
      expect(amplitude(sol, 0, 100) / start).toBeGreaterThan(1.1);
      const period = (2 * Math.PI) / omega;
      expect(Math.abs(amplitude(sol, 90, 100) / amplitude(sol, 0, period) - 1)).toBeLessThan(1e-6);
      expect(Math.abs(lowest(90, 100) / lowest(0, period) - 1)).toBeLessThan(1e-6);
    },
  },
  {
    scenario: 'euler2-oscillator',
    sentence: 'Try: h = 0.21 (hω = 2.1), where the run blows up; or RK4 at h = 0.19, which damps the swing by a fifth every step (|R(1.9i)| ≈ 0.80): by t = 34 it is down to round-off, 1e-17 of its size.',
    check: () => {
      const s = settingsOf('euler2-oscillator');
      expect(run({ ...s, h: 0.21 }).warning).toMatch(/blew up/);
      const rk4 = run({ ...s, method: 'rk4', h: 0.19 });
      expect(rk4.warning).toBeUndefined();
      expect(rho('rk4', 0, 1.9)).toBeCloseTo(0.8009, 4);
      // 0.80 a step would leave 0.80^526 = 1.8e-51 of it at t = 100; the run keeps
      // 9.5e-18 from t = 33 on, the rounding of its fixed point x* = m g/k.
      const start = amplitude(rk4, 0, 0);
      expect(amplitude(rk4, 29, 30) / start).toBeGreaterThan(1e-16);
      const floor = amplitude(rk4, 34, 100) / start;
      expect(floor).toBeGreaterThan(1e-18);
      expect(floor).toBeLessThan(2e-17);
      expect(amplitude(rk4, 99, 100) / start).toBeGreaterThan(0.5 * floor);
    },
  },

  // Schwab & Delhaes §7.7, Fig. 7.15.
  {
    scenario: 'euler-vs-backward-euler-stiff',
    sentence: 'A spring with a heavy damper (c = 1000 N·s/m) has eigenvalues −0.1 and −1000: the mass creeps towards its rest position over tens of seconds while the fast mode dies within milliseconds.',
    check: () => {
      const s = settingsOf('euler-vs-backward-euler-stiff');
      expect(s.params?.c).toBe(1000);
      const ev = eigenvaluesAt(s, run({ ...s, t1: 0.01 }), 0)
        .map(([re]) => re)
        .sort((x, y) => x - y);
      expect(ev[0]).toBeCloseTo(-999.9, 1);
      expect(ev[1]).toBeCloseTo(-0.1, 3);
      // The exact creep: 86 % of the way to m g/k = 0.0981 after 20 s (e^{−2} left).
      const exact = run({ ...s, method: 'backward-euler' }).exact as Float64Array;
      expect(exact[exact.length - 2] / 0.0981).toBeGreaterThan(0.85);
      expect(exact[exact.length - 2] / 0.0981).toBeLessThan(0.88);
    },
  },
  {
    scenario: 'euler-vs-backward-euler-stiff',
    sentence: 'Forward Euler must still keep h·1000 below 2: at h = 0.0021 it blows up before t = 8, although at h = 0.0019 it follows the exact creep to 1e-5.',
    check: () => {
      const s = settingsOf('euler-vs-backward-euler-stiff');
      const coarse = run(s);
      expect(coarse.warning).toMatch(/blew up/);
      expect(lastT(coarse)).toBeLessThan(8);
      const fine = run({ ...s, h: 0.0019 });
      expect(fine.warning).toBeUndefined();
      const x = column(fine, 'x');
      const exact = fine.exact as Float64Array;
      const err = x.reduce((w, v, i) => Math.max(w, Math.abs(v - exact[2 * i])), 0);
      // Measured: 1.03e-5.
      expect(err).toBeGreaterThan(5e-6);
      expect(err).toBeLessThan(1.5e-5);
    },
  },
  {
    scenario: 'euler-vs-backward-euler-stiff',
    sentence: 'Backward Euler (pinned) at h = 0.0021 follows the position to 4e-6 (its largest error, 2e-3, is in the velocity during the first milliseconds), and is stable at any h.',
    check: () => {
      const s = settingsOf('euler-vs-backward-euler-stiff');
      const pin = (s.pins ?? [])[0];
      expect(pin.method).toBe('backward-euler');
      expect(pin.h).toBe(s.h);
      const xErr = (sol: Solution): number => {
        const exact = sol.exact as Float64Array;
        return column(sol, 'x').reduce((w, v, i) => Math.max(w, Math.abs(v - exact[2 * i])), 0);
      };
      // Measured: 3.79e-6.
      const sol = run(pin);
      const err = xErr(sol);
      expect(err).toBeGreaterThan(3e-6);
      expect(err).toBeLessThan(5e-6);
      // Measured: 1.96e-3 in u, at the first steps (the fast mode's transient).
      const exact = sol.exact as Float64Array;
      let worst = 0;
      let at = 0;
      for (let i = 0; i < sol.y.length; i++) {
        const e = Math.abs(sol.y[i] - exact[i]);
        if (e > worst) [worst, at] = [e, i];
      }
      expect(worst).toBeGreaterThan(1.5e-3);
      expect(worst).toBeLessThan(2.5e-3);
      expect(at % 2).toBe(1);
      expect(sol.t[Math.floor(at / 2)]).toBeLessThan(0.01);
      for (const h of [0.01, 0.5, 5]) {
        const sol = run({ ...pin, h });
        expect(sol.warning).toBeUndefined();
        expect(maxAbs(sol.y)).toBeLessThan(0.1);
      }
    },
  },
  {
    scenario: 'euler-vs-backward-euler-stiff',
    sentence: 'Try: backward Euler at h = 0.5, 40 steps with an error of 9e-4.',
    check: () => {
      const s = settingsOf('euler-vs-backward-euler-stiff');
      const sol = run({ ...s, method: 'backward-euler', h: 0.5 });
      expect(sol.stats.naccept).toBe(40);
      const exact = sol.exact as Float64Array;
      const err = column(sol, 'x').reduce((w, v, i) => Math.max(w, Math.abs(v - exact[2 * i])), 0);
      // Measured: 8.84e-4.
      expect(err).toBeGreaterThan(8e-4);
      expect(err).toBeLessThan(9.5e-4);
    },
  },

  // Schwab & Delhaes §7.5, Figs. 7.10–7.11.
  {
    scenario: 'heun-round-off-floor',
    sentence: "Heun's global error on the damped spring falls as h² down to about 1e-14 at n = 21 (h = T/2²¹ ≈ 2.4e-6, two million steps), then rises again as the round-off of ever more steps accumulates: E = C1·h² + C2/h, Fig. 7.11.",
    check: () => {
      const s = settingsOf('heun-round-off-floor');
      expect(s.t1).toBe(5);
      const heun = convergence({ model: s.model, params: s.params, t1: s.t1, methods: ['heun'], tols: [], localH: [], nMax: 23 }).global[0];
      expect(Math.abs(heun.fit.slope - 2)).toBeLessThan(0.1);
      // Measured: 1.02e-14 at n = 21, then 2.04e-14 and 2.45e-14 at n = 22, 23.
      const at = (n: number): number => heun.error[heun.n.indexOf(n)];
      const smallest = Math.min(...heun.error);
      expect(at(21)).toBe(smallest);
      expect(smallest).toBeGreaterThan(3e-15);
      expect(smallest).toBeLessThan(3e-14);
      expect(at(22)).toBeGreaterThan(1.5 * smallest);
      expect(at(23)).toBeGreaterThan(1.5 * smallest);
      expect(5 / 2 ** 21).toBeCloseTo(2.4e-6, 7);
      expect(2 ** 21).toBeGreaterThan(2e6);
    },
  },
  {
    scenario: 'heun-round-off-floor',
    sentence: 'The default range, n up to 14, stops far above that floor.',
    check: () => {
      const s = settingsOf('heun-round-off-floor');
      const heun = convergence({ model: s.model, params: s.params, t1: s.t1, methods: ['heun'], tols: [], localH: [] }).global[0];
      expect(Math.max(...heun.n)).toBe(14);
      // Measured: 1.3e-10 at n = 14, four orders above the floor.
      expect(Math.min(...heun.error)).toBeGreaterThan(1e-11);
    },
  },
  {
    scenario: 'heun-round-off-floor',
    sentence: 'Try: tick Heun alone, set n to 23 and run the study (a few seconds).',
    check: () => {
      // With Heun alone, n ≤ 23 is within the study's budget (the sum of 2ⁿ steps).
      const s = settingsOf('heun-round-off-floor');
      const heun = convergence({ model: s.model, params: s.params, t1: s.t1, methods: ['heun'], tols: [], localH: [], nMax: 23 }).global[0];
      expect(Math.max(...heun.n)).toBe(23);
      expect(heun.diagnosis).toBeUndefined();
    },
  },

  // Negrut et al. 2003 §3.2, Tables 7–8.
  {
    scenario: 'vehicle-tolerance-sweep',
    sentence: 'ros4 with hMax = 5 ms takes 1,597 f-evaluations over 2 s at tolerance 1e-5 (this run) and 1,214 at 1e-2 (pinned): its cost grows with the accuracy asked, as in Table 8.',
    check: () => {
      const s = settingsOf('vehicle-tolerance-sweep');
      const pin = (s.pins ?? [])[0];
      expect([s.method, s.hMax, s.rtol, s.atol, s.t1]).toEqual(['ros4', 0.005, 1e-5, 1e-5, 2]);
      expect([pin.method, pin.hMax, pin.rtol, pin.atol]).toEqual(['ros4', 0.005, 1e-2, 1e-2]);
      expect(run(s).stats.nfev).toBe(1597);
      expect(run(pin).stats.nfev).toBe(1214);
      // And in between (1e-3: 1,289; 1e-4: 1,449 when measured): growing all the way.
      const middle = [1e-3, 1e-4].map((tol) => run({ ...s, rtol: tol, atol: tol }).stats.nfev);
      expect(middle[0]).toBeGreaterThan(1214);
      expect(middle[1]).toBeGreaterThan(middle[0]);
      expect(1597).toBeGreaterThan(middle[1]);
    },
  },
  {
    scenario: 'vehicle-tolerance-sweep',
    sentence: "Try: dp45 at tolerance 1e-2 and at 1e-5, about 840,000 f-evaluations either way, 500–700 times ros4's: stability and not accuracy sets its steps, as in Table 7.",
    check: () => {
      const s = settingsOf('vehicle-tolerance-sweep');
      const loose = run({ ...s, method: 'dp45', rtol: 1e-2, atol: 1e-2 });
      const tight = run({ ...s, method: 'dp45' });
      // Measured: 836,643 and 843,975 (hMax = 5 ms stays set; without it dp45 crosses the
      // quiet road and the front wheel's bump in a few steps and takes ~450,000).
      for (const sol of [loose, tight]) {
        expect(sol.warning).toBeUndefined();
        expect(Math.abs(sol.stats.nfev / 840_000 - 1)).toBeLessThan(0.02);
      }
      expect(loose.stats.nfev / 1214).toBeLessThan(700);
      expect(tight.stats.nfev / 1597).toBeGreaterThan(500);
      // Its accepted steps sit at the real-axis limit for λ ≈ −2.6e5 (|hλ| ≈ 3.3): the median.
      const steps = Array.from(tight.t.slice(1), (t, i) => t - tight.t[i]).sort((a, b) => a - b);
      const median = steps[Math.floor(steps.length / 2)];
      expect(median * 2.6e5).toBeGreaterThan(2);
      expect(median * 2.6e5).toBeLessThan(4);
    },
  },
  {
    scenario: 'vehicle-tolerance-sweep',
    sentence: "The paper's times are CPU seconds of a 14-body model on a 2003 workstation; only the shape of its tables is compared here.",
    check: () => {
      // A statement about the source, not a computation: the model compared is the 8-state half-car.
      expect(modelOf(settingsOf('vehicle-tolerance-sweep')).dim).toBe(8);
    },
  },

  // Gil, Sanfelice & Nikravesh 2013, Figs. 4–5 (tests/published.rs checks the one-step form).
  {
    scenario: 'slowfast-accuracy-alpha',
    sentence: 'The slow/fast scheme and RK4 (pinned) at h = 1e-3 on the linear test problem (λs = −1 + i, β = 0.1), with the fast rate α = 1000 times the slow one, and both again at α = 10 (pinned).',
    check: () => {
      const s = settingsOf('slowfast-accuracy-alpha');
      const runs = [s, ...(s.pins ?? [])].map((p) => [p.method, p.h, p.params?.alpha]);
      expect(runs).toEqual([
        ['slowfast', 1e-3, 1000],
        ['rk4', 1e-3, 1000],
        ['slowfast', 1e-3, 10],
        ['rk4', 1e-3, 10],
      ]);
      const info = modelOf(s);
      const value = (name: string): number | undefined => info.params.find((p) => p.name === name)?.value;
      expect([value('lambdaRe'), value('lambdaIm'), value('beta')]).toEqual([-1, 1, 0.1]);
    },
  },
  {
    scenario: 'slowfast-accuracy-alpha',
    sentence: 'RK4 is the more accurate while the fast state is slow (α = 10: 2e-10 against 6e-6 over 1 s), but its error grows with α, to 3.5e-2 at α = 1000.',
    check: () => {
      const [rk4Fast, slowfast10, rk410] = (settingsOf('slowfast-accuracy-alpha').pins ?? []).map((p) => maxError(run(p)));
      // Measured: 1.93e-10, 5.88e-6, 3.53e-2.
      expect(rk410).toBeGreaterThan(1.5e-10);
      expect(rk410).toBeLessThan(2.5e-10);
      expect(slowfast10).toBeGreaterThan(5e-6);
      expect(slowfast10).toBeLessThan(7e-6);
      expect(rk4Fast).toBeGreaterThan(3e-2);
      expect(rk4Fast).toBeLessThan(4e-2);
      const rk4Middle = maxError(run({ ...(settingsOf('slowfast-accuracy-alpha').pins ?? [])[0], params: { alpha: 100 } }));
      expect(rk4Middle).toBeGreaterThan(rk410);
      expect(rk4Middle).toBeLessThan(rk4Fast);
    },
  },
  {
    scenario: 'slowfast-accuracy-alpha',
    sentence: "The slow/fast scheme's error does not grow with α: 8e-8 at α = 1000.",
    check: () => {
      const s = settingsOf('slowfast-accuracy-alpha');
      const errors = [10, 100, 1000].map((alpha) => maxError(run({ ...s, params: { alpha } })));
      // Measured: 5.88e-6, 6.64e-7, 8.29e-8 (the scheme's error shrinks as the slow manifold tightens).
      expect(errors[1]).toBeLessThanOrEqual(errors[0]);
      expect(errors[2]).toBeLessThanOrEqual(errors[1]);
      expect(errors[2]).toBeGreaterThan(7e-8);
      expect(errors[2]).toBeLessThan(9e-8);
    },
  },
  {
    scenario: 'slowfast-accuracy-alpha',
    sentence: 'Try: h = 2e-3, where RK4 at α = 1000 blows up (hλf = −2 + 2i lies outside its region) and the slow/fast errors about double: the scheme is first order.',
    check: () => {
      const s = settingsOf('slowfast-accuracy-alpha');
      const [rk4Fast, slowfast10] = s.pins ?? [];
      expect(run({ ...rk4Fast, h: 2e-3 }).warning).toMatch(/blew up/);
      // hλf = 2e-3 · 1000 · (−1 + i).
      expect(rho('rk4', -2, 2)).toBeGreaterThan(1);
      for (const p of [s, slowfast10]) {
        const ratio = maxError(run({ ...p, h: 2e-3 })) / maxError(run(p));
        // Measured: 2.44 (α = 1000) and 2.00 (α = 10).
        expect(ratio).toBeGreaterThan(1.8);
        expect(ratio).toBeLessThan(2.6);
      }
    },
  },
  // Gil, Sanfelice & Nikravesh 2013, Fig. 5: the error against the coupling β.
  {
    scenario: 'slowfast-accuracy-beta',
    sentence: 'The slow/fast scheme and RK4 (pinned) at h = 1e-3 on the linear test problem (λs = −1 + i, α = 100), with the coupling β = 0.5, and the slow/fast scheme again at β = 0.1 and β = 0 (pinned).',
    check: () => {
      const s = settingsOf('slowfast-accuracy-beta');
      const runs = [s, ...(s.pins ?? [])].map((p) => [p.method, p.h, p.params?.alpha, p.params?.beta]);
      expect(runs).toEqual([
        ['slowfast', 1e-3, 100, 0.5],
        ['rk4', 1e-3, 100, 0.5],
        ['slowfast', 1e-3, 100, 0.1],
        ['slowfast', 1e-3, 100, 0],
      ]);
      const info = modelOf(s);
      const value = (name: string): number | undefined => info.params.find((p) => p.name === name)?.value;
      expect([value('lambdaRe'), value('lambdaIm')]).toEqual([-1, 1]);
    },
  },
  {
    scenario: 'slowfast-accuracy-beta',
    sentence: 'Uncoupled (β = 0) the slow/fast scheme is exact to rounding (2e-14 over 1 s); its error grows with the coupling, 6.6e-7 at β = 0.1 and 3.4e-6 at β = 0.5, where it passes RK4\'s 2.8e-6.',
    check: () => {
      const s = settingsOf('slowfast-accuracy-beta');
      const [rk4Half, sf01, sf0] = (s.pins ?? []).map((p) => maxError(run(p)));
      const sfHalf = maxError(run(s));
      // Measured: 2.27e-14, 6.64e-7, 3.37e-6; RK4 2.84e-6.
      expect(sf0).toBeLessThan(5e-14);
      expect(sf01).toBeGreaterThan(6e-7);
      expect(sf01).toBeLessThan(7e-7);
      expect(sfHalf).toBeGreaterThan(3.2e-6);
      expect(sfHalf).toBeLessThan(3.5e-6);
      expect(rk4Half).toBeGreaterThan(2.7e-6);
      expect(rk4Half).toBeLessThan(2.9e-6);
      expect(sfHalf).toBeGreaterThan(rk4Half);
    },
  },
  {
    scenario: 'slowfast-accuracy-beta',
    sentence: "RK4's error barely depends on β (1.9e-6 at β = 0).",
    check: () => {
      const [rk4Half] = settingsOf('slowfast-accuracy-beta').pins ?? [];
      const rk40 = maxError(run({ ...rk4Half, params: { alpha: 100, beta: 0 } }));
      // Measured: 1.87e-6 at β = 0 against 2.84e-6 at β = 0.5.
      expect(rk40).toBeGreaterThan(1.8e-6);
      expect(rk40).toBeLessThan(2e-6);
      expect(maxError(run(rk4Half)) / rk40).toBeLessThan(2);
    },
  },
  {
    scenario: 'slowfast-accuracy-beta',
    sentence: "Try: h = 2e-3, where the slow/fast errors about double (the scheme is first order) and RK4's grow about seventeenfold (fourth order).",
    check: () => {
      const s = settingsOf('slowfast-accuracy-beta');
      const [rk4Half, sf01] = s.pins ?? [];
      for (const p of [s, sf01]) {
        const ratio = maxError(run({ ...p, h: 2e-3 })) / maxError(run(p));
        // Measured: 2.02 (β = 0.5) and 2.05 (β = 0.1).
        expect(ratio).toBeGreaterThan(1.8);
        expect(ratio).toBeLessThan(2.3);
      }
      const ratio = maxError(run({ ...rk4Half, h: 2e-3 })) / maxError(run(rk4Half));
      // Measured: 17.5 (2⁴ = 16 for a fourth-order error).
      expect(ratio).toBeGreaterThan(15);
      expect(ratio).toBeLessThan(19);
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
