// Frames sent in one turn of the event loop go out together: one write (or postMessage) per turn
// instead of one per frame, because the receiving FrameDecoder takes any number of frames in a
// chunk. 64 requests made at once over a Unix socket were 64 writes, 38x the time of the raw
// socket writing the same bytes once (`wirespeed bench --suite ipc --filter 'in flight'`).
import { concatAll } from '../bytes.js';
import type { IpcTransport } from './transport.js';

/** A batch this large goes out at once; a frame this large goes alone (no copy into a batch). */
const BATCH_BYTES = 64 * 1024;

/** The frames waiting for the end of this turn. */
export class Outbox {
  private queue: Uint8Array[] = [];
  private queuedBytes = 0;
  private scheduled = false;
  private readonly flushTask = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly transport: IpcTransport,
    /** Called when the transport refuses a batch (the channel fails with it). */
    private readonly failed: (error: Error) => void,
  ) {}

  /** Queues `frame` for the end of this turn (large ones, and full batches, go now). */
  send(frame: Uint8Array): void {
    if (frame.length >= BATCH_BYTES) {
      this.flush();
      return this.write(frame);
    }
    this.queue.push(frame);
    this.queuedBytes += frame.length;
    if (this.queuedBytes >= BATCH_BYTES) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(this.flushTask);
    }
  }

  /** Sends what is queued, as one chunk. */
  flush(): void {
    const queue = this.queue;
    if (queue.length === 0) return;
    this.queue = [];
    this.queuedBytes = 0;
    this.write(queue.length === 1 ? queue[0] : concatAll(queue));
  }

  /** Drops what is queued (the channel failed: nothing more goes out). */
  clear(): void {
    this.queue = [];
    this.queuedBytes = 0;
  }

  private write(bytes: Uint8Array): void {
    try {
      this.transport.send(bytes);
    } catch (error) {
      this.failed(error as Error);
    }
  }
}
