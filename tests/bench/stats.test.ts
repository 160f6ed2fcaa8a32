import { describe, expect, it } from 'vitest';
import { geomean, mannWhitneyU, MAX_STORED_SAMPLES, medianRanks, quantile, storedSamples, summarize } from '../../bench/harness/stats.js';

describe('statistics (known answers)', () => {
  it('quantiles interpolate like R type 7 / numpy', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    // numpy.percentile([1..10], [50, 75, 99]) = 5.5, 7.75, 9.91
    expect(quantile(sorted, 0.5)).toBeCloseTo(5.5, 10);
    expect(quantile(sorted, 0.75)).toBeCloseTo(7.75, 10);
    expect(quantile(sorted, 0.99)).toBeCloseTo(9.91, 10);
    expect(quantile([42], 0.5)).toBe(42);
  });

  it('median CI ranks follow n/2 ∓ 1.96√n/2 (Conover)', () => {
    // n = 100: 50 - 9.8 = 40.2 → 40; 1 + 50 + 9.8 = 60.8 → 61
    expect(medianRanks(100)).toEqual([40, 61]);
    // n = 25: 12.5 - 4.9 = 7.6 → 7; 1 + 12.5 + 4.9 = 18.4 → 19
    expect(medianRanks(25)).toEqual([7, 19]);
    // Tiny samples clamp to the extremes.
    expect(medianRanks(3)).toEqual([1, 3]);
  });

  it('summarize gives median, CI, spread of a known sample', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 1..100, unsorted
    const s = summarize(samples);
    expect(s.n).toBe(100);
    expect([s.min, s.max, s.median]).toEqual([1, 100, 50.5]);
    expect([s.ciLow, s.ciHigh]).toEqual([40, 61]);
    expect(s.mean).toBe(50.5);
    // sample standard deviation of 1..100 = sqrt(100*101/12) = 29.0115
    expect(s.stddev).toBeCloseTo(29.0115, 3);
    expect(s.p99).toBeCloseTo(99.01, 10);
  });

  it('geomean of ratios', () => {
    expect(geomean([2, 8])).toBeCloseTo(4, 12);
    expect(geomean([0.5, 2])).toBeCloseTo(1, 12);
  });
});

describe('Mann-Whitney U (known answers from scipy.stats.mannwhitneyu, two-sided, asymptotic)', () => {
  it.each([
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 0, 0.00018267179110955002],
    [[19, 22, 16, 29, 24], [20, 11, 17, 12], 17, 0.11134688653314041],
    [[1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8], [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5], 31.5, 1],
    [[5, 5, 5, 6, 6, 7, 8], [5, 6, 6, 6, 7, 7, 7, 8, 9], 19.5, 0.2092123208130564],
  ])('%j vs %j: U = %d, p = %f', (a, b, u, p) => {
    const r = mannWhitneyU(a, b);
    expect(r.u).toBe(u);
    expect(r.p).toBeCloseTo(p, 6);
  });

  it('identical constant samples give p = 1', () => {
    expect(mannWhitneyU([3, 3, 3], [3, 3, 3]).p).toBe(1);
  });
});

describe('storedSamples', () => {
  it('keeps few samples as they are (rounded to 5 digits)', () => {
    expect(storedSamples([1.234567, 20, 3])).toEqual([1.2346, 20, 3]);
  });

  it('keeps MAX_STORED_SAMPLES of many, spread over the sorted range with min and max', () => {
    const samples = Array.from({ length: 100_000 }, (_, i) => ((i * 7919) % 100_000) + 1);
    const kept = storedSamples(samples);
    expect(kept).toHaveLength(MAX_STORED_SAMPLES);
    expect(kept[0]).toBe(1);
    expect(kept.at(-1)).toBe(100_000);
    expect([...kept].sort((a, b) => a - b)).toEqual(kept);
    // The stored ones describe the same distribution: medians within one step of the spread.
    expect(Math.abs(summarize(kept).median - summarize(samples).median)).toBeLessThan(100_000 / MAX_STORED_SAMPLES);
  });
});
