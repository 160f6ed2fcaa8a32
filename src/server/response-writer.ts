// Writes a web `Response` as HTTP/1.1 bytes. String and byte bodies go out with the head in one
// write and no promise; streams are copied chunk by chunk, waiting for the socket to drain.
import { CHUNK_END, LAST_CHUNK, chunkHeader, lastChunk, writeResponseHead, type ResponseHeadInit } from '../http1/writer.js';
import { now } from './clock.js';
import { ResponseBodyError, type ResponseBody } from './body-chunks.js';
import type { Transport } from './connection.js';
import { prepareResponse, streamLength, type PreparedResponse } from './prepare-response.js';
import { trailersOf } from './trailers.js';
import { encodeOut } from '../out-bytes.js';
import { utf8Length } from '../utf8.js';

/** The connection as the writer sees it. */
export interface WriteTarget {
  readonly transport: Transport;
  /** Resolves when the transport can take more bytes (or closed). */
  drained(): Promise<void>;
  readonly closed: boolean;
}

/** How the HTTP/1.1 writer frames one response. */
export interface WriteOptions {
  /** Answering HEAD: the head says what GET would send, and no body follows. */
  headRequest: boolean;
  /** In: the client lets the connection live on. Out: false when the framing chosen needs the close. */
  keepAlive: boolean;
  /**
   * An HTTP/1.0 client: it cannot take chunked framing (a body of unknown length ends at close),
   * and a connection kept alive must be said to be.
   */
  http10: boolean;
  /** The idle timeout a kept-alive connection announces, in whole seconds. */
  keepAliveTimeout: number;
  /** Out: the stream body being written, for the connection to abandon if it closes first. */
  streamBody?: ResponseBody;
  /**
   * Out: a stream body's head went to the transport. Until then a body that fails (before its
   * first chunk, which the head waits for) can still be answered 500 instead of cut.
   */
  headWritten?: boolean;
}

// Text of printable ASCII is its own latin1 encoding; anything else is encoded to UTF-8.
const NON_ASCII = /[^\t\n\r\x20-\x7e]/;
/**
 * Text longer than this is checked for ASCII natively (its UTF-8 length) instead of by the regex,
 * which scans ~0.65 ns a char here.
 */
const SCANNED_TEXT = 256;
/**
 * Text up to this long goes out as a string: ASCII with its head as one latin1 string, other text
 * as UTF-8 where the transport writes strings natively (`writeText`: Node), with its head too.
 * Longer text, and on Deno text that is not ASCII, is encoded into the out pool and sliced for
 * sendTimeout. Encoded, a 10 KB text made a 64 KiB slab outside V8's heap every six responses,
 * and Node 26 collects sooner for such memory: the GC took 7.6% of the busy time (2.0% on Node
 * 20), and the route cost 1.13x node:http's CPU, which writes the string from C++.
 */
const STRING_TEXT = 16 * 1024;
/**
 * Bodies and stream chunks past this are written in slices of it, each once the socket has taken
 * the one before: a client must take a slice per sendTimeout (17 KB/s at the default). Slices of
 * the socket's high-water mark (64 KiB) cost a third of a 1 MiB body's throughput on loopback.
 */
const SLICE_BYTES = 1024 * 1024;

/**
 * The response head, framed by `body`. A handler's `Connection: close` makes `options.keepAlive`
 * false: a server that sends close must close after the response and take no further request
 * (RFC 9112 §9.6; it went on serving pipelined requests).
 */
function responseHead(prepared: PreparedResponse, body: ResponseHeadInit['body'], options: WriteOptions): string {
  const init: ResponseHeadInit = {
    status: prepared.status,
    reason: prepared.reason,
    headers: prepared.headers,
    body,
    keepAlive: options.keepAlive,
    keepAliveTimeout: options.keepAliveTimeout,
    http10: options.http10,
    now: now(),
  };
  const head = writeResponseHead(init);
  options.keepAlive = init.keepAlive !== false;
  return head;
}

