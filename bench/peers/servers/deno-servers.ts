// Starts one bench server on Deno: `deno run -A deno-servers.js NAME PORT`. Prints "ready".
import { fetchAppSync, RAW_CLOSE_REQUEST, RAW_HELLO_RESPONSE } from './app.js';
import { BENCH_TLS } from './tls-fixture.js';

interface DenoConn {
  read(buffer: Uint8Array): Promise<number | null>;
  write(bytes: Uint8Array): Promise<number>;
  setNoDelay(noDelay: boolean): void;
  close(): void;
}
interface DenoServe {
  args: string[];
  exit(code: number): never;
  env: { set(name: string, value: string): void };
  listen(options: { port: number; hostname: string }): AsyncIterable<DenoConn>;
  upgradeWebSocket(request: Request): { socket: WebSocket; response: Response };
  serve(
    options: { port: number; hostname: string; onListen: () => void; cert?: string; key?: string },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
}
const Deno = (globalThis as unknown as { Deno: DenoServe }).Deno;
const [name, portText] = Deno.args;
const port = Number(portText);
const hostname = '127.0.0.1';

const HELLO_RESPONSE = new TextEncoder().encode(RAW_HELLO_RESPONSE);
const GET = 'GET '.split('').map((char) => char.charCodeAt(0));

/** Request starts ("GET ") in `bytes`: a read holds as many as the client pipelined. */
function requestStarts(bytes: Uint8Array): number {
  let count = 0;
  for (let at = bytes.indexOf(GET[0]); at !== -1; at = bytes.indexOf(GET[0], at + 1)) {
    if (bytes[at + 1] === GET[1] && bytes[at + 2] === GET[2] && bytes[at + 3] === GET[3]) count++;
  }
  return count;
}

const CLOSE_REQUEST = new TextEncoder().encode(RAW_CLOSE_REQUEST);

/** Whether a read holds `Connection: close` (then the raw server closes after its answer). */
function closeAsked(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(CLOSE_REQUEST[0]); at !== -1; at = bytes.indexOf(CLOSE_REQUEST[0], at + 1)) {
    if (CLOSE_REQUEST.every((byte, i) => bytes[at + i] === byte)) return true;
  }
  return false;
}

/**
 * The socket layer's ceiling on Deno, as raw-net is on Node: a `Deno.listen` loop that answers
 * every request start in a read with the hello bytes, parsing nothing. What any HTTP server
 * written in JavaScript over Deno's sockets costs at least.
 */
function serveRaw(): void {
  const listener = Deno.listen({ port, hostname });
  void (async () => {
    for await (const conn of listener) void answerRaw(conn);
  })();
}

async function answerRaw(conn: DenoConn): Promise<void> {
  conn.setNoDelay(true);
  const buffer = new Uint8Array(64 * 1024);
  try {
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      const count = requestStarts(buffer.subarray(0, n));
      if (count === 0) continue;
      const out = count === 1 ? HELLO_RESPONSE : new Uint8Array(count * HELLO_RESPONSE.length);
      for (let i = 0; count > 1 && i < count; i++) out.set(HELLO_RESPONSE, i * HELLO_RESPONSE.length);
      for (let sent = 0; sent < out.length;) sent += await conn.write(out.subarray(sent));
      if (count === 1 && closeAsked(buffer.subarray(0, n))) break;
    }
  } catch {
    // the client went away
  }
  try {
    conn.close();
  } catch {
    // already closed
  }
}

/** WebSocket echo (binary as ArrayBuffer, as a server app would take it). */
interface EchoSocket {
  binaryType: string;
  onmessage: ((event: MessageEvent) => unknown) | null;
  send(data: string | ArrayBuffer): void;
}
function webSocketEcho({ socket, response }: { socket: EchoSocket; response: Response }) {
  socket.binaryType = 'arraybuffer';
  socket.onmessage = (event) => socket.send(event.data as string | ArrayBuffer);
  return response;
}

switch (name) {
  case 'wirespeed-deno':
  case 'wirespeed-deno-runtime': {
    // Defaults (LightResponse as the global), or -runtime: Deno's own Response.
    const { serve } = await import('../../../src/server/deno.js');
    await serve({ port, hostname, fetch: fetchAppSync, overrideGlobalObjects: name === 'wirespeed-deno' }).ready;
    break;
  }
  case 'wirespeed-deno-tls':
  case 'wirespeed-deno-h2-tls': {
    // HTTPS; -h2-tls: HTTP/2 by ALPN too.
    const { serve } = await import('../../../src/server/deno.js');
    await serve({ port, hostname, tls: BENCH_TLS, http2: name === 'wirespeed-deno-h2-tls', fetch: fetchAppSync }).ready;
    break;
  }
  case 'deno-serve-tls':
    // HTTP/1.1 and HTTP/2 by ALPN.
    await new Promise<void>((resolve) => Deno.serve({ port, hostname, onListen: resolve, ...BENCH_TLS }, fetchAppSync));
    break;
  case 'wirespeed-deno-h2':
  case 'wirespeed-deno-runtime-h2': {
    const { serve } = await import('../../../src/server/deno.js');
    await serve({ port, hostname, http2: true, fetch: fetchAppSync, overrideGlobalObjects: name === 'wirespeed-deno-h2' }).ready;
    break;
  }
  case 'raw-deno':
    serveRaw();
    break;
  case 'deno-serve':
    await new Promise<void>((resolve) => Deno.serve({ port, hostname, onListen: resolve }, fetchAppSync));
    break;
  case 'wirespeed-deno-hono': {
    const { serve } = await import('../../../src/server/deno.js');
    const { honoApp } = await import('./hono-app.js');
    const { serveStatic } = await import('../../../src/hono/index.js');
    await serve({ port, hostname, fetch: honoApp(serveStatic).fetch }).ready;
    break;
  }
  case 'deno-serve-hono': {
    const { honoApp } = await import('./hono-app.js');
    const { serveStatic } = await import('hono/deno');
    const app = honoApp(serveStatic);
    await new Promise<void>((resolve) => Deno.serve({ port, hostname, onListen: resolve }, app.fetch));
    break;
  }
  case 'wirespeed-deno-react':
  case 'deno-serve-react': {
    Deno.env.set('NODE_ENV', 'production'); // before React loads (react-app.ts)
    const { reactFetch } = await import('./react-app.js');
    if (name === 'deno-serve-react') await new Promise<void>((resolve) => Deno.serve({ port, hostname, onListen: resolve }, reactFetch));
    else await (await import('../../../src/server/deno.js')).serve({ port, hostname, fetch: reactFetch }).ready;
    break;
  }
  case 'wirespeed-deno-ws': {
    const { serve, upgradeWebSocket } = await import('../../../src/server/deno.js');
    await serve({ port, hostname, fetch: (request) => webSocketEcho(upgradeWebSocket(request)) }).ready;
    break;
  }
  case 'deno-ws':
    await new Promise<void>((resolve) =>
      Deno.serve({ port, hostname, onListen: resolve }, (request) => webSocketEcho(Deno.upgradeWebSocket(request))),
    );
    break;
  default:
    // One line for `wirespeed pair` to show, not a stack.
    console.error(`unknown server "${name}"`);
    Deno.exit(2);
}
console.log('ready');
