// The landing view: the newest full run of each suite, and in each how wirespeed compares with the
// baseline (llhttp, hpack.js, node:http, ...) and with the fastest peer, as the geometric mean over
// the suite's groups. Each row links to the run it comes from.
import { useMemo } from 'react';
import { overviewRuns, speedupWords, suiteOverview, type OverviewRow } from '../../../bench/reports/overview.js';
import type { ResultSummary } from '../api.js';
import { OverviewChart } from '../charts/OverviewChart.js';
import { toHash } from '../view-state.js';
import { useResults } from '../use-result.js';

export interface OverviewLine extends OverviewRow {
  run: ResultSummary;
}

function Versus({ row, which }: { row: OverviewRow; which: 'baseline' | 'best' }) {
  const v = row[which];
  if (!v) return <td className="num muted">no peer</td>;
  return (
    <td className="num">
      <span className={v.speedup >= 1 ? 'faster' : 'slower'}>{speedupWords(v.speedup)}</span>
      <div className="muted small">
        than {v.peers.slice(0, 2).join(', ')}
        {v.peers.length > 2 ? ` +${v.peers.length - 2}` : ''} · won {v.wins} of {v.groups}
      </div>
    </td>
  );
}

export function OverviewView({ list }: { list: ResultSummary[] }) {
  const chosen = useMemo(() => overviewRuns(list), [list]);
  const names = useMemo(() => [...new Set([...chosen.values()].map((r) => r.name))], [chosen]);
  const { files, error } = useResults(names);
  const lines = useMemo<OverviewLine[]>(() => {
    if (!files) return [];
    const byName = new Map(names.map((name, i) => [name, files[i]]));
    return [...chosen].flatMap(([suite, run]) => suiteOverview(byName.get(run.name)!, suite).map((row) => ({ ...row, run })));
  }, [files, names, chosen]);

  if (list.length === 0) {
    return (
      <div className="card empty">
        No results yet — run <code>npx wirespeed bench --push {location.origin}</code>, or run the suites in{' '}
        <a href="#view=run">this browser</a>.
      </div>
    );
  }
  return (
    <>
      <section className="card">
        <h2>wirespeed against its peers</h2>
        <p className="muted">
          The newest full run of each suite. Each figure is the geometric mean over the suite's groups of the peer's time divided by
          wirespeed's (its default path: every string made, the runtime's defaults), in the same run; "won" counts the groups where
          wirespeed was faster.
        </p>
        {error && (
          <p role="alert">
            Could not load {names.join(', ')}: {error}
          </p>
        )}
        {lines.length > 0 && <OverviewChart lines={lines} />}
      </section>
      {lines.length > 0 && (
        <section className="card">
          <table className="overview">
            <thead>
              <tr>
                <th>suite</th>
                <th>wirespeed</th>
                <th className="num">against the baseline</th>
                <th className="num">against the fastest peer</th>
                <th>run</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={`${line.suite} ${line.flavor}`} data-suite={line.suite}>
                  <td>
                    <a href={toHash({ view: 'results', run: line.run.name, suite: line.suite })}>
                      {line.suite}
                      {line.flavor ? ` (${line.flavor})` : ''}
                    </a>
                  </td>
                  <td className="small">{line.impls.join(', ')}</td>
                  <Versus row={line} which="baseline" />
                  <Versus row={line} which="best" />
                  <td className="small">
                    {line.run.createdAt.slice(0, 16).replace('T', ' ')} · {line.run.machine}
                    {line.run.quick ? <span className="tag">quick</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
