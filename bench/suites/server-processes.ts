// The bench servers as processes, for the load suites (server, http2, websocket): each server
// is a name in one of the peer scripts (bench/peers/servers/*-servers.ts), started on Node, Deno
// (from the npm package `deno`) or Bun (from the npm package `bun`) when that runtime is here.
// Servers whose runtime or packages are missing are left out, and the run says so at its end.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noteMissing } from '../harness/peers.js';
import type { BenchCase, LoadRuns } from '../harness/types.js';

const here = dirname(fileURLToPath(import.meta.url));
const NODE_SCRIPT = join(here, '../peers/servers/node-servers.js');
const DENO_SCRIPT = join(here, '../peers/servers/deno-servers.js');
const BUN_SCRIPT = join(here, '../peers/servers/bun-servers.js');

/** A server under load: its name in the peer scripts and the argv that starts it on a port. */
export interface ServerImpl {
  name: string;
  command(port: number): string[];
  /** The peer the others are compared with. */
  baseline?: boolean;
  /** Answers only GET /hello (the raw socket ceiling). */
  helloOnly?: boolean;
}

/** The deno binary of the npm package `deno` (not its npm wrapper), or null. */
export function denoBinary(): string | null {
  try {
    const binary = join(dirname(createRequire(import.meta.url).resolve('deno/bin.cjs')), 'deno');
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Bun from the npm package `bun` (its binary, if the platform package installed one that runs). */
export function bunBinary(): string | null {
  try {
    const binary = join(dirname(createRequire(import.meta.url).resolve('bun/package.json')), 'bin/bun.exe');
    execFileSync(binary, ['--version'], { stdio: 'ignore' });
    return binary;
  } catch {
    return null;
  }
}

/** A server of node-servers.ts. */
export function nodeServer(name: string, extra: Partial<ServerImpl> = {}): ServerImpl {
  return { name, command: (port) => [process.execPath, NODE_SCRIPT, name, String(port)], ...extra };
}

/** Whether the npm package `name` is installed where Node would find it from the bench. */
function isInstalled(name: string): boolean {
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** `impls`, or none (noted for the end of the run) when one of `packages` is not installed. */
export function needing(packages: string[], impls: ServerImpl[]): ServerImpl[] {
  const missing = packages.filter((name) => !isInstalled(name));
  for (const name of missing) for (const impl of impls) noteMissing(name, impl.name);
  return missing.length > 0 ? [] : impls;
}

/** The servers of deno-servers.ts that exist here (none without Deno). */
export function denoServers(...names: string[]): ServerImpl[] {
  const deno = denoBinary();
  if (!deno) return (names.forEach((name) => noteMissing('deno', name)), []);
  return names.map((name) => ({ name, command: (port) => [deno, 'run', '--quiet', '-A', '--no-lock', DENO_SCRIPT, name, String(port)] }));
}

/** The servers of bun-servers.ts that exist here (none without Bun). */
export function bunServers(...names: string[]): ServerImpl[] {
  const bun = bunBinary();
  if (!bun) return (names.forEach((name) => noteMissing('bun', name)), []);
  return names.map((name) => ({ name, command: (port) => [bun, BUN_SCRIPT, name, String(port)] }));
}

/** A case that measures `impl` under load (the process is started by `load`, not by setup). */
export function loadCase(
  suite: string,
  group: string,
  impl: ServerImpl,
  load: (runs: LoadRuns) => Promise<{ samples: number[]; metrics: Record<string, number> }>,
): BenchCase {
  return { suite, group, impl: impl.name, baseline: impl.baseline, setup: () => () => undefined, load };
}
