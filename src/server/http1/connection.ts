// One HTTP/1.1 connection: bytes in through the wasm parser, one exchange at a time (pipelined
// requests wait in the parser, so responses go out in order), responses out through the writer.
// A WebSocket upgrade the handler accepts switches the connection: from then on every event goes
// to the WebSocket connection. Runtime-agnostic: the adapter hands in a Transport and forwards
// its events.
import { HttpParseError } from '../../http1/errors.js';
import type { HeaderList } from '../../fields.js';
import type { RequestHead } from '../../http1/head.js';
import { RequestParser, type MessageHandler } from '../../http1/parser.js';
import { statusForParseError } from '../../http1/status.js';
import { writeResponseHead } from '../../http1/writer.js';
import { latin1Bytes } from '../../latin1.js';
import { holdClock, now, releaseClock } from '../clock.js';
import { Exchange } from '../exchange.js';
import { RequestBody } from '../request-body.js';
import { IncomingRequest, asRequest, isValidAbsoluteTarget, isValidHost } from '../request.js';
import { discardResponse } from '../prepare-response.js';
import { writeResponse, type WriteOptions, type WriteTarget } from '../response-writer.js';
import { PLAIN_FIELDS, plainResponse, plainText } from '../plain-response.js';
import {
  connectionInfo,
  headTimeout,
  type ConnectionHost,
  type ConnectionInfo,
  type ServerConnection,
  type SocketTransport,
} from '../connection.js';
import { WebSocketConnection } from '../websocket/connection.js';
import { ExchangeInfo } from '../request-info.js';
import { StallClock } from '../stall-clock.js';
import { abandonUpgrade, acceptsUpgrade, upgradeFields, type PendingUpgrade } from '../websocket/upgrade.js';

/**
 * The parser never switches protocols by itself (RFC 9110 §7.8 lets a server ignore Upgrade): the
 * connection switches when the handler accepts a WebSocket, and until then Upgrade is plain HTTP/1.1.
 */
class ServerRequestParser extends RequestParser {
  protected override switchesProtocol(): boolean {
    return false;
  }
}

/**
 * What an upgraded connection keeps in place of its parser: it reads no more HTTP, and an idle
 * WebSocket should not hold a parser (its options, buffers) for the rest of its life.
 */
const RETIRED_PARSER = new ServerRequestParser({ onHead() {} });

// Why reading is paused (bits): the socket reads again when none is left.
const PAUSE_BODY = 1;
const PAUSE_PIPELINE = 2;
const PAUSE_WRITE = 4;

// Which deadline runs.
const DEADLINE_NONE = 0;
/** Waiting for the rest of a head (and for the first request on a new connection). */
const DEADLINE_HEAD = 1;
/** Waiting for the rest of a body. */
const DEADLINE_BODY = 2;
/** Idle between requests. */
const DEADLINE_IDLE = 3;

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
/**
 * The Host of the last request any connection took (clients send the same one again and again),
 * and its bytes: a request with the same bytes gets the same string (see hostOf).
 */
let lastHost = '';
let lastHostBytes: Uint8Array = new Uint8Array(0);
/**
 * A response sent before its request body was read: up to this much unread body is read and
 * dropped so the connection can serve the next request (cheaper than a new connection, as
 * node:http's dump does). More, or a chunked body of unknown length, and the response says
 * `Connection: close` instead: the client already has its answer, and draining an upload nobody
 * reads would cost its whole length (nginx's lingering close makes the same choice).
 */
const DRAIN_LIMIT = 64 * 1024;

/** One request and its response. */
class Http1Exchange extends Exchange {
  requestComplete = false;
  responseDone = false;
  keepAlive: boolean;
  /** Body bytes received so far. */
  received = 0;

  constructor(
    private readonly connection: Http1Connection,
    readonly head: RequestHead,
  ) {
    super();
    this.keepAlive = head.keepAlive;
    // Only bytes to come need a body here; the request gives a POST without any an empty one.
    if (head.bodyKind === 'chunked' || head.contentLength > 0) this.body = new RequestBody(this, head.expectContinue);
  }

