// How every chart looks: wirespeed in a strong blue, peers muted in a colour-blind-safe palette
// (Okabe & Ito), at most MAX_SERIES series, values written on the bars in the unit that fits, and
// the page's light or dark theme.
import { useEffect, useState } from 'react';
import { Chart, type ChartType, type Plugin } from 'chart.js';
import { formatNs, formatRate } from '../../../bench/harness/format.js';
import { isOurs } from '../../../bench/harness/ours.js';

/** Okabe & Ito's palette: told apart with every common colour-vision deficiency. */
export const OURS_COLOUR = '#0072B2';
const PEER_COLOURS = ['#E69F00', '#009E73', '#CC79A7', '#D55E00', '#999999', '#F0E442'];
/** Peers are drawn at this opacity, so wirespeed's bars stand out. */
const PEER_ALPHA = 'a6';

/** More series than this in one chart cannot be told apart; the rest stay in the table. */
export const MAX_SERIES = 8;

/** wirespeed's own series: blues told apart by lightness. */
const OURS_SHADES = [OURS_COLOUR, '#56B4E9', '#1B4F72', '#9AD0F0', '#2E86C1'];

/** The colour of each of `impls`: wirespeed's own in blues, peers muted in the other colours. */
export function seriesColours(impls: string[]): string[] {
  let peer = 0;
  let ours = 0;
  return impls.map((impl) =>
    isOurs(impl) ? OURS_SHADES[ours++ % OURS_SHADES.length] : PEER_COLOURS[peer++ % PEER_COLOURS.length] + PEER_ALPHA,
  );
}

/** Whether a unit text says higher is better ("req/s (higher is better)"); lower otherwise. */
export function higherIsBetter(unit: string): boolean {
  return /higher is better/.test(unit);
}

/**
 * The series a chart draws: wirespeed's, the baselines, then the peers best on average (geometric
 * mean of their values relative to the row's best), up to MAX_SERIES. `values[s][row]`: null where
 * none.
 */
export function pickSeries(
  impls: string[],
  values: (number | null)[][],
  higher: boolean,
  baselines: string[] = [],
): { shown: number[]; hidden: number[] } {
  const rows = values[0]?.length ?? 0;
  const best = Array.from({ length: rows }, (_, row) => {
    const column = values.map((v) => v[row]).filter((v): v is number => v !== null && v > 0);
    return column.length === 0 ? NaN : higher ? Math.max(...column) : Math.min(...column);
  });
  const score = (s: number) => {
    const factors = values[s].flatMap((v, row) => (v !== null && v > 0 && best[row] > 0 ? [factorToBest(v, best[row], higher)] : []));
    return factors.length === 0 ? Infinity : Math.exp(factors.reduce((a, f) => a + Math.log(f), 0) / factors.length);
  };
  const present = impls.map((_, i) => i).filter((i) => values[i].some((v) => v !== null));
  const first = present.filter((i) => isOurs(impls[i]) || baselines.includes(impls[i]));
  const peers = present.filter((i) => !first.includes(i)).sort((a, b) => score(a) - score(b));
  const shown = [...first, ...peers].slice(0, MAX_SERIES).sort((a, b) => a - b);
  return { shown, hidden: present.filter((i) => !shown.includes(i)) };
}

/** Rows whose implementations overlap this much (Jaccard) share a chart. */
const SHARED_CHART = 0.5;

/**
 * Splits a table's rows into charts of rows measured by mostly the same implementations (the hono
 * rows of the servers report have their own four), so no chart is mostly empty slots.
 */
export function chartParts(values: (number | null)[][], rows: number): number[][] {
  const parts: { rows: number[]; impls: Set<number> }[] = [];
  for (let row = 0; row < rows; row++) {
    const impls = new Set(values.flatMap((v, s) => (v[row] !== null ? [s] : [])));
    const part = parts.find((p) => {
      const common = [...impls].filter((s) => p.impls.has(s)).length;
      return common / (impls.size + p.impls.size - common) >= SHARED_CHART;
    });
    if (part) {
      part.rows.push(row);
      for (const s of impls) part.impls.add(s);
    } else parts.push({ rows: [row], impls });
  }
  return parts.map((p) => p.rows);
}

/** How many times slower than the best a value is (1: the best). */
export function factorToBest(value: number, best: number, higher: boolean): number {
  return higher ? best / value : value / best;
}

/** A value in the unit the chart's axis names, scaled as a person reads it. */
export function formatValue(value: number, unit: string): string {
  if (value === 0) return '0';
  if (/^ns\b/.test(unit)) return formatNs(value);
  if (/req\/s|round trips\/s/.test(unit)) return formatRate(value).replace('/s', '');
  if (/^p99 latency, ms/.test(unit)) return formatNs(value * 1e6);
  if (/µs/.test(unit)) return value >= 100 ? value.toFixed(0) : value.toFixed(1);
  if (/bytes/.test(unit)) return value >= 1024 ? `${(value / 1024).toFixed(1)} KiB` : `${value.toFixed(0)} B`;
  return value >= 100 ? value.toFixed(0) : value.toFixed(2);
}

/** "× fastest": 1.00× is the best of the row. */
export const formatFactor = (factor: number) => `${factor.toFixed(2)}×`;

export interface BarLabelOptions {
  /** The text on bar `index` of dataset `dataset`; null: none. */
  text(dataset: number, index: number): string | null;
}

/**
 * Writes each bar's value at its end. What it wrote is kept on the canvas (`data-labels`), so a
 * test can read what a person sees, and when (`data-drawn-at`).
 */
export const barLabels: Plugin<'bar'> = {
  id: 'barLabels',
  afterDatasetsDraw(chart: Chart<'bar'>, _args, options: Partial<BarLabelOptions>) {
    const textOf = options?.text;
    if (!textOf) return;
    const { ctx } = chart;
    const written: string[] = [];
    ctx.save();
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = String(chart.options.color ?? '#333');
    ctx.textBaseline = 'middle';
    chart.data.datasets.forEach((_, d) => {
      const meta = chart.getDatasetMeta(d);
      if (meta.hidden) return;
      meta.data.forEach((bar, i) => {
        const text = textOf(d, i);
        if (text === null) return;
        const { x, y } = bar.getProps(['x', 'y'], true) as { x: number; y: number };
        if (!Number.isFinite(x) || !Number.isFinite(y)) return;
        ctx.fillText(text, x + 4, y);
        written.push(text);
      });
    });
    ctx.restore();
    chart.canvas.dataset.labels = JSON.stringify(written);
    // When the page first showed these bars, in ms since navigation (the e2e test's budget).
    chart.canvas.dataset.drawnAt ??= String(Math.round(performance.now()));
  },
};

const DARK = '(prefers-color-scheme: dark)';

/** 'dark' or 'light', following the system setting as it changes. */
export function useTheme(): Theme {
  const [dark, setDark] = useState(() => typeof matchMedia === 'function' && matchMedia(DARK).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia(DARK);
    const onChange = () => setDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return dark ? 'dark' : 'light';
}

export type Theme = 'dark' | 'light';

/** Sets the text and grid colours of the charts made next (each chart is remade on a theme change). */
export function applyTheme(theme: Theme): void {
  Chart.defaults.color = theme === 'dark' ? '#d6dde6' : '#1d232a';
  Chart.defaults.borderColor = theme === 'dark' ? '#3a4452' : '#e3e6ea';
}

declare module 'chart.js' {
  interface PluginOptionsByType<TType extends ChartType> {
    /** Our plugin: what to write on each bar (see barLabels). */
    barLabels?: TType extends ChartType ? Partial<BarLabelOptions> : never;
  }
}
