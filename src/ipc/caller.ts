// The calling half of a channel: requests waiting for their answer (each with its timeout and its
// caller's signal) and streams being read, fed by the RESPONSE, ERROR, DATA and END frames.
//
// The other side runs at most its `maxConcurrent` requests and streams at once (it says how many
// in its Hello, and fails the channel past it), so this side counts the ones it sent and not yet
// saw answered, and queues the rest here, in order, as an HTTP/2 client does past
// SETTINGS_MAX_CONCURRENT_STREAMS. A queued request's timeout runs while it waits.
import { IpcError } from './errors.js';
import { frameTypeName, IpcFrameType } from './frame.js';
import { creditPayload } from './credit.js';
import { remoteError } from './error-payload.js';
import { checkCarried, PLAIN_FRAMES } from './plain.js';
import {
  DEFAULT_CLONED_STREAM_ITEMS,
  DEFAULT_STREAM_WINDOW,
  MAX_STREAM_WINDOW,
  unref,
  type ChannelFrame,
  type ChannelLink,
  type StreamWindow,
} from './link.js';
import { StreamReceiver } from './stream-receiver.js';

/** Per request: its timeout (ms) and a signal that cancels it. */
export interface RequestOptions {
  timeout?: number;
  signal?: AbortSignal;
}

/** Per stream: its credit window and a signal that cancels it. */
export interface StreamOptions {
  /**
   * Items in flight plus items not yet read (the credit window's count). Default 1,024, or 64 for
   * cloned values (structured clone), which only this bounds.
   */
  highWaterMark?: number;
  /**
   * Bytes in flight plus bytes not yet read, as encoded on the wire (the credit window's size).
   * Default 256 KiB. The last item sent may overshoot it by less than a frame. Cloned values
   * are not bytes: only `highWaterMark` bounds them.
   */
  highWaterBytes?: number;
  /** Cancels the stream: the reader errors with ERR_CANCELLED, the handler's signal aborts. */
  signal?: AbortSignal;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Null for a request with no timeout (Infinity). */
  timer: ReturnType<typeof setTimeout> | null;
}

/** A REQUEST or STREAM frame waiting for one of the other side's slots. */
interface Queued {
  type: typeof IpcFrameType.REQUEST | typeof IpcFrameType.STREAM;
  id: number;
  payload: unknown;
}

/** Request ids run 1..MAX_REQUEST_ID and wrap (0 is never an id; ids stay below u32 max). */
const MAX_REQUEST_ID = 0xffff_fffe;
const EMPTY = new Uint8Array(0);
/** setTimeout's longest delay: a longer one fires at once (with a warning), so it is refused. */
const MAX_TIMEOUT_MS = 0x7fff_ffff;

/** The calling half of an IpcChannel. */
export class Caller {
  private readonly pending = new Map<number, Pending>();
  private readonly receivers = new Map<number, StreamReceiver<unknown>>();
  private nextId = 1;
  /** Requests and streams sent and not yet answered (or cancelled): the other side's slots in use. */
  private open = 0;
  /** The other side's `maxConcurrent`, from its Hello. */
  private slots = Infinity;
  /** What waits for a slot, by id, oldest first (a Map: one cancelled while it waits leaves at once). */
  private readonly queue = new Map<number, Queued>();

  constructor(
    private readonly link: ChannelLink,
    /** The default request timeout, in ms. */
    private readonly timeout: number,
  ) {
    checkTimeout(timeout);
  }

  /** The other side's Hello said how many requests and streams it runs at once. */
  setSlots(slots: number): void {
    this.slots = slots;
  }