/**
 * Writes `response`. Returns undefined when it is all written, or a promise for a stream body
 * (`options.keepAlive` is final once it settles). Throws (or rejects) HttpWriteError for a head
 * that would break framing, ResponseBodyError for a broken stream (after the head is out).
 */
export function writeResponse(target: WriteTarget, response: Response, options: WriteOptions): Promise<void> | undefined {
  const prepared = prepareResponse(response, options.headRequest);
  const transport = target.transport;
  const body = prepared.body;
  switch (body.kind) {
    case 'omitted':
      transport.write(responseHead(prepared, 'none', options));
      return undefined;
    case 'empty':
      transport.write(responseHead(prepared, body.length ?? 'none', options));
      return undefined;
    case 'text': {
      const text = body.text;
      // Short text is told ASCII by the regex; longer text by its UTF-8 length, counted natively.
      if (text.length <= SCANNED_TEXT) {
        // Not ASCII, it is encoded into the out pool, whose small bytes join the one string of a
        // pipelined batch (a string written apart makes the batch a writev).
        return NON_ASCII.test(text)
          ? writeBytes(target, prepared, encodeOut(text), options)
          : writeAsciiText(transport, prepared, text, options);
      }
      const length = text.length <= STRING_TEXT ? utf8Length(text) : -1;
      if (length === text.length) return writeAsciiText(transport, prepared, text, options);
      if (length > 0 && transport.writeText) return writeUtf8Text(transport, prepared, text, length, options);
      return writeBytes(target, prepared, encodeOut(text), options);
    }
    case 'bytes':
      return writeBytes(target, prepared, body.bytes, options);
    case 'stream':
      options.streamBody = body.body;
      return writeStream(target, prepared, body.body, body.known, options);
  }
}

/** ASCII text, its own latin1: with its head as one string. */
function writeAsciiText(transport: Transport, prepared: PreparedResponse, text: string, options: WriteOptions): undefined {
  const head = responseHead(prepared, text.length, options);
  transport.write(prepared.headOnly ? head : head + text);
  return undefined;
}

/**
 * Text that is not ASCII, `length` bytes as UTF-8, written as a string: with its head in one
 * string where the head is ASCII (as node:http joins them), else corked behind it.
 */
function writeUtf8Text(transport: Transport, prepared: PreparedResponse, text: string, length: number, options: WriteOptions): undefined {
  const head = responseHead(prepared, length, options);
  if (prepared.headOnly) transport.write(head);
  else if (utf8Length(head) === head.length) transport.writeText!(head + text);
  else {
    transport.cork();
    transport.write(head);
    transport.writeText!(text);
    transport.uncork();
  }
  return undefined;
}

/**
 * A body of bytes: with its head in one write, or past SLICE_BYTES in slices, each once the
 * socket has taken the one before (a promise then).
 */
function writeBytes(target: WriteTarget, prepared: PreparedResponse, bytes: Uint8Array, options: WriteOptions): Promise<void> | undefined {
  const transport = target.transport;
  const head = responseHead(prepared, bytes.length, options);
  transport.cork();
  transport.write(head);
  const whole = prepared.headOnly || bytes.length <= SLICE_BYTES;
  const ready = prepared.headOnly || !bytes.length || transport.write(whole ? bytes : bytes.subarray(0, SLICE_BYTES));
  transport.uncork();
  return whole ? undefined : writeSliced(target, bytes.subarray(SLICE_BYTES), ready).then(toVoid);
}

const toVoid = () => undefined;

/** The end of a chunk's data and the last chunk (no trailers), for a chunk known to be the body's last. */
const CHUNK_END_AND_LAST = CHUNK_END + LAST_CHUNK;

/**
 * One chunk of a stream body, framed as a chunk when `chunked`, and with the last chunk after it
 * when `last` (one write where a last chunk of its own cost a write call and a packet: a page
 * streamed in two bursts took three writes, where node:http takes two); resolves whether the
 * socket takes more. A chunk up to SLICE_BYTES is handed to the socket before this returns.
 */