  pause(): void {
    this.connection.setPaused(PAUSE_BODY, true);
  }
  resume(): void {
    this.connection.setPaused(PAUSE_BODY, false);
  }
  sendContinue(): void {
    if (!this.responseStarted) this.connection.transport.write(CONTINUE);
  }
}

/** One HTTP/1.1 connection (and, after an upgrade, the door to its WebSocket). */
export class Http1Connection implements ServerConnection, MessageHandler<RequestHead>, WriteTarget {
  closed = false;
  private parser: RequestParser;
  private exchange: Http1Exchange | null = null;
  private requests = 0;
  private pausedBy = 0;
  /** Set once this connection will not take another request. */
  private ending = false;
  private deadline: number;
  private deadlineKind = DEADLINE_HEAD;
  private requestStart: number;
  /** Bytes of a request arrived since the connection went idle. */
  private receiving = false;
  /** Writers waiting for the socket to drain; none (no array) on most connections. */
  private drainWaiters: (() => void)[] | null = null;
  private readonly info: ConnectionInfo;
  private readonly scheme: string;
  /** After a WebSocket upgrade: the connection that has the transport now. */
  private upgraded: WebSocketConnection | null = null;
  /** Inside the parser's execute (bytes after an upgrade are handed over once it returns). */
  private parsing = false;
  private handedOver = false;
  /** The client ended its side (taken once the bytes before the end are read; a WebSocket gets it after them). */
  private clientEnded = false;
  /** How long the socket's queue has stayed full (sendTimeout). */
  private readonly sendStall = new StallClock();

  constructor(
    readonly transport: SocketTransport,
    private readonly host: ConnectionHost,
  ) {
    this.parser = new ServerRequestParser(this, host.options.parser);
    this.info = connectionInfo(transport);
    this.scheme = transport.encrypted ? 'https' : 'http';
    this.requestStart = now();
    this.deadline = this.requestStart + headTimeout(this.host.options);
  }

  // ---- transport events ----

  onData(chunk: Uint8Array): void {
    if (this.upgraded) return this.upgraded.onData(chunk);
    // Once ending, nothing more is parsed: the parser is paused for good, and held there, each
    // read was joined to all before it (a client sending on after its response cost quadratic time).
    if (this.closed || this.ending) return;
    // The requests of one read (pipelined) share one clock reading.
    holdClock();
    try {
      this.receive(chunk);
    } finally {
      releaseClock();
    }
  }

  private receive(chunk: Uint8Array): void {
    this.receiving = true;
    if (this.deadlineKind === DEADLINE_IDLE) {
      this.requestStart = now();
      this.setDeadline(DEADLINE_HEAD, this.requestStart + headTimeout(this.host.options));
    }
    this.transport.cork();
    this.parsing = true;
    this.parse(() => this.parser.execute(chunk));
    this.parsing = false;
    if (this.upgraded) this.handOver(this.upgraded);
    this.transport.uncork();
  }

  onEnd(): void {
    if (this.upgraded) return this.upgraded.onEnd();
    if (this.closed || this.clientEnded) return;
    this.clientEnded = true;
    // Requests sent before the end wait in the paused parser (pipelined behind a response, or
    // while the client read slowly): the end is taken once they are read, as a Node socket holds
    // its 'end' behind data not read yet, and each is answered. Taken at once, it closed the
    // connection after the response in flight and dropped them (node:http and Deno.serve answer
    // them when their handlers answer at once).
    if (!this.parser.holdsInput) this.takeClientEnd();
  }