  /** Sends a request (the channel is ready); the promise settles with its answer. */
  request<T>(method: string, params: unknown, options: RequestOptions): Promise<T> {
    const link = this.link;
    const failure = link.failure();
    if (failure) return Promise.reject(failure);
    if (options.signal?.aborted) return Promise.reject(new IpcError('ERR_CANCELLED', `${method} was cancelled`));
    const timeout = options.timeout ?? this.timeout;
    let payload: unknown;
    try {
      if (options.timeout !== undefined) checkTimeout(timeout);
      checkCarried(link.codec, params, `the params of ${method}`);
      payload = link.codec.encode([method, params ?? null]);
    } catch (error) {
      return Promise.reject(error);
    }
    const id = this.allocateId();
    return new Promise<T>((resolve, reject) => {
      const abort = () => this.cancel(id, new IpcError('ERR_CANCELLED', `${method} was cancelled`));
      let timer: ReturnType<typeof setTimeout> | null = null;
      if (timeout !== Infinity) {
        timer = setTimeout(() => this.cancel(id, new IpcError('ERR_TIMEOUT', `${method} timed out after ${timeout} ms`)), timeout);
        unref(timer);
      }
      options.signal?.addEventListener('abort', abort, { once: true });
      this.pending.set(id, {
        resolve: (value) => {
          options.signal?.removeEventListener('abort', abort);
          resolve(value as T);
        },
        reject: (error) => {
          options.signal?.removeEventListener('abort', abort);
          reject(error);
        },
        timer,
      });
      this.begin({ type: IpcFrameType.REQUEST, id, payload });
    });
  }

  /** A stream reader; `open` is called to send its STREAM frame once the channel is ready. */
  stream<T>(method: string, params: unknown, options: StreamOptions): { readable: ReadableStream<T>; open(): void; error(e: Error): void } {
    const window = {
      items: checkWindow(options.highWaterMark ?? (this.link.cloning ? DEFAULT_CLONED_STREAM_ITEMS : DEFAULT_STREAM_WINDOW.items), 'items'),
      bytes: checkWindow(options.highWaterBytes ?? DEFAULT_STREAM_WINDOW.bytes, 'bytes'),
    };
    const id = this.allocateId();
    let begun = false;
    // The other side knows of the stream (or it waits for a slot) once begun.
    const cancel = () => {
      if (this.receivers.delete(id) && begun) this.abandon(id);
    };
    const receiver = new StreamReceiver<T>(window, (items, bytes) => this.sendCredit(id, items, bytes), cancel);
    this.receivers.set(id, receiver as StreamReceiver<unknown>);
    const cancelled = () => {
      receiver.error(new IpcError('ERR_CANCELLED', `${method} was cancelled`));
      cancel();
    };
    if (options.signal?.aborted) cancelled();
    else options.signal?.addEventListener('abort', cancelled, { once: true });
    const open = () => {
      if (!this.receivers.has(id)) return;
      const failure = this.link.failure();
      if (failure) return receiver.error(failure);
      let payload: unknown;
      try {
        checkCarried(this.link.codec, params, `the params of ${method}`);
        payload = this.link.codec.encode([method, params ?? null, window.items, window.bytes]);
      } catch (error) {
        this.receivers.delete(id);
        return receiver.error(error as Error);
      }
      begun = true;
      this.begin({ type: IpcFrameType.STREAM, id, payload });
    };
    return { readable: receiver.readable, open, error: (error) => receiver.error(error) };
  }

  /** A frame for this half (RESPONSE, ERROR, DATA, END, and the plain RESPONSE and DATA). */
  receive(frame: ChannelFrame): void {
    switch (frame.type) {
      case IpcFrameType.RESPONSE:
      case IpcFrameType.RESPONSE_BYTES:
      case IpcFrameType.RESPONSE_TEXT:
      case IpcFrameType.ERROR: {
        const receiver = this.receivers.get(frame.id);
        if (!receiver && !this.pending.has(frame.id)) return; // cancelled or timed out already
        if (receiver && frame.type !== IpcFrameType.ERROR)
          throw new IpcError('ERR_CORRUPT_FRAME', `the other side answered stream ${frame.id} with a ${frameTypeName(frame.type)} frame`);
        // Read before the request is taken out: a payload that fails to decode fails the channel,
        // which then rejects this request with the rest (taken out first, it would never settle).
        const value = this.valueOf(frame);
        const error = frame.type === IpcFrameType.ERROR ? remoteError(value) : null;
        this.answered();
        if (receiver) {
          this.receivers.delete(frame.id);
          return receiver.error(error!);
        }
        const pending = this.settle(frame.id)!;
        return error ? pending.reject(error) : pending.resolve(value);
      }
      case IpcFrameType.DATA:
      case IpcFrameType.DATA_BYTES:
      case IpcFrameType.DATA_TEXT:
        return this.receivers.get(frame.id)?.item(this.valueOf(frame), frame.size);
      case IpcFrameType.END: {
        const receiver = this.receivers.get(frame.id);
        if (!receiver) return; // cancelled already
        this.receivers.delete(frame.id);
        this.answered();
        return receiver.end();
      }
    }
  }

