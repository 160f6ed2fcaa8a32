// Runs benchmark suites off the page's thread, with the same harness and cases as the CLI, and
// reports each case as it finishes.
import { browserFingerprint } from '../../../bench/harness/fingerprint.js';
import { leftOutReason } from '../../../bench/harness/peers.js';
import { DEFAULT_OPTIONS, QUICK_OPTIONS, runCase } from '../../../bench/harness/runner.js';
import { RESULT_SCHEMA, type BenchCase, type CaseResult, type Suite } from '../../../bench/harness/types.js';
import { hpackSuite } from '../../../bench/suites/hpack.js';
import { ipcSuite } from '../../../bench/suites/ipc.js';
import { parserSuite } from '../../../bench/suites/parser.js';
import { routerSuite } from '../../../bench/suites/router.js';
import type { BrowserSuite, RunRequest, WorkerMessage } from './protocol.js';

const SUITES: Record<BrowserSuite, Suite> = { parser: parserSuite, hpack: hpackSuite, router: routerSuite, ipc: ipcSuite };
const post = (message: WorkerMessage) => postMessage(message);

async function run({ suites, quick, filter }: RunRequest): Promise<void> {
  const options = quick ? QUICK_OPTIONS : DEFAULT_OPTIONS;
  const cases: BenchCase[] = [];
  for (const name of suites) {
    for (const c of await SUITES[name].cases('browser')) if (!filter || `${c.group} / ${c.impl}`.includes(filter)) cases.push(c);
  }
  post({ type: 'start', total: cases.length });
  const results: CaseResult[] = [];
  for (const [index, c] of cases.entries()) {
    post({ type: 'case', index, name: `${c.suite} / ${c.group} / ${c.impl}` });
    let result: CaseResult;
    try {
      result = await runCase(c, options);
    } catch (error) {
      if (leftOutReason(error)) continue; // a peer that cannot express this case
      throw error;
    }
    results.push(result);
    post({ type: 'result', result });
  }
  post({
    type: 'done',
    file: {
      schema: RESULT_SCHEMA,
      createdAt: new Date().toISOString(),
      fingerprint: browserFingerprint(),
      options: { quick, isolate: false, warmupMs: options.warmupMs, minTimeMs: options.minTimeMs },
      cases: results,
    },
  });
}

onmessage = (event: MessageEvent<RunRequest>) => {
  run(event.data).catch((error: unknown) =>
    post({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
};
