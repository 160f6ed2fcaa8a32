// What `serve()` accepts, and the limits it falls back to. Node's http server is the reference for
// every default that it has; the rest are chosen to be safe on a public port.
import { closest, InvalidOptionError, OptionRangeError, typeName } from '../errors.js';
import { resolveOptions as resolveParserOptions, type ParserOptions } from '../http1/options.js';
import type { RequestInfo } from './request-info.js';
import { resolveHttp2Options, type Http2Options, type ResolvedHttp2Options } from '../http2/options.js';
import type { Router } from '../router/index.js';

/** A handler in the web-standard shape: hono's `app.fetch` is one. */
export type FetchHandler = (request: Request, info: RequestInfo) => Response | Promise<Response>;

/** A route handler's info: the request's, plus the route's percent-decoded params. */
export type RouteInfo = RequestInfo & { readonly params: Readonly<Record<string, string>> };

/** A route handler: the fetch shape plus the route's params. */
export type RouteHandler = (request: Request, info: RouteInfo) => Response | Promise<Response>;

/** Size and count limits of a server. */
export interface Limits extends Pick<ParserOptions, 'maxHeadBytes' | 'maxHeaders' | 'maxTargetBytes'> {
  /** Largest request body (413 when over). Default 128 MiB (Bun's default). */
  maxBodyBytes?: number;
  /**
   * Most requests on one connection; the last one is answered with `Connection: close` (HTTP/2:
   * comes with a GOAWAY). Default 0: no limit (Node).
   */
  maxRequestsPerConnection?: number;
  /** Most open connections; more are answered 503 and closed. Default 10,000. */
  maxConnections?: number;
}

/** Time limits of a server, in ms. */
export interface Timeouts {
  /** A request's head must arrive within this many ms of its first byte (slowloris). Default 60 s (Node). */
  headersTimeout?: number;
  /** A whole request (head and body) must arrive within this many ms. Default 300 s (Node). */
  requestTimeout?: number;
  /** An idle keep-alive connection is closed after this many ms. Default 5 s (Node). */
  keepAliveTimeout?: number;
  /** How long `close()` lets in-flight requests finish before cutting them. Default 10 s. */
  gracefulTimeout?: number;
  /**
   * A response that waits this many ms on its client to take bytes, with none going out, is cut
   * (a slow read): the connection is closed when its socket's queue is full, an HTTP/2 stream is
   * reset (CANCEL) when the client's windows hold its DATA back. What the client takes restarts
   * the clock: large bodies go to the socket a megabyte at a time (HTTP/2: at most 4 MiB ahead),
   * so a slow download shows its progress. Default 60 s (nginx's `send_timeout`).
   */
  sendTimeout?: number;
}

/** What serve() takes on every adapter. */
export interface ServeOptions extends Limits, Timeouts {
  /** The handler for every request no route took (or for all requests when there are no routes). */
  fetch?: FetchHandler;
  /** Routes as `'METHOD /pattern'` (or `'/pattern'` for any method); 404 and 405 are answered for you. */
  routes?: Record<string, RouteHandler>;
  /** A router you built; its values are route handlers. */
  router?: Router<RouteHandler>;
  /**
   * Default 0: a free port. Its decimal digits as a string (`process.env.PORT`) are taken too, as
   * node:http's `listen()` takes them.
   */
  port?: number;
  /** Default '127.0.0.1'. Use '0.0.0.0' or '::' to listen on every interface. */
  hostname?: string;
  /**
   * Listen on this Unix domain socket instead of a TCP port, as Deno.serve's `path` and node:net's
   * `listen(path)` do: for a reverse proxy on the same host (nginx: `proxy_pass http://unix:/run/app.sock;`).
   * Not with `port` or `hostname`. A file already at the path fails `ready` (EADDRINUSE: remove a
   * stale socket first); `close()` removes the socket file.
   */
  path?: string;
  /**
   * Serve HTTP/2 too (RFC 9113), with the same handler: over TLS when ALPN picks `h2`, and on
   * cleartext when a connection starts with the HTTP/2 preface (h2c with prior knowledge);
   * HTTP/1.1 clients keep working on the same port. `Upgrade: h2c` is not offered. An object
   * sets the HTTP/2 limits. Default false.
   */
  http2?: boolean | Http2Options;
  /**
   * PEM certificate chain and key: serve HTTPS. As strings, or as the bytes of the PEM files
   * (`fs.readFileSync('key.pem')`, which node:https takes).
   */
  tls?: { cert: string | Uint8Array; key: string | Uint8Array };
  /** Stops the server like `close()` when aborted. */
  signal?: AbortSignal;
  /**
   * Turns a thrown error or rejected promise into a response. Default: the error goes to
   * `logError` and the answer is 500. A throwing `onError` also gives a 500.
   */
  onError?: (error: unknown, request: Request) => Response | Promise<Response>;
  /**
   * Where the server reports errors no response can carry: a handler's error without `onError`,
   * a response body that broke after its head went out, an error of `onError` itself, an internal
   * HTTP/2 connection error. Default: `console.error(error)`. The library logs nothing else,
   * but for an error of `logError` itself (then both go to `console.error`).
   */
  logError?: (error: unknown) => void;
  /**
   * Replace the global `Response` with LightResponse: a faithful Response (same members,
   * `instanceof` both ways, `name` 'Response') that keeps its body as given, so the server writes
   * it without a web stream. Measured per request with `new Response('Hello, World!')`: Node
   * 62 → 13 µs CPU, Deno 18.4 → 11.8 µs. And replace the global `Request` with the runtime's own
   * class made to take the server's lazy requests as input (`new Request(request, init)`). The
   * convention of @hono/node-server. Default true; `false` leaves both globals alone (import
   * LightResponse to use it by name; `new Request(request)` then throws, as the runtime's class
   * cannot read a lazy request).
   */
  overrideGlobalObjects?: boolean;
}

