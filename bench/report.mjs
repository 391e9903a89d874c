// Turns the JSON that scripts/bench.sh collected in bench/out/ into the tables of
// BENCHMARKS.md and README.md (between their `bench:begin` / `bench:end` markers; the
// hand-written analysis around them is kept) and prints the summary table.
//
//   node bench/report.mjs bench/out
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { cpus } from 'node:os';

const dir = process.argv[2] ?? 'bench/out';
const read = (name) => {
  const path = `${dir}/${name}.json`;
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
};
const wasm = read('wasm');
const native = read('native');
const scipy = read('scipy');
const plot = read('first-plot');
const cases = JSON.parse(readFileSync('bench/cases.json', 'utf8'));

const ms = (v) => (v === undefined || v === null ? '—' : v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);
const x = (v) => (v >= 100 ? `${v.toFixed(0)}×` : `${v.toFixed(2)}×`);
const int = (v) => (v === undefined ? '—' : v.toLocaleString('en-US'));
const kb = (b) => `${(b / 1000).toFixed(1)} KB (${int(b)} B)`;
const verdict = (ok) => (ok ? '✅ met' : '❌ missed');

const rows = []; // [benchmark, measured, baseline, ratio, target, verdict]

// 1. dp45 vs SciPy RK45.
if (wasm && scipy) {
  const r = scipy.rk45_pendulum.ms / wasm.dp45Pendulum.ms;
  rows.push([
    'dp45, pendulum, t ∈ [0, 100], rtol 1e-8, atol 1e-10 — WASM (Node) vs SciPy RK45',
    `${ms(wasm.dp45Pendulum.ms)}, ${int(wasm.dp45Pendulum.stats.nfev)} f-evals`,
    `${ms(scipy.rk45_pendulum.ms)}, ${int(scipy.rk45_pendulum.nfev)} f-evals`,
    `${x(r)} faster`,
    '≥ 250× faster',
    verdict(r >= 250),
  ]);
}
// 2. Stiff methods vs SciPy Radau and BDF.
for (const id of cases.stiff.methods) {
  const w = wasm?.stiff?.[id];
  if (!w || w.pending) {
    rows.push([`${id}, Van der Pol μ = 1000, t ∈ [0, 3000], rtol 1e-6, atol 1e-8 vs SciPy Radau / BDF`, 'pending: not in methods() yet', scipy ? `Radau ${ms(scipy.radau_vdp.ms)} (err ${scipy.radau_vdp.err.toExponential(1)}), BDF ${ms(scipy.bdf_vdp.ms)} (err ${scipy.bdf_vdp.err.toExponential(1)})` : '—', '—', '≥ 300× faster', 'pending']);
    continue;
  }
  if (w.error) {
    rows.push([`${id}, Van der Pol μ = 1000`, `error: ${w.error}`, '—', '—', '≥ 300× faster', '❌ failed']);
    continue;
  }
  const r = scipy ? Math.min(scipy.radau_vdp.ms, scipy.bdf_vdp.ms) / w.ms : NaN;
  rows.push([
    `${id}, Van der Pol μ = 1000, t ∈ [0, 3000], rtol 1e-6, atol 1e-8 — WASM vs faster of SciPy Radau / BDF`,
    `${ms(w.ms)}, ${int(w.stats.nfev)} f-evals, err ${w.err.toExponential(1)}`,
    scipy ? `Radau ${ms(scipy.radau_vdp.ms)} (err ${scipy.radau_vdp.err.toExponential(1)}), BDF ${ms(scipy.bdf_vdp.ms)} (err ${scipy.bdf_vdp.err.toExponential(1)})` : '—',
    `${x(r)} faster`,
    '≥ 300× faster',
    verdict(r >= 300),
  ]);
}
// 3. Native vs WASM.
if (wasm && native) {
  const r = wasm.dp45Pendulum.ms / native.dp45Pendulum.ms;
  rows.push(['dp45 pendulum case — WASM (Node) vs the same core native (release)', ms(wasm.dp45Pendulum.ms), ms(native.dp45Pendulum.ms), `WASM ${x(r)} native`, '≤ 1.5×', verdict(r <= 1.5)]);
  for (const id of cases.stiff.methods) {
    const w = wasm.stiff?.[id];
    const n = native.stiff?.[id];
    if (w?.ms && n?.ms) rows.push([`${id} Van der Pol case — WASM vs native`, ms(w.ms), ms(n.ms), `WASM ${x(w.ms / n.ms)} native`, '≤ 1.5×', verdict(w.ms / n.ms <= 1.5)]);
  }
}
// 4. Stability maps, one row per method.
for (const id of cases.stabilityMap.methods) {
  const w = wasm?.stabilityMap?.[id];
  const n = native?.stabilityMap?.[id];
  if (!w?.ms) continue;
  rows.push([
    `${cases.stabilityMap.n}² stability map, ${id} — WASM`,
    ms(w.ms),
    n ? `native ${ms(n.ms)}` : '—',
    n ? `WASM ${x(w.ms / n.ms)} native` : '—',
    '≤ 16 ms',
    verdict(w.ms <= 16),
  ]);
}
// 5. Sweep.
if (wasm) {
  const n = native?.sweep;
  rows.push([
    `convergence sweep, ${cases.sweep.methods.length} methods × ${cases.sweep.h.length} step sizes, pendulum, T = ${cases.sweep.t1} — WASM`,
    `${ms(wasm.sweep.ms)}, ${int(wasm.sweep.nfev)} f-evals`,
    n ? `native ${ms(n.ms)}` : '—',
    n ? `WASM ${x(wasm.sweep.ms / n.ms)} native` : '—',
    '≤ 100 ms',
    verdict(wasm.sweep.ms <= 100),
  ]);
}
// 5b. A 200-state chain under ros4 (sparse path).
if (wasm?.chain200) {
  const c = wasm.chain200;
  rows.push([
    `${c.dim}-state chain (heat equation), ros4, rtol 1e-8 — WASM`,
    `${ms(c.ms)}, ${int(c.stats.naccept)} steps, ${int(c.stats.nlu)} sparse LUs`,
    '—',
    '—',
    '≤ 1 s',
    verdict(c.ms <= 1000),
  ]);
}
// 6. Size and first plot.
{
  const bytes = readFileSync('pkg/odelab_bg.wasm');
  const gz = gzipSync(bytes, { level: 9 }).length;
  rows.push(['odelab_bg.wasm size, raw', kb(bytes.length), '—', '—', '≤ 400 KB', verdict(bytes.length <= 400 * 1000)]);
  rows.push(['odelab_bg.wasm size, gzip -9', kb(gz), '—', '—', '≤ 150 KB', verdict(gz <= 150 * 1000)]);
}
if (plot) {
  rows.push([
    'time to first plot, built site, headless Chromium (navigation → trajectory drawn)',
    `${ms(plot.plotMs)} (data-ready ${ms(plot.readyMs)})`,
    '—',
    '—',
    '≤ 1.5 s',
    verdict(plot.plotMs <= 1500),
  ]);
}

