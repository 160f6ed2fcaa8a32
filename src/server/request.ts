// The handler's `Request`, built lazily. A real `Request` costs microseconds to construct (URL
// parsing, header validation, a body stream), and most handlers read only the method, the URL
// and a header or two. So this object answers those from the parsed head and makes the real
// `Request` only when something else is asked of it. It passes `instanceof Request`.
import { joinCookieFields, type HeaderList } from '../fields.js';
import { delegateToNative, withBodyLocked, withBodyRead } from './native-delegate.js';
import { headersOf } from './light-headers.js';
import type { Exchange } from './exchange.js';
import { RequestBody } from './request-body.js';

/** Where the global Request that serve() installs keeps the runtime's own. */
export const NATIVE_REQUEST = Symbol.for('wirespeed.NativeRequest');
/** The runtime's own Request, even when this module loads after serve() replaced the global. */
export const NativeRequest: typeof Request =
  (globalThis.Request as unknown as Record<symbol, typeof Request>)[NATIVE_REQUEST] ?? globalThis.Request;

/** What the connection gives a request besides its head. */
export interface RequestContext {
  /** 'http' or 'https'. */
  readonly scheme: string;
  /** The Host field (validated by the connection). */
  readonly host: string;
  /** Null for a request without a body. */
  readonly body: RequestBody | null;
  /** Aborted when the client goes away before the response is sent. */
  signal(): AbortSignal;
  /** The exchange, where a WebSocket upgrade of this request is left (HTTP/1.1). */
  readonly exchange?: Exchange;
}

/**
 * A Host field or :authority (RFC 9110 §4.2.1, §7.2; RFC 3986 §3.2.2): a non-empty reg-name,
 * IPv4 or bracketed IPv6 literal, then an optional port up to 65535.
 */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::(\d{0,5}))?$/;
/** The last host that passed (a connection sends the same one again and again). */
let lastValidHost: string | null = null;

/** Whether `host` is a valid authority that a URL parser accepts too (so `new URL(request.url)` never throws). */
export function isValidHost(host: string): boolean {
  if (host === lastValidHost) return true;
  const match = HOST.exec(host);
  if (!match || (match[1] && Number(match[1]) > 65_535)) return false;
  try {
    new URL(`http://${host}/`);
  } catch {
    return false;
  }
  lastValidHost = host;
  return true;
}

/** The scheme and authority of an absolute-form target: the authority ends at the path, query or fragment. */
const ABSOLUTE_TARGET = /^https?:\/\/([^/?#]*)/i;

/**
 * An absolute-form target (RFC 9112 §3.2.2) the server takes: an http(s) URL a URL parser
 * accepts, whose authority is a valid Host. A URL parser would repair `http:///x` into host `x`
 * and keep a userinfo (`http://user@a/`), which RFC 9110 §4.2.4 says to treat as an error.
 */
export function isValidAbsoluteTarget(target: string): boolean {
  const authority = ABSOLUTE_TARGET.exec(target)?.[1];
  if (authority === undefined || !isValidHost(authority)) return false;
  try {
    new URL(target);
    return true;
  } catch {
    return false;
  }
}

/** Origins as a URL parser writes them (host lowercased, default port dropped), for the last few seen. */
const origins = new Map<string, string>();
const ORIGINS_KEPT = 64;

let lastScheme = '';
let lastHost: string | null = null;
let lastOrigin = '';

function originOf(scheme: string, host: string): string {
  // Requests of a connection (and of most servers) name the same origin again and again.
  if (host === lastHost && scheme === lastScheme) return lastOrigin;
  const raw = `${scheme}://${host}`;
  let origin = origins.get(raw);
  if (origin === undefined) {
    origin = new URL(raw).origin;
    if (origins.size >= ORIGINS_KEPT) origins.clear();
    origins.set(raw, origin);
  }
  lastScheme = scheme;
  lastHost = host;
  return (lastOrigin = origin);
}

/** An origin-form target that URL parsing leaves as it is: no dot segments, nothing it would percent-encode. */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*$/;
const DOT_SEGMENT = /\/\.|%2e/i;

/** The request URL as `new Request(url).url` would give it: dot segments removed, host normalised. */
function requestUrl(scheme: string, host: string, target: string): string {
  // Absolute-form already names the origin (validated by the connection); asterisk-form has no path.
  if (target.charCodeAt(0) !== 47 /* / */) return target === '*' ? `${originOf(scheme, host)}/*` : new URL(target).href;
  const url = originOf(scheme, host) + target;
  return PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target) ? url : new URL(url).href;
}

/** The path of an absolute URL, without the query (no URL object: this runs per request). */
function pathOfUrl(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash < 0) return '/';
  const query = url.indexOf('?', slash);
  const hash = url.indexOf('#', slash);
  const end = query < 0 ? (hash < 0 ? url.length : hash) : query;
  return url.slice(slash, end);
}

