// The vocabulary of the harness: cases, suites, results. The result file format is documented in
// bench/README.md; bump RESULT_SCHEMA on any incompatible change.
import type { Summary } from './stats.js';

export const RESULT_SCHEMA = 'wirespeed-bench/1';

export type Runtime = 'node' | 'deno' | 'browser';

/** One measured operation: one implementation on one fixed input. */
export interface BenchCase {
  suite: string;
  /** The scenario (input) shared by the implementations compared with each other. */
  group: string;
  /** The implementation: 'wirespeed' or a peer's name. */
  impl: string;
  /** The implementation other ones in the group are compared to. */
  baseline?: boolean;
  /**
   * Prepares inputs once and returns the operation to time. It must return a value (or a promise:
   * the operation is then awaited, one at a time).
   */
  setup(): (() => unknown) | Promise<() => unknown>;
  /**
   * A load case instead (servers under wrk): runs `runs` measurements and returns one sample per
   * run (ns per request, i.e. 1e9 / req/s) and named metrics (medians over the runs).
   */
  load?(runs: LoadRuns): Promise<{ samples: number[]; metrics: Record<string, number> }>;
  /** Releases what setup started (servers, child processes, workers). */
  teardown?(): void | Promise<void>;
}

export interface LoadRuns {
  count: number;
  durationSec: number;
}

export interface Suite {
  name: string;
  description: string;
  /** The cases this runtime can run (peers that need Node internals are left out elsewhere). */
  cases(runtime: Runtime): Promise<BenchCase[]>;
}

export interface Fingerprint {
  cpuModel: string;
  cores: number;
  memoryBytes: number;
  os: string;
  arch: string;
  runtime: Runtime;
  runtimeVersion: string;
  userAgent: string;
  /** WebAssembly features this engine validates. */
  wasm: { simd: boolean; threads: boolean; bulkMemory: boolean; referenceTypes: boolean };
  gitCommit: string | null;
  /** Browser only: whether high-resolution timers are on (COOP/COEP). */
  crossOriginIsolated?: boolean;
  /** Measured timer resolution in ns. */
  timerResolutionNs: number;
}

export interface CaseResult {
  suite: string;
  group: string;
  impl: string;
  baseline: boolean;
  unit: 'ns/op';
  /** Raw samples: ns per operation, each the mean of one batch of iterations. */
  samples: number[];
  stats: Summary;
  /** Load cases: req/s, latency percentiles, server CPU per request, peak RSS, client share, ... */
  metrics?: Record<string, number>;
}

export interface ResultFile {
  schema: typeof RESULT_SCHEMA;
  createdAt: string;
  fingerprint: Fingerprint;
  /** `filter`: the `--filter` the run was made with (absent: every case of its suites). */
  options: { quick: boolean; isolate: boolean; warmupMs: number; minTimeMs: number; filter?: string };
  cases: CaseResult[];
}
