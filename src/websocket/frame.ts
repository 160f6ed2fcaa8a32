// Frames as the server writes them (RFC 6455 §5.2): never masked (§5.1), the length in the
// fewest bytes.

/** Frame opcodes (RFC 6455 §5.2), by name. */
export const Opcode = {
  CONTINUATION: 0,
  TEXT: 1,
  BINARY: 2,
  CLOSE: 8,
  PING: 9,
  PONG: 10,
} as const;

const FIN = 0x80;
const RSV1 = 0x40;
const LENGTH_16 = 126;
const LENGTH_64 = 127;
const TWO_32 = 0x1_0000_0000;

/** The header of a server frame carrying `length` payload bytes (2, 4 or 10 bytes). */
export function frameHeader(opcode: number, length: number, { fin = true, compressed = false } = {}): Uint8Array {
  const first = (fin ? FIN : 0) | (compressed ? RSV1 : 0) | opcode;
  if (length < LENGTH_16) return new Uint8Array([first, length]);
  if (length <= 0xffff) return new Uint8Array([first, LENGTH_16, length >> 8, length & 0xff]);
  const header = new Uint8Array(10);
  header[0] = first;
  header[1] = LENGTH_64;
  const view = new DataView(header.buffer);
  view.setUint32(2, Math.floor(length / TWO_32));
  view.setUint32(6, length % TWO_32);
  return header;
}

/**
 * The header of a server frame as latin1 text (one char per byte): put before ASCII text, whose
 * UTF-8 bytes are its chars, it makes the frame a string a socket writes without encoding it.
 */
export function frameHeaderText(opcode: number, length: number): string {
  const first = FIN | opcode;
  if (length < LENGTH_16) return String.fromCharCode(first, length);
  if (length <= 0xffff) return String.fromCharCode(first, LENGTH_16, length >> 8, length & 0xff);
  let text = String.fromCharCode(first, LENGTH_64);
  const high = Math.floor(length / TWO_32);
  const low = length % TWO_32;
  for (const word of [high, low]) text += String.fromCharCode(word >>> 24, (word >> 16) & 0xff, (word >> 8) & 0xff, word & 0xff);
  return text;
}

/** A whole frame (header and payload) in one buffer: one write for a small message. */
export function encodeFrame(opcode: number, payload: Uint8Array, options?: { fin?: boolean; compressed?: boolean }): Uint8Array {
  const header = frameHeader(opcode, payload.length, options);
  const frame = new Uint8Array(header.length + payload.length);
  frame.set(header);
  frame.set(payload, header.length);
  return frame;
}
