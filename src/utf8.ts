// UTF-8 text straight from and into byte ranges, without a typed-array view per call where the
// runtime allows (Node's, Deno's and Bun's Buffer methods work on any Uint8Array). A view costs
// ~50 ns and a fresh array from TextEncoder#encode ~590 ns on the reference machine, against
// ~110 ns for the whole of Buffer#utf8Write of a 40-byte message (bench notes: src/ipc/outbox.ts).
import { Slab } from './bytes.js';

type Utf8Slicer = (this: Uint8Array, start: number, end: number) => string;
type Utf8Writer = (this: Uint8Array, text: string, offset: number, length: number) => number;

const bufferPrototype = (globalThis as { Buffer?: { prototype: { utf8Slice?: Utf8Slicer; utf8Write?: Utf8Writer } } }).Buffer?.prototype;
const nativeSlice = bufferPrototype?.utf8Slice;
const nativeWrite = bufferPrototype?.utf8Write;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The text of bytes[start..end) as UTF-8 (malformed sequences become U+FFFD, as TextDecoder does). */
export function utf8Range(bytes: Uint8Array, start: number, end: number): string {
  if (nativeSlice) return nativeSlice.call(bytes, start, end);
  return decoder.decode(bytes.subarray(start, end));
}

/**
 * Bytes of a slab of the pool `encodeOut` writes into: texts up to a quarter of it (whose UTF-8
 * always fits a fresh slab) are written there.
 */
const OUT_POOL_BYTES = 64 * 1024;
/** Room a write may leave when it stopped short: one character's UTF-8 (4 bytes) did not fit. */
const UTF8_MAX_CHAR = 4;
const outPool = new Slab((length) => new Uint8Array(length), OUT_POOL_BYTES);

/**
 * `text` as UTF-8, for bytes that only go out to the network: a view of a shared slab that is
 * never written again (as Node's Buffer pool; a view kept alive keeps its 64 KiB slab). A fresh
 * array from TextEncoder#encode is mostly its allocation: 2.6 us for 10 KB here, against
 * 0.25 us written into the slab. Never hand these bytes to user code: its `.buffer` is the slab.
 */
export function encodeOut(text: string): Uint8Array {
  if (text.length > OUT_POOL_BYTES / UTF8_MAX_CHAR) return encoder.encode(text);
  // Room for the text as ASCII; a write that then left room for one more character wrote all of
  // it. One that did not is written again into a fresh slab, which has room for any such text.
  let at = outPool.reserve(text.length + UTF8_MAX_CHAR);
  let written = writeUtf8(outPool.slab, at, text);
  if (written > outPool.slab.length - at - UTF8_MAX_CHAR) {
    at = outPool.reserve(OUT_POOL_BYTES);
    written = writeUtf8(outPool.slab, at, text);
  }
  return outPool.take(written);
}

/** Most bytes `text` can take as UTF-8: 3 per UTF-16 code unit (a surrogate pair is 4 for 2). */
export function maxUtf8Length(text: string): number {
  return text.length * 3;
}

/**
 * Writes `text` as UTF-8 into `bytes` from `at`; returns the bytes written. With less room than
 * `maxUtf8Length(text)` it writes the whole characters that fit. Lone surrogates become U+FFFD, as
 * TextEncoder makes them.
 */
export function writeUtf8(bytes: Uint8Array, at: number, text: string): number {
  if (nativeWrite) return nativeWrite.call(bytes, text, at, bytes.length - at);
  return encoder.encodeInto(text, bytes.subarray(at)).written;
}
