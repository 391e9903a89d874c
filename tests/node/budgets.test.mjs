// Issue 9: every JS entry point has a budget and refuses non-finite input with a
// message, through the real wasm module; nothing a caller passes can abort the module.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init, { solve, Integrator, describeSystem } from '../../pkg/odelab.js';

before(async () => {
  await init({ module_or_path: readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url)) });
});

test('maxSteps above 10 million is refused with a message', () => {
  assert.throws(() => solve({ model: 'pendulum', method: 'rk4', t1: 1, h: 1e-9, maxSteps: 4e9 }), /maxSteps must be at most 10000000/);
  assert.throws(() => solve({ model: 'pendulum', method: 'rk4', t1: 1, h: 1e-9 }), /step/);
});

test('tEval longer than a million times is refused with a message', () => {
  const tEval = new Array(1_000_001).fill(0.5);
  assert.throws(() => solve({ model: 'pendulum', method: 'dp45', t1: 1, tEval }), /tEval may list at most 1000000/);
});

test('Integrator.advance(2^32 - 1) reserves no memory for steps it will not take', () => {
  const it = new Integrator({ model: 'pendulum', method: 'rk4', t1: 1, h: 0.01 });
  const chunk = it.advance(2 ** 32 - 1);
  assert.equal(chunk.t.length, 100);
  assert.equal(chunk.done, true);
  it.free();
});

test('NaN and infinities in states, parameters, tolerances and times are refused with a message', () => {
  const base = { model: 'pendulum', method: 'dp45', t1: 1 };
  for (const [patch, what] of [
    [{ y0: [NaN, 0] }, /initial value of θ/],
    [{ y0: [Infinity, 0] }, /initial value of θ/],
    [{ params: { g: NaN } }, /parameter g/],
    [{ rtol: NaN }, /rtol/],
    [{ atol: [1e-6, -Infinity] }, /atol\[1\]/],
    [{ t1: Infinity }, /end time/],
    [{ t0: NaN }, /start time/],
    [{ tEval: [NaN] }, /tEval\[0\]/],
  ]) {
    assert.throws(() => solve({ ...base, ...patch }), what, JSON.stringify(patch));
  }
});

test('describeSystem refuses text over the size and nesting budgets with a message', () => {
  assert.throws(() => describeSystem(`x' = ${'1+'.repeat(60_000)}1`), /the text is too large \(more than 100000 bytes\)/);
  assert.throws(() => describeSystem(`x' = ${'('.repeat(100)}1${')'.repeat(100)}`), /nested too deeply \(more than 64 levels\)/);
});
