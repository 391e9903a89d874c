// What the plots draw, as pure functions: one scale on both axes of the ξ-plane,
// distinct line styles, a robust colour range for the heat map, the exact solution's
// fine grid, when a run wants a log time axis, pin names and the PNG legend's layout.
import { describe, expect, it } from 'vitest';
import { fitAspect, xiToPixel } from '../../www/plane';
import { PALETTE, seriesStyle } from '../../www/theme';
import { robustRange } from '../../www/heatmap';
import { fineGrid, linearRange, linearSplits, spansDecades, yAxisSize, Y_AXIS_MIN } from '../../www/plot-data';
import { pinName, pinNames } from '../../www/pins';
import { legendLayout } from '../../www/export';
import type { Run } from '../../www/run';

describe('ξ-plane aspect', () => {
  it('gives Re ξ and Im ξ one pixel scale at any canvas shape, keeping the centre and all that was asked', () => {
    const asked = { re: [-5, 2] as [number, number], im: [-3.5, 3.5] as [number, number] };
    for (const [w, h] of [[1920, 520], [800, 520], [360, 360], [300, 700]]) {
      const win = fitAspect(asked, w, h);
      const perPixelRe = (win.re[1] - win.re[0]) / w;
      const perPixelIm = (win.im[1] - win.im[0]) / h;
      expect(perPixelRe).toBeCloseTo(perPixelIm, 12);
      expect(win.re[0]).toBeLessThanOrEqual(asked.re[0]);
      expect(win.re[1]).toBeGreaterThanOrEqual(asked.re[1]);
      expect(win.im[0]).toBeLessThanOrEqual(asked.im[0]);
      expect(win.im[1]).toBeGreaterThanOrEqual(asked.im[1]);
      expect((win.re[0] + win.re[1]) / 2).toBeCloseTo(-1.5, 12);
      // Euler's disc |1 + ξ| ≤ 1: as many pixels across as up and down.
      const [left] = xiToPixel(win, w, h, -2, 0);
      const [right] = xiToPixel(win, w, h, 0, 0);
      const [, top] = xiToPixel(win, w, h, -1, 1);
      const [, bottom] = xiToPixel(win, w, h, -1, -1);
      expect(right - left).toBeCloseTo(bottom - top, 9);
    }
  });
});

describe('line styles', () => {
  it('twelve distinct colours, then the colours again with a dash, so sixty lines never look alike', () => {
    expect(new Set(PALETTE).size).toBe(PALETTE.length);
    expect(PALETTE.length).toBeGreaterThanOrEqual(12);
    const ten = Array.from({ length: 10 }, (_, i) => seriesStyle(i));
    expect(new Set(ten.map((s) => s.color)).size).toBe(10);
    const styles = Array.from({ length: 60 }, (_, i) => JSON.stringify(seriesStyle(i)));
    expect(new Set(styles).size).toBe(60);
    expect(seriesStyle(12).color).toBe(seriesStyle(0).color);
    expect(seriesStyle(12).dash).toBeDefined();
  });
});

describe('heat map colour range', () => {
  it('spans the 1st to 99th percentile, so one spike does not wash the map out, and says it clipped', () => {
    const values = Array.from({ length: 1000 }, (_, i) => Math.sin(i / 10));
    values[500] = 3e129;
    const r = robustRange(values);
    expect(r.hi).toBeLessThanOrEqual(1);
    expect(r.lo).toBeGreaterThanOrEqual(-1);
    expect(r.hi - r.lo).toBeGreaterThan(1.9);
    expect(r.max).toBe(3e129);
    expect(r.clipped).toBe(true);
  });
  it('uses the whole range of a field without outliers or of a constant one', () => {
    expect(robustRange([2, 2, 2, NaN])).toMatchObject({ lo: 2, hi: 2, clipped: false });
    expect(robustRange([])).toMatchObject({ lo: 0, hi: 1, clipped: false });
  });
});

describe('exact solution grid and time axis', () => {
  it('samples a thousand even times besides the steps: many more than h = 0.2 gives', () => {
    const steps = Array.from({ length: 51 }, (_, i) => i * 0.2);
    const grid = fineGrid(steps);
    expect(grid.length).toBeGreaterThan(10 * steps.length);
    for (const t of steps) expect(grid.includes(t)).toBe(true);
    for (let i = 1; i < grid.length; i++) expect(grid[i]).toBeGreaterThan(grid[i - 1]);
    expect(grid[0]).toBe(0);
    expect(grid[grid.length - 1]).toBe(10);
  });
  it('wants a log t axis for a run over decades with growing steps, not for a fixed step or an oscillation', () => {
    // Robertson-like: steps from 1e-6 growing by half each step over [0, 40].
    const t = [0];
    for (let step = 1e-6; t[t.length - 1] < 40; step *= 1.5) t.push(t[t.length - 1] + step);
    expect(spansDecades(t, true)).toBe(true);
    const fixed = Array.from({ length: 1001 }, (_, i) => i * 0.01);
    expect(spansDecades(fixed, false)).toBe(false);
    // An adaptive run over an oscillation: a tiny first step, then steady ones.
    const oscillation = [0, 1e-5, 1e-4, 1e-3, ...Array.from({ length: 500 }, (_, i) => 0.01 + i * 0.02)];
    expect(spansDecades(oscillation, true)).toBe(false);
  });
});

