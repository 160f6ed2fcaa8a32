// A report of `wirespeed report` shown from any stored run that has its suites: the same sections
// and cells as the CLI's Markdown (bench/reports), which can be copied as it is, each with a chart
// of the numbers behind its cells.
import { useMemo } from 'react';
import { REPORTS } from '../../../bench/reports/index.js';
import { ReportChart } from '../charts/ReportChart.js';
import type { ResultSummary } from '../api.js';
import { download } from '../export.js';
import { useResult } from '../use-result.js';

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
  const definition = REPORTS[report] ?? REPORTS.micro;
  const candidates = useMemo(() => list.filter((r) => definition.suites.some((s) => r.suites.includes(s))), [list, definition]);
  const name = run ?? candidates[0]?.name ?? null;
  const { file, error } = useResult(name);

  return (
    <>
      <section className="card">
        <h2>Reports</h2>
        <label>
          Report{' '}
          <select value={report} onChange={(e) => onSelect(e.target.value, null)} aria-label="report">
            {Object.entries(REPORTS).map(([key, r]) => (
              <option key={key} value={key}>
                {r.title}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          from the run{' '}
          <select value={name ?? ''} onChange={(e) => onSelect(report, e.target.value)} aria-label="report run">
            {candidates.map((r) => (
              <option key={r.name} value={r.name}>
                {r.name} · {r.suites.join(', ')} · {r.cpuModel}
              </option>
            ))}
          </select>
        </label>
        {candidates.length === 0 && (
          <p className="empty">
            No run has these suites yet — run <code>npx wirespeed report {report}</code> (or{' '}
            <code>
              wirespeed bench --suite {definition.suites.join(',')} --push {location.origin}
            </code>
            ).
          </p>
        )}
        {error && (
          <p role="alert">
            Could not load {name}: {error}
          </p>
        )}
        {file && name && (
          <button
            type="button"
            onClick={() => download(`${report}-report.md`, new Blob([definition.render(file, name)], { type: 'text/markdown' }))}
          >
            Markdown
          </button>
        )}
      </section>
      {file &&
        definition.sections.map((section) => {
          const table = section.table(file);
          return (
            <section className="card" key={section.heading}>
              <h2>{section.heading}</h2>
              {table.rows.length === 0 ? (
                <p className="muted">This run has no {section.suite} cases.</p>
              ) : (
                <>
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
                          {row.cells.map((cell, i) => (
                            <td key={i} className="num">
                              {cell}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              )}
            </section>
          );
        })}
    </>
  );
}
