// The runtime-agnostic server: the handler (routes, fetch, onError), the set of connections, one
// timer that enforces every connection's deadline, the connection limit and graceful shutdown.
// An adapter listens, wraps each socket in a Transport and calls `accept`.
import { concat } from '../bytes.js';
import { HttpParseError } from '../http1/errors.js';
import { statusForParseError } from '../http1/status.js';
import { dateHeaderLine } from '../http1/writer.js';
import { ANY_METHOD, Router, RouterError, type Match } from '../router/index.js';
import { Http2Connection } from './http2/connection.js';
import { ErrorCode } from '../http2/errors.js';
import { encodeGoaway, encodeSettings } from '../http2/frame/index.js';
import { Http1Connection } from './http1/connection.js';
import { resolveServeOptions, type ResolvedServeOptions, type RouteHandler, type RouteInfo, type ServeOptions } from './options.js';
import { ResponseBodyError } from './body-chunks.js';
import { plainResponse } from './plain-response.js';
import { isResponse } from './response-source.js';
import { requestPath } from './request.js';
import { ProtocolSniffer } from './protocol-sniffer.js';
import { ResponseInterruptedError, type ExchangeInfo, type InterruptedError } from './request-info.js';
import type { DeflateCodec } from '../websocket/deflate.js';
import {
  headTimeout,
  type ConnectionHost,
  type Platform,
  type ServerConnection,
  type SocketTransport,
  type Transport,
} from './connection.js';

const OVERLOADED = `HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n`;
const REFUSED_H2 = concat(encodeSettings([]), encodeGoaway(0, ErrorCode.REFUSED_STREAM, 'over the connection limit'));

/** `'GET /users/:id'` → ['GET', '/users/:id']; `'/x'` → any method. */
function parseRouteKey(key: string): [method: string, pattern: string] {
  const space = key.indexOf(' ');
  if (space < 0) return [ANY_METHOD, key];
  return [key.slice(0, space), key.slice(space + 1).trim()];
}

/** The runtime-agnostic server under both adapters. */
export class ServerCore implements ConnectionHost {
  readonly options: ResolvedServeOptions;
  closing = false;
  /** By transport: a sniffed connection is replaced by the one for its protocol. */
  private readonly connections = new Map<Transport, ServerConnection>();
  private readonly router: Router<RouteHandler> | null;
  private sweep: ReturnType<typeof setInterval> | null = null;
  private readonly sweepInterval: number;
  private allClosed: (() => void) | null = null;
  readonly webSocketDeflate: DeflateCodec | null;
  readonly responseInterrupted: InterruptedError;

  constructor(
    private readonly handlers: ServeOptions,
    platform: Platform = {},
  ) {
    this.options = resolveServeOptions(handlers);
    this.webSocketDeflate = platform.webSocketDeflate ?? null;
    this.responseInterrupted = platform.responseInterrupted ?? ((cause) => new ResponseInterruptedError(cause));
    let router = handlers.router ?? null;
    if (handlers.routes) {
      router ??= new Router<RouteHandler>();
      for (const [key, handler] of Object.entries(handlers.routes)) {
        const [method, pattern] = parseRouteKey(key);
        router.add(method, pattern, handler);
      }
    }
    this.router = router;
    const o = this.options;
    // Deadlines are checked a few times per shortest timeout, and at least once a second.
    this.sweepInterval = Math.max(10, Math.min(1000, Math.min(o.headersTimeout, o.requestTimeout, o.keepAliveTimeout, o.sendTimeout) / 4));
  }

