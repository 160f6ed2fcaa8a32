// A request/response, stream and event channel over any IpcTransport: a Hello handshake (version, max
// frame, codec), then typed frames with ids; requests time out or are cancelled, and the other
// side's handler sees the cancellation through an AbortSignal. Streams carry items with
// credit-based backpressure (stream-sender.ts, stream-receiver.ts).
import { createCodec, jsonCodec, type Codec, type CodecName } from './codec.js';
import { IpcError } from './errors.js';
import { DEFAULT_MAX_FRAME, encodeFrame, FrameDecoder, IpcFrameType, type Frame } from './frame.js';
import { StreamReceiver } from './stream-receiver.js';
import { StreamSender } from './stream-sender.js';
import type { IpcTransport } from './transport.js';

/** 2: streams (STREAM, DATA, END, CREDIT frames). */
export const PROTOCOL_VERSION = 2;
/** Items a stream may have in flight and queued by default, and at most. */
const DEFAULT_STREAM_WINDOW = 16;
const MAX_STREAM_WINDOW = 65_536;

export interface ChannelOptions {
  /**
   * 'msgpack' (default, plain MessagePack), 'json', or 'msgpackr' (msgpackr records: fastest, both
   * ends must be msgpackr). Both sides must pick the same.
   */
  codec?: CodecName;
  /** Largest frame this side accepts; the smaller of the two sides' limits applies. Default 16 MiB. */
  maxFrame?: number;
  /** Default request timeout in ms. Default 30 s. */
  timeout?: number;
  /** How long to wait for the other side's Hello, in ms. Default 5 s. */
  handshakeTimeout?: number;
}

export interface RequestOptions {
  timeout?: number;
  signal?: AbortSignal;
}

export interface StreamOptions {
  /** Items in flight plus items not yet read (the credit window). Default 16. */
  highWaterMark?: number;
  /** Cancels the stream: the reader errors with ERR_CANCELLED, the handler's signal aborts. */
  signal?: AbortSignal;
}

type Handler = (params: unknown, context: { signal: AbortSignal }) => unknown;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The context a handler gets. Making an AbortController for every request was 10% of a round trip,
 * so it is made the first time the handler reads `signal` (already aborted if the caller gave up).
 */
class Serving {
  private controller: AbortController | null = null;
  private reason: unknown = undefined;
  aborted = false;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.aborted && !this.controller.signal.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/** Lets a timer not keep the process alive (Node); a no-op elsewhere. */
const unref = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?(): void }).unref?.();

/** A request not answered in this long is rejected (ChannelOptions.timeout). */
const DEFAULT_TIMEOUT_MS = 30_000;
/** The other side's Hello must come within this (ChannelOptions.handshakeTimeout). */
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5000;
/** Request ids run 1..MAX_REQUEST_ID and wrap (0 is never an id; ids stay below u32 max). */
const MAX_REQUEST_ID = 0xffff_fffe;

export class IpcChannel {
  /** Resolves after both sides exchanged Hello; rejects if the handshake fails. */
  readonly ready: Promise<void>;
  private readonly codec: Codec;
  private readonly decoder: FrameDecoder;
  private maxFrame: number;
  private readonly timeout: number;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<string, Handler>();
  private readonly listeners = new Map<string, ((data: unknown) => void)[]>();
  /** Requests being served; their AbortController is made only if the handler reads `signal`. */
  private readonly running = new Map<number, Serving>();
  /** Streams this side reads, and streams this side's handlers feed. */
  private readonly receivers = new Map<number, StreamReceiver<unknown>>();
  private readonly senders = new Map<number, StreamSender>();
  private nextId = 1;
  private isReady = false;
  private failure: Error | null = null;
  private settleReady!: { resolve(): void; reject(error: Error): void };

