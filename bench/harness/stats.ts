// Summary statistics of benchmark samples. Pure functions: the dashboard uses them too.

export interface Summary {
  n: number;
  min: number;
  max: number;
  mean: number;
  median: number;
  /** 95% confidence interval of the median (distribution-free, from order statistics). */
  ciLow: number;
  ciHigh: number;
  p75: number;
  p99: number;
  stddev: number;
}

/** Quantile `q` of ascending `sorted` with linear interpolation (R type 7, numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/**
 * 1-based ranks (j, k) of the order statistics that bound a 95% CI of the median: the normal
 * approximation of the binomial, n/2 ∓ 1.96·√n/2 (Conover, Practical Nonparametric Statistics).
 */
export function medianRanks(n: number): [number, number] {
  const half = (1.959964 * Math.sqrt(n)) / 2;
  const j = Math.max(1, Math.floor(n / 2 - half));
  const k = Math.min(n, Math.ceil(1 + n / 2 + half));
  return [j, k];
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = sorted.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  const [j, k] = medianRanks(n);
  return {
    n,
    min: sorted[0],
    max: sorted[n - 1],
    mean,
    median: quantile(sorted, 0.5),
    ciLow: sorted[j - 1],
    ciHigh: sorted[k - 1],
    p75: quantile(sorted, 0.75),
    p99: quantile(sorted, 0.99),
    stddev: Math.sqrt(variance),
  };
}

/** Geometric mean (for ratios across cases). */
export function geomean(values: readonly number[]): number {
  return Math.exp(values.reduce((a, v) => a + Math.log(v), 0) / values.length);
}
