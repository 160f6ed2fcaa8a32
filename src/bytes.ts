/** `a` then `b` in one new buffer: what is held back from the last chunk, joined to the next. */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** All of `parts` in one buffer (the part itself when there is just one; no quadratic re-copying). */
export function concatAll(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A Joiner's buffer before its first join and after it lets go of one. */
const EMPTY_JOIN = new Uint8Array(0);

/**
 * Joins bytes held back from one read to the next read, as `concat` does, into a buffer with room
 * for as much again: bytes held back from that join (all of them, or their end) take the next
 * read in place. So a head or a frame that comes in many small reads is copied a few times in
 * all, not once per read (joined anew each time, a 4 MB head in 1,448-byte reads took 3.9 s, and
 * an 8 MB HTTP/2 frame 1 s). Only bytes past the last join are ever written: views of joined bytes
 * stay as they are.
 */
export class Joiner {
  private buffer: Uint8Array = EMPTY_JOIN;
  private filled = 0;

  /** `held` then `chunk`, as one view. */
  join(held: Uint8Array, chunk: Uint8Array): Uint8Array {
    const buffer = this.buffer;
    const start = held.byteOffset;
    if (held.buffer === buffer.buffer && start + held.length === this.filled && this.filled + chunk.length <= buffer.length) {
      buffer.set(chunk, this.filled);
      this.filled += chunk.length;
      return buffer.subarray(start, this.filled);
    }
    const length = held.length + chunk.length;
    const joined = new Uint8Array(2 * length);
    joined.set(held);
    joined.set(chunk, held.length);
    this.buffer = joined;
    this.filled = length;
    return joined.subarray(0, length);
  }

  /**
   * What to hold back of data[from..] until the next chunk: a join read to no avail as it is (the
   * next chunk then goes in place), else a copy, so a chunk's buffer is not kept.
   */
  keep(data: Uint8Array, from: number): Uint8Array {
    const held = from === data.length ? EMPTY_JOIN : from === 0 && data.buffer === this.buffer.buffer ? data : data.slice(from);
    this.releaseUnless(held);
    return held;
  }

  /**
   * Lets go of the last join's buffer unless `held` is in it: kept, an idle keep-alive connection
   * would hold twice the last head that came in pieces.
   */
  releaseUnless(held: Uint8Array | null): void {
    if (this.buffer === EMPTY_JOIN || (held !== null && held.buffer === this.buffer.buffer)) return;
    this.buffer = EMPTY_JOIN;
    this.filled = 0;
  }
}

/**
 * A view keeps its whole buffer alive. A piece kept for long (a body's, until its reader takes
 * it) is copied out of a buffer larger than PINNED_FACTOR times its size and PINNED_SLACK
 * besides: a Deno read slab shared with other connections, a read buffer mostly of other bytes.
 */
const PINNED_FACTOR = 4;
const PINNED_SLACK = 2 * 1024;

/** `piece`, or a copy of it where it would keep a far larger buffer alive (see PINNED_FACTOR). */
export function unpinned(piece: Uint8Array): Uint8Array {
  return piece.buffer.byteLength > PINNED_FACTOR * piece.length + PINNED_SLACK ? piece.slice() : piece;
}

/** A piece under this many bytes is copied onto the small pieces before it instead of kept on its own. */
export const SMALL_PIECE_BYTES = 1024;
/** Small pieces are joined into buffers of this size. */
const JOINED_BYTES = 16 * 1024;

/**
 * Pieces of a byte stream as they arrive, kept in order, with runs of small ones copied together.
 * A typed array costs ~100-250 bytes besides its contents, so a body sent as 1-byte chunks (6
 * bytes on the wire each) held as it came would take 100x its size: 600 MB for 5 MB sent.
 * Joined, a run of small pieces takes one object per 16 KiB. A single piece (most bodies) is
 * kept as it is, with no copy.
 */
export class JoinedPieces {
  readonly parts: Uint8Array[] = [];
  /** Bytes in all parts. */
  bytes = 0;
  /** The buffer the last part is a view into, while small pieces are joined there; its bytes in use. */
  private run: Uint8Array | null = null;
  private runBytes = 0;

  push(piece: Uint8Array): void {
    const parts = this.parts;
    const length = piece.length;
    const last = parts.length - 1;
    const run = this.run;
    this.bytes += length;
    if (length >= SMALL_PIECE_BYTES || last < 0) {
      this.run = null;
      // (The first piece as it is: most bodies are one piece, read at once.)
      parts.push(last < 0 ? piece : unpinned(piece));
    } else if (run !== null && this.runBytes + length <= run.length) {
      run.set(piece, this.runBytes);
      parts[last] = run.subarray(0, (this.runBytes += length));
    } else if (run === null && parts[last].length < SMALL_PIECE_BYTES) {
      // A second small piece in a row: a run starts, with the one before it.
      const previous = parts[last];
      const started = (this.run = new Uint8Array(JOINED_BYTES));
      started.set(previous);
      started.set(piece, previous.length);
      parts[last] = started.subarray(0, (this.runBytes = previous.length + length));
    } else {
      // After a large piece, or a full run: on its own until a next small one joins it.
      this.run = null;
      parts.push(unpinned(piece));
    }
  }

  /** All the bytes in one buffer. */
  join(): Uint8Array {
    return this.parts.length === 0 ? new Uint8Array(0) : concatAll(this.parts);
  }

  /** Every piece, in order, handed over: the list is empty after (so a reader called back meanwhile finds none). */
  take(): Uint8Array[] {
    const parts = this.parts.splice(0);
    this.bytes = 0;
    this.run = null;
    return parts;
  }

  /** Lets go of every piece. */
  clear(): void {
    this.parts.length = 0;
    this.bytes = 0;
    this.run = null;
  }
}

/** Bytes V8 keeps a typed array's contents in its own heap up to (V8_TYPED_ARRAY_MAX_SIZE_IN_HEAP). */
export const IN_HEAP_BYTES = 64;

/**
 * Copies out of a reused buffer (wasm memory) as views into shared slabs, as Node's Buffer pool
 * does: V8 allocates a typed array over IN_HEAP_BYTES outside its heap and registers it with the
 * GC (~350–700 ns on this VM), where a view of an existing buffer costs ~70 ns. A slab is never
 * reused: a copy kept alive keeps its slab alive, as a Buffer keeps its pool.
 */
export class Slab<A extends Uint8Array | Uint32Array> {
  private current: A;
  private used = 0;

  /** `create(length)` makes a slab; slabs hold `length` elements, or one larger copy. */
  constructor(
    private readonly create: (length: number) => A,
    private readonly length: number,
  ) {
    this.current = create(0);
  }

  /** A copy of `source[start..end)` that stays valid when `source` changes. */
  copy(source: Uint8Array | Uint32Array, start: number, end: number): A {
    const count = end - start;
    const at = this.reserve(count);
    this.current.set(source.subarray(start, end), at);
    return this.take(count);
  }

  /**
   * Where `count` free elements start in `slab` (a new slab when the current one has not that many
   * left), for a caller that writes them in place and then `take`s what it wrote.
   */
  reserve(count: number): number {
    if (this.used + count > this.current.length) {
      this.current = this.create(Math.max(this.length, count));
      this.used = 0;
    }
    return this.used;
  }

  /** The slab `reserve` points into. */
  get slab(): A {
    return this.current;
  }

  /** The next `count` elements, written by the caller, as a view that no later call writes. */
  take(count: number): A {
    const at = this.used;
    this.used += count;
    return this.current.subarray(at, this.used) as A;
  }
}
