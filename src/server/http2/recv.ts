// The receiving half of an HTTP/2 server connection: header blocks become requests on new streams
// (RFC 9113 §8.1, §8.3), DATA feeds their bodies within our windows (§6.9) and is checked against
// Content-Length and maxBodyBytes, trailers end them. Body bytes the handler consumed are given back.
import type { HeaderList } from '../../fields.js';
import type { HpackDecoder } from '../../hpack/decoder.js';
import { HpackError } from '../../hpack/errors.js';
import { HttpParseError } from '../../http1/errors.js';
import { ConnectionError, StreamError } from '../../http2/errors.js';
import { ReceiveWindow } from '../../http2/flow-control.js';
import { FrameType, uint32Bytes } from '../../http2/frame/header.js';
import type { HeaderBlock } from '../../http2/frame/header-block.js';
import type { ResolvedHttp2Options } from '../../http2/options.js';
import {
  addedHost,
  http1FieldCount,
  http1HeadBytes,
  http1TrailerBytes,
  requestFields,
  trailerFields,
  type RequestFields,
} from '../../http2/request-fields.js';
import { statusForParseError } from '../../http1/status.js';
import { MAX_TRAILERS } from '../../wasm/abi.js';
import { plainResponse } from '../plain-response.js';
import { IncomingRequest, asRequest, isValidHost } from '../request.js';
import type { FrameWriter } from './frame-writer.js';
import type { Responder } from './respond.js';
import { Http2Stream, type StreamHost } from './stream.js';
import type { StreamTable } from './streams.js';

/** The fields that make an extended CONNECT look like HTTP/1.1's WebSocket request to the handler. */
const WEBSOCKET_FIELDS: [string, string][] = [
  ['upgrade', 'websocket'],
  ['connection', 'upgrade'],
];

/** What receiving needs from the connection. */
export interface RecvHost {
  /** New streams are taken (no GOAWAY went out). */
  readonly accepting: boolean;
  /** Counts a frame that costs work but carries no request (throws over the limit). */
  controlFrame(): void;
  /** Runs the handler for the stream's request and sends its response. */
  handle(stream: Http2Stream, request: Request): void;
  /** More than maxQueuedBytes of responses wait for a client that takes none of them (see connection.ts). */
  readonly backlogged: boolean;
}

/** What a connection's requests are held to. */
export interface RecvLimits {
  /** TLS: requests without :scheme are https. */
  readonly encrypted: boolean;
  readonly maxBodyBytes: number;
  /** HTTP/1.1's head limits, held to the request as HTTP/1.1 would write it (431, 414). */
  readonly maxHeadBytes: number;
  readonly maxHeaders: number;
  readonly maxTargetBytes: number;
}

/** The receiving half of an HTTP/2 connection. */
export class Recv implements StreamHost {
  /** The connection's receive window. */
  readonly window: ReceiveWindow;

  constructor(
    private readonly host: RecvHost,
    private readonly streams: StreamTable,
    private readonly writer: FrameWriter,
    private readonly decoder: HpackDecoder,
    private readonly responder: Responder,
    /** The peer's initial stream window, read when a stream opens. */
    private readonly peerWindow: () => number,
    private readonly options: ResolvedHttp2Options,
    private readonly limits: RecvLimits,
  ) {
    this.window = new ReceiveWindow(0, options.connectionWindowSize);
  }

  /** A complete header block: a new request, trailers, or a late block on a closed stream. */
  headerBlock({ streamId, endStream, fragment }: HeaderBlock): void {
    // The block is decoded whatever happens to the stream: the HPACK table must stay in step (§4.3).
    const fields = this.decode(fragment);
    const existing = this.streams.get(streamId);
    if (existing) return this.trailers(existing, endStream, fields);
    // §5.1.1: client streams are odd, and each new one is above every stream before it.
    if (streamId % 2 === 0) throw new ConnectionError('PROTOCOL_ERROR', `HEADERS on even stream ${streamId} (§5.1.1)`);
    const last = this.streams.lastStreamId;
    if (streamId <= last) {
      const closed = this.streams.closedState(streamId);
      if (!closed) throw new ConnectionError('PROTOCOL_ERROR', `stream ${streamId} is not above stream ${last} (§5.1.1)`);
      closed.receiveHeaders(endStream);
      return;
    }
    this.streams.lastStreamId = streamId;
    // §6.8: after GOAWAY, new streams are ignored.
    if (!this.host.accepting) return;
    const stream = new Http2Stream(streamId, this, this.peerWindow(), this.options.initialWindowSize);
    stream.state.receiveHeaders(endStream);
    // §5.1.2: over SETTINGS_MAX_CONCURRENT_STREAMS is refused (the client may retry it).
    if (this.streams.size >= this.options.maxConcurrentStreams) {
      this.streams.remember(stream.state);
      throw new StreamError(streamId, 'REFUSED_STREAM', `over ${this.options.maxConcurrentStreams} concurrent streams (§5.1.2)`);
    }
    // A client that takes nothing would have a response held for each new stream (CVE-2019-9517):
    // none is made while the ones before wait (§8.7: refused, so the client may retry it later).
    if (this.host.backlogged) {
      this.streams.remember(stream.state);
      throw new StreamError(streamId, 'REFUSED_STREAM', `over ${this.options.maxQueuedBytes} response bytes queued for the client`);
    }
    this.streams.add(stream);
    this.request(stream, endStream, fields);
  }

