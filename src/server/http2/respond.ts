// A handler's Response sent on an HTTP/2 stream (RFC 9113 §8.1): HEADERS, then DATA as the body
// comes, then trailers or END_STREAM. What to send is decided by the protocol-neutral step
// (prepare-response.ts); this only frames it.
import { NO_BODY, responseFields, trailerList } from '../../http2/response-fields.js';
import type { DeflateCodec } from '../../websocket/deflate.js';
import type { ResponseBody } from '../body-chunks.js';
import { plainResponse } from '../plain-response.js';
import { discardResponse, prepareResponse, streamLength, type PreparedResponse } from '../prepare-response.js';
import { WebSocketConnection } from '../websocket/connection.js';
import { abandonUpgrade, acceptsUpgrade, answerFields, type PendingUpgrade } from '../websocket/upgrade.js';
import { StreamTransport } from './stream-transport.js';
import { trailersOf } from '../trailers.js';
import { now } from '../clock.js';
import { encodeOut } from '../../out-bytes.js';
import type { Transport } from '../connection.js';
import type { ResolvedServeOptions } from '../options.js';
import { STREAM_HIGH_WATER_MARK, type Send } from './send.js';
import type { Http2Stream } from './stream.js';
import type { StreamTable } from './streams.js';

const CONTINUE: [string, string][] = [[':status', '100']];

/** What sending a response needs from the connection. */
export interface ResponderHost {
  readonly closed: boolean;
  readonly transport: Transport;
  /** The response broke after it began: the error goes to the server's onError. */
  reportError(error: unknown, request: Request | null): void;
  /** A 500 for `error`, which is logged. */
  internalError(error: unknown): Response;
  /** WebSocket compression from the adapter, or null. */
  readonly webSocketDeflate: DeflateCodec | null;
  /** The server's options (a WebSocket's sendTimeout). */
  readonly serveOptions: ResolvedServeOptions;
}

/** Sends handlers' Responses on HTTP/2 streams. */
export class Responder {
  constructor(
    private readonly send: Send,
    private readonly streams: StreamTable,
    private readonly host: ResponderHost,
  ) {}

  /** Sends `response` on `stream`, unless a response already began there (then it is discarded). */
  respond(stream: Http2Stream, response: Response): void {
    if (this.host.closed || stream.responseStarted || !stream.state.canSend) return discardResponse(response);
    if (stream.extendedConnect) {
      const answer = this.webSocketAnswer(stream, response);
      if (!answer) return;
      response = answer;
    }
    stream.responseStarted = true;
    let prepared: PreparedResponse;
    let body: Uint8Array | null = null;
    let fields;
    try {
      prepared = prepareResponse(response, stream.headRequest);
      const source = prepared.body;
      switch (source.kind) {
        case 'stream':
          return void this.respondStream(stream, prepared, source.body, source.known);
        case 'omitted':
          fields = responseFields(prepared.status, prepared.headers, NO_BODY, now());
          break;
        case 'empty':
          fields = responseFields(prepared.status, prepared.headers, source.length, now());
          break;
        default:
          body = source.kind === 'text' ? encodeOut(source.text) : source.bytes;
          fields = responseFields(prepared.status, prepared.headers, body.length, now());
          if (prepared.headOnly) body = null;
      }
    } catch (error) {
      // The head was refused before a byte went out (e.g. a header with CR LF in it).
      stream.responseStarted = false;
      return this.respond(stream, this.host.internalError(error));
    }
    const trailers = prepared.trailers;
    const endNow = !trailers && (body === null || body.length === 0);
    this.send.headers(stream, fields, endNow);
    if (endNow) return;
    if (trailers) {
      if (body?.length) this.send.data(stream, body);
      return this.finish(stream, trailers);
    }
    // END_STREAM rides on the last DATA frame.
    this.send.data(stream, body!, true);
  }

  /**
   * An extended CONNECT (RFC 8441 §5): the accepted WebSocket's response opens the tunnel (null:
   * done). Any other 2xx would tell the client its tunnel is open, so it becomes 400; other
   * statuses go out as they are.
   */
  private webSocketAnswer(stream: Http2Stream, response: Response): Response | null {
    const upgrade = stream.upgrade;
    stream.upgrade = null;
    if (upgrade && acceptsUpgrade(response, upgrade)) {
      this.openTunnel(stream, response, upgrade);
      return null;
    }
    if (upgrade) abandonUpgrade(upgrade);
    if (response.status < 200 || response.status > 299) return response;
    discardResponse(response);
    return plainResponse(400, 'ERR_WS_NOT_UPGRADED');
  }

