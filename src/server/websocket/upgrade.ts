// `upgradeWebSocket(request)`: the web-standard way to accept a WebSocket (the shape of
// Deno.upgradeWebSocket). It checks the handshake, makes the socket and the response, and leaves
// the upgrade on the request's exchange; the connection switches protocols when the handler
// returns that response (or one a middleware re-made from it: it is recognised by its
// Sec-WebSocket-Accept field, not by identity).
//
// The response's status is 200, not 101: the Fetch standard's Response refuses 101 (a RangeError),
// so middleware that re-makes a response (`new Response(res.body, res)`, as hono's cors does) would
// fail on a 101. The connection writes 101 Switching Protocols on HTTP/1.1.
import { checkOptionNames, InvalidOptionError, OptionRangeError } from '../../errors.js';
import { fieldList } from '../../fields.js';
import { negotiateDeflate, type DeflateParams } from '../../websocket/deflate.js';
import { acceptValue, checkHandshake, WebSocketHandshakeError } from '../../websocket/handshake.js';
import { requestExchangeOf } from '../request.js';
import type { ResolvedWebSocketOptions } from './connection.js';
import { socketControl, ServerWebSocket } from './socket.js';

/** The options of upgradeWebSocket. */
export interface WebSocketOptions {
  /** The subprotocol to answer with; it must be one the client offered. Default: none. */
  protocol?: string;
  /**
   * Seconds without a frame from the client before the server pings it, and again before it cuts
   * the connection (as Deno's `idleTimeout`). Default 120; 0 turns it off.
   */
  idleTimeout?: number;
  /**
   * The most bytes of one message, all its frames together; a larger one closes the connection
   * with 1009. Default 1 MiB: a message is held whole before it is delivered, so this bounds the
   * memory each connection can make the server hold (ws's 100 MiB lets 100 clients take 10 GiB).
   */
  maxPayload?: number;
  /**
   * The most frames one message may be split into; more close the connection with 1008. Each
   * frame costs a header's work for as little as one byte of payload. Default 4,096: browsers and
   * `ws` send a message in one frame, and a streamed 64 MiB message goes in 16 KiB frames.
   */
  maxFragments?: number;
  /**
   * The most bytes the socket may hold unsent (`bufferedAmount`) when a message is sent: a send
   * over it closes the connection (the socket gets `error` with ERR_WS_SEND_BUFFER_FULL, then
   * close 1006) instead of queueing for a client that is that far behind, since an app that
   * sends without looking at `bufferedAmount` would hold everything for a client that reads a
   * little now and then. A message of any size goes when the socket holds less. Default 16 MiB
   * (Bun's `backpressureLimit`, which drops the message instead); Infinity turns it off.
   */
  maxBufferedAmount?: number;
  /**
   * permessage-deflate (RFC 7692) when the client offers it: messages of 1 KiB and more are sent
   * compressed, compressed ones are inflated (the inflated size held to maxPayload as it grows).
   * Each message is compressed on its own (no context takeover), so idle connections hold no zlib
   * state. Default false: see the README for what it costs per message.
   */
  compression?: boolean;
}

/** idleTimeout's default, in seconds (Deno's). */
export const DEFAULT_IDLE_TIMEOUT_S = 120;
/** maxPayload's default: 1 MiB. */
export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/** maxFragments' default. */
export const DEFAULT_MAX_FRAGMENTS = 4_096;
/** maxBufferedAmount's default: 16 MiB. */
export const DEFAULT_MAX_BUFFERED_AMOUNT = 16 * 1024 * 1024;

/** An accepted handshake, waiting for the handler's response. */
export interface PendingUpgrade {
  readonly socket: ServerWebSocket;
  /** The Sec-WebSocket-Accept value the response carries (HTTP/1.1). */
  readonly accept: string;
  readonly options: ResolvedWebSocketOptions;
  /** permessage-deflate as agreed, or null. */
  readonly deflate: DeflateParams | null;
}

const OPTIONS = ['protocol', 'idleTimeout', 'maxPayload', 'maxFragments', 'maxBufferedAmount', 'compression'];
/** The last options resolved: every connection upgraded with the same values shares them (one object less per idle socket). */
let lastResolved: ResolvedWebSocketOptions = Object.freeze({
  maxPayload: DEFAULT_MAX_PAYLOAD,
  maxFragments: DEFAULT_MAX_FRAGMENTS,
  maxBufferedAmount: DEFAULT_MAX_BUFFERED_AMOUNT,
  idleTimeout: DEFAULT_IDLE_TIMEOUT_S * 1000,
});