  /** The client sends no more, and everything it sent before was read. */
  private takeClientEnd(): void {
    const exchange = this.exchange;
    // A body cut short by the client's end is the client's bad framing: 400, as node:http answers,
    // not a server error (the handler's read rejects with the same ERR_INCOMPLETE). A response
    // begun already is cut and the connection closed: the body it waited for will never come.
    if (exchange && !exchange.requestComplete) return this.parse(() => this.parser.finish());
    // Part of a head the client will never finish: 400, as node:http answers it (Deno.serve closes
    // without a word).
    if (!exchange) this.parse(() => this.parser.finish());
    // The client sends no more: no further request is taken, and the connection closes after the
    // response in flight, if any.
    this.ending = true;
    if (!exchange || exchange.responseDone) return this.end();
    // As Node does, a client that stops sending is taken to be gone: the handler's signal aborts,
    // and a stream body being written is cut (Node and Deno.serve cut it too; an event stream
    // waited for a close the client never sent). A response still to come is sent, for clients
    // that only half-closed.
    const reason = new Error('the client ended the connection before the response');
    exchange.cancel(reason);
    exchange.abandonResponse(reason);
    exchange.keepAlive = false;
    // A closing server does not wait for a response whose client is gone.
    if (this.host.closing) this.destroy();
  }

  onDrain(): void {
    if (this.upgraded) return this.upgraded.onDrain();
    this.sendStall.progressed();
    const waiters = this.drainWaiters;
    this.drainWaiters = null;
    if (waiters) for (const wake of waiters) wake();
    if (this.pausedBy & PAUSE_WRITE) {
      this.setPaused(PAUSE_WRITE, false);
      this.nextRequest();
    }
  }

  onClose(): void {
    if (this.upgraded) return this.upgraded.onClose();
    if (this.closed) return;
    this.closed = true;
    this.deadlineKind = DEADLINE_NONE;
    const exchange = this.exchange;
    if (exchange && !exchange.responseDone) {
      const reason = new Error('the connection closed before the response was sent');
      exchange.cancel(reason);
      exchange.abandonResponse(reason);
    }
    // A body still being read behind its response (dropUnlessRead) is cut here too.
    else if (exchange && !exchange.requestComplete) exchange.body?.fail(new Error('the connection closed before the request body ended'));
    if (exchange?.upgrade) abandonUpgrade(exchange.upgrade);
    this.onDrain();
    this.host.connectionClosed(this.transport);
  }

  // ---- parser events ----

  onHead(head: RequestHead): void {
    this.requests++;
    const exchange = new Http1Exchange(this, head);
    this.exchange = exchange;
    if (exchange.body) this.setDeadline(DEADLINE_BODY, this.requestStart + this.host.options.requestTimeout);
    else this.setDeadline(DEADLINE_NONE, 0);

    const host = this.hostOf(head);
    const { maxRequestsPerConnection } = this.host.options;
    if (this.ending || this.host.closing || (maxRequestsPerConnection && this.requests >= maxRequestsPerConnection)) {
      exchange.keepAlive = false;
    }
    if (head.method === 'CONNECT') {
      // A tunnel needs a raw socket, which the fetch contract has no room for.
      exchange.keepAlive = false;
      return this.sendResponse(exchange, plainResponse(501, 'ERR_CONNECT_UNSUPPORTED'));
    }
    const request = new IncomingRequest(head, {
      scheme: this.scheme,
      host,
      body: exchange.body,
      signal: () => exchange.signal(),
      exchange,
    });
    exchange.request = asRequest(request);
    const response = this.host.respond(exchange.request, new ExchangeInfo(this.info, exchange, this.host.responseInterrupted));
    if (!(response instanceof Promise)) return this.sendResponse(exchange, response);
    response.then(
      (value) => this.sendResponse(exchange, value),
      (error: unknown) => this.destroy(error),
    );
  }

  onBody(chunk: Uint8Array): void {
    const exchange = this.exchange;
    if (!exchange) return;
    exchange.received += chunk.length;
    exchange.body?.push(chunk);
  }

  onTrailers(trailers: HeaderList): void {
    this.exchange?.body?.setTrailers(trailers);
  }

  onComplete(): void {
    // Switched to WebSocket while the handler ran inside onHead: nothing of HTTP is left to do.
    if (this.upgraded) return;
    const exchange = this.exchange!;
    exchange.requestComplete = true;
    exchange.body?.end();
    if (this.deadlineKind === DEADLINE_BODY) this.setDeadline(DEADLINE_NONE, 0);
    if (exchange.responseDone) return exchange.keepAlive ? this.nextRequest() : this.end();
    // Pipelined requests wait in the parser until this response is out.
    this.parser.pause();
    this.setPaused(PAUSE_PIPELINE, true);
  }