  /** 200 without END_STREAM, then the stream is the WebSocket's (its DATA carries the frames). */
  private openTunnel(stream: Http2Stream, response: Response, upgrade: PendingUpgrade): void {
    const codec = this.host.webSocketDeflate;
    let fields;
    try {
      if (upgrade.deflate && !codec) throw new Error('permessage-deflate was agreed, but the adapter has no zlib');
      fields = responseFields(200, answerFields(response), null, now());
    } catch (error) {
      abandonUpgrade(upgrade);
      return this.respond(stream, this.host.internalError(error));
    }
    discardResponse(response);
    stream.responseStarted = true;
    this.send.headers(stream, fields, false);
    stream.responseSent();
    const transport = new StreamTransport(stream, this.send, this.streams, this.host.transport);
    const host = {
      reportError: (error: unknown, request: Request | null) => this.host.reportError(error, request),
      connectionClosed() {},
      options: this.host.serveOptions,
    };
    const deflate = upgrade.deflate && codec ? { codec, params: upgrade.deflate } : null;
    const connection = new WebSocketConnection(transport, host, upgrade.socket, upgrade.options, deflate);
    connection.start();
    stream.openTunnel(connection);
  }

  /** `100 Continue` (RFC 9110 §10.1.1): the handler started reading a body the client holds back. */
  sendContinue(stream: Http2Stream): void {
    if (stream.expectsContinue && stream.state.canSend) this.send.headers(stream, CONTINUE, false);
  }

  /** The handler or its body failed: 500 if nothing went out yet, else the stream is reset. */
  abort(stream: Http2Stream, error: unknown): void {
    if (!stream.state.canSend) return;
    if (!stream.responseStarted) return this.respond(stream, this.host.internalError(error));
    this.host.reportError(error, stream.request);
    this.streams.reset(stream.id, 'INTERNAL_ERROR');
  }

  /** Queues the end of the response: trailers when the handler gave some, else END_STREAM. */
  private finish(stream: Http2Stream, trailers: Response | null): void {
    if (!trailers) return this.send.end(stream, null);
    trailersOf(trailers).then(
      (list) => this.send.end(stream, list && list.length ? trailerList(list) : null),
      (error: unknown) => this.abort(stream, error),
    );
  }

  /** A stream body: its length when known (given, declared, or all of it ready at once), then DATA as it comes. */
  private async respondStream(stream: Http2Stream, prepared: PreparedResponse, body: ResponseBody, known: number): Promise<void> {
    // HEADERS wait for the first DATA: a body that fails before then is answered 500, not reset.
    let headersSent = false;
    try {
      const length = await streamLength(prepared, body, known, true);
      if (!stream.state.canSend || this.host.closed) return body.cancel();
      let fields;
      try {
        fields = responseFields(prepared.status, prepared.headers, length, now());
      } catch (error) {
        body.cancel();
        stream.responseStarted = false;
        return this.respond(stream, this.host.internalError(error));
      }
      if (prepared.headOnly) {
        // HEAD: the fields GET would get (its length, when known), and no body.
        body.cancel();
        return this.send.headers(stream, fields, true);
      }
      stream.responseBody = body;
      // HEADERS wait a little for the first DATA, to leave in the same flush.
      headersSent = !(await body.arrivesSoon());
      if (!stream.state.canSend || this.host.closed) return body.cancel();
      if (headersSent) this.send.headers(stream, fields, false);
      // END_STREAM went out on the last DATA frame (no empty frame of its own for the end).
      let endSent = false;
      for await (const chunk of body.chunks(length)) {
        if (!stream.state.canSend || this.host.closed) return;
        if (!headersSent) this.send.headers(stream, fields, false);
        headersSent = true;
        // The body ended whole with this chunk: END_STREAM goes on its DATA (trailers come later;
        // a body short of its content-length is reset, not ended).
        endSent = !prepared.trailers && body.exhausted;
        this.send.data(stream, chunk, endSent);
        if (stream.outbound.bytes > STREAM_HIGH_WATER_MARK || this.host.transport.needsDrain) await stream.writable();
      }
      if (!headersSent && stream.state.canSend && !this.host.closed) this.send.headers(stream, fields, false); // an empty stream
      stream.responseBody = null;
      if (stream.state.canSend && !this.host.closed && !body.abandoned && !endSent) this.finish(stream, prepared.trailers);
    } catch (error) {
      if (!headersSent) {
        stream.responseStarted = false;
        stream.responseBody = null;
      }
      this.abort(stream, error);
    }
  }
}
