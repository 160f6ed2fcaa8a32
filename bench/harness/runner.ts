// Runs cases: a warm-up long enough for the JIT to tier up, then mitata's batched sampler.
import { measure } from 'mitata';
import { storedSamples, summarize } from './stats.js';
import type { BenchCase, CaseResult } from './types.js';

export interface RunOptions {
  /** Time spent calling the operation before measuring (the JIT needs ~400 ms to settle). */
  warmupMs: number;
  /** Minimum measured time per case. */
  minTimeMs: number;
  /** Minimum number of samples per case. */
  minSamples: number;
}

export const DEFAULT_OPTIONS: RunOptions = { warmupMs: 500, minTimeMs: 1500, minSamples: 40 };
// mitata trims the two extreme samples at each end of larger runs: ask for 20 to keep >= 16.
export const QUICK_OPTIONS: RunOptions = { warmupMs: 60, minTimeMs: 120, minSamples: 20 };

/** mitata's calls per sample when it batches an operation. */
const BATCH_CALLS = 4096;
/** A batched sample spans at least this many ticks of the clock, so a tick is at most 5% of it. */
const MIN_BATCH_TICKS = 20;
const MAX_BATCH_CALLS = 1 << 24;
/** How much larger the batches get when a sample read 0 (the batch was shorter than a clock tick). */
const BATCH_GROWTH = 16;

/**
 * The clock's step, in ns: tens of ns on Node, 5 µs (or 100 µs) in a browser, where a
 * sub-nanosecond operation batched 4,096 times read 0 (a stored sample must be > 0).
 */
const clockStepNs = (() => {
  // The average step over 1 ms: a browser's clock jitters, so its smallest step says little.
  const start = performance.now();
  let last = start;
  let steps = 0;
  while (last - start < 1) {
    const now = performance.now();
    if (now !== last) {
      steps++;
      last = now;
    }
  }
  return ((last - start) / steps) * 1e6;
})();

/** Calls per batched sample for an operation of `nsPerCall`: mitata's 4,096, or enough for the clock. */
function batchCalls(nsPerCall: number): number {
  const needed = Math.ceil((MIN_BATCH_TICKS * clockStepNs) / Math.max(nsPerCall, 0.01) / 4) * 4;
  return Math.min(MAX_BATCH_CALLS, Math.max(BATCH_CALLS, needed));
}

/**
 * The heap in use (V8's used heap + malloced memory, as mitata reads it) where the runtime exposes
 * node:v8 (Node, Deno); null in browsers. mitata then reports the heap growth per operation.
 */
const heapReader: Promise<(() => number) | null> = (async () => {
  try {
    const { getHeapStatistics } = await import('node:v8');
    getHeapStatistics();
    return () => {
      const heap = getHeapStatistics();
      return heap.used_heap_size + heap.malloced_memory;
    };
  } catch {
    return null;
  }
})();

/**
 * The size of V8's young generation (both semi-spaces) where node:v8 says it; null elsewhere.
 * Recorded with each case because the garbage collector's state moves allocation-heavy cases:
 * V8 sizes the young generation from what survives the process's start, and a CLI child (which
 * loads every suite) measured parseRequest on a 10-field GET at 702-1000 ns in six runs with 32
 * MiB, 662-676 ns in three with it capped at 16 MiB (`--max-semi-space-size=8`), while llhttp,
 * which allocates little on the JavaScript heap, stayed at 1221-1307 ns.
 */
const newSpaceReader: Promise<(() => number | undefined) | null> = (async () => {
  try {
    const { getHeapSpaceStatistics } = await import('node:v8');
    getHeapSpaceStatistics();
    return () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size;
  } catch {
    return null;
  }
})();

export async function runCase(c: BenchCase, options: RunOptions): Promise<CaseResult> {
  if (c.load) return runLoadCase(c, c.load.bind(c), options);
  const fn = await c.setup();
  try {
    return await measureCase(c, fn, options);
  } finally {
    await c.teardown?.();
  }
}

/** Load runs: a quick run is one short run, a real one three longer ones. */
async function runLoadCase(c: BenchCase, load: NonNullable<BenchCase['load']>, options: RunOptions): Promise<CaseResult> {
  const quick = options.minTimeMs < DEFAULT_OPTIONS.minTimeMs;
  const { samples, metrics } = await load(quick ? { count: 1, durationSec: 1 } : { count: 3, durationSec: 4 });
  return caseResult(c, samples, metrics);
}

/** A case's result: the summary of every sample, the samples a file keeps (see storedSamples). */
function caseResult(c: BenchCase, samples: number[], metrics?: Record<string, number>): CaseResult {
  return {
    suite: c.suite,
    group: c.group,
    impl: c.impl,
    baseline: c.baseline ?? false,
    unit: 'ns/op',
    samples: storedSamples(samples),
    stats: summarize(samples),
    ...(metrics ? { metrics } : {}),
  };
}

async function measureCase(c: BenchCase, fn: () => unknown, options: RunOptions): Promise<CaseResult> {
  // Warm-up only has to let the JIT tier up; mitata keeps the measured results observable.
  const start = performance.now();
  const end = start + options.warmupMs;
  let calls = 0;
  const first = fn();
  if (first instanceof Promise) {
    // An asynchronous operation (a real round trip) is awaited, one at a time: the first one too,
    // or its replies would still be arriving while the next run counts its own.
    await first;
    while (performance.now() < end) await fn();
  } else {
    while (performance.now() < end) {
      for (let i = 0; i < 32; i++) fn();
      calls += 32;
    }
  }
  const nsPerCall = calls ? ((performance.now() - start) * 1e6) / calls : Infinity;
  const heap = await heapReader;
  type Stats = Awaited<ReturnType<typeof measure>> & { heap?: { avg: number } };
  let stats: Stats;
  // A batch must span clock ticks: sized on the warm-up's speed (which counts the calls made
  // before the JIT compiled the operation, or while the thread was off the CPU), a batch of a
  // sub-nanosecond operation once took less than a browser's 5 µs tick and its samples read 0
  // (which a result file may not hold: a CI run's upload was refused for it). Then it is
  // measured again with batches BATCH_GROWTH times larger.
  for (let batch = batchCalls(nsPerCall); ; batch = Math.min(MAX_BATCH_CALLS, batch * BATCH_GROWTH)) {
    stats = (await measure(fn, {
      min_cpu_time: options.minTimeMs * 1e6,
      min_samples: options.minSamples,
      // mitata batches an operation (many calls per sample) when one of its first calls takes at
      // most 65 µs, but skips that check when the very first call took over 500 µs, and tries twice.
      // A GC pause or a busy machine there left a 10 ns operation unbatched: with a browser's 5 µs
      // timer its samples read 0. The case is warm already (above): look at up to 16 calls, always.
      warmup_threshold: Infinity,
      warmup_samples: 16,
      batch_samples: batch,
      ...(heap ? { heap } : {}),
    })) as Stats;
    if (batch >= MAX_BATCH_CALLS || !stats.samples.some((sample) => sample <= 0)) break;
  }
  // Bytes the heap grew per operation, over the batches no GC interrupted (mitata drops those).
  const heapBytesPerOp = stats.heap?.avg;
  const newSpaceBytes = (await newSpaceReader)?.();
  const metrics: Record<string, number> = {};
  if (heapBytesPerOp !== undefined && Number.isFinite(heapBytesPerOp)) metrics.heapBytesPerOp = heapBytesPerOp;
  if (newSpaceBytes !== undefined) metrics.newSpaceBytes = newSpaceBytes;
  return caseResult(c, stats.samples, Object.keys(metrics).length ? metrics : undefined);
}
