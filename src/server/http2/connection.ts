// One HTTP/2 server connection (RFC 9113): frames in through the reader, dispatched here; requests
// and their DATA through the receiving half (recv.ts), responses out through the sending half
// (send.ts, respond.ts). This file keeps what belongs to the whole connection: the preface and
// SETTINGS, PING, GOAWAY, stream resets and closes, rate limits and deadlines. Runtime-agnostic
// like the HTTP/1.1 connection: the adapter hands in a Transport and forwards its events. Every
// error names the RFC section that makes it one.
import { HpackDecoder, HpackEncoder } from '../../hpack/index.js';
import { ConnectionError, ErrorCode, StreamError, type ErrorCodeName } from '../../http2/errors.js';
import { Flag, FrameType, uint32Bytes } from '../../http2/frame/header.js';
import { HeaderBlockAssembler } from '../../http2/frame/header-block.js';
import { goawayPayload } from '../../http2/frame/goaway.js';
import { parseFrame, type Frame } from '../../http2/frame/parse.js';
import { FrameReader, type RawFrame } from '../../http2/frame/reader.js';
import { settingsPayload, type Setting } from '../../http2/frame/settings.js';
import type { ResolvedHttp2Options } from '../../http2/options.js';
import { RateLimit } from '../../http2/rate-limit.js';
import { applySettings, DEFAULT_HEADER_TABLE_SIZE, INITIAL_SETTINGS, settingsToSend, type Settings } from '../../http2/settings.js';
import { StreamStateMachine } from '../../http2/stream-state.js';
import { headTimeout, type ConnectionHost, type ConnectionInfo, type ServerConnection, type Transport } from '../connection.js';
import { plainResponse } from '../plain-response.js';
import { FrameWriter } from './frame-writer.js';
import { Recv, type RecvHost } from './recv.js';
import { Responder } from './respond.js';
import { INITIAL_CONNECTION_WINDOW, Send, STREAM_HIGH_WATER_MARK } from './send.js';
import type { Http2Stream } from './stream.js';
import { StreamTable } from './streams.js';

/** The most control frames queued before the client must have read some (nghttp2's limit). */
const CONTROL_BURST = 1000;
/** A PING's opaque data (§6.7): 8 bytes, ours all zero. */
const PING_PAYLOAD = new Uint8Array(8);

export class Http2Connection implements ServerConnection, RecvHost {
  closed = false;
  private readonly reader: FrameReader;
  private readonly writer: FrameWriter;
  private readonly decoder: HpackDecoder;
  private readonly encoder: HpackEncoder;
  private readonly peer: Settings = { ...INITIAL_SETTINGS };
  private readonly streams = new StreamTable();
  private readonly blocks: HeaderBlockAssembler;
  private readonly recv: Recv;
  private readonly send: Send;
  private readonly responder: Responder;
  /** The first frame must be SETTINGS (§3.4). */
  private settingsReceived = false;
  private settingsOutstanding = 0;
  private settingsSentAt: number;
  /** Set once a GOAWAY went out: streams above `goawayLastId` are ignored (§6.8). */
  private goawayLastId = -1;
  /** The peer will open no more streams (GOAWAY, or it ended its side). */
  private peerDone = false;
  /** A connection error was sent: nothing more is read. */
  private failed = false;
  private readonly resets: RateLimit;
  private readonly controlFrames: RateLimit;
  private readonly createdAt = Date.now();
  private lastReceived = this.createdAt;
  private idleSince = this.createdAt;
  private pingSentAt = 0;
  private readonly info: ConnectionInfo;

  constructor(
    readonly transport: Transport,
    private readonly host: ConnectionHost,
    private readonly options: ResolvedHttp2Options,
  ) {
    this.reader = new FrameReader(options.maxFrameSize);
    this.writer = new FrameWriter(transport);
    // Until the client acknowledges our SETTINGS it may use the RFC's table size (§6.5.3).
    const maxTableSize = Math.max(DEFAULT_HEADER_TABLE_SIZE, options.headerTableSize);
    this.decoder = new HpackDecoder({ maxTableSize, maxHeaderListSize: options.maxHeaderListSize, maxFields: 0xffff });
    this.encoder = new HpackEncoder();
    this.blocks = new HeaderBlockAssembler(options.maxHeaderListSize);
    this.recv = new Recv(this, this.streams, this.writer, this.decoder, () => this.peer.initialWindowSize, options);
    this.send = new Send(this.writer, this.encoder, this.peer, transport, (stream) => this.endSent(stream));
    this.responder = new Responder(this.send, this);
    this.resets = new RateLimit(options.maxResetsPerSecond, options.resetBurst);
    this.controlFrames = new RateLimit(options.maxControlFramesPerSecond, CONTROL_BURST);
    this.info = Object.freeze({ remoteAddress: transport.remoteAddress, remotePort: transport.remotePort, encrypted: transport.encrypted });

    // The server preface (§3.4): our SETTINGS, then the connection window beyond the RFC's 64 KiB.
    this.writer.frame(FrameType.SETTINGS, 0, 0, settingsPayload(ourSettings(options)));
    this.settingsOutstanding = 1;
    this.settingsSentAt = this.createdAt;
    if (options.connectionWindowSize > INITIAL_CONNECTION_WINDOW) {
      this.recv.windowUpdate(0, options.connectionWindowSize - INITIAL_CONNECTION_WINDOW);
    }
    this.writer.flush();
  }

