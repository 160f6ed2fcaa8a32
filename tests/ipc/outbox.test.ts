// The outbox writes a text payload where its least size fits (a byte per UTF-16 unit) and writes it
// again when that first write may have been cut short: every text must come out whole, whatever
// its characters and wherever the arena ends.
import { describe, expect, it } from 'vitest';
import { FrameDecoder, IpcFrameType } from '../../src/ipc/index.js';
import { Outbox } from '../../src/ipc/outbox.js';

const ARENA_BYTES = 16 * 1024; // outbox.ts
const NO_LIMIT = 64 * 1024 * 1024;

/** Queues `texts` as frames (ids 1, 2, ...), flushes, and returns what a decoder reads back, with the batch count. */
function roundTrip(texts: string[]): { texts: string[]; batches: number } {
  const batches: Uint8Array[] = [];
  const outbox = new Outbox({ send: (bytes) => batches.push(bytes.slice()), start() {}, close() {} }, (error) => {
    throw error;
  });
  texts.forEach((text, i) => outbox.text(IpcFrameType.DATA, i + 1, text, NO_LIMIT));
  outbox.flush();
  const decoder = new FrameDecoder(NO_LIMIT);
  const frames = batches.flatMap((batch) => decoder.push(batch));
  expect(frames.map((frame) => frame.id)).toEqual(texts.map((_, i) => i + 1));
  return { texts: frames.map((frame) => new TextDecoder().decode(frame.payload)), batches: batches.length };
}

describe('outbox text frames', () => {
  it('come out whole when the arena ends inside a character, for 1-, 2-, 3- and 4-byte characters', () => {
    for (const character of ['a', 'é', '中', '😀']) {
      // Pad the arena so that the next text's least size fits and its UTF-8 does not, at every offset near the end.
      for (let short = 0; short < 12; short++) {
        const text = character.repeat(40);
        const pad = 'p'.repeat(ARENA_BYTES - 9 /* header */ * 2 - text.length - short);
        const { texts } = roundTrip([pad, text, 'after']);
        expect(texts).toEqual([pad, text, 'after']);
      }
    }
  });

  it('keep lone surrogates as U+FFFD, as TextEncoder does, at the end of the arena too', () => {
    const text = 'a\ud800b\udfffc';
    const pad = 'p'.repeat(ARENA_BYTES - 18 - text.length - 1);
    expect(roundTrip([pad, text]).texts).toEqual([pad, 'a\ufffdb\ufffdc']);
  });

  it('take the bytes they need, not three per character: fifteen 1 KB items leave in one batch', () => {
    const item = 'x'.repeat(1022);
    const { texts, batches } = roundTrip(Array.from({ length: 15 }, () => item));
    expect(texts.every((text) => text === item)).toBe(true);
    expect(batches).toBe(1); // reserving 3 bytes a character made it 3
  });

  it('larger than the arena, or whose UTF-8 is, go out whole too', () => {
    const texts = ['x'.repeat(ARENA_BYTES), '中'.repeat(6000), 'x'.repeat(ARENA_BYTES - 9), 'y'.repeat(ARENA_BYTES - 10) + 'é'];
    expect(roundTrip(texts).texts).toEqual(texts);
  });
});

describe('outbox arena', () => {
  /** An outbox whose transport records the size of every arena it allocates and of every batch sent. */
  function recordingOutbox() {
    const arenas: number[] = [];
    const batches: number[] = [];
    const outbox = new Outbox(
      {
        send: (bytes) => void batches.push(bytes.length),
        allocate: (size) => (arenas.push(size), new Uint8Array(size)),
        start() {},
        close() {},
      },
      (error) => {
        throw error;
      },
    );
    return { outbox, arenas, batches };
  }

  it('grows when a turn fills it, 16 KiB to 64 KiB, so a stream leaves in fewer, larger writes', () => {
    const { outbox, arenas, batches } = recordingOutbox();
    const item = 'x'.repeat(1022);
    for (let i = 0; i < 300; i++) outbox.text(IpcFrameType.DATA, 1, item, NO_LIMIT);
    outbox.flush();
    expect(arenas.slice(0, 4)).toEqual([ARENA_BYTES, 2 * ARENA_BYTES, 4 * ARENA_BYTES, 4 * ARENA_BYTES]);
    expect(Math.max(...arenas)).toBe(64 * 1024);
    expect(batches.reduce((a, b) => a + b)).toBe(300 * 1031);
    expect(batches.length).toBeLessThanOrEqual(7); // 19 with 16 KiB arenas
  });

  it('stays small for small turns: one frame per turn never fills it', () => {
    const { outbox, arenas } = recordingOutbox();
    for (let i = 0; i < 1000; i++) {
      outbox.text(IpcFrameType.REQUEST, i + 1, `["add",[${i},1]]`, NO_LIMIT);
      outbox.flush(); // the end of a turn
    }
    expect(arenas.length).toBeGreaterThan(1); // it was used up and made again
    expect(new Set(arenas)).toEqual(new Set([ARENA_BYTES]));
  });
});
