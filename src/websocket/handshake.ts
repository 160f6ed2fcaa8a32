// The opening handshake (RFC 6455 §4.2): what makes a request a valid upgrade, and the values
// the server answers with. Over HTTP/1.1 the request is a GET with Upgrade and Connection fields
// (§4.2.1); over HTTP/2 it is an extended CONNECT with :protocol = websocket (RFC 8441 §4).
import { TOKEN } from '../fields.js';
import { latin1Bytes } from '../latin1.js';
import { wasmCore } from '../wasm/module.js';

/** §4.1: the only version; a client asking for another gets 426 with this in Sec-WebSocket-Version. */
export const WEBSOCKET_VERSION = '13';
/** §4.2.1 item 5: base64 of 16 bytes (22 characters, the last with 4 zero bits, then '=='). */
const KEY = /^[A-Za-z0-9+/]{21}[AQgw]==$/;

/** Why a request is not a WebSocket upgrade. `status` is the answer it deserves: 400, or 426 for a version we do not speak. */
export class WebSocketHandshakeError extends TypeError {
  readonly code = 'ERR_WS_HANDSHAKE';
  constructor(
    message: string,
    readonly status: 400 | 426 = 400,
  ) {
    super(message);
    this.name = 'WebSocketHandshakeError';
  }
}

/** Whether the comma-separated `value` lists `token` (case-insensitive, RFC 9110 §5.6.1). */
export function hasToken(value: string | null, token: string): boolean {
  if (!value) return false;
  for (const item of value.split(',')) if (item.trim().toLowerCase() === token) return true;
  return false;
}

/** The subprotocols a client offers, in its order of preference (§4.1, §11.3.4): tokens, no repeats. */
export function offeredProtocols(value: string | null): string[] {
  if (value === null) return [];
  const protocols = value.split(',').map((item) => item.trim());
  for (const protocol of protocols) {
    if (!TOKEN.test(protocol)) throw new WebSocketHandshakeError(`Sec-WebSocket-Protocol has an invalid item ${JSON.stringify(protocol)}`);
  }
  if (new Set(protocols).size !== protocols.length) throw new WebSocketHandshakeError('Sec-WebSocket-Protocol repeats an item');
  return protocols;
}

/** What checkHandshake reads of a request. */
export interface HandshakeRequest {
  readonly method: string;
  readonly headers: Headers;
}

/** What a valid upgrade request asks for. */
export interface Handshake {
  /** Sec-WebSocket-Key (HTTP/1.1 only: HTTP/2 has none, RFC 8441 §5). */
  readonly key: string | null;
  readonly protocols: string[];
}

/**
 * Checks an upgrade request: an HTTP/1.1 GET (§4.2.1), or with `http2` an extended CONNECT whose
 * :protocol the connection checked (RFC 8441 §5: no key, no Upgrade). Throws WebSocketHandshakeError.
 */
export function checkHandshake(request: HandshakeRequest, http2: boolean): Handshake {
  const headers = request.headers;
  const version = headers.get('sec-websocket-version');
  if (version !== WEBSOCKET_VERSION) {
    throw new WebSocketHandshakeError(
      `Sec-WebSocket-Version is ${version === null ? 'missing' : JSON.stringify(version)}, not 13 (§4.2.2)`,
      426,
    );
  }
  const protocols = offeredProtocols(headers.get('sec-websocket-protocol'));
  // The connection already checked the extended CONNECT and its :protocol.
  if (http2) return { key: null, protocols };
  if (request.method !== 'GET') throw new WebSocketHandshakeError(`the handshake is a GET request, not ${request.method} (§4.2.1)`);
  if (!hasToken(headers.get('upgrade'), 'websocket')) throw new WebSocketHandshakeError('no "websocket" in the Upgrade field (§4.2.1)');
  if (!hasToken(headers.get('connection'), 'upgrade')) throw new WebSocketHandshakeError('no "Upgrade" in the Connection field (§4.2.1)');
  const key = headers.get('sec-websocket-key');
  if (key === null || !KEY.test(key)) throw new WebSocketHandshakeError('Sec-WebSocket-Key is not the base64 of 16 bytes (§4.2.1)');
  return { key, protocols };
}

/** Sec-WebSocket-Accept for `key` (§4.2.2): base64 of SHA-1(key + GUID), hashed in wasm. */
export function acceptValue(key: string): string {
  const digest = wasmCore().wsAccept(latin1Bytes(key));
  return btoa(String.fromCharCode(...digest));
}
