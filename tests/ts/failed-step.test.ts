// The side panel's "failed step" row: only a run that stopped before t1 has one.
import { describe, expect, it } from 'vitest';
import { failedStepEnd } from '../../www/trajectory';

describe('failed step', () => {
  it('a run that blew up before t1 names the end of the step that failed', () => {
    const warning = 'The solution blew up (past 1e150 or NaN) at t = 568.11 (in the step from t = 567.82, the last point drawn): rk4 is unstable at h = 0.29.';
    expect(failedStepEnd(warning, 567.82, 1000)).toBe(568.11);
  });

  it('a run that reached t1 has no failed step, whatever times its warning names', () => {
    // Euler 2 at h = 0.21 on the undamped spring: it grows 1e130-fold but reaches t1 = 100;
    // the time in its warning is where the binding eigenvalue was measured (t = 0 for this
    // constant spectrum; a moving one names a later time).
    const grown =
      "The solution blew up: it grew to 2.456954e130 times its starting size, while midpoint2 is unstable at h = 0.21. The Jacobian's eigenvalue λ ≈ ±10i (at t = 0) puts hλ ≈ ±2.1i outside midpoint2's stability region, which reaches 2 along that direction.";
    expect(failedStepEnd(grown, 100, 100)).toBeUndefined();
    const stiff = 'The problem is stiff: dp45 is held to steps of about h = 0.003 near t = 1500 by the eigenvalue λ ≈ -1000.';
    expect(failedStepEnd(stiff, 3000, 3000)).toBeUndefined();
  });

  it('a run with no warning has no failed step', () => {
    expect(failedStepEnd(undefined, 5, 10)).toBeUndefined();
  });
});
