// The comparison as a table in the style of js-framework-benchmark: a row per case, a column per
// run, each cell the median with its ratio to the baseline run and the test's verdict, coloured by
// its factor to the fastest run of the row. The last row is the geometric mean of the ratios.
import type { Cell, Comparison, Verdict } from '../../../bench/harness/compare.js';
import { formatNs } from '../../../bench/harness/format.js';

const MARKS: Record<Verdict, string> = {
  baseline: 'baseline',
  faster: '▲ faster',
  slower: '▼ slower',
  '~': '~',
  'cross-machine': 'x-machine',
  quick: '(quick run)',
  missing: '',
};

/** Green at the row's best, through yellow, to red at 2x the best and beyond. */
export function factorColour(factor: number): string {
  const t = Math.min(Math.max(factor - 1, 0), 1);
  const hue = 120 * (1 - t);
  return `hsl(${hue.toFixed(0)} 70% 88%)`;
}

function CellView({ cell, best }: { cell: Cell | null; best: number }) {
  if (!cell) return <td className="num muted">—</td>;
  const factor = cell.median / best;
  return (
    <td
      className="num cell"
      style={{ background: factorColour(factor) }}
      title={`95% CI ${formatNs(cell.ciLow)}–${formatNs(cell.ciHigh)}, ${cell.samples} samples${cell.p === null ? '' : `, p = ${cell.p.toPrecision(2)}`}`}
    >
      <div>{formatNs(cell.median)}</div>
      <div className="small">
        ×{cell.ratio.toFixed(2)} <span className={`verdict ${cell.verdict}`}>{MARKS[cell.verdict]}</span>
      </div>
    </td>
  );
}

export function CompareTable({ comparison }: { comparison: Comparison }) {
  return (
    <table className="compare">
      <thead>
        <tr>
          <th>case</th>
          {comparison.runs.map((run, i) => (
            <th key={run.label} className="num">
              {run.label}
              {i === comparison.baseline ? ' (baseline)' : ''}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {comparison.cases.map((c) => {
          const medians = c.cells.filter((cell): cell is Cell => cell !== null).map((cell) => cell.median);
          const best = Math.min(...medians);
          return (
            <tr key={c.key}>
              <td>{c.key}</td>
              {c.cells.map((cell, i) => (
                <CellView key={i} cell={cell} best={best} />
              ))}
            </tr>
          );
        })}
        <tr className="geomean">
          <td>geometric mean of ratios</td>
          {comparison.geomean.map((g, i) => (
            <td key={i} className="num">
              {g === null ? '—' : `×${g.toFixed(3)}`}
            </td>
          ))}
        </tr>
      </tbody>
    </table>
  );
}
