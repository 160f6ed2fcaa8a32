// The reports `wirespeed report NAME` reproduces: which suites it runs and how it prints them.
// Reports that need HTTP/2 (the engine comparison's h2 half, h1 vs h2) come with the HTTP/2 server.
import type { ResultFile } from '../harness/types.js';
import { heading, suiteTable } from './markdown.js';

export interface ReportDefinition {
  title: string;
  suites: string[];
  render(file: ResultFile, resultPath: string): string;
}

export const REPORTS: Record<string, ReportDefinition> = {
  micro: {
    title: 'Router, parser and IPC micro-benchmarks',
    suites: ['router', 'parser', 'ipc'],
    render: (file, path) =>
      [
        heading('Router, parser and IPC micro-benchmarks', file, path),
        '## Router: static lookups across 10…10,000 routes, 1–3 params, wildcards, methods, 404s, the GitHub API',
        '',
        suiteTable(file, 'router'),
        '## HTTP/1.1 request parsing (all strings made; "lazy": none)',
        '',
        suiteTable(file, 'parser'),
        '## IPC: encode/decode by size and codec, size scaling, frame overhead, round trips per transport',
        '',
        suiteTable(file, 'ipc'),
      ].join('\n'),
  },
};
