// What `serve()` accepts, and the limits it falls back to. Node's http server is the reference for
// every default that it has; the rest are chosen to be safe on a public port.
import { resolveOptions as resolveParserOptions, type ParserOptions } from '../http1/options.js';
import { resolveHttp2Options, type Http2Options, type ResolvedHttp2Options } from '../http2/options.js';
import type { Router } from '../router/index.js';

/** What a handler learns about the connection besides the request. */
export interface ConnectionInfo {
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** True on TLS. */
  readonly encrypted: boolean;
}

/** A handler in the web-standard shape: hono's `app.fetch` is one. */
export type FetchHandler = (request: Request, info: ConnectionInfo) => Response | Promise<Response>;

/** A route handler: the fetch shape plus the route's percent-decoded params. */
export type RouteHandler = (
  request: Request,
  info: ConnectionInfo & { readonly params: Readonly<Record<string, string>> },
) => Response | Promise<Response>;

export interface Limits extends Pick<ParserOptions, 'maxHeadBytes' | 'maxHeaders' | 'maxTargetBytes'> {
  /** Largest request body (413 when over). Default 128 MiB (Bun's default). */
  maxBodyBytes?: number;
  /** Most requests on one connection; the last one is answered with `Connection: close`. Default 0: no limit (Node). */
  maxRequestsPerConnection?: number;
  /** Most open connections; more are answered 503 and closed. Default 10,000. */
  maxConnections?: number;
}

export interface Timeouts {
  /** A request's head must arrive within this many ms of its first byte (slowloris). Default 60 s (Node). */
  headersTimeout?: number;
  /** A whole request (head and body) must arrive within this many ms. Default 300 s (Node). */
  requestTimeout?: number;
  /** An idle keep-alive connection is closed after this many ms. Default 5 s (Node). */
  keepAliveTimeout?: number;
  /** How long `close()` lets in-flight requests finish before cutting them. Default 10 s. */
  gracefulTimeout?: number;
}

export interface ServeOptions extends Limits, Timeouts {
  /** The handler for every request no route took (or for all requests when there are no routes). */
  fetch?: FetchHandler;
  /** Routes as `'METHOD /pattern'` (or `'/pattern'` for any method); 404 and 405 are answered for you. */
  routes?: Record<string, RouteHandler>;
  /** A router you built; its values are route handlers. */
  router?: Router<RouteHandler>;
  /** Default 0: a free port. */
  port?: number;
  /** Default '127.0.0.1'. Use '0.0.0.0' or '::' to listen on every interface. */
  hostname?: string;
  /**
   * Serve HTTP/2 too (RFC 9113), with the same handler: over TLS when ALPN picks `h2`, and on
   * cleartext when a connection starts with the HTTP/2 preface (h2c with prior knowledge);
   * HTTP/1.1 clients keep working on the same port. `Upgrade: h2c` is not offered. An object
   * sets the HTTP/2 limits. Default false.
   */
  http2?: boolean | Http2Options;
  /** PEM certificate chain and key: serve HTTPS. */
  tls?: { cert: string; key: string };
  /** Stops the server like `close()` when aborted. */
  signal?: AbortSignal;
  /**
   * Turns a thrown error or rejected promise into a response. Default: log with console.error
   * and answer 500. A throwing `onError` also gives a 500.
   */
  onError?: (error: unknown, request: Request) => Response | Promise<Response>;
  /**
   * Replace the global `Response` with LightResponse: a faithful Response (same members,
   * `instanceof` both ways, `name` 'Response') that keeps its body as given, so the server writes
   * it without a web stream. Measured per request with `new Response('Hello, World!')`: Node
   * 62 → 13 µs CPU, Deno 18.4 → 11.8 µs. The convention of @hono/node-server. Default true;
   * `false` leaves the global alone (import LightResponse to use it by name).
   */
  overrideGlobalObjects?: boolean;
}

export interface ResolvedServeOptions {
  parser: ParserOptions;
  /** Null: HTTP/1.1 only. */
  http2: ResolvedHttp2Options | null;
  maxRequestsPerConnection: number;
  maxConnections: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  gracefulTimeout: number;
}

function duration(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number of ms, got ${value}`);
  return value;
}

function count(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  return value;
}

export function resolveServeOptions(options: ServeOptions): ResolvedServeOptions {
  const parser: ParserOptions = {
    maxHeadBytes: options.maxHeadBytes,
    maxHeaders: options.maxHeaders,
    maxTargetBytes: options.maxTargetBytes,
    maxBodyBytes: options.maxBodyBytes ?? 128 * 1024 * 1024,
  };
  resolveParserOptions(parser); // throws RangeError on a bad limit now, not on the first request
  return {
    parser,
    http2: options.http2 ? resolveHttp2Options(options.http2 === true ? {} : options.http2) : null,
    maxRequestsPerConnection: count('maxRequestsPerConnection', options.maxRequestsPerConnection, 0),
    maxConnections: count('maxConnections', options.maxConnections, 10_000),
    headersTimeout: duration('headersTimeout', options.headersTimeout, 60_000),
    requestTimeout: duration('requestTimeout', options.requestTimeout, 300_000),
    keepAliveTimeout: duration('keepAliveTimeout', options.keepAliveTimeout, 5_000),
    gracefulTimeout: duration('gracefulTimeout', options.gracefulTimeout, 10_000),
  };
}

/** A running server, as `serve()` returns it on every runtime. */
export interface Server {
  /** The port listened on (known once `ready` resolves; the requested one before). */
  readonly port: number;
  readonly hostname: string;
  /** `http(s)://hostname:port`. */
  readonly url: string;
  /** Resolves when listening; rejects if listening failed (e.g. the port is taken). */
  readonly ready: Promise<void>;
  /** Stops accepting, closes idle connections, lets in-flight requests finish (see `gracefulTimeout`). */
  close(): Promise<void>;
}

/** What the adapters' servers share: where they listen, and a `close()` that runs once, after `ready`. */
export abstract class ServerBase implements Server {
  abstract readonly ready: Promise<void>;
  private closing: Promise<void> | null = null;

  constructor(protected readonly options: ServeOptions) {}

  /** The port bound, or 0 before listening. */
  protected abstract boundPort(): number;
  /** Stops listening and lets connections finish. */
  protected abstract stop(): Promise<void>;

  get port(): number {
    return this.boundPort() || (this.options.port ?? 0);
  }
  get hostname(): string {
    return this.options.hostname ?? '127.0.0.1';
  }
  /** `http://127.0.0.1:8080`, with brackets for IPv6. */
  get url(): string {
    const host = this.hostname.includes(':') ? `[${this.hostname}]` : this.hostname;
    return `${this.options.tls ? 'https' : 'http'}://${host}:${this.port}`;
  }

  close(): Promise<void> {
    return (this.closing ??= this.ready.catch(() => undefined).then(() => this.stop()));
  }

  /** Call at the end of the constructor (once `ready` is set): `options.signal` closes the server. */
  protected closeOnAbort(): void {
    const signal = this.options.signal;
    if (signal?.aborted) void this.close();
    else signal?.addEventListener('abort', () => void this.close(), { once: true });
  }
}
