// Every result on the server with the machine it ran on; tick runs to compare them and pick the
// baseline.
import type { ResultSummary } from '../api.js';

export interface Selection {
  runs: string[];
  base: number;
}

export function MachinesTable({
  list,
  selection,
  onChange,
}: {
  list: ResultSummary[];
  selection: Selection;
  onChange: (s: Selection) => void;
}) {
  const baseName = selection.runs[selection.base];
  function toggle(name: string) {
    const runs = selection.runs.includes(name) ? selection.runs.filter((n) => n !== name) : [...selection.runs, name];
    const base = Math.max(0, runs.indexOf(baseName));
    onChange({ runs, base });
  }
  return (
    <table className="machines">
      <thead>
        <tr>
          <th>compare</th>
          <th>baseline</th>
          <th>date</th>
          <th>CPU</th>
          <th>cores</th>
          <th>OS</th>
          <th>runtime</th>
          <th>commit</th>
          <th>suites</th>
          <th className="num">cases</th>
        </tr>
      </thead>
      <tbody>
        {list.map((r) => {
          const index = selection.runs.indexOf(r.name);
          return (
            <tr key={r.name} className={index >= 0 ? 'selected' : ''}>
              <td>
                <input type="checkbox" checked={index >= 0} onChange={() => toggle(r.name)} aria-label={`compare ${r.name}`} />
              </td>
              <td>
                <input
                  type="radio"
                  name="baseline"
                  disabled={index < 0}
                  checked={index >= 0 && index === selection.base}
                  onChange={() => onChange({ runs: selection.runs, base: index })}
                  aria-label={`baseline ${r.name}`}
                />
              </td>
              <td title={r.name}>
                {r.createdAt.slice(0, 16).replace('T', ' ')}
                {r.quick ? <span className="tag">quick</span> : null}
              </td>
              <td>{r.cpuModel}</td>
              <td className="num">{r.cores}</td>
              <td>
                {r.os} {r.arch}
              </td>
              <td>
                {r.runtime} {r.runtimeVersion}
              </td>
              <td>
                <code>{r.gitCommit?.slice(0, 8) ?? '—'}</code>
              </td>
              <td>{r.suites.join(', ')}</td>
              <td className="num">{r.cases}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
