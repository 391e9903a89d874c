// A property test of the size guards, events, Integrator.advance and tEval in the
// wasm build itself, where usize has 32 bits: sizes around 2¹⁵, 2¹⁶ and 2³² (the points
// where a product of two of them wraps) drawn from a seeded generator. Every request
// ends in a result or a thrown Error with a message; none aborts the module
// (`RuntimeError: unreachable`), and the module still answers afterwards.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init, { solve, Integrator } from '../../pkg/odelab.js';
import initWhole, * as whole from '../../pkg-labs/odelab_labs.js';

before(async () => {
  await init({ module_or_path: readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url)) });
  await initWhole({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

/** A small deterministic generator (mulberry32), so a failure names its case. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Numbers within a few of 2¹⁵, 2¹⁶ and 2³² (and the 32-bit wrap points of 4·n²). */
const WRAP_POINTS = [2 ** 15, 2 ** 16, 2 ** 32, 32765, 65533];
function nearWrap(rand) {
  const base = WRAP_POINTS[Math.floor(rand() * WRAP_POINTS.length)];
  return base + Math.floor(rand() * 9) - 4;
}

/** Runs `call`; a thrown value must be an Error with a message, never a wasm trap. */
function outcome(call, label) {
  try {
    return { value: call() };
  } catch (e) {
    assert.ok(!(e instanceof globalThis.WebAssembly.RuntimeError), `${label}: aborted the module: ${e}`);
    assert.ok(e instanceof Error && e.message.length > 0, `${label}: ${e}`);
    assert.doesNotMatch(e.message, /unreachable/, label);
    return { error: e };
  }
}

/** Both modules still run a small solve after the request. */
function stillAlive(label) {
  for (const run of [solve, whole.solve]) {
    const sol = run({ model: 'pendulum', method: 'rk4', t1: 1, h: 0.01 });
    assert.equal(sol.t.length, 101, label);
  }
}

const family = (n, extra = '') => `param N = ${n}\nu[i]' = -u[i] for i = 1..N\nu[i](0) = 1 for i = 1..N${extra}`;

test('size guards at 2^15, 2^16 and 2^32 in the wasm build refuse with a message, never abort', () => {
  const rand = generator(20261127);
  for (let k = 0; k < 16; k++) {
    const n = nearWrap(rand);
    const kind = k % 4;
    let spec;
    if (kind === 0) {
      // n states with a Jacobian method: its n × n matrices are checked in u64.
      spec = { system: family(Math.min(n, 70_000)), method: ['radau5', 'ros4', 'bdf2'][k % 3], t1: 1 };
    } else if (kind === 1) {
      // tEval of n times on m states: the product passes 2³² for n, m near 2¹⁶.
      const times = Math.min(n, 1_000_000);
      const m = Math.min(nearWrap(rand), 70_000);
      spec = { system: family(m), method: 'euler', h: 0.5, t1: 1, tEval: Array.from({ length: times }, (_, i) => i / times) };
    } else if (kind === 2) {
      // A grid of n steps and a step budget of n.
      spec = { model: 'pendulum', method: 'rk4', t1: 1, h: 1 / n, maxSteps: n };
    } else {
      // A work budget of n units on a small run.
      spec = { model: 'pendulum', method: 'dp45', t1: 10, maxWork: n };
    }
    const label = `case ${k}: ${JSON.stringify({ ...spec, system: spec.system?.slice(0, 12), tEval: spec.tEval?.length })}`;
    const run = kind === 2 || kind === 3 ? (s) => whole.solve(s) : whole.solve;
    outcome(() => run(spec), label);
    stillAlive(label);
  }
});

test('a family of 2^32 states is refused by the language, not by a wrapped size', () => {
  for (const n of [2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1]) {
    const { error } = outcome(() => whole.solve({ system: family(n), method: 'rk4', h: 0.1, t1: 1 }), `N = ${n}`);
    assert.ok(error, `N = ${n} is refused`);
  }
  stillAlive('2^32 states');
});

test('Integrator.advance at 2^15, 2^16 and 2^32 steps is bounded and never aborts', () => {
  const rand = generator(7);
  for (let k = 0; k < 12; k++) {
    const n = nearWrap(rand);
    for (const Make of [Integrator, whole.Integrator]) {
      const it = new Make({ model: 'pendulum', method: 'rk4', t1: 1, h: 0.01 });
      const { value } = outcome(() => it.advance(n), `advance(${n})`);
      assert.equal(value.t.length, 100, `advance(${n})`);
      assert.equal(value.done, true);
      const again = outcome(() => it.advance(n), `advance(${n}) after the end`);
      assert.equal(again.value.t.length, 0);
      it.free();
    }
  }
  stillAlive('advance');
});

test('a chattering event in the wasm build stops at the event budget and is diagnosed', () => {
  // x' = −1 above 0 and +1 below: once x reaches 0 every step crosses it.
  for (const [extra, method] of [
    [100, 'euler'],
    [500, 'dp45'],
  ]) {
    const spec = {
      system: `param N = ${extra}\nx' = if(x > 0, -1, 1)\nu[i]' = -u[i] for i = 1..N\nx(0) = 0.01\nu[i](0) = 1 for i = 1..N\nevent z: x`,
      method,
      ...(method === 'euler' ? { h: 3e-6 } : {}),
      t1: 1,
      maxSteps: 1e7,
    };
    const sol = whole.solve(spec);
    assert.equal(sol.diagnosis?.code, 'event-chatter', `${method} ${extra}`);
    assert.match(sol.warning, /more events than a run may keep/);
    // Each event keeps its state: within a 32nd of the record's 2²⁴ values.
    assert.ok(sol.events.length * (extra + 3) <= 2 ** 24 / 32, `${sol.events.length} events`);
    // Animate reads the same stop.
    const it = new whole.Integrator(spec);
    let chunk;
    do chunk = it.advance(50_000);
    while (!chunk.done);
    assert.equal(chunk.diagnosis?.code, 'event-chatter');
    it.free();
  }
  stillAlive('chatter');
});
