// Big typed systems in the whole engine (pkg-labs/, the package the page's worker runs a
// typed system in): the heat equation at 20,000 states under the stiff methods that
// factor a band completes, and its answer is the semi-discrete exact solution's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import initWhole, * as whole from '../../pkg-labs/odelab_labs.js';

before(async () => {
  await initWhole({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

const HEAT =
  "param N = 200, D = 1\nu[i]' = D*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1]) for i = 1..N\n" +
  'u[0] = 0\nu[N+1] = 0\nu[i](0) = sin(pi*i/(N+1)) for i = 1..N';

/** Largest |u_i(t1) − sin(πi/(N+1)) e^{λ₁t1}| relative to e^{λ₁t1}. */
function heatError(sol, n) {
  const m = n + 1;
  const s = Math.sin(Math.PI / (2 * m));
  const decay = Math.exp(-4 * m * m * s * s * sol.t[sol.t.length - 1]);
  const y = sol.y.subarray(sol.y.length - sol.dim);
  let worst = 0;
  for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(y[i] - Math.sin((Math.PI * (i + 1)) / m) * decay));
  return worst / decay;
}

// Run as the chunked Integrator (what the worker's scripts and Animate step through):
// `solve` keeps at least 1,000 points of the trajectory, which 20,000 states exceed.
test('the heat equation on 20,000 states runs under radau5 and ros4 with the exact answer', () => {
  const n = 20000;
  for (const method of ['radau5', 'ros4']) {
    const it = new whole.Integrator({ system: HEAT, params: { N: n }, method, t1: 0.05, rtol: 1e-8, atol: 1e-10 });
    let chunk;
    do chunk = it.advance(1000);
    while (!chunk.done);
    assert.equal(chunk.warning, undefined, method);
    const sol = { t: [it.t], y: it.y, dim: n };
    assert.equal(it.t, 0.05, method);
    const err = heatError(sol, n);
    assert.ok(err < 1e-6, `${method}: error ${err}`);
    it.free();
  }
});

test('on 4,000 sparse states ros4 and llm (its Krylov path) run, and a dense Jacobian is refused by its size', () => {
  const chain = "param N = 4000\nu[1]' = -u[1]\nu[i]' = -u[i] + 0.5*u[i-1] for i = 2..N\nu[i](0) = 1 for i = 1..N";
  for (const spec of [{ method: 'ros4' }, { method: 'llm', h: 0.01 }]) {
    const sol = whole.solve({ system: chain, t1: 0.1, ...spec });
    // u1 = e^{-t} exactly.
    assert.ok(Math.abs(sol.y[(sol.t.length - 1) * 4000] - Math.exp(-0.1)) < 1e-5, spec.method);
  }
  assert.throws(
    () => whole.solve({ system: chain, method: 'ros4', jacobian: 'fd', h: 0.01, t1: 0.1 }),
    /method "ros4" on 4000 states \(its 4000 × 4000 Jacobian/,
  );
});
