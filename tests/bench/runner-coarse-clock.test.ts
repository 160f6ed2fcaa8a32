// The runner under a browser's clock: performance.now() in steps of 100 µs (a page that is not
// cross-origin isolated; 5 µs when it is), set before the runner and mitata are loaded (mitata
// binds the clock when it loads).
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchCase } from '../../bench/harness/types.js';

const BROWSER_STEP_MS = 0.1;
const realNow = performance.now.bind(performance);
performance.now = () => Math.floor(realNow() / BROWSER_STEP_MS) * BROWSER_STEP_MS;
afterAll(() => {
  performance.now = realNow;
});
const { QUICK_OPTIONS, runCase } = await import('../../bench/harness/runner.js');

describe("the case runner with a browser's coarse clock", () => {
  it('stores no sample of 0 for an operation that was slow in its warm-up and is nearly free after', async () => {
    // ~2 µs a call through the warm-up (as an operation still interpreted, or a thread off the
    // CPU, makes it look), then ~1 ns: batches sized on the warm-up span less than a clock step.
    const SLOW_CALL_MS = 0.002;
    const slowCalls = Math.ceil((QUICK_OPTIONS.warmupMs * 1.3) / SLOW_CALL_MS);
    let calls = 0;
    const c: BenchCase = {
      suite: 'test',
      group: 'runner',
      impl: 'slow, then free',
      setup: () => () => {
        if (++calls < slowCalls) {
          const until = realNow() + SLOW_CALL_MS;
          while (realNow() < until);
        }
        return calls;
      },
    };
    const result = await runCase(c, QUICK_OPTIONS);
    expect(result.samples.length).toBeGreaterThanOrEqual(16);
    expect(result.samples.filter((sample) => sample <= 0)).toEqual([]);
    expect(result.stats.median).toBeGreaterThan(0);
  });
});
