// A plot's text alternative (www/summary.ts): ranges, final values and the observed
// log–log slope, computed independently of uPlot.
import { describe, expect, it } from 'vitest';
import { logLogSlope, summarize } from '../../www/summary';

describe('plot summaries', () => {
  it('log_log_slope_recovers_the_order_of_an_exact_power_law', () => {
    const h = [0.1, 0.05, 0.025, 0.0125];
    expect(logLogSlope(h, h.map((v) => 3 * v ** 4))).toBeCloseTo(4, 12);
    expect(logLogSlope(h, h.map((v) => 0.5 * v))).toBeCloseTo(1, 12);
  });

  it('log_log_slope_skips_non_positive_and_missing_points', () => {
    expect(logLogSlope([1, 2, 4, 8], [1, 0, NaN, 64])).toBeCloseTo(2, 12);
    expect(logLogSlope([1], [1])).toBeUndefined();
  });

  it('summary_names_the_x_range_each_series_range_and_final_value', () => {
    const text = summarize({ xLabel: 't', x: [0, 1, 2], series: [{ label: 'x', y: [1, -2, 0.5] }] });
    expect(text).toBe('t from 0 to 2. x: from -2 to 1, final 0.5.');
  });

  it('summary_reports_the_slope_only_on_log_log_axes', () => {
    const h = [0.1, 0.01, 0.001];
    const series = [{ label: 'rk4', y: h.map((v) => v ** 4) }];
    expect(summarize({ xLabel: 'h', x: h, series, logLog: true })).toContain('observed slope 4.00');
    expect(summarize({ xLabel: 'h', x: h, series })).not.toContain('slope');
  });

  it('summary_of_an_empty_plot_says_so', () => {
    expect(summarize({ xLabel: 't', x: [], series: [] })).toBe('No data yet.');
  });
});