/** A run with just what a pin's name reads. */
function run(method: string, adaptive: boolean, h?: number, rtol?: number, atol?: number): Run {
  return { settings: { model: 'pendulum', method, h, rtol, ...(atol === undefined ? {} : { atol }) }, adaptive } as unknown as Run;
}

describe('pin names', () => {
  it('name a pin by its method and its h or tolerance, and tell equal ones apart', () => {
    expect(pinName(run('rk4', false, 0.01))).toBe('rk4 h = 0.01');
    expect(pinName(run('dp45', true, undefined, 1e-6))).toBe('dp45 rtol 1e-6');
    // Two runs held by their atol (rtol 1e-13 on both) are told apart by it.
    expect(pinName(run('llm', true, undefined, 1e-13, 0.05))).toBe('llm rtol 1e-13, atol 0.05');
    expect(pinNames([run('euler', false, 0.1), run('euler', false, 0.1), run('heun', false, 0.1)])).toEqual([
      'euler h = 0.1',
      'euler h = 0.1 (2)',
      'heun h = 0.1',
    ]);
  });

  it('tell pins apart by the parameters they were run with', () => {
    const withAlpha = (method: string, alpha: number): Run =>
      ({ settings: { model: 'slowfast-linear', method, h: 0.001, params: { alpha, beta: 0.1 } }, adaptive: false }) as unknown as Run;
    const pins = [withAlpha('rk4', 1000), withAlpha('slowfast', 10), withAlpha('rk4', 10)];
    // alpha differs (β does not): it names each pin, the live run counted.
    expect(pinNames(pins, [withAlpha('slowfast', 1000)])).toEqual([
      'rk4 h = 0.001, alpha = 1000',
      'slowfast h = 0.001, alpha = 10',
      'rk4 h = 0.001, alpha = 10',
    ]);
    // The live run alone with a pin of another α: both name it.
    expect(pinNames([withAlpha('rk4', 10)], [withAlpha('rk4', 1000)])).toEqual(['rk4 h = 0.001, alpha = 10']);
    expect(pinNames([withAlpha('rk4', 10)], [withAlpha('rk4', 10)])).toEqual(['rk4 h = 0.001']);
  });
});

describe('PNG legend layout', () => {
  it('wraps entries into rows that fit the width', () => {
    const { rows, at } = legendLayout([100, 100, 100, 100], 260);
    expect(rows).toBe(2);
    expect(at.map(([row]) => row)).toEqual([0, 0, 1, 1]);
    expect(legendLayout([], 300).rows).toBe(0);
  });
});

describe('ξ-plane marker verdicts', () => {
  it('read |R| between grid points in log space, so a point on the boundary reads 1 whatever the grid', async () => {
    const { interpolateLog } = await import('../../www/stability');
    // |e^ξ| on a grid whose columns straddle Re ξ = 0 (no column on it).
    const [nx, ny, re0, re1, im0, im1] = [7, 5, -0.3, 0.33, -1, 1];
    const values = Array.from({ length: nx * ny }, (_, k) => Math.exp(re0 + ((k % nx) / (nx - 1)) * (re1 - re0)));
    const fx = ((0 - re0) / (re1 - re0)) * (nx - 1);
    const fy = ((0.5 - im0) / (im1 - im0)) * (ny - 1);
    expect(interpolateLog(values, nx, ny, fx, fy)).toBeCloseTo(1, 12);
    const nearest = values[Math.round(fy) * nx + Math.round(fx)];
    expect(Math.abs(nearest - 1)).toBeGreaterThan(0.01);
  });
});

describe('linear axes of near-constant data', () => {
  it('keep a radius that stays 1 to seven digits on the axis, with distinct ticks inside it', () => {
    // sin(1/t)'s radius under dp45 at rtol 1e-6: 0.999999931 … 1.
    const [lo, hi] = linearRange(0.999999931345165, 1);
    expect(lo).toBeLessThan(0.999999931345165);
    expect(hi).toBeGreaterThan(1);
    const ticks = linearSplits(lo, hi, 2.5e-8);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const t of ticks) expect(t >= lo && t <= hi).toBe(true);
    expect(ticks).toContain(0.999999975);
  });

  it('give flat data a range around the value, and zero a range of ±1', () => {
    expect(linearRange(2, 2)).toEqual([1.8, 2.2]);
    expect(linearRange(0, 0)).toEqual([-1, 1]);
  });
});

describe('y axis width', () => {
  it('keeps the usual width for short tick labels and widens for long ones, about 7.5 px a character', () => {
    expect(yAxisSize(['0', '500', '1000'])).toBe(Y_AXIS_MIN);
    expect(yAxisSize(null)).toBe(Y_AXIS_MIN);
    // An energy that drifts in its ninth digit: ten characters need more than 70 px.
    expect(yAxisSize(['4.50963434', '4.50963436', '4.50963438'])).toBeGreaterThanOrEqual(18 + 75);
    expect(yAxisSize(['0.999999925', '1'])).toBeGreaterThan(yAxisSize(['4.50963438']));
  });
});