  /** A new socket: its connection, which the core makes its `events`. Over the connection limit it is answered 503 and closed. */
  accept(transport: SocketTransport): ServerConnection | null {
    if (this.closing || this.connections.size >= this.options.maxConnections) {
      // An HTTP/2 client (ALPN h2) gets the server preface and GOAWAY REFUSED_STREAM: it may retry (RFC 9113 §6.8).
      transport.write(transport.alpnProtocol === 'h2' ? REFUSED_H2 : `${OVERLOADED}${dateHeaderLine()}\r\n`);
      transport.end();
      return null;
    }
    const connection = this.connect(transport);
    this.connections.set(transport, connection);
    transport.events = connection;
    this.sweep ??= setInterval(() => this.checkDeadlines(), this.sweepInterval);
    (this.sweep as { unref?: () => void }).unref?.();
    return connection;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * HTTP/1.1 unless HTTP/2 is on: then TLS ALPN decides, and on cleartext (or TLS without ALPN)
   * the first bytes do.
   */
  private connect(transport: SocketTransport): ServerConnection {
    const http2 = this.options.http2;
    if (!http2 || transport.alpnProtocol === 'http/1.1') return new Http1Connection(transport, this);
    if (transport.alpnProtocol === 'h2') return new Http2Connection(transport, this, http2);
    return new ProtocolSniffer(
      transport,
      (isHttp2) => {
        const connection = isHttp2
          ? new Http2Connection(transport, this, http2, { prefaceRead: true })
          : new Http1Connection(transport, this);
        this.handOver(transport, connection);
        return connection;
      },
      headTimeout(this.options),
      () => this.connectionClosed(transport),
    );
  }

  handOver(transport: SocketTransport, connection: ServerConnection): void {
    // A connection that closed stays gone (its close already left the set).
    if (!this.connections.has(transport)) return;
    this.connections.set(transport, connection);
    transport.events = connection;
  }

  connectionClosed(transport: Transport): void {
    this.connections.delete(transport);
    if (this.connections.size > 0) return;
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    this.allClosed?.();
  }

  /** Idle connections close now; busy ones after their response, or when the grace period ends. */
  async shutdown(): Promise<void> {
    this.closing = true;
    for (const connection of this.connections.values()) connection.shutdown();
    if (this.connections.size === 0) return;
    const done = new Promise<void>((resolve) => (this.allClosed = resolve));
    const grace = setTimeout(() => {
      for (const connection of this.connections.values()) connection.destroy(new Error('the server closed'));
    }, this.options.gracefulTimeout);
    await done;
    clearTimeout(grace);
  }

  respond(request: Request, info: ExchangeInfo): Response | Promise<Response> {
    let result: Response | Promise<Response>;
    try {
      result = this.handle(request, info);
    } catch (error) {
      return this.failed(error, request);
    }
    if (isSendable(result)) return result;
    return Promise.resolve(result).then(
      (response) => (isSendable(response) ? response : this.failed(notAResponse(response), request)),
      (error: unknown) => this.failed(error, request),
    );
  }

  private handle(request: Request, info: ExchangeInfo): Response | Promise<Response> {
    const fetch = this.handlers.fetch;
    const router = this.router;
    if (!router) return fetch!(request, info);
    const method = request.method;
    const path = requestPath(request);
    const match = routeOf(router, method, path);
    if (match === BAD_PATH) return plainResponse(400, 'ERR_INVALID_PERCENT_ENCODING');
    if (match) {
      info.params = match.params;
      return match.value(request, info as RouteInfo);
    }
    if (fetch) return fetch(request, info);
    // No route for this method: 405 with the methods that have one, else 404.
    const allowed = router.allowedMethods(path);
    return allowed.length ? plainResponse(405, undefined, [['allow', allowed.join(', ')]]) : plainResponse(404);
  }

  private failed(error: unknown, request: Request): Response | Promise<Response> {
    const onError = this.handlers.onError;
    // A bad request body surfaced through the handler's read (cut short, over the limit): the
    // client's error, answered with its status and not logged as the server's.
    if (!onError && error instanceof HttpParseError) return plainResponse(statusForParseError(error.code), error.code);
    // The server's own reason for cancelling the request (the client reset, the request timed
    // out, the server closed), come back through the handler's read: no one waits for this
    // answer, and no server error happened, so none is logged (a 408 or nothing went out).
    if (!onError && isCancelReason(error, request)) return plainResponse(500);
    if (!onError) return this.internalError(error);
    // What onError failed with is logged after the error it was given, which is not lost.
    try {
      const result = onError(error, request);
      if (isSendable(result)) return result;
      return Promise.resolve(result).then(
        (response) => (isSendable(response) ? response : this.internalError(error, notAResponse(response, 'onError'))),
        (second: unknown) => this.internalError(error, second),
      );
    } catch (second) {
      return this.internalError(error, second);
    }
  }

  /** The 500 for an error no handler turned into a response; the errors go to logError. */
  internalError(...errors: unknown[]): Response {
    for (const error of errors) this.options.logError(error);
    return plainResponse(500);
  }

  reportError(error: unknown, request: Request | null): void {
    const onError = this.handlers.onError;
    const log = this.options.logError;
    // A response body that failed with the server's own reason for cancelling the request (the
    // client left: a proxied `fetch(upstream, { signal: request.signal })` aborts its body with
    // that reason): the client's doing, reported to no one but onError, as for a handler.
    if (!onError && request && isCancelReason(causeOf(error), request)) return;
    if (!onError || !request) return log(error);
    try {
      // The response it returns cannot be sent: the head is already out.
      void Promise.resolve(onError(error, request)).catch(log);
    } catch (second) {
      log(second);
    }
  }

  private checkDeadlines(): void {
    const now = Date.now();
    for (const connection of this.connections.values()) connection.checkDeadline(now);
  }
}

/** What `routeOf` gives for a path whose params cannot be percent-decoded. */
const BAD_PATH = Symbol('bad path');

/**
 * The route for a request. A param with a '%' not followed by two hex digits, or bytes that are
 * not UTF-8 (RFC 3986 §2.1), is the client's malformed request: 400, not the server's error.
 */
function routeOf(router: Router<RouteHandler>, method: string, path: string): Match<RouteHandler> | null | typeof BAD_PATH {
  try {
    return router.find(method, path);
  } catch (error) {
    if (error instanceof RouterError && error.code === 'ERR_INVALID_PERCENT_ENCODING') return BAD_PATH;
    throw error;
  }
}

/** What a failed response body failed with (ResponseBodyError wraps the stream's error). */
function causeOf(error: unknown): unknown {
  return error instanceof ResponseBodyError ? error.cause : error;
}

/** Whether `error` is why the server cancelled `request` (its signal's reason). */
function isCancelReason(error: unknown, request: Request): boolean {
  const signal = request.signal;
  return signal.aborted && signal.reason === error;
}

/**
 * A Response the server can send. `Response.error()` is one only in name: a network error, status
 * 0 (every other Response has 200-599), with nothing HTTP can carry.
 */
function isSendable(value: unknown): value is Response {
  return isResponse(value) && value.status !== 0;
}

function notAResponse(value: unknown, who = 'the handler'): TypeError {
  if (isResponse(value)) return new TypeError(`${who} returned Response.error(), a network error: there is no HTTP response to send`);
  return new TypeError(`${who} returned ${value === null ? 'null' : typeof value}, not a Response`);
}
