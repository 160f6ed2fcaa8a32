// One result file: its machine, and per benchmark group a chart and a ratio table.
import { useMemo } from 'react';
import type { CaseResult, ResultFile } from '../../../bench/harness/types.js';
import type { ResultSummary } from '../api.js';
import { GroupChart } from '../charts/GroupChart.js';
import { download } from '../export.js';
import { useResult } from '../use-result.js';
import { toHash } from '../view-state.js';
import { RunPicker, type PickerRun } from './RunPicker.js';
import { formatNs } from '../../../bench/harness/format.js';

function groupsOf(cases: CaseResult[]): [string, CaseResult[]][] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    const key = `${c.suite} / ${c.group}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups];
}

export function RatioTable({ cases }: { cases: CaseResult[] }) {
  const baseline = cases.find((c) => c.baseline);
  return (
    <table>
      <thead>
        <tr>
          <th>implementation</th>
          <th className="num">median</th>
          <th className="num">95% CI</th>
          <th className="num">p99</th>
          <th className="num">× baseline</th>
        </tr>
      </thead>
      <tbody>
        {cases.map((c) => {
          const ratio = baseline ? c.stats.median / baseline.stats.median : NaN;
          return (
            <tr key={c.impl}>
              <td>{c.impl}</td>
              <td className="num">{formatNs(c.stats.median)}</td>
              <td className="num">
                {formatNs(c.stats.ciLow)}–{formatNs(c.stats.ciHigh)}
              </td>
              <td className="num">{formatNs(c.stats.p99)}</td>
              <td className={`num ${ratio < 1 ? 'faster' : ratio > 1 ? 'slower' : ''}`}>{Number.isNaN(ratio) ? '' : ratio.toFixed(3)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A chart and a ratio table per benchmark group (also while a run is still adding cases). */
export function ResultGroups({ cases }: { cases: CaseResult[] }) {
  const groups = useMemo(() => groupsOf(cases), [cases]);
  return groups.map(([name, group]) => (
    <section className="card" key={name}>
      <h2>{name}</h2>
      <GroupChart cases={group} />
      <RatioTable cases={group} />
    </section>
  ));
}

export function ResultBody({ result }: { result: ResultFile }) {
  const f = result.fingerprint;
  return (
    <>
      <p className="muted">
        {f.cpuModel}, {f.cores} cores, {(f.memoryBytes / 2 ** 30).toFixed(0)} GiB, {f.os}, {f.runtime} {f.runtimeVersion}
        {f.crossOriginIsolated === false ? ' (not cross-origin isolated: coarse timers)' : ''}, commit{' '}
        {f.gitCommit?.slice(0, 8) ?? 'unknown'}
        {result.options.quick ? ' — quick run (smoke test, not for publishing)' : ''}
      </p>
      <ResultGroups cases={result.cases} />
    </>
  );
}

/** A stored run as the run picker lists it. */
export function summaryRun(r: ResultSummary): PickerRun {
  const notes = [r.quick ? 'quick' : '', r.filtered ? 'filtered' : ''].filter(Boolean);
  return {
    key: r.name,
    machine: r.machine,
    suites: r.suites,
    createdAt: r.createdAt,
    detail: `${r.name} · ${r.cases} cases${notes.length ? ` · ${notes.join(', ')}` : ''}`,
  };
}

export function ResultView({
  list,
  run,
  suite,
  onSelect,
}: {
  list: ResultSummary[];
  run: string | null;
  /** Only this suite's groups (the overview links to one suite of a run). */
  suite?: string;
  onSelect: (name: string) => void;
}) {
  const name = run ?? list[0]?.name ?? null;
  const { file: result, error } = useResult(name);
  const pickerRuns = useMemo(() => list.map(summaryRun), [list]);

  if (list.length === 0) {
    return (
      <div className="card empty">
        No results yet — run <code>npx wirespeed bench --push {location.origin}</code>, run a suite in <a href="#view=run">this browser</a>,
        or add files under <a href="#view=compare">Machines</a>.
      </div>
    );
  }
  return (
    <>
      <div className="card">
        <RunPicker runs={pickerRuns} value={name} onChange={onSelect} label="Result file" />{' '}
        {result && (
          <button type="button" onClick={() => download(name!, new Blob([JSON.stringify(result, null, 1)], { type: 'application/json' }))}>
            Download JSON
          </button>
        )}
        {suite && (
          <p className="muted small">
            Only the {suite} suite of this run — <a href={toHash({ view: 'results', run: name })}>show every suite</a>
          </p>
        )}
        {error && (
          <p role="alert">
            Could not load {name}: {error}
          </p>
        )}
      </div>
      {result && <ResultBody result={suite ? { ...result, cases: result.cases.filter((c) => c.suite === suite) } : result} />}
    </>
  );
}
