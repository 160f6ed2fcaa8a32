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

/** Where a frame's buffer comes from (a server transport: Node's gives Buffer.allocUnsafe); absent: `new Uint8Array`. */
export interface FrameMemory {
  allocate?(size: number): Uint8Array;
}

/** The size of a server frame's header for `length` payload bytes (2, 4 or 10). */
function headerSize(length: number): number {
  return length < LENGTH_16 ? 2 : length <= 0xffff ? 4 : 10;
}

/** Writes the header of a server frame carrying `length` payload bytes at the start of `frame`. */
function writeHeader(frame: Uint8Array, first: number, length: number): void {
  frame[0] = first;
  if (length < LENGTH_16) {
    frame[1] = length;
  } else if (length <= 0xffff) {
    frame[1] = LENGTH_16;
    frame[2] = length >> 8;
    frame[3] = length & 0xff;
  } else {
    frame[1] = LENGTH_64;
    const view = new DataView(frame.buffer, frame.byteOffset, 10);
    view.setUint32(2, Math.floor(length / TWO_32));
    view.setUint32(6, length % TWO_32);
  }
}

/** The header of a server frame carrying `length` payload bytes (2, 4 or 10 bytes). */
export function frameHeader(opcode: number, length: number, { fin = true, compressed = false } = {}): Uint8Array {
  const header = new Uint8Array(headerSize(length));
  writeHeader(header, (fin ? FIN : 0) | (compressed ? RSV1 : 0) | opcode, length);
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
export function encodeFrame(
  opcode: number,
  payload: Uint8Array,
  options?: { fin?: boolean; compressed?: boolean },
  memory?: FrameMemory,
): Uint8Array {
  // The header is written in place: one allocation per frame, every byte of it written.
  const size = headerSize(payload.length);
  const frame = memory?.allocate ? memory.allocate(size + payload.length) : new Uint8Array(size + payload.length);
  writeHeader(frame, (options?.fin === false ? 0 : FIN) | (options?.compressed ? RSV1 : 0) | opcode, payload.length);
  frame.set(payload, size);
  return frame;
}