  /** A DATA frame (§6.1); `flowLength` counts its padding too. */
  data(streamId: number, data: Uint8Array, endStream: boolean, flowLength: number): void {
    // §6.9.1: every DATA counts against the connection window, whatever its stream's state.
    this.window.receive(flowLength);
    const stream = this.streams.get(streamId);
    if (!stream) {
      this.releaseConnection(flowLength);
      return void this.streams.stateOf(streamId).receiveData(endStream);
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
    if (data.length === 0 && !endStream) this.host.controlFrame();
    if (stream.extendedConnect) {
      // A WebSocket's bytes (RFC 8441 §5): its own limits apply, not a body's.
      if (data.length) stream.receiveTunnel(data.slice());
      if (endStream) this.endOfRequest(stream);
      return;
    }
    stream.received += data.length;
    // §8.1.1: more DATA than Content-Length is malformed.
    if (stream.contentLength !== null && stream.received > stream.contentLength) {
      throw new StreamError(streamId, 'PROTOCOL_ERROR', `malformed request: more than its content-length of ${stream.contentLength}`);
    }
    if (stream.received > this.limits.maxBodyBytes && !stream.bodyRefused) this.bodyTooLarge(stream);
    if (data.length) {
      if (stream.body && !stream.bodyRefused) stream.receiveBody(data.slice());
      else this.release(stream, data.length);
    }
    if (endStream && this.streams.get(streamId)) this.endOfRequest(stream);
  }

  /** `n` bytes of the stream's body were consumed (or dropped): WINDOW_UPDATE when enough are due. */
  release(stream: Http2Stream, n: number): void {
    this.releaseConnection(n);
    // A refused body gets no more of the stream's window: its client sends what is in flight, then must stop.
    if (stream.bodyRefused) return;
    const state = stream.state.state;
    if (state !== 'open' && state !== 'half-closed (local)') return;
    const increment = stream.receiveWindow.release(n);
    if (increment) this.windowUpdate(stream.id, increment);
  }

  sendContinue(stream: Http2Stream): void {
    this.responder.sendContinue(stream);
  }

  windowUpdate(streamId: number, increment: number): void {
    this.writer.frame(FrameType.WINDOW_UPDATE, 0, streamId, uint32Bytes(increment));
  }

  private releaseConnection(n: number): void {
    const increment = this.window.release(n);
    if (increment) this.windowUpdate(0, increment);
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

  private request(stream: Http2Stream, endStream: boolean, list: HeaderList): void {
    const fields = requestFields(stream.id, list);
    const authority = fields.authority ?? 'localhost';
    if (!isValidHost(authority)) throw new StreamError(stream.id, 'PROTOCOL_ERROR', 'malformed request: :authority');
    // §8.1.1: a Content-Length that the DATA frames cannot match makes the request malformed.
    if (endStream && fields.contentLength)
      throw new StreamError(stream.id, 'PROTOCOL_ERROR', 'malformed request: content-length without DATA');
    stream.contentLength = fields.contentLength;
    stream.headRequest = fields.method === 'HEAD';
    // RFC 8441: an extended CONNECT for a WebSocket; any other CONNECT is a tunnel we do not offer.
    stream.extendedConnect = fields.method === 'CONNECT' && fields.protocol === 'websocket';
    if (!endStream && !stream.extendedConnect) {
      stream.expectsContinue = fields.headers.some(([name, value]) => name === 'expect' && value.toLowerCase() === '100-continue');
      stream.openBody();
    }
    // The head limits of HTTP/1.1 hold here too, so no request passes on one protocol that the
    // other refuses (HTTP/2's own maxHeaderListSize bounds what is decoded at all).
    const headError = this.headError(fields);
    if (headError) return this.refuse(stream, headError);
    // A declared length over the limit is refused before the handler runs or a byte is read.
    if (fields.contentLength !== null && fields.contentLength > this.limits.maxBodyBytes) return this.bodyTooLarge(stream);
    if (fields.method === 'CONNECT' && !stream.extendedConnect) {
      // A tunnel needs a raw byte stream, which the fetch contract has no room for.
      return this.responder.respond(stream, plainResponse(501, 'ERR_CONNECT_UNSUPPORTED'));
    }
    const scheme = fields.scheme === 'http' || fields.scheme === 'https' ? fields.scheme : this.limits.encrypted ? 'https' : 'http';
    // The handler sees a WebSocket request as HTTP/1.1 shows it (a GET with Upgrade), so the same
    // routes and checks (`app.get('/ws', ...)`, `upgrade === 'websocket'`) serve both protocols.
    const line = stream.extendedConnect
      ? { method: 'GET', url: fields.path, headers: [...fields.headers, ...WEBSOCKET_FIELDS] }
      : { method: fields.method, url: fields.path, headers: fields.headers };
    const request = new IncomingRequest(line, {
      scheme,
      host: authority,
      body: stream.body,
      signal: () => stream.signal(),
      exchange: stream.extendedConnect ? stream : undefined,
    });
    stream.request = asRequest(request);
    this.host.handle(stream, stream.request);
  }

  private trailers(stream: Http2Stream, endStream: boolean, list: HeaderList): void {
    // §8.1: trailers end the stream; anything else is a malformed HEADERS.
    if (stream.state.receiveHeaders(endStream) !== 'trailers') return;
    const trailers = trailerFields(stream.id, list);
    // HTTP/1.1's trailer limits hold here too: maxHeaders within its chunked decoder's field cap,
    // and maxHeadBytes.
    const maxTrailers = Math.min(this.limits.maxHeaders, MAX_TRAILERS);
    if (trailers.length > maxTrailers)
      return this.refuse(stream, new HttpParseError('ERR_TOO_MANY_HEADERS', `more than ${maxTrailers} trailer fields`));
    if (http1TrailerBytes(trailers) > this.limits.maxHeadBytes) {
      return this.refuse(stream, new HttpParseError('ERR_HEADER_TOO_LARGE', `the trailers are over ${this.limits.maxHeadBytes} bytes`));
    }
    stream.body?.setTrailers(trailers);
    this.endOfRequest(stream);
  }

  /**
   * The body is over maxBodyBytes: the handler's read rejects, and the client gets 413 if nothing
   * of the response went out yet, else RST_STREAM CANCEL. What more comes of the body is dropped
   * (its window given back), never held.
   */
  private bodyTooLarge(stream: Http2Stream): void {
    this.refuse(stream, new HttpParseError('ERR_BODY_TOO_LARGE', `the request body is over ${this.limits.maxBodyBytes} bytes`));
  }

  /** The request over one of HTTP/1.1's head limits, as its parser would refuse it; null within them. */
  private headError(fields: RequestFields): HttpParseError | null {
    const { maxTargetBytes, maxHeaders, maxHeadBytes } = this.limits;
    // In the order HTTP/1.1's parser meets them in a head read whole: the fields as it reads
    // them, then the target, then the head's length.
    const host = addedHost(fields);
    if (http1FieldCount(fields, host) > maxHeaders)
      return new HttpParseError('ERR_TOO_MANY_HEADERS', `more than ${maxHeaders} header fields`);
    if (fields.path.length > maxTargetBytes) return new HttpParseError('ERR_URI_TOO_LONG', `the target is over ${maxTargetBytes} bytes`);
    if (http1HeadBytes(fields, host) > maxHeadBytes)
      return new HttpParseError('ERR_HEADER_TOO_LARGE', `the head is over ${maxHeadBytes} bytes`);
    return null;
  }

  /** A refused request: its read rejects, its status goes out unless a response began (then a reset), and its body is dropped. */
  private refuse(stream: Http2Stream, error: HttpParseError): void {
    stream.bodyRefused = true;
    stream.body?.fail(error);
    stream.body?.discard();
    if (stream.responseStarted) return this.streams.reset(stream.id, 'CANCEL');
    this.responder.respond(stream, plainResponse(statusForParseError(error.code), error.code));
  }

  private endOfRequest(stream: Http2Stream): void {
    if (stream.extendedConnect) {
      // The client ended its side of the WebSocket.
      stream.endTunnel();
      if (stream.state.state === 'closed') this.streams.close(stream);
      return;
    }
    // §8.1.1: fewer DATA bytes than Content-Length is malformed too.
    if (stream.contentLength !== null && stream.received !== stream.contentLength) {
      throw new StreamError(
        stream.id,
        'PROTOCOL_ERROR',
        `malformed request: ${stream.received} bytes of a content-length of ${stream.contentLength}`,
      );
    }
    stream.body?.end();
    if (stream.state.state === 'closed') this.streams.close(stream);
  }
}
