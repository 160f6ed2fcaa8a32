// One bar per implementation: the median time per operation of one benchmark group.
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';
import type { CaseResult } from '../../bench/harness/types.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

export function GroupChart({ cases }: { cases: CaseResult[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: cases.map((c) => c.impl),
        datasets: [
          {
            label: 'median ns/op',
            data: cases.map((c) => c.stats.median),
            backgroundColor: cases.map((c) => (c.impl.startsWith('wirespeed') ? '#1f6feb' : '#9aa5b1')),
          },
        ],
      },
      options: {
        indexAxis: 'y',
        animation: false,
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) => {
                const c = cases[item.dataIndex];
                return `${c.stats.median.toFixed(1)} ns (95% CI ${c.stats.ciLow.toFixed(1)}–${c.stats.ciHigh.toFixed(1)})`;
              },
            },
          },
        },
        scales: { x: { title: { display: true, text: 'ns per operation (lower is better)' } } },
      },
    });
    return () => chart.destroy();
  }, [cases]);
  return <canvas ref={canvas} height={Math.max(80, cases.length * 26)} role="img" aria-label="median time per implementation" />;
}
