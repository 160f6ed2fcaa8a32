// What a Response is made of: status, fields, and its body as directly as the public API allows.
// A light response hands over its parts as they were given (string, bytes, Blob). Any other
// Response is read through its `body` stream: the runtimes keep the source a body was made from
// in private fields, and reading those broke once (a byte body went out empty after a clone of
// the response had been read), so the server never does.
import { fieldList, type HeaderList } from '../fields.js';
import { lightPartsOf } from './light-response.js';

/** A response body as directly as the public API gives it. */
export type BodySource =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  /** A stream of known length (Blob) or unknown (-1: a Content-Length the handler set is checked later). */
  | { kind: 'stream'; stream: ReadableStream<Uint8Array>; length: number };

/** A response as the writers (HTTP/1.1 and HTTP/2) need it. */
export interface ResponseParts {
  status: number;
  /** Undefined: the registered reason phrase. */
  reason: string | undefined;
  headers: Iterable<[string, string]>;
  source: BodySource;
}

const NO_BODY: BodySource = { kind: 'none' };

/**
 * A Response of this runtime, or of another Fetch implementation (the npm `undici` package's
 * fetch(), another realm's): the server reads only the public surface those share (status,
 * statusText, headers.forEach, body.getReader, bodyUsed), so it need not be of the global class.
 * `return await fetch(upstream)` with undici's own fetch answered 500, where @hono/node-server
 * sends it.
 */
export function isResponse(value: unknown): value is Response {
  if (value instanceof Response) return true;
  if (typeof value !== 'object' || value === null) return false;
  const { status, headers, body } = value as { status?: unknown; headers?: { forEach?: unknown }; body?: { getReader?: unknown } | null };
  return typeof status === 'number' && typeof headers?.forEach === 'function' && (body === null || typeof body?.getReader === 'function');
}

/** The parts of `response`. Throws if its body was already read. */
export function responseParts(response: Response): ResponseParts {
  const light = lightPartsOf(response);
  if (light) {
    const body = light.body;
    const source: BodySource =
      body === null
        ? NO_BODY
        : typeof body === 'string'
          ? { kind: 'text', text: body }
          : body instanceof Uint8Array
            ? { kind: 'bytes', bytes: body }
            : body instanceof ReadableStream
              ? { kind: 'stream', stream: body, length: -1 }
              : { kind: 'stream', stream: body.stream(), length: body.size };
    return { status: light.status, reason: light.statusText || undefined, headers: fieldList(light.headers), source };
  }
  if (response.bodyUsed) throw new TypeError('the response body was already read');
  const stream = response.body;
  let headers = fieldList(response.headers);
  if (stream && isDecodedByFetch(response)) headers = withoutCodingFields(headers);
  const source: BodySource = stream ? { kind: 'stream', stream, length: -1 } : NO_BODY;
  return { status: response.status, reason: response.statusText || undefined, headers, source };
}

/** Content codings the fetch() of every runtime served here decodes (Node's undici, Deno). */
const FETCH_DECODED = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/**
 * A response fetch() made (type 'basic' or 'cors'; `new Response()` gives 'default') whose
 * Content-Encoding fetch decoded: its body is the decoded bytes, but the upstream's
 * Content-Encoding and Content-Length stay, describing the encoded ones (undici and Deno alike).
 * Sent as they are, a handler's `return fetch(upstream)` told the client gzip and the compressed
 * length over plain bytes. fetch decodes only when it knows every coding listed.
 */
function isDecodedByFetch(response: Response): boolean {
  if (response.type !== 'basic' && response.type !== 'cors') return false;
  const coding = response.headers.get('content-encoding');
  return coding !== null && coding.split(',').every((name) => FETCH_DECODED.has(name.trim().toLowerCase()));
}

/** The fields without Content-Encoding and Content-Length (as Deno.serve sends such a response). */
function withoutCodingFields(fields: HeaderList): HeaderList {
  return fields.filter(([name]) => {
    const lower = name.toLowerCase();
    return lower !== 'content-encoding' && lower !== 'content-length';
  });
}

/** A Content-Length field the handler set, if it is a plain number (RFC 9110 §8.6: 1*DIGIT). */
export function declaredLength(headers: Iterable<[string, string]>): number | null {
  for (const [name, value] of headers) {
    if (name.length !== 14 || name.toLowerCase() !== 'content-length') continue;
    return /^\d{1,15}$/.test(value) ? Number(value) : null;
  }
  return null;
}
