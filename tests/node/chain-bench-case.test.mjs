// The pendulum-chain case of bench/cases.json (`chainBodies`: the system text the bench
// times in WASM against SciPy) runs in both formulations and gives the chain's answer.
// No timing: a 4-link chain over 1 s, checked against an independent computation.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import initWhole, * as whole from '../../pkg-labs/odelab_labs.js';

before(async () => {
  await initWhole({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

const cases = JSON.parse(readFileSync(new URL('../../bench/cases.json', import.meta.url), 'utf8'));

// The 4-link chain released straight at −45°, rod 4's centre at t = 1: the augmented
// equations written by hand in NumPy (bench/scipy_chain.py: mass matrix, Φ_q, γ, the
// saddle-point solve) under SciPy's DOP853 at rtol 1e-13 and Radau at rtol 1e-12, which
// agree to 1e-14.
const GOLDEN = { x: -1.1327312176759403, y: -1.2832595416701347 };

test('the bench chain case runs in the state-space and augmented formulations and matches an independent solve', () => {
  const c = cases.chainBodies;
  assert.deepEqual(c.formulations, ['state-space', 'augmented']);
  const ends = {};
  for (const formulation of c.formulations) {
    const sol = whole.solve({ system: c.system, params: { N: 4 }, method: c.method, t1: 1, rtol: 1e-9, atol: 1e-11, formulation });
    const end = (name) => sol.outputs[name][sol.outputs[name].length - 1];
    ends[formulation] = { x: end('q:x[4]'), y: end('q:y[4]'), drift: end('constraint |Φ|') };
    assert.ok(Math.abs(ends[formulation].x - GOLDEN.x) < 1e-6, `${formulation}: x4(1) = ${ends[formulation].x}, not ${GOLDEN.x}`);
    assert.ok(Math.abs(ends[formulation].y - GOLDEN.y) < 1e-6, `${formulation}: y4(1) = ${ends[formulation].y}, not ${GOLDEN.y}`);
  }
  // State-space keeps Φ = 0 to round-off; the augmented form drifts, but only by the
  // integration error at this tolerance.
  assert.ok(ends['state-space'].drift < 1e-12, `state-space ‖Φ‖ = ${ends['state-space'].drift}`);
  assert.ok(ends.augmented.drift < 1e-6, `augmented ‖Φ‖ = ${ends.augmented.drift}`);
});
