// What a run prints: a status line on a terminal (the case running, with an ETA) on stderr, a line
// per finished case on stdout in units a person reads, and at the end a summary per group in
// mitata's and hyperfine's words ("wirespeed ran 2.31x faster than llhttp (node:http)").
import { formatNs, formatRate, speedWords } from '../harness/format.js';
import { isOurs } from '../harness/ours.js';
import type { CaseResult } from '../harness/types.js';

/** The id a case is printed, filtered and addressed by. */
export const caseId = (c: { suite: string; group: string; impl: string }) => `${c.suite} / ${c.group} / ${c.impl}`;

/** The running case and an ETA, redrawn in place on a terminal; one "[i/n] case" line in a log. */
export class Progress {
  private readonly started = Date.now();
  private done = 0;
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly total: number) {}

  /** Case `name` starts. */
  next(name: string): void {
    const position = `[${this.done + 1}/${this.total}]`;
    if (!this.tty) return void process.stderr.write(`${position} ${name}\n`);
    const eta = this.done > 0 ? ` · ETA ${duration(((Date.now() - this.started) / this.done) * (this.total - this.done))}` : '';
    const line = `${position} ${name}${eta}`;
    const width = process.stderr.columns ?? 100;
    process.stderr.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
  }

  /** The case ended (its line, if any, is printed after this). */
  finished(): void {
    this.done++;
    this.clear();
  }

  /** Removes the status line (before printing, and at the end). */
  clear(): void {
    if (this.tty) process.stderr.write('\r\x1b[2K');
  }
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** A finished case as one line: the median and its CI (micro), or req/s and CPU per request (load). */
export function caseLine(result: CaseResult, idWidth: number): string {
  const id = caseId(result).padEnd(idWidth);
  const m = result.metrics;
  if (m?.requestsPerSec !== undefined) {
    const cpu = Number.isFinite(m.serverCpuUsPerReq) ? `  ${formatNs(m.serverCpuUsPerReq * 1000)} CPU/req` : '';
    const p99 = m.latencyP99Ms !== undefined ? `  p99 ${formatNs(m.latencyP99Ms * 1e6)}` : '';
    return `${id}  ${formatRate(m.requestsPerSec).padStart(9)}${cpu}${p99}`;
  }
  const s = result.stats;
  return `${id}  ${formatNs(s.median).padStart(10)}  (95% CI ${formatNs(s.ciLow)} … ${formatNs(s.ciHigh)}, p99 ${formatNs(s.p99)})`;
}

/**
 * Per group of two or more implementations: how each wirespeed implementation compares with the
 * baseline and with the fastest other peer; groups without wirespeed compare their fastest.
 */
export function summaryLines(results: CaseResult[]): string[] {
  const groups = new Map<string, CaseResult[]>();
  for (const r of results) {
    const key = `${r.suite} / ${r.group}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const lines: string[] = [];
  for (const [group, members] of groups) {
    if (members.length < 2) continue;
    const time = (r: CaseResult) => r.stats.median;
    const ours = members.filter((r) => isOurs(r.impl));
    const peers = members.filter((r) => !ours.includes(r));
    const subjects = ours.length > 0 ? ours : [members.reduce((a, b) => (time(b) < time(a) ? b : a))];
    const sentences: string[] = [];
    for (const subject of subjects) {
      const others = peers.filter((r) => r !== subject);
      if (others.length === 0) continue;
      const baseline = others.find((r) => r.baseline);
      // The baseline, and the fastest of the other peers (when there is one).
      const rest = others.filter((r) => r !== baseline);
      const fastest = rest.length > 0 ? rest.reduce((a, b) => (time(b) < time(a) ? b : a)) : undefined;
      const against = [baseline, fastest].filter((r): r is CaseResult => r !== undefined);
      const words = against.map((r) => `${speedWords(time(subject), time(r))} than ${r.impl}${r === baseline ? ' (baseline)' : ''}`);
      sentences.push(`    ${subject.impl} ran ${words.join(' and ')}`);
    }
    if (sentences.length > 0) lines.push(`  ${group}`, ...sentences);
  }
  return lines;
}
