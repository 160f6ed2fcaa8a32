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

/**
 * The complementary error function: Numerical Recipes' `erfcc` (Chebyshev fit), fractional error
 * below 1.2e-7 everywhere: plenty for p-values.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** P(Z > z) for a standard normal Z. */
export function normalSf(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/**
 * Two-sided Mann-Whitney U test (Wilcoxon rank-sum): average ranks for ties, the tie-corrected
 * normal approximation with continuity correction (scipy.stats.mannwhitneyu, method='asymptotic').
 * `u` is the statistic of `a`.
 */
export function mannWhitneyU(a: readonly number[], b: readonly number[]): { u: number; p: number } {
  const n1 = a.length;
  const n2 = b.length;
  const all = [...a.map((v) => [v, 0] as const), ...b.map((v) => [v, 1] as const)].sort((x, y) => x[0] - y[0]);
  const n = all.length;
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1][0] === all[i][0]) j++;
    const rank = (i + j + 2) / 2; // ranks are 1-based: average of i+1 .. j+1
    const ties = j - i + 1;
    tieTerm += ties ** 3 - ties;
    for (let k = i; k <= j; k++) if (all[k][1] === 0) rankSumA += rank;
    i = j + 1;
  }
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (!(sigma > 0)) return { u, p: 1 };
  const z = (Math.abs(u - mu) - 0.5) / sigma;
  return { u, p: Math.min(1, 2 * normalSf(z)) };
}

/**
 * The samples a result file keeps: at most this many per case. A micro case can take 700,000
 * samples (9.9 MB of JSON for one run); the summary is computed from all of them first, and 1,000
 * evenly spaced order statistics keep the distribution for charts and the rank test of `compare`.
 */
export const MAX_STORED_SAMPLES = 1000;
/** Significant digits a stored sample keeps: far below the run-to-run noise of any case. */
const STORED_DIGITS = 5;

/** The samples to store: all of them when few, else MAX_STORED_SAMPLES spread over the sorted range (min and max kept); rounded. */
export function storedSamples(samples: readonly number[]): number[] {
  const round = (value: number) => Number(value.toPrecision(STORED_DIGITS));
  if (samples.length <= MAX_STORED_SAMPLES) return samples.map(round);
  const sorted = [...samples].sort((a, b) => a - b);
  const step = (sorted.length - 1) / (MAX_STORED_SAMPLES - 1);
  return Array.from({ length: MAX_STORED_SAMPLES }, (_, i) => round(sorted[Math.round(i * step)]));
}