/** The parser options a server sets. */
export type RequestLimits = Required<Pick<ParserOptions, 'maxHeadBytes' | 'maxHeaders' | 'maxTargetBytes' | 'maxBodyBytes'>>;

/** ServeOptions with every default filled in. */
export interface ResolvedServeOptions {
  /** The request limits, filled in: the HTTP/1.1 parser's options, and HTTP/2's requests are held to them too. */
  parser: RequestLimits;
  /** Null: HTTP/1.1 only. */
  http2: ResolvedHttp2Options | null;
  maxRequestsPerConnection: number;
  maxConnections: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  gracefulTimeout: number;
  sendTimeout: number;
  logError: (error: unknown) => void;
}

/** `logError`'s default. */
function consoleError(error: unknown): void {
  console.error(error);
}

/**
 * The app's `logError`, made safe to call from inside a response: one that throws (a logger
 * that stringifies a circular error) would cut the connection it was reporting on, for every
 * request that errs. Its failure goes to the console with the error it was given.
 */
function guardedLogger(logError: (error: unknown) => void): (error: unknown) => void {
  return (error) => {
    try {
      logError(error);
    } catch (broken) {
      console.error('wirespeed: logError threw', broken, 'while logging', error);
    }
  };
}

function duration(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new InvalidOptionError(name, `${name} must be a number of ms, got ${describe(value)}`);
  if (!Number.isFinite(value) || value <= 0) throw new OptionRangeError(name, `${name} must be a positive number of ms, got ${value}`);
  return value;
}

