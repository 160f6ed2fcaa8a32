// Writes a web `Response` as HTTP/1.1 bytes. String and byte bodies go out with the head in one
// write and no promise; streams are copied chunk by chunk, waiting for the socket to drain.
import { CHUNK_END, LAST_CHUNK, chunkHeader, lastChunk, writeResponseHead, type ResponseHeadInit } from '../http1/writer.js';
import { ResponseBody, ResponseBodyError } from './body-chunks.js';
import { declaredLength, responseParts, type ResponseParts } from './response-source.js';
import { hasTrailers, trailersOf } from './trailers.js';
import type { Transport } from './transport.js';

/** The connection as the writer sees it. */
export interface WriteTarget {
  readonly transport: Transport;
  /** Resolves when the transport can take more bytes (or closed). */
  drained(): Promise<void>;
  readonly closed: boolean;
}

export interface WriteOptions {
  /** Answering HEAD: the head says what GET would send, and no body follows. */
  headRequest: boolean;
  /** In: the client lets the connection live on. Out: false when the framing chosen needs the close. */
  keepAlive: boolean;
  /** An HTTP/1.0 client cannot take chunked framing: a body of unknown length ends at close. */
  chunkedAllowed: boolean;
}


const encoder = new TextEncoder();
// Text of printable ASCII is its own latin1 encoding; anything else goes through TextEncoder.
const NON_ASCII = /[^\t\n\r\x20-\x7e]/;
/**
 * Text longer than this is encoded natively instead of checked for ASCII: the regex scan of a
 * 10 KB body was a quarter of its response's CPU, TextEncoder runs at copy speed.
 */
const SCANNED_TEXT = 1024;

/** Statuses that never carry a body (RFC 9110 §6.4.1). */
export function bodyless(status: number): boolean {
  return status === 204 || status === 304 || status < 200;
}

function headInit(parts: ResponseParts, body: ResponseHeadInit['body'], keepAlive: boolean): ResponseHeadInit {
  return { status: parts.status, reason: parts.reason, headers: parts.headers, body, keepAlive };
}

/**
 * Writes `response`. Returns undefined when it is all written, or a promise for a stream body
 * (`options.keepAlive` is final once it settles). Throws (or rejects) HttpWriteError for a head
 * that would break framing, ResponseBodyError for a broken stream (after the head is out).
 */
export function writeResponse(target: WriteTarget, response: Response, options: WriteOptions): Promise<void> | undefined {
  const parts = responseParts(response);
  const source = parts.source;
  const transport = target.transport;
  if (bodyless(parts.status)) {
    transport.write(writeResponseHead(headInit(parts, 'none', options.keepAlive)));
    if (source.kind === 'stream') void source.stream.cancel().catch(() => undefined);
    return undefined;
  }
  switch (source.kind) {
    case 'none': {
      // HEAD: the length GET would have, when the handler says it (RFC 9110 §9.3.2).
      const length = options.headRequest ? (declaredLength(parts.headers) ?? 0) : 0;
      transport.write(writeResponseHead(headInit(parts, length, options.keepAlive)));
      return undefined;
    }
    case 'text': {
      const text = source.text;
      if (text.length <= SCANNED_TEXT && !NON_ASCII.test(text)) {
        const head = writeResponseHead(headInit(parts, text.length, options.keepAlive));
        transport.write(options.headRequest ? head : head + text);
      } else {
        writeBytes(transport, parts, encoder.encode(text), options);
      }
      return undefined;
    }
    case 'bytes':
      writeBytes(transport, parts, source.bytes, options);
      return undefined;
    case 'stream':
      return writeStream(target, response, parts, source.stream, source.length, options);
  }
}

function writeBytes(transport: Transport, parts: ResponseParts, bytes: Uint8Array, options: WriteOptions): void {
  transport.cork();
  transport.write(writeResponseHead(headInit(parts, bytes.length, options.keepAlive)));
  if (!options.headRequest && bytes.length) transport.write(bytes);
  transport.uncork();
}

async function writeStream(target: WriteTarget, response: Response, parts: ResponseParts, stream: ReadableStream<Uint8Array>, known: number, options: WriteOptions): Promise<void> {
  const transport = target.transport;
  const body = new ResponseBody(stream);
  const declared = known >= 0 ? known : declaredLength(parts.headers);
  let length = declared;
  // No length given: what the stream has ready now may be all of it, and then its length is known
  // (for HEAD too: its head says what GET's would). Trailers need chunked framing (RFC 9112 §7.1.2).
  const withTrailers = hasTrailers(response) ? response : null;
  if (length === null && !withTrailers && (await body.readAhead())) length = body.aheadBytes;
  if (target.closed) return body.cancel();
  // HEAD gets the framing GET would get (RFC 9110 §9.3.2): a head with neither length nor
  // chunking leaves a client that does not track the method waiting for the close.
  const framing = length !== null ? length : options.chunkedAllowed ? 'chunked' : 'close';
  if (framing === 'close') options.keepAlive = false;
  const head = writeResponseHead(headInit(parts, framing, options.keepAlive));
  if (options.headRequest) {
    transport.write(head);
    return body.cancel();
  }
  // All of it was ready: one write, as for a string body.
  const whole = typeof framing === 'number' ? body.takeWhole(framing) : null;
  if (whole) {
    transport.cork();
    transport.write(head);
    for (const chunk of whole) transport.write(chunk);
    transport.uncork();
    return;
  }
  transport.write(head);
  for await (const chunk of body.chunks(typeof framing === 'number' ? framing : null)) {
    if (target.closed) return;
    let ready: boolean;
    if (framing === 'chunked') {
      transport.cork();
      transport.write(chunkHeader(chunk.length));
      transport.write(chunk);
      ready = transport.write(CHUNK_END);
      transport.uncork();
    } else {
      ready = transport.write(chunk);
    }
    if (!ready) await target.drained();
  }
  if (framing !== 'chunked') return;
  if (!withTrailers) return void transport.write(LAST_CHUNK);
  try {
    transport.write(lastChunk((await trailersOf(withTrailers)) ?? []));
  } catch (error) {
    throw new ResponseBodyError('the response trailers failed', { cause: error });
  }
}
