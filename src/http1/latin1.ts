// Byte-exact latin1 (ISO-8859-1) decoding on every runtime. WHATWG TextDecoder('latin1') is really
// windows-1252 and maps 0x80-0x9F to other code points, so it cannot be used for HTTP heads.

const CHUNK = 4096;

/** One JS string whose char codes are exactly the bytes. */
export function latin1(bytes: Uint8Array): string {
  if (bytes.length <= CHUNK) {
    return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  let out = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return out;
}

/** Latin1 bytes of a string whose char codes are all < 256 (the writer checks that first). */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
