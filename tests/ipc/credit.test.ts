// A CREDIT frame's payload: 8 bytes on byte channels, the pair of counts on cloned ones; any other
// shape is a corrupt frame.
import { describe, expect, it } from 'vitest';
import { creditPayload, readCredit } from '../../src/ipc/credit.js';

describe('IPC credit payloads', () => {
  it('round-trips in both forms, up to u32 counts', () => {
    for (const [items, bytes] of [
      [0, 0],
      [1, 1024],
      [65_536, 2 ** 30],
      [2 ** 32 - 1, 2 ** 32 - 1],
    ]) {
      const wire = creditPayload(false, items!, bytes!);
      expect(wire).toBeInstanceOf(Uint8Array);
      expect(wire).toHaveLength(8);
      expect(readCredit(wire)).toEqual({ items, bytes });
      expect(creditPayload(true, items!, bytes!)).toEqual([items, bytes]);
      expect(readCredit(creditPayload(true, items!, bytes!))).toEqual({ items, bytes });
    }
    // Big-endian, items first.
    expect([...(creditPayload(false, 0x01020304, 0x05060708) as Uint8Array)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // A view into a larger buffer reads from its own offset.
    expect(readCredit(Uint8Array.of(9, 9, 0, 0, 0, 2, 0, 0, 0, 3).subarray(2))).toEqual({ items: 2, bytes: 3 });
  });

  it('refuses any other shape with ERR_CORRUPT_FRAME', () => {
    for (const payload of [
      new Uint8Array(4),
      new Uint8Array(9),
      [1],
      [1, 2, 3],
      [-1, 0],
      [1.5, 0],
      [2 ** 32, 0],
      ['1', 0],
      'x',
      null,
      {},
    ]) {
      expect(() => readCredit(payload)).toThrow(expect.objectContaining({ code: 'ERR_CORRUPT_FRAME' }));
    }
  });
});
