// Starts one bench server on Bun: `bun bun-servers.js NAME PORT`. Prints "ready" once listening.
import { fetchAppSync } from './app.js';

interface BunWebSocket {
  send(data: string | Uint8Array): void;
}
interface BunServer {
  upgrade(request: Request): boolean;
}
interface BunServe {
  serve(options: {
    port: number;
    hostname: string;
    fetch: (request: Request, server: BunServer) => Response | Promise<Response> | undefined;
    websocket?: { message(ws: BunWebSocket, data: string | Uint8Array): void };
  }): unknown;
}
const Bun = (globalThis as unknown as { Bun: BunServe }).Bun;
const [name, portText] = process.argv.slice(2);

switch (name) {
  case 'bun-serve':
    Bun.serve({ port: Number(portText), hostname: '127.0.0.1', fetch: fetchAppSync });
    break;
  case 'bun-ws':
    Bun.serve({
      port: Number(portText),
      hostname: '127.0.0.1',
      fetch: (request, server) => (server.upgrade(request) ? undefined : new Response('not a WebSocket', { status: 400 })),
      websocket: { message: (ws, data) => ws.send(data) },
    });
    break;
  default:
    throw new Error(`unknown bun server ${name}`);
}
console.log('ready');
