// A report table as grouped bars: one group of bars per row, one colour per implementation, the
// numbers behind the table's cells (the table says which unit).
import { useEffect, useRef } from 'react';
import type { ReportTable } from '../../../bench/reports/markdown.js';
import { Chart, PALETTE } from './register.js';

export function ReportChart({ table, label }: { table: ReportTable; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: table.rows.map((row) => row.group),
        datasets: table.impls.map((impl, i) => ({
          label: impl,
          data: table.rows.map((row) => row.values?.[i] ?? null),
          backgroundColor: PALETTE[i % PALETTE.length],
        })),
      },
      options: {
        indexAxis: 'y',
        animation: false,
        plugins: { legend: { position: 'bottom' } },
        scales: { x: { beginAtZero: true, title: { display: true, text: table.unit ?? '' } } },
      },
    });
    return () => chart.destroy();
  }, [table]);
  const bars = table.rows.length * Math.max(1, table.impls.length);
  return <canvas ref={canvas} height={Math.max(120, 40 + bars * 14)} role="img" aria-label={`report chart: ${label}`} />;
}
