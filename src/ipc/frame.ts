// Frames: [u32 BE length of what follows][u8 type][u32 BE id][payload]. The length is checked as
// soon as its 4 bytes arrive, so a corrupt or oversize frame fails before its payload is buffered.
import { concat } from '../bytes.js';
import { IpcError } from './errors.js';

/** The frame types of the IPC protocol, by name. */
export const IpcFrameType = {
  HELLO: 1,
  REQUEST: 2,
  RESPONSE: 3,
  ERROR: 4,
  CANCEL: 5,
  EVENT: 6,
  /** Opens a stream: [method, params, initial credit]. */
  STREAM: 7,
  /** One item of a stream. */
  DATA: 8,
  /** The stream ended (its errors come as ERROR frames). */
  END: 9,
  /** The receiver can take this many more items: u32 BE. */
  CREDIT: 10,
} as const;
/** A frame type number. */
export type IpcFrameType = (typeof IpcFrameType)[keyof typeof IpcFrameType];

const KNOWN_TYPES = new Set<number>(Object.values(IpcFrameType));

/** Whether `type` is a frame type of this protocol version. */
export function isFrameType(type: unknown): type is IpcFrameType {
  return KNOWN_TYPES.has(type as number);
}

/** Bytes before the payload: length (4), type (1), id (4). */
export const IPC_FRAME_HEADER_SIZE = 9;
/** Default largest frame (header included): 16 MiB. */
export const DEFAULT_MAX_FRAME = 16 * 1024 * 1024;

/** A decoded frame: type, request id, payload. */
export interface Frame {
  type: IpcFrameType;
  id: number;
  payload: Uint8Array;
}

/** One frame as bytes; throws ERR_FRAME_TOO_LARGE instead of making a frame over `maxFrame`. */
export function encodeFrame(type: IpcFrameType, id: number, payload: Uint8Array, maxFrame = DEFAULT_MAX_FRAME): Uint8Array {
  const size = IPC_FRAME_HEADER_SIZE + payload.length;
  if (size > maxFrame) throw new IpcError('ERR_FRAME_TOO_LARGE', `a ${size}-byte frame is over the ${maxFrame}-byte limit`);
  const frame = new Uint8Array(size);
  // Big-endian by hand: a DataView per frame was a fifth of encodeFrame's time.
  writeUint32(frame, 0, size - 4);
  frame[4] = type;
  writeUint32(frame, 5, id >>> 0);
  frame.set(payload, IPC_FRAME_HEADER_SIZE);
  return frame;
}

function writeUint32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value >>> 24;
  bytes[at + 1] = value >>> 16;
  bytes[at + 2] = value >>> 8;
  bytes[at + 3] = value;
}

function readUint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

/**
 * Reassembles frames from chunks split anywhere (one byte at a time works) and splits chunks that
 * hold several frames. Errors are final: the stream cannot be resynchronised.
 */
export class FrameDecoder {
  private buffer = new Uint8Array(0);
  private failure: IpcError | null = null;

  constructor(private maxFrame = DEFAULT_MAX_FRAME) {}

  /** After a handshake lowered the limit. */
  setMaxFrame(maxFrame: number): void {
    this.maxFrame = maxFrame;
  }

  /** Adds `chunk` and returns the frames it completed (payloads are copies). */
  push(chunk: Uint8Array): Frame[] {
    if (this.failure) throw this.failure;
    let data = chunk;
    if (this.buffer.length) {
      data = concat(this.buffer, chunk);
    }
    const frames: Frame[] = [];
    let pos = 0;
    try {
      while (data.length - pos >= 4) {
        const rest = readUint32(data, pos);
        if (rest < IPC_FRAME_HEADER_SIZE - 4)
          throw new IpcError('ERR_CORRUPT_FRAME', `frame length ${rest} is shorter than a frame header`);
        if (rest + 4 > this.maxFrame)
          throw new IpcError('ERR_FRAME_TOO_LARGE', `a ${rest + 4}-byte frame is over the ${this.maxFrame}-byte limit`);
        if (data.length - pos < 5) break;
        const type = data[pos + 4];
        if (!KNOWN_TYPES.has(type)) throw new IpcError('ERR_UNKNOWN_MESSAGE_TYPE', `unknown frame type ${type}`);
        if (data.length - pos < 4 + rest) break;
        frames.push({
          type: type as IpcFrameType,
          id: readUint32(data, pos + 5),
          payload: data.slice(pos + IPC_FRAME_HEADER_SIZE, pos + 4 + rest),
        });
        pos += 4 + rest;
      }
    } catch (error) {
      this.failure = error as IpcError;
      throw error;
    }
    this.buffer = pos === data.length ? new Uint8Array(0) : data.slice(pos);
    return frames;
  }

  /** The input ended: a frame cut short is an error. */
  end(): void {
    if (this.failure) throw this.failure;
    if (this.buffer.length) {
      this.failure = new IpcError('ERR_TRUNCATED_FRAME', `the input ended ${this.buffer.length} bytes into a frame`);
      throw this.failure;
    }
  }
}