  constructor(
    private readonly transport: IpcTransport,
    options: ChannelOptions = {},
  ) {
    this.codec = createCodec(options.codec ?? 'msgpack');
    this.maxFrame = options.maxFrame ?? DEFAULT_MAX_FRAME;
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.decoder = new FrameDecoder(this.maxFrame);
    this.ready = new Promise<void>((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => {}); // reported through request() and close()
    const handshake = setTimeout(
      () => this.fail(new IpcError('ERR_HANDSHAKE', 'no Hello from the other side')),
      options.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
    );
    unref(handshake);
    void this.ready.then(
      () => clearTimeout(handshake),
      () => clearTimeout(handshake),
    );
    transport.start({
      data: (chunk) => this.receive(chunk),
      end: (error) => {
        try {
          this.decoder.end();
        } catch (truncated) {
          return this.fail(truncated as Error);
        }
        this.fail(error ?? new IpcError('ERR_CLOSED', 'the other side closed the channel'));
      },
    });
    const hello = { version: PROTOCOL_VERSION, maxFrame: this.maxFrame, codec: this.codec.name };
    transport.send(encodeFrame(IpcFrameType.HELLO, 0, jsonCodec.encode(hello), this.maxFrame));
  }

  /** Calls `method` on the other side; rejects with IpcError (ERR_TIMEOUT, ERR_CANCELLED, ERR_REMOTE, ...). */
  request<T = unknown>(method: string, params?: unknown, options: RequestOptions = {}): Promise<T> {
    // After the handshake, no await: one promise per request is the whole overhead.
    if (!this.isReady) return this.ready.then(() => this.request<T>(method, params, options));
    if (this.failure) return Promise.reject(this.failure);
    if (options.signal?.aborted) return Promise.reject(new IpcError('ERR_CANCELLED', `${method} was cancelled`));
    const id = this.allocateId();
    let frame: Uint8Array;
    try {
      frame = encodeFrame(IpcFrameType.REQUEST, id, this.codec.encode([method, params ?? null]), this.maxFrame);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => {
      const abort = () => this.cancel(id, new IpcError('ERR_CANCELLED', `${method} was cancelled`));
      const timeout = options.timeout ?? this.timeout;
      const timer = setTimeout(() => this.cancel(id, new IpcError('ERR_TIMEOUT', `${method} timed out after ${timeout} ms`)), timeout);
      unref(timer);
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
      this.transport.send(frame);
    });
  }

  /**
   * Calls `method` on the other side as a stream: its handler returns an iterable, an async
   * iterable or a ReadableStream, and its items arrive here in order. The handler produces only
   * as fast as this side reads (credit-based backpressure).
   */
  stream<T = unknown>(method: string, params?: unknown, options: StreamOptions = {}): ReadableStream<T> {
    const window = options.highWaterMark ?? DEFAULT_STREAM_WINDOW;
    if (!Number.isInteger(window) || window < 1 || window > MAX_STREAM_WINDOW) {
      throw new RangeError(`highWaterMark must be an integer from 1 to ${MAX_STREAM_WINDOW}`);
    }
    const id = this.allocateId();
    const receiver = new StreamReceiver<T>(
      window,
      (n) => this.sendCredit(id, n),
      () => this.cancelStream(id),
    );
    this.receivers.set(id, receiver as StreamReceiver<unknown>);
    const cancelled = () => {
      receiver.error(new IpcError('ERR_CANCELLED', `${method} was cancelled`));
      this.cancelStream(id);
    };
    if (options.signal?.aborted) cancelled();
    else options.signal?.addEventListener('abort', cancelled, { once: true });
    const open = () => {
      if (!this.receivers.has(id)) return;
      if (this.failure) return receiver.error(this.failure);
      try {
        this.transport.send(encodeFrame(IpcFrameType.STREAM, id, this.codec.encode([method, params ?? null, window]), this.maxFrame));
      } catch (error) {
        this.receivers.delete(id);
        receiver.error(error as Error);
      }
    };
    if (this.isReady) open();
    else this.ready.then(open, (error: Error) => receiver.error(error));
    return receiver.readable;
  }

  /** Serves `method`; the handler's result (or thrown error) goes back to the caller. */
  handle(method: string, handler: Handler): this {
    this.handlers.set(method, handler);
    return this;
  }

  /** Sends a one-way event. */
  notify(event: string, data?: unknown): void {
    if (this.failure) throw this.failure;
    this.transport.send(encodeFrame(IpcFrameType.EVENT, 0, this.codec.encode([event, data ?? null]), this.maxFrame));
  }

  on(event: string, listener: (data: unknown) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  /** Closes the channel; pending requests reject with ERR_CLOSED. */
  close(): void {
    this.fail(new IpcError('ERR_CLOSED', 'the channel was closed'));
    this.transport.close();
  }

  private allocateId(): number {
    const id = this.nextId;
    this.nextId = (this.nextId % MAX_REQUEST_ID) + 1;
    return id;
  }

  private send(type: IpcFrameType, id: number, payload: Uint8Array): void {
    if (!this.failure) this.transport.send(encodeFrame(type, id, payload, this.maxFrame));
  }

  private sendCredit(id: number, n: number): void {
    const payload = new Uint8Array(4);
    new DataView(payload.buffer).setUint32(0, n);
    this.send(IpcFrameType.CREDIT, id, payload);
  }

  private cancelStream(id: number): void {
    if (this.receivers.delete(id)) this.send(IpcFrameType.CANCEL, id, new Uint8Array(0));
  }

  private cancel(id: number, error: IpcError): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    this.send(IpcFrameType.CANCEL, id, new Uint8Array(0));
    pending.reject(error);
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.settleReady.reject(error);
    for (const [, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
    for (const serving of this.running.values()) serving.abort(error);
    this.running.clear();
    for (const receiver of this.receivers.values()) receiver.error(error);
    this.receivers.clear();
    for (const sender of this.senders.values()) sender.stop();
    this.senders.clear();
  }

  private receive(chunk: Uint8Array): void {
    if (this.failure) return;
    let frames: Frame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.fail(error as Error);
      this.transport.close();
      return;
    }
    for (const frame of frames) {
      try {
        this.dispatch(frame);
      } catch (error) {
        this.fail(error as Error);
        this.transport.close();
        return;
      }
    }
  }

  private dispatch(frame: Frame): void {
    switch (frame.type) {
      case IpcFrameType.HELLO: {
        const hello = jsonCodec.decode(frame.payload) as { version?: number; maxFrame?: number; codec?: string };
        if (hello.version !== PROTOCOL_VERSION)
          throw new IpcError('ERR_HANDSHAKE', `protocol version ${hello.version} is not ${PROTOCOL_VERSION}`);
        if (hello.codec !== this.codec.name)
          throw new IpcError('ERR_HANDSHAKE', `the other side speaks ${hello.codec}, this side ${this.codec.name}`);
        if (typeof hello.maxFrame === 'number' && hello.maxFrame < this.maxFrame) this.maxFrame = hello.maxFrame;
        this.decoder.setMaxFrame(this.maxFrame);
        this.isReady = true;
        this.settleReady.resolve();
        return;
      }
      case IpcFrameType.RESPONSE:
      case IpcFrameType.ERROR: {
        const receiver = this.receivers.get(frame.id);
        if (receiver) {
          this.receivers.delete(frame.id);
          return receiver.error(remoteError(this.codec.decode(frame.payload)));
        }
        const pending = this.pending.get(frame.id);
        if (!pending) return; // cancelled or timed out already
        this.pending.delete(frame.id);
        clearTimeout(pending.timer);
        const payload = this.codec.decode(frame.payload);
        if (frame.type === IpcFrameType.RESPONSE) return pending.resolve(payload);
        return pending.reject(remoteError(payload));
      }
      case IpcFrameType.REQUEST:
        return this.serve(frame.id, this.codec.decode(frame.payload) as [string, unknown]);
      case IpcFrameType.CANCEL:
        this.running.get(frame.id)?.abort(new IpcError('ERR_CANCELLED', 'the caller cancelled'));
        this.running.delete(frame.id);
        this.senders.get(frame.id)?.stop();
        return;
      case IpcFrameType.STREAM:
        return this.serveStream(frame.id, this.codec.decode(frame.payload) as [string, unknown, number]);
      case IpcFrameType.DATA:
        return this.receivers.get(frame.id)?.item(this.codec.decode(frame.payload));
      case IpcFrameType.END:
        this.receivers.get(frame.id)?.end();
        this.receivers.delete(frame.id);
        return;
      case IpcFrameType.CREDIT: {
        if (frame.payload.length !== 4)
          throw new IpcError('ERR_CORRUPT_FRAME', `a CREDIT frame carries 4 bytes, not ${frame.payload.length}`);
        const n = new DataView(frame.payload.buffer, frame.payload.byteOffset, 4).getUint32(0);
        return this.senders.get(frame.id)?.grant(Math.min(n, MAX_STREAM_WINDOW));
      }
      case IpcFrameType.EVENT: {
        const [event, data] = this.codec.decode(frame.payload) as [string, unknown];
        for (const listener of this.listeners.get(event) ?? []) listener(data);
        return;
      }
    }
  }

  private serveStream(id: number, [method, params, credit]: [string, unknown, number]): void {
    const handler = this.handlers.get(method);
    const encodeError = (error: unknown, code?: string) =>
      this.codec.encode({ message: error instanceof Error ? error.message : String(error), code });
    if (!handler) return this.send(IpcFrameType.ERROR, id, encodeError(`no handler for ${method}`, 'ERR_NO_HANDLER'));
    const window = Number.isInteger(credit) && credit > 0 ? Math.min(credit, MAX_STREAM_WINDOW) : DEFAULT_STREAM_WINDOW;
    const serving = new Serving();
    const sender = new StreamSender(window, {
      item: (value) => this.send(IpcFrameType.DATA, id, this.codec.encode(value)),
      end: () => this.send(IpcFrameType.END, id, new Uint8Array(0)),
      error: (error) => this.send(IpcFrameType.ERROR, id, encodeError(error)),
    });
    this.running.set(id, serving);
    this.senders.set(id, sender);
    let source: unknown;
    try {
      source = handler(params, serving);
    } catch (error) {
      source = Promise.reject(error);
    }
    void sender.pump(source).finally(() => {
      this.running.delete(id);
      this.senders.delete(id);
    });
  }

  private serve(id: number, [method, params]: [string, unknown]): void {
    const handler = this.handlers.get(method);
    const reply = (type: IpcFrameType, payload: unknown) => {
      if (this.failure) return;
      let body: Uint8Array;
      try {
        body = this.codec.encode(payload);
        this.transport.send(encodeFrame(type, id, body, this.maxFrame));
      } catch (error) {
        // A result too large for a frame (or not encodable) becomes an error for the caller.
        this.transport.send(encodeFrame(IpcFrameType.ERROR, id, this.codec.encode({ message: (error as Error).message }), this.maxFrame));
      }
    };
    if (!handler) return reply(IpcFrameType.ERROR, { message: `no handler for ${method}`, code: 'ERR_NO_HANDLER' });
    const serving = new Serving();
    const fail = (error: unknown) => {
      if (!serving.aborted) reply(IpcFrameType.ERROR, { message: error instanceof Error ? error.message : String(error) });
    };
    let result: unknown;
    try {
      result = handler(params, serving);
    } catch (error) {
      return fail(error);
    }
    const thenable = result !== null && typeof (result as PromiseLike<unknown> | undefined)?.then === 'function';
    if (!thenable) return reply(IpcFrameType.RESPONSE, result ?? null);
    // Asynchronous handlers can be cancelled while they run.
    this.running.set(id, serving);
    Promise.resolve(result)
      .then((value) => {
        if (!serving.aborted) reply(IpcFrameType.RESPONSE, value ?? null);
      }, fail)
      .finally(() => this.running.delete(id));
  }
}

/** The caller's error for an ERROR frame's payload. */
function remoteError(payload: unknown): IpcError {
  const { message, code } = payload as { message: string; code?: string };
  return new IpcError(code === 'ERR_NO_HANDLER' ? 'ERR_NO_HANDLER' : 'ERR_REMOTE', message);
}
