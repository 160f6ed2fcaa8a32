// One bar per implementation: the median time per operation of one benchmark group, with the
// 95% confidence interval of the median as an error bar.
import { useEffect, useRef } from 'react';
import type { CaseResult } from '../../../bench/harness/types.js';
import { Chart } from './register.js';

export function GroupChart({ cases }: { cases: CaseResult[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'barWithErrorBars',
      data: {
        labels: cases.map((c) => c.impl),
        datasets: [
          {
            label: 'median ns/op',
            data: cases.map((c) => ({ x: c.stats.median, xMin: c.stats.ciLow, xMax: c.stats.ciHigh })),
            backgroundColor: cases.map((c) => (c.impl.startsWith('wirespeed') ? '#1f6feb' : '#9aa5b1')),
          },
        ],
      },
      options: {
        indexAxis: 'y',
        animation: false,
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              label: (item) => {
                const c = cases[item.dataIndex];
                return `${c.stats.median.toFixed(1)} ns (95% CI ${c.stats.ciLow.toFixed(1)}–${c.stats.ciHigh.toFixed(1)})`;
              },
            },
          },
        },
        scales: { x: { beginAtZero: true, title: { display: true, text: 'ns per operation (lower is better)' } } },
      },
    });
    return () => chart.destroy();
  }, [cases]);
  return <canvas ref={canvas} height={Math.max(80, cases.length * 26)} role="img" aria-label="median time per implementation" />;
}