const header = ['benchmark', 'odelab', 'baseline (same run)', 'ratio', 'target', ''];
const table = [
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');

const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const env = [
  `Measured ${when} on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`,
  wasm ? `Node ${wasm.node}` : null,
  scipy ? `Python ${scipy.python}, SciPy ${scipy.scipy}, NumPy ${scipy.numpy}` : null,
  wasm ? `median of ${wasm.runs} runs (WASM, native) after warm-up` : null,
  scipy ? `SciPy: median of ${scipy.rk45_pendulum.runs.length} (RK45) and ${scipy.radau_vdp.runs.length} (Radau, BDF) runs` : null,
  plot ? `first plot: median of ${plot.runs.length} cold page loads` : null,
]
  .filter(Boolean)
  .join('; ');

const details = [];
if (wasm && native && scipy) {
  details.push(
    `dp45 pendulum: WASM ${int(wasm.dp45Pendulum.stats.nfev)} f-evals (${int(wasm.dp45Pendulum.stats.naccept)} accepted, ${int(wasm.dp45Pendulum.stats.nreject)} rejected steps), first call before V8's tier-up ${ms(wasm.dp45Pendulum.firstMs)}; ` +
      `native ${int(native.dp45Pendulum.stats.nfev)} f-evals; SciPy RK45 ${int(scipy.rk45_pendulum.nfev)} f-evals, ${int(scipy.rk45_pendulum.nsteps)} steps. ` +
      `y(100): WASM (${wasm.dp45Pendulum.yEnd.join(', ')}), native (${native.dp45Pendulum.yEnd.join(', ')}), SciPy (${scipy.rk45_pendulum.y_end.join(', ')}).`,
  );
  details.push(
    `SciPy on Van der Pol (given the analytic Jacobian, as the Rust model has one): Radau ${ms(scipy.radau_vdp.ms)}, ${int(scipy.radau_vdp.nfev)} f-evals, ${int(scipy.radau_vdp.nlu)} LUs, error at t = 3000 ${scipy.radau_vdp.err.toExponential(2)}; ` +
      `BDF ${ms(scipy.bdf_vdp.ms)}, ${int(scipy.bdf_vdp.nfev)} f-evals, ${int(scipy.bdf_vdp.nlu)} LUs, error ${scipy.bdf_vdp.err.toExponential(2)}.`,
  );
  details.push(`Convergence sweep: ${wasm.sweep.solves} solves, ${int(wasm.sweep.nfev)} f-evals in all; native ${ms(native.sweep.ms)}.`);
}
details.push(
  "The issue's reference numbers (measured on other machines, for scale): SciPy RK45 ≈ 340 ms per solve, 21,626 f-evals; Hairer's DOPRI5 (gfortran -O2) ≈ 1.25 ms, 22,298 f-evals; SciPy Radau on Van der Pol ≈ 710 ms; RODAS and RADAU5 ≈ 1.0 ms.",
);
if (plot) details.push(`First plot, each cold load (ms since navigation, ready / plot): ${plot.runs.map((r) => `${r.ready.toFixed(0)} / ${r.plot.toFixed(0)}`).join(', ')}.`);

const generated = [`<!-- bench:begin (written by bench/report.mjs; do not edit by hand) -->`, '', env + '.', '', table, '', ...details.map((d) => `- ${d}`), '', '<!-- bench:end -->'].join('\n');

function splice(path, block, fallback) {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : fallback;
  const re = /<!-- bench:begin[\s\S]*?<!-- bench:end -->/;
  writeFileSync(path, re.test(text) ? text.replace(re, block) : `${text.trimEnd()}\n\n${block}\n`);
}
splice('BENCHMARKS.md', generated, '# Benchmarks\n');
const summary = [`<!-- bench:begin (written by bench/report.mjs; do not edit by hand) -->`, '', env + '.', '', table, '', '<!-- bench:end -->'].join('\n');
splice('README.md', summary, readFileSync('README.md', 'utf8'));
console.log(`\n${env}\n\n${table}\n`);
