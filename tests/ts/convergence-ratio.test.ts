// The convergence table's Dₙ₋₁/Dₙ column, which tends to 2ᵖ: it is read where the fit
// says the error falls as hᵖ, not from the middle of the list (with n up to 20 that was
// dp45's 0.37 at n = 13, in round-off; measured there: euler 2.00, heun 3.85, rk4 15.9,
// dp45 42.9).
import { beforeAll, describe, expect, it } from 'vitest';
import { convergence } from '../../www/engine-labs';
import { fittedRatio } from '../../www/convergence';
import { byId, loadEngines } from './page-engine';

beforeAll(loadEngines);

describe('convergence table', () => {
  it('shows Dₙ₋₁/Dₙ near 2ᵖ for every method, also with n up to 20', () => {
    const s = byId('heun-error-vs-h').settings;
    for (const nMax of [14, 20]) {
      const result = convergence({ model: s.model, params: s.params, t1: s.t1, methods: ['euler', 'heun', 'rk4', 'dp45'], tols: [], localH: [], nMin: 4, nMax });
      for (const g of result.global) {
        const ratio = fittedRatio(g) ?? NaN;
        // Within the fitted range the ratio follows the observed slope: 2^slope, and
        // near 2ᵖ (dp45's fitted slope is 5.45 on these h, 2^5.45 = 44).
        expect(ratio, `${g.method}, n ≤ ${nMax}`).toBeGreaterThan(0.6 * 2 ** g.order);
        expect(ratio, `${g.method}, n ≤ ${nMax}`).toBeLessThan(1.6 * 2 ** g.order);
      }
    }
  });

  it('shows no ratio without a fit', () => {
    expect(fittedRatio({ dRatio: Float64Array.from([NaN, NaN, 3]), fit: { slope: NaN, from: 0, to: 0 } })).toBeUndefined();
    expect(fittedRatio({ dRatio: Float64Array.from([NaN, NaN, 3]), fit: { slope: 1, from: 0, to: 1 } })).toBeUndefined();
  });
});
