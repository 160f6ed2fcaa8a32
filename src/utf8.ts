// UTF-8 text straight from and into byte ranges, without a typed-array view per call where the
// runtime allows (Node's, Deno's and Bun's Buffer methods work on any Uint8Array). A view costs
// ~50 ns and a fresh array from TextEncoder#encode ~590 ns on the reference machine, against
// ~110 ns for the whole of Buffer#utf8Write of a 40-byte message (bench notes: src/ipc/outbox.ts).
type Utf8Slicer = (this: Uint8Array, start: number, end: number) => string;
type Utf8Writer = (this: Uint8Array, text: string, offset: number, length: number) => number;

type Utf8Counter = (text: string, encoding: 'utf8') => number;

const NativeBuffer = (
  globalThis as { Buffer?: { prototype: { utf8Slice?: Utf8Slicer; utf8Write?: Utf8Writer }; byteLength?: Utf8Counter } }
).Buffer;
const nativeSlice = NativeBuffer?.prototype.utf8Slice;
const nativeWrite = NativeBuffer?.prototype.utf8Write;
const nativeByteLength = NativeBuffer?.byteLength;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The text of bytes[start..end) as UTF-8 (malformed sequences become U+FFFD, as TextDecoder does). */
export function utf8Range(bytes: Uint8Array, start: number, end: number): string {
  if (nativeSlice) return nativeSlice.call(bytes, start, end);
  return decoder.decode(bytes.subarray(start, end));
}

/**
 * The UTF-8 length of `text` (lone surrogates count as U+FFFD, as TextEncoder writes them), counted
 * natively where the runtime can (Buffer.byteLength). It equals `text.length` exactly when the
 * text is ASCII.
 */
export function utf8Length(text: string): number {
  if (nativeByteLength) return nativeByteLength(text, 'utf8');
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) length += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: 4 bytes for its 2 units.
      length += 2;
      i++;
    } else length += 2;
  }
  return length;
}

/** Most bytes one character takes as UTF-8 (a surrogate pair; one UTF-16 unit takes at most 3). */
export const MAX_UTF8_CHARACTER = 4;

/** Most bytes `text` can take as UTF-8: 3 per UTF-16 code unit (a surrogate pair is 4 for 2). */
export function maxUtf8Length(text: string): number {
  return text.length * 3;
}

/**
 * Writes `text` as UTF-8 into `bytes` from `at`; returns the bytes written. With less room than
 * `maxUtf8Length(text)` it writes the whole characters that fit, so a write cut short leaves less
 * than MAX_UTF8_CHARACTER bytes unused. Lone surrogates become U+FFFD, as TextEncoder makes them.
 */
export function writeUtf8(bytes: Uint8Array, at: number, text: string): number {
  if (nativeWrite) return nativeWrite.call(bytes, text, at, bytes.length - at);
  return encoder.encodeInto(text, bytes.subarray(at)).written;
}
