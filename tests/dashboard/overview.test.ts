// The dashboard's choices without a browser: which runs the overview and the reports are shown
// from, the overview's ratios, which series a chart draws and how its values read, how the run
// picker groups and searches.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CaseResult, ResultFile } from '../../bench/harness/types.js';
import { REPORTS } from '../../bench/reports/index.js';
import { overviewRuns, speedupWords, suiteOverview } from '../../bench/reports/overview.js';
import type { ResultSummary } from '../../dashboard/src/api.js';
import { formatValue, MAX_SERIES, pickSeries, seriesColours, OURS_COLOUR } from '../../dashboard/src/charts/style.js';
import { mergeSet, reportSources, setRuns } from '../../dashboard/src/report-sources.js';
import { groupRuns } from '../../dashboard/src/views/RunPicker.js';

const stored = (name: string) => JSON.parse(readFileSync(new URL(`../../docs/results/${name}`, import.meta.url), 'utf8')) as ResultFile;

function summary(name: string, createdAt: string, suiteCases: Record<string, number>, more: Partial<ResultSummary> = {}): ResultSummary {
  return {
    name,
    createdAt,
    cpuModel: 'CPU',
    cores: 2,
    os: 'Linux',
    arch: 'x64',
    runtime: 'node',
    runtimeVersion: '20',
    gitCommit: null,
    quick: false,
    filtered: false,
    suites: Object.keys(suiteCases),
    cases: Object.values(suiteCases).reduce((a, b) => a + b, 0),
    suiteCases,
    machine: 'CPU · 2 cores',
    fills: {},
    ...more,
  };
}

function result(group: string, impl: string, median: number, baseline = false, suite = 'parser'): CaseResult {
  return {
    suite,
    group,
    impl,
    baseline,
    unit: 'ns/op',
    samples: [median],
    stats: { n: 1, min: median, max: median, mean: median, median, ciLow: median, ciHigh: median, p75: median, p99: median, stddev: 0 },
  };
}

describe('overview', () => {
  it('picks the newest full run of each suite: not quick, not filtered, not a small part of the suite', () => {
    const runs = [
      summary('old-full.json', '2026-01-01', { parser: 40, router: 90 }),
      summary('part.json', '2026-01-03', { parser: 9 }),
      summary('filtered.json', '2026-01-04', { parser: 40 }, { filtered: true }),
      summary('quick.json', '2026-01-05', { parser: 44, hpack: 10 }, { quick: true }),
      summary('new-full.json', '2026-01-02', { parser: 36 }),
    ];
    const chosen = overviewRuns(runs);
    expect(chosen.get('parser')?.name).toBe('new-full.json'); // 36 ≥ 0.8 × 40; the 9-case run is a part
    expect(chosen.get('router')?.name).toBe('old-full.json');
    expect(chosen.get('hpack')?.name).toBe('quick.json'); // no full run: the newest of any kind
  });

  it('compares the headline case with the baseline and the fastest peer that is not a ceiling, as a geometric mean', () => {
    const file: ResultFile = {
      ...stored('http2-micro.json'),
      cases: [
        result('a', 'llhttp', 400, true),
        result('a', 'wirespeed', 100),
        result('a', 'wirespeed (lazy, no strings)', 10), // a variant: not the headline
        result('a', 'undici', 200),
        result('a', 'raw transport, same bytes', 50), // a ceiling: not a peer
        result('b', 'llhttp', 100, true),
        result('b', 'wirespeed', 200),
        result('b', 'undici', 50),
      ],
    };
    const [row] = suiteOverview(file, 'parser');
    expect(row).toMatchObject({ suite: 'parser', flavor: '', impls: ['wirespeed'], groups: 2 });
    expect(row.baseline!.speedup).toBeCloseTo(Math.sqrt(4 * 0.5), 10);
    expect(row.baseline).toMatchObject({ wins: 1, groups: 2, peers: ['llhttp'] });
    expect(row.best!.speedup).toBeCloseTo(Math.sqrt(2 * 0.25), 10);
    expect(row.best).toMatchObject({ wins: 1, peers: ['undici'] });
    expect([speedupWords(2), speedupWords(0.8)]).toEqual(['2.00× faster', '1.25× slower']);
  });

  it('gives the server suites a row per runtime wirespeed ran on', () => {
    const rows = suiteOverview(stored('server-real-apps.json'), 'server');
    expect(rows.map((r) => r.flavor)).toEqual(['Node', 'Deno']);
    expect(rows[0].impls).toContain('wirespeed-node');
    expect(rows[1].impls).toContain('wirespeed-deno');
    for (const row of rows) expect(row.best!.peers.some((p) => p.startsWith('raw'))).toBe(false);
  });
});

