// A request/response, stream and event channel over any IpcTransport: a Hello handshake (version, max
// frame, codec), then typed frames with ids. The channel keeps the handshake, events and failure;
// its two halves keep the rest: the caller (caller.ts: requests that time out or are cancelled,
// streams it reads) and the server (server.ts: handlers, whose signal sees a cancellation, and
// streams they feed with credit-based backpressure).
import { Caller, checkTimeout, type RequestOptions, type StreamOptions } from './caller.js';
import { jsonCodec, structuredCloneCodec, type Codec } from './codec.js';
import { IpcError } from './errors.js';
import {
  corruptPayload,
  DEFAULT_MAX_FRAME,
  encodeFrame,
  FrameDecoder,
  frameTypeName,
  IpcFrameType,
  isFrameType,
  isNamed,
  type FrameSink,
} from './frame.js';
import { unref, type ChannelFrame, type ChannelLink } from './link.js';
import { Outbox } from './outbox.js';
import { checkCarried, PLAIN_FRAMES, plainType, type ValueFrameType } from './plain.js';
import type { IpcMethods, MethodHandler, MethodItem, MethodParams, MethodResult } from './methods.js';
import { Server, type Handler } from './server.js';
import { takeTransferList } from './transfer.js';
import { allocator, type IpcTransport } from './transport.js';
import { utf8Range } from '../utf8.js';

export type { RequestOptions, StreamOptions } from './caller.js';

/**
 * 2: streams (STREAM, DATA, END, CREDIT frames); 3: stream windows count bytes as well as items;
 * 4: the Hello says how many requests and streams a side runs at once (`maxConcurrent`);
 * 5: results and stream items that are bytes or strings go as they are (plain.ts).
 */
export const PROTOCOL_VERSION = 5;

/** How an IpcChannel encodes, how large a frame may be, and how long it waits. */
export interface ChannelOptions {
  /**
   * The default is `structuredCloneCodec` on a transport that carries values (a MessagePort: no
   * encoding at all), `jsonCodec` on byte transports. Also, from `wirespeed/ipc/msgpack` (with
   * msgpackr installed), `msgpackCodec` (plain MessagePack, 2–3x faster than JSON on small
   * objects) or `msgpackrRecordsCodec()` (one per channel, both ends msgpackr). Both sides must
   * pick the same: the handshake compares them.
   */
  codec?: Codec | Codec<unknown>;
  /**
   * Largest frame this side accepts, in bytes, from 1 KiB to 2^32-1; the smaller of the two sides'
   * limits applies. Default 16 MiB.
   */
  maxFrame?: number;
  /** Default request timeout in ms. Default 30 s. */
  timeout?: number;
  /** How long to wait for the other side's Hello, in ms (up to 2^31-1, or Infinity for ever). Default 5 s. */
  handshakeTimeout?: number;
  /**
   * How many of the other side's requests and streams this side runs at once. The other side
   * queues the rest and sends them as answers go back, so they wait, they do not fail; a peer
   * that sends more anyway fails the channel (`ERR_TOO_MANY_REQUESTS`). Default 1,024.
   */
  maxConcurrent?: number;
}

/** What a Hello frame says, as JSON. */
interface Hello {
  version?: number;
  maxFrame?: number;
  codec?: string;
  maxConcurrent?: number;
}

/** A request not answered in this long is rejected (ChannelOptions.timeout). */
const DEFAULT_TIMEOUT_MS = 30_000;
/** The other side's Hello must come within this (ChannelOptions.handshakeTimeout). */
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5000;
/**
 * Requests and streams a side runs at once (ChannelOptions.maxConcurrent): many more than a
 * pipe needs to stay full (64 in flight already batch a turn's frames into one write), few enough
 * that what a peer can hold here is bounded.
 */
const DEFAULT_MAX_CONCURRENT = 1024;
/** The largest `maxConcurrent`: a u32, as HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS. */
const MAX_CONCURRENT_LIMIT = 0xffff_ffff;
/** The smallest `maxFrame`: a Hello and a small request fit in it. */
const MIN_FRAME_LIMIT = 1024;
/** The largest `maxFrame`: a frame's length is a u32. */
const MAX_FRAME_LIMIT = 0xffff_ffff;

/**
 * A request/response, stream and event channel over an IpcTransport. `Local` is what this side
 * serves and `Remote` what the other side serves (methods.ts); both default to untyped.
 */
