// Small helpers shared by the project scripts. Node built-ins only: these run before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..');

export function log(message) {
  process.stderr.write(`\x1b[36m[wirespeed]\x1b[0m ${message}\n`);
}

/** Runs a command with inherited stdio; throws when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
}

/** Runs a command and returns its stdout, or null when it cannot run or fails. */
export function capture(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', cwd: root, ...options });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** Newest modification time (ms) of the files under `paths` (files or directories). */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry !== 'node_modules' && entry !== 'target') visit(join(path, entry));
      }
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach((p) => visit(resolve(root, p)));
  return newest;
}

/** True when `output` is missing or older than any of `inputs`. */
export function isStale(output, inputs) {
  const out = resolve(root, output);
  return !existsSync(out) || statSync(out).mtimeMs < newestMtime(inputs);
}

/** The wasm-bindgen version pinned in wasm/Cargo.toml (`wasm-bindgen = "=X"`). */
export function pinnedWasmBindgen() {
  const manifest = readFileSync(join(root, 'wasm/Cargo.toml'), 'utf8');
  const match = /^wasm-bindgen = "=([^"]+)"/m.exec(manifest);
  if (!match) throw new Error('wasm/Cargo.toml must pin wasm-bindgen with "=X.Y.Z"');
  return match[1];
}

/** h2spec, the HTTP/2 conformance tester (145 cases), pinned: the module proxy serves this version. */
export const H2SPEC_MODULE = 'github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible';

export function h2specBin() {
  const cache = process.env.WIRESPEED_CACHE ?? join(homedir(), '.cache', 'wirespeed');
  return join(cache, 'h2spec-2.2.1', 'h2spec');
}

/** Where the pinned wasm-bindgen-cli lives: a per-user cache shared by every clone. */
export function wasmBindgenBin() {
  const cache = process.env.WIRESPEED_CACHE ?? join(homedir(), '.cache', 'wirespeed');
  return join(cache, `wasm-bindgen-${pinnedWasmBindgen()}`, 'bin', 'wasm-bindgen');
}
