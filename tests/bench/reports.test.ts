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
    expect(table.impls).toEqual([...new Set(file.cases.map((c) => c.impl))]);
    const group = file.cases[0].group;
    const row = table.rows.find((r) => r.group === group)!;
    file.cases
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
