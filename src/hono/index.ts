// wirespeed/hono: what a hono app needs from the server besides `app.fetch`: the client's address
// (the server passes the request's info as the handler's second argument, which hono makes
// `c.env`), hono's WebSocket helper and static files (serve-static.ts, through node:fs). The
// same on Node and Deno.
import { defineWebSocketHelper, WSContext, type UpgradeWebSocket, type WSMessageReceive, type WSReadyState } from 'hono/ws';
import type { ConnectionInfo } from '../server/connection.js';
import type { ServerWebSocket } from '../server/websocket/socket.js';
import { upgradeWebSocket as upgradeRequest, type WebSocketOptions } from '../server/websocket/upgrade.js';
import { hasToken, WEBSOCKET_VERSION, WebSocketHandshakeError } from '../websocket/handshake.js';

export { serveStatic, type ServeStaticOptions } from './serve-static.js';

/** hono's ConnInfo shape (hono/conninfo). */
export interface ConnInfo {
  remote: {
    address?: string;
    port?: number;
    addressType?: 'IPv4' | 'IPv6';
    transport?: 'tcp' | 'udp';
  };
}

/**
 * The client's address for a hono app served by wirespeed, as `getConnInfo` from
 * `@hono/node-server/conninfo` gives it: `app.get('/', (c) => c.text(getConnInfo(c).remote.address!))`.
 */
export function getConnInfo(c: { env: unknown }): ConnInfo {
  const info = c.env as Partial<ConnectionInfo> | undefined;
  const address = info?.remoteAddress;
  if (typeof address !== 'string')
    throw new TypeError('getConnInfo: c.env is not the request info of a wirespeed server (pass app.fetch to serve())');
  // A Unix socket's peer has no address (as @hono/node-server gives it there: all undefined).
  if (address === '') return { remote: {} };
  return { remote: { address, port: info!.remotePort, addressType: address.includes(':') ? 'IPv6' : 'IPv4', transport: 'tcp' } };
}

/**
 * hono's `upgradeWebSocket` helper for apps served by wirespeed (Node or Deno), as hono/deno's is
 * for Deno.serve: `app.get('/ws', upgradeWebSocket((c) => ({ onMessage(event, ws) { ws.send(event.data) } })))`.
 * A request that is not a valid upgrade is answered 400 (426 for another protocol version).
 */
export const upgradeWebSocket: UpgradeWebSocket<ServerWebSocket, WebSocketOptions> = defineWebSocketHelper<
  ServerWebSocket,
  WebSocketOptions
>((c, events, options) => {
  if (!hasToken(c.req.header('upgrade') ?? null, 'websocket')) return;
  let upgraded: { socket: ServerWebSocket; response: Response };
  try {
    upgraded = upgradeRequest(c.req.raw, options);
  } catch (error) {
    if (!(error instanceof WebSocketHandshakeError)) throw error;
    const headers: Record<string, string> = error.status === 426 ? { 'sec-websocket-version': WEBSOCKET_VERSION } : {};
    return new Response(error.message, { status: error.status, headers });
  }
  const { socket, response } = upgraded;
  // hono's WSContext says binary data arrives as ArrayBuffer.
  socket.binaryType = 'arraybuffer';
  const context = new WSContext<ServerWebSocket>({
    send: (source) => socket.send(source),
    close: (code, reason) => socket.close(code, reason),
    raw: socket,
    get readyState() {
      return socket.readyState as WSReadyState;
    },
    get protocol() {
      return socket.protocol;
    },
    url: socket.url,
  });
  socket.onopen = (event) => events.onOpen?.(event, context);
  socket.onmessage = (event) => events.onMessage?.(event as MessageEvent<WSMessageReceive>, context);
  socket.onclose = (event) => events.onClose?.(event as CloseEvent, context);
  socket.onerror = (event) => events.onError?.(event, context);
  return response;
});