function count(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new InvalidOptionError(name, `${name} must be an integer, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < 0) throw new OptionRangeError(name, `${name} must be a non-negative integer, got ${value}`);
  return value;
}

/** What a bad option value is: a string quoted (the typo shows), anything else as typeName says. */
function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : typeName(value);
}

/** Every option `serve()` knows, on every runtime. */
const SERVE_OPTIONS = new Set<string>([
  'fetch',
  'routes',
  'router',
  'port',
  'hostname',
  'path',
  'http2',
  'tls',
  'signal',
  'onError',
  'logError',
  'overrideGlobalObjects',
  'maxHeadBytes',
  'maxHeaders',
  'maxTargetBytes',
  'maxBodyBytes',
  'maxRequestsPerConnection',
  'maxConnections',
  'headersTimeout',
  'requestTimeout',
  'keepAliveTimeout',
  'gracefulTimeout',
  'sendTimeout',
]);

/** Options of the servers people switch from (@hono/node-server, Deno.serve), and what to pass here instead. */
const PEER_OPTIONS: Readonly<Record<string, string>> = {
  createServer: 'for HTTPS pass tls: { cert, key }; for HTTP/2, http2: true',
  serverOptions: 'for HTTPS pass tls: { cert, key }; for HTTP/2, http2: true',
  autoCleanupIncoming: 'the server itself drains or closes on a request body left unread',
  websocket: "WebSockets are built in, with no ws server: use upgradeWebSocket from 'wirespeed/hono' (or 'wirespeed/node')",
  onListen: "pass the callback as serve()'s second argument",
  handler: 'pass it as fetch',
  cert: 'pass tls: { cert, key }',
  key: 'pass tls: { cert, key }',
};

/**
 * Checks what `serve()` was given, when it is called: names, types and ranges, each error naming
 * its option (InvalidOptionError ERR_INVALID_OPTION, OptionRangeError ERR_OPTION_OUT_OF_RANGE).
 * `adapterOptions`: the names only this runtime's adapter takes (Node: `workers`).
 */
export function checkServeOptions(options: unknown, adapterOptions: readonly string[] = []): asserts options is ServeOptions {
  if (options === null || typeof options !== 'object') {
    // Deno.serve(handler)'s form: say where the handler goes.
    const hint = typeof options === 'function' ? ': pass the handler as serve({ fetch: handler })' : '';
    throw new InvalidOptionError('options', `serve() takes an options object, got ${describe(options)}${hint}`);
  }
  const o = options as Record<string, unknown>;
  // serve(app), which @hono/node-server takes: an app's own fields are not options (a hono app's
  // `onError` registers a handler, its `router` is not one), and its port would be a free one.
  const prototype = Object.getPrototypeOf(o) as unknown;
  if (typeof o.fetch === 'function' && prototype !== Object.prototype && prototype !== null)
    throw new InvalidOptionError('options', `serve() takes options, not an app: serve({ fetch: app.fetch, port: 3000 })`);
  for (const name of Object.keys(o)) {
    if (SERVE_OPTIONS.has(name) || adapterOptions.includes(name)) continue;
    const hint = closest(name, [...SERVE_OPTIONS, ...adapterOptions]);
    const help = Object.hasOwn(PEER_OPTIONS, name)
      ? ` (${PEER_OPTIONS[name]})`
      : hint
        ? ` (did you mean "${hint}"?)`
        : typeof o.fetch === 'function'
          ? ' (an app spread into the options? pass { fetch: app.fetch })'
          : '';
    throw new InvalidOptionError(name, `serve() has no option "${name}"${help}`);
  }
  const fn = (name: string) => {
    if (o[name] !== undefined && typeof o[name] !== 'function')
      throw new InvalidOptionError(name, `${name} must be a function, got ${describe(o[name])}`);
  };
  fn('fetch');
  fn('logError');
  fn('onError');
  if (o.fetch === undefined && o.routes === undefined && o.router === undefined) {
    // Deno.serve(options, handler) passes the handler second, where serve() takes its listening callback.
    throw new InvalidOptionError('fetch', 'serve() needs a fetch handler, routes or a router: serve({ fetch: handler, port })');
  }
  if (o.routes !== undefined) {
    if (o.routes === null || typeof o.routes !== 'object')
      throw new InvalidOptionError('routes', `routes must be an object of handlers, got ${describe(o.routes)}`);
    for (const [key, handler] of Object.entries(o.routes)) {
      if (typeof handler !== 'function')
        throw new InvalidOptionError(`routes["${key}"]`, `the handler of route "${key}" must be a function, got ${describe(handler)}`);
    }
  }
  if (o.router !== undefined && typeof (o.router as { find?: unknown } | null)?.find !== 'function') {
    throw new InvalidOptionError('router', `router must be a Router, got ${describe(o.router)}`);
  }
  if (o.port !== undefined) {
    const digits = typeof o.port === 'string' && /^\d{1,5}$/.test(o.port);
    if (typeof o.port !== 'number' && !digits) throw new InvalidOptionError('port', `port must be a number, got ${describe(o.port)}`);
    const port = Number(o.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new OptionRangeError('port', `port must be an integer in 0..65535, got ${describe(o.port)}`);
  }
  if (o.hostname !== undefined && (typeof o.hostname !== 'string' || o.hostname === ''))
    throw new InvalidOptionError('hostname', `hostname must be a non-empty string, got ${describe(o.hostname)}`);
  if (o.path !== undefined) {
    if (typeof o.path !== 'string' || o.path === '')
      throw new InvalidOptionError('path', `path must be the Unix socket's file path, got ${describe(o.path)}`);
    if (o.port !== undefined || o.hostname !== undefined)
      throw new InvalidOptionError('path', 'serve() listens on a Unix socket (path) or on TCP (port, hostname), not both');
  }
  if (o.tls !== undefined) {
    const tls = o.tls as { cert?: unknown; key?: unknown } | null;
    const pem = (value: unknown) => typeof value === 'string' || value instanceof Uint8Array;
    if (!pem(tls?.cert) || !pem(tls?.key)) throw new InvalidOptionError('tls', 'tls must be { cert, key } with PEM strings or bytes');
  }
  if (o.http2 !== undefined && typeof o.http2 !== 'boolean' && (o.http2 === null || typeof o.http2 !== 'object')) {
    throw new InvalidOptionError('http2', `http2 must be a boolean or an object of HTTP/2 limits, got ${describe(o.http2)}`);
  }
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal))
    throw new InvalidOptionError('signal', `signal must be an AbortSignal, got ${describe(o.signal)}`);
  if (o.overrideGlobalObjects !== undefined && typeof o.overrideGlobalObjects !== 'boolean') {
    throw new InvalidOptionError(
      'overrideGlobalObjects',
      `overrideGlobalObjects must be a boolean, got ${describe(o.overrideGlobalObjects)}`,
    );
  }
  resolveServeOptions(o as ServeOptions); // the limits and timeouts
}

