// Unit tests of the page's pure helpers (www/format.ts).
import { describe, expect, it } from 'vitest';
import {
  columns,
  decimate,
  errorSeries,
  formatNumber,
  tickLabel,
  tickLabels,
  defaultBounds,
  sliderPosition,
  sliderValue,
  logToValue,
  niceStep,
  pick,
  relativeDrift,
  valueToLog,
} from '../../www/format';

describe('log slider', () => {
  const scale = { min: 1e-4, max: 0.5, steps: 400 };
  it('maps the ends to the ends', () => {
    expect(logToValue(scale, 0)).toBeCloseTo(1e-4, 15);
    expect(logToValue(scale, 400)).toBeCloseTo(0.5, 12);
  });
  it('round-trips positions', () => {
    for (const p of [0, 1, 57, 200, 399, 400]) expect(valueToLog(scale, logToValue(scale, p))).toBe(p);
  });
  it('clamps values outside the range', () => {
    expect(valueToLog(scale, 10)).toBe(400);
    expect(valueToLog(scale, 1e-9)).toBe(0);
    expect(logToValue(scale, -5)).toBeCloseTo(1e-4, 15);
  });
  it('is geometric: the midpoint is the geometric mean', () => {
    expect(logToValue(scale, 200)).toBeCloseTo(Math.sqrt(1e-4 * 0.5), 12);
  });
});

describe('numbers for people', () => {
  it('rounds step sizes to two significant digits', () => {
    expect(niceStep(0.00123456)).toBe(0.0012);
    expect(niceStep(0.0099999)).toBe(0.01);
    expect(niceStep(0)).toBe(0);
  });
  it('formats plainly or in scientific notation', () => {
    expect(formatNumber(212.20000000000002)).toBe('212.2');
    expect(formatNumber(1.2e-5, 3)).toBe('1.2e-5');
    expect(formatNumber(3.1e307, 3)).toBe('3.1e307');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-0.5)).toBe('-0.5');
    expect(formatNumber(Infinity)).toBe('Infinity');
  });
});

describe('parameter sliders', () => {
  it('range a decade either side of a positive default, on a log scale', () => {
    expect(defaultBounds(100)).toEqual({ min: 10, max: 1000 });
    expect(sliderValue(100, 10, 1000, 200)).toBe(100);
    expect(sliderPosition(100, 10, 1000, 200)).toBe(100);
    expect(sliderValue(0, 10, 1000, 200)).toBe(10);
    expect(sliderValue(200, 10, 1000, 200)).toBe(1000);
  });
  it('use a linear range through zero otherwise', () => {
    expect(defaultBounds(-9.81)).toEqual({ min: -98.1, max: 98.1 });
    expect(defaultBounds(0)).toEqual({ min: -1, max: 1 });
    expect(defaultBounds(0, 0)).toEqual({ min: 0, max: 1 });
    expect(sliderValue(100, -1, 1, 200)).toBe(0);
    expect(sliderPosition(0.5, -1, 1, 200)).toBe(150);
    expect(sliderPosition(5, -1, 1, 200)).toBe(200);
  });
});

describe('tick labels', () => {
  it('keep the digits the spacing needs', () => {
    expect(tickLabel(14.7001, 0.0001)).toBe('14.7001');
    expect(tickLabel(14.7002, 0.0001)).toBe('14.7002');
    expect(tickLabel(2, 0.5)).toBe('2');
    expect(tickLabel(0.25, 0.25)).toBe('0.25');
    expect(tickLabel(5e149, 5e149)).toBe('5e149');
    expect(tickLabel(0, 0.1)).toBe('0');
  });

  it('label evenly spaced ticks by their spacing: a chassis speed of 4.469 to 4.472 m/s', () => {
    expect(tickLabels([4.469, 4.47, 4.471, 4.472])).toEqual(['4.469', '4.47', '4.471', '4.472']);
    expect(tickLabels([7])).toEqual(['7']);
  });
});

describe('reshaping and decimation', () => {
  it('splits row-major data into columns', () => {
    const [a, b] = columns(Float64Array.from([1, 2, 3, 4, 5, 6]), 2);
    expect(Array.from(a)).toEqual([1, 3, 5]);
    expect(Array.from(b)).toEqual([2, 4, 6]);
  });
  it('keeps short series whole', () => {
    expect(Array.from(decimate(10, [new Float64Array(10)], 100))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
  it('keeps every bucket extreme of a long series', () => {
    const n = 100_000;
    const y = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 50));
    y[54_321] = 7; // a spike must survive
    const idx = decimate(n, [y], 500);
    expect(idx.length).toBeLessThanOrEqual(4 * 500);
    expect(idx[0]).toBe(0);
    expect(idx[idx.length - 1]).toBe(n - 1);
    expect(Array.from(idx)).toContain(54_321);
    for (let i = 1; i < idx.length; i++) expect(idx[i]).toBeGreaterThan(idx[i - 1]);
    const [kept] = pick([y], idx);
    expect(Math.max(...kept)).toBe(7);
    expect(Math.min(...kept)).toBeCloseTo(-1, 3);
  });
});

describe('run summaries', () => {
  it('measures relative drift from the first value', () => {
    expect(relativeDrift([2, 2.1, 1.8, 2])).toBeCloseTo(0.1, 12);
    expect(relativeDrift([])).toBe(0);
  });
  it('computes the pointwise max-norm error', () => {
    const e = errorSeries(Float64Array.from([1, 2, 3, 4]), Float64Array.from([1, 2.5, 2, 4]), 2);
    expect(Array.from(e)).toEqual([0.5, 1]);
  });
});
