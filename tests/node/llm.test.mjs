// The Local Linearization Method in the built whole engine (pkg-labs/, where the page's
// worker runs typed systems): the same stiff cases as tests/method/llm_stiff.rs and the
// exactness on y' = λy of tests/method/llm.rs, typed as systems and solved through the
// JS API, so what a page gets is what Rust tests pin.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init, { solve } from '../../pkg-labs/odelab_labs.js';

before(async () => {
  await init({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

const last = (sol) => Array.from(sol.y.subarray(sol.y.length - sol.dim));
const digits = (y, ref) => -Math.log10(Math.max(...y.map((v, i) => Math.abs((v - ref[i]) / ref[i]))));

const ROBERTSON = `y1' = -0.04*y1 + 1e4*y2*y3
y2' = 0.04*y1 - 1e4*y2*y3 - 3e7*y2^2
y3' = 3e7*y2^2
y1(0) = 1, y2(0) = 0, y3(0) = 0`;

test('llm gains digits on typed Robertson to t = 1e11 as rtol tightens', () => {
  // ros4 at rtol 1e-12, atol 1e-24 (as in tests/method/llm_stiff.rs).
  const ref = [2.083340149799588e-8, 8.333360770728343e-14, 0.9999999791664551];
  const d = [1e-6, 1e-8].map((rtol) => {
    const sol = solve({ system: ROBERTSON, method: 'llm', t1: 1e11, rtol, atol: rtol * 1e-6, maxSteps: 1e6 });
    assert.equal(sol.warning ?? null, null);
    return digits(last(sol), ref);
  });
  assert.ok(d[1] > d[0] && d[1] >= 5, `digits ${d}`);
});

test('llm crosses the Van der Pol fold at ε = 1e-6 (test-set scaling) within 1e6 steps', () => {
  const vdp = "y1' = y2\ny2' = ((1 - y1^2)*y2 - y1)/1e-6\ny1(0) = 2, y2(0) = 0";
  const sol = solve({ system: vdp, method: 'llm', t1: 2, rtol: 1e-8, atol: 1e-8, maxSteps: 1e6 });
  assert.equal(sol.t[sol.t.length - 1], 2);
  assert.ok(sol.stats.nsteps < 1e6, `${sol.stats.nsteps} steps`);
  assert.ok(digits(last(sol), [1.706167732170483, -0.8928097010247975]) >= 4.5);
});

test('llm is exact on y\' = λy (|hλ| ≤ 100) and on the rotation, relative to |y0|', () => {
  for (const hl of [-100, -10, -1, 0.5]) {
    const sol = solve({ system: `y' = ${hl}*y\ny(0) = 1`, method: 'llm', t1: 1, h: 1, adaptive: false });
    assert.ok(Math.abs(last(sol)[0] - Math.exp(hl)) <= 1e-12, `hλ = ${hl}`);
  }
  const rot = solve({ system: "x' = -3*x - 40*v\nv' = 40*x - 3*v\nx(0) = 1, v(0) = 0", method: 'llm', t1: 2.5, h: 2.5, adaptive: false });
  const [x, v] = last(rot);
  const mag = Math.exp(-7.5);
  assert.ok(Math.hypot(x - mag * Math.cos(100), v - mag * Math.sin(100)) <= 1e-12);
});
