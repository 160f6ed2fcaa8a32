// One benchmark group across several runs: per implementation a bar per run (median with its 95%
// CI as an error bar), or box plots of the raw samples. Exportable as PNG.
import { useEffect, useRef, useState } from 'react';
import type { CaseResult } from '../../../bench/harness/types.js';
import { download } from '../export.js';
import { Chart, PALETTE } from './register.js';
import { applyTheme, useTheme } from './style.js';

export interface RunCases {
  label: string;
  /** The run's cases of this group, by implementation. */
  cases: Map<string, CaseResult>;
}

// Box plots of 100k samples stay responsive with an evenly spaced subset of them.
const MAX_BOX_SAMPLES = 2000;
function thin(samples: number[]): number[] {
  if (samples.length <= MAX_BOX_SAMPLES) return samples;
  const sorted = [...samples].sort((a, b) => a - b);
  return Array.from({ length: MAX_BOX_SAMPLES }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (MAX_BOX_SAMPLES - 1))]);
}

export function CompareChart({ title, impls, runs }: { title: string; impls: string[]; runs: RunCases[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  const [mode, setMode] = useState<'bars' | 'box'>('bars');
  const theme = useTheme();

  useEffect(() => {
    if (!canvas.current) return;
    applyTheme(theme);
    const common = {
      animation: false as const,
      responsive: true,
      plugins: { legend: { position: 'right' as const, align: 'start' as const } },
    };
    const axis = { y: { beginAtZero: mode === 'bars', title: { display: true, text: 'ns per operation (lower is better)' } } };
    chart.current =
      mode === 'bars'
        ? new Chart(canvas.current, {
            type: 'barWithErrorBars',
            data: {
              labels: impls,
              datasets: runs.map((run, i) => ({
                label: run.label,
                backgroundColor: PALETTE[i % PALETTE.length],
                data: impls.map((impl) => {
                  const s = run.cases.get(impl)?.stats;
                  return s ? { y: s.median, yMin: s.ciLow, yMax: s.ciHigh } : { y: NaN, yMin: NaN, yMax: NaN };
                }),
              })),
            },
            options: { ...common, scales: axis },
          })
        : new Chart(canvas.current, {
            type: 'boxplot',
            data: {
              labels: impls,
              datasets: runs.map((run, i) => ({
                label: run.label,
                backgroundColor: `${PALETTE[i % PALETTE.length]}55`,
                borderColor: PALETTE[i % PALETTE.length],
                data: impls.map((impl) => thin(run.cases.get(impl)?.samples ?? [])),
              })),
            },
            options: { ...common, scales: axis },
          });
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [impls, runs, mode, theme]);

  return (
    <figure className="chart">
      <div className="toolbar">
        <button type="button" aria-pressed={mode === 'bars'} onClick={() => setMode('bars')}>
          median ± CI
        </button>
        <button type="button" aria-pressed={mode === 'box'} onClick={() => setMode('box')}>
          samples (box plot)
        </button>
        <button
          type="button"
          onClick={() => chart.current && download(`${title.replace(/[^\w.-]+/g, '_')}.png`, chart.current.toBase64Image())}
        >
          PNG
        </button>
      </div>
      <canvas ref={canvas} role="img" aria-label={`${title}: ${mode === 'bars' ? 'medians' : 'sample distributions'} per run`} />
    </figure>
  );
}
