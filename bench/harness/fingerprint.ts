// What machine and runtime produced a result. Works in Node, Deno (through its node: modules) and
// browsers (navigator only).
import type { Fingerprint, Runtime } from './types.js';

// Smallest valid modules that use one feature each (from the WebAssembly spec test suite idea):
// validation says whether this engine supports it, without running anything.
const FEATURE_PROBES: Record<keyof Fingerprint['wasm'], number[]> = {
  simd: [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11],
  threads: [0, 97, 115, 109, 1, 0, 0, 0, 5, 4, 1, 3, 1, 1],
  bulkMemory: [
    0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1, 10, 14, 1, 12, 0, 65, 0, 65, 0, 65, 0, 252, 10, 0, 0, 11,
  ],
  referenceTypes: [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 7, 1, 5, 0, 208, 112, 26, 11],
};

export function wasmFeatures(): Fingerprint['wasm'] {
  const has = (bytes: number[]) => {
    try {
      return WebAssembly.validate(new Uint8Array(bytes));
    } catch {
      return false;
    }
  };
  return {
    simd: has(FEATURE_PROBES.simd),
    threads: has(FEATURE_PROBES.threads),
    bulkMemory: has(FEATURE_PROBES.bulkMemory),
    referenceTypes: has(FEATURE_PROBES.referenceTypes),
  };
}

/** The smallest non-zero step of performance.now(), in ns. */
export function timerResolutionNs(): number {
  let best = Infinity;
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    let t1 = performance.now();
    while (t1 === t0) t1 = performance.now();
    best = Math.min(best, t1 - t0);
  }
  return Math.round(best * 1e6);
}

export function detectRuntime(): Runtime {
  if ('Deno' in globalThis) return 'deno';
  if (typeof process !== 'undefined' && process.versions?.node) return 'node';
  return 'browser';
}

async function gitCommit(): Promise<string | null> {
  const { execFileSync } = await import('node:child_process');
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** Fingerprint of a Node or Deno process. */
export async function serverFingerprint(): Promise<Fingerprint> {
  const os = await import('node:os');
  const runtime = detectRuntime();
  const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
  return {
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryBytes: os.totalmem(),
    os: `${os.type()} ${os.release()}`,
    arch: os.arch(),
    runtime,
    runtimeVersion: runtime === 'deno' ? (deno?.version.deno ?? 'unknown') : process.versions.node,
    userAgent: typeof navigator !== 'undefined' ? navigator.userAgent : `Node.js/${process.versions.node}`,
    wasm: wasmFeatures(),
    gitCommit: await gitCommit(),
    timerResolutionNs: timerResolutionNs(),
  };
}

interface NavigatorHints {
  deviceMemory?: number;
  userAgentData?: { platform?: string; brands?: { brand: string; version: string }[] };
}

/** Fingerprint of a browser page or worker: what `navigator` tells (no CPU model there). */
export function browserFingerprint(): Fingerprint {
  const nav = navigator as Navigator & NavigatorHints;
  const ua = nav.userAgent;
  const engine = /(Chrome|Firefox|Version)\/([\d.]+)/.exec(ua);
  const name = engine ? (engine[1] === 'Version' ? 'Safari' : engine[1]) : 'browser';
  return {
    cpuModel: `unknown (${name} does not say)`,
    cores: nav.hardwareConcurrency || 1,
    memoryBytes: (nav.deviceMemory ?? 0) * 2 ** 30,
    os: nav.userAgentData?.platform || /\(([^;)]+)/.exec(ua)?.[1] || 'unknown',
    arch: /x86_64|x64|Win64|amd64/i.test(ua) ? 'x64' : /arm|aarch64/i.test(ua) ? 'arm64' : 'unknown',
    runtime: 'browser',
    runtimeVersion: engine ? `${name} ${engine[2]}` : 'unknown',
    userAgent: ua,
    wasm: wasmFeatures(),
    gitCommit: null,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    timerResolutionNs: timerResolutionNs(),
  };
}
