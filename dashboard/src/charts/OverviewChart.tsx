// The overview as bars: per suite, how many times faster wirespeed ran than the baseline and than
// the fastest peer (1× marked: left of it, the peer was faster).
import { useEffect, useRef } from 'react';
import type { OverviewRow } from '../../../bench/reports/overview.js';
import { Chart } from './register.js';
import { applyTheme, formatFactor, OURS_COLOUR, useTheme } from './style.js';

const FASTEST_PEER_COLOUR = '#E69F00';

export function OverviewChart({ lines }: { lines: OverviewRow[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = useTheme();
  useEffect(() => {
    if (!canvas.current) return;
    applyTheme(theme);
    const series = [
      { label: 'against the baseline', pick: (r: OverviewRow) => r.baseline?.speedup ?? null, colour: OURS_COLOUR },
      { label: 'against the fastest peer', pick: (r: OverviewRow) => r.best?.speedup ?? null, colour: FASTEST_PEER_COLOUR },
    ];
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: lines.map((r) => (r.flavor ? `${r.suite} (${r.flavor})` : r.suite)),
        datasets: series.map((s) => ({ label: s.label, data: lines.map(s.pick), backgroundColor: s.colour })),
      },
      options: {
        indexAxis: 'y',
        animation: false,
        maintainAspectRatio: false,
        layout: { padding: { right: 56 } },
        plugins: {
          legend: { position: 'right', align: 'start' },
          barLabels: {
            text: (d: number, i: number) => {
              const v = series[d].pick(lines[i]);
              return v === null ? null : formatFactor(v);
            },
          },
        },
        scales: {
          x: {
            beginAtZero: true,
            title: { display: true, text: '× faster than the peer (geometric mean; 1× = as fast)' },
            ticks: { callback: (v) => formatFactor(Number(v)) },
            grid: { lineWidth: (context) => (context.tick?.value === 1 ? 2 : 1) },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [lines, theme]);
  return (
    <div className="chart-box" style={{ height: Math.max(120, 40 + lines.length * 38) }}>
      <canvas ref={canvas} role="img" aria-label="overview chart: wirespeed against its peers" />
    </div>
  );
}
