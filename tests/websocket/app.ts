// The WebSocket routes of the test app (tests/server/app.ts serves them under /ws/), on Node and
// on Deno alike. What the sockets saw (events, close codes) is reported at /ws/stats.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { upgradeWebSocket as honoUpgradeWebSocket } from '../../src/hono/index.js';
import { WebSocketHandshakeError } from '../../src/websocket/handshake.js';
import { upgradeWebSocket } from '../../src/server/websocket/upgrade.js';
import type { ConnectionInfo } from '../../src/server/connection.js';

/** Events seen by the sockets, by the `id` query parameter of their request. */
const events = new Map<string, string[]>();
const record = (id: string, event: string) => {
  const list = events.get(id) ?? [];
  list.push(event);
  events.set(id, list);
};

const hono = new Hono().basePath('/ws/hono');
hono.use(cors());
hono.get(
  '/echo',
  honoUpgradeWebSocket(() => ({
    onMessage(event, ws) {
      ws.send(typeof event.data === 'string' ? `hono: ${event.data}` : (event.data as ArrayBuffer));
    },
  })),
);

/**
 * On Deno, what an app moving from Deno.serve already calls: Deno.upgradeWebSocket itself, and
 * hono/deno's helper (which calls it). hono/deno reads the Deno namespace when loaded, so only
 * there.
 */
type DenoUpgrade = (request: Request, options?: { protocol?: string }) => { socket: WebSocket; response: Response };
const deno = (globalThis as { Deno?: { upgradeWebSocket: DenoUpgrade } }).Deno;
const honoOnDeno = deno ? await denoHonoApp() : null;

async function denoHonoApp(): Promise<Hono> {
  const { upgradeWebSocket: denoHelper } = await import('hono/deno');
  return new Hono().get(
    '/ws/deno/hono',
    denoHelper(() => ({
      onMessage(event, ws) {
        ws.send(`hono/deno: ${String(event.data)} (${ws.protocol ?? ''})`);
      },
    })),
  );
}

function denoNativeRoute(request: Request): Response {
  if (!deno) return new Response('Deno only', { status: 404 });
  const { socket, response } = deno.upgradeWebSocket(request, { protocol: request.headers.get('sec-websocket-protocol') ?? undefined });
  socket.onmessage = (event) => socket.send(`Deno.upgradeWebSocket: ${String(event.data)}`);
  return response;
}

/** Sends 64 KiB every 10 ms while the socket is open, as a feed that does not look at bufferedAmount. */
function push(socket: { readonly readyState: number; send(data: Uint8Array): void }): void {
  const chunk = new Uint8Array(64 * 1024);
  const timer = setInterval(() => (socket.readyState === 1 ? socket.send(chunk) : clearInterval(timer)), 10);
}

export async function webSocketRoute(request: Request, url: URL, info: ConnectionInfo): Promise<Response> {
  const q = url.searchParams;
  const id = q.get('id') ?? '';
  switch (url.pathname) {
    case '/ws/stats':
      return Response.json(Object.fromEntries(events));
    case '/ws/echo': {
      // An upgrade that waits (an auth lookup): what the heap holds of what the client sent meanwhile.
      const heapBefore = process.memoryUsage().heapUsed;
      if (q.has('wait')) await new Promise((resolve) => setTimeout(resolve, Number(q.get('wait'))));
      const heapGrew = process.memoryUsage().heapUsed - heapBefore;
      let upgraded;
      try {
        upgraded = upgradeWebSocket(request, {
          protocol: q.get('protocol') ?? undefined,
          maxPayload: q.has('maxPayload') ? Number(q.get('maxPayload')) : undefined,
          maxFragments: q.has('maxFragments') ? Number(q.get('maxFragments')) : undefined,
          maxBufferedAmount: q.has('maxBuffered') ? Number(q.get('maxBuffered')) : undefined,
          idleTimeout: q.has('idle') ? Number(q.get('idle')) : undefined,
          compression: q.has('deflate'),
        });
      } catch (error) {
        if (!(error instanceof WebSocketHandshakeError)) throw error;
        const headers: Record<string, string> = error.status === 426 ? { 'sec-websocket-version': '13' } : {};
        return new Response(error.message, { status: error.status, headers });
      }
      const { socket, response } = upgraded;
      socket.binaryType = 'arraybuffer';
      socket.onopen = () => record(id, `open ${socket.protocol}`);
      socket.onmessage = (event) => {
        const data = (event as MessageEvent).data as string | ArrayBuffer;
        if (data === 'close-me') return socket.close(4000, 'asked to');
        if (data === 'blob') return socket.send(new Blob(['from ', 'a blob']));
        if (data === 'throw') throw new Error('onmessage threw');
        if (data === 'url') return socket.send(socket.url);
        if (data === 'remote-port') return socket.send(String(info.remotePort));
        if (data === 'push') return push(socket);
        socket.send(data);
      };
      socket.onerror = (event) => record(id, `error ${(event as Event & { error?: { code?: string } }).error?.code ?? ''}`);
      socket.onclose = (event) => {
        const close = event as CloseEvent;
        record(id, `close ${close.code} ${close.wasClean} ${close.reason}`);
      };
      response.headers.set('set-cookie', 'ws=1');
      if (q.has('wait')) response.headers.set('x-heap-grew-mb', String(Math.round(heapGrew / 1e6)));
      return response;
    }
    case '/ws/refused': {
      // Accepts the handshake, then answers something else: the socket never opens.
      const { socket } = upgradeWebSocket(request);
      socket.onclose = (event) => record(id, `close ${(event as CloseEvent).code}`);
      return new Response('no upgrade for you', { status: 403 });
    }
    case '/ws/not-upgraded':
      // A plain answer to a plain GET (the parser must go on with the next request).
      return new Response('plain');
  }
  if (url.pathname.startsWith('/ws/hono/')) return hono.fetch(request);
  if (url.pathname === '/ws/deno/native') return denoNativeRoute(request);
  if (url.pathname === '/ws/deno/hono' && honoOnDeno) return honoOnDeno.fetch(request);
  return new Response('not found', { status: 404 });
}
