// A report of `wirespeed report` shown from the stored runs that have its cases: the same sections
// and cells as the CLI's Markdown (bench/reports), which can be copied as it is, each with a chart
// of the numbers behind its cells. It opens on the newest set of runs that fills every section
// (see report-sources.ts) and never shows a section without cases.
import { useMemo } from 'react';
import { REPORTS } from '../../../bench/reports/index.js';
import type { ResultSummary } from '../api.js';
import { ReportChart } from '../charts/ReportChart.js';
import { download } from '../export.js';
import { mergeSet, reportSources, setRuns, type RunSet } from '../report-sources.js';
import { useResults } from '../use-result.js';
import { RunPicker, type PickerRun } from './RunPicker.js';

/** The set a link names: its key, or one run of it (links made before sets). */
function chosenSet(sets: RunSet[], run: string | null): RunSet | undefined {
  if (!run) return sets[0];
  return (
    sets.find((s) => s.key === run) ??
    sets.find((s) => s.anchor.name === run) ??
    sets.find((s) => setRuns(s).some((r) => r.name === run)) ??
    sets[0]
  );
}

function pickerRun(set: RunSet): PickerRun {
  const runs = setRuns(set);
  const quick = runs.some((r) => r.quick) ? ' · quick' : '';
  const missing = set.missing.length > 0 ? ` · ${set.missing.length} section(s) missing` : '';
  return {
    key: set.key,
    machine: set.anchor.machine,
    suites: [...set.providers.keys()],
    createdAt: set.anchor.createdAt,
    detail: `${runs.map((r) => r.name).join(' + ')}${quick}${missing}`,
  };
}

export function ReportView({
  list,
  report,
  run,
  onSelect,
}: {
  list: ResultSummary[];
  report: string;
  run: string | null;
  onSelect: (report: string, run: string | null) => void;
}) {
  const key = REPORTS[report] ? report : 'micro';
  const definition = REPORTS[key];
  const sets = useMemo(() => reportSources(list, key, definition), [list, key, definition]);
  const set = chosenSet(sets, run);
  const names = useMemo(() => (set ? setRuns(set).map((r) => r.name) : []), [set]);
  const { files, error } = useResults(names);
  const file = useMemo(() => {
    if (!set || !files) return null;
    return mergeSet(set, new Map(names.map((name, i) => [name, files[i]])));
  }, [set, files, names]);
  const options = useMemo(() => sets.map(pickerRun), [sets]);

  return (
    <>
      <section className="card">
        <h2>Reports</h2>
        <label>
          Report{' '}
          <select value={key} onChange={(e) => onSelect(e.target.value, null)} aria-label="report">
            {Object.entries(REPORTS).map(([k, r]) => (
              <option key={k} value={k}>
                {r.title}
              </option>
            ))}
          </select>
        </label>{' '}
        {sets.length > 0 && <RunPicker runs={options} value={set?.key ?? null} onChange={(k) => onSelect(key, k)} label="from the runs" />}
        {sets.length === 0 && (
          <p className="empty">
            No stored run has cases for this report yet — run <code>npx wirespeed report {key}</code> (or{' '}
            <code>
              wirespeed bench --suite {definition.suites.join(',')} --push {location.origin}
            </code>
            ).
          </p>
        )}
        {set && (
          <p className="muted small">
            {set.anchor.machine} ·{' '}
            {setRuns(set)
              .map((r) => `${r.name} (${r.createdAt.slice(0, 16).replace('T', ' ')})`)
              .join(' + ')}
          </p>
        )}
        {error && (
          <p role="alert">
            Could not load {names.join(', ')}: {error}
          </p>
        )}
        {file && set && (
          <button
            type="button"
            onClick={() => download(`${key}-report.md`, new Blob([definition.render(file, names.join(' + '))], { type: 'text/markdown' }))}
          >
            Markdown
          </button>
        )}
      </section>
      {file &&
        definition.sections.map((section, i) => {
          if (set?.missing.includes(i)) return null;
          const table = section.table(file);
          if (table.rows.length === 0) return null;
          return (
            <section className="card" key={section.heading}>
              <h2>{section.heading}</h2>
              {table.unit && <ReportChart table={table} label={section.heading} />}
              <table className="report">
                <thead>
                  <tr>
                    <th>{table.corner}</th>
                    {table.impls.map((impl) => (
                      <th key={impl} className="num">
                        {impl}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {table.rows.map((row) => (
                    <tr key={row.group}>
                      <td>{row.group}</td>
                      {row.cells.map((cell, c) => (
                        <td key={c} className="num">
                          {cell}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          );
        })}
      {file && set && set.missing.length > 0 && (
        <section className="card muted">
          Not in any run of this machine yet: {set.missing.map((i) => definition.sections[i].heading).join('; ')}. Run{' '}
          <code>npx wirespeed report {key}</code> to measure them.
        </section>
      )}
    </>
  );
}
