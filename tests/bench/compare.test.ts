import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRuns, NothingToCompareError, toMarkdown, toText } from '../../bench/harness/compare.js';
import { checkResultFile } from '../../bench/harness/schema.js';
import { summarize } from '../../bench/harness/stats.js';
import type { CaseResult, Fingerprint, ResultFile } from '../../bench/harness/types.js';

const FINGERPRINT: Fingerprint = {
  cpuModel: 'Test CPU',
  cores: 2,
  memoryBytes: 1,
  os: 'Linux',
  arch: 'x64',
  runtime: 'node',
  runtimeVersion: '20',
  userAgent: 'test',
  wasm: { simd: true, threads: true, bulkMemory: true, referenceTypes: true },
  gitCommit: null,
  timerResolutionNs: 1,
};

const run = (cases: Record<string, number[]>, fingerprint = FINGERPRINT): ResultFile => ({
  schema: 'wirespeed-bench/1',
  createdAt: '2026-11-22T00:00:00Z',
  fingerprint,
  options: { quick: false, isolate: false, warmupMs: 0, minTimeMs: 0 },
  cases: Object.entries(cases).map(([impl, samples]): CaseResult => ({
    suite: 's',
    group: 'g',
    impl,
    baseline: false,
    unit: 'ns/op',
    samples,
    stats: summarize(samples),
  })),
});

const around = (center: number) => Array.from({ length: 30 }, (_, i) => center + (i % 5) - 2);

describe('compare', () => {
  it('calls a significant, large difference on the same machine faster or slower', () => {
    const c = compareRuns([
      { label: 'a', file: run({ fast: around(100), same: around(100), slow: around(100), tiny: around(100) }) },
      { label: 'b', file: run({ fast: around(50), same: around(100), slow: around(200), tiny: around(102) }) },
    ]);
    const verdicts = Object.fromEntries(c.cases.map((cc) => [cc.key.split(' / ')[2], cc.cells[1]!.verdict]));
    expect(verdicts).toEqual({ fast: 'faster', same: '~', slow: 'slower', tiny: '~' });
    expect(c.cases[0].cells[1]!.ratio).toBeCloseTo(0.5, 2);
    expect(c.geomean[1]).toBeCloseTo(Math.pow(0.5 * 1 * 2 * 1.02, 1 / 4), 2);
  });

  it('refuses to call a difference across machines a regression', () => {
    const other = { ...FINGERPRINT, cpuModel: 'Other CPU' };
    const c = compareRuns([
      { label: 'a', file: run({ x: around(100) }) },
      { label: 'b', file: run({ x: around(300) }, other) },
    ]);
    expect(c.cases[0].cells[1]!.verdict).toBe('cross-machine');
    expect(c.cases[0].cells[1]!.ratio).toBeCloseTo(3, 1);
    expect(toMarkdown(c)).toContain('(other machine)');
  });

  it('gives a quick run no verdict, only its ratio, and says why', () => {
    const quick = { ...run({ x: around(300) }), options: { quick: true, isolate: false, warmupMs: 60, minTimeMs: 120 } };
    const c = compareRuns([
      { label: 'a', file: run({ x: around(100) }) },
      { label: 'b', file: quick },
    ]);
    expect(c.cases[0].cells[1]!.verdict).toBe('quick');
    expect(c.cases[0].cells[1]!.ratio).toBeCloseTo(3, 1);
    expect(c.warnings.join()).toMatch(/no verdicts for b: it is a --quick run, too short to tell a change from noise/);
    expect(toText(c)).toContain('3.000x (quick)');
    // A quick baseline takes the verdicts away from every other run too.
    const fromQuick = compareRuns([
      { label: 'b', file: quick },
      { label: 'a', file: run({ x: around(100) }) },
    ]);
    expect(fromQuick.cases[0].cells[1]!.verdict).toBe('quick');
  });

  it('two runs with no case in common is an error that says what each holds', () => {
    const other = { ...run({ x: around(100) }), cases: run({ x: around(100) }).cases.map((c) => ({ ...c, suite: 'router' })) };
    expect(() =>
      compareRuns([
        { label: 'a.json', file: run({ x: around(100) }) },
        { label: 'b.json', file: other },
      ]),
    ).toThrow(new NothingToCompareError('b.json and a.json share no case (b.json: router; a.json: s)'));
  });

  it('shows times in the unit that fits', () => {
    const c = compareRuns([
      { label: 'a', file: run({ x: around(100), y: around(25_000) }) },
      { label: 'b', file: run({ x: around(100), y: around(25_000) }) },
    ]);
    expect(toText(c)).toMatch(/100\.0 ns \[/);
    expect(toText(c)).toMatch(/25\.00 µs \[/);
  });

  it('warns when a side has fewer than 4 samples', () => {
    const c = compareRuns([
      { label: 'a', file: run({ x: [1, 2, 3] }) },
      { label: 'b', file: run({ x: [1, 2, 3] }) },
    ]);
    expect(c.warnings.join()).toContain('fewer than 4 samples');
  });

  it('the CLI compares two real quick runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirespeed-compare-'));
    const cli = new URL('../../dist/bench/cli.js', import.meta.url).pathname;
    for (const name of ['a', 'b']) {
      execFileSync(
        process.execPath,
        [cli, 'bench', '--suite', 'router', '--quick', '--filter', 'static, 10 routes', '--out', join(dir, `${name}.json`)],
        { stdio: 'ignore' },
      );
    }
    const out = execFileSync(process.execPath, [cli, 'compare', join(dir, 'a.json'), join(dir, 'b.json'), '--format', 'markdown'], {
      encoding: 'utf8',
    });
    expect(out).toContain('| case | a.json (baseline) | b.json |');
    expect(out).toContain('router / static, 10 routes / wirespeed');
    expect(out).toContain('geometric mean of ratios');
    // Two quick runs: ratios, no verdicts (48 of 96 rows were "significant" noise before).
    expect(out).not.toMatch(/faster|SLOWER/);
    expect(out).toContain('(quick)');
    const json = JSON.parse(
      execFileSync(process.execPath, [cli, 'compare', join(dir, 'a.json'), join(dir, 'b.json'), '--format', 'json'], { encoding: 'utf8' }),
    );
    expect(json.runs[1].sameMachineAsBaseline).toBe(true);
    expect(json.cases.length).toBeGreaterThanOrEqual(6);
  });
});

describe('reading a result file', () => {
  it("drops a latency percentile of 0 from a wrk run (wrk had none), keeping every other metric and autocannon's", () => {
    const file = run({ wrk: [1, 2, 3, 4], autocannon: [1, 2, 3, 4] });
    file.cases[0]!.metrics = { latencyP50Ms: 0.075, latencyP99Ms: 0, latencyP90Ms: 0, requestsPerSec: 1000, errors: 0, clientWrk: 1 };
    // autocannon gives whole milliseconds: its 0 is under 1 ms.
    file.cases[1]!.metrics = { latencyP50Ms: 0, latencyP99Ms: 1, errors: 0, clientWrk: 0 };
    const read = checkResultFile(JSON.parse(JSON.stringify(file)));
    expect(read.cases.map((c) => c.metrics)).toEqual([
      { latencyP50Ms: 0.075, requestsPerSec: 1000, errors: 0, clientWrk: 1 },
      { latencyP50Ms: 0, latencyP99Ms: 1, errors: 0, clientWrk: 0 },
    ]);
  });
});
