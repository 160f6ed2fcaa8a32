import { describe, expect, it } from 'vitest';
import { QUICK_OPTIONS, runCase } from '../../bench/harness/runner.js';
import type { BenchCase } from '../../bench/harness/types.js';

const QUICKER = { ...QUICK_OPTIONS, warmupMs: 20, minTimeMs: 40 };

function benchCase(setup: BenchCase['setup']): BenchCase {
  return { suite: 'test', group: 'runner', impl: 'op', setup };
}

describe('the case runner', () => {
  it('awaits an asynchronous operation one call at a time, the very first one too', async () => {
    let inFlight = 0;
    let most = 0;
    const result = await runCase(
      benchCase(() => async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
      }),
      QUICKER,
    );
    // Two at once would mean a run measured while the one before it was still finishing.
    expect(most).toBe(1);
    expect(result.samples.length).toBeGreaterThanOrEqual(16);
  });
});
