// One HTTP/2 server connection (RFC 9113): frames in through the reader, dispatched here; requests
// and their DATA through the receiving half (recv.ts), responses out through the sending half
// (send.ts, respond.ts). This file keeps what belongs to the whole connection: the preface and
// SETTINGS, PING, GOAWAY, stream resets and closes, rate limits and deadlines. Runtime-agnostic
// like the HTTP/1.1 connection: the adapter hands in a Transport and forwards its events. Every
// error names the RFC section that makes it one.
import { HpackDecoder, HpackEncoder } from '../../hpack/index.js';
import { ConnectionError, ErrorCode, StreamError, type ErrorCodeName } from '../../http2/errors.js';
import { Flag, FrameType } from '../../http2/frame/header.js';
import { HeaderBlockAssembler } from '../../http2/frame/header-block.js';
import { goawayPayload } from '../../http2/frame/goaway.js';
import { parseFrame, type Frame } from '../../http2/frame/parse.js';
import { FrameReader, type RawFrame } from '../../http2/frame/reader.js';
import type { Setting } from '../../http2/frame/settings.js';
import type { ResolvedHttp2Options } from '../../http2/options.js';
import { RateLimit } from '../../http2/rate-limit.js';
import { DEFAULT_HEADER_TABLE_SIZE } from '../../http2/settings.js';
import { connectionInfo, type ConnectionHost, type ConnectionInfo, type ServerConnection, type Transport } from '../connection.js';
import type { ResolvedServeOptions } from '../options.js';
import { plainResponse } from '../plain-response.js';
import { ExchangeInfo } from '../request-info.js';
import { Deadlines } from './deadlines.js';
import { FrameWriter } from './frame-writer.js';
import { Recv, type RecvHost } from './recv.js';
import { Responder } from './respond.js';
import { INITIAL_CONNECTION_WINDOW, Send, STREAM_HIGH_WATER_MARK } from './send.js';
import { PROGRESS_BYTES } from '../stall-clock.js';
import type { Http2Stream } from './stream.js';
import { SettingsSync } from './settings-sync.js';
import { StreamTable } from './streams.js';
import { holdClock, now, releaseClock } from '../clock.js';

/**
 * Frames handled from one read before what they produced is written. One connection with 100
 * streams in flight (h2load -c1 -m100) went 135k → 163k req/s at the same CPU per request when
 * its responses left every 32 frames rather than once per read.
 */
const FRAMES_PER_WRITE = 32;

/** The most control frames queued before the client must have read some (nghttp2's limit). */
const CONTROL_BURST = 1000;
/** The most fields a request may have: the byte limit (maxHeaderListSize) is the one that binds. */
const MAX_FIELDS = 0xffff;
/** A PING's opaque data (§6.7): 8 bytes, ours all zero. */
const PING_PAYLOAD = new Uint8Array(8);
/**
 * How recently a client must have taken response bytes to open streams past maxQueuedBytes.
 * Clients send WINDOW_UPDATE as they consume their windows, so a download on a slow link still
 * shows progress within this; a client that stops for longer is held to the budget (and its
 * streams are cut at sendTimeout).
 */
const TAKEN_GRACE_MS = 10_000;

/** One HTTP/2 server connection. */
export class Http2Connection implements ServerConnection, RecvHost {
  closed = false;
  private readonly reader: FrameReader;
  private readonly writer: FrameWriter;
  private readonly decoder: HpackDecoder;
  private readonly encoder: HpackEncoder;
  readonly settings: SettingsSync;
  readonly streams: StreamTable;
  readonly blocks: HeaderBlockAssembler;
  private readonly recv: Recv;
  private readonly send: Send;
  private readonly responder: Responder;
  /** Set once a GOAWAY went out: streams above `goawayLastId` are ignored (§6.8). */
  private goawayLastId = -1;
  /** The peer will open no more streams (GOAWAY, or it ended its side). */
  private peerDone = false;
  /** Requests taken, for `maxRequestsPerConnection`. */
  private requests = 0;
  /** A connection error was sent: nothing more is read. */
  private failed = false;
  private readonly controlFrames: RateLimit;
  private readonly deadlines: Deadlines;
  private readonly info: ConnectionInfo;
  /**
   * When the client last said it took response bytes (a WINDOW_UPDATE: every client that reads
   * more than the first 64 KiB of a connection sends them); 0: never. A socket drain does not
   * count: on Deno it follows every write, whatever the client reads.
   */
  private lastTakenAt = 0;

