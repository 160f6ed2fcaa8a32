// Machines: every stored result, uploads, and the comparison of the runs ticked: a ratio table
// with significance marks, a chart per benchmark group, a trend line for runs of one machine.
import { useEffect, useMemo, useState } from 'react';
import { compareRuns, comparisonRows, sameMachine } from '../../../bench/harness/compare.js';
import type { CaseResult, ResultFile } from '../../../bench/harness/types.js';
import { getResult, type ResultSummary } from '../api.js';
import { CompareChart, type RunCases } from '../charts/CompareChart.js';
import { TrendChart } from '../charts/TrendChart.js';
import { download, toCsv } from '../export.js';
import { CompareTable } from './CompareTable.js';
import { MachinesTable, type Selection } from './MachinesTable.js';
import { Upload } from './Upload.js';

/** A short, unique label per run for tables and legends. */
function runLabel(file: ResultFile, index: number): string {
  const f = file.fingerprint;
  return `${index + 1}. ${f.cpuModel.split(' ').slice(0, 3).join(' ')} · ${f.runtime} ${f.runtimeVersion} · ${file.createdAt.slice(0, 10)}`;
}

function groupsOf(files: ResultFile[], labels: string[]) {
  const groups = new Map<string, { impls: string[]; runs: RunCases[] }>();
  files.forEach((file, i) => {
    for (const c of file.cases) {
      const key = `${c.suite} / ${c.group}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { impls: [], runs: labels.map((label) => ({ label, cases: new Map<string, CaseResult>() })) }));
      if (!group.impls.includes(c.impl)) group.impls.push(c.impl);
      group.runs[i].cases.set(c.impl, c);
    }
  });
  return [...groups];
}

export function CompareView({
  list,
  selection,
  onSelect,
  onUploaded,
}: {
  list: ResultSummary[];
  selection: Selection;
  onSelect: (s: Selection) => void;
  onUploaded: (names: string[]) => void;
}) {
  const [files, setFiles] = useState<Map<string, ResultFile>>(new Map());
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const missing = selection.runs.filter((name) => !files.has(name));
    if (missing.length === 0) return;
    Promise.all(missing.map(async (name) => [name, await getResult(name)] as const))
      .then((loaded) => setFiles((old) => new Map([...old, ...loaded])))
      .catch((e: unknown) => setError(String(e)));
  }, [selection.runs, files]);

  const chosen = useMemo(
    () => selection.runs.map((name) => files.get(name)).filter((f): f is ResultFile => f !== undefined),
    [selection.runs, files],
  );
  const ready = selection.runs.length >= 2 && chosen.length === selection.runs.length;
  const labels = useMemo(() => chosen.map(runLabel), [chosen]);
  const comparison = useMemo(
    () =>
      ready
        ? compareRuns(
            chosen.map((file, i) => ({ label: labels[i], file })),
            { baseline: selection.base },
          )
        : null,
    [ready, chosen, labels, selection.base],
  );
  const groups = useMemo(() => (ready ? groupsOf(chosen, labels) : []), [ready, chosen, labels]);
  const unknown = selection.runs.filter((name) => !list.some((r) => r.name === name));
  const oneMachine = ready && chosen.length >= 3 && chosen.every((f) => sameMachine(f.fingerprint, chosen[0].fingerprint));

  return (
    <>
      <section className="card">
        <h2>Machines</h2>
        <Upload onUploaded={onUploaded} />
        {list.length === 0 ? (
          <p className="empty">
            No results yet — run <code>npx wirespeed bench --push {location.origin}</code> on any machine, or drop result files above.
          </p>
        ) : (
          <MachinesTable list={list} selection={selection} onChange={onSelect} />
        )}
        {unknown.length > 0 && <p role="alert">This link names results the server does not have: {unknown.join(', ')}</p>}
        {selection.runs.length < 2 && list.length > 0 && <p className="muted">Tick two or more runs to compare them.</p>}
      </section>
      {error && (
        <div className="card" role="alert">
          Could not load a result: {error}
        </div>
      )}
      {selection.runs.length >= 2 && !ready && !error && unknown.length === 0 && <div className="card empty">Loading results…</div>}
      {comparison && (
        <section className="card">
          <div className="toolbar">
            <h2>Comparison</h2>
            <button
              type="button"
              onClick={() => download('comparison.csv', new Blob([toCsv(comparisonRows(comparison))], { type: 'text/csv' }))}
            >
              CSV
            </button>
          </div>
          <p className="muted small">
            Median per case, ×ratio to the baseline, Mann-Whitney U at α = 0.05 with a ±5% noise band (as <code>wirespeed compare</code>);
            colour: factor to the fastest run of the row. Runs on different machines get a ratio, never a verdict.
          </p>
          {[...new Set(comparison.warnings)].length > 0 && (
            <details>
              <summary>{new Set(comparison.warnings).size} warnings</summary>
              <ul>
                {[...new Set(comparison.warnings)].map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </details>
          )}
          <CompareTable comparison={comparison} />
          {oneMachine && (
            <>
              <h3>Trend on this machine</h3>
              <TrendChart
                points={chosen.map((f, i) => ({
                  label: `${f.fingerprint.gitCommit?.slice(0, 8) ?? '?'} ${f.createdAt.slice(0, 10)}`,
                  value: comparison.geomean[i] ?? NaN,
                }))}
              />
            </>
          )}
        </section>
      )}
      {groups.map(([name, group]) => (
        <section className="card" key={name}>
          <h2>{name}</h2>
          <CompareChart title={name} impls={group.impls} runs={group.runs} />
        </section>
      ))}
    </>
  );
}
