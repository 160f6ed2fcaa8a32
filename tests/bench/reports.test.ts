// The report tables from a stored run (docs/results/http2.json, a real h2load run): every cell is
// that run's metric, formatted; suites the run lacks are said to be missing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ResultFile } from '../../bench/harness/types.js';
import { REPORTS } from '../../bench/reports/index.js';

const file = JSON.parse(readFileSync(new URL('../../docs/results/http2.json', import.meta.url), 'utf8')) as ResultFile;

describe('reports', () => {
  it('servers: a row per case group, a column per server, cells from the metrics', () => {
    const [, , , rates] = REPORTS.servers.sections;
    const table = rates.table(file);
    const loadCases = file.cases.filter((c) => c.metrics?.requestsPerSec !== undefined);
    expect(table.impls).toEqual([...new Set(loadCases.map((c) => c.impl))]);
    expect(table.rows.map((r) => r.group)).toEqual([...new Set(loadCases.map((c) => c.group))]);
    // The suite's micro cases (no req/s, docs/results/http2-micro.json) are not rows of its load
    // tables: with them the table is the same, and no cell says n/a.
    const micro = JSON.parse(readFileSync(new URL('../../docs/results/http2-micro.json', import.meta.url), 'utf8')) as ResultFile;
    expect(micro.cases.every((c) => c.suite === 'http2' && c.metrics?.requestsPerSec === undefined)).toBe(true);
    expect(rates.table({ ...file, cases: [...micro.cases, ...file.cases] })).toEqual(table);
    expect(rates.table(micro).rows).toEqual([]);
    expect(table.rows.flatMap((r) => r.cells)).not.toContain('n/a');
    const group = loadCases[0].group;
    const row = table.rows.find((r) => r.group === group)!;
    loadCases
      .filter((c) => c.group === group)
      .forEach((c, i) =>
        expect(row.cells[i]).toMatch(new RegExp(`^${(c.metrics!.requestsPerSec / 1000).toFixed(1)}k req/s, [\\d.]+ MiB/s`)),
      );
  });

  it('websocket: round trips/s, latency and CPU per message from the stored websocket run', () => {
    const run = JSON.parse(readFileSync(new URL('../../docs/results/websocket.json', import.meta.url), 'utf8')) as ResultFile;
    const [rates, , costs] = REPORTS.websocket.sections;
    const table = rates.table(run);
    expect(table.impls).toEqual([...new Set(run.cases.map((c) => c.impl))]);
    for (const c of run.cases) {
      const row = table.rows.find((r) => r.group === c.group)!;
      const cell = row.cells[table.impls.indexOf(c.impl)];
      expect(cell, `${c.group} / ${c.impl}`).toMatch(new RegExp(`^${(c.metrics!.requestsPerSec / 1000).toFixed(1)}k round trips/s`));
      const cost = costs.table(run).rows.find((r) => r.group === c.group)!.cells[table.impls.indexOf(c.impl)];
      expect(cost).toBe(`${c.metrics!.serverCpuUsPerReq.toFixed(1)} µs, ${(c.metrics!.peakRssBytes / 2 ** 20).toFixed(1)} MiB`);
    }
    expect(REPORTS.websocket.render(run, 'docs/results/websocket.json')).toContain('## Echo round trips per second');
  });

  it('servers: says which suite a run lacks instead of printing an empty table', () => {
    const markdown = REPORTS.servers.render(file, 'docs/results/http2.json');
    expect(markdown).toContain('_No server cases in this run._');
    expect(markdown).toContain('## HTTP/2 (h2load, h2c): req/s and transfer/s');
  });
});
