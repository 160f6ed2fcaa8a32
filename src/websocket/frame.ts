// Frames as the server writes them (RFC 6455 §5.2): never masked (§5.1), the length in the
// fewest bytes.

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

/** A whole frame (header and payload) in one buffer: one write for a small message. */
export function encodeFrame(opcode: number, payload: Uint8Array, options?: { fin?: boolean; compressed?: boolean }): Uint8Array {
  const header = frameHeader(opcode, payload.length, options);
  const frame = new Uint8Array(header.length + payload.length);
  frame.set(header);
  frame.set(payload, header.length);
  return frame;
}
