// Messages between the Run view and the benchmark worker.
import type { CaseResult, ResultFile } from '../../../bench/harness/types.js';

/** The suites a browser can run (the server suite needs wrk and processes). */
export const BROWSER_SUITES = ['parser', 'hpack', 'router', 'ipc'] as const;
export type BrowserSuite = (typeof BROWSER_SUITES)[number];

export interface RunRequest {
  suites: BrowserSuite[];
  quick: boolean;
  /** Only cases whose "group / impl" contains this. */
  filter?: string;
}

export type WorkerMessage =
  | { type: 'start'; total: number }
  | { type: 'case'; index: number; name: string }
  | { type: 'result'; result: CaseResult }
  | { type: 'done'; file: ResultFile }
  | { type: 'error'; message: string };
