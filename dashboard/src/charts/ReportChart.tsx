// A report table as grouped bars: one group of bars per row, one series per implementation (at
// most MAX_SERIES: wirespeed's, the baselines and the best peers; the rest stay in the table), the
// value or its multiple of the row's best written on each bar, the legend beside the chart. Rows
// measured by other implementations (the hono rows of the servers report) get a chart of their own.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ReportTable } from '../../../bench/reports/markdown.js';
import { Chart } from './register.js';
import {
  applyTheme,
  chartParts,
  factorToBest,
  formatFactor,
  formatValue,
  higherIsBetter,
  pickSeries,
  seriesColours,
  useTheme,
} from './style.js';

export function ReportChart({ table, label }: { table: ReportTable; label: string }) {
  const parts = useMemo(() => {
    const values = table.impls.map((_, s) => table.rows.map((row) => row.values?.[s] ?? null));
    return chartParts(values, table.rows.length).map((rows) => ({ ...table, rows: rows.map((row) => table.rows[row]) }));
  }, [table]);
  return parts.map((part, i) => <PartChart key={i} table={part} label={i === 0 ? label : `${label} (${i + 1})`} />);
}

function PartChart({ table, label }: { table: ReportTable; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = useTheme();
  const [relative, setRelative] = useState(false);
  const unit = table.unit ?? '';
  const higher = higherIsBetter(unit);
  const values = useMemo(() => table.impls.map((_, s) => table.rows.map((row) => row.values?.[s] ?? null)), [table]);
  const { shown, hidden } = useMemo(() => pickSeries(table.impls, values, higher, table.baselines), [table, values, higher]);

  useEffect(() => {
    if (!canvas.current) return;
    applyTheme(theme);
    const best = table.rows.map((_, row) => {
      const column = values.map((v) => v[row]).filter((v): v is number => v !== null && v > 0);
      return higher ? Math.max(...column) : Math.min(...column);
    });
    const colours = seriesColours(shown.map((s) => table.impls[s]));
    const shownValue = (s: number, row: number) => {
      const v = values[shown[s]][row];
      return v === null ? null : relative ? factorToBest(v, best[row], higher) : v;
    };
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: table.rows.map((row) => row.group),
        datasets: shown.map((s, i) => ({
          label: table.impls[s],
          data: table.rows.map((_, row) => shownValue(i, row)),
          backgroundColor: colours[i],
        })),
      },
      options: {
        indexAxis: 'y',
        animation: false,
        maintainAspectRatio: false,
        layout: { padding: { right: 64 } },
        plugins: {
          legend: { position: 'right', align: 'start' },
          barLabels: {
            text: (d: number, row: number) => {
              const v = shownValue(d, row);
              return v === null ? null : relative ? formatFactor(v) : formatValue(v, unit);
            },
          },
        },
        scales: {
          x: {
            beginAtZero: true,
            ticks: { callback: (v) => (relative ? formatFactor(Number(v)) : formatValue(Number(v), unit)) },
            title: { display: true, text: relative ? '× the best of the row (1.00× is the best)' : unit },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [table, theme, relative, shown, values, higher, unit]);

  const bars = table.rows.length * Math.max(1, shown.length);
  return (
    <figure className="chart">
      <div className="toolbar">
        <button
          type="button"
          aria-pressed={relative}
          onClick={() => setRelative(!relative)}
          title="each bar as a multiple of its row's best"
        >
          × fastest
        </button>
        {hidden.length > 0 && <span className="muted small">In the table only: {hidden.map((s) => table.impls[s]).join(', ')}</span>}
      </div>
      <div className="chart-box" style={{ height: Math.max(120, 40 + bars * 16) }}>
        <canvas ref={canvas} role="img" aria-label={`report chart: ${label}`} />
      </div>
    </figure>
  );
}
