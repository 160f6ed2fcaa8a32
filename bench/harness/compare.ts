// Comparison of result files (`wirespeed compare`): per case the median with its 95% CI in each
// run, the ratio to the baseline run, a Mann-Whitney U test, and a geometric-mean summary. Pure
// logic: the CLI prints it, the dashboard can show it.
import { formatNs } from './format.js';
import { geomean, mannWhitneyU } from './stats.js';
import type { CaseResult, Fingerprint, ResultFile } from './types.js';

export interface CompareOptions {
  /** Index of the baseline run in `runs`. Default 0. */
  baseline?: number;
  /** Differences smaller than this fraction are noise whatever the test says. Default 0.05. */
  noise?: number;
  /** Significance level of the Mann-Whitney U test. Default 0.05. */
  alpha?: number;
}

/**
 * How a case in a run relates to the baseline: 'faster' / 'slower' (significant and outside the
 * noise band, same machine), '~' (not significant or within the band), 'cross-machine' (different
 * fingerprints: a ratio, never a regression), 'quick' (a side is a --quick run: too short to tell a
 * change from noise, so a ratio only), 'missing' (the run lacks the case).
 */
export type Verdict = 'faster' | 'slower' | '~' | 'cross-machine' | 'quick' | 'missing' | 'baseline';

export interface Cell {
  median: number;
  ciLow: number;
  ciHigh: number;
  samples: number;
  ratio: number;
  p: number | null;
  verdict: Verdict;
}

export interface ComparedCase {
  key: string;
  cells: (Cell | null)[];
}

export interface Comparison {
  runs: { label: string; fingerprint: Fingerprint; sameMachineAsBaseline: boolean }[];
  baseline: number;
  cases: ComparedCase[];
  /** Per run: geometric mean of the ratios over the cases it shares with the baseline. */
  geomean: (number | null)[];
  warnings: string[];
}

const keyOf = (c: CaseResult) => `${c.suite} / ${c.group} / ${c.impl}`;

/** Two runs that share no case cannot be compared; the message says what each holds. */
export class NothingToCompareError extends Error {}

/** Same machine and runtime: only then may a difference be called a regression. */
export function sameMachine(a: Fingerprint, b: Fingerprint): boolean {
  return (
    a.cpuModel === b.cpuModel &&
    a.cores === b.cores &&
    a.arch === b.arch &&
    a.os === b.os &&
    a.runtime === b.runtime &&
    a.runtimeVersion === b.runtimeVersion
  );
}

export function compareRuns(runs: { label: string; file: ResultFile }[], options: CompareOptions = {}): Comparison {
  const baseline = options.baseline ?? 0;
  const noise = options.noise ?? 0.05;
  const alpha = options.alpha ?? 0.05;
  if (runs.length < 2) throw new Error('compare needs at least two result files');
  if (baseline < 0 || baseline >= runs.length) throw new Error(`no run ${baseline} to use as the baseline`);
  const base = runs[baseline].file;
  const warnings: string[] = [];
  const machines = runs.map((r) => sameMachine(r.file.fingerprint, base.fingerprint));
  const baseKeys = new Set(base.cases.map(keyOf));
  for (const [i, run] of runs.entries()) {
    if (i === baseline || run.file.cases.some((c) => baseKeys.has(keyOf(c)))) continue;
    const suites = (file: ResultFile) => [...new Set(file.cases.map((c) => c.suite))].join(', ');
    throw new NothingToCompareError(
      `${run.label} and ${runs[baseline].label} share no case (${run.label}: ${suites(run.file)}; ${runs[baseline].label}: ${suites(base)})`,
    );
  }
  // A quick run (120 ms per case, one 1 s load run) cannot tell a change from noise: ratios only.
  const quick = runs.map((r) => r.file.options.quick || base.options.quick);
  for (const [i, run] of runs.entries()) {
    if (i !== baseline && quick[i])
      warnings.push(
        `no verdicts for ${run.label}: ${run.file.options.quick ? 'it' : runs[baseline].label} is a --quick run, too short to tell a change from noise (ratios only; run without --quick for verdicts)`,
      );
  }
  const keys = [...new Set(runs.flatMap((r) => r.file.cases.map(keyOf)))];
  const index = runs.map((r) => new Map(r.file.cases.map((c) => [keyOf(c), c])));
  const ratios: number[][] = runs.map(() => []);

  const cases = keys.map((key): ComparedCase => {
    const reference = index[baseline].get(key);
    const cells = runs.map((_, i): Cell | null => {
      const c = index[i].get(key);
      if (!c) return null;
      const cell: Cell = {
        median: c.stats.median,
        ciLow: c.stats.ciLow,
        ciHigh: c.stats.ciHigh,
        samples: c.stats.n,
        ratio: reference ? c.stats.median / reference.stats.median : NaN,
        p: null,
        verdict: i === baseline ? 'baseline' : 'missing',
      };
      if (i === baseline || !reference) return cell;
      ratios[i].push(cell.ratio);
      if (c.samples.length < 4 || reference.samples.length < 4) {
        warnings.push(`${key}: fewer than 4 samples on a side in ${runs[i].label}; the test means little`);
      }
      cell.p = mannWhitneyU(c.samples, reference.samples).p;
      if (!machines[i]) cell.verdict = 'cross-machine';
      else if (quick[i]) cell.verdict = 'quick';
      else if (cell.p >= alpha || Math.abs(cell.ratio - 1) <= noise) cell.verdict = '~';
      else cell.verdict = cell.ratio < 1 ? 'faster' : 'slower';
      return cell;
    });
    return { key, cells };
  });

  return {
    runs: runs.map((r, i) => ({ label: r.label, fingerprint: r.file.fingerprint, sameMachineAsBaseline: machines[i] })),
    baseline,
    cases,
    geomean: ratios.map((list, i) => (i === baseline ? 1 : list.length ? geomean(list) : null)),
    warnings,
  };
}

const MARK: Record<Verdict, string> = {
  faster: 'faster',
  slower: 'SLOWER',
  '~': '~',
  'cross-machine': 'x-machine',
  quick: '(quick)',
  missing: '',
  baseline: 'baseline',
};

/** Rows of strings: case, then per run "median [lo–hi] ratio mark". */
export function comparisonRows(c: Comparison): string[][] {
  const header = [
    'case',
    ...c.runs.map((r, i) => `${r.label}${i === c.baseline ? ' (baseline)' : r.sameMachineAsBaseline ? '' : ' (other machine)'}`),
  ];
  const rows = c.cases.map((cc) => [
    cc.key,
    ...cc.cells.map((cell) =>
      cell
        ? `${formatNs(cell.median)} [${formatNs(cell.ciLow)}–${formatNs(cell.ciHigh)}]${cell.verdict === 'baseline' ? '' : ` ${cell.ratio.toFixed(3)}x ${MARK[cell.verdict]}`}`
        : '—',
    ),
  ]);
  const summary = [
    'geometric mean of ratios',
    ...c.geomean.map((g, i) => (i === c.baseline ? '1' : g === null ? '—' : `${g.toFixed(3)}x`)),
  ];
  return [header, ...rows, summary];
}

export function toMarkdown(c: Comparison): string {
  const [header, ...rows] = comparisonRows(c);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function toText(c: Comparison): string {
  const rows = comparisonRows(c);
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => r[col].length)));
  return rows.map((r) => r.map((cell, col) => cell.padEnd(widths[col])).join('  ')).join('\n');
}
