// Errors of the built wasm packages are values a program can read: a thrown Error whose
// message is the text a student reads, with a stable `code` per kind of error, the
// `line` and `column` of a mistake in a typed text, and the step (`t`, `h`) a run
// failed at.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init, * as run from '../../pkg/odelab.js';
import initLabs, * as labs from '../../pkg-labs/odelab_labs.js';

before(async () => {
  await init({ module_or_path: readFileSync(new URL('../../pkg/odelab_bg.wasm', import.meta.url)) });
  await initLabs({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

/** What `f` throws. */
function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail('expected a throw');
}

test('a typo in a system throws an Error with code "parse" and the line and column of the typo', () => {
  const text = "param k = 4\nx' = v\nv' = -kk*x\nx(0) = 1, v(0) = 0";
  const e = thrown(() => labs.describeSystem(text));
  assert.ok(e instanceof Error);
  assert.equal(e.code, 'parse');
  assert.equal(e.line, 3);
  assert.equal(e.column, 7);
  // The message is the text the page shows, unchanged: place, reason, snippet.
  assert.equal(e.message, 'line 3, column 7: unknown name "kk"; did you mean "k"?\n  v\' = -kk*x\n        ^^');
  // The same through solve.
  const s = thrown(() => labs.solve({ system: text, method: 'rk4', h: 0.1, t1: 1 }));
  assert.deepEqual([s.code, s.line, s.column], ['parse', 3, 7]);
});

test('columns count characters, not bytes or UTF-16 units', () => {
  const e = thrown(() => labs.describeSystem("param ω = 2\nθ' = -ωω*θ\nθ(0) = 1"));
  assert.deepEqual([e.code, e.line, e.column], ['parse', 2, 7]);
});

test('errors of a spec carry a code per kind and no place', () => {
  const unknown = thrown(() => run.solve({ model: 'pendulum', method: 'rk5x', h: 0.1 }));
  assert.equal(unknown.code, 'unknown-method');
  assert.match(unknown.message, /^unknown method "rk5x"; the methods are /);
  assert.equal(unknown.line, undefined);
  assert.equal(unknown.t, undefined);
  assert.equal(thrown(() => run.solve({ model: 'pendulum', method: 'rk4', h: -1 })).code, 'bad-step-size');
  assert.equal(thrown(() => run.solve({ model: 'pendulum', method: 'rk4', h: 0.1, t1: -1 })).code, 'bad-interval');
  assert.equal(thrown(() => run.solve({ model: 'pendulum', method: 'rk4', h: 0.1, bogus: 1 })).code, 'bad-spec');
  // The run package's refusal keeps its code, which the page's worker reads.
  assert.equal(thrown(() => run.describeSystem("x' = -x\nx(0) = 1")).code, 'not-in-this-build');
});

test('an error of a running step says at which t and with which h', () => {
  // Explicit Euler on a stiff spring (k = 10⁴, h = 0.05: |1 + hλ| ≈ 5 per step) grows
  // past 1e150; Integrator.step() throws the stop.
  const it = new run.Integrator({ model: 'mass-spring-damper', method: 'euler', h: 0.05, t1: 1000, params: { k: 10000 } });
  const e = thrown(() => {
    for (let i = 0; i < 20000; i++) it.step();
  });
  it.free();
  assert.equal(e.code, 'blew-up');
  assert.equal(e.h, 0.05);
  // t is the number the message names, as a number.
  assert.equal(Number(e.message.match(/at t = ([\d.]+)/)[1]), Math.round(e.t * 1e6) / 1e6);
  assert.equal(e.line, undefined);
});
