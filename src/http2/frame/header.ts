// The 9-byte frame header (RFC 9113 §4.1): length (24), type (8), flags (8), R + stream id (31).

/** Bytes of a frame header (§4.1). */
export const FRAME_HEADER_SIZE = 9;

/** Frame types (RFC 9113 §6). Other values are extension frames, ignored (§5.5). */
export const FrameType = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

/** Frame flags (§6), by name. */
export const Flag = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

/** SETTINGS_MAX_FRAME_SIZE bounds (§6.5.2): the initial value, and the largest allowed. */
export const DEFAULT_MAX_FRAME_SIZE = 16_384;
/** The largest SETTINGS_MAX_FRAME_SIZE allowed (§6.5.2): 2^24 - 1. */
export const MAX_MAX_FRAME_SIZE = 16_777_215;
/** Flow-control windows never exceed 2^31-1 (§6.9.1). */
export const MAX_WINDOW = 0x7fff_ffff;

/** A frame header (§4.1): length, type, flags, stream id. */
export interface FrameHeader {
  length: number;
  type: number;
  flags: number;
  /** The reserved bit is ignored on receipt (§4.1). */
  streamId: number;
}

/** Reads the 9-byte frame header at `at`. */
export function readFrameHeader(bytes: Uint8Array, at = 0): FrameHeader {
  return {
    length: (bytes[at] << 16) | (bytes[at + 1] << 8) | bytes[at + 2],
    type: bytes[at + 3],
    flags: bytes[at + 4],
    streamId: ((bytes[at + 5] & 0x7f) << 24) | (bytes[at + 6] << 16) | (bytes[at + 7] << 8) | bytes[at + 8],
  };
}

/** Writes a frame header at `at`. The reserved bit is sent as 0. */
export function writeFrameHeader(out: Uint8Array, at: number, length: number, type: number, flags: number, streamId: number): void {
  out[at] = length >>> 16;
  out[at + 1] = (length >>> 8) & 0xff;
  out[at + 2] = length & 0xff;
  out[at + 3] = type;
  out[at + 4] = flags;
  out[at + 5] = (streamId >>> 24) & 0x7f;
  out[at + 6] = (streamId >>> 16) & 0xff;
  out[at + 7] = (streamId >>> 8) & 0xff;
  out[at + 8] = streamId & 0xff;
}

/** A frame: header then `payload`, in one new buffer. */
export function frame(type: number, flags: number, streamId: number, payload: Uint8Array = EMPTY): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER_SIZE + payload.length);
  writeFrameHeader(out, 0, payload.length, type, flags, streamId);
  out.set(payload, FRAME_HEADER_SIZE);
  return out;
}

/** An empty payload. */
export const EMPTY = new Uint8Array(0);

/** A 31-bit value at `at` (the high bit is reserved). */
export function readUint31(bytes: Uint8Array, at: number): number {
  return (((bytes[at] & 0x7f) << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

/** A big-endian u32 at `at`. */
export function readUint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

/** `value` as 4 big-endian bytes: the payload of RST_STREAM and WINDOW_UPDATE. */
export function uint32Bytes(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  writeUint32(bytes, 0, value);
  return bytes;
}

/** Writes a big-endian u32 at `at`. */
export function writeUint32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value >>> 24;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}