export class IpcChannel<Local extends object = IpcMethods, Remote extends object = IpcMethods> {
  /** Resolves after both sides exchanged Hello; rejects if the handshake fails. */
  readonly ready: Promise<void>;
  private readonly codec: Codec<unknown>;
  /** What payloads are in this process: the codec's text form when it has one (JSON), else the codec. */
  private readonly wire: Codec<unknown>;
  /** The codec is structured clone: frames travel as values (`IpcTransport.sendValue`). */
  private readonly cloning: boolean;
  private maxFrame: number;
  private failure: Error | null = null;
  private readonly decoder: FrameDecoder;
  private readonly outbox: Outbox;
  /** Where received bytes values are copied (IpcTransport.allocate). */
  private readonly allocate: (size: number) => Uint8Array;
  private readonly caller: Caller;
  private readonly server: Server;
  private readonly listeners = new Map<string, ((data: unknown) => void)[]>();
  private isReady = false;
  private settleReady!: { resolve(): void; reject(error: Error): void };

  constructor(
    private readonly transport: IpcTransport,
    options: ChannelOptions = {},
  ) {
    this.codec = options.codec ?? (transport.sendValue ? structuredCloneCodec : jsonCodec);
    this.wire = this.codec.text ?? this.codec;
    this.cloning = this.codec === structuredCloneCodec;
    if (this.cloning && !transport.sendValue)
      throw new TypeError('the structured-clone codec needs a transport that carries values (portTransport)');
    // Checked before the transport starts, so a refused option leaves nothing listening. A NaN
    // limit would have bounded nothing (no size is greater than NaN).
    this.maxFrame = options.maxFrame ?? DEFAULT_MAX_FRAME;
    if (!isIntegerIn(this.maxFrame, MIN_FRAME_LIMIT, MAX_FRAME_LIMIT))
      throw new RangeError(`maxFrame must be an integer from ${MIN_FRAME_LIMIT} to ${MAX_FRAME_LIMIT}`);
    const handshakeTimeout = options.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
    checkTimeout(handshakeTimeout, 'handshakeTimeout');
    this.decoder = new FrameDecoder(this.maxFrame);
    this.outbox = new Outbox(transport, (error) => this.fail(error));
    this.allocate = allocator(transport);
    // What the two halves see of the channel (kept off its public interface).
    const link: ChannelLink = {
      codec: this.wire,
      cloning: this.cloning,
      failure: () => this.failure,
      backlogged: () => transport.backlogged?.() === true,
      send: (type, id, payload) => this.send(type, id, payload),
      sendValue: (type, id, value) => this.sendValue(type, id, value),
    };
    const maxConcurrent = options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
    if (!isIntegerIn(maxConcurrent, 1, MAX_CONCURRENT_LIMIT))
      throw new RangeError(`maxConcurrent must be an integer from 1 to ${MAX_CONCURRENT_LIMIT}`);
    this.caller = new Caller(link, options.timeout ?? DEFAULT_TIMEOUT_MS);
    this.server = new Server(link, maxConcurrent);
    this.ready = new Promise<void>((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => {}); // reported through request() and close()
    if (handshakeTimeout !== Infinity) {
      const handshake = setTimeout(() => this.fail(new IpcError('ERR_HANDSHAKE', 'no Hello from the other side')), handshakeTimeout);
      unref(handshake);
      const stop = () => clearTimeout(handshake);
      void this.ready.then(stop, stop);
    }
    transport.start({
      data: (chunk) => this.receive(chunk),
      value: (message) => this.receiveValue(message),
      drained: () => {
        try {
          this.server.drained();
        } catch (error) {
          this.failAndClose(error);
        }
      },
      end: (error) => {
        try {
          this.decoder.end();
        } catch (truncated) {
          return this.fail(truncated as Error);
        }
        this.fail(error ?? new IpcError('ERR_CLOSED', 'the other side closed the channel'));
      },
    });
    const hello: Hello = { version: PROTOCOL_VERSION, maxFrame: this.maxFrame, codec: this.codec.name, maxConcurrent };
    transport.send(encodeFrame(IpcFrameType.HELLO, 0, jsonCodec.encode(hello), this.maxFrame));
  }

  /** Calls `method` on the other side; rejects with IpcError (ERR_TIMEOUT, ERR_CANCELLED, ERR_REMOTE, ...). */
  request<M extends keyof Remote & string>(
    method: M,
    params?: MethodParams<Remote[M]>,
    options: RequestOptions = {},
  ): Promise<MethodResult<Remote[M]>> {
    // After the handshake, no await: one promise per request is the whole overhead.
    if (!this.isReady) return this.ready.then(() => this.request(method, params, options));
    return this.caller.request(method, params, options);
  }

  /**
   * Calls `method` on the other side as a stream: its handler returns an iterable, an async
   * iterable or a ReadableStream, and its items arrive here in order. The handler produces only
   * as fast as this side reads (credit-based backpressure).
   */
  stream<M extends keyof Remote & string>(
    method: M,
    params?: MethodParams<Remote[M]>,
    options: StreamOptions = {},
  ): ReadableStream<MethodItem<Remote[M]>> {
    const { readable, open, error } = this.caller.stream<MethodItem<Remote[M]>>(method, params, options);
    if (this.isReady) open();
    else this.ready.then(open, error);
    return readable;
  }

  /** Serves `method`; the handler's result (or thrown error) goes back to the caller. */
  handle<M extends keyof Local & string>(method: M, handler: MethodHandler<Local[M]>): this {
    this.server.handlers.set(method, handler as Handler);
    return this;
  }

  /** Sends a one-way event. */
  notify(event: string, data?: unknown): void {
    if (this.failure) throw this.failure;
    checkCarried(this.wire, data, `the data of ${event}`);
    this.send(IpcFrameType.EVENT, 0, this.wire.encode([event, data ?? null]));
  }

  /**
   * Listens for the other side's `notify(event)`. A listener that throws is reported as the
   * platform reports an event listener's error (an uncaught exception on Node and Deno, an error
   * event in a page); the other listeners and the channel go on.
   */
  on(event: string, listener: (data: unknown) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  /** Closes the channel; pending requests reject with ERR_CLOSED. */
  close(): void {
    this.outbox.flush(); // what was sent before close() still goes out
    this.fail(new IpcError('ERR_CLOSED', 'the channel was closed'));
    this.transport.close();
  }

  /**
   * One frame out: bytes (or text, as UTF-8) at the end of this turn, throwing now when over the
   * agreed limit; a value frame now, so a value the runtime cannot clone throws here, where an
   * encoder would have. Returns the payload's size on the wire (0 for a value).
   */
  private send(type: IpcFrameType, id: number, payload: unknown): number {
    if (this.cloning) {
      this.transport.sendValue!([type, id, payload], takeTransferList(type, payload));
      return 0;
    }
    if (typeof payload === 'string') return this.outbox.text(type, id, payload, this.maxFrame);
    return this.outbox.frame(type, id, payload as Uint8Array, this.maxFrame);
  }

  /** A result or stream item: bytes and strings in their plain frames (plain.ts), anything else encoded. */
  private sendValue(type: ValueFrameType, id: number, value: unknown): number {
    if (this.cloning) return this.send(type, id, value);
    const plain = plainType(type, value);
    if (plain === undefined) return this.send(type, id, this.wire.encode(value));
    if (typeof value === 'string') return this.outbox.text(plain, id, value, this.maxFrame);
    return this.outbox.frame(plain, id, value as Uint8Array, this.maxFrame);
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.outbox.clear();
    this.settleReady.reject(error);
    this.caller.fail(error);
    this.server.fail(error);
  }

  private receive(chunk: Uint8Array): void {
    if (this.failure) return;
    try {
      this.decoder.read(chunk, this.receiveFrame);
    } catch (error) {
      this.failAndClose(error);
    }
  }

  /**
   * A frame from the bytes: a text codec's payload, a plain text value (and the Hello's JSON) is
   * read as text straight from them; plain bytes are the value, so they are copied out of the
   * chunk, which the transport may reuse (into the transport's memory: a Buffer on Node streams);
   * other payloads are decoded before the chunk is let go.
   */
  private readonly receiveFrame: FrameSink = (type, id, bytes, start, end) => {
    if (this.failure) return;
    try {
      if (type === IpcFrameType.HELLO) return this.hello(jsonCodec.text!.decode(utf8Range(bytes, start, end)) as Hello);
      if (!this.isReady) throw beforeHello(type);
      const plain = PLAIN_FRAMES.get(type);
      const text = plain === 'text' || (plain === undefined && this.wire !== this.codec && type !== IpcFrameType.CREDIT);
      const payload = text ? utf8Range(bytes, start, end) : plain === 'bytes' ? this.copy(bytes, start, end) : bytes.slice(start, end);
      this.dispatch({ type, id, payload, size: end - start });
    } catch (error) {
      this.failAndClose(error);
    }
  };

  /** bytes[start..end) in memory of their own. */
  private copy(bytes: Uint8Array, start: number, end: number): Uint8Array {
    const copy = this.allocate(end - start);
    copy.set(bytes.subarray(start, end));
    return copy;
  }

  /** A value frame, `[type, id, payload]` (structured-clone codec); anything else is corrupt. */
  private receiveValue(message: unknown): void {
    if (this.failure) return;
    const frame = message as [unknown, unknown, unknown];
    const valid = this.cloning && Array.isArray(frame) && frame.length === 3 && isFrameType(frame[0]) && Number.isInteger(frame[1]);
    if (!valid) {
      const why = this.cloning ? 'a message that is not a [type, id, payload] frame' : 'a value on a channel that speaks bytes';
      return this.failAndClose(new IpcError('ERR_CORRUPT_FRAME', `the other side sent ${why}`));
    }
    try {
      if (!this.isReady) throw beforeHello(frame[0] as IpcFrameType);
      this.dispatch({ type: frame[0] as IpcFrameType, id: frame[1] as number, payload: frame[2], size: 0 });
    } catch (error) {
      this.failAndClose(error);
    }
  }

  /** Bad input from the other side: the channel fails and the transport closes. */
  private failAndClose(error: unknown): void {
    this.fail(error as Error);
    this.transport.close();
  }

  private dispatch(frame: ChannelFrame): void {
    switch (frame.type) {
      case IpcFrameType.HELLO: // always bytes (receiveFrame), never a value
        throw new IpcError('ERR_HANDSHAKE', 'the Hello frame is not bytes');
      case IpcFrameType.RESPONSE:
      case IpcFrameType.RESPONSE_BYTES:
      case IpcFrameType.RESPONSE_TEXT:
      case IpcFrameType.ERROR:
      case IpcFrameType.DATA:
      case IpcFrameType.DATA_BYTES:
      case IpcFrameType.DATA_TEXT:
      case IpcFrameType.END:
        return this.caller.receive(frame);
      case IpcFrameType.REQUEST:
      case IpcFrameType.STREAM:
      case IpcFrameType.CANCEL:
      case IpcFrameType.CREDIT:
        return this.server.receive(frame);
      case IpcFrameType.EVENT: {
        const message = this.wire.decode(frame.payload);
        if (!isNamed(message)) throw corruptPayload(frame.type, '[event, data]', message);
        const [event, data] = message;
        for (const listener of this.listeners.get(event) ?? []) {
          try {
            listener(data);
          } catch (error) {
            reportListenerError(error); // a bug in this side's listener, not the other side's input
          }
        }
        return;
      }
    }
  }

  private hello(hello: Hello): void {
    // The other side's settings hold for the channel's life: a second Hello would change them
    // under requests in flight.
    if (this.isReady) throw new IpcError('ERR_HANDSHAKE', 'the other side sent a second Hello');
    if (hello.version !== PROTOCOL_VERSION)
      throw new IpcError('ERR_HANDSHAKE', `protocol version ${hello.version} is not ${PROTOCOL_VERSION}`);
    if (hello.codec !== this.codec.name)
      throw new IpcError('ERR_HANDSHAKE', `the other side speaks ${hello.codec}, this side ${this.codec.name}`);
    if (!isIntegerIn(hello.maxConcurrent, 1, MAX_CONCURRENT_LIMIT))
      throw new IpcError(
        'ERR_HANDSHAKE',
        `the other side's maxConcurrent (${hello.maxConcurrent}) is not an integer from 1 to ${MAX_CONCURRENT_LIMIT}`,
      );
    if (!isIntegerIn(hello.maxFrame, MIN_FRAME_LIMIT, MAX_FRAME_LIMIT))
      throw new IpcError(
        'ERR_HANDSHAKE',
        `the other side's maxFrame (${hello.maxFrame}) is not an integer from ${MIN_FRAME_LIMIT} to ${MAX_FRAME_LIMIT}`,
      );
    this.caller.setSlots(hello.maxConcurrent);
    this.maxFrame = Math.min(this.maxFrame, hello.maxFrame);
    this.decoder.setMaxFrame(this.maxFrame);
    this.isReady = true;
    this.settleReady.resolve();
  }
}

/**
 * A listener's throw is reported as the platform reports an event listener's: `reportError` where
 * there is one (Deno, browsers), else as an uncaught exception (Node, as an EventEmitter's or a
 * MessagePort's listener would throw). The event's other listeners and the channel go on.
 */
function reportListenerError(error: unknown): void {
  if (typeof reportError === 'function') return reportError(error);
  queueMicrotask(() => {
    throw error;
  });
}

/**
 * Each side's first frame is its Hello (the transport keeps order), so anything before it is a peer
 * that skipped the handshake: its limits are not known yet.
 */
function beforeHello(type: IpcFrameType): IpcError {
  return new IpcError('ERR_HANDSHAKE', `the other side sent ${frameTypeName(type)} before its Hello`);
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}
