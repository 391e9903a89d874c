// The diagnosis of a stopped or doubtful run through the real wasm modules: the whole
// engine (pkg-labs/) puts it on the Solution and on Integrator.advance's chunk; the
// first-load package (pkg/) refuses such a run so that the worker re-runs it there.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init, { solve } from '../../pkg/odelab.js';
import initWhole, * as whole from '../../pkg-labs/odelab_labs.js';

before(async () => {
  await init({ module_or_path: readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url)) });
  await initWhole({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

const PARTICLE = { model: 'pendulum-particle', method: 'rk4', h: 0.005, t1: 10 };

test('a blown-up run carries its diagnosis: code, message, advice, t, detail and a fix', () => {
  const sol = whole.solve(PARTICLE);
  const d = sol.diagnosis;
  assert.equal(d.code, 'unstable-step');
  assert.match(d.message, /blew up \(past 1e150 or NaN\) at t = 1\.2/);
  assert.match(d.advice, /h ≤ 0\.004/);
  assert.equal(typeof d.t, 'number');
  assert.match(d.detail, /largest stable h/);
  assert.deepEqual(d.fix, { label: 'Use h ≤ 0.004', h: 0.004 });
  assert.equal(sol.warning, `${d.message} ${d.advice}`);
});

test('the fix cures the run: no diagnosis at h = 0.004', () => {
  const sol = whole.solve({ ...PARTICLE, h: 0.004 });
  assert.equal(sol.diagnosis, undefined);
  assert.equal(sol.warning, undefined);
  assert.equal(sol.t[sol.t.length - 1], 10);
});

test('the codes are a published list', () => {
  const codes = whole.diagnosisCodes();
  for (const c of ['stiff', 'unstable-step', 'newton', 'not-finite', 'solution-blow-up', 'max-steps', 'tolerance-too-tight', 'event-chatter']) {
    assert.ok(codes.includes(c), c);
  }
});

test('the first-load package refuses a stopped run so that the whole engine diagnoses it', () => {
  assert.throws(() => solve(PARTICLE), (e) => e.code === 'not-in-this-build');
  // A run that is fine is answered there as before.
  assert.equal(solve({ ...PARTICLE, h: 0.004 }).warning, undefined);
});

test('Animate (Integrator.advance) reports the same diagnosis as Solve', () => {
  const sol = whole.solve(PARTICLE);
  const it = new whole.Integrator(PARTICLE);
  let chunk;
  do chunk = it.advance(5000);
  while (!chunk.done);
  assert.equal(chunk.warning, sol.warning);
  assert.deepEqual(chunk.diagnosis, sol.diagnosis);
  it.free();
});

test('the convergence lab says why a method has no slope', () => {
  const r = whole.convergence({ model: 'pendulum-particle', methods: ['euler'], t1: 2, nMin: 2, nMax: 4 });
  const g = r.global[0];
  assert.ok(Number.isNaN(g.fit.slope));
  assert.match(g.diagnosis.message, /No slope for euler: of its 3 runs/);
  assert.ok(['unstable-step', 'solution-blow-up'].includes(g.diagnosis.code), g.diagnosis.code);
});

test('a convergence study stops at its work budget, keeps the levels it finished and says so', () => {
  const spec = { model: 'vehicle-stiff', methods: ['radau5', 'rk4'], nMin: 4, nMax: 12, tols: [], localH: [] };
  const full = whole.convergence({ ...spec, methods: ['radau5'] });
  const r = whole.convergence({ ...spec, maxWork: 1e5 });
  const [radau5, rk4] = r.global;
  const done = radau5.h.length;
  assert.ok(done > 0 && done < 9, `${done} levels`);
  assert.equal(radau5.n.length, done);
  assert.deepEqual([...radau5.error], [...full.global[0].error].slice(0, done));
  assert.equal(radau5.diagnosis.code, 'work-budget');
  assert.match(radau5.diagnosis.message, new RegExp(`work budget of 100000 units .* the ${done} larger step sizes of radau5 finished are shown\\.$`));
  assert.equal(rk4.h.length, 0);
  assert.match(rk4.diagnosis.message, /no step size of rk4 finished\.$/);
  assert.throws(() => whole.convergence({ ...spec, maxWork: 0 }), /maxWork/);
});