  // ---- server events ----

  /** Called by the server's sweep: enforces the deadline that runs. */
  checkDeadline(now: number): void {
    if (this.upgraded) return this.upgraded.checkDeadline(now);
    // A slow read: the client leaves the response in the socket's full queue.
    if (this.sendStall.expired(this.transport.needsDrain, now, this.host.options.sendTimeout)) {
      return this.destroy(new Error(`the client took none of the response for ${this.host.options.sendTimeout} ms (sendTimeout)`));
    }
    if (this.deadlineKind === DEADLINE_NONE || now < this.deadline) return;
    const kind = this.deadlineKind;
    this.deadlineKind = DEADLINE_NONE;
    if (kind === DEADLINE_IDLE || (kind === DEADLINE_HEAD && !this.receiving)) return this.end();
    // Node answers 408 when nothing of the response went out yet; so do we.
    if (this.exchange?.responseStarted) return this.transport.destroy();
    this.exchange?.cancel(new Error('the request timed out'));
    this.closeWith(408, 'ERR_REQUEST_TIMEOUT');
  }

  /** Graceful shutdown: an idle connection closes now, a busy one after its response. */
  shutdown(): void {
    if (this.upgraded) return this.upgraded.shutdown();
    if (this.closed) return;
    const exchange = this.exchange;
    if (!exchange) return this.end();
    // A request whose client already left is not in flight: nobody waits for its answer.
    if (this.ending && !exchange.responseDone) return this.destroy();
    if (!exchange.responseStarted) exchange.keepAlive = false;
  }

  destroy(error?: unknown): void {
    if (this.upgraded) return this.upgraded.destroy();
    if (error !== undefined) this.exchange?.cancel(error instanceof Error ? error : new Error(String(error)));
    this.transport.destroy();
  }

  // ---- WriteTarget ----

  drained(): Promise<void> {
    // A transport that took its queue since the write that filled it (a writer can be turns
    // behind its write, the Deno transport's flush ahead of it) will not say drain again.
    if (this.closed || !this.transport.needsDrain) return Promise.resolve();
    return new Promise((resolve) => (this.drainWaiters ??= []).push(resolve));
  }

  // ---- internals ----

  setPaused(reason: number, on: boolean): void {
    const before = this.pausedBy;
    this.pausedBy = on ? before | reason : before & ~reason;
    if (!before && this.pausedBy) this.transport.pause();
    else if (before && !this.pausedBy && !this.closed) this.transport.resume();
  }

  private setDeadline(kind: number, at: number): void {
    this.deadlineKind = kind;
    this.deadline = at;
  }

  /** RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host; HTTP/1.0 may have none. */
  private hostOf(head: RequestHead): string {
    const at = head.indexOfField('host');
    if (at >= 0 && head.indexOfField('host', at + 1) >= 0) throw new HttpParseError('ERR_INVALID_HOST', 'more than one Host field');
    // The same bytes as the last valid Host give the same string: the checks and the URL's origin
    // cache then compare it by identity (a new string compares with an old one in ~55 ns here).
    const host = at < 0 ? undefined : head.headerValueEquals(at, lastHostBytes) ? lastHost : head.headerValue(at);
    if (host === undefined && head.versionMinor === 1) throw new HttpParseError('ERR_INVALID_HOST', 'an HTTP/1.1 request without Host');
    // RFC 9110 §4.2.1: an http URI with an empty host is invalid, and so is a Host no URL parser takes.
    if (host !== undefined && !isValidHost(host)) throw new HttpParseError('ERR_INVALID_HOST', `an invalid Host ${JSON.stringify(host)}`);
    if (host !== undefined && host !== lastHost) {
      lastHost = host;
      lastHostBytes = latin1Bytes(host);
    }
    // RFC 9112 §3.2.2: an absolute-form target names the origin itself; it must be an http(s) URL.
    const target = head.url;
    // (CONNECT's authority-form is answered 501 later.)
    if (target.charCodeAt(0) !== 47 /* / */ && target !== '*' && head.method !== 'CONNECT' && !isValidAbsoluteTarget(target)) {
      throw new HttpParseError('ERR_INVALID_TARGET', 'an absolute-form target that is not an http(s) URL with a valid host');
    }
    return host ?? 'localhost';
  }

