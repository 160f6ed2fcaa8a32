// One HTTP/2 server connection (RFC 9113): frames in through the reader, header blocks through the
// wasm HPACK decoder, each request to the same handler as HTTP/1.1, responses out as HEADERS and
// flow-controlled DATA. Runtime-agnostic like the HTTP/1.1 connection: the adapter hands in a
// Transport and forwards its events. Every error names the RFC section that makes it one.
import { HttpParseError } from '../../http1/errors.js';
import type { HeaderList } from '../../http1/head.js';
import { HpackDecoder, HpackEncoder } from '../../hpack/index.js';
import { HpackError } from '../../hpack/errors.js';
import { internalError } from '../internal-error.js';
import { plainResponse } from '../plain-response.js';
import type { ConnectionHost } from '../connection-host.js';
import type { ConnectionInfo } from '../options.js';
import { IncomingRequest, asRequest, isValidHost } from '../request.js';
import { declaredLength, responseParts, type ResponseParts } from '../response-source.js';
import { ResponseBody } from '../body-chunks.js';
import { bodyless } from '../response-writer.js';
import { hasTrailers, trailersOf } from '../trailers.js';
import type { ServerConnection, Transport } from '../transport.js';
import { ConnectionError, ErrorCode, StreamError, type ErrorCodeName } from '../../http2/errors.js';
import { ReceiveWindow, SendWindow } from '../../http2/flow-control.js';
import { EMPTY, Flag, FrameType, uint32Bytes } from '../../http2/frame/header.js';
import { parseFrame, type Frame } from '../../http2/frame/parse.js';
import { FrameReader, type RawFrame } from '../../http2/frame/reader.js';
import { headerBlockPieces } from '../../http2/frame/headers.js';
import { goawayPayload } from '../../http2/frame/goaway.js';
import { settingsPayload, type Setting } from '../../http2/frame/settings.js';
import { FrameWriter } from './frame-writer.js';
import type { ResolvedHttp2Options } from '../../http2/options.js';
import { RateLimit } from '../../http2/rate-limit.js';
import { requestFields, trailerFields, type FieldList } from '../../http2/request-fields.js';
import { responseFields, trailerList } from '../../http2/response-fields.js';
import { applySettings, INITIAL_SETTINGS, settingsToSend, type Settings } from '../../http2/settings.js';
import { StreamStateMachine } from '../../http2/stream-state.js';
import { Http2Stream, STREAM_HIGH_WATER_MARK, type StreamHost } from './stream.js';

/** Closed streams remembered so late frames on them get the answer §5.1 asks for. */
const CLOSED_STREAMS_KEPT = 256;
/** A header block may span at most this many CONTINUATION frames (CVE-2024-27316). */
const MAX_CONTINUATIONS = 64;
/** The most control frames queued before the client must have read some (nghttp2's limit). */
const CONTROL_BURST = 1000;
/** The RFC's initial connection window (§6.9.2): ours grows past it with a WINDOW_UPDATE. */
const INITIAL_CONNECTION_WINDOW = 65_535;
const encoder = new TextEncoder();

interface HeaderBlock {
  streamId: number;
  endStream: boolean;
  parts: Uint8Array[];
  bytes: number;
  frames: number;
  startedAt: number;
}

