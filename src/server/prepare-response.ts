// The protocol-neutral response step: what of a handler's Response goes on the wire. Both
// protocols ask it which body to send, what length the head declares, and whether the body is
// dropped (HEAD, and statuses that never carry one); each then frames the answer its own way.
// The next protocol (WebSocket's handshake answer) plugs in here too.
import { ResponseBody } from './body-chunks.js';
import { declaredLength, responseParts, type ResponseParts } from './response-source.js';
import { hasTrailers } from './trailers.js';

/** The body a response sends, as the writers take it. */
export type PreparedBody =
  /** A status without content (RFC 9110 §6.4.1): no body and no length field. */
  | { kind: 'omitted' }
  /**
   * No body bytes; the head declares `length`: 0, or under HEAD the length GET would have, or
   * nothing (null) under HEAD when that length is not known.
   */
  | { kind: 'empty'; length: number | null }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  /** A stream read for writing; `known` is its length when given (a Blob), else -1. */
  | { kind: 'stream'; body: ResponseBody; known: number };

/** A Response as both protocols' writers take it. */
export interface PreparedResponse {
  readonly status: number;
  /** Undefined: the registered reason phrase. */
  readonly reason: string | undefined;
  readonly headers: Iterable<[string, string]>;
  readonly body: PreparedBody;
  /**
   * HEAD (RFC 9110 §9.3.2): the head says what GET's would (its length, when known), and no body
   * bytes follow. The writers drop them; a stream body is cancelled once its length is settled.
   */
  readonly headOnly: boolean;
  /** The response carries trailers (see trailers.ts): its body needs framing that can hold them. */
  readonly trailers: Response | null;
}

/** Statuses that never carry a body (RFC 9110 §6.4.1). */
export function bodyless(status: number): boolean {
  return status === 204 || status === 304 || status < 200;
}

/** What of `response` to send, answering a request whose method is HEAD when `headRequest`. Throws if its body was already read. */
export function prepareResponse(response: Response, headRequest: boolean): PreparedResponse {
  const parts: ResponseParts = responseParts(response);
  const { status, reason, headers, source } = parts;
  const trailers = hasTrailers(response) ? response : null;
  let body: PreparedBody;
  if (bodyless(status)) {
    if (source.kind === 'stream') discardStream(source.stream);
    body = OMITTED;
  } else if (source.kind === 'none') {
    // RFC 9110 §8.6: a HEAD response's Content-Length MUST be the length GET would send. The
    // handler's own says so; a body-less response does not (hono answers HEAD with the GET
    // response's fields and no body), so then none is sent: 0 would be a wrong length.
    body = { kind: 'empty', length: headRequest ? declaredLength(headers) : 0 };
  } else if (source.kind === 'stream') {
    body = { kind: 'stream', body: new ResponseBody(source.stream), known: source.length };
  } else {
    body = source;
  }
  return { status, reason, headers, body, headOnly: headRequest, trailers };
}

const OMITTED: PreparedBody = { kind: 'omitted' };

/**
 * The length of a stream body: given, declared by the handler, or (`readAhead`) all of it ready at
 * once, then it is known. Null: unknown, the body streams.
 */
export async function streamLength(
  prepared: PreparedResponse,
  body: ResponseBody,
  known: number,
  readAhead: boolean,
): Promise<number | null> {
  const length = known >= 0 ? known : declaredLength(prepared.headers);
  if (length === null && readAhead && (await body.readAhead())) return body.aheadBytes;
  return length;
}

/** A response that will not be sent: its body stream is released. */
export function discardResponse(response: Response): void {
  if (response.body) discardStream(response.body);
}

function discardStream(stream: ReadableStream<Uint8Array>): void {
  void stream.cancel().catch(() => undefined);
}
