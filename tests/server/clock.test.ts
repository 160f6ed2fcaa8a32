// The server's clock: one reading per socket read, the real time everywhere else.
import { describe, expect, it } from 'vitest';
import { holdClock, now, releaseClock } from '../../src/server/clock.js';

/** Spins until Date.now() has moved past `time` (so a held reading is visibly old). */
function waitPast(time: number): void {
  while (Date.now() <= time + 2) {
    // busy: a timer would leave the synchronous read this stands for
  }
}

describe('server clock', () => {
  it('gives one reading for the whole of a read', () => {
    holdClock();
    try {
      const first = now();
      waitPast(first);
      expect(now()).toBe(first);
    } finally {
      releaseClock();
    }
  });

  it('tells the real time once the read is over', () => {
    holdClock();
    const held = now();
    releaseClock();
    waitPast(held);
    expect(now()).toBeGreaterThan(held);
    expect(Math.abs(now() - Date.now())).toBeLessThanOrEqual(1);
  });

  it('keeps the outer reading through a nested read, and lets go after the outer one', () => {
    holdClock();
    const outer = now();
    waitPast(outer);
    holdClock();
    expect(now()).toBe(outer);
    releaseClock();
    expect(now()).toBe(outer);
    releaseClock();
    expect(now()).toBeGreaterThan(outer);
  });
});
