import { useEffect, useMemo, useState } from 'react';
import type { CaseResult, ResultFile } from '../../bench/harness/types.js';
import { getResult, listResults, type ResultSummary } from './api.js';
import { GroupChart } from './GroupChart.js';

function groupsOf(result: ResultFile): [string, CaseResult[]][] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of result.cases) {
    const key = `${c.suite} / ${c.group}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups];
}

function RatioTable({ cases }: { cases: CaseResult[] }) {
  const baseline = cases.find((c) => c.baseline);
  return (
    <table>
      <thead>
        <tr>
          <th>implementation</th>
          <th>median ns</th>
          <th>95% CI</th>
          <th>p99</th>
          <th>× baseline</th>
        </tr>
      </thead>
      <tbody>
        {cases.map((c) => {
          const ratio = baseline ? c.stats.median / baseline.stats.median : NaN;
          return (
            <tr key={c.impl}>
              <td>{c.impl}</td>
              <td className="num">{c.stats.median.toFixed(1)}</td>
              <td className="num">
                {c.stats.ciLow.toFixed(1)}–{c.stats.ciHigh.toFixed(1)}
              </td>
              <td className="num">{c.stats.p99.toFixed(1)}</td>
              <td className={`num ${ratio < 1 ? 'faster' : ratio > 1 ? 'slower' : ''}`}>{Number.isNaN(ratio) ? '' : ratio.toFixed(3)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function App() {
  const [list, setList] = useState<ResultSummary[] | null>(null);
  const [selected, setSelected] = useState<string>('');
  const [result, setResult] = useState<ResultFile | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    listResults()
      .then((items) => {
        setList(items);
        if (items[0]) setSelected(items[0].name);
      })
      .catch((e: unknown) => setError(String(e)));
  }, []);

  useEffect(() => {
    if (!selected) return;
    setResult(null);
    getResult(selected)
      .then(setResult)
      .catch((e: unknown) => setError(String(e)));
  }, [selected]);

  const groups = useMemo(() => (result ? groupsOf(result) : []), [result]);

  return (
    <>
      <header>
        <h1>wirespeed benchmarks</h1>
        <span className="muted">results of `wirespeed bench` on this server</span>
      </header>
      <main>
        {error && <div className="card">Could not load results: {error}</div>}
        {list === null && !error && <div className="card empty">Loading results…</div>}
        {list?.length === 0 && (
          <div className="card empty">
            No results yet — run <code>npm run bench -- --quick</code> (it writes into <code>bench/results/</code>) and reload.
          </div>
        )}
        {list && list.length > 0 && (
          <div className="card">
            <label>
              Result file{' '}
              <select value={selected} onChange={(e) => setSelected(e.target.value)} aria-label="result file">
                {list.map((r) => (
                  <option key={r.name} value={r.name}>
                    {r.createdAt} · {r.suites.join(', ')} · {r.runtime} {r.runtimeVersion} · {r.cpuModel}
                  </option>
                ))}
              </select>
            </label>
            {result && (
              <p className="muted">
                {result.fingerprint.cpuModel}, {result.fingerprint.cores} cores, {(result.fingerprint.memoryBytes / 2 ** 30).toFixed(0)} GiB,{' '}
                {result.fingerprint.os}, {result.fingerprint.runtime} {result.fingerprint.runtimeVersion}, commit{' '}
                {result.fingerprint.gitCommit?.slice(0, 8) ?? 'unknown'}
                {result.options.quick ? ' — quick run (smoke test, not for publishing)' : ''}
              </p>
            )}
          </div>
        )}
        {groups.map(([name, cases]) => (
          <section className="card" key={name}>
            <h2>{name}</h2>
            <GroupChart cases={cases} />
            <RatioTable cases={cases} />
          </section>
        ))}
      </main>
    </>
  );
}
