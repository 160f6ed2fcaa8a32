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
  /** A RESPONSE whose value is bytes (a Uint8Array): the bytes themselves, not the codec's. */
  RESPONSE_BYTES: 11,
  /** A RESPONSE whose value is a string: its UTF-8, not the codec's. */
  RESPONSE_TEXT: 12,
  /** A DATA item that is bytes (a Uint8Array): the bytes themselves, not the codec's. */
  DATA_BYTES: 13,
  /** A DATA item that is a string: its UTF-8, not the codec's. */
  DATA_TEXT: 14,
} as const;
/** A frame type number. */
export type IpcFrameType = (typeof IpcFrameType)[keyof typeof IpcFrameType];

const KNOWN_TYPES = new Set<number>(Object.values(IpcFrameType));

const TYPE_NAMES = new Map<number, string>(Object.entries(IpcFrameType).map(([name, type]) => [type, name]));

/** The name of frame type `type` (HELLO, REQUEST, ...), for error messages. */
export function frameTypeName(type: number): string {
  return TYPE_NAMES.get(type) ?? `type ${type}`;
}

/** ERR_CORRUPT_FRAME for a frame of `type` whose decoded payload is not the `expected` shape. */
export function corruptPayload(type: IpcFrameType, expected: string, payload: unknown): IpcError {
  const actual = payload === null ? 'null' : Array.isArray(payload) ? `an array of ${payload.length}` : typeof payload;
  return new IpcError('ERR_CORRUPT_FRAME', `${frameTypeName(type)} frames carry ${expected}, not ${actual}`);
}

/** Whether a decoded payload is an array led by a name: a REQUEST's or STREAM's method, an EVENT's event. */
export function isNamed(message: unknown): message is [string, ...unknown[]] {
  return Array.isArray(message) && typeof message[0] === 'string';
}

/** Whether `type` is a frame type of this protocol version. */
export function isFrameType(type: unknown): type is IpcFrameType {
  return KNOWN_TYPES.has(type as number);
}

/** Bytes of a frame from which its size and type are known: length (4), type (1). */
const HEADER_KNOWN = 5;
const EMPTY = new Uint8Array(0);
/** The smallest buffer a frame split over chunks is held in (it grows by doubling). */
const MIN_HOLD = 4096;

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
  checkFrameSize(size, maxFrame);
  const frame = new Uint8Array(size);
  writeFrameHeader(frame, 0, type, id, payload.length);
  frame.set(payload, IPC_FRAME_HEADER_SIZE);
  return frame;
}

/** Throws ERR_FRAME_TOO_LARGE for a frame of `size` bytes (header included) over `maxFrame`. */
export function checkFrameSize(size: number, maxFrame: number, detail = ''): void {
  if (size > maxFrame) throw new IpcError('ERR_FRAME_TOO_LARGE', `a ${size}-byte frame is over the ${maxFrame}-byte limit${detail}`);
}

/** How many bytes of a refused frame length its error quotes when they read as text. */
const TEXT_PREVIEW_BYTES = 24;

/**
 * What to add to the error for a refused frame length whose bytes read as text (printable ASCII,
 * tabs and line ends): the usual cause is a program that printed to the pipe the channel reads,
 * as `console.log` does on stdout. Else ''.
 */