const pemDecoder = new TextDecoder();

/** The port option as a number (checked by checkServeOptions), 0 when not given. */
function listenPort(options: ServeOptions): number {
  return options.port === undefined ? 0 : Number(options.port);
}

/** Checks serve()'s second argument, the callback called once listening. */
export function checkListener(onListening: unknown): void {
  if (onListening !== undefined && typeof onListening !== 'function')
    throw new InvalidOptionError(
      'onListening',
      `serve()'s second argument is called once listening: a function, got ${describe(onListening)}`,
    );
}

/** Fills in the defaults of `options` (checked by checkServeOptions). */
export function resolveServeOptions(options: ServeOptions): ResolvedServeOptions {
  // Throws RangeError on a bad limit now, not on the first request.
  const { maxHeadBytes, maxHeaders, maxTargetBytes, maxBodyBytes } = resolveParserOptions({
    maxHeadBytes: options.maxHeadBytes,
    maxHeaders: options.maxHeaders,
    maxTargetBytes: options.maxTargetBytes,
    maxBodyBytes: options.maxBodyBytes ?? 128 * 1024 * 1024,
  });
  return {
    parser: { maxHeadBytes, maxHeaders, maxTargetBytes, maxBodyBytes },
    http2: options.http2 ? resolveHttp2Options(options.http2 === true ? {} : options.http2) : null,
    maxRequestsPerConnection: count('maxRequestsPerConnection', options.maxRequestsPerConnection, 0),
    maxConnections: count('maxConnections', options.maxConnections, 10_000),
    headersTimeout: duration('headersTimeout', options.headersTimeout, 60_000),
    requestTimeout: duration('requestTimeout', options.requestTimeout, 300_000),
    keepAliveTimeout: duration('keepAliveTimeout', options.keepAliveTimeout, 5_000),
    gracefulTimeout: duration('gracefulTimeout', options.gracefulTimeout, 10_000),
    sendTimeout: duration('sendTimeout', options.sendTimeout, 60_000),
    logError: options.logError ? guardedLogger(options.logError) : consoleError,
  };
}

/**
 * Where a server listens, in the shape of Node's `server.address()`: what serve()'s listening
 * callback gets, as @hono/node-server's `serve(options, (info) => ...)` does.
 */
export interface ListeningInfo {
  /** The IP address, or the Unix socket's path. */
  address: string;
  family: 'IPv4' | 'IPv6' | 'unix';
  /** 0 on a Unix socket. */
  port: number;
}

/** A running server, as `serve()` returns it on every runtime. */
export interface Server {
  /** The port listened on (known once `ready` resolves; the requested one before); 0 on a Unix socket. */
  readonly port: number;
  /** '' on a Unix socket. */
  readonly hostname: string;
  /**
   * `http(s)://hostname:port`; on a Unix socket `http+unix://` and the path percent-encoded (the
   * form of the http+unix URLs some clients take), which `new URL()` parses.
   */
  readonly url: string;
  /** Resolves when listening; rejects if listening failed (e.g. the port is taken). */
  readonly ready: Promise<void>;
  /**
   * Where it listens, as node:http's `server.address()` gives it (which @hono/node-server
   * returns, so apps and their tests read `server.address().port`); null until listening.
   */
  address(): ListeningInfo | null;
  /**
   * Stops accepting, closes idle connections, lets in-flight requests finish (see `gracefulTimeout`).
   * `callback` is called once closed, as node:http's `server.close(callback)` (which
   * @hono/node-server returns) calls it: with no error (closing twice is not one here).
   */
  close(callback?: (error?: Error) => void): Promise<void>;
  /** Resolves once the server has closed (by `close()` or `signal`). */
  readonly finished: Promise<void>;
  /**
   * node:http's server events that apps listen to on the server @hono/node-server returns:
   * 'listening' (once listening), 'error' (listening failed; a listener handles it, as on
   * node:http, instead of `ready`'s rejection going unhandled) and 'close' (once closed). Other
   * events ('request', 'upgrade', ...) have no meaning here and are refused with a TypeError.
   */
  on(event: ServerEvent, listener: (error?: Error) => void): this;
  /** As `on`: each of these events happens at most once. */
  once(event: ServerEvent, listener: (error?: Error) => void): this;
}