/** What a request is made of: the parsed HTTP/1.1 head, or HTTP/2 pseudo-headers and fields. */
export interface RequestLine {
  readonly method: string;
  /** The request target: origin-form ('/path?query'), absolute-form, or '*'. */
  readonly url: string;
  readonly headers: HeaderList;
}

const NO_BODY_METHODS = new Set(['GET', 'HEAD']);
const decoder = new TextDecoder();

let bodyOf: (request: object) => RequestBody | null | undefined;
let exchangeOf: (request: object) => Exchange | undefined;

/** The lazy Request a handler gets. */
export class IncomingRequest {
  static {
    bodyOf = (request) => (#context in request ? (request as IncomingRequest).#context.body : undefined);
    exchangeOf = (request) => (#context in request ? (request as IncomingRequest).#context.exchange : undefined);
  }

  #head: RequestLine;
  #context: RequestContext;
  #method: string | undefined;
  #url: string | undefined;
  #headers: Headers | undefined;
  #request: Request | undefined;
  /**
   * `#request` stands in for this one with a body that is no use (read, or locked by a reader when
   * it was made): this request's own body stream and state stay the truth for `body`, `bodyUsed`
   * and the readers here; the runtime's refuses what the standard refuses (a copy, a clone).
   */
  #standIn = false;
  #emptyBody: RequestBody | undefined;

  constructor(head: RequestLine, context: RequestContext) {
    this.#head = head;
    this.#context = context;
  }

  get method(): string {
    return (this.#method ??= this.#head.method);
  }

  get url(): string {
    return (this.#url ??= requestUrl(this.#context.scheme, this.#context.host, this.#head.url));
  }

  get headers(): Headers {
    // Once the real Request exists its fields are the truth: a copy of this request (`new
    // Request(request)`, `fetch(request)`) reads them, so a change made now must land there.
    if (this.#request) return this.#request.headers;
    return (this.#headers ??= headersOf(joinCookieFields(this.#head.headers)));
  }

  get signal(): AbortSignal {
    return this.#request?.signal ?? this.#context.signal();
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#request && !this.#standIn ? this.#request.body : (this.#body()?.readable() ?? null);
  }

  get bodyUsed(): boolean {
    return this.#request && !this.#standIn ? this.#request.bodyUsed : (this.#body()?.disturbed ?? false);
  }

  /**
   * The body as a Request has it. The Fetch standard gives GET and HEAD none: one a client sent
   * anyway is read off the connection and dropped. Any other method has one, empty when the
   * client sent none, as node:http (through @hono/node-server) and Deno.serve give it, so
   * `request.body` says the same on every runtime and matches `text()`.
   */
  #body(): RequestBody | null {
    if (NO_BODY_METHODS.has(this.method)) return null;
    return this.#context.body ?? (this.#emptyBody ??= RequestBody.empty());
  }

  // The body readers take the bytes straight from the connection unless a real Request exists.
  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#request && !this.#standIn) return this.#request.arrayBuffer();
    // A copy unless the bytes fill their buffer: a Node Buffer is often a view into a shared pool.
    return this.#bytes().then(
      (bytes) =>
        (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes)).buffer as ArrayBuffer,
    );
  }

  text(): Promise<string> {
    if (this.#request && !this.#standIn) return this.#request.text();
    return this.#bytes().then((bytes) => decoder.decode(bytes));
  }

  json(): Promise<unknown> {
    if (this.#request && !this.#standIn) return this.#request.json();
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  #bytes(): Promise<Uint8Array> {
    const body = this.#body();
    return body ? body.collect() : Promise.resolve(new Uint8Array(0));
  }

  /** The URL's path, for routing: taken from the target itself when URL parsing would leave it as it is. */
  get path(): string {
    const target = this.#head.url;
    if (target.charCodeAt(0) === 47 /* / */ && PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target)) {
      const query = target.indexOf('?');
      return query < 0 ? target : target.slice(0, query);
    }
    return pathOfUrl(this.url);
  }

  /** The real `Request`, made once. */
  toRequest(): Request {
    if (this.#request) return this.#request;
    const body = this.#body();
    const init: RequestInit = { method: this.method, headers: this.headers, signal: this.#context.signal() };
    if (!body) return (this.#request = new NativeRequest(this.url, init));
    const withBody = (stream: ReadableStream) => new NativeRequest(this.url, { ...init, body: stream, duplex: 'half' } as RequestInit);
    if (!body.unusable) return (this.#request = withBody(body.readable()));
    // A body read already (`text()`, or its stream) stays read; one a reader holds stays held.
    this.#standIn = true;
    return (this.#request = body.disturbed ? withBodyRead(withBody) : withBodyLocked(withBody));
  }

  /** The runtime's Request for an API that reads only its URL, method and fields (a cache key): no body taken. */
  keyRequest(): Request {
    return this.#request ?? new NativeRequest(this.url, { method: this.method, headers: this.headers });
  }

  /**
   * What a runtime Request constructor takes in this one's place (`new Request(request, init)`):
   * the real Request, or, once the body was read straight from the connection, a bodiless copy
   * that only a new body in `init` may complete, as for any Request whose body was used.
   */
  sourceFor(init: RequestInit | undefined): Request {
    if (this.#request || !this.bodyUsed) return this.toRequest();
    if (init?.body == null) throw new TypeError('Cannot construct a Request from a Request whose body was already read');
    return new NativeRequest(this.url, { method: this.method, headers: this.headers, signal: this.#context.signal() });
  }
}

// Everything else a Request has (clone(), formData(), cache, ...) goes to the real one.
delegateToNative(IncomingRequest.prototype, NativeRequest.prototype, (self) => (self as IncomingRequest).toRequest(), 'Request');

/**
 * What a runtime Request constructor or fetch takes for `input`: a request of this server in the
 * form `sourceFor` gives it (they cannot read a lazy one), anything else as it is.
 */
export function runtimeInput(input: RequestInfo | URL, init: RequestInit | undefined): RequestInfo | URL {
  return input instanceof IncomingRequest ? input.sourceFor(init) : input;
}

/**
 * What a runtime API that keys by a request (the Cache API) takes: a request of this server as a
 * runtime Request of the same URL, method and fields, anything else as it is.
 */
export function runtimeKey(input: unknown): unknown {
  return input instanceof IncomingRequest ? input.keyRequest() : input;
}

/** The handler's view of an IncomingRequest. */
export function asRequest(request: IncomingRequest): Request {
  return request as unknown as Request;
}

/** The path of `request`'s URL without the query, for routing: without building the URL when the server made the request. */
export function requestPath(request: Request): string {
  return request instanceof IncomingRequest ? request.path : pathOfUrl(request.url);
}

/** The connection's body of a request the server made (undefined for any other Request). */
export function requestBodyOf(request: Request): RequestBody | null | undefined {
  return bodyOf(request);
}

/** The exchange of a request the server made, when it may be upgraded (undefined otherwise). */
export function requestExchangeOf(request: Request): Exchange | undefined {
  return exchangeOf(request);
}