function textHint(data: Uint8Array, pos: number): string {
  const preview = data.subarray(pos, Math.min(data.length, pos + TEXT_PREVIEW_BYTES));
  for (const byte of preview) if ((byte < 0x20 || byte > 0x7e) && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return '';
  const text = String.fromCharCode(...preview);
  return `; its bytes read as text (${JSON.stringify(text)}${preview.length < data.length - pos ? '…' : ''}): did the other side print to this pipe (console.log on stdout)?`;
}

/** Writes a frame's 9-byte header at `at`, for a payload of `payloadLength` bytes. */
export function writeFrameHeader(bytes: Uint8Array, at: number, type: IpcFrameType, id: number, payloadLength: number): void {
  // Big-endian by hand: a DataView per frame was a fifth of encodeFrame's time.
  writeUint32(bytes, at, payloadLength + IPC_FRAME_HEADER_SIZE - 4);
  bytes[at + 4] = type;
  writeUint32(bytes, at + 5, id >>> 0);
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
 * Where `FrameDecoder.read` puts each frame: its payload is bytes[start..end), valid only during
 * the call (the transport may reuse the chunk's memory afterwards: copy what you keep).
 */
export type FrameSink = (type: IpcFrameType, id: number, bytes: Uint8Array, start: number, end: number) => void;

/**
 * Reassembles frames from chunks split anywhere (one byte at a time works) and splits chunks that
 * hold several frames. Errors are final: the stream cannot be resynchronised. A frame split over
 * chunks is held in a buffer that doubles up to its size (joining the held bytes to every new
 * chunk made a 16 MiB frame read in 64 KiB chunks copy 2 GiB).
 */
export class FrameDecoder {
  /** The start of a frame not complete yet (once its header is known, a buffer that doubles up to its size). */
  private partial = EMPTY;
  /** Bytes of `partial` filled. */
  private filled = 0;
  /** The held frame's whole size once its header is known, else 0. */
  private expected = 0;
  private failure: IpcError | null = null;

  constructor(private maxFrame = DEFAULT_MAX_FRAME) {}

  /** After a handshake lowered the limit. */
  setMaxFrame(maxFrame: number): void {
    this.maxFrame = maxFrame;
  }

  /** Adds `chunk` and returns the frames it completed (payloads are copies). */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    this.read(chunk, (type, id, bytes, start, end) => frames.push({ type, id, payload: bytes.slice(start, end) }));
    return frames;
  }

  /** Adds `chunk` and gives each frame it completed to `sink`, in order; throws IpcError on bad input. */
  read(chunk: Uint8Array, sink: FrameSink): void {
    if (this.failure) throw this.failure;
    try {
      this.readChecked(chunk, sink);
    } catch (error) {
      if (error instanceof IpcError) this.failure ??= error;
      throw error;
    }
  }

  private readChecked(chunk: Uint8Array, sink: FrameSink): void {
    let data = chunk;
    let pos = 0;
    if (this.filled > 0) {
      if (this.filled < HEADER_KNOWN) {
        // Under 5 bytes held: join them to the chunk (a copy of one chunk, once).
        data = concat(this.partial.subarray(0, this.filled), chunk);
        this.partial = EMPTY;
        this.filled = 0;
      } else {
        const take = Math.min(chunk.length, this.expected - this.filled);
        this.hold(take === chunk.length ? chunk : chunk.subarray(0, take));
        if (this.filled < this.expected) return;
        const frame = this.partial;
        this.partial = EMPTY;
        this.filled = this.expected = 0;
        sink(frame[4] as IpcFrameType, readUint32(frame, 5), frame, IPC_FRAME_HEADER_SIZE, frame.length);
        pos = take;
      }
    }
    while (data.length - pos >= HEADER_KNOWN) {
      const size = this.checkHeader(data, pos);
      if (data.length - pos < size) {
        // The rest of this frame comes later: hold what is here.
        this.expected = size;
        this.hold(data.subarray(pos));
        return;
      }
      sink(data[pos + 4] as IpcFrameType, readUint32(data, pos + 5), data, pos + IPC_FRAME_HEADER_SIZE, pos + size);
      pos += size;
    }
    if (pos < data.length) {
      this.partial = data.slice(pos);
      this.filled = this.partial.length;
      // The length is checked as soon as its 4 bytes are here, before the payload is waited for.
      if (this.filled >= 4) this.checkLength(this.partial, 0);
    }
  }

  /**
   * Appends `bytes` to the held frame. The buffer doubles as bytes arrive, up to the frame's size:
   * each byte is copied about twice at most, and a peer that announces a 16 MiB frame and sends
   * 5 bytes of it does not make this side allocate 16 MiB.
   */
  private hold(bytes: Uint8Array): void {
    const needed = this.filled + bytes.length;
    if (needed > this.partial.length) {
      const grown = new Uint8Array(Math.min(this.expected, Math.max(needed, this.partial.length * 2, MIN_HOLD)));
      grown.set(this.partial.subarray(0, this.filled));
      this.partial = grown;
    }
    this.partial.set(bytes, this.filled);
    this.filled = needed;
  }

  /** The frame at `pos` (5 bytes of it present): its whole size, after checking length and type. */
  private checkHeader(data: Uint8Array, pos: number): number {
    const size = this.checkLength(data, pos);
    const type = data[pos + 4];
    if (!KNOWN_TYPES.has(type)) throw new IpcError('ERR_UNKNOWN_MESSAGE_TYPE', `unknown frame type ${type}`);
    return size;
  }

  /** The frame at `pos` (4 bytes of it present): its whole size, after checking its length. */
  private checkLength(data: Uint8Array, pos: number): number {
    const rest = readUint32(data, pos);
    if (rest < IPC_FRAME_HEADER_SIZE - 4)
      throw new IpcError('ERR_CORRUPT_FRAME', `frame length ${rest} is shorter than a frame header${textHint(data, pos)}`);
    if (rest + 4 > this.maxFrame) checkFrameSize(rest + 4, this.maxFrame, textHint(data, pos));
    return rest + 4;
  }

  /** The input ended: a frame cut short is an error. */
  end(): void {
    if (this.failure) throw this.failure;
    if (this.filled) {
      this.failure = new IpcError('ERR_TRUNCATED_FRAME', `the input ended ${this.filled} bytes into a frame`);
      throw this.failure;
    }
  }
}
