// The calling side of a stream: DATA frames become chunks of a ReadableStream. The receiver grants
// the sender credit for `window` items at the start and more as the consumer reads (in batches of
// half the window, so a CREDIT frame is not sent per item). Items in flight plus items queued
// never exceed the window.

/** The reading end of an IPC stream: items into a ReadableStream, credit back as it is read. */
export class StreamReceiver<T> {
  readonly readable: ReadableStream<T>;
  private controller!: ReadableStreamDefaultController<T>;
  /** Credit granted and not yet used by an arriving item. */
  private outstanding: number;
  private done = false;
  /** An error that came after items still queued: reported once they are read. */
  private pendingError: Error | null = null;

  constructor(
    private readonly window: number,
    private readonly sendCredit: (n: number) => void,
    onCancel: (reason: unknown) => void,
  ) {
    this.outstanding = window;
    this.readable = new ReadableStream<T>(
      {
        start: (controller) => void (this.controller = controller),
        pull: () => this.refill(),
        cancel: (reason) => {
          this.done = true;
          onCancel(reason);
        },
      },
      { highWaterMark: window },
    );
  }

  item(value: T): void {
    if (this.done) return;
    this.outstanding--;
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
    return this.window - (this.controller.desiredSize ?? 0);
  }

  private refill(): void {
    if (this.pendingError && this.queued() === 0) return this.controller.error(this.pendingError);
    if (this.done) return;
    const room = (this.controller.desiredSize ?? 0) - this.outstanding;
    if (room >= Math.max(1, this.window >> 1)) {
      this.outstanding += room;
      this.sendCredit(room);
    }
  }
}
