// Frames sent in one turn of the event loop go out together: one write (or postMessage) per turn
// instead of one per frame, because the receiving FrameDecoder takes any number of frames in a
// chunk. 64 requests made at once over a Unix socket were 64 writes, 38x the time of the raw
// socket writing the same bytes once (`wirespeed bench --suite ipc --filter 'in flight'`).
//
// Frames are written straight into an arena, header and payload, and a turn's frames leave as one
// view of it; a text payload (the JSON codec's) is encoded as UTF-8 in place. Per small frame that
// saves two fresh arrays and two copies (TextEncoder#encode's array, the frame, the batch): on the
// reference machine a fresh typed array costs ~40-600 ns, Buffer#utf8Write of a 40-byte message
// ~110 ns against TextEncoder#encode's ~590 ns.
import { checkFrameSize, IPC_FRAME_HEADER_SIZE, writeFrameHeader, type IpcFrameType } from './frame.js';
import { allocator, type IpcTransport } from './transport.js';
import { MAX_UTF8_CHARACTER, maxUtf8Length, writeUtf8 } from '../utf8.js';
import { atEndOfTurn } from '../end-of-turn.js';

/**
 * The arena's first size: a batch this large goes out at once, and a frame this large goes alone.
 * Small enough to keep per channel (a turn of 64 small requests is 4 KB), large enough that a
 * write carries many frames.
 */
const ARENA_BYTES = 16 * 1024;
/**
 * What the arena grows to, doubling each time a turn's frames fill it (a stream, a burst): Node
 * reads a socket 64 KiB at a time, and fewer writes paid: 1,000 items of 1 KB over a Unix socket
 * in 0.94 ms with 64 KiB arenas against 1.18-1.27 with 16 KiB (4 KiB: 1.85).
 */
const MAX_ARENA_BYTES = 64 * 1024;

/** The frames waiting for the end of this turn. */
export class Outbox {
  /** Bytes before `start` were handed to the transport and are never written again. */
  private arena: Uint8Array = new Uint8Array(0); // made at the first frame: a channel on ports may never need one
  private start = 0;
  private end = 0;
  /** The size of the next arena: ARENA_BYTES, doubled up to MAX_ARENA_BYTES by each arena a turn filled. */
  private arenaBytes = ARENA_BYTES;
  private scheduled = false;
  private readonly allocate: (size: number) => Uint8Array;
  private readonly flushTask = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly transport: IpcTransport,
    /** Called when the transport refuses a batch (the channel fails with it). */
    private readonly failed: (error: Error) => void,
  ) {
    this.allocate = allocator(transport);
  }

  /**
   * Queues a frame whose payload is bytes (throws ERR_FRAME_TOO_LARGE over `maxFrame`, sending
   * nothing); returns the payload's length.
   */
  frame(type: IpcFrameType, id: number, payload: Uint8Array, maxFrame: number): number {
    const size = IPC_FRAME_HEADER_SIZE + payload.length;
    checkFrameSize(size, maxFrame);
    const at = this.reserve(size);
    writeFrameHeader(this.arena, at, type, id, payload.length);
    this.arena.set(payload, at + IPC_FRAME_HEADER_SIZE);
    this.queued(at + size);
    return payload.length;
  }

  /**
   * Queues a frame whose payload is `text` as UTF-8, encoded in place (the same checks as `frame`).
   * It is written where its least size fits (a byte per UTF-16 unit), not its most (three): a 1 KB
   * item then takes 1 KB of the arena, not 3. A write that left less room than a character may need
   * may have been cut short, so it is written again where its most fits. Returns the UTF-8 length.
   */
  text(type: IpcFrameType, id: number, text: string, maxFrame: number): number {
    const least = IPC_FRAME_HEADER_SIZE + text.length;
    // A text too large for an arena is encoded on its own first, so its frame is sized exactly.
    if (least > this.arenaBytes) return this.frame(type, id, utf8Encoder.encode(text), maxFrame);
    let at = this.reserve(least);
    let length = writeUtf8(this.arena, at + IPC_FRAME_HEADER_SIZE, text);
    if (this.arena.length - (at + IPC_FRAME_HEADER_SIZE + length) < MAX_UTF8_CHARACTER) {
      const most = IPC_FRAME_HEADER_SIZE + maxUtf8Length(text);
      if (most > this.arenaBytes) return this.frame(type, id, utf8Encoder.encode(text), maxFrame);
      at = this.reserve(most);
      length = writeUtf8(this.arena, at + IPC_FRAME_HEADER_SIZE, text);
    }
    checkFrameSize(IPC_FRAME_HEADER_SIZE + length, maxFrame); // nothing queued yet if this throws
    writeFrameHeader(this.arena, at, type, id, length);
    this.queued(at + IPC_FRAME_HEADER_SIZE + length);
    return length;
  }

  /** Sends what is queued, as one chunk. */
  flush(): void {
    if (this.end === this.start) return;
    const batch = this.arena.subarray(this.start, this.end);
    this.start = this.end;
    try {
      this.transport.send(batch);
    } catch (error) {
      this.failed(error as Error);
    }
  }

  /** Drops what is queued (the channel failed: nothing more goes out). */
  clear(): void {
    this.end = this.start;
  }

  /** Where `size` bytes can be written: in the arena, after sending what it holds when it is full. */
  private reserve(size: number): number {
    if (this.arena.length - this.end >= size) return this.end;
    if (this.end > this.start) this.flushFull();
    this.arena = this.allocate(Math.max(this.arenaBytes, size));
    this.start = this.end = 0;
    return 0;
  }

  /** This turn's frames filled the arena: they go now, and the next arena is larger. */
  private flushFull(): void {
    this.arenaBytes = Math.min(this.arenaBytes * 2, MAX_ARENA_BYTES);
    this.flush();
  }

  /** A frame was written up to `end`: a full arena goes now, otherwise at the end of this turn. */
  private queued(end: number): void {
    this.end = end;
    if (end >= this.arena.length) return this.flushFull();
    if (!this.scheduled) {
      this.scheduled = true;
      atEndOfTurn(this.flushTask);
    }
  }
}

const utf8Encoder = new TextEncoder();
