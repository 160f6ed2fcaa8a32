// Installs what a fresh machine lacks, and nothing twice: npm packages, the wasm32 Rust target and
// wasm-bindgen-cli at exactly the crate's version. Safe to run any number of times.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { capture, h2specBin, H2SPEC_MODULE, log, pinnedWasmBindgen, root, run, wasmBindgenBin } from './tools.mjs';

/** Debian packages the tests drive as real peers (installed once, when missing). */
// The dashboard's e2e browser; real clients for the server tests (curl) and benchmarks (wrk, h2load).
const DEBIAN_PACKAGES = [
  { bin: '/usr/bin/chromium', pkg: 'chromium' },
  { bin: '/usr/bin/curl', pkg: 'curl' },
  { bin: '/usr/bin/wrk', pkg: 'wrk' },
  { bin: '/usr/bin/h2load', pkg: 'nghttp2-client' },
];

function installDebianPackages() {
  const missing = DEBIAN_PACKAGES.filter(({ bin }) => !existsSync(bin)).map(({ pkg }) => pkg);
  if (missing.length === 0) return;
  log(`installing Debian packages: ${missing.join(' ')} (apt-get)`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update', '-qq'], { env });
  run(sudo[0] ?? 'apt-get', [...(sudo.length ? ['apt-get'] : []), 'install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

export function setup() {
  if (!existsSync(join(root, 'node_modules/.package-lock.json'))) {
    // Not `npm ci`: the registry these machines reach serves deno's per-platform binaries for
    // linux-x64 only, so the lockfile cannot list the other platforms' optional packages and
    // `npm ci` refuses it as out of sync. `npm install` follows the lockfile and skips them.
    log('installing npm packages (npm install)');
    run('npm', ['install', '--no-audit', '--no-fund']);
  }

  const targets = capture('rustup', ['target', 'list', '--installed']) ?? '';
  if (!targets.split('\n').includes('wasm32-unknown-unknown')) {
    log('adding the wasm32-unknown-unknown Rust target');
    run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
  }

  const version = pinnedWasmBindgen();
  const bin = wasmBindgenBin();
  if (capture(bin, ['--version']) !== `wasm-bindgen ${version}`) {
    // --locked fails for this crate (its lockfile pins a version the registry lacks). ~5 minutes.
    log(`installing wasm-bindgen-cli ${version} into ${dirname(dirname(bin))} (one time, ~5 min)`);
    run('cargo', ['install', 'wasm-bindgen-cli', '--version', version, '--root', dirname(dirname(bin))]);
  }

  installDebianPackages();

  if (!existsSync(h2specBin())) {
    log(`installing h2spec (${H2SPEC_MODULE}) with go install`);
    run('go', ['install', H2SPEC_MODULE], { env: { ...process.env, GOBIN: dirname(h2specBin()) } });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) setup();
