// The WASM half of `npm run bench` : the cases of bench/cases.json through
// pkg/ (and the stability maps through pkg-labs/) in Node: each case warms up until it is
// at steady state (`settle`), then N solves are timed (median and minimum; the report
// uses the minimum). Prints one JSON object.
// A case the run package leaves out (a user system, slowfast: code "not-in-this-build")
// runs in the whole engine, pkg-labs/, as the page's worker runs it.
//
//   node bench/wasm_bench.mjs bench/cases.json RUNS
//   BENCH_ONLY=chainBodies node bench/wasm_bench.mjs bench/cases.json 3   # one case
//   BENCH_ONLY=stiff,pairs,workPrecision node bench/wasm_bench.mjs …   (some sections only)
import { readFileSync } from 'node:fs';
import init, { methods, solve as solveFirst } from '../pkg/odelab.js';
import initLabs, { stabilityMap, solve as solveWhole, Integrator } from '../pkg-labs/odelab_labs.js';
import { errorOf } from './work_precision.mjs';

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
// Every row is timed at steady state, with a warm-up chosen per case (`settle`): V8 runs
// a wasm function in its baseline tier first and swaps optimised code in later, and
// after that a case still runs ~8 % slower until it has done a certain amount of work
// (measured in Node 20, minima per 50 solves on a loaded machine: dp45 on the pendulum
// 0.95 → 0.87 ms after ~150 solves, ros4 on Van der Pol 0.78 → 0.73 after ~250, RODAS
// 0.51 → 0.48 after ~250, radau5 0.48 → 0.38 after ~100; the heat equation at
// N = 200, 2.2 ms a solve, within its first 5 solves). The step comes after roughly
// 100–200 ms of a case's solves, not after a fixed count, so the warm-up is measured in
// time: batches of at least BATCH_MS (and at least 3 solves), until the fastest solve of
// a batch has failed to beat the best before it by more than 1 % for QUIET batches in
// a row, or the case's budget (WARM_MAX_MS, WARM_MAX_SOLVES) is spent. Each row
// reports how many warm-up solves it took and whether it settled. The old rule (400
// solves for the small cases, 2–5 for the rest) is what this replaces.
const BATCH_MS = 50;
const QUIET = 4;
const WARM_MAX_MS = Number(process.env.BENCH_WARM_MAX_MS ?? 6000);
const WARM_MAX_SOLVES = 4000;
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
// The sections to run (all unless BENCH_ONLY lists some: dp45Pendulum, stiff, sweep, chainBodies,
// stabilityMap, pairs, matched, chain200, heat, workPrecision).
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const want = (section) => !only || only.has(section);
await init({ module_or_path: readFileSync(new URL('../pkg/odelab_bg.wasm', import.meta.url)) });
await initLabs({ module_or_path: readFileSync(new URL('../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

// One call of f: [CPU time of this process in ms, f's result, wall time in ms]. The CPU
// time is what the rows report: on a machine loaded by other jobs a solve waits for a
// core, which adds wall time but not CPU time (measured at a load average of 12 on 2
// cores: SciPy's RK45 case 490–950 ms of wall time for 152–155 ms of CPU; a 0.5 ms
// odelab solve 0.484 ms either way, the two clocks agreeing where nothing waits). The
// CPU time is the process's, V8's helper threads included (concurrent GC of a solve's
// result arrays can add more than the solve: dp45 1.58 ms of CPU for 0.86 ms of wall),
// so the report takes the smaller of the two minimums.
function once(f) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const out = f();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return [(used.user + used.system) / 1000, out, wall];
}

// The warm-up of one case (see BATCH_MS): returns how many solves it took, how long,
// and whether the minimum stopped improving inside the budget.
function settle(f, maxMs = WARM_MAX_MS) {
  const begin = performance.now();
  // A solve's time as the report takes it: the smaller of its CPU and wall times.
  const time = () => {
    const [cpu, , wall] = once(f);
    return Math.min(cpu, wall);
  };
  let best = time();
  let solves = 1;
  let quiet = 0;
  while (quiet < QUIET && solves < WARM_MAX_SOLVES && performance.now() - begin < maxMs) {
    // Sized by the fastest solve so far (the first one runs in V8's baseline tier).
    const batch = Math.max(3, Math.ceil(BATCH_MS / Math.max(best, 1e-3)));
    let fastest = Infinity;
    for (let i = 0; i < batch; i++) fastest = Math.min(fastest, time());
    solves += batch;
    quiet = fastest < 0.99 * best ? 0 : quiet + 1;
    best = Math.min(best, fastest);
  }
  return { solves, ms: performance.now() - begin, settled: quiet >= QUIET, best };
}

// `runs` timed solves after the case's own warm-up: CPU times (`runs`, their median and
// minimum; the report uses the minimum) and wall times (`wall`).
function timed(runs, f, maxWarmMs = WARM_MAX_MS) {
  const warmup = maxWarmMs > 0 ? settle(f, maxWarmMs) : { solves: 0, ms: 0, settled: false };
  let out;
  const times = [];
  const wall = [];
  for (let i = 0; i < runs; i++) {
    const [t, o, w] = once(f);
    out = o;
    times.push(t);
    wall.push(w);
  }
  return { ms: median(times), min: Math.min(...times), runs: times, wall, out, warmup };
}

const last = (sol) => Array.from(sol.y.subarray(sol.y.length - sol.dim));
const result = { runs: RUNS, node: process.version };

// 1. dp45 on the pendulum. The first call is also timed alone: it runs before V8 has
//    optimised the module (what a page sees on its first solve).
if (want('dp45Pendulum')) {
  const spec = cases.dp45Pendulum;
  const first = timed(1, () => solve(spec), 0);
  const { ms, min, runs, wall, out, warmup } = timed(RUNS, () => solve(spec));
  result.dp45Pendulum = { ms, min, runs, wall, warmup, firstMs: first.wall[0], stats: out.stats, yEnd: last(out) };
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
      const { ms, min, runs, wall, out, warmup } = timed(RUNS, () => solve(spec));
      const y = last(out);
      const err = Math.max(...y.map((v, i) => Math.abs(v - reference[i])));
      result.stiff[id] = { ms, min, runs, wall, warmup, stats: out.stats, yEnd: y, err, warning: out.warning };
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
  const { ms: med, min, runs, wall, out, warmup } = timed(RUNS, () => specs.reduce((n, s) => n + solve(s).stats.nfev, 0));
  result.sweep = { ms: med, min, runs, wall, warmup, solves: specs.length, nfev: out };
}

// 4. Stability maps: `stabilityMap` on an n × n grid for each method of the case.
if (want('stabilityMap')) {
  const { methods: ids, n, re, im } = cases.stabilityMap;
  result.stabilityMap = {};
  for (const id of ids) {
    const spec = { method: id, re, im, nx: n, ny: n };
    const { ms, min, runs, wall, out, warmup } = timed(Math.min(RUNS, 15), () => stabilityMap(spec));
    result.stabilityMap[id] = { ms, min, runs, wall, warmup, stableCells: out.filter((v) => v <= 1).length };
  }
  const asym = cases.stabilityMap.asymmetric;
  result.stabilityMapAsymmetric = {};
  for (const id of ids) {
    const spec = { method: id, re: asym.re, im: asym.im, nx: n, ny: n };
    const { ms, min, runs, wall, out, warmup } = timed(Math.min(RUNS, 15), () => stabilityMap(spec));
    result.stabilityMapAsymmetric[id] = { ms, min, runs, wall, warmup, stableCells: out.filter((v) => v <= 1).length };
  }
}

// 5. Pairs: a method against a baseline in the same run, both timed, each end point
//    compared with an untimed tight reference.
if (want('pairs')) {
  result.pairs = cases.pairs.cases.map((c) => {
    const reference = last(solve(c.reference));
    const components = c.components ?? reference.map((_, i) => i);
    // Run and baseline alternate call by call, so both see the same machine load; the
    // pair settles as one case.
    const specs = [c.run, c.baseline];
    const sols = [];
    const warmup = settle(() => specs.forEach((spec, k) => (sols[k] = solve(spec))));
    const times = [[], []];
    const wall = [[], []];
    for (let i = 0; i < Math.min(RUNS, 11); i++) {
      specs.forEach((spec, k) => {
        const [t, sol, w] = once(() => solve(spec));
        sols[k] = sol;
        times[k].push(t);
        wall[k].push(w);
      });
    }
    const side = (k) => {
      const y = last(sols[k]);
      const err = Math.max(...components.map((i) => Math.abs(y[i] - reference[i])));
      return { ms: median(times[k]), min: Math.min(...times[k]), runs: times[k], wall: wall[k], warmup, stats: sols[k].stats, err };
    };
    return { name: c.name, run: side(0), baseline: side(1) };
  });
}

// 5b. Matched accuracy: the run's tolerance chosen so that it is at least as accurate as
// the baseline (cases.json `matched`), then both timed alternately.
if (cases.matched && want('matched')) {
  result.matched = cases.matched.cases.map((c) => {
    const reference = last(solve(c.reference));
    const err = (sol) => Math.max(...last(sol).map((v, i) => Math.abs(v - reference[i])));
    const target = err(solve(c.baseline));
    const ratio = c.baseline.atol / c.baseline.rtol;
    const grid = Array.from({ length: 17 }, (_, k) => c.baseline.rtol * 10 ** (k / 8));
    // From the tightest grid point up: stop at the first that misses the target.
    let chosen = null;
    const tried = [];
    for (const rtol of grid) {
      const e = err(solve({ ...c.run, rtol, atol: rtol * ratio }));
      tried.push({ rtol, err: e });
      if (e > target) break;
      chosen = rtol;
    }
    if (chosen === null) return { name: c.name, target, tried, error: 'the run misses the target at the baseline tolerance' };
    const specs = [{ ...c.run, rtol: chosen, atol: chosen * ratio }, c.baseline];
    const sols = [];
    const warmup = settle(() => specs.forEach((spec, k) => (sols[k] = solve(spec))));
    const times = [[], []];
    const wall = [[], []];
    for (let i = 0; i < RUNS; i++) {
      specs.forEach((spec, k) => {
        const [t, sol, w] = once(() => solve(spec));
        sols[k] = sol;
        times[k].push(t);
        wall[k].push(w);
      });
    }
    const side = (k) => ({ spec: specs[k], ms: median(times[k]), min: Math.min(...times[k]), runs: times[k], wall: wall[k], warmup, stats: sols[k].stats, err: err(sols[k]) });
    return { name: c.name, target, tried, run: side(0), baseline: side(1) };
  });
}

// 6. A 200-state user system (sparse Jacobian and LU), when the case is present.
if (cases.chain200 && want('chain200')) {
  const { ms, min, runs, wall, out, warmup } = timed(Math.min(RUNS, 7), () => solve(cases.chain200.spec));
  result.chain200 = { ms, min, runs, wall, warmup, stats: out.stats, dim: out.dim };
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
  // The chunked Integrator: `solve` keeps at least 1,000 points of the trajectory,
  // which 20,000 states exceed; the same steps either way.
  const runOf = (n, method) => {
    const spec = { ...c.spec, method, params: { N: n } };
    return () => {
      const it = new Integrator(spec);
      let chunk;
      do chunk = it.advance(1e6);
      while (!chunk.done);
      const sol = { t: [it.t], y: it.y, dim: n, stats: chunk.stats, warning: chunk.warning };
      it.free();
      return sol;
    };
  };
  // The sizes below 20,000 of one method are timed in alternation (a timed solve of
  // each per round, after each has settled), so that the ratio N = 2,000 / N = 200
  // compares solves made at the same load: timed one size after the other, a loaded
  // machine gave that ratio anywhere from 5.7× to 15.9× for the same build. N sizes the
  // text, so a change of size compiles it again (the thread keeps one compiled system,
  // and one band plan): each size's timed solves follow an untimed one of its size. A
  // round gives each size about the same time (N = 200 thirty solves to N = 2,000's three),
  // so that the garbage the bigger solves leave is not all collected during the
  // smaller's one solve.
  const small = c.n.filter((n) => n < 20000);
  for (const method of c.methods) {
    const runs = RUNS;
    const fs = small.map((n) => runOf(n, method));
    const reps = small.map((n) => 3 * Math.max(1, Math.round(Math.max(...small) / n)));
    const warmups = fs.map((f) => settle(f));
    const rows = small.map((n, k) => ({ n, method, runs: [], wall: [], warmup: warmups[k], interleaved: true }));
    for (let i = 0; i < runs; i++) {
      fs.forEach((f, k) => {
        f();
        for (let r = 0; r < reps[k]; r++) {
          const [t, out, w] = once(f);
          rows[k].runs.push(t);
          rows[k].wall.push(w);
          rows[k].out = out;
        }
      });
    }
    for (const [k, row] of rows.entries()) {
      const { out, ...rest } = row;
      result.heat.push({ ...rest, ms: median(row.runs), min: Math.min(...row.runs), stats: out.stats, warning: out.warning, err: heatError(out, small[k]) });
    }
  }
  for (const n of c.n) {
    const runs = Math.min(RUNS, c.runs?.[n] ?? RUNS);
    // N = 20,000 (seconds a solve): one warm-up solve; the others settle (BATCH_MS).
    const warmMs = n >= 20000 ? 1 : WARM_MAX_MS;
    if (n >= 20000) {
      for (const method of c.methods) {
        const { ms, min, runs: times, wall, out, warmup } = timed(runs, runOf(n, method), warmMs);
        result.heat.push({ n, method, ms, min, runs: times, wall, warmup, stats: out.stats, warning: out.warning, err: heatError(out, n) });
      }
    }
    // A new parameter value compiles the text again: D alternates; the setup of a run.
    let flip = 0;
    const compile = timed(Math.min(runs, 5), () => {
      flip ^= 1;
      new Integrator({ system: c.spec.system, params: { N: n, D: 1 + flip * 1e-3 }, method: 'rk4', h: 1e-12, t1: 1e-12 }).free();
    }, warmMs);
    result.heat.push({ n, method: 'compile', compileMs: compile.ms, min: compile.min, runs: compile.runs, wall: compile.wall, warmup: compile.warmup });
  }
}

// 8. Work-precision curves: each stiff method at each tolerance of the sweep, its time
// at steady state and its error against the problem's reference (bench/work_precision.mjs).
if (cases.workPrecision && want('workPrecision')) {
  const wp = cases.workPrecision;
  const ids = new Set(methods().map((m) => m.id));
  result.workPrecision = { rtol: wp.rtol, problems: [] };
  for (const p of wp.problems) {
    const reference = p.reference?.values ?? (p.reference?.solve ? last(solve(p.reference.solve)) : null);
    const curves = {};
    for (const method of wp.methods.filter((id) => ids.has(id))) {
      curves[method] = wp.rtol.map((rtol) => {
        const spec = { ...p.spec, method, rtol, atol: rtol * p.atolPerRtol };
        try {
          // A point settles for at most 1.5 s (the sweep has ~100 of them, and the
          // module is warm from the points before), then is timed for ~0.4 s: at least
          // `runs` solves, at most 41.
          const run = () => solve(spec);
          const warmup = settle(run, 1500);
          const n = Math.max(wp.runs, Math.min(41, Math.round(400 / Math.max(warmup.best, 1e-3))));
          const { min, ms, runs, wall, out } = timed(n, run, 0);
          const y = last(out);
          const err = errorOf(p, y, out.t[out.t.length - 1], reference);
          const { nsteps, naccept, nreject, nfev, nlu } = out.stats;
          return { rtol, ms: min, median: ms, runs, wall, warmup: warmup.solves, settled: warmup.settled, err, stats: { nsteps, naccept, nreject, nfev, nlu } };
        } catch (e) {
          return { rtol, error: String(e.message ?? e) };
        }
      });
    }
    result.workPrecision.problems.push({ id: p.id, reference, curves });
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
