// Markdown pieces the reports share: the machine and method heading, and a table of one suite's
// groups (rows) by implementations (columns), every number from the one result file given.
import { formatNs } from '../harness/format.js';
import type { CaseResult, ResultFile } from '../harness/types.js';

/** Where and how the numbers were measured, and where they are kept. */
export function heading(title: string, file: ResultFile, resultPath: string): string {
  const f = file.fingerprint;
  const o = file.options;
  return [
    `# ${title}`,
    '',
    `- Machine: ${f.cpuModel}, ${f.cores} cores, ${(f.memoryBytes / 2 ** 30).toFixed(0)} GiB, ${f.os} ${f.arch}; ${f.runtime} ${f.runtimeVersion}; commit ${f.gitCommit?.slice(0, 8) ?? 'unknown'}`,
    `- Date: ${file.createdAt}`,
    `- Method: ${o.isolate ? 'every case in a fresh process' : 'all cases in one process'}, ${o.warmupMs} ms warm-up, at least ${o.minTimeMs} ms of samples; median with its distribution-free 95% CI; ratios to the baseline implementation of the same row, measured in this run${o.quick ? '. QUICK RUN: a smoke test, not for publishing' : ''}`,
    `- Every number below comes from this run: ${resultPath}`,
    '',
  ].join('\n');
}

/** A table of a report: rows by group (or measure), columns by implementation. */
export interface ReportTable {
  /** The header of the first column. */
  corner: string;
  impls: string[];
  /** `values`: the number behind each cell (null: none), for the dashboard's chart. */
  rows: { group: string; cells: string[]; values?: (number | null)[] }[];
  /** What `values` measure, e.g. "ns per operation (lower is better)"; absent: no chart. */
  unit?: string;
  /** The implementations that are some row's baseline (a chart always draws them). */
  baselines?: string[];
}

/** How a table's cells are charted: the number of a case, in `unit`. */
export interface ChartValue {
  unit: string;
  value(c: CaseResult): number | undefined;
}

/** Which groups of a suite a table shows (all when absent). */
export type GroupFilter = (group: string) => boolean;

/**
 * A row per group of `suite` (those `only` keeps), a column per implementation, each cell
 * `cell(case, the row's baseline)`; "—" where one has no case.
 */
export function caseRows(
  file: ResultFile,
  suite: string,
  cell: (c: CaseResult, baseline: CaseResult | undefined) => string,
  only?: GroupFilter,
  chart?: ChartValue,
): ReportTable {
  const cases = file.cases.filter((c) => c.suite === suite && (!only || only(c.group)));
  const groups = [...new Set(cases.map((c) => c.group))];
  const impls = [...new Set(cases.map((c) => c.impl))];
  return {
    corner: suite,
    impls,
    unit: chart?.unit,
    baselines: [...new Set(cases.filter((c) => c.baseline).map((c) => c.impl))],
    rows: groups.map((group) => {
      const baseline = cases.find((c) => c.group === group && c.baseline);
      const row = impls.map((impl) => cases.find((x) => x.group === group && x.impl === impl));
      return {
        group,
        cells: row.map((c) => (c ? cell(c, baseline) : '—')),
        values: chart ? row.map((c) => (c ? (chart.value(c) ?? null) : null)) : undefined,
      };
    }),
  };
}

/** The median of each case and its ratio to the row's baseline. */
export function suiteRows(file: ResultFile, suite: string, only?: GroupFilter): ReportTable {
  return caseRows(
    file,
    suite,
    (c, baseline) => {
      const ratio = baseline && baseline !== c ? ` (${(c.stats.median / baseline.stats.median).toFixed(2)}x)` : '';
      return `${formatNs(c.stats.median)}${ratio}`;
    },
    only,
    { unit: 'ns per operation (lower is better)', value: (c) => c.stats.median },
  );
}

/** A metric of the load cases (`format` gets the case's metrics; null: not measured), a row per group that has it. */
export function metricRows(
  file: ResultFile,
  suite: string,
  format: (metrics: Record<string, number>) => string | null,
  only?: GroupFilter,
  chart?: ChartValue,
): ReportTable {
  // Only the groups that measured it: a suite's micro cases are not rows of its load tables.
  const measured = new Set(file.cases.filter((c) => c.suite === suite && c.metrics && format(c.metrics) !== null).map((c) => c.group));
  const keep: GroupFilter = (group) => measured.has(group) && (!only || only(group));
  return caseRows(file, suite, (c) => (c.metrics ? format(c.metrics) : null) ?? 'n/a', keep, chart);
}

/** A table in Markdown. */
export function markdownTable(table: ReportTable): string {
  if (table.rows.length === 0) return `_No ${table.corner} cases in this run._\n`;
  const lines = [`| ${table.corner} | ${table.impls.join(' | ')} |`, `|---|${table.impls.map(() => '---:').join('|')}|`];
  for (const row of table.rows) lines.push(`| ${row.group} | ${row.cells.join(' | ')} |`);
  return lines.join('\n') + '\n';
}
