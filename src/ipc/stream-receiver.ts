// The calling side of a stream: DATA frames become chunks of a ReadableStream. The receiver grants
// the sender a window of items and bytes at the start and gives back what the consumer read (in
// a CREDIT frame once half the window's items or half its bytes were read, so not one per item).
// Items and bytes in flight plus queued never exceed the window: a sender that goes past it is
// broken or hostile, and fails the channel.
//
// `for await` (the README's way to read a stream) takes the items straight from the receiver: a
// read through the ReadableStream's reader costs a promise chain of the streams machinery per
// item (~1.2 µs here), the iterator's own promise ~0.2 µs (docs/architecture.md, IPC).
import { IpcError } from './errors.js';
import type { StreamWindow } from './link.js';

/** The reading end of an IPC stream: items into a ReadableStream, credit back as it is read. */
export class StreamReceiver<T> {
  readonly readable: ReadableStream<T>;
  private controller!: ReadableStreamDefaultController<T>;
  /** Credit granted and not yet used by an arriving item. */
  private readonly credit: StreamWindow;
  /** Read since the last CREDIT frame: what the next one gives back. */
  private readonly read: StreamWindow = { items: 0, bytes: 0 };
  /** The sizes of the items queued in the ReadableStream, oldest first from `head`. */
  private sizes: number[] = [];
  private head = 0;
  /** No more items come: the stream ended, failed or was cancelled. */
  private done = false;
  /** The ReadableStream was closed or failed (settleStream), or cancelled by its consumer (it closed itself). */
  private settled = false;
  /** Why the stream failed, if it did. */
  private failure: Error | null = null;
  /** An error that came after items still queued: reported once they are read. */
  private pendingError: Error | null = null;
  /** The async iterator reading items directly, while one does: new items wait in it, not in the ReadableStream. */
  private iterator: DirectIterator<T> | null = null;

  constructor(
    private readonly window: StreamWindow,
    private readonly sendCredit: (items: number, bytes: number) => void,
    onCancel: (reason: unknown) => void,
  ) {
    this.credit = { ...window };
    const readable = new ReadableStream<T>(
      {
        start: (controller) => void (this.controller = controller),
        pull: () => this.refill(),
        cancel: (reason) => {
          this.done = this.settled = true;
          onCancel(reason);
        },
      },
      { highWaterMark: window.items },
    );
    this.readable = iteratingDirectly(readable, this);
  }

  /** An item whose payload took `size` bytes on the wire; throws when the sender had no credit for it. */
  item(value: T, size: number): void {
    if (this.done) return;
    if (this.credit.items <= 0 || this.credit.bytes <= 0) {
      const spent = this.credit.items <= 0 ? `${this.window.items} items` : `${this.window.bytes} bytes`;
      throw new IpcError('ERR_FLOW_CONTROL', `the other side sent a stream item past its window (${spent})`);
    }
    this.credit.items--;
    this.credit.bytes -= size;
    if (this.iterator) return this.iterator.push(value, size);
    this.sizes.push(size);
    this.controller.enqueue(value);
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    if (this.iterator) this.iterator.finish(null);
    else this.settleStream();
  }

  error(error: Error): void {
    if (this.done) return;
    this.done = true;
    this.failure = error;
    if (this.iterator) this.iterator.finish(error);
    else this.settleStream();
  }

  /** Counts `items` of `bytes` the consumer took, and gives them back once they are half a window. */
  taken(items: number, bytes: number): void {
    if (this.done) return;
    const read = this.read;
    read.items += items;
    read.bytes += bytes;
    if (read.items >= Math.max(1, this.window.items >> 1) || read.bytes >= Math.max(1, this.window.bytes >> 1)) {
      this.credit.items += read.items;
      this.credit.bytes += read.bytes;
      this.sendCredit(read.items, read.bytes);
      read.items = read.bytes = 0;
    }
  }

  /**
   * The iterator let go of the stream (it ended, or `return()` with preventCancel): the items it
   * did not hand out go back into the ReadableStream, for whoever reads it next, and the stream
   * closes or fails as the receiver did.
   */
  letGo(items: readonly T[], sizes: readonly number[]): void {
    this.iterator = null;
    for (let i = 0; i < items.length; i++) {
      this.sizes.push(sizes[i]);
      this.controller.enqueue(items[i]);
    }
    if (this.done) this.settleStream();
  }

  /** Closes or fails the ReadableStream as the receiver ended (once; not after a cancel, which closed it). */
  private settleStream(): void {
    if (this.settled) return;
    this.settled = true;
    if (!this.failure) return this.controller.close();
    // Erroring a ReadableStream drops its queue: let the reader have the items sent before.
    if (this.queued() > 0) this.pendingError = this.failure;
    else this.controller.error(this.failure);
  }

  /** What `for await` reads: an iterator over the items from now on, holding `reader`. */
  iterate(reader: ReadableStreamDefaultReader<T>, preventCancel: boolean): DirectIterator<T> {
    // Items that arrived before are in the ReadableStream: the iterator reads those through the reader first.
    const iterator = new DirectIterator<T>(this, reader, this.queued(), preventCancel);
    if (this.done) iterator.finish(this.failure);
    else this.iterator = iterator;
    return iterator;
  }

  private queued(): number {
    return this.window.items - (this.controller.desiredSize ?? 0);
  }

