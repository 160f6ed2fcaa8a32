// Writes a web `Response` as HTTP/1.1 bytes. String and byte bodies go out with the head in one
// write and no promise; streams are copied chunk by chunk, waiting for the socket to drain.
import { CHUNK_END, LAST_CHUNK, chunkHeader, lastChunk, writeResponseHead, type ResponseHeadInit } from '../http1/writer.js';
import { bodyChunks, ResponseBodyError } from './body-chunks.js';
import { responseParts, type ResponseParts } from './response-source.js';
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

/** Statuses that never carry a body (RFC 9110 §6.4.1). */
export function bodyless(status: number): boolean {
  return status === 204 || status === 304 || status < 200;
}

function headInit(parts: ResponseParts, body: ResponseHeadInit['body'], keepAlive: boolean): ResponseHeadInit {
  return { status: parts.status, reason: parts.reason, headers: parts.headers, body, keepAlive };
}

/**
 * Writes `response`. Returns undefined when it is all written, or a promise for a stream body.
 * Throws (or rejects) HttpWriteError for a head that would break framing, ResponseBodyError for a
 * broken stream (after the head is out).
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
    case 'none':
      transport.write(writeResponseHead(headInit(parts, 0, options.keepAlive)));
      return undefined;
    case 'text': {
      const text = source.text;
      if (!NON_ASCII.test(text)) {
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
    case 'stream': {
      // HEAD gets the framing GET would get (RFC 9110 §9.3.2): a head with neither length nor
      // chunking leaves a client that does not track the method waiting for the close.
      const framing = source.length >= 0 ? source.length : options.chunkedAllowed ? 'chunked' : 'close';
      if (framing === 'close') options.keepAlive = false;
      transport.write(writeResponseHead(headInit(parts, framing, options.keepAlive)));
      // Trailers need chunked framing: they ride the last chunk (RFC 9112 §7.1.2).
      if (!options.headRequest) return pipeBody(target, source.stream, framing, framing === 'chunked' && hasTrailers(response) ? response : null);
      void source.stream.cancel().catch(() => undefined);
      return undefined;
    }
  }
}

function writeBytes(transport: Transport, parts: ResponseParts, bytes: Uint8Array, options: WriteOptions): void {
  transport.cork();
  transport.write(writeResponseHead(headInit(parts, bytes.length, options.keepAlive)));
  if (!options.headRequest && bytes.length) transport.write(bytes);
  transport.uncork();
}

async function pipeBody(target: WriteTarget, stream: ReadableStream<Uint8Array>, framing: number | 'chunked' | 'close', withTrailers: Response | null): Promise<void> {
  const transport = target.transport;
  for await (const chunk of bodyChunks(stream, typeof framing === 'number' ? framing : null)) {
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
