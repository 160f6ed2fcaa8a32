// A request body as a web ReadableStream fed by the parser, with backpressure on the socket:
// when the consumer lags by more than the high-water mark the connection stops reading, and a
// read resumes it. `Expect: 100-continue` is answered on the first read, not before (RFC 9110 §10.1.1).

/** The connection's side of a body stream. */
export interface BodyFlow {
  /** Stop reading from the socket. */
  pause(): void;
  /** Start reading again. */
  resume(): void;
  /** The handler started reading a body that waits for `100 Continue`. */
  sendContinue(): void;
}

import { JoinedPieces, SMALL_PIECE_BYTES, unpinned } from '../bytes.js';
import { atEndOfTurn } from '../end-of-turn.js';
import type { HeaderList } from '../fields.js';
import { HIGH_WATER_MARK } from './connection.js';

/**
 * What a queued piece costs besides its bytes (its typed array and buffer objects, the queue's
 * entry), counted against the high-water mark: a lagging reader's queue of 1-byte chunks would
 * hold ~100 bytes of objects per byte, 64K pieces, before the count of bytes alone paused the socket.
 */
const PIECE_COST = 256;

/** A flow with no socket behind it (a body that is over before it begins). */
const NO_FLOW: BodyFlow = { pause() {}, resume() {}, sendContinue() {} };

/**
 * A request body as it arrives: a stream with backpressure, or collected whole. Its pieces wait
 * here until a reader asks (the stream's high-water mark is 0), so the stream is pulled only by a
 * read: "pulled" means disturbed, which the Fetch standard's `bodyUsed` reports and no public API
 * of a stream tells.
 */
export class RequestBody {
  /** Created when someone asks for it, so a handler that never reads costs no stream. */
  private stream: ReadableStream<Uint8Array> | null = null;
  /** The stream's controller while the stream is open (null once it is closed or errored). */
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  /**
   * Pieces that arrived and no reader has asked for yet. Small ones are joined: a reader such as
   * the runtime's `formData()` or `blob()` keeps every chunk it is given until the end (3 MB sent
   * in 1-byte chunks held 379 MB through `blob()`).
   */
  private readonly queue = new JoinedPieces();
  /** A read waits for a piece (the stream was pulled with nothing here). */
  private waiting = false;
  /** Pieces are being handed to the stream (see deliver). */
  private delivering = false;
  /** A delivery is due at the end of this turn (small pieces joined meanwhile). */
  private deliveryDue = false;
  private deliverLater: (() => void) | null = null;
  private ended = false;
  private failure: Error | null = null;
  /** The consumer cancelled (or the handler answered without reading): drop what comes. */
  private discarding = false;
  /** Read from (its stream pulled, or collected) or cancelled: the Fetch standard's "disturbed". */
  private touched = false;
  /** What a read gets once the body was dropped unread behind its response (`dropUnlessRead`). */
  private dropped: Error | null = null;
  private continueSent: boolean;
  private trailerList: HeaderList = [];
  private trailerWaiter: { promise: Promise<HeaderList>; resolve(list: HeaderList): void; reject(error: Error): void } | null = null;
  /** `collect()` was called: keep every piece, resolve at the end. */
  private collector: { resolve(bytes: Uint8Array): void; reject(error: Error): void } | null = null;

  constructor(
    private readonly flow: BodyFlow,
    expectsContinue: boolean,
  ) {
    this.continueSent = !expectsContinue;
  }

  /** A body with no bytes that has ended: what a POST that came without one reads. */
  static empty(): RequestBody {
    const body = new RequestBody(NO_FLOW, false);
    body.end();
    return body;
  }

  /** Whether the client waits for 100 Continue that was never sent (its body may never come). */
  get awaitingContinue(): boolean {
    return !this.continueSent;
  }

  get complete(): boolean {
    return this.ended;
  }

  /** Read from (whole, or through its stream) or cancelled: what the Fetch standard's `bodyUsed` says. */
  get disturbed(): boolean {
    return this.touched;
  }

  /** Disturbed, or its stream locked by a reader: the Fetch standard's "unusable" (no read, copy or clone). */
  get unusable(): boolean {
    return this.touched || (this.stream?.locked ?? false);
  }

  /**
   * The whole body at once, without a stream: `text()`, `json()` and `arrayBuffer()` use it (a
   * web stream costs microseconds per chunk on Node). The consumer is always ready, so no pause.
   */
  collect(): Promise<Uint8Array> {
    if (this.touched) return Promise.reject(new TypeError('the request body was already read'));
    if (this.unusable) return Promise.reject(new TypeError("a reader holds the request body's stream"));
    if (this.dropped) return Promise.reject(this.dropped);
    // The stream was asked for (`if (request.body)`) but not read: read it, as a Request would.
    if (this.stream) return readAll(this.stream);
    this.touched = true;
    return new Promise((resolve, reject) => {
      this.collector = { resolve, reject };
      if (this.failure) return reject(this.failure);
      if (this.ended) return this.finishCollect();
      if (!this.continueSent) {
        this.continueSent = true;
        this.flow.sendContinue();
      }
      this.flow.resume();
    });
  }

  private finishCollect(): void {
    const bytes = this.queue.join();
    this.queue.clear();
    this.collector!.resolve(bytes);
  }