  constructor(
    readonly transport: Transport,
    private readonly host: ConnectionHost,
    private readonly options: ResolvedHttp2Options,
    /** `prefaceRead`: the cleartext sniffer already read and checked the client preface. */
    { prefaceRead = false } = {},
  ) {
    this.reader = new FrameReader(options.maxFrameSize, { preface: !prefaceRead });
    this.writer = new FrameWriter(transport);
    // Until the client acknowledges our SETTINGS it may use the RFC's table size (§6.5.3).
    const maxTableSize = Math.max(DEFAULT_HEADER_TABLE_SIZE, options.headerTableSize);
    this.decoder = new HpackDecoder({ maxTableSize, maxHeaderListSize: options.maxHeaderListSize, maxFields: MAX_FIELDS });
    this.encoder = new HpackEncoder();
    this.blocks = new HeaderBlockAssembler(options.maxHeaderListSize);
    this.streams = new StreamTable(this.writer, new RateLimit(options.maxResetsPerSecond, options.resetBurst), {
      closed: (stream) => this.streamClosed(stream),
      fail: (error) => this.fail(error),
    });
    this.settings = new SettingsSync(this.writer, options);
    this.send = new Send(this.writer, this.encoder, this.settings.peer, transport, (stream) => this.streams.endSent(stream));
    this.responder = new Responder(this.send, this.streams, this);
    this.recv = new Recv(
      this,
      this.streams,
      this.writer,
      this.decoder,
      this.responder,
      () => this.settings.peer.initialWindowSize,
      options,
      { encrypted: transport.encrypted, ...host.options.parser },
    );
    this.controlFrames = new RateLimit(options.maxControlFramesPerSecond, CONTROL_BURST);
    this.deadlines = new Deadlines(
      {
        destroy: (error) => this.destroy(error),
        fail: (error) => this.fail(error),
        shutdown: () => this.shutdown(),
        ping: () => this.writer.frame(FrameType.PING, 0, 0, PING_PAYLOAD),
        timeOut: (stream) => this.timeOut(stream),
        sendTimedOut: (stream) => this.sendTimedOut(stream),
      },
      this,
      host.options,
      options,
    );
    this.info = connectionInfo(transport);

    // The server preface (§3.4): our SETTINGS, then the connection window beyond the RFC's 64 KiB.
    this.settings.sendOurs(this.deadlines.createdAt);
    if (options.connectionWindowSize > INITIAL_CONNECTION_WINDOW) {
      this.recv.windowUpdate(0, options.connectionWindowSize - INITIAL_CONNECTION_WINDOW);
    }
    this.writer.flush();
  }

  // ---- transport events ----

  onData(chunk: Uint8Array): void {
    if (this.closed || this.failed) return;
    // The frames of one read share one clock reading.
    holdClock();
    try {
      this.receiveChunk(chunk);
    } finally {
      releaseClock();
    }
  }

  private receiveChunk(chunk: Uint8Array): void {
    this.deadlines.received(now());
    this.transport.cork();
    try {
      let frames = 0;
      for (const raw of this.reader.push(chunk)) {
        this.receive(raw);
        if (this.failed) break;
        if (++frames % FRAMES_PER_WRITE === 0) {
          // The responses so far go out now: the client reads them and sends new requests
          // while the rest of this read is handled, instead of both sides taking turns.
          this.writer.flush();
          this.transport.uncork();
          this.transport.cork();
        }
      }
    } catch (error) {
      this.fail(error);
    }
    this.writer.flush();
    // A client that does not read its responses stops being read (control frames cannot pile up).
    if (this.transport.needsDrain) this.transport.pause();
    this.transport.uncork();
  }

  onEnd(): void {
    this.peerDone = true;
    if (this.streams.size === 0) return this.end();
    // HTTP/2 has no half-close of the connection (the client could not even send WINDOW_UPDATE):
    // a client that ends it is gone, and its streams with it, as Node's http2 server takes it.
    // Its responses waited (an event stream's for ever) for a close the client never sent.
    this.destroy(new Error('the client ended the connection'));
  }

  onDrain(): void {
    if (this.closed) return;
    this.deadlines.drained();
    this.transport.resume();
    this.send.socketDrained();
    for (const stream of this.streams.values()) {
      if (stream.outbound.bytes < STREAM_HIGH_WATER_MARK) stream.wakeWriters();
    }
  }

  onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.streams.cancelAll(new Error('the connection closed before the response was sent'));
    this.decoder.free();
    this.encoder.free();
    this.host.connectionClosed(this.transport);
  }

  // ---- server events ----

  checkDeadline(now: number): void {
    if (!this.closed && !this.failed) this.deadlines.check(now);
  }

  /** Graceful: GOAWAY with the last stream taken; those finish, then the connection closes. */
  shutdown(): void {
    if (this.closed || this.failed) return;
    if (this.goawayLastId < 0) this.goaway('NO_ERROR');
    // WebSockets are told the server is going away (1001); their streams end with their close.
    for (const stream of this.streams.values()) stream.tunnel?.shutdown();
    if (this.streams.size === 0) this.end();
  }

  destroy(error?: unknown): void {
    const reason = error instanceof Error ? error : new Error(error === undefined ? 'the connection was destroyed' : String(error));
    for (const stream of this.streams.values()) stream.cancel(reason);
    this.transport.destroy();
  }

  // ---- RecvHost ----

  get accepting(): boolean {
    return this.goawayLastId < 0;
  }

  handle(stream: Http2Stream, request: Request): void {
    // The last request maxRequestsPerConnection allows comes with a GOAWAY (NO_ERROR), as its
    // HTTP/1.1 response says `Connection: close`: the client opens its next streams on a new
    // connection, and the ones taken (WebSockets too) finish first.
    this.requests++;
    const max = this.host.options.maxRequestsPerConnection;
    if (max && this.requests >= max && this.goawayLastId < 0) this.goaway('NO_ERROR');
    const response = this.host.respond(request, new ExchangeInfo(this.info, stream, this.host.responseInterrupted));
    if (!(response instanceof Promise)) return this.responder.respond(stream, response);
    response.then(
      (value) => this.responder.respond(stream, value),
      (error: unknown) => this.responder.abort(stream, error),
    );
  }

  /**
   * Over maxQueuedBytes of responses wait for the client (DATA its windows hold back, and the
   * socket's queue), and it has opened no window for TAKEN_GRACE_MS, or never: new streams are
   * refused. A client that takes its responses, however large and however slowly, is not held
   * to the budget (by volume alone, as Node's http2 counts it, a large download has a page's
   * other requests refused); one whose windows or socket take nothing is, from its first streams on.
   */
  get backlogged(): boolean {
    if (this.send.queued + this.transport.bufferedAmount <= this.options.maxQueuedBytes) return false;
    return this.lastTakenAt === 0 || now() - this.lastTakenAt > TAKEN_GRACE_MS;
  }

  /** CVE-2019-9512/9515/9518: frames that cost work but carry no request are rate-limited. */
  controlFrame(): void {
    if (!this.controlFrames.take())
      throw new ConnectionError('ENHANCE_YOUR_CALM', 'too many control frames (PING, SETTINGS, PRIORITY, empty DATA)');
  }

  reportError(error: unknown, request: Request | null): void {
    this.host.reportError(error, request);
  }

  get webSocketDeflate() {
    return this.host.webSocketDeflate;
  }

  get serveOptions(): ResolvedServeOptions {
    return this.host.options;
  }

  internalError(error: unknown): Response {
    return this.host.internalError(error);
  }

  // ---- frames in ----

  private receive(raw: RawFrame): void {
    this.blocks.checkNext(raw.header.type, raw.header.streamId);
    let frame: Frame;
    try {
      frame = parseFrame(raw.header, raw.payload);
      // §3.4: the client preface ends with a SETTINGS frame.
      if (!this.settings.received) this.settings.first(frame.type === 'settings' && !frame.ack);
      this.dispatch(frame);
    } catch (error) {
      if (!(error instanceof StreamError)) throw error;
      this.streams.reset(error.streamId, error.code);
    }
  }

  private dispatch(frame: Frame): void {
    switch (frame.type) {
      case 'data':
        return this.recv.data(frame.streamId, frame.data, frame.endStream, frame.flowLength);
      case 'headers': {
        const block = this.blocks.headers(frame.streamId, frame.endStream, frame.fragment, frame.endHeaders);
        return block ? this.recv.headerBlock(block) : undefined;
      }
      case 'continuation': {
        // An empty CONTINUATION that does not end its block is work for nothing.
        if (frame.fragment.length === 0 && !frame.endHeaders) this.controlFrame();
        const block = this.blocks.continuation(frame.streamId, frame.fragment, frame.endHeaders);
        return block ? this.recv.headerBlock(block) : undefined;
      }
      case 'priority':
        // Deprecated and ignored (§5.3.2), but a flood of them still costs work.
        return this.controlFrame();
      case 'rst_stream':
        return this.streams.receiveReset(frame.streamId);
      case 'settings':
        return this.receiveSettings(frame.ack, frame.settings);
      case 'ping':
        if (frame.ack) {
          this.deadlines.pong();
          return;
        }
        this.controlFrame();
        this.writer.frame(FrameType.PING, Flag.ACK, 0, frame.opaque);
        return;
      case 'goaway':
        // §6.8: the client opens no more streams; the ones open finish.
        this.peerDone = true;
        if (this.streams.size === 0) this.end();
        return;
      case 'window_update':
        return this.receiveWindowUpdate(frame.streamId, frame.increment);
      case 'unknown':
        // §5.5: unknown frame types are ignored.
        return;
    }
  }

  private receiveSettings(ack: boolean, list: Setting[]): void {
    // Our first SETTINGS took effect: the decoder may now hold the peer to our table size.
    if (ack) {
      if (this.settings.acknowledged()) this.decoder.setTableLimit(this.options.headerTableSize);
      return;
    }
    this.controlFrame();
    const { windowDelta, tableSizeChanged } = this.settings.apply(list);
    // §6.9.2: a new initial window moves every stream's send window by the difference.
    if (windowDelta) for (const stream of this.streams.values()) stream.sendWindow.adjust(windowDelta);
    // Our encoder never uses a table larger than the RFC's default, whatever the peer allows.
    if (tableSizeChanged) this.encoder.setTableLimit(Math.min(this.settings.peer.headerTableSize, DEFAULT_HEADER_TABLE_SIZE));
    if (windowDelta > 0) for (const stream of this.streams.values()) this.send.flush(stream);
  }

  private receiveWindowUpdate(streamId: number, increment: number): void {
    if (increment >= PROGRESS_BYTES) this.lastTakenAt = now();
    if (streamId === 0) return this.send.windowOpened(increment);
    this.streams.stateOf(streamId).receiveWindowUpdate();
    const stream = this.streams.get(streamId);
    if (!stream) return;
    stream.sendWindow.increase(increment);
    this.send.flush(stream);
  }

  // ---- streams ending ----

  private streamClosed(stream: Http2Stream): void {
    this.send.forget(stream);
    stream.tunnel?.onClose();
    if (this.streams.size > 0) return;
    this.deadlines.idle(now());
    if (this.peerDone || this.goawayLastId >= 0) this.end();
  }

  /** The request did not arrive within requestTimeout: 408 when nothing was sent yet, else a reset. */
  private timeOut(stream: Http2Stream): void {
    const error = new Error('the request timed out');
    stream.body?.fail(error);
    if (stream.responseStarted) return this.streams.reset(stream.id, 'CANCEL');
    // Cancelled first: the handler's response will not go out (its `completed` rejects), the 408 will.
    stream.cancel(error);
    this.responder.respond(stream, plainResponse(408, 'ERR_REQUEST_TIMEOUT'));
  }

  /** The client's windows held the stream's response back for sendTimeout (a slow read): it is reset. */
  private sendTimedOut(stream: Http2Stream): void {
    const { sendTimeout } = this.host.options;
    stream.cancel(new Error(`the client's windows took under ${PROGRESS_BYTES} bytes of the response in ${sendTimeout} ms (sendTimeout)`));
    this.streams.resetOutsideFrames(stream.id, 'CANCEL');
  }

  // ---- the connection ending ----

  private goaway(code: ErrorCodeName, message = ''): void {
    const last = this.streams.lastStreamId;
    this.goawayLastId = last;
    this.writer.frame(FrameType.GOAWAY, 0, 0, goawayPayload(last, ErrorCode[code], message));
  }

  /** A connection error (§5.4.1): GOAWAY with its code, then close. */
  private fail(error: unknown): void {
    if (this.failed || this.closed) return;
    this.failed = true;
    let connectionError: ConnectionError;
    if (error instanceof ConnectionError) connectionError = error;
    else {
      this.host.reportError(error, null);
      connectionError = new ConnectionError('INTERNAL_ERROR', 'internal error');
    }
    this.goaway(connectionError.code, connectionError.message);
    for (const stream of this.streams.values()) stream.cancel(connectionError);
    this.end();
  }

  private end(): void {
    this.writer.flush();
    this.transport.end();
  }
}
