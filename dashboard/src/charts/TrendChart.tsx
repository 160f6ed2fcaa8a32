// Runs of one machine over time (commits): the geometric mean of each run's ratios to the baseline.
import { useEffect, useRef } from 'react';
import { Chart } from './register.js';

export interface TrendPoint {
  label: string;
  value: number;
}

export function TrendChart({ points }: { points: TrendPoint[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        labels: points.map((p) => p.label),
        datasets: [{ label: 'geometric mean of ratios to the baseline', data: points.map((p) => p.value), borderColor: '#1f6feb' }],
      },
      options: { animation: false, scales: { y: { title: { display: true, text: '× baseline (lower is faster)' } } } },
    });
    return () => chart.destroy();
  }, [points]);
  return <canvas ref={canvas} height={90} role="img" aria-label="trend over runs of one machine" />;
}
