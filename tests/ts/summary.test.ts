// A plot's text alternative (www/summary.ts): ranges, final values and the observed
// slope a study fitted.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../www/summary';

describe('plot summaries', () => {
  it('summary_names_the_x_range_each_series_range_and_final_value', () => {
    const text = summarize({ xLabel: 't', x: [0, 1, 2], series: [{ label: 'x', y: [1, -2, 0.5] }] });
    expect(text).toBe('t from 0 to 2. x: from -2 to 1, final 0.5.');
  });

  it('summary_reports_a_fitted_slope_only_where_there_is_one', () => {
    const h = [0.1, 0.01, 0.001];
    const y = h.map((v) => v ** 4);
    expect(summarize({ xLabel: 'h', x: h, series: [{ label: 'rk4', y, slope: 3.9987 }] })).toContain('rk4: from 1e-12 to 1e-4, final 1e-12, observed slope 4.00.');
    expect(summarize({ xLabel: 'h', x: h, series: [{ label: 'rk4', y }] })).not.toContain('slope');
  });

  it('summary_skips_non_finite_values_and_counts_series_beyond_eight', () => {
    const series = Array.from({ length: 10 }, (_, i) => ({ label: `s${i}`, y: [NaN, i, Infinity] }));
    const text = summarize({ xLabel: 't', x: [0, 1, 2], series });
    expect(text).toContain('s0: from 0 to 0, final 0.');
    expect(text).toContain('2 more series.');
    expect(summarize({ xLabel: 't', x: [0, 1], series: [{ label: 'x', y: [NaN, NaN] }] })).toBe('t from 0 to 1. x: no finite values.');
  });

  it('summary_of_an_empty_plot_says_so', () => {
    expect(summarize({ xLabel: 't', x: [], series: [] })).toBe('No data yet.');
  });
});
