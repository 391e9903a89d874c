// The rows of bench/cases.json's `chainBodies` (an N-link pendulum chain under ros4 in
// the state-space and augmented formulations in WASM, against SciPy's Radau on the
// augmented equations written in NumPy, in the same run) for bench/report.mjs, which
// adds them to its table. Run alone it prints them from a partial run:
//
//   BENCH_ONLY=chainBodies node bench/wasm_bench.mjs bench/cases.json 3 > bench/out/wasm.json
//   BENCH_ONLY=chainBodies bench/.venv/bin/python bench/scipy_bench.py 1 1 > bench/out/scipy.json
//   node bench/chain_report.mjs bench/out
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ms = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : v >= 100 ? `${v.toFixed(0)} ms` : `${v.toFixed(1)} ms`);
const x = (v) => (v >= 100 ? `${v.toFixed(0)}×` : `${v.toFixed(2)}×`);
const int = (v) => (v === undefined ? '—' : v.toLocaleString('en-US'));
const e = (v) => v.toExponential(1);
// Wall time (the bench's measure) with the process's CPU time when the run recorded it.
const wall = (r) => (r.cpuMs === undefined ? ms(r.ms) : `${ms(r.ms)} (CPU ${ms(r.cpuMs)})`);
const cpuRatio = (a, b) => (a.cpuMs === undefined || b.cpuMs === undefined ? '' : `; CPU ${x(a.cpuMs / b.cpuMs)}`);
const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
const faster = (r) => (r >= 1 ? `${x(r)} faster` : `${x(1 / r)} slower`);
const num = (v) => (v < 1e-3 ? v.toExponential() : String(v));

/** Table rows [benchmark, odelab, baseline, ratio, target, verdict] and detail lines. */
export function chainRows(wasm, scipy, cases) {
  const c = cases.chainBodies;
  const w = wasm?.chainBodies;
  const s = scipy?.chain_bodies;
  if (!c || !w || !s) return { rows: [], details: [] };
  const rows = [];
  const details = [];
  const sci = (n, t1) => s.find((r) => r.n === n && r.t1 === t1);
  const ode = (n, t1, f) => w.find((r) => r.n === n && r.t1 === t1 && r.formulation === f);
  const tol = `${c.method}, rtol ${num(c.rtol)}, atol ${num(c.atol)}`;
  // 1. N bodies over t1, each formulation against Radau on the augmented equations.
  {
    const base = sci(c.n, c.t1);
    const ref = base.reference;
    const side = (r, nfev, steps) => `${wall(r)}, ${int(steps)} steps, ${int(nfev)} f-evals, err ${e(dist(r, ref))}, ‖Φ‖ ${e(r.drift)}`;
    for (const f of c.formulations) {
      const o = ode(c.n, c.t1, f);
      if (!o) continue;
      rows.push([
        `${c.n}-body pendulum chain (${3 * c.n} coordinates, ${2 * c.n} constraints), ${f}, ${tol}, t ∈ [0, ${c.t1}] — WASM vs SciPy Radau on the augmented equations in NumPy`,
        side(o, o.stats.nfev, o.stats.naccept),
        `Radau ${side(base, base.nfev, base.nsteps)}`,
        `${faster(base.ms / o.ms)}${o.cpuMs === undefined || base.cpuMs === undefined ? '' : ` (CPU: ${faster(base.cpuMs / o.cpuMs)})`}`,
        '—',
        '—',
      ]);
    }
    details.push(
      `Pendulum chain, ${c.n} bodies, t = ${c.t1}: last body's centre — ` +
        c.formulations
          .map((f) => ode(c.n, c.t1, f))
          .filter(Boolean)
          .map((o) => `${o.formulation} (${o.x}, ${o.y}), ${dist(o, base).toExponential(1)} from SciPy's`)
          .join('; ') +
        `; SciPy Radau (${base.x}, ${base.y}); reference (${c.reference.method}, rtol ${num(c.reference.rtol)}) (${ref.x}, ${ref.y}), ‖Φ‖ ${e(ref.drift)}. ` +
        `Errors are ‖(x, y) − reference‖ of the last body. Times (wall, and the process's CPU time) are the minimum of ${w.find((r) => r.n === c.n && r.t1 === c.t1).runs.length} (WASM) and ${base.runs.length} (SciPy) solves.`,
    );
  }
  // 2. Growth from the smallest to the largest N over growth.t1.
  {
    const [n0, n1] = [Math.min(...c.growth.n), Math.max(...c.growth.n)];
    const t1 = c.growth.t1;
    for (const f of c.formulations) {
      const [a, b] = [ode(n0, t1, f), ode(n1, t1, f)];
      if (!a || !b) continue;
      rows.push([
        `pendulum chain, ${n1} vs ${n0} bodies, ${f}, ${tol}, t ∈ [0, ${t1}] — WASM`,
        `${n1}: ${wall(b)}, ${int(b.stats.naccept)} steps (${ms(b.ms / b.stats.nsteps)} a step)`,
        `${n0}: ${wall(a)}, ${int(a.stats.naccept)} steps (${ms(a.ms / a.stats.nsteps)} a step)`,
        `${n1}/${n0}: ${x(b.ms / a.ms)} (${x(b.ms / b.stats.nsteps / (a.ms / a.stats.nsteps))} a step${cpuRatio(b, a)})`,
        '—',
        '—',
      ]);
    }
    const [a, b] = [sci(n0, t1), sci(n1, t1)];
    if (a && b) {
      rows.push([
        `pendulum chain, ${n1} vs ${n0} bodies, SciPy Radau on the augmented equations in NumPy, rtol ${num(c.rtol)}, atol ${num(c.atol)}, t ∈ [0, ${t1}]`,
        `${n1}: ${wall(b)}, ${int(b.nsteps)} steps (${ms(b.ms / b.nsteps)} a step), err ${e(dist(b, b.reference))}`,
        `${n0}: ${wall(a)}, ${int(a.nsteps)} steps (${ms(a.ms / a.nsteps)} a step), err ${e(dist(a, a.reference))}`,
        `${n1}/${n0}: ${x(b.ms / a.ms)} (${x(b.ms / b.nsteps / (a.ms / a.nsteps))} a step${cpuRatio(b, a)})`,
        '—',
        '—',
      ]);
      for (const n of [n0, n1]) {
        const ref = sci(n, t1).reference;
        const line = c.formulations
          .map((f) => ode(n, t1, f))
          .filter(Boolean)
          .map((o) => `${o.formulation} ${ms(o.ms)}, err ${e(dist(o, ref))}, ‖Φ‖ ${e(o.drift)}`)
          .join('; ');
        const r = sci(n, t1);
        details.push(`Pendulum chain, ${n} bodies, t ∈ [0, ${t1}]: ${line}; SciPy Radau ${ms(r.ms)}, err ${e(dist(r, ref))}, ‖Φ‖ ${e(r.drift)}, ${int(r.nfev)} f-evals, ${int(r.nlu)} LUs.`);
      }
    }
  }
  return { rows, details };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'bench/out';
  const read = (name) => (existsSync(`${dir}/${name}.json`) ? JSON.parse(readFileSync(`${dir}/${name}.json`, 'utf8')) : null);
  const cases = JSON.parse(readFileSync(process.env.BENCH_CASES ?? 'bench/cases.json', 'utf8'));
  const { rows, details } = chainRows(read('wasm'), read('scipy'), cases);
  const header = ['benchmark', 'odelab', 'baseline (same run)', 'ratio', 'target', ''];
  console.log([`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n'));
  console.log(`\n${details.map((d) => `- ${d}`).join('\n')}`);
}
