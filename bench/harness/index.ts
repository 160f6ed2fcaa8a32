export { runCase, DEFAULT_OPTIONS, QUICK_OPTIONS, type RunOptions } from './runner.js';
export { geomean, medianRanks, quantile, summarize, type Summary } from './stats.js';
export { detectRuntime, serverFingerprint, timerResolutionNs, wasmFeatures } from './fingerprint.js';
export * from './types.js';
