// A request/response and event channel over any Transport: a Hello handshake (version, max frame,
// codec), then typed frames with ids; requests time out or are cancelled, and the other side's
// handler sees the cancellation through an AbortSignal.
import { createCodec, jsonCodec, type Codec, type CodecName } from './codec.js';
import { IpcError } from './errors.js';
import { DEFAULT_MAX_FRAME, encodeFrame, FrameDecoder, FrameType, type Frame } from './frame.js';
import type { Transport } from './transport.js';

export const PROTOCOL_VERSION = 1;

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
  private nextId = 1;
  private isReady = false;
  private failure: Error | null = null;
  private settleReady!: { resolve(): void; reject(error: Error): void };

  constructor(
    private readonly transport: Transport,
    options: ChannelOptions = {},
  ) {
    this.codec = createCodec(options.codec ?? 'msgpack');
    this.maxFrame = options.maxFrame ?? DEFAULT_MAX_FRAME;
    this.timeout = options.timeout ?? 30_000;
    this.decoder = new FrameDecoder(this.maxFrame);
    this.ready = new Promise<void>((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => {}); // reported through request() and close()
    const handshake = setTimeout(() => this.fail(new IpcError('ERR_HANDSHAKE', 'no Hello from the other side')), options.handshakeTimeout ?? 5000);
    unref(handshake);
    void this.ready.then(() => clearTimeout(handshake), () => clearTimeout(handshake));
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
    transport.send(encodeFrame(FrameType.HELLO, 0, jsonCodec.encode(hello), this.maxFrame));
  }

  /** Calls `method` on the other side; rejects with IpcError (ERR_TIMEOUT, ERR_CANCELLED, ERR_REMOTE, ...). */
  request<T = unknown>(method: string, params?: unknown, options: RequestOptions = {}): Promise<T> {
    // After the handshake, no await: one promise per request is the whole overhead.
    if (!this.isReady) return this.ready.then(() => this.request<T>(method, params, options));
    if (this.failure) return Promise.reject(this.failure);
    if (options.signal?.aborted) return Promise.reject(new IpcError('ERR_CANCELLED', `${method} was cancelled`));
    const id = this.nextId;
    this.nextId = (this.nextId % 0xffff_fffe) + 1;
    let frame: Uint8Array;
    try {
      frame = encodeFrame(FrameType.REQUEST, id, this.codec.encode([method, params ?? null]), this.maxFrame);
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

  /** Serves `method`; the handler's result (or thrown error) goes back to the caller. */
  handle(method: string, handler: Handler): this {
    this.handlers.set(method, handler);
    return this;
  }

  /** Sends a one-way event. */
  notify(event: string, data?: unknown): void {
    if (this.failure) throw this.failure;
    this.transport.send(encodeFrame(FrameType.EVENT, 0, this.codec.encode([event, data ?? null]), this.maxFrame));
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

  private cancel(id: number, error: IpcError): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (!this.failure) this.transport.send(encodeFrame(FrameType.CANCEL, id, new Uint8Array(0), this.maxFrame));
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
      case FrameType.HELLO: {
        const hello = jsonCodec.decode(frame.payload) as { version?: number; maxFrame?: number; codec?: string };
        if (hello.version !== PROTOCOL_VERSION) throw new IpcError('ERR_HANDSHAKE', `protocol version ${hello.version} is not ${PROTOCOL_VERSION}`);
        if (hello.codec !== this.codec.name) throw new IpcError('ERR_HANDSHAKE', `the other side speaks ${hello.codec}, this side ${this.codec.name}`);
        if (typeof hello.maxFrame === 'number' && hello.maxFrame < this.maxFrame) this.maxFrame = hello.maxFrame;
        this.decoder.setMaxFrame(this.maxFrame);
        this.isReady = true;
        this.settleReady.resolve();
        return;
      }
      case FrameType.RESPONSE:
      case FrameType.ERROR: {
        const pending = this.pending.get(frame.id);
        if (!pending) return; // cancelled or timed out already
        this.pending.delete(frame.id);
        clearTimeout(pending.timer);
        const payload = this.codec.decode(frame.payload);
        if (frame.type === FrameType.RESPONSE) return pending.resolve(payload);
        const { message, code } = payload as { message: string; code?: string };
        const error = new IpcError(code === 'ERR_NO_HANDLER' ? 'ERR_NO_HANDLER' : 'ERR_REMOTE', message);
        return pending.reject(error);
      }
      case FrameType.REQUEST:
        return this.serve(frame.id, this.codec.decode(frame.payload) as [string, unknown]);
      case FrameType.CANCEL:
        this.running.get(frame.id)?.abort(new IpcError('ERR_CANCELLED', 'the caller cancelled'));
        this.running.delete(frame.id);
        return;
      case FrameType.EVENT: {
        const [event, data] = this.codec.decode(frame.payload) as [string, unknown];
        for (const listener of this.listeners.get(event) ?? []) listener(data);
        return;
      }
    }
  }

  private serve(id: number, [method, params]: [string, unknown]): void {
    const handler = this.handlers.get(method);
    const reply = (type: FrameType, payload: unknown) => {
      if (this.failure) return;
      let body: Uint8Array;
      try {
        body = this.codec.encode(payload);
        this.transport.send(encodeFrame(type, id, body, this.maxFrame));
      } catch (error) {
        // A result too large for a frame (or not encodable) becomes an error for the caller.
        this.transport.send(encodeFrame(FrameType.ERROR, id, this.codec.encode({ message: (error as Error).message }), this.maxFrame));
      }
    };
    if (!handler) return reply(FrameType.ERROR, { message: `no handler for ${method}`, code: 'ERR_NO_HANDLER' });
    const serving = new Serving();
    const fail = (error: unknown) => {
      if (!serving.aborted) reply(FrameType.ERROR, { message: error instanceof Error ? error.message : String(error) });
    };
    let result: unknown;
    try {
      result = handler(params, serving);
    } catch (error) {
      return fail(error);
    }
    const thenable = result !== null && typeof (result as PromiseLike<unknown> | undefined)?.then === 'function';
    if (!thenable) return reply(FrameType.RESPONSE, result ?? null);
    // Asynchronous handlers can be cancelled while they run.
    this.running.set(id, serving);
    Promise.resolve(result)
      .then((value) => {
        if (!serving.aborted) reply(FrameType.RESPONSE, value ?? null);
      }, fail)
      .finally(() => this.running.delete(id));
  }
}
