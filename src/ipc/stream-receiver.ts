// The calling side of a stream: DATA frames become chunks of a ReadableStream. The receiver grants
// the sender a window of items and bytes at the start and gives back what the consumer read (in
// a CREDIT frame once half the window's items or half its bytes were read, so not one per item).
// Items and bytes in flight plus queued never exceed the window: a sender that goes past it is
// broken or hostile, and fails the channel.
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
  private done = false;
  /** An error that came after items still queued: reported once they are read. */
  private pendingError: Error | null = null;

  constructor(
    private readonly window: StreamWindow,
    private readonly sendCredit: (items: number, bytes: number) => void,
    onCancel: (reason: unknown) => void,
  ) {
    this.credit = { ...window };
    this.readable = new ReadableStream<T>(
      {
        start: (controller) => void (this.controller = controller),
        pull: () => this.refill(),
        cancel: (reason) => {
          this.done = true;
          onCancel(reason);
        },
      },
      { highWaterMark: window.items },
    );
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
    this.sizes.push(size);
    this.controller.enqueue(value);
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.controller.close();
  }

  error(error: Error): void {
    if (this.done) return;
    this.done = true;
    // Erroring a ReadableStream drops its queue: let the reader have the items sent before.
    if (this.queued() > 0) this.pendingError = error;
    else this.controller.error(error);
  }

  private queued(): number {
    return this.window.items - (this.controller.desiredSize ?? 0);
  }

  /** Called as the consumer reads: counts what left the queue, and gives it back once it is half a window. */
  private refill(): void {
    if (this.pendingError && this.queued() === 0) return this.controller.error(this.pendingError);
    if (this.done) return;
    for (let taken = this.sizes.length - this.head - this.queued(); taken > 0; taken--) {
      this.read.items++;
      this.read.bytes += this.sizes[this.head++]!;
    }
    // Sizes already read are dropped when none is left (a new array: setting `length` is a runtime
    // call, 2.4% of a 16 B stream's profile), or once more than a window of them piled up.
    if (this.head === this.sizes.length || this.head > this.window.items) {
      this.sizes = this.head === this.sizes.length ? [] : this.sizes.slice(this.head);
      this.head = 0;
    }
    const { items, bytes } = this.read;
    if (items >= Math.max(1, this.window.items >> 1) || bytes >= Math.max(1, this.window.bytes >> 1)) {
      this.credit.items += items;
      this.credit.bytes += bytes;
      this.read.items = this.read.bytes = 0;
      this.sendCredit(items, bytes);
    }
  }
}
