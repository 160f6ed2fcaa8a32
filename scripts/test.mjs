// `npm test`: everything a change must pass, from a fresh clone. Builds first (installing what is
// missing), then Rust format/lint/tests, TypeScript format/lint/types, and the vitest suites.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from './build.mjs';
import { log, root, run } from './tools.mjs';

build();
const wasm = join(root, 'wasm');
const bin = join(root, 'node_modules/.bin');

log('rust: fmt, clippy, tests');
run('cargo', ['fmt', '--check'], { cwd: wasm });
run('cargo', ['clippy', '--release', '--target', 'wasm32-unknown-unknown', '--', '-D', 'warnings'], { cwd: wasm });
run('cargo', ['clippy', '--release', '--all-targets', '--', '-D', 'warnings'], { cwd: wasm });
// Debug build on purpose: overflow checks on, so the fuzz tests catch arithmetic that would wrap
// silently in the release wasm.
const cargo = spawnSync('cargo', ['test'], { cwd: wasm, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
process.stdout.write(cargo.stdout);
if (cargo.status !== 0) process.exit(1);
let passed = 0;
let failed = 0;
for (const m of cargo.stdout.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) {
  passed += Number(m[1]);
  failed += Number(m[2]);
}

log('typescript: prettier, eslint, tsc');
run(join(bin, 'prettier'), ['--check', '--log-level', 'warn', '.']);
run(join(bin, 'eslint'), ['.']);
run(join(bin, 'tsc'), ['-p', 'tsconfig.json']);

log('vitest');
const reportFolder = mkdtempSync(join(tmpdir(), 'wirespeed-test-'));
const report = join(reportFolder, 'vitest.json');
const vitest = spawnSync(join(bin, 'vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
  cwd: root,
  stdio: 'inherit',
});
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests + (json.numTotalTestSuites > 0 && json.success === false && json.numFailedTests === 0 ? 1 : 0);
}
rmSync(reportFolder, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);
