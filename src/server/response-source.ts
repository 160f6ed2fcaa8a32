// What a Response is made of: status, fields, and what its body was made from. A LightResponse
// hands over its parts as they were given. For a real one: reading a string body through
// `res.body` costs a stream, a reader and a promise per chunk, but the runtimes keep the original
// source next to the stream, so a string or byte body is written as it is. The source is feature-detected once: undici (Node) keeps it under
// Symbol(state), Deno under Symbol(response) (made when the headers are first read). When neither
// is there, the public API is used.

import { lightPartsOf } from './light-response.js';

interface InnerBody {
  source: unknown;
  length: number | null;
}

export type BodySource =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  /** A stream of known length (Blob, FormData, ...) or unknown (-1). */
  | { kind: 'stream'; stream: ReadableStream<Uint8Array>; length: number };

/** A response as the writer needs it. */
export interface ResponseParts {
  status: number;
  /** Undefined: the registered reason phrase. */
  reason: string | undefined;
  headers: Iterable<[string, string]>;
  source: BodySource;
}

const NO_BODY: BodySource = { kind: 'none' };

/** The parts of `response`. Throws if its body was already read. */
export function responseParts(response: Response): ResponseParts {
  const light = lightPartsOf(response);
  if (light) {
    const body = light.body;
    const source: BodySource = body === null ? NO_BODY : typeof body === 'string' ? { kind: 'text', text: body } : { kind: 'bytes', bytes: body };
    return { status: light.status, reason: undefined, headers: light.headers, source };
  }
  const source = bodySource(response);
  return { status: response.status, reason: response.statusText || undefined, headers: response.headers, source };
}

const innerKey: symbol | undefined = (() => {
  const probe = new Response('probe');
  void probe.headers;
  for (const key of Object.getOwnPropertySymbols(probe)) {
    const state = (probe as unknown as Record<symbol, { body?: Partial<InnerBody> } | undefined>)[key];
    if (state && typeof state === 'object' && state.body && state.body.source === 'probe') return key;
  }
  return undefined;
})();

function innerBody(response: Response): InnerBody | null {
  if (innerKey === undefined) return null;
  const state = (response as unknown as Record<symbol, { body?: InnerBody | null } | undefined>)[innerKey];
  return state?.body ?? null;
}

/** The body of `response`, as directly as the runtime allows. Throws if it was already read. */
function bodySource(response: Response): BodySource {
  void response.headers; // Deno sets up the inner body on first access
  if (response.bodyUsed) throw new TypeError('the response body was already read');
  const inner = innerBody(response);
  if (inner) {
    const source = inner.source;
    if (typeof source === 'string') return { kind: 'text', text: source };
    if (source instanceof Uint8Array) return { kind: 'bytes', bytes: source };
    if (source instanceof ArrayBuffer) return { kind: 'bytes', bytes: new Uint8Array(source) };
  }
  const stream = response.body;
  if (!stream) return NO_BODY;
  const length = inner?.length ?? declaredLength(response);
  return { kind: 'stream', stream, length: length ?? -1 };
}

/** A Content-Length the handler set on a stream body, trusted only if it is a plain number. */
function declaredLength(response: Response): number | null {
  const value = response.headers.get('content-length');
  if (value === null || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