  /** Runs parser work; a parse error is answered with its status and ends the connection. */
  private parse(work: () => void): void {
    try {
      work();
    } catch (error) {
      // Once the connection is ending, what follows is not read (e.g. bytes after `Connection: close`).
      if (this.ending || this.closed) return;
      if (!(error instanceof HttpParseError)) return this.destroy(error);
      const exchange = this.exchange;
      if (exchange && !exchange.requestComplete) exchange.body?.fail(error);
      // A broken body after the response began cannot be answered any more: cut mid-response,
      // closed behind a response already sent (a body read on after it: one answer per request).
      if (exchange?.responseStarted && !exchange.responseDone) return this.destroy(error);
      if (exchange?.responseDone && !exchange.requestComplete) return this.end();
      this.closeWith(statusForParseError(error.code), error.code);
    }
  }

  /** Answers with a plain-text error and closes: used when the request cannot be trusted. */
  private closeWith(status: number, code: string): void {
    if (this.closed) return;
    const exchange = this.exchange;
    if (exchange) exchange.responseStarted = exchange.responseDone = true;
    const text = plainText(status, code);
    this.transport.write(writeResponseHead({ status, headers: PLAIN_FIELDS, body: text.length, keepAlive: false }) + text);
    exchange?.responseSent();
    this.end();
  }

  /** Takes no more requests; sends what is queued and closes. */
  private end(): void {
    this.ending = true;
    this.deadlineKind = DEADLINE_NONE;
    this.parser.pause();
    this.transport.end();
  }

  private sendResponse(exchange: Http1Exchange, response: Response): void {
    if (this.closed || exchange.responseStarted) return discardResponse(response);
    const upgrade = exchange.upgrade;
    if (upgrade) {
      exchange.upgrade = null;
      if (acceptsUpgrade(response, upgrade)) return this.switchToWebSocket(exchange, response, upgrade);
      abandonUpgrade(upgrade);
    }
    exchange.responseStarted = true;
    if (!exchange.requestComplete && exchange.body) {
      // A client waiting for 100 Continue never sent its body: the connection cannot be reused.
      // Nor is it worth it behind a large unread body (DRAIN_LIMIT); one the handler is reading
      // whole comes in anyway.
      const head = exchange.head;
      const unread = head.bodyKind === 'chunked' ? Infinity : head.contentLength - exchange.received;
      if (exchange.body.awaitingContinue || (unread > DRAIN_LIMIT && !exchange.body.collecting)) exchange.keepAlive = false;
    }
    let pending: Promise<void> | undefined;
    const options: WriteOptions = {
      headRequest: exchange.head.method === 'HEAD',
      keepAlive: exchange.keepAlive,
      http10: exchange.head.versionMinor === 0,
      keepAliveTimeout: Math.floor(this.host.options.keepAliveTimeout / 1000),
    };
    try {
      pending = writeResponse(this, response, options);
      exchange.keepAlive = options.keepAlive;
      exchange.responseBody = options.streamBody ?? null;
    } catch (error) {
      // The head was refused before a byte went out (e.g. a header with CR LF in it).
      exchange.responseStarted = false;
      return this.sendResponse(exchange, this.host.internalError(error));
    }
    if (!pending) return this.responseDone(exchange);
    pending.then(
      () => {
        // The writer may have said close (a body of unknown length to an HTTP/1.0 client); the
        // connection may have since (the client ended it): either way it closes.
        exchange.keepAlive &&= options.keepAlive;
        this.responseDone(exchange);
      },
      (error: unknown) => {
        // The body failed before its head went out (the head waits for the first chunk): nothing
        // was sent, so the client gets a 500, as for a handler that threw.
        if (!options.headWritten && !this.closed) {
          exchange.responseStarted = false;
          return this.sendResponse(exchange, this.host.internalError(error));
        }
        this.host.reportError(error, exchange.request);
        // Cut: what went out before is sent, then the connection closes with the framing unfinished
        // (no last chunk, or short of its length: an incomplete message, RFC 9112 §8). Destroyed
        // at once, the Deno transport dropped what it had not flushed yet.
        exchange.cancel(error instanceof Error ? error : new Error(String(error)));
        this.end();
      },
    );
  }

