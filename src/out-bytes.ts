// Text encoded for bytes that only go out to the network, into shared pools instead of a fresh
// array per call: on this VM a fresh typed array is mostly its allocation (TextEncoder#encode took
// 2.6 us for 10 KB, against 0.25 us written into the pool). The pools' slabs are never written
// again (as Node's Buffer pool): a view kept alive, queued behind flow control, keeps its slab.
// Never hand these bytes to user code: their `.buffer` is the slab.
import { Slab } from './bytes.js';
import { latin1Bytes, writeLatin1 } from './latin1.js';
import { MAX_UTF8_CHARACTER, writeUtf8 } from './utf8.js';

/**
 * Bytes of a slab of the pool: texts up to a quarter of it (whose UTF-8 always fits a fresh slab)
 * are written there.
 */
const OUT_POOL_BYTES = 64 * 1024;
/** The longest text written into the pool; a longer one gets its own array. */
const POOLED_CHARS = OUT_POOL_BYTES / 4;
const outPool = new Slab((length) => new Uint8Array(length), OUT_POOL_BYTES);
/**
 * Bytes of a slab of the pool of joined writes and latin1 frames, Node's Buffer.poolSize: a write
 * a stalled socket (or HTTP/2 stream) never sends keeps its slab alive, so one left pending by
 * each of many clients that stop reading holds at most this much apiece.
 */
const SMALL_POOL_BYTES = 8 * 1024;
const smallPool = new Slab((length) => new Uint8Array(length), SMALL_POOL_BYTES);
/** The longest latin1 frame joined into that pool; a longer one gets its own array. */
const POOLED_FRAME_CHARS = SMALL_POOL_BYTES / 4;
const encoder = new TextEncoder();

/** `text` as UTF-8, a view of the shared pool. */
export function encodeOut(text: string): Uint8Array {
  if (text.length > POOLED_CHARS) return encoder.encode(text);
  // Room for the text as ASCII; a write that then left room for one more character wrote all of
  // it. One that did not is written again into a fresh slab, which has room for any such text.
  let at = outPool.reserve(text.length + MAX_UTF8_CHARACTER);
  let written = writeUtf8(outPool.slab, at, text);
  if (written > outPool.slab.length - at - MAX_UTF8_CHARACTER) {
    at = outPool.reserve(OUT_POOL_BYTES);
    written = writeUtf8(outPool.slab, at, text);
  }
  return outPool.take(written);
}

/**
 * The latin1 bytes of `text` (char codes all < 256, as a frame header joined to its ASCII
 * payload), a view of the small pool.
 */
export function latin1Out(text: string): Uint8Array {
  return text.length > POOLED_FRAME_CHARS ? latin1Bytes(text) : joinOut([text], text.length);
}

/** Bytes, and strings of char codes < 256 (latin1), as a transport queues them. */
export type OutPart = Uint8Array | string;

/** Writes `parts` one after the other into `into` from `at` (strings as latin1). */
export function joinInto(parts: readonly OutPart[], into: Uint8Array, at: number): void {
  for (const part of parts) {
    if (typeof part === 'string') writeLatin1(part, into, at);
    else into.set(part, at);
    at += part.length;
  }
}

/** `parts` (`size` bytes in all) joined, a view of the small pool: a small write's one buffer. */
export function joinOut(parts: readonly OutPart[], size: number): Uint8Array {
  const at = smallPool.reserve(size);
  joinInto(parts, smallPool.slab, at);
  return smallPool.take(size);
}
