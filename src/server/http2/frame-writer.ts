// Outgoing frames, gathered into one buffer and written once per batch: the responses of one read
// (or of one tick) leave in one write, not one write per frame. Large DATA payloads are written as
// they are, after what is gathered, so their bytes are not copied.
import type { Transport } from '../connection.js';
import { FRAME_HEADER_SIZE, writeFrameHeader } from '../../http2/frame/header.js';
import { atEndOfTurn } from '../../end-of-turn.js';

/** A payload this large goes to the transport as it is instead of being copied into the batch. */
const COPY_LIMIT = 4096;
const INITIAL_BUFFER = 16 * 1024;

/** Gathers outgoing frames and writes them in one batch. */
export class FrameWriter {
  private buffer = new Uint8Array(INITIAL_BUFFER);
  private length = 0;
  private scheduled = false;
  private readonly flushTask = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(private readonly transport: Transport) {}

  /** Queues a frame; it goes out with the next `flush()` (at the latest at the end of this tick). */
  frame(type: number, flags: number, streamId: number, payload?: Uint8Array): void {
    const size = payload?.length ?? 0;
    const copy = size <= COPY_LIMIT;
    this.reserve(FRAME_HEADER_SIZE + (copy ? size : 0));
    let at = this.length;
    writeFrameHeader(this.buffer, at, size, type, flags, streamId);
    at += FRAME_HEADER_SIZE;
    if (payload && copy) {
      this.buffer.set(payload, at);
      at += size;
    }
    this.length = at;
    if (payload && !copy) {
      this.flush();
      this.transport.write(payload);
    }
    this.schedule();
  }

  /** Writes what is gathered. Returns false when the transport asks to wait for a drain. */
  flush(): boolean {
    if (this.length === 0) return !this.transport.needsDrain;
    const out = this.buffer.slice(0, this.length);
    this.length = 0;
    return this.transport.write(out);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  /** Frames queued outside a read (e.g. an async handler's response) go out at the end of the tick. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    atEndOfTurn(this.flushTask);
  }
}