  private responseDone(exchange: Http1Exchange): void {
    exchange.responseDone = true;
    exchange.responseSent();
    if (this.closed) return;
    // Answered before the body ended: a body the handler is reading whole goes on to it (its end,
    // in onComplete, then closes or goes on); any other is dropped as it comes.
    if (!exchange.requestComplete && exchange.body && !exchange.body.dropUnlessRead()) return;
    if (!exchange.keepAlive) return this.end();
    if (exchange.requestComplete) return this.nextRequest();
  }

  /** Answers 101 Switching Protocols (RFC 6455 §4.2.2) and hands the transport to a WebSocket connection. */
  private switchToWebSocket(exchange: Http1Exchange, response: Response, upgrade: PendingUpgrade): void {
    let head: string;
    try {
      head = writeResponseHead({ status: 101, headers: upgradeFields(response, upgrade), body: 'none' });
    } catch (error) {
      abandonUpgrade(upgrade);
      return this.sendResponse(exchange, this.host.internalError(error));
    }
    discardResponse(response);
    exchange.responseStarted = exchange.responseDone = true;
    this.transport.write(head);
    exchange.responseSent();
    this.deadlineKind = DEADLINE_NONE;
    this.exchange = null;
    // Bytes after the head wait in the paused parser; they are the WebSocket's now.
    this.parser.pause();
    this.pausedBy = 0;
    this.transport.resume();
    const codec = this.host.webSocketDeflate;
    if (upgrade.deflate && !codec) {
      abandonUpgrade(upgrade);
      return this.sendResponse(exchange, this.host.internalError(new Error('permessage-deflate was agreed, but the adapter has no zlib')));
    }
    const deflate = upgrade.deflate && codec ? { codec, params: upgrade.deflate } : null;
    const connection = new WebSocketConnection(this.transport, this.host, upgrade.socket, upgrade.options, deflate);
    this.upgraded = connection;
    if (!this.parsing) this.handOver(connection);
  }

  /** Opens the WebSocket and gives it what the client sent after its handshake. */
  private handOver(connection: WebSocketConnection): void {
    if (this.handedOver) return;
    this.handedOver = true;
    const held = this.parser.takeHeld();
    this.parser = RETIRED_PARSER;
    // The socket's events go to the WebSocket now, and this connection is let go (an idle
    // WebSocket would otherwise hold it for hours); it forwards what reaches it on the way.
    this.host.handOver(this.transport, connection);
    connection.start();
    if (held?.length) connection.onData(held);
    // The client's end came while the handler decided: its frames are read, then it is closed
    // as any client that ends without a Close (1006), as ws does; it sat open until idleTimeout.
    if (this.clientEnded) connection.onEnd();
  }

  /** The exchange is over: take the next pipelined request, or wait idle. */
  private nextRequest(): void {
    if (this.closed) return;
    this.exchange = null;
    this.receiving = false;
    if (this.ending || this.host.closing) return this.end();
    this.setDeadline(DEADLINE_IDLE, now() + this.host.options.keepAliveTimeout);
    if (this.transport.needsDrain) {
      // The peer reads slowly: read no more requests until the socket drains.
      this.parser.pause();
      this.setPaused(PAUSE_WRITE, true);
      return;
    }
    this.setPaused(PAUSE_PIPELINE, false);
    if (this.parser.isPaused) {
      this.requestStart = now();
      this.parse(() => this.parser.resume());
      // The client's end waited behind the bytes read just now.
      if (this.clientEnded && !this.ending && !this.closed && !this.parser.holdsInput) this.takeClientEnd();
    }
  }
}
