// Dashboard logic and components without a browser: the URL state, CSV export, the comparison
// table's marks and colours (rendered to HTML by react-dom/server).
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../bench/harness/compare.js';
import type { ResultFile } from '../../bench/harness/types.js';
import { toCsv } from '../../dashboard/src/export.js';
import { parseHash, toHash, type ViewState } from '../../dashboard/src/view-state.js';
import { formatNs } from '../../bench/harness/format.js';
import { CompareTable, factorColour } from '../../dashboard/src/views/CompareTable.js';

const reference = JSON.parse(readFileSync(new URL('../../docs/results/server.json', import.meta.url), 'utf8')) as ResultFile;

describe('view state in the URL hash', () => {
  it.each<ViewState>([
    { view: 'overview' },
    { view: 'results', run: null },
    { view: 'results', run: 'r.json', suite: 'parser' },
    { view: 'results', run: 'a b+c.json' },
    { view: 'compare', runs: ['x.json', 'y.json', 'z.json'], base: 2 },
    { view: 'run' },
    { view: 'report', report: 'micro', run: null },
    { view: 'report', report: 'micro', run: 'r.json' },
  ])('round-trips %j', (state) => {
    expect(parseHash(toHash(state))).toEqual(state);
  });

  it('falls back to safe values for a hand-edited link', () => {
    expect(parseHash('')).toEqual({ view: 'overview' });
    expect(parseHash('#view=nonsense')).toEqual({ view: 'overview' });
    expect(parseHash('#view=compare&runs=a.json,,b.json&base=7')).toEqual({ view: 'compare', runs: ['a.json', 'b.json'], base: 0 });
    expect(parseHash('#view=compare&runs=a.json,b.json&base=-1')).toMatchObject({ base: 0 });
  });
});

describe('exports', () => {
  it('writes RFC 4180 CSV', () => {
    expect(
      toCsv([
        ['case', 'value'],
        ['a, b', 'say "hi"'],
        ['line\nbreak', 3],
      ]),
    ).toBe('case,value\r\n"a, b","say ""hi"""\r\n"line\nbreak",3\r\n');
  });
});

describe('comparison table', () => {
  const slower: ResultFile = {
    ...reference,
    fingerprint: { ...reference.fingerprint },
    cases: reference.cases.map((c) => ({
      ...c,
      samples: c.samples.map((s) => s * 1.5),
      stats: { ...c.stats, median: c.stats.median * 1.5 },
    })),
  };

  it('marks same-machine differences with a verdict and colours by factor to the best', () => {
    const html = renderToStaticMarkup(
      <CompareTable
        comparison={compareRuns([
          { label: 'before', file: reference },
          { label: 'after', file: slower },
        ])}
      />,
    );
    expect(html).toContain('before (baseline)');
    expect(html).toContain('×1.50');
    // Load cases have 1–3 samples: too few for significance, so "~" rather than a false verdict.
    expect(html).toContain('>~<');
    expect(html).not.toContain('x-machine');
    expect(html).toContain(`background:${factorColour(1)}`);
    expect(html).toContain(`background:${factorColour(1.5)}`);
    expect(html).toMatch(/geometric mean of ratios<\/td><td class="num">×1\.000<\/td><td class="num">×1\.500/);
  });

  it('gives runs of another machine a ratio, never a verdict', () => {
    const other = { ...slower, fingerprint: { ...slower.fingerprint, cpuModel: 'Elsewhere' } };
    const html = renderToStaticMarkup(
      <CompareTable
        comparison={compareRuns([
          { label: 'here', file: reference },
          { label: 'there', file: other },
        ])}
      />,
    );
    expect(html).toContain('x-machine');
    expect(html).not.toMatch(/faster|slower/);
  });

  it('formats times and colours sensibly', () => {
    expect([formatNs(12.34), formatNs(1234), formatNs(2.5e6)]).toEqual(['12.3 ns', '1.23 µs', '2.50 ms']);
    expect(factorColour(1)).toBe('hsl(120 70% 88%)');
    expect(factorColour(5)).toBe('hsl(0 70% 88%)');
  });
});
