// The work-precision arithmetic of the bench (bench/work_precision.mjs): the errors it
// measures and the time it reads off a curve for a given error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, timeAtError } from '../../bench/work_precision.mjs';

test('the heat equation error of the semi-discrete exact solution is zero', () => {
  const n = 9;
  const t1 = 0.05;
  const m = n + 1;
  const lambda = -4 * m * m * Math.sin(Math.PI / (2 * m)) ** 2;
  const exact = Array.from({ length: n }, (_, i) => Math.sin((Math.PI * (i + 1)) / m) * Math.exp(lambda * t1));
  assert.ok(errorOf({ error: 'heat', n }, exact, t1, null) < 1e-14);
  // An error of 1e-3 of the amplitude in one component reads as 1e-3.
  exact[4] += 1e-3 * Math.exp(lambda * t1);
  assert.ok(Math.abs(errorOf({ error: 'heat', n }, exact, t1, null) - 1e-3) < 1e-12);
});

test('max-rel divides each component by its reference, max-abs does not', () => {
  const ref = [1e-3, 2];
  const y = [1.1e-3, 2.1];
  assert.ok(Math.abs(errorOf({ error: 'max-rel' }, y, 1, ref) - 0.1) < 1e-12);
  assert.ok(Math.abs(errorOf({ error: 'max-abs' }, y, 1, ref) - 0.1) < 1e-12);
  assert.ok(Math.abs(errorOf({ error: 'max-rel' }, [1e-3, 2.2], 1, ref) - 0.1) < 1e-12);
});

test('the time for an error is interpolated log-log between the bracketing tolerances', () => {
  // time ∝ error^(-1/2): 1 ms at 1e-3, 10 ms at 1e-5, so 10^0.5 ms at 1e-4.
  const curve = [
    { rtol: 1e-4, err: 1e-5, ms: 10 },
    { rtol: 1e-2, err: 1e-3, ms: 1 },
  ];
  assert.ok(Math.abs(timeAtError(curve, 1e-4) - Math.sqrt(10)) < 1e-12);
  assert.equal(timeAtError(curve, 1e-3), 1);
  // Errors the sweep does not reach have no time.
  assert.equal(timeAtError(curve, 1e-6), null);
  assert.equal(timeAtError(curve, 1e-2), null);
  // A failed point (no time) is left out.
  assert.ok(Math.abs(timeAtError([...curve, { rtol: 1e-3, err: 1e-4 }], 1e-4) - Math.sqrt(10)) < 1e-12);
});