  /** A frame's value: a plain frame's payload is the value (plain.ts), others are the codec's. */
  private valueOf(frame: ChannelFrame): unknown {
    return PLAIN_FRAMES.has(frame.type) ? frame.payload : this.link.codec.decode(frame.payload);
  }

  /** The channel failed: every request rejects and every stream errors with `error`. */
  fail(error: Error): void {
    for (const pending of this.pending.values()) {
      if (pending.timer) clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
    for (const receiver of this.receivers.values()) receiver.error(error);
    this.receivers.clear();
    this.queue.clear();
    this.open = 0;
  }

  /** Sends a REQUEST or STREAM frame if the other side has a slot for it, else queues it. */
  private begin(opening: Queued): void {
    if (this.open >= this.slots) {
      this.queue.set(opening.id, opening);
      return;
    }
    this.open++;
    try {
      this.link.send(opening.type, opening.id, opening.payload);
    } catch (error) {
      // Over the frame limit: nothing went out.
      this.open--;
      if (opening.type === IpcFrameType.REQUEST) return this.settle(opening.id)?.reject(error as Error);
      this.receivers.get(opening.id)?.error(error as Error);
      this.receivers.delete(opening.id);
    }
  }

  /** A request or stream the other side had is over: its slot goes to the oldest one waiting. */
  private answered(): void {
    this.open--;
    if (this.queue.size === 0) return;
    for (const [id, next] of this.queue) {
      if (this.open >= this.slots) return;
      this.queue.delete(id);
      this.begin(next);
    }
  }

  /** A request or stream is given up: the other side is told (it frees the slot) if it was sent. */
  private abandon(id: number): void {
    if (this.queue.delete(id)) return;
    this.quietly(IpcFrameType.CANCEL, id, EMPTY);
    this.answered();
  }

  private allocateId(): number {
    const id = this.nextId;
    this.nextId = (this.nextId % MAX_REQUEST_ID) + 1;
    return id;
  }

  /** Takes a pending request out, its timer stopped. */
  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    this.pending.delete(id);
    if (pending.timer) clearTimeout(pending.timer);
    return pending;
  }

  private cancel(id: number, error: IpcError): void {
    const pending = this.settle(id);
    if (!pending) return;
    this.abandon(id);
    pending.reject(error);
  }

  private sendCredit(id: number, items: number, bytes: number): void {
    this.quietly(IpcFrameType.CREDIT, id, creditPayload(this.link.cloning, items, bytes));
  }

  /** Control frames: nothing to send once the channel failed. */
  private quietly(type: IpcFrameType, id: number, payload: unknown): void {
    if (!this.link.failure()) this.link.send(type, id, payload);
  }
}

/** A stream's window, items (highWaterMark) or bytes (highWaterBytes): an integer from 1 to the largest window. */
function checkWindow(value: number, part: keyof StreamWindow): number {
  if (Number.isInteger(value) && value >= 1 && value <= MAX_STREAM_WINDOW[part]) return value;
  const option = part === 'items' ? 'highWaterMark' : 'highWaterBytes';
  throw new RangeError(`${option} must be an integer from 1 to ${MAX_STREAM_WINDOW[part]}`);
}

/**
 * A timeout is a number of ms from 0 to setTimeout's limit, or Infinity for none: NaN, a negative
 * or a longer one would otherwise fire at once.
 */
export function checkTimeout(timeout: number, what = 'a timeout'): void {
  if (timeout === Infinity || (timeout >= 0 && timeout <= MAX_TIMEOUT_MS)) return;
  throw new RangeError(`${what} is a number of ms from 0 to ${MAX_TIMEOUT_MS}, or Infinity, not ${timeout}`);
}