describe('report sources', () => {
  const servers = REPORTS.servers;
  const h1 = servers.sections.flatMap((s, i) => (s.suites.includes('server') ? [i] : []));
  const h2 = servers.sections.flatMap((s, i) => (s.suites.includes('http2') ? [i] : []));
  const list = [
    summary('h2-micro.json', '2026-01-05', { http2: 4 }), // fills nothing of the servers report
    summary('h1.json', '2026-01-04', { server: 50 }, { fills: { servers: h1 } }),
    summary('h2-load.json', '2026-01-03', { http2: 20 }, { fills: { servers: h2 } }),
    summary('h1-quick.json', '2026-01-06', { server: 4 }, { quick: true, fills: { servers: h1 } }),
    summary('h1-elsewhere.json', '2026-01-07', { server: 50 }, { machine: 'Other', fills: { servers: h1 } }),
  ];

  it('pairs runs of one machine that fill the report, full before quick, and never offers a run without its cases', () => {
    const sets = reportSources(list, 'servers', servers);
    expect(sets[0].key).toBe('h1.json,h2-load.json');
    expect(sets[0].missing).toEqual([]);
    expect(sets.map((s) => s.key)).toEqual(['h1.json,h2-load.json', 'h1-quick.json,h2-load.json', 'h1-elsewhere.json,']);
    expect(sets[2].missing).toEqual(h2); // no HTTP/2 run on that machine
    expect(sets.flatMap((s) => setRuns(s).map((r) => r.name))).not.toContain('h2-micro.json');
  });

  it('merges each suite from the run that provides it', () => {
    const [set] = reportSources(list, 'servers', servers);
    const files = new Map([
      ['h1.json', { ...stored('server-real-apps.json') }],
      ['h2-load.json', { ...stored('http2.json'), cases: [...stored('http2.json').cases, ...stored('server.json').cases] }],
    ]);
    const merged = mergeSet(set, files);
    expect(merged.cases.filter((c) => c.suite === 'server')).toEqual(files.get('h1.json')!.cases.filter((c) => c.suite === 'server'));
    expect(merged.cases.filter((c) => c.suite === 'http2')).toEqual(stored('http2.json').cases);
  });

  it('takes a section that reads two suites from a run of each, never a run of one suite for the other', () => {
    // The protocol section reads HTTP/1.1 rows from `server` and HTTP/2 rows from `http2`: a newer
    // server-only run fills it too, but it must provide only the server cases.
    const protocol = REPORTS['h1-vs-h2'];
    const runs = [
      summary('h2.json', '2026-01-03', { http2: 20 }, { fills: { 'h1-vs-h2': [0] } }),
      summary('h1-newer.json', '2026-01-04', { server: 38 }, { fills: { 'h1-vs-h2': [0] } }),
    ];
    const [set] = reportSources(runs, 'h1-vs-h2', protocol);
    expect(set.key).toBe('h1-newer.json,h2.json');
    expect(set.missing).toEqual([]);
    const merged = mergeSet(
      set,
      new Map([
        ['h1-newer.json', stored('server-real-apps.json')],
        ['h2.json', stored('http2.json')],
      ]),
    );
    expect(new Set(merged.cases.map((c) => c.suite))).toEqual(new Set(['server', 'http2']));
    // Loaded req/s: both protocols' columns (node:http, wirespeed; node:http2, wirespeed-h2) have numbers.
    const loaded = protocol.sections[0].table(merged).rows.find((row) => row.group === 'concurrent: req/s')!;
    expect(loaded.cells.map((cell) => cell !== '—')).toEqual([true, true, true, true]);
  });
});

describe('charts', () => {
  it('draws wirespeed and the best peers, at most MAX_SERIES, the rest left to the table', () => {
    const impls = ['wirespeed', ...Array.from({ length: 10 }, (_, i) => `peer${i}`), 'wirespeed-deno'];
    // Lower is better; peer i is (i + 2)× the best.
    const values = impls.map((impl, i) => (impl.startsWith('wirespeed') ? [100, 100] : [100 * (i + 1), 100 * (i + 1)]));
    const { shown, hidden } = pickSeries(impls, values, false);
    expect(shown).toHaveLength(MAX_SERIES);
    expect(shown).toContain(0);
    expect(shown).toContain(11);
    expect(shown.map((i) => impls[i])).toEqual(['wirespeed', 'peer0', 'peer1', 'peer2', 'peer3', 'peer4', 'peer5', 'wirespeed-deno']);
    expect(hidden.map((i) => impls[i])).toEqual(['peer6', 'peer7', 'peer8', 'peer9']);
    // Higher is better: the highest peers are kept.
    expect(pickSeries(impls, values, true).shown.map((i) => impls[i])).toContain('peer9');
  });

  it('colours wirespeed strong and every peer apart, and writes values in the unit that fits', () => {
    const colours = seriesColours(['node-http', 'wirespeed-node', 'hono-node', 'wirespeed-deno']);
    expect(colours[1]).toBe(OURS_COLOUR);
    expect(colours[3]).toMatch(/^#[0-9a-f]{6}$/i); // wirespeed's own: opaque blues
    expect(colours[0]).toMatch(/^#[0-9a-f]{8}$/i); // peers: muted
    expect(new Set(colours).size).toBe(4);
    expect(formatValue(1234, 'ns per operation (lower is better)')).toBe('1.23 µs');
    expect(formatValue(82100, 'req/s (higher is better)')).toBe('82.1k');
    expect(formatValue(0.84, 'p99 latency, ms (lower is better)')).toBe('840.00 µs');
    expect(formatValue(11.34, 'server CPU µs per request (lower is better)')).toBe('11.3');
    expect(formatValue(2048, 'bytes per operation')).toBe('2.0 KiB');
  });
});

describe('run picker', () => {
  const runs = [
    { key: 'a', machine: 'EPYC', suites: ['parser'], createdAt: '2026-01-01', detail: 'a.json' },
    { key: 'b', machine: 'EPYC', suites: ['parser'], createdAt: '2026-01-03', detail: 'b.json' },
    { key: 'c', machine: 'M3', suites: ['router'], createdAt: '2026-01-02', detail: 'c.json · quick' },
  ];
  it('groups by machine and suites, newest first, and narrows by every word searched', () => {
    expect(groupRuns(runs, '')).toEqual([
      ['EPYC — parser', [runs[1], runs[0]]],
      ['M3 — router', [runs[2]]],
    ]);
    expect(groupRuns(runs, 'm3 QUICK')).toEqual([['M3 — router', [runs[2]]]]);
    expect(groupRuns(runs, 'epyc router')).toEqual([]);
  });
});