  /** Called as the consumer reads through the ReadableStream: counts what left its queue. */
  private refill(): void {
    if (this.pendingError && this.queued() === 0) return this.controller.error(this.pendingError);
    if (this.done) return;
    let items = 0;
    let bytes = 0;
    for (let taken = this.sizes.length - this.head - this.queued(); taken > 0; taken--) {
      items++;
      bytes += this.sizes[this.head++]!;
    }
    // Sizes already read are dropped when none is left (a new array: setting `length` is a runtime
    // call, 2.4% of a 16 B stream's profile), or once more than a window of them piled up.
    if (this.head === this.sizes.length || this.head > this.window.items) {
      this.sizes = this.head === this.sizes.length ? [] : this.sizes.slice(this.head);
      this.head = 0;
    }
    if (items) this.taken(items, bytes);
  }
}

/**
 * Makes `for await` and `values()` on `stream` read `receiver` directly, as own methods of the
 * stream. Not a subclass of ReadableStream: on Node 20 every read through a subclass's reader cost
 * more (1,000 items through a reader: 1.52 against 1.18 ms of CPU for the plain class, medians of
 * ten runs; the same stream with the two own methods 1.23 ms).
 */
function iteratingDirectly<T>(stream: ReadableStream<T>, receiver: StreamReceiver<T>): ReadableStream<T> {
  // As ReadableStream's: locks the stream (a TypeError if it is locked), cancels it on `return()` unless `preventCancel`.
  const values = (options?: ReadableStreamIteratorOptions): AsyncIterableIterator<T, undefined> =>
    receiver.iterate(stream.getReader(), options?.preventCancel === true);
  const method = { value: values, writable: true, configurable: true };
  return Object.defineProperties(stream, { values: method, [Symbol.asyncIterator]: method });
}

interface Waiter<T> {
  resolve(result: IteratorResult<T, undefined>): void;
  reject(error: Error): void;
}

const DONE: IteratorResult<never, undefined> = Object.freeze({ value: undefined, done: true });

/**
 * ReadableStream's async iterator, over the receiver's items without the streams machinery. It
 * holds the stream's reader (the stream is locked while it reads, as by the standard iterator),
 * reads through it the items queued before it began, then takes new ones as they arrive.
 */
class DirectIterator<T> implements AsyncIterableIterator<T, undefined> {
  private items: T[] = [];
  private sizes: number[] = [];
  private head = 0;
  /** next() calls waiting for an item, oldest first (`for await` makes one at a time). */
  private waiting: Waiter<T>[] = [];
  /** No more items come; `failure` says why, if the stream failed (reported once). */
  private ended = false;
  private failure: Error | null = null;
  /** The iterator let go of the stream: from now on it only says done. */
  private released = false;

  constructor(
    private readonly receiver: StreamReceiver<T>,
    private readonly reader: ReadableStreamDefaultReader<T>,
    /** Items in the ReadableStream's queue when iteration began, read through `reader` first. */
    private backlog: number,
    private readonly preventCancel: boolean,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** An item the receiver took. */
  push(value: T, size: number): void {
    const waiter = this.waiting.shift();
    if (!waiter) {
      this.items.push(value);
      this.sizes.push(size);
      return;
    }
    this.receiver.taken(1, size);
    waiter.resolve({ value, done: false });
  }

  /** The stream ended (`failure` null) or failed: once the items queued are read, so does the iteration. */
  finish(failure: Error | null): void {
    this.ended = true;
    this.failure = failure;
    if (this.head === this.items.length) this.settleWaiting();
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.released) return Promise.resolve(DONE);
    if (this.backlog > 0) {
      this.backlog--;
      return this.readBacklog();
    }
    if (this.head < this.items.length) {
      const value = this.items[this.head];
      this.receiver.taken(1, this.sizes[this.head++]);
      // Emptied, the queue starts again (new arrays: no `length` change, no piling up).
      if (this.head === this.items.length) this.clear();
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return this.endResult();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /**
   * `break` out of `for await`: as ReadableStream's iterator, cancels the stream (the handler's
   * signal aborts) unless `preventCancel`, and lets go of it.
   */
  async return(value?: unknown): Promise<IteratorResult<T, undefined>> {
    const result = { value: value as undefined, done: true as const };
    if (this.released) return result;
    for (const waiter of this.waiting.splice(0)) waiter.resolve(DONE);
    // Cancelled, the stream takes no item back.
    if (!this.preventCancel) this.clear();
    const cancelled = this.preventCancel ? undefined : this.reader.cancel(value);
    this.release();
    await cancelled;
    return result;
  }

  /**
   * An item queued in the ReadableStream before the iteration began, through the reader. The
   * backlog is counted from the stream's desiredSize, which a closed or failed stream no longer
   * gives: its end or its failure ends the iteration then.
   */
  private readBacklog(): Promise<IteratorResult<T, undefined>> {
    return this.reader.read().then(
      (result) => {
        if (result.done) this.endBacklog();
        return result as IteratorResult<T, undefined>;
      },
      (error: unknown) => {
        this.endBacklog();
        throw error;
      },
    );
  }

  private endBacklog(): void {
    this.backlog = 0;
    this.failure = null;
    this.release();
  }

  /** The result that ends the iteration: done, or the stream's failure (once). */
  private endResult(): Promise<IteratorResult<T, undefined>> {
    this.release();
    const failure = this.failure;
    this.failure = null;
    return failure ? Promise.reject(failure) : Promise.resolve(DONE);
  }

  /** Answers the next() calls waiting: the end of the stream has come. */
  private settleWaiting(): void {
    for (const waiter of this.waiting.splice(0)) this.endResult().then(waiter.resolve, waiter.reject);
  }

  private clear(): void {
    this.items = [];
    this.sizes = [];
    this.head = 0;
  }

  /** Gives the stream back: its reader's lock, and the items not handed out to the receiver. */
  private release(): void {
    if (this.released) return;
    this.released = true;
    const items = this.items.slice(this.head);
    const sizes = this.sizes.slice(this.head);
    this.clear();
    this.reader.releaseLock();
    this.receiver.letGo(items, sizes);
  }
}
