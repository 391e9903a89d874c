// The WASM half of `npm run bench` : the cases of bench/cases.json through
// pkg/ (and the stability maps through pkg-labs/) in Node, timed like examples/bench_native.rs times them natively (warm-up runs
// so V8 has tiered the module up, then the median of N runs). Prints one JSON object.
// A case the run package leaves out (a user system, slowfast: code "not-in-this-build")
// runs in the whole engine, pkg-labs/, as the page's worker runs it.
//
//   node bench/wasm_bench.mjs bench/cases.json RUNS
//   BENCH_ONLY=chainBodies node bench/wasm_bench.mjs bench/cases.json 3   # one case
import { readFileSync } from 'node:fs';
import init, { methods, solve as solveFirst } from '../pkg/odelab.js';
import initLabs, { stabilityMap, solve as solveWhole, Integrator } from '../pkg-labs/odelab_labs.js';

function solve(spec) {
  try {
    return solveFirst(spec);
  } catch (e) {
    if (e.code === 'not-in-this-build') return solveWhole(spec);
    throw e;
  }
}

const [casesPath = 'bench/cases.json', runsArg = '21'] = process.argv.slice(2);
const RUNS = Number(runsArg);
const WARMUP = 5;
// Warm-up solves before the timed ones of the solver rows: V8 runs a wasm function in
// its baseline tier first and swaps the optimised code in later, after a number of
// calls that grows with the function's size. Measured in Node 20 (median of the
// solves in each range): dp45 on the pendulum 1.71 ms (solves 5–20) → 1.13 (20–40) →
// 0.98 (40–100); radau5 on Van der Pol 0.78 ms (20–40) → 0.45 (40–100); ros4 ~9 solves,
// slowfast in the labs package ~17. After that every case still runs ~8 % slower for
// its first ~300 solves in the process, then steadies (medians per 50 solves, Node 20,
// dp45 0.79–0.80 → 0.70–0.71 ms, ros4 0.74–0.75 → 0.68–0.69,
// radau5 0.35 → 0.33, llm 2.11–2.15 → 1.99–2.00), the same with V8's dynamic tiering
// off and with its JS optimising tiers off, and at the same solve counts when other
// solves are interleaved: V8's, not the allocator's or the host's. Steady state is what
// the medians measure (the first call is reported on its own), so they start after 400.
const SETTLE_WARMUP = 400;
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
// BENCH_ONLY=chainBodies,heat runs only those cases (one piece of the bench on a busy machine).
const only = process.env.BENCH_ONLY?.split(',');
const want = (key) => !only || only.includes(key);
await init({ module_or_path: readFileSync(new URL('../pkg/odelab_bg.wasm', import.meta.url)) });
await initLabs({ module_or_path: readFileSync(new URL('../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

function timed(runs, f, warmup = WARMUP) {
  let out;
  for (let i = 0; i < warmup; i++) out = f();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    out = f();
    times.push(performance.now() - start);
  }
  return { ms: median(times), runs: times, out };
}

const last = (sol) => Array.from(sol.y.subarray(sol.y.length - sol.dim));
const result = { runs: RUNS, node: process.version };

// 1. dp45 on the pendulum. The first call is also timed alone: it runs before V8 has
//    optimised the module (what a page sees on its first solve).
if (want('dp45Pendulum')) {
  const spec = cases.dp45Pendulum;
  const first = timed(1, () => solve(spec), 0);
  const { ms, runs, out } = timed(RUNS, () => solve(spec), SETTLE_WARMUP);
  result.dp45Pendulum = { ms, runs, firstMs: first.ms, stats: out.stats, yEnd: last(out) };
}

// 2. Stiff methods on Van der Pol, as soon as methods() lists them.
if (want('stiff')) {
  const ids = new Set(methods().map((m) => m.id));
  const { reference } = cases.stiff;
  result.stiff = {};
  for (const id of cases.stiff.methods) {
    if (!ids.has(id)) {
      result.stiff[id] = { pending: true };
      continue;
    }
    const spec = { ...cases.stiff.spec, method: id };
    try {
      const { ms, runs, out } = timed(RUNS, () => solve(spec), SETTLE_WARMUP);
      const y = last(out);
      const err = Math.max(...y.map((v, i) => Math.abs(v - reference[i])));
      result.stiff[id] = { ms, runs, stats: out.stats, yEnd: y, err, warning: out.warning };
    } catch (e) {
      result.stiff[id] = { error: String(e.message ?? e) };
    }
  }
}

// 3. The convergence sweep: every method at every step size, on a fixed grid, as the
//    page would run it (one solve per point, every point recorded).
if (want('sweep')) {
  const { model, t1, methods: ms, h } = cases.sweep;
  const specs = ms.flatMap((method) => h.map((hh) => ({ model, method, t1, h: hh, adaptive: false })));
  const { ms: med, runs, out } = timed(RUNS, () => specs.reduce((n, s) => n + solve(s).stats.nfev, 0), 2);
  result.sweep = { ms: med, runs, solves: specs.length, nfev: out };
}

// 4. Stability maps: `stabilityMap` on an n × n grid for each method of the case.
if (want('stabilityMap')) {
  const { methods: ids, n, re, im } = cases.stabilityMap;
  result.stabilityMap = {};
  for (const id of ids) {
    const spec = { method: id, re, im, nx: n, ny: n };
    const { ms, runs, out } = timed(Math.min(RUNS, 15), () => stabilityMap(spec), 2);
    result.stabilityMap[id] = { ms, runs, stableCells: out.filter((v) => v <= 1).length };
  }
  const asym = cases.stabilityMap.asymmetric;
  result.stabilityMapAsymmetric = {};
  for (const id of ids) {
    const spec = { method: id, re: asym.re, im: asym.im, nx: n, ny: n };
    const { ms, runs, out } = timed(Math.min(RUNS, 15), () => stabilityMap(spec), 2);
    result.stabilityMapAsymmetric[id] = { ms, runs, stableCells: out.filter((v) => v <= 1).length };
  }
}

// 5. Pairs: a method against a baseline in the same run, both timed, each end point
//    compared with an untimed tight reference.
if (want('pairs')) {
  result.pairs = cases.pairs.cases.map((c) => {
    const reference = last(solve(c.reference));
    const components = c.components ?? reference.map((_, i) => i);
    // Run and baseline alternate call by call, so both see the same machine load.
    const specs = [c.run, c.baseline];
    const times = [[], []];
    const sols = [];
    // Both sides settle in the optimising tier first (SETTLE_WARMUP).
    for (let i = 0; i < SETTLE_WARMUP + Math.min(RUNS, 11); i++) {
      specs.forEach((spec, k) => {
        const start = performance.now();
        sols[k] = solve(spec);
        if (i >= SETTLE_WARMUP) times[k].push(performance.now() - start);
      });
    }
    const side = (k) => {
      const y = last(sols[k]);
      const err = Math.max(...components.map((i) => Math.abs(y[i] - reference[i])));
      return { ms: median(times[k]), runs: times[k], stats: sols[k].stats, err };
    };
    return { name: c.name, run: side(0), baseline: side(1) };
  });
}

// 6. A 200-state user system (sparse Jacobian and LU), when the case is present.
if (cases.chain200 && want('chain200')) {
  const { ms, runs, out } = timed(Math.min(RUNS, 7), () => solve(cases.chain200.spec), 2);
  result.chain200 = { ms, runs, stats: out.stats, dim: out.dim };
}

// 7. The heat equation at N = 200, 2,000 and 20,000 under each stiff method of the case
// (user systems run in the whole engine, as in the page's worker).
if (cases.heat && want('heat')) {
  const c = cases.heat;
  // The semi-discrete exact solution's error, relative to its size.
  const heatError = (sol, n) => {
    const m = n + 1;
    const s = Math.sin(Math.PI / (2 * m));
    const decay = Math.exp(-4 * m * m * s * s * sol.t[sol.t.length - 1]);
    const y = last(sol);
    return Math.max(...y.map((u, i) => Math.abs(u - Math.sin((Math.PI * (i + 1)) / m) * decay))) / decay;
  };
  result.heat = [];
  for (const n of c.n) {
    const runs = Math.min(RUNS, c.runs?.[n] ?? RUNS);
    const warmup = n >= 20000 ? 1 : 3;
    for (const method of c.methods) {
      const spec = { ...c.spec, method, params: { N: n } };
      // The chunked Integrator: `solve` keeps at least 1,000 points of the trajectory,
      // which 20,000 states exceed; the same steps either way.
      const run = () => {
        const it = new Integrator(spec);
        let chunk;
        do chunk = it.advance(1e6);
        while (!chunk.done);
        const sol = { t: [it.t], y: it.y, dim: n, stats: chunk.stats, warning: chunk.warning };
        it.free();
        return sol;
      };
      const { ms, runs: times, out } = timed(runs, run, warmup);
      result.heat.push({ n, method, ms, runs: times, stats: out.stats, warning: out.warning, err: heatError(out, n) });
    }
    // A new parameter value compiles the text again: D alternates; the setup of a run.
    let flip = 0;
    const compile = timed(Math.min(runs, 5), () => {
      flip ^= 1;
      new Integrator({ system: c.spec.system, params: { N: n, D: 1 + flip * 1e-3 }, method: 'rk4', h: 1e-12, t1: 1e-12 }).free();
    }, 1);
    result.heat.push({ n, method: 'compile', compileMs: compile.ms, runs: compile.runs });
  }
}

// 8. A planar pendulum chain of N rigid bodies (a typed mechanism, the whole engine) under
// ros4 in the state-space and the augmented formulation: N = 10 over the case's t1, and
// the growth from 10 to 40 bodies over growth.t1. The formulations alternate solve by
// solve so both see the same machine load; the minimum of the timed solves is reported
// (each solve is thousands of steps: the first, untimed, lets V8 tier the module up).
if (cases.chainBodies && want('chainBodies')) {
  const c = cases.chainBodies;
  const lastBody = (sol, n) => {
    const end = (name) => sol.outputs[name][sol.outputs[name].length - 1];
    return { x: end(`q:x[${n}]`), y: end(`q:y[${n}]`), drift: end('constraint |Φ|') };
  };
  const runChain = (n, t1, runs) => {
    const specs = c.formulations.map((formulation) => ({
      system: c.system,
      params: { N: n },
      method: c.method,
      t1,
      rtol: c.rtol,
      atol: c.atol,
      formulation,
    }));
    const times = specs.map(() => []);
    const cpu = specs.map(() => []);
    const sols = [];
    for (let i = 0; i < runs; i++) {
      specs.forEach((spec, k) => {
        // The process's CPU time beside the wall clock: on a machine other jobs load, a
        // solve's wall time includes the time it waited for a core.
        const start = performance.now();
        const cpu0 = process.cpuUsage();
        sols[k] = solveWhole(spec);
        const used = process.cpuUsage(cpu0);
        times[k].push(performance.now() - start);
        cpu[k].push((used.user + used.system) / 1000);
      });
    }
    return specs.map((spec, k) => ({
      n,
      t1,
      formulation: spec.formulation,
      ms: Math.min(...times[k]),
      runs: times[k],
      cpuMs: Math.min(...cpu[k]),
      cpuRuns: cpu[k],
      stats: sols[k].stats,
      saddleSolves: sols[k].constraint?.saddleSolves,
      newtonIterations: sols[k].constraint?.newtonIterations,
      ...lastBody(sols[k], n),
    }));
  };
  const runsOf = (n) => Math.min(RUNS, c.runs?.[n] ?? 1);
  // The warm-up: one short solve of each formulation (same code as the timed ones).
  runChain(c.n, c.growth.t1, 1);
  result.chainBodies = [...runChain(c.n, c.t1, runsOf(c.n)), ...c.growth.n.flatMap((n) => runChain(n, c.growth.t1, runsOf(n)))];
}

console.log(JSON.stringify(result));
