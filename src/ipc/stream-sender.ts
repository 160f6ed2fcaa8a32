// The serving side of a stream: items of the handler's (async) iterable go out as DATA frames
// while the receiver's credit lasts, in items and in bytes. With either spent the pump waits, so a
// slow consumer holds the producer back instead of filling memory on either side.
import type { StreamWindow } from './link.js';

/** Where a StreamSender's items, end and error go. */
export interface StreamSink {
  /** Sends one item and returns its payload's size on the wire; throws if it cannot be encoded or is over the frame limit. */
  item(value: unknown): number;
  end(): void;
  error(error: unknown): void;
  /** Whether sent bytes wait for the transport's pipe: the pump waits for `drained()` too. */
  backlogged(): boolean;
}

/**
 * The producing end of an IPC stream: pumps the handler's source while credit is left. An item is
 * sent while any byte credit is left, so the last one may overshoot the bytes by less than a frame
 * (and an item larger than the whole window still goes, alone).
 */
export class StreamSender {
  private items: number;
  private bytes: number;
  private wake: (() => void) | null = null;
  private stopped = false;

  constructor(
    window: StreamWindow,
    private readonly sink: StreamSink,
  ) {
    this.items = window.items;
    this.bytes = window.bytes;
  }

  /** The receiver read `items` more items, `bytes` bytes of payload. */
  grant(items: number, bytes: number): void {
    this.items += items;
    this.bytes += bytes;
    this.resume();
  }

  /** The transport's pipe took its backlog. */
  drained(): void {
    this.resume();
  }

  /** The receiver cancelled or the channel failed: stop at the next step and close the iterator. */
  stop(): void {
    this.stopped = true;
    this.resume();
  }

  private resume(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Pumps `source` until it ends, fails, or `stop()`. */
  async pump(source: unknown): Promise<void> {
    let iterator: AsyncIterator<unknown> | Iterator<unknown>;
    let sync: boolean;
    try {
      ({ iterator, sync } = iteratorOf(await source));
    } catch (error) {
      return this.sink.error(error);
    }
    try {
      for (;;) {
        // Credit says what the reader may hold, the transport's backlog what waits here: a reader that
        // grants credit and takes nothing is held to the pipe's buffers.
        while ((this.items <= 0 || this.bytes <= 0 || this.sink.backlogged()) && !this.stopped) {
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
        if (this.stopped) break;
        // A sync source is read without a microtask per item, so the items the credit allows leave
        // in one turn, and so in one write (the channel's outbox batches a turn's frames).
        const next = sync ? (iterator as Iterator<unknown>).next() : await iterator.next();
        if (this.stopped) break;
        if (next.done) return this.sink.end();
        this.items--;
        this.bytes -= this.sink.item(next.value);
      }
      await iterator.return?.();
    } catch (error) {
      if (!this.stopped) this.sink.error(error);
      await Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  }
}

function iteratorOf(value: unknown): { iterator: AsyncIterator<unknown> | Iterator<unknown>; sync: boolean } {
  const source = value as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null;
  const asyncIterator = source?.[Symbol.asyncIterator];
  if (typeof asyncIterator === 'function') return { iterator: asyncIterator.call(source), sync: false };
  const iterator = typeof source === 'string' ? undefined : source?.[Symbol.iterator];
  if (typeof iterator === 'function') return { iterator: iterator.call(source), sync: true };
  throw new TypeError('a stream handler must return an iterable, an async iterable or a ReadableStream');
}
