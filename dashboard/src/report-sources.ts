// Which stored runs a report can be shown from. A report needs cases of its suites that fill its
// sections (the servers report needs load cases of `server` and `http2`, not the micro cases of
// `http2`), and those often come from separate runs of one machine. So a report is shown from a
// set of runs: one run per suite, all of one machine, each filling that suite's sections.
import type { ResultFile } from '../../bench/harness/types.js';
import type { ReportDefinition } from '../../bench/reports/index.js';
import type { ResultSummary } from './api.js';

export interface RunSet {
  /** The set's key: its runs' names, one per suite of the report. */
  key: string;
  /** The newest run of the set. */
  anchor: ResultSummary;
  /** Per suite of the report that some run of the set fills, that run. */
  providers: Map<string, ResultSummary>;
  /** Indexes of the report's sections no run of the set fills. */
  missing: number[];
}

/**
 * Every set a report can be shown from, the preferred first: sets that fill every section before
 * the others, full runs before quick ones, then newest first. For each run filling a section, the
 * set takes it for its suite and, for the report's other suites, the newest run of the same machine
 * filling them (made no later than it when there is one).
 */
export function reportSources(list: ResultSummary[], reportKey: string, report: ReportDefinition): RunSet[] {
  // A run provides a suite when it has that suite's cases and they fill a section reading it: a
  // server-only run fills the protocol section (its HTTP/1.1 rows) but provides no HTTP/2 cases.
  const fills = (run: ResultSummary, suite: string) =>
    (run.suiteCases[suite] ?? 0) > 0 && (run.fills[reportKey] ?? []).some((section) => report.sections[section].suites.includes(suite));
  const newestFirst = [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const sets = new Map<string, RunSet>();
  for (const anchor of newestFirst) {
    if (!report.suites.some((suite) => fills(anchor, suite))) continue;
    const providers = new Map<string, ResultSummary>();
    for (const suite of report.suites) {
      if (fills(anchor, suite)) {
        providers.set(suite, anchor);
        continue;
      }
      const others = newestFirst.filter((r) => r.machine === anchor.machine && fills(r, suite));
      const provider = others.find((r) => r.createdAt <= anchor.createdAt) ?? others.at(-1);
      if (provider) providers.set(suite, provider);
    }
    const members = [...providers.values()];
    const newest = members.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
    const key = report.suites.map((suite) => providers.get(suite)?.name ?? '').join(',');
    if (sets.has(key)) continue;
    const filled = new Set(
      report.sections.flatMap((section, i) =>
        section.suites.some((suite) => (providers.get(suite)?.fills[reportKey] ?? []).includes(i)) ? [i] : [],
      ),
    );
    const missing = report.sections.map((_, i) => i).filter((i) => !filled.has(i));
    sets.set(key, { key, anchor: newest, providers, missing });
  }
  const rank = (set: RunSet) => [set.missing.length > 0 ? 1 : 0, [...set.providers.values()].some((r) => r.quick) ? 1 : 0];
  return [...sets.values()].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || b.anchor.createdAt.localeCompare(a.anchor.createdAt);
  });
}

/** The distinct runs of a set, in the order of the report's suites. */
export function setRuns(set: RunSet): ResultSummary[] {
  return [...new Set(set.providers.values())];
}

/**
 * One result file of a set's runs for the report's sections: each suite's cases from the run that
 * provides it, the newest run's machine and options.
 */
export function mergeSet(set: RunSet, files: Map<string, ResultFile>): ResultFile {
  const anchor = files.get(set.anchor.name)!;
  const cases = [...set.providers].flatMap(([suite, run]) => files.get(run.name)!.cases.filter((c) => c.suite === suite));
  return { ...anchor, cases };
}
