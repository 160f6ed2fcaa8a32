// Messages between the Run view and the benchmark worker.
import type { CaseResult, ResultFile } from '../../../bench/harness/types.js';

/** The suites a browser can run (the server suite needs wrk and processes). */
export const BROWSER_SUITES = ['parser', 'hpack', 'router', 'ipc'] as const;
export type BrowserSuite = (typeof BROWSER_SUITES)[number];

/**
 * The peers each suite leaves out in a browser, and why (the run view says so; the CLI on Node runs
 * them: `npx wirespeed bench`). Every other peer of the suite runs here, in the same worker.
 */
export const NODE_ONLY_PEERS: Record<BrowserSuite, [peer: string, why: string][]> = {
  parser: [['llhttp (node:http)', "Node's own parser, a C++ binding of node:http"]],
  hpack: [],
  router: [],
  ipc: [
    ['Unix socket, child process stdio and IPC channel', 'operating-system pipes: node:net and node:child_process'],
    ['Worker MessagePort, SharedArrayBuffer ring', "node:worker_threads (a browser's Worker would be another case)"],
    ['WebSocket', 'a wirespeed server in the same process, and the ws client'],
  ],
};

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