async function writeChunk(target: WriteTarget, chunk: Uint8Array, chunked: boolean, last: boolean): Promise<boolean> {
  const transport = target.transport;
  const end = last ? CHUNK_END_AND_LAST : CHUNK_END;
  if (chunk.length > SLICE_BYTES) {
    if (chunked) transport.write(chunkHeader(chunk.length));
    const ready = await writeSliced(target, chunk, true);
    return target.closed ? false : chunked ? transport.write(end) : ready;
  }
  if (!chunked) return transport.write(chunk);
  transport.cork();
  transport.write(chunkHeader(chunk.length));
  transport.write(chunk);
  const ready = transport.write(end);
  transport.uncork();
  return ready;
}

/**
 * Hands `bytes` to the socket a slice at a time, each once it took the one before (`ready`: it
 * takes more now), and says whether it takes more after the last. Handed over whole, a large body
 * would sit in the socket's queue until the client had taken all of it: a slow link would show no
 * progress for minutes, and sendTimeout would cut a download that is going on.
 */
async function writeSliced(target: WriteTarget, bytes: Uint8Array, ready: boolean): Promise<boolean> {
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    if (!ready) await target.drained();
    if (target.closed) return false;
    ready = target.transport.write(bytes.subarray(at, at + SLICE_BYTES));
  }
  return ready;
}

async function writeStream(
  target: WriteTarget,
  prepared: PreparedResponse,
  body: ResponseBody,
  known: number,
  options: WriteOptions,
): Promise<void> {
  const transport = target.transport;
  // Trailers need chunked framing (RFC 9112 §7.1.2), so no read ahead for a length then.
  const withTrailers = prepared.trailers;
  const length = await streamLength(prepared, body, known, !withTrailers);
  if (target.closed) return body.cancel();
  // HEAD gets the framing GET would get (RFC 9110 §9.3.2): a head with neither length nor
  // chunking leaves a client that does not track the method waiting for the close.
  const framing = length !== null ? length : options.http10 ? 'close' : 'chunked';
  if (framing === 'close') options.keepAlive = false;
  const head = responseHead(prepared, framing, options);
  // Until the head goes, nothing did: a body that fails before then is answered 500 (headWritten).
  const writeHead = () => {
    options.headWritten = true;
    transport.write(head);
  };
  if (prepared.headOnly) {
    writeHead();
    return body.cancel();
  }
  // All of it was ready: one write, as for a string body (read ahead, it is at most 64 KiB).
  const whole = typeof framing === 'number' ? body.takeWhole(framing) : null;
  if (whole) {
    transport.cork();
    writeHead();
    for (const chunk of whole) transport.write(chunk);
    transport.uncork();
    return;
  }
  // The head waits a little for the first chunk, to go out in one write with it.
  const late = !(await body.arrivesSoon());
  if (target.closed) return body.cancel();
  if (late) writeHead();
  const chunked = framing === 'chunked';
  let lastChunkWritten = false;
  for await (const chunk of body.chunks(typeof framing === 'number' ? framing : null)) {
    if (target.closed) return;
    // The head goes out corked with the first chunk (a chunk sent in slices goes on its own).
    const withHead = !options.headWritten && chunk.length <= SLICE_BYTES;
    if (withHead) transport.cork();
    if (!options.headWritten) writeHead();
    // The stream ended as this chunk was read: the last chunk goes with it (trailers come later).
    lastChunkWritten = chunked && !withTrailers && body.exhausted;
    const writing = writeChunk(target, chunk, chunked, lastChunkWritten); // a chunk that fits is handed over now
    if (withHead) transport.uncork();
    const ready = await writing;
    if (target.closed) return;
    if (!ready) await target.drained();
  }
  if (!options.headWritten) writeHead(); // an empty stream
  // Abandoned: no last chunk, which would tell the client it has all of the body.
  if (!chunked || target.closed || body.abandoned || lastChunkWritten) return;
  if (!withTrailers) return void transport.write(LAST_CHUNK);
  try {
    transport.write(lastChunk((await trailersOf(withTrailers)) ?? []));
  } catch (error) {
    throw new ResponseBodyError('the response trailers failed', { cause: error });
  }
}