/** The node:http server events a Server has (see `Server.on`). */
export type ServerEvent = 'listening' | 'error' | 'close';

/** What the adapters' servers share: where they listen, and a `close()` that runs once, after `ready`. */
export abstract class ServerBase implements Server {
  abstract readonly ready: Promise<void>;
  readonly finished: Promise<void>;
  private closing: Promise<void> | null = null;
  private closed!: () => void;

  constructor(protected readonly options: ServeOptions) {
    this.finished = new Promise((resolve) => (this.closed = resolve));
  }

  /** Whether it listens now (bound, and not closed). */
  protected abstract listening(): boolean;
  /** The port bound, or 0 before listening (and on a Unix socket). */
  protected abstract boundPort(): number;
  /** Stops listening and lets connections finish. */
  protected abstract stop(): Promise<void>;

  get port(): number {
    return this.boundPort() || listenPort(this.options);
  }
  get hostname(): string {
    return this.options.path !== undefined ? '' : (this.options.hostname ?? '127.0.0.1');
  }
  /** The TLS certificate chain and key as PEM strings (Deno's listenTls takes only strings), or undefined for plain TCP. */
  protected pem(): { cert: string; key: string } | undefined {
    const tls = this.options.tls;
    if (!tls) return undefined;
    const text = (value: string | Uint8Array) => (typeof value === 'string' ? value : pemDecoder.decode(value));
    return { cert: text(tls.cert), key: text(tls.key) };
  }

  /** `http://127.0.0.1:8080`, with brackets for IPv6; `http+unix://%2Frun%2Fapp.sock` on a Unix socket. */
  get url(): string {
    const scheme = this.options.tls ? 'https' : 'http';
    const path = this.options.path;
    if (path !== undefined) return `${scheme}+unix://${encodeURIComponent(path)}`;
    const host = this.hostname.includes(':') ? `[${this.hostname}]` : this.hostname;
    return `${scheme}://${host}:${this.port}`;
  }

  close(callback?: (error?: Error) => void): Promise<void> {
    const closing = (this.closing ??= this.ready
      .catch(() => undefined)
      .then(() => this.stop())
      .then(() => this.closed()));
    if (typeof callback === 'function') {
      // Called outside the promise chain, so that what it throws is uncaught, as from a close event.
      void closing.then(
        () => queueMicrotask(() => callback()),
        (error: unknown) => queueMicrotask(() => callback(error as Error)),
      );
    }
    return closing;
  }

  /**
   * Calls `listener` once listening. Not when listening fails: `ready` rejects for that, and stays
   * the one unhandled rejection if nothing handles it. A listener that throws is uncaught, as in a
   * 'listening' event.
   */
  whenListening(listener: (info: ListeningInfo) => void): void {
    this.on('listening', () => listener(this.address()!));
  }

  on(event: ServerEvent, listener: (error?: Error) => void): this {
    if (typeof listener !== 'function') throw new TypeError(`server.on('${String(event)}', listener): the listener must be a function`);
    // Each called outside the promise chain, so that what it throws is uncaught, as from an event.
    const later = (call: () => void) => queueMicrotask(call);
    switch (event) {
      case 'listening':
        void this.ready.then(
          () => later(() => listener()),
          () => undefined,
        );
        break;
      case 'error':
        this.ready.catch((error: unknown) => later(() => listener(error as Error)));
        break;
      case 'close':
        void this.finished.then(() => later(() => listener()));
        break;
      default:
        throw new TypeError(
          `server.on('${String(event)}') is not an event of this server: it has 'listening', 'error' and 'close' (requests go to fetch)`,
        );
    }
    return this;
  }

  once(event: ServerEvent, listener: (error?: Error) => void): this {
    return this.on(event, listener);
  }

  address(): ListeningInfo | null {
    if (!this.listening()) return null;
    const path = this.options.path;
    if (path !== undefined) return { address: path, family: 'unix', port: 0 };
    return { address: this.hostname, family: this.hostname.includes(':') ? 'IPv6' : 'IPv4', port: this.port };
  }

  /** Call at the end of the constructor (once `ready` is set): `options.signal` closes the server. */
  protected closeOnAbort(): void {
    const signal = this.options.signal;
    if (signal?.aborted) void this.close();
    else signal?.addEventListener('abort', () => void this.close(), { once: true });
  }
}
