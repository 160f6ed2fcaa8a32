// A handler's Response sent on an HTTP/2 stream (RFC 9113 §8.1): HEADERS, then DATA as the body
// comes, then trailers or END_STREAM. What to send is decided by the protocol-neutral step
// (prepare-response.ts); this only frames it.
import { responseFields, trailerList } from '../../http2/response-fields.js';
import type { ResponseBody } from '../body-chunks.js';
import { discardResponse, prepareResponse, streamLength, type PreparedResponse } from '../prepare-response.js';
import { trailersOf } from '../trailers.js';
import type { Transport } from '../connection.js';
import { STREAM_HIGH_WATER_MARK, type Send } from './send.js';
import type { Http2Stream } from './stream.js';
import type { StreamTable } from './streams.js';

const encoder = new TextEncoder();
const CONTINUE: [string, string][] = [[':status', '100']];

/** What sending a response needs from the connection. */
export interface ResponderHost {
  readonly closed: boolean;
  readonly transport: Transport;
  /** The response broke after it began: the error goes to the server's onError. */
  reportError(error: unknown, request: Request | null): void;
  /** A 500 for `error`, which is logged. */
  internalError(error: unknown): Response;
}

export class Responder {
  constructor(
    private readonly send: Send,
    private readonly streams: StreamTable,
    private readonly host: ResponderHost,
  ) {}

  /** Sends `response` on `stream`, unless a response already began there (then it is discarded). */
  respond(stream: Http2Stream, response: Response): void {
    if (this.host.closed || stream.responseStarted || !stream.state.canSend) return discardResponse(response);
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
          fields = responseFields(prepared.status, prepared.headers, null);
          break;
        case 'empty':
          fields = responseFields(prepared.status, prepared.headers, source.length);
          break;
        default:
          body = source.kind === 'text' ? encoder.encode(source.text) : source.bytes;
          fields = responseFields(prepared.status, prepared.headers, body.length);
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
    try {
      const length = await streamLength(prepared, body, known, true);
      if (!stream.state.canSend) return body.cancel();
      let fields;
      try {
        fields = responseFields(prepared.status, prepared.headers, length);
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
      this.send.headers(stream, fields, false);
      for await (const chunk of body.chunks(length)) {
        if (!stream.state.canSend) return;
        this.send.data(stream, chunk);
        if (stream.outbound.bytes > STREAM_HIGH_WATER_MARK || this.host.transport.needsDrain) await stream.writable();
      }
      if (stream.state.canSend) this.finish(stream, prepared.trailers);
    } catch (error) {
      this.abort(stream, error);
    }
  }
}
