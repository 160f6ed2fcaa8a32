// The dashboard's landing view in numbers: for the newest full run of each suite, how wirespeed's
// headline implementation compares with the group's baseline and with the fastest peer, as the
// geometric mean over the suite's groups. Pure: the dashboard renders it, the tests recompute it.
import { flavorOf, isCeiling, isHeadline, isOurs } from '../harness/ours.js';
import type { CaseResult, ResultFile } from '../harness/types.js';

/** What the overview needs of a stored run (a subset of the dashboard's ResultSummary). */
export interface RunSummary {
  name: string;
  createdAt: string;
  quick: boolean;
  /** Made with a `--filter`: a part of its suites. */
  filtered: boolean;
  /** Cases per suite. */
  suiteCases: Record<string, number>;
}

/**
 * A run counts as a full run of a suite when it was neither quick nor filtered and has at least
 * this share of the most cases any such run has of the suite (files written before runs recorded
 * their filter hold a part of a suite too).
 */
const FULL_SHARE = 0.8;

/**
 * Per suite, the newest full run; a suite with no full run gets its newest run of any kind (the
 * overview says it is quick). Suites in order of first appearance in the newest runs.
 */
export function overviewRuns<R extends RunSummary>(runs: R[]): Map<string, R> {
  const newestFirst = [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const suites = [...new Set(newestFirst.flatMap((r) => Object.keys(r.suiteCases)))].sort();
  const chosen = new Map<string, R>();
  for (const suite of suites) {
    const having = newestFirst.filter((r) => (r.suiteCases[suite] ?? 0) > 0);
    const complete = having.filter((r) => !r.quick && !r.filtered);
    const most = Math.max(0, ...complete.map((r) => r.suiteCases[suite]));
    const full = complete.find((r) => r.suiteCases[suite] >= most * FULL_SHARE);
    chosen.set(suite, full ?? having[0]);
  }
  return chosen;
}

/** One comparison: wirespeed against one kind of peer, over the groups that have both. */
export interface Versus {
  /** Geometric mean of peer time / wirespeed time: above 1, wirespeed is faster. */
  speedup: number;
  /** Groups where wirespeed was faster. */
  wins: number;
  groups: number;
  /** The peers compared with, most frequent first. */
  peers: string[];
}

export interface OverviewRow {
  suite: string;
  /** The runtime wirespeed ran on where a suite runs it on several (servers); else ''. */
  flavor: string;
  /** wirespeed's implementations in these rows (one name per suite, usually). */
  impls: string[];
  groups: number;
  baseline: Versus | null;
  best: Versus | null;
}

const time = (c: CaseResult) => c.stats.median;

function versus(pairs: [ours: CaseResult, peer: CaseResult][]): Versus | null {
  if (pairs.length === 0) return null;
  const logSum = pairs.reduce((sum, [ours, peer]) => sum + Math.log(time(peer) / time(ours)), 0);
  const counts = new Map<string, number>();
  for (const [, peer] of pairs) counts.set(peer.impl, (counts.get(peer.impl) ?? 0) + 1);
  return {
    speedup: Math.exp(logSum / pairs.length),
    wins: pairs.filter(([ours, peer]) => time(ours) < time(peer)).length,
    groups: pairs.length,
    peers: [...counts].sort((a, b) => b[1] - a[1]).map(([impl]) => impl),
  };
}

/**
 * The rows of one suite of a run: one per runtime wirespeed ran on (Node and Deno for the server
 * suites, one otherwise). In each group the headline wirespeed case of that runtime is compared
 * with the group's baseline and with its fastest implementation that is neither wirespeed's nor a
 * ceiling (the raw transport).
 */
export function suiteOverview(file: ResultFile, suite: string): OverviewRow[] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of file.cases) if (c.suite === suite) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const byFlavor = new Map<string, { impls: Set<string>; baseline: [CaseResult, CaseResult][]; best: [CaseResult, CaseResult][] }>();
  for (const members of groups.values()) {
    const peers = members.filter((c) => !isOurs(c.impl));
    const baseline = peers.find((c) => c.baseline);
    const rivals = peers.filter((c) => !isCeiling(c.impl));
    const fastest = rivals.length > 0 ? rivals.reduce((a, b) => (time(b) < time(a) ? b : a)) : undefined;
    if (!baseline && !fastest) continue;
    const seen = new Set<string>();
    for (const ours of members.filter((c) => isHeadline(c.impl))) {
      const flavor = flavorOf(ours.impl);
      if (seen.has(flavor)) continue; // the first headline case of a runtime speaks for it
      seen.add(flavor);
      const entry = byFlavor.get(flavor) ?? { impls: new Set(), baseline: [], best: [] };
      byFlavor.set(flavor, entry);
      entry.impls.add(ours.impl);
      if (baseline) entry.baseline.push([ours, baseline]);
      if (fastest) entry.best.push([ours, fastest]);
    }
  }
  const several = byFlavor.size > 1;
  return [...byFlavor].map(([flavor, entry]) => ({
    suite,
    flavor: several ? flavor : '',
    impls: [...entry.impls],
    groups: Math.max(entry.best.length, entry.baseline.length),
    baseline: versus(entry.baseline),
    best: versus(entry.best),
  }));
}

/** "2.10× faster" / "1.25× slower" for a speed-up (peer time / wirespeed time). */
export function speedupWords(speedup: number): string {
  return speedup >= 1 ? `${speedup.toFixed(2)}× faster` : `${(1 / speedup).toFixed(2)}× slower`;
}