export class Http2Connection implements ServerConnection, StreamHost {
  closed = false;
  private readonly options: ResolvedHttp2Options;
  private readonly reader: FrameReader;
  private readonly writer: FrameWriter;
  private readonly decoder: HpackDecoder;
  private readonly encoder: HpackEncoder;
  private readonly peer: Settings = { ...INITIAL_SETTINGS };
  private readonly streams = new Map<number, Http2Stream>();
  private readonly closedStreams = new Map<number, StreamStateMachine>();
  private lastStreamId = 0;
  private readonly sendWindow = new SendWindow(0, INITIAL_CONNECTION_WINDOW);
  private readonly receiveWindow: ReceiveWindow;
  /** Streams with DATA waiting for the connection window, oldest first. */
  private readonly blocked = new Set<Http2Stream>();
  private block: HeaderBlock | null = null;
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
    options: ResolvedHttp2Options,
  ) {
    this.options = options;
    this.reader = new FrameReader(options.maxFrameSize);
    this.writer = new FrameWriter(transport);
    // Until the client acknowledges our SETTINGS it may use the RFC's 4096-byte table (§6.5.3).
    this.decoder = new HpackDecoder({ maxTableSize: Math.max(4096, options.headerTableSize), maxHeaderListSize: options.maxHeaderListSize, maxFields: 0xffff });
    this.encoder = new HpackEncoder();
    this.receiveWindow = new ReceiveWindow(0, options.connectionWindowSize);
    this.resets = new RateLimit(options.maxResetsPerSecond, options.resetBurst);
    this.controlFrames = new RateLimit(options.maxControlFramesPerSecond, CONTROL_BURST);
    this.info = Object.freeze({ remoteAddress: transport.remoteAddress, remotePort: transport.remotePort, encrypted: transport.encrypted });

    // The server preface (§3.4): our SETTINGS, then the connection window beyond the RFC's 64 KiB.
    this.writer.frame(FrameType.SETTINGS, 0, 0, settingsPayload(ourSettings(options)));
    this.settingsOutstanding = 1;
    this.settingsSentAt = this.createdAt;
    if (options.connectionWindowSize > INITIAL_CONNECTION_WINDOW) {
      this.windowUpdate(0, options.connectionWindowSize - INITIAL_CONNECTION_WINDOW);
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
      if (stream.pendingBytes < STREAM_HIGH_WATER_MARK) stream.wakeWriters();
    }
  }

  onClose(): void {
    if (this.closed) return;
    this.closed = true;
    const gone = new Error('the connection closed before the response was sent');
    for (const stream of this.streams.values()) stream.cancel(gone);
    this.streams.clear();
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
      if (now > this.createdAt + Math.min(o.headersTimeout, o.requestTimeout)) this.destroy();
      return;
    }
    if (this.settingsOutstanding && now > this.settingsSentAt + this.options.settingsTimeout) {
      return this.fail(new ConnectionError('SETTINGS_TIMEOUT', 'our SETTINGS were not acknowledged in time (§6.5.3)'));
    }
    if (this.block && now > this.block.startedAt + o.headersTimeout) {
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
      this.writer.frame(FrameType.PING, 0, 0, new Uint8Array(8));
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

  // ---- StreamHost ----

  release(stream: Http2Stream, n: number): void {
    this.releaseConnection(n);
    const state = stream.state.state;
    if (state !== 'open' && state !== 'half-closed (local)') return;
    const increment = stream.receiveWindow.release(n);
    if (increment) this.windowUpdate(stream.id, increment);
  }

  sendContinue(stream: Http2Stream): void {
    if (stream.expectsContinue && stream.state.canSend) this.writeHeaders(stream, [[':status', '100']], false);
  }

  // ---- frames in ----

  private receive(raw: RawFrame): void {
    // §6.10: a header block is contiguous; any other frame in between is a connection error.
    if (this.block && (raw.header.type !== FrameType.CONTINUATION || raw.header.streamId !== this.block.streamId)) {
      throw new ConnectionError('PROTOCOL_ERROR', 'a header block was interrupted by another frame (§6.10)');
    }
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
        return this.receiveData(frame.streamId, frame.data, frame.endStream, frame.flowLength);
      case 'headers':
        if (frame.endHeaders) return this.headerBlock(frame.streamId, frame.endStream, frame.fragment);
        this.block = { streamId: frame.streamId, endStream: frame.endStream, parts: [frame.fragment.slice()], bytes: frame.fragment.length, frames: 1, startedAt: Date.now() };
        return this.checkBlockSize(this.block);
      case 'continuation':
        return this.receiveContinuation(frame.streamId, frame.fragment, frame.endHeaders);
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

  private receiveContinuation(streamId: number, fragment: Uint8Array, endHeaders: boolean): void {
    const block = this.block;
    // §6.10: CONTINUATION only follows HEADERS (or CONTINUATION) without END_HEADERS.
    if (!block) throw new ConnectionError('PROTOCOL_ERROR', `CONTINUATION on stream ${streamId} without a header block (§6.10)`);
    block.parts.push(fragment.slice());
    block.bytes += fragment.length;
    block.frames++;
    if (fragment.length === 0 && !endHeaders) this.controlFrame();
    this.checkBlockSize(block);
    if (!endHeaders) return;
    this.block = null;
    const joined = new Uint8Array(block.bytes);
    let at = 0;
    for (const part of block.parts) {
      joined.set(part, at);
      at += part.length;
    }
    this.headerBlock(block.streamId, block.endStream, joined);
  }

  /** CVE-2024-27316: a header block is bounded in bytes and in frames before it is decoded. */
  private checkBlockSize(block: HeaderBlock): void {
    if (block.bytes > this.options.maxHeaderListSize) {
      throw new ConnectionError('ENHANCE_YOUR_CALM', `a header block over ${this.options.maxHeaderListSize} bytes`);
    }
    if (block.frames > MAX_CONTINUATIONS) throw new ConnectionError('ENHANCE_YOUR_CALM', `a header block in over ${MAX_CONTINUATIONS} frames`);
  }

  private headerBlock(streamId: number, endStream: boolean, block: Uint8Array): void {
    // The block is decoded whatever happens to the stream: the HPACK table must stay in step (§4.3).
    const fields = this.decode(block);
    const existing = this.streams.get(streamId);
    if (existing) return this.receiveTrailers(existing, endStream, fields);
    // §5.1.1: client streams are odd, and each new one is above every stream before it.
    if (streamId % 2 === 0) throw new ConnectionError('PROTOCOL_ERROR', `HEADERS on even stream ${streamId} (§5.1.1)`);
    if (streamId <= this.lastStreamId) {
      const closed = this.closedStreams.get(streamId);
      if (!closed) throw new ConnectionError('PROTOCOL_ERROR', `stream ${streamId} is not above stream ${this.lastStreamId} (§5.1.1)`);
      closed.receiveHeaders(endStream);
      return;
    }
    this.lastStreamId = streamId;
    // §6.8: after GOAWAY, new streams are ignored.
    if (this.goawayLastId >= 0) return;
    const stream = new Http2Stream(streamId, this, this.peer.initialWindowSize, this.options.initialWindowSize);
    stream.state.receiveHeaders(endStream);
    // §5.1.2: over SETTINGS_MAX_CONCURRENT_STREAMS is refused (the client may retry it).
    if (this.streams.size >= this.options.maxConcurrentStreams) {
      this.remember(stream.state);
      throw new StreamError(streamId, 'REFUSED_STREAM', `over ${this.options.maxConcurrentStreams} concurrent streams (§5.1.2)`);
    }
    this.streams.set(streamId, stream);
    this.startRequest(stream, endStream, fields);
  }

  private decode(block: Uint8Array): HeaderList {
    try {
      return this.decoder.decode(block);
    } catch (error) {
      if (!(error instanceof HpackError)) throw error;
      // An HPACK bomb (a small block that decodes to a huge list) is cut as soon as it passes the limit.
      if (error.code === 'ERR_HPACK_HEADER_LIST_TOO_LARGE' || error.code === 'ERR_HPACK_TOO_MANY_FIELDS') {
        throw new ConnectionError('ENHANCE_YOUR_CALM', `a header list over ${this.options.maxHeaderListSize} bytes (§10.5.1)`);
      }
      // §4.3: a block that cannot be decoded is a connection error COMPRESSION_ERROR.
      throw new ConnectionError('COMPRESSION_ERROR', `HPACK: ${error.message}`);
    }
  }

  private startRequest(stream: Http2Stream, endStream: boolean, list: FieldList): void {
    const fields = requestFields(stream.id, list);
    const authority = fields.authority ?? 'localhost';
    if (!isValidHost(authority)) throw new StreamError(stream.id, 'PROTOCOL_ERROR', 'malformed request: :authority');
    // §8.1.1: a Content-Length that the DATA frames cannot match makes the request malformed.
    if (endStream && fields.contentLength) throw new StreamError(stream.id, 'PROTOCOL_ERROR', 'malformed request: content-length without DATA');
    stream.contentLength = fields.contentLength;
    stream.headRequest = fields.method === 'HEAD';
    if (!endStream) {
      stream.expectsContinue = fields.headers.some(([name, value]) => name === 'expect' && value.toLowerCase() === '100-continue');
      stream.openBody();
    }
    // A declared length over the limit is refused before the handler runs or a byte is read.
    if (fields.contentLength !== null && fields.contentLength > this.maxBodyBytes) return this.bodyTooLarge(stream);
    if (fields.method === 'CONNECT') {
      // A tunnel needs a raw byte stream, which the fetch contract has no room for.
      return this.sendResponse(stream, plainResponse(501, 'ERR_CONNECT_UNSUPPORTED'));
    }
    const scheme = fields.scheme === 'http' || fields.scheme === 'https' ? fields.scheme : this.transport.encrypted ? 'https' : 'http';
    const request = new IncomingRequest(
      { method: fields.method, url: fields.path, headers: fields.headers },
      { scheme, host: authority, body: stream.body, signal: () => stream.signal() },
    );
    stream.request = asRequest(request);
    const response = this.host.respond(stream.request, this.info);
    if (response instanceof Response) return this.sendResponse(stream, response);
    response.then(
      (value) => this.sendResponse(stream, value),
      (error: unknown) => this.abortStream(stream, error),
    );
  }

  private receiveTrailers(stream: Http2Stream, endStream: boolean, list: FieldList): void {
    // §8.1: trailers end the stream; anything else is a malformed HEADERS.
    if (stream.state.receiveHeaders(endStream) !== 'trailers') return;
    const trailers = trailerFields(stream.id, list);
    stream.body?.setTrailers(trailers);
    this.endOfRequest(stream);
  }

  private receiveData(streamId: number, data: Uint8Array, endStream: boolean, flowLength: number): void {
    // §6.9.1: every DATA counts against the connection window, whatever its stream's state.
    this.receiveWindow.receive(flowLength);
    const stream = this.streams.get(streamId);
    if (!stream) {
      this.releaseConnection(flowLength);
      return void this.stateOf(streamId).receiveData(endStream);
    }
    try {
      stream.state.receiveData(endStream);
      stream.receiveWindow.receive(flowLength);
    } catch (error) {
      this.releaseConnection(flowLength);
      throw error;
    }
    // Padding is flow-controlled but never reaches the handler: give it back now.
    const padding = flowLength - data.length;
    if (padding) this.release(stream, padding);
    if (data.length === 0 && !endStream) this.controlFrame();
    stream.received += data.length;
    // §8.1.1: more DATA than Content-Length is malformed.
    if (stream.contentLength !== null && stream.received > stream.contentLength) {
      throw new StreamError(streamId, 'PROTOCOL_ERROR', `malformed request: more than its content-length of ${stream.contentLength}`);
    }
    if (stream.received > this.maxBodyBytes && !stream.bodyRefused) this.bodyTooLarge(stream);
    if (data.length) {
      if (stream.body && !stream.bodyRefused) stream.receiveBody(data.slice());
      else this.release(stream, data.length);
    }
    if (endStream && this.streams.has(streamId)) this.endOfRequest(stream);
  }

  private get maxBodyBytes(): number {
    return this.host.options.parser.maxBodyBytes!;
  }

  /**
   * The body is over maxBodyBytes: the handler's read rejects, and the client gets 413 if nothing
   * of the response went out yet, else RST_STREAM CANCEL. What more comes of the body is dropped
   * (its window given back), never held.
   */
  private bodyTooLarge(stream: Http2Stream): void {
    stream.bodyRefused = true;
    const error = new HttpParseError('ERR_BODY_TOO_LARGE', `the request body is over ${this.maxBodyBytes} bytes`);
    stream.body?.fail(error);
    stream.body?.discard();
    if (stream.responseStarted) return this.resetStream(stream.id, 'CANCEL');
    this.sendResponse(stream, plainResponse(413, error.code));
  }

  private endOfRequest(stream: Http2Stream): void {
    // §8.1.1: fewer DATA bytes than Content-Length is malformed too.
    if (stream.contentLength !== null && stream.received !== stream.contentLength) {
      throw new StreamError(stream.id, 'PROTOCOL_ERROR', `malformed request: ${stream.received} bytes of a content-length of ${stream.contentLength}`);
    }
    stream.body?.end();
    if (stream.state.state === 'closed') this.closeStream(stream);
  }

  private receiveReset(streamId: number): void {
    this.stateOf(streamId).receiveReset();
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
    if (this.peer.headerTableSize !== tableSize) this.encoder.setTableLimit(Math.min(this.peer.headerTableSize, 4096));
    this.writer.frame(FrameType.SETTINGS, Flag.ACK, 0);
    if (windowDelta > 0) for (const stream of this.streams.values()) this.flushStream(stream);
  }

  private receiveWindowUpdate(streamId: number, increment: number): void {
    if (streamId === 0) {
      this.sendWindow.increase(increment);
      for (const stream of this.blocked) {
        this.flushStream(stream);
        if (this.sendWindow.available === 0) break;
      }
      return;
    }
    this.stateOf(streamId).receiveWindowUpdate();
    const stream = this.streams.get(streamId);
    if (!stream) return;
    stream.sendWindow.increase(increment);
    this.flushStream(stream);
  }

  /** The state of a stream that is not open: remembered, implicitly closed (§5.1.1), or idle. */
  private stateOf(streamId: number): StreamStateMachine {
    const known = this.streams.get(streamId)?.state ?? this.closedStreams.get(streamId);
    if (known) return known;
    const state = new StreamStateMachine(streamId);
    if (streamId <= this.lastStreamId && streamId % 2 === 1) {
      state.receiveHeaders(true);
      state.sendEnd();
    }
    return state;
  }

  /** CVE-2019-9512/9515/9518: frames that cost work but carry no request are rate-limited. */
  private controlFrame(): void {
    if (!this.controlFrames.take()) throw new ConnectionError('ENHANCE_YOUR_CALM', 'too many control frames (PING, SETTINGS, PRIORITY, empty DATA)');
  }

  /** CVE-2023-44487 (rapid reset): resets either side makes are rate-limited. */
  private resetCounted(): void {
    if (!this.resets.take()) throw new ConnectionError('ENHANCE_YOUR_CALM', 'too many stream resets');
  }

  // ---- frames out ----

  private sendResponse(stream: Http2Stream, response: Response): void {
    if (this.closed || stream.responseStarted || !stream.state.canSend) {
      void response.body?.cancel().catch(() => undefined);
      return;
    }
    stream.responseStarted = true;
    let parts: ResponseParts;
    let fields: HeaderList;
    let body: Uint8Array | null = null;
    const trailers = hasTrailers(response);
    try {
      parts = responseParts(response);
      const source = parts.source;
      const noBody = bodyless(parts.status);
      if (source.kind === 'stream') {
        if (!noBody) return void this.sendStream(stream, response, parts, source.stream, source.length, trailers);
        void source.stream.cancel().catch(() => undefined);
        fields = responseFields(parts.status, parts.headers, null);
      } else {
        if (source.kind === 'text') body = encoder.encode(source.text);
        else if (source.kind === 'bytes') body = source.bytes;
        // HEAD: the length GET would have, when the handler says it (RFC 9110 §9.3.2).
        const length = body ? body.length : stream.headRequest ? (declaredLength(parts.headers) ?? 0) : 0;
        fields = responseFields(parts.status, parts.headers, noBody ? null : length);
        if (noBody || stream.headRequest) body = null;
      }
    } catch (error) {
      // The head was refused before a byte went out (e.g. a header with CR LF in it).
      stream.responseStarted = false;
      return this.sendResponse(stream, internalError(error));
    }
    const endNow = !trailers && (body === null || body.length === 0);
    this.writeHeaders(stream, fields, endNow);
    if (endNow) return this.endSent(stream);
    if (trailers) {
      if (body?.length) this.queueData(stream, body);
      return this.finish(stream, response, true);
    }
    // END_STREAM rides on the last DATA frame.
    stream.endQueued = true;
    this.queueData(stream, body!);
  }

  /** Queues the end of the response: trailers when the handler gave some, else END_STREAM. */
  private finish(stream: Http2Stream, response: Response, trailers: boolean): void {
    if (!trailers) return this.queueEnd(stream, null);
    trailersOf(response).then(
      (list) => this.queueEnd(stream, list && list.length ? trailerList(list) : null),
      (error: unknown) => this.abortStream(stream, error),
    );
  }

  /** A stream body: its length when known (given, declared, or all of it ready at once), then DATA as it comes. */
  private async sendStream(stream: Http2Stream, response: Response, parts: ResponseParts, source: ReadableStream<Uint8Array>, known: number, trailers: boolean): Promise<void> {
    const body = new ResponseBody(source);
    try {
      let length = known >= 0 ? known : declaredLength(parts.headers);
      if (length === null && (await body.readAhead())) length = body.aheadBytes;
      if (!stream.state.canSend) return body.cancel();
      let fields: HeaderList;
      try {
        fields = responseFields(parts.status, parts.headers, length);
      } catch (error) {
        body.cancel();
        stream.responseStarted = false;
        return this.sendResponse(stream, internalError(error));
      }
      if (stream.headRequest) {
        // HEAD: the fields GET would get (its length, when known), and no body.
        body.cancel();
        this.writeHeaders(stream, fields, true);
        return this.endSent(stream);
      }
      this.writeHeaders(stream, fields, false);
      for await (const chunk of body.chunks(length)) {
        if (!stream.state.canSend) return;
        this.queueData(stream, chunk);
        if (stream.pendingBytes > STREAM_HIGH_WATER_MARK || this.transport.needsDrain) await stream.writable();
      }
      if (stream.state.canSend) this.finish(stream, response, trailers);
    } catch (error) {
      this.abortStream(stream, error);
    }
  }

  private queueData(stream: Http2Stream, bytes: Uint8Array): void {
    stream.pending.push(bytes);
    stream.pendingBytes += bytes.length;
    this.flushStream(stream);
  }

  private queueEnd(stream: Http2Stream, trailers: HeaderList | null): void {
    stream.endQueued = true;
    stream.trailers = trailers;
    this.flushStream(stream);
  }

  /** Sends what the windows allow of a stream's pending DATA, then its end when it is due. */
  private flushStream(stream: Http2Stream): void {
    if (!stream.state.canSend) return;
    const maxFrame = this.peer.maxFrameSize;
    const pending = stream.pending;
    while (pending.length) {
      const chunk = pending[0];
      const n = Math.min(chunk.length, maxFrame, this.sendWindow.available, stream.sendWindow.available);
      if (n === 0) {
        if (this.sendWindow.available === 0) this.blocked.add(stream);
        return;
      }
      if (n === chunk.length) pending.shift();
      else pending[0] = chunk.subarray(n);
      stream.pendingBytes -= n;
      this.sendWindow.consume(n);
      stream.sendWindow.consume(n);
      const last = pending.length === 0 && stream.endQueued && !stream.trailers;
      this.writer.frame(FrameType.DATA, last ? Flag.END_STREAM : 0, stream.id, n === chunk.length ? chunk : chunk.subarray(0, n));
      if (last) return this.endSent(stream);
    }
    this.blocked.delete(stream);
    if (stream.endQueued) {
      if (stream.trailers) this.writeHeaders(stream, stream.trailers, true);
      else this.writer.frame(FrameType.DATA, Flag.END_STREAM, stream.id, EMPTY);
      return this.endSent(stream);
    }
    if (stream.pendingBytes < STREAM_HIGH_WATER_MARK && !this.transport.needsDrain) stream.wakeWriters();
  }

  /** A header block as HEADERS and, past the peer's frame size, CONTINUATION frames (§4.3). */
  private writeHeaders(stream: Http2Stream, fields: HeaderList, endStream: boolean): void {
    const block = this.encoder.encode(fields);
    for (const { type, flags, fragment } of headerBlockPieces(block, endStream, this.peer.maxFrameSize)) this.writer.frame(type, flags, stream.id, fragment);
  }

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

  /** RST_STREAM (§6.4), counted against the reset limit: a client that provokes resets is a client that resets. */
  private resetStream(streamId: number, code: ErrorCodeName): void {
    const stream = this.streams.get(streamId);
    const state = stream?.state ?? this.closedStreams.get(streamId);
    this.writer.frame(FrameType.RST_STREAM, 0, streamId, uint32Bytes(ErrorCode[code]));
    if (state) state.sendReset();
    else {
      const reset = new StreamStateMachine(streamId);
      reset.sendReset();
      this.remember(reset);
    }
    if (stream) {
      stream.cancel(new Error(`the stream was reset (${code})`));
      this.closeStream(stream);
    }
    this.resetCounted();
  }

  /** The handler or its body failed after the response began: the stream cannot finish. */
  private abortStream(stream: Http2Stream, error: unknown): void {
    if (!stream.state.canSend) return;
    if (!stream.responseStarted) return this.sendResponse(stream, internalError(error));
    this.host.reportError(error, stream.request);
    this.resetStream(stream.id, 'INTERNAL_ERROR');
  }

  /** The request did not arrive within requestTimeout: 408 when nothing was sent yet, else a reset. */
  private timeOut(stream: Http2Stream): void {
    const error = new Error('the request timed out');
    stream.body?.fail(error);
    if (stream.responseStarted) return this.resetStream(stream.id, 'CANCEL');
    this.sendResponse(stream, plainResponse(408, 'ERR_REQUEST_TIMEOUT'));
    stream.cancel(error);
  }

  private closeStream(stream: Http2Stream): void {
    if (!this.streams.delete(stream.id)) return;
    this.blocked.delete(stream);
    this.remember(stream.state);
    if (this.streams.size > 0) return;
    this.idleSince = Date.now();
    if (this.peerDone || this.goawayLastId >= 0) this.end();
  }

  private remember(state: StreamStateMachine): void {
    this.closedStreams.set(state.id, state);
    if (this.closedStreams.size > CLOSED_STREAMS_KEPT) this.closedStreams.delete(this.closedStreams.keys().next().value!);
  }

  private windowUpdate(streamId: number, increment: number): void {
    this.writer.frame(FrameType.WINDOW_UPDATE, 0, streamId, uint32Bytes(increment));
  }

  private releaseConnection(n: number): void {
    const increment = this.receiveWindow.release(n);
    if (increment) this.windowUpdate(0, increment);
  }

  private goaway(code: ErrorCodeName, message = ''): void {
    this.goawayLastId = this.lastStreamId;
    this.writer.frame(FrameType.GOAWAY, 0, 0, goawayPayload(this.lastStreamId, ErrorCode[code], message));
  }

  /** A connection error (§5.4.1): GOAWAY with its code, then close. */
  private fail(error: unknown): void {
    if (this.failed || this.closed) return;
    this.failed = true;
    let connectionError: ConnectionError;
    if (error instanceof ConnectionError) connectionError = error;
    else {
      console.error(error);
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

/** Our SETTINGS: what differs from the RFC's initial values (a server never enables push, §6.5.2). */
function ourSettings(o: ResolvedHttp2Options): Setting[] {
  const { maxConcurrentStreams, initialWindowSize, maxFrameSize, headerTableSize, maxHeaderListSize } = o;
  return settingsToSend({ enablePush: true, maxConcurrentStreams, initialWindowSize, maxFrameSize, headerTableSize, maxHeaderListSize });
}
