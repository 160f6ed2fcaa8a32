// Runs of one machine over time (commits): the geometric mean of each run's ratios to the baseline.
import { useEffect, useRef } from 'react';
import { Chart } from './register.js';
import { applyTheme, OURS_COLOUR, useTheme } from './style.js';

export interface TrendPoint {
  label: string;
  value: number;
}

export function TrendChart({ points }: { points: TrendPoint[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = useTheme();
  useEffect(() => {
    if (!canvas.current) return;
    applyTheme(theme);
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        labels: points.map((p) => p.label),
        datasets: [{ label: 'geometric mean of ratios to the baseline', data: points.map((p) => p.value), borderColor: OURS_COLOUR }],
      },
      options: { animation: false, scales: { y: { title: { display: true, text: '× baseline (lower is faster)' } } } },
    });
    return () => chart.destroy();
  }, [points, theme]);
  return <canvas ref={canvas} height={90} role="img" aria-label="trend over runs of one machine" />;
}