function resolveOptions(options: WebSocketOptions): ResolvedWebSocketOptions {
  checkOptionNames(options, OPTIONS, 'upgradeWebSocket()');
  const idle = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_S;
  if (typeof idle !== 'number' || !(idle >= 0) || !Number.isFinite(idle))
    throw new OptionRangeError('idleTimeout', `idleTimeout must be a number of seconds >= 0, got ${String(idle)}`);
  if (options.compression !== undefined && typeof options.compression !== 'boolean')
    throw new InvalidOptionError('compression', `compression must be a boolean, got ${typeof options.compression}`);
  const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
  if (!Number.isSafeInteger(maxPayload) || maxPayload < 1)
    throw new OptionRangeError('maxPayload', `maxPayload must be a positive integer, got ${String(maxPayload)}`);
  const maxFragments = options.maxFragments ?? DEFAULT_MAX_FRAGMENTS;
  if (!Number.isSafeInteger(maxFragments) || maxFragments < 1)
    throw new OptionRangeError('maxFragments', `maxFragments must be a positive integer, got ${String(maxFragments)}`);
  const maxBufferedAmount = options.maxBufferedAmount ?? DEFAULT_MAX_BUFFERED_AMOUNT;
  if (maxBufferedAmount !== Infinity && (!Number.isSafeInteger(maxBufferedAmount) || maxBufferedAmount < 1))
    throw new OptionRangeError(
      'maxBufferedAmount',
      `maxBufferedAmount must be a positive integer or Infinity, got ${String(maxBufferedAmount)}`,
    );
  const last = lastResolved;
  if (
    last.maxPayload !== maxPayload ||
    last.maxFragments !== maxFragments ||
    last.maxBufferedAmount !== maxBufferedAmount ||
    last.idleTimeout !== idle * 1000
  ) {
    lastResolved = Object.freeze({ maxPayload, maxFragments, maxBufferedAmount, idleTimeout: idle * 1000 });
  }
  return lastResolved;
}

/**
 * Accepts a WebSocket upgrade of `request` (received by a wirespeed server): return `response`
 * from the handler and `socket` opens once the handshake's answer is out. Throws a TypeError
 * (WebSocketHandshakeError, whose `status` is the answer to give) when the request is not a
 * valid upgrade.
 */
export function upgradeWebSocket(request: Request, options: WebSocketOptions = {}): { socket: ServerWebSocket; response: Response } {
  const resolved = resolveOptions(options);
  const exchange = requestExchangeOf(request);
  if (!exchange) throw new TypeError('upgradeWebSocket: not a request a wirespeed server can upgrade to a WebSocket');
  if (exchange.upgrade) throw new TypeError('upgradeWebSocket: the request was already upgraded');
  const http2 = exchange.extendedConnect;
  const handshake = checkHandshake(request, http2);
  if (exchange.body) throw new WebSocketHandshakeError('a handshake request has no body (§4.1)');
  const protocol = options.protocol;
  if (protocol !== undefined && !handshake.protocols.includes(protocol)) {
    throw new TypeError(`upgradeWebSocket: the client did not offer the subprotocol ${JSON.stringify(protocol)}`);
  }
  // HTTP/2 has no key (RFC 8441 §5): a token of ours marks the response instead, and is not sent.
  const accept = handshake.key ? acceptValue(handshake.key) : `h2-${crypto.randomUUID()}`;
  const deflate = options.compression ? negotiateDeflate(request.headers.get('sec-websocket-extensions')) : null;
  const url = request.url.replace(/^http/, 'ws');
  const socket = new ServerWebSocket(url, protocol ?? '', deflate?.answer ?? '');
  const headers: [string, string][] = [
    ['upgrade', 'websocket'],
    ['connection', 'Upgrade'],
    ['sec-websocket-accept', accept],
  ];
  if (protocol) headers.push(['sec-websocket-protocol', protocol]);
  if (deflate) headers.push(['sec-websocket-extensions', deflate.answer]);
  exchange.upgrade = { socket, accept, options: resolved, deflate };
  return { socket, response: new Response(null, { headers }) };
}

/** Whether `response` answers the pending upgrade (it carries its accept value). */
export function acceptsUpgrade(response: Response, pending: PendingUpgrade): boolean {
  return response.headers.get('sec-websocket-accept') === pending.accept;
}

/** The handler answered without the upgrade: the socket that never opened is closed (1006). */
export function abandonUpgrade(pending: PendingUpgrade): void {
  socketControl.closed(pending.socket, 1006, '', false);
}

/** Fields of the upgrade answer that are the handshake's, or framing: the connection writes its own. */
const HANDSHAKE_FIELDS = new Set(['upgrade', 'connection', 'sec-websocket-accept', 'content-length', 'transfer-encoding', 'keep-alive']);

/** The 101's fields: the handshake's, then whatever else the response carries (cookies, a middleware's headers). */
export function upgradeFields(response: Response, pending: PendingUpgrade): [string, string][] {
  return [['Upgrade', 'websocket'], ['Connection', 'Upgrade'], ['Sec-WebSocket-Accept', pending.accept], ...answerFields(response)];
}

/** The response's own fields, without the handshake's and framing ones (HTTP/2's 200 carries these). */
export function answerFields(response: Response): [string, string][] {
  return fieldList(response.headers).filter(([name]) => !HANDSHAKE_FIELDS.has(name));
}
