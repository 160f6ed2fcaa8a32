// Byte-exact latin1 (ISO-8859-1) decoding, fast on every runtime. WHATWG TextDecoder('latin1') is
// really windows-1252 (0x80-0x9F map elsewhere), so it is never used for HTTP bytes.
//
// Measured on the reference machine (bench notes in README): Buffer#latin1Slice takes 170 ns for a
// 78-byte head and needs no view allocation; UTF-8 TextDecoder takes 150 ns but only equals latin1
// for ASCII; String.fromCharCode.apply takes 600 ns. Typed-array views cost ~500 ns each there, so
// decoding works on (bytes, start, end) without making one when it can.

type Latin1Slicer = (this: Uint8Array, start: number, end: number) => string;

/** Buffer#latin1Slice where the runtime has Node's Buffer (Node, Deno, Bun): exact and fast. */
const nativeSlice: Latin1Slicer | undefined = (globalThis as { Buffer?: { prototype: { latin1Slice?: Latin1Slicer } } }).Buffer?.prototype
  .latin1Slice;

/** True when `latin1Range` needs to know whether the bytes are ASCII to be fast. */
export const wantsAsciiHint = nativeSlice === undefined;

const utf8 = new TextDecoder('utf-8');
const CHUNK = 4096;

function exact(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + CHUNK)) as unknown as number[]);
  }
  return out;
}

/**
 * The string whose char codes are exactly bytes[start..end). `ascii` (optional) says the range is
 * all ASCII, which lets runtimes without Buffer use the fast UTF-8 decoder.
 */
export function latin1Range(bytes: Uint8Array, start: number, end: number, ascii = false): string {
  if (nativeSlice) return nativeSlice.call(bytes, start, end);
  if (ascii) return utf8.decode(bytes.subarray(start, end));
  return exact(bytes, start, end);
}

/** One JS string whose char codes are exactly the bytes. */
export function latin1(bytes: Uint8Array): string {
  return latin1Range(bytes, 0, bytes.length);
}

const utf8Encoder = new TextEncoder();

/** Latin1 bytes of a string whose char codes are all < 256 (the writer checks that first), in an array of their own. */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  writeLatin1(text, bytes, 0);
  return bytes;
}

/**
 * ASCII chars in a row after which the rest of a string is tried natively again: past a short
 * non-ASCII prefix (a WebSocket frame header before an ASCII payload), the tail is one
 * `encodeInto` instead of a char-code loop.
 */
const ASCII_RUN = 16;

/**
 * Writes the latin1 bytes of `text` (char codes all < 256) at `into[at]`, which has room for
 * `text.length` bytes. Natively for ASCII: on Deno a char-code loop over a joined string took
 * 357 ns for 128 chars, `encodeInto` 166 ns at any length up to 1 KB. A string with non-ASCII
 * chars is written char by char only up to the first run of ASCII_RUN ASCII chars after them;
 * the rest is tried natively once more (a 64 KB WebSocket text frame: 145 us as a loop on Deno).
 */
export function writeLatin1(text: string, into: Uint8Array, at: number): void {
  // A head is ASCII (one native pass); a frame header is not, and its first char shows it.
  if (text.charCodeAt(0) < 0x80 && encodesAsAscii(text, into, at)) return;
  let i = 0;
  for (let run = 0; i < text.length && run < ASCII_RUN; i++) {
    const code = text.charCodeAt(i);
    into[at + i] = code;
    run = code < 0x80 ? run + 1 : 0;
  }
  // Once: a second non-ASCII stretch writes the rest by the loop (no pass over the text per stretch).
  if (i === text.length || encodesAsAscii(text.substring(i), into, at + i)) return;
  for (; i < text.length; i++) into[at + i] = text.charCodeAt(i);
}

/** Writes `text` at `into[at]` when it is all ASCII (its UTF-8 is then its latin1); else false. */
function encodesAsAscii(text: string, into: Uint8Array, at: number): boolean {
  const { read, written } = utf8Encoder.encodeInto(text, into.subarray(at, at + text.length));
  return read === text.length && written === text.length;
}
