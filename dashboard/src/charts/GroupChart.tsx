// One bar per implementation: the median time per operation of one benchmark group, with the
// 95% confidence interval of the median as an error bar and the value (or × fastest) on each bar.
import { useEffect, useRef, useState } from 'react';
import type { CaseResult } from '../../../bench/harness/types.js';
import { formatNs } from '../../../bench/harness/format.js';
import { Chart } from './register.js';
import { applyTheme, formatFactor, seriesColours, useTheme } from './style.js';

export function GroupChart({ cases }: { cases: CaseResult[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = useTheme();
  const [relative, setRelative] = useState(false);
  useEffect(() => {
    if (!canvas.current) return;
    applyTheme(theme);
    const fastest = Math.min(...cases.map((c) => c.stats.median));
    const chart = new Chart(canvas.current, {
      type: 'barWithErrorBars',
      data: {
        labels: cases.map((c) => c.impl),
        datasets: [
          {
            label: 'median ns/op',
            data: cases.map((c) => ({ x: c.stats.median, xMin: c.stats.ciLow, xMax: c.stats.ciHigh })),
            backgroundColor: seriesColours(cases.map((c) => c.impl)),
          },
        ],
      },
      options: {
        indexAxis: 'y',
        animation: false,
        maintainAspectRatio: false,
        layout: { padding: { right: 72 } },
        plugins: {
          legend: { display: false },
          barLabels: {
            text: (_d: number, i: number) => (relative ? formatFactor(cases[i].stats.median / fastest) : formatNs(cases[i].stats.median)),
          },
          tooltip: {
            callbacks: {
              label: (item) => {
                const c = cases[item.dataIndex];
                return `${formatNs(c.stats.median)} (95% CI ${formatNs(c.stats.ciLow)}–${formatNs(c.stats.ciHigh)})`;
              },
            },
          },
        },
        scales: {
          x: {
            beginAtZero: true,
            ticks: { callback: (value) => formatNs(Number(value)) },
            title: { display: true, text: 'time per operation (lower is better)' },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [cases, theme, relative]);
  return (
    <figure className="chart">
      <div className="toolbar">
        <button type="button" aria-pressed={relative} onClick={() => setRelative(!relative)} title="each bar as a multiple of the fastest">
          × fastest
        </button>
      </div>
      <div className="chart-box" style={{ height: Math.max(80, cases.length * 26) }}>
        <canvas ref={canvas} role="img" aria-label="median time per implementation" />
      </div>
    </figure>
  );
}