  readable(): ReadableStream<Uint8Array> {
    if (this.stream) return this.stream;
    const refusal = this.collector ? new TypeError('the request body was already read') : this.dropped;
    if (refusal) {
      this.stream = new ReadableStream({ start: (c) => c.error(refusal) });
      // Read whole already: locked, as the Fetch standard leaves a read body's stream (so no
      // Request takes it as a body). A dropped one stays open to a reader, to say why.
      if (this.collector) this.stream.getReader();
      return this.stream;
    }
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          if (this.failure) controller.error(this.failure);
          else this.controller = controller;
        },
        pull: () => {
          this.touched = true;
          if (!this.continueSent) {
            this.continueSent = true;
            this.flow.sendContinue();
          }
          this.waiting = true;
          this.deliver();
        },
        cancel: () => {
          this.touched = true;
          this.discard();
        },
      },
      { highWaterMark: 0 },
    );
    return this.stream;
  }

  /** A piece of body from the parser. */
  push(chunk: Uint8Array): void {
    if (this.discarding || chunk.length === 0) return;
    const queue = this.queue;
    queue.push(chunk);
    if (this.waiting) {
      // A read waits: a large piece goes at once, small ones at the end of their turn (a read's worth, joined).
      if (chunk.length >= SMALL_PIECE_BYTES) this.deliver();
      else if (!this.deliveryDue) {
        this.deliveryDue = true;
        atEndOfTurn((this.deliverLater ??= () => ((this.deliveryDue = false), this.deliver())));
      }
    } else if (!this.collector && queue.bytes + queue.parts.length * PIECE_COST >= HIGH_WATER_MARK) this.flow.pause();
  }

  /** Hands a waiting read what has come (then the end, once the body is over), or lets more come from the socket. */
  private deliver(): void {
    const controller = this.controller;
    if (!this.waiting || !controller || this.discarding || this.delivering) return;
    if (this.queue.parts.length > 0) {
      this.waiting = false;
      // An enqueue may call its reader back at once (Deno's body readers do), and the reader's next
      // read pulls again before this loop is done: that pull only marks the read waiting.
      this.delivering = true;
      try {
        // The reader may keep what it gets, and with it the buffer behind it (on Deno a read slab
        // shared with other connections: 100 chunks of 10 bytes kept by a handler held 8 KiB each).
        for (const part of this.queue.take()) controller.enqueue(unpinned(part));
      } finally {
        this.delivering = false;
      }
    }
    if (this.ended) {
      this.waiting = false;
      this.controller = null;
      controller.close();
    } else this.flow.resume();
  }

  /** Errors the stream, once, if it is open. */
  private errorStream(error: Error): void {
    const controller = this.controller;
    this.controller = null;
    controller?.error(error);
  }

  /** Trailer fields that came after the body (call before `end()`). */
  setTrailers(list: HeaderList): void {
    this.trailerList = list;
  }

  /** The trailer fields, once the body has ended (none: an empty list); rejects if it failed. */
  trailers(): Promise<HeaderList> {
    if (this.ended) return Promise.resolve(this.trailerList);
    if (this.failure) return Promise.reject(this.failure);
    if (!this.trailerWaiter) {
      let resolve!: (list: HeaderList) => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<HeaderList>((res, rej) => ((resolve = res), (reject = rej)));
      this.trailerWaiter = { promise, resolve, reject };
    }
    return this.trailerWaiter.promise;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    // Nothing more comes: a pause for this body must not outlive it (a closed stream is never
    // pulled again, so nothing else would lift it, and the next request would wait unread).
    this.flow.resume();
    this.trailerWaiter?.resolve(this.trailerList);
    if (this.discarding) return;
    if (this.collector) this.finishCollect();
    else this.deliver();
  }

  /** The connection broke or the body was malformed. */
  fail(error: Error): void {
    if (this.ended || this.failure) return;
    this.failure = error;
    this.flow.resume();
    this.trailerWaiter?.reject(error);
    if (this.discarding) return;
    if (this.collector) this.collector.reject(error);
    else this.errorStream(error);
  }

  /** `collect()` is taking the whole body: a read that always goes on to the end. */
  get collecting(): boolean {
    return this.collector !== null;
  }

  /**
   * The response went out before the body ended. A body being read whole (`text()`, `json()`,
   * `arrayBuffer()`) goes on to its reader as it arrives (false: the connection waits for its
   * end). Any other is dropped (true): a stream reader, who may never read again (node-server's
   * suite reads one chunk and leaves), would hold the connection, so its stream errors. A read
   * that starts later fails too, saying why: all of these used to wait forever. (A body that has
   * ended stays to be read: it holds the connection no longer.)
   */
  dropUnlessRead(): boolean {
    if (this.collecting || this.ended) return false;
    const dropped = (this.dropped ??= new TypeError(
      'the request body was dropped: the response was sent before it was read (read it before returning the response)',
    ));
    if (!this.discarding) this.errorStream(dropped);
    this.discard();
    return true;
  }

  /** Nobody will read the rest: drop it, and let the socket flow again. */
  discard(): void {
    if (this.discarding) return;
    this.discarding = true;
    this.queue.clear();
    this.flow.resume();
  }
}

/** Every byte of `stream`, joined. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const pieces = new JoinedPieces();
  for (let result = await reader.read(); !result.done; result = await reader.read()) pieces.push(result.value);
  return pieces.join();
}
