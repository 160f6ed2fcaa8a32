// The reports `wirespeed report NAME` reproduces: which suites it runs and how it prints them.
// Reports that need HTTP/2 (the engine comparison's h2 half, h1 vs h2) come with the HTTP/2 server.
import type { ResultFile } from '../harness/types.js';
import { heading, suiteTable } from './markdown.js';

export interface ReportDefinition {
  title: string;
  suites: string[];
  /** Per suite, the heading of its table (the dashboard shows the same sections). */
  sections: [suite: string, heading: string][];
  render(file: ResultFile, resultPath: string): string;
}

/** A report of one table per suite, in the order given. */
function defineReport(title: string, sections: [suite: string, heading: string][]): ReportDefinition {
  return {
    title,
    suites: sections.map(([suite]) => suite),
    sections,
    render: (file, path) => [heading(title, file, path), ...sections.flatMap(([suite, text]) => [`## ${text}`, '', suiteTable(file, suite)])].join('\n'),
  };
}

export const REPORTS: Record<string, ReportDefinition> = {
  micro: defineReport('Router, parser and IPC micro-benchmarks', [
    ['router', 'Router: static lookups across 10…10,000 routes, 1–3 params, wildcards, methods, 404s, the GitHub API'],
    ['parser', 'HTTP/1.1 request parsing (all strings made; "lazy": none)'],
    ['ipc', 'IPC: encode/decode by size and codec, size scaling, frame overhead, round trips per transport'],
  ]),
};