  // ---- transport events ----

  onData(chunk: Uint8Array): void {
    if (this.closed || this.failed) return;
    this.lastReceived = Date.now();
    this.transport.cork();
    try {
      for (const raw of this.reader.push(chunk)) {
        this.receive(raw);
        if (this.failed) break;
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
    if (this.streams.size === 0) this.end();
    // A closing server does not wait for responses whose client is gone.
    else if (this.host.closing) this.destroy(new Error('the client ended the connection'));
  }

  onDrain(): void {
    if (this.closed) return;
    this.transport.resume();
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
    if (this.closed || this.failed) return;
    const o = this.host.options;
    // The preface and SETTINGS must come as fast as an HTTP/1.1 head would (slowloris).
    if (!this.settingsReceived) {
      if (now > this.createdAt + headTimeout(o)) this.destroy();
      return;
    }
    if (this.settingsOutstanding && now > this.settingsSentAt + this.options.settingsTimeout) {
      return this.fail(new ConnectionError('SETTINGS_TIMEOUT', 'our SETTINGS were not acknowledged in time (§6.5.3)'));
    }
    if (this.blocks.pending && now > this.blocks.startedAt + o.headersTimeout) {
      return this.fail(new ConnectionError('ENHANCE_YOUR_CALM', 'a header block did not complete in time'));
    }
    if (this.streams.size === 0) {
      if (now > this.idleSince + o.keepAliveTimeout) this.shutdown();
      return;
    }
    for (const stream of this.streams.values()) {
      if (stream.body && !stream.body.complete && now > stream.startedAt + o.requestTimeout) this.timeOut(stream);
    }
    if (this.pingSentAt) {
      if (now > this.pingSentAt + this.options.pingTimeout) this.destroy(new Error('the client did not answer a PING in time'));
    } else if (now > this.lastReceived + o.keepAliveTimeout) {
      // Streams wait on a silent client: make sure it is still there.
      this.pingSentAt = now;
      this.writer.frame(FrameType.PING, 0, 0, PING_PAYLOAD);
    }
  }

  /** Graceful: GOAWAY with the last stream taken; those finish, then the connection closes. */
  shutdown(): void {
    if (this.closed || this.failed) return;
    // Streams whose client already ended the connection are not in flight: nobody waits for them.
    if (this.peerDone && this.streams.size > 0) return this.destroy(new Error('the client ended the connection'));
    if (this.goawayLastId < 0) this.goaway('NO_ERROR');
    if (this.streams.size === 0) this.end();
  }

  destroy(error?: unknown): void {
    const reason = error instanceof Error ? error : new Error(error === undefined ? 'the connection was destroyed' : String(error));
    for (const stream of this.streams.values()) stream.cancel(reason);
    this.transport.destroy();
  }

  // ---- RecvHost (and the streams' StreamHost) ----

  get accepting(): boolean {
    return this.goawayLastId < 0;
  }

  get encrypted(): boolean {
    return this.transport.encrypted;
  }

  get maxBodyBytes(): number {
    return this.host.options.parser.maxBodyBytes!;
  }

  release(stream: Http2Stream, n: number): void {
    this.recv.release(stream, n);
  }

  sendContinue(stream: Http2Stream): void {
    if (stream.expectsContinue && stream.state.canSend) this.send.headers(stream, [[':status', '100']], false);
  }

  handle(stream: Http2Stream, request: Request): void {
    const response = this.host.respond(request, this.info);
    if (response instanceof Response) return this.respond(stream, response);
    response.then(
      (value) => this.respond(stream, value),
      (error: unknown) => this.responder.abort(stream, error),
    );
  }

  respond(stream: Http2Stream, response: Response): void {
    this.responder.respond(stream, response);
  }

  /** CVE-2019-9512/9515/9518: frames that cost work but carry no request are rate-limited. */
  controlFrame(): void {
    if (!this.controlFrames.take()) throw new ConnectionError('ENHANCE_YOUR_CALM', 'too many control frames (PING, SETTINGS, PRIORITY, empty DATA)');
  }

  /** RST_STREAM (§6.4), counted against the reset limit: a client that provokes resets is a client that resets. */
  resetStream(streamId: number, code: ErrorCodeName): void {
    const stream = this.streams.get(streamId);
    const state = stream?.state ?? this.streams.closedState(streamId);
    this.writer.frame(FrameType.RST_STREAM, 0, streamId, uint32Bytes(ErrorCode[code]));
    if (state) state.sendReset();
    else {
      const reset = new StreamStateMachine(streamId);
      reset.sendReset();
      this.streams.remember(reset);
    }
    if (stream) {
      stream.cancel(new Error(`the stream was reset (${code})`));
      this.closeStream(stream);
    }
    this.resetCounted();
  }

  closeStream(stream: Http2Stream): void {
    if (!this.streams.close(stream)) return;
    this.send.forget(stream);
    if (this.streams.size > 0) return;
    this.idleSince = Date.now();
    if (this.peerDone || this.goawayLastId >= 0) this.end();
  }

  reportError(error: unknown, request: Request | null): void {
    this.host.reportError(error, request);
  }

  // ---- frames in ----

  private receive(raw: RawFrame): void {
    this.blocks.checkNext(raw.header.type, raw.header.streamId);
    let frame: Frame;
    try {
      frame = parseFrame(raw.header, raw.payload);
      // §3.4: the client preface ends with a SETTINGS frame.
      if (!this.settingsReceived) {
        if (frame.type !== 'settings' || frame.ack) throw new ConnectionError('PROTOCOL_ERROR', 'the client preface must end with SETTINGS (§3.4)');
        this.settingsReceived = true;
      }
      this.dispatch(frame);
    } catch (error) {
      if (!(error instanceof StreamError)) throw error;
      this.resetStream(error.streamId, error.code);
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
        return this.receiveReset(frame.streamId);
      case 'settings':
        return this.receiveSettings(frame.ack, frame.settings);
      case 'ping':
        if (frame.ack) {
          this.pingSentAt = 0;
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

  private receiveReset(streamId: number): void {
    this.streams.stateOf(streamId).receiveReset();
    this.resetCounted();
    const stream = this.streams.get(streamId);
    if (!stream) return;
    stream.cancel(new Error('the client reset the stream'));
    this.closeStream(stream);
  }

  private receiveSettings(ack: boolean, list: Setting[]): void {
    if (ack) {
      // Our first SETTINGS took effect: the decoder may now hold the peer to our table size.
      if (this.settingsOutstanding > 0 && --this.settingsOutstanding === 0) this.decoder.setTableLimit(this.options.headerTableSize);
      return;
    }
    this.controlFrame();
    const tableSize = this.peer.headerTableSize;
    const { windowDelta } = applySettings(this.peer, list);
    // §6.9.2: a new initial window moves every stream's send window by the difference.
    if (windowDelta) for (const stream of this.streams.values()) stream.sendWindow.adjust(windowDelta);
    // Our encoder never uses a table larger than the RFC's default, whatever the peer allows.
    if (this.peer.headerTableSize !== tableSize) this.encoder.setTableLimit(Math.min(this.peer.headerTableSize, DEFAULT_HEADER_TABLE_SIZE));
    this.writer.frame(FrameType.SETTINGS, Flag.ACK, 0);
    if (windowDelta > 0) for (const stream of this.streams.values()) this.send.flush(stream);
  }

  private receiveWindowUpdate(streamId: number, increment: number): void {
    if (streamId === 0) return this.send.windowOpened(increment);
    this.streams.stateOf(streamId).receiveWindowUpdate();
    const stream = this.streams.get(streamId);
    if (!stream) return;
    stream.sendWindow.increase(increment);
    this.send.flush(stream);
  }

  /** CVE-2023-44487 (rapid reset): resets either side makes are rate-limited. */
  private resetCounted(): void {
    if (!this.resets.take()) throw new ConnectionError('ENHANCE_YOUR_CALM', 'too many stream resets');
  }

  // ---- streams ending ----

  /** The response is complete. */
  private endSent(stream: Http2Stream): void {
    stream.state.sendEnd();
    stream.wakeWriters();
    if (stream.state.state === 'closed') return this.closeStream(stream);
    // §8.1: a body refused for its size: with the response complete, ask the client to stop sending it.
    if (stream.bodyRefused) return this.refuseRest(stream);
    // Answered before the request ended (§8.1): the rest of it is read and dropped, so the stream
    // closes when the client ends it. (RST_STREAM NO_ERROR would be allowed, but then frames that
    // cross it could no longer be checked against the stream's state.)
    stream.body?.discard();
  }

  private refuseRest(stream: Http2Stream): void {
    try {
      this.resetStream(stream.id, 'NO_ERROR');
    } catch (error) {
      // Over the reset limit (this runs outside the frame loop too).
      this.fail(error);
    }
  }

  /** The request did not arrive within requestTimeout: 408 when nothing was sent yet, else a reset. */
  private timeOut(stream: Http2Stream): void {
    const error = new Error('the request timed out');
    stream.body?.fail(error);
    if (stream.responseStarted) return this.resetStream(stream.id, 'CANCEL');
    this.respond(stream, plainResponse(408, 'ERR_REQUEST_TIMEOUT'));
    stream.cancel(error);
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

/** Our SETTINGS: what differs from the RFC's initial values. */
function ourSettings(o: ResolvedHttp2Options): Setting[] {
  const { maxConcurrentStreams, initialWindowSize, maxFrameSize, headerTableSize, maxHeaderListSize } = o;
  // SETTINGS_ENABLE_PUSH is left unsaid: it limits what a server may send, and a server that
  // never pushes has nothing to announce (§6.5.2 lets it omit the setting).
  return settingsToSend({ enablePush: INITIAL_SETTINGS.enablePush, maxConcurrentStreams, initialWindowSize, maxFrameSize, headerTableSize, maxHeaderListSize });
}
