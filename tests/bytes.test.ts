import { describe, expect, it } from 'vitest';
import { concat, concatAll, JoinedPieces, Joiner } from '../src/bytes.js';

/** A piece of `length` bytes, each its index plus `seed` (so misplaced bytes show). */
function piece(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i + seed) & 0xff);
}

/** Byte equality (vitest's deep equality walks a typed array element by element, slowly). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

describe('JoinedPieces', () => {
  it('keeps a single piece, and large ones, as they are (no copy)', () => {
    const pieces = new JoinedPieces();
    const small = piece(10, 1);
    pieces.push(small);
    expect(pieces.parts[0]).toBe(small);
    const large = piece(4096, 2);
    pieces.push(large);
    expect(pieces.parts).toHaveLength(2);
    expect(pieces.parts[1]).toBe(large);
    expect(same(pieces.join(), concatAll([small, large]))).toBe(true);
  });

  it('copies a piece it keeps on its own out of a far larger buffer (a shared read slab), but the first', () => {
    const slab = piece(64 * 1024, 3);
    const pieces = new JoinedPieces();
    const first = slab.subarray(0, 10);
    pieces.push(first);
    expect(pieces.parts[0]).toBe(first);
    // A large piece, then a small one after it: both views of the 64 KiB buffer, both copied.
    pieces.push(slab.subarray(100, 1600));
    pieces.push(slab.subarray(2000, 2010));
    expect(pieces.parts.slice(1).map((part) => part.buffer.byteLength)).toEqual([1500, 10]);
    // A view that fills most of its buffer is kept as it is.
    const mostly = piece(8192, 4).subarray(0, 7000);
    pieces.push(mostly);
    expect(pieces.parts[3]).toBe(mostly);
    expect(same(pieces.join(), concatAll([first, slab.subarray(100, 1600), slab.subarray(2000, 2010), mostly]))).toBe(true);
  });

  it('holds a million 1-byte pieces in 16 KiB parts', () => {
    const pieces = new JoinedPieces();
    const one = new Uint8Array([97]);
    for (let i = 0; i < 1_000_000; i++) pieces.push(one);
    expect(pieces.bytes).toBe(1_000_000);
    expect(pieces.parts.length).toBe(Math.ceil(1_000_000 / 16_384));
    expect(pieces.join().every((byte) => byte === 97)).toBe(true);
  });

  it('keeps every byte in order over random sizes, with parts bounded by the bytes', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x80000000;
    for (let round = 0; round < 50; round++) {
      const pieces = new JoinedPieces();
      const sent: Uint8Array[] = [];
      for (let i = 0; i < 300; i++) {
        const kind = random();
        const length = kind < 0.7 ? Math.floor(random() * 8) : kind < 0.9 ? 900 + Math.floor(random() * 300) : 3000;
        const next = piece(length, i);
        sent.push(next);
        pieces.push(next);
      }
      expect(same(pieces.join(), concatAll(sent))).toBe(true);
      expect(pieces.bytes).toBe(sent.reduce((sum, p) => sum + p.length, 0));
      // A part is a large piece, or a small piece or run that follows a large piece or a full run.
      const large = sent.filter((p) => p.length >= 1024).length;
      expect(pieces.parts.length).toBeLessThanOrEqual(2 * large + 1 + Math.ceil(pieces.bytes / 16_384));
    }
  });

  it('joins nothing into an empty buffer', () => {
    expect(new JoinedPieces().join()).toEqual(new Uint8Array(0));
  });
});

describe('Joiner', () => {
  it('joins as concat does, taking the next chunk in place behind a join held as it is, and never writing over joined bytes', () => {
    const joiner = new Joiner();
    const [a, b, c, d] = [piece(5, 1), piece(7, 2), piece(3, 3), piece(40, 4)];
    const ab = joiner.join(a, b);
    expect(same(ab, concat(a, b))).toBe(true);
    // A join held back whole is kept as it is.
    expect(joiner.keep(ab, 0)).toBe(ab);
    // There is room for as much again: c goes in place behind ab, and ab is as it was.
    const abc = joiner.join(ab, c);
    expect(abc.buffer).toBe(ab.buffer);
    expect(same(abc, concatAll([a, b, c]))).toBe(true);
    expect(same(ab, concat(a, b))).toBe(true);
    // ab no longer ends where the buffer is filled: joining to it again takes a new buffer, so the
    // c behind it in the old one stays.
    const abd = joiner.join(ab, d);
    expect(abd.buffer).not.toBe(ab.buffer);
    expect(same(abd, concatAll([a, b, d]))).toBe(true);
    expect(same(abc, concatAll([a, b, c]))).toBe(true);
    // The end of a join held back takes the next chunk in place too.
    const tail = abd.subarray(10);
    const tailC = joiner.join(tail, c);
    expect(tailC.buffer).toBe(abd.buffer);
    expect(same(tailC, concat(abd.subarray(10), c))).toBe(true);
  });

  it('lets go of its buffer once what is held back is not in it', () => {
    const joiner = new Joiner();
    const ab = joiner.join(piece(5, 1), piece(7, 2));
    // Held back whole, the join keeps its buffer and takes the next chunk in place...
    expect(joiner.join(joiner.keep(ab, 0), piece(3, 3)).buffer).toBe(ab.buffer);
    // ...held back in part (a copy), or not at all, it lets go: the next join is a new buffer.
    const abc = joiner.join(ab, piece(1, 4));
    const rest = joiner.keep(abc, 3);
    expect(rest.buffer).not.toBe(abc.buffer);
    expect(same(rest, abc.subarray(3))).toBe(true);
    expect(joiner.join(rest, piece(1, 5)).buffer).not.toBe(abc.buffer);
    const abd = joiner.join(abc, piece(1, 6));
    expect(joiner.keep(abd, abd.length)).toHaveLength(0);
    expect(joiner.join(abd, piece(1, 7)).buffer).not.toBe(abd.buffer);
  });

  it('copies what comes in a thousand chunks a few times over, not once per chunk', () => {
    const joiner = new Joiner();
    const chunk = piece(1000, 5);
    let held = joiner.join(new Uint8Array(0), chunk);
    let buffers = 1;
    for (let i = 1; i < 1000; i++) {
      const joined = joiner.join(held, chunk);
      if (joined.buffer !== held.buffer) buffers++;
      held = joined;
    }
    expect(held.length).toBe(1_000_000);
    expect(same(held.subarray(999_000), chunk)).toBe(true);
    // Twice the size each time a buffer fills: 1 + log2(1000).
    expect(buffers).toBeLessThanOrEqual(11);
  });
});
