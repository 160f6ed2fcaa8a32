// Starts one bench server on Node: `node node-servers.js NAME PORT`. Prints "ready" once listening.
// Every server answers the routes of app.ts (raw-net answers every request with the hello bytes:
// it is the ceiling of Node's socket layer, not an HTTP server).
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import { HELLO, JSON_BODY, KB1, KB10, KB10_UTF8, RAW_CLOSE_REQUEST, RAW_HELLO_RESPONSE, fetchAppSync } from './app.js';
import { BENCH_TLS } from './tls-fixture.js';
import type { FetchHandler } from '../../../src/server/node.js';
import { encodeFrame } from '../../../src/websocket/frame.js';
import { acceptValue } from '../../../src/websocket/handshake.js';

const [name, portText] = process.argv.slice(2);
const port = Number(portText);
const host = '127.0.0.1';

const RAW_RESPONSE = Buffer.from(RAW_HELLO_RESPONSE, 'latin1');
const GET = Buffer.from('GET ');

function nodeBody(path: string | undefined): [string, string] | null {
  switch (path) {
    case '/hello':
      return ['text/plain', HELLO];
    case '/json':
      return ['application/json', JSON.stringify(JSON_BODY)];
    case '/1kb':
      return ['text/plain', KB1];
    case '/10kb':
      return ['text/plain', KB10];
    case '/10kb-utf8':
      return ['text/plain; charset=utf-8', KB10_UTF8];
  }
  return null;
}

/** A client frame's whole (masked) size and payload length, from its first bytes; null until they are here. */
function clientFrame(bytes: Buffer): { size: number; payload: number } | null {
  if (bytes.length < 2) return null;
  const short = bytes[1] & 0x7f;
  const header = short < 126 ? 2 : short === 126 ? 4 : 10;
  if (bytes.length < header) return null;
  const payload = short < 126 ? short : short === 126 ? bytes.readUInt16BE(2) : Number(bytes.readBigUInt64BE(2));
  return { size: header + 4 + payload, payload };
}

/** The echo handler of the WebSocket servers that take a web-standard socket. */
function webSocketEcho({ socket, response }: { socket: import('../../../src/server/node.js').ServerWebSocket; response: Response }) {
  socket.binaryType = 'arraybuffer';
  socket.onmessage = (event) => socket.send((event as MessageEvent).data as string | ArrayBuffer);
  return response;
}

/** The plain handler on node:http (and node:https): app.ts's routes. */
function nodeHttpApp(req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse): void {
  if (req.method === 'POST') {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.concat(parts)));
    return;
  }
  const body = nodeBody(req.url);
  if (!body) return void res.writeHead(404).end('not found');
  res.writeHead(200, { 'content-type': body[0] }).end(body[1]);
}

/** The same routes on node:http2's stream API. */
function nodeHttp2App(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
  if (headers[':method'] === 'POST') {
    const parts: Buffer[] = [];
    stream.on('data', (d: Buffer) => parts.push(d));
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'content-type': 'application/octet-stream' });
      stream.end(Buffer.concat(parts));
    });
    return;
  }
  const body = nodeBody(headers[':path']);
  if (!body) {
    stream.respond({ ':status': 404 });
    return void stream.end('not found');
  }
  stream.respond({ ':status': 200, 'content-type': body[0] });
  stream.end(body[1]);
}

/** A framework's fetch handler on wirespeed/node with the defaults, as its users would serve it. */
async function serveOnWirespeed(fetch: FetchHandler): Promise<void> {
  const { serve } = await import('../../../src/server/node.js');
  await serve({ port, hostname: host, fetch }).ready;
}

/** Listens with a node:http server on the port and host given. */
async function listen(server: http.Server | https.Server | http2.Http2Server): Promise<void> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
}

async function start(): Promise<void> {
  switch (name) {
    case 'wirespeed-node':
    case 'wirespeed-node-tls':
    case 'wirespeed-node-h2-tls': {
      // Defaults: LightResponse is installed as the global Response (-tls: HTTPS; -h2-tls: HTTP/2 by ALPN too).
      const { serve } = await import('../../../src/server/node.js');
      const tls = name === 'wirespeed-node' ? undefined : BENCH_TLS;
      await serve({ port, hostname: host, tls, http2: name === 'wirespeed-node-h2-tls', fetch: fetchAppSync }).ready;
      return;
    }
    case 'wirespeed-node-runtime': {
      // Node's own Response (undici), read through its public API.
      const { serve } = await import('../../../src/server/node.js');
      await serve({ port, hostname: host, fetch: fetchAppSync, overrideGlobalObjects: false }).ready;
      return;
    }
    case 'wirespeed-node-hono': {
      const { serveStatic } = await import('../../../src/hono/index.js');
      return serveOnWirespeed((await import('./hono-app.js')).honoApp(serveStatic).fetch);
    }
    case 'wirespeed-node-h3':
      return serveOnWirespeed((await import('./h3-app.js')).h3App().fetch);
    case 'srvx-node-h3': {
      // h3's own server: srvx on node:http, which writes srvx's FastResponse without making a Response.
      const { serve } = await import('h3');
      const { h3App } = await import('./h3-app.js');
      await serve(h3App(), { port, hostname: host, silent: true }).ready();
      return;
    }
    case 'wirespeed-node-elysia':
      return serveOnWirespeed((await import('./elysia-app.js')).elysiaApp().fetch);
    case 'elysia-node-elysia': {
      // Elysia's own Node adapter (srvx on node:http).
      const { node } = await import('@elysiajs/node');
      const { elysiaApp } = await import('./elysia-app.js');
      await new Promise<void>((resolve) => elysiaApp(node()).listen({ port, hostname: host }, () => resolve()));
      return;
    }
    case 'wirespeed-node-yoga':
      return serveOnWirespeed((await import('./yoga-app.js')).yogaApp().fetch);
    case 'node-http-yoga': {
      // Yoga's own Node path: node:http with the Yoga instance as its request listener.
      const { yogaApp } = await import('./yoga-app.js');
      return listen(http.createServer(yogaApp()));
    }
    case 'wirespeed-node-react':
    case 'hono-node-react':
    case 'node-http-react': {
      process.env.NODE_ENV = 'production'; // before React loads (react-app.ts)
      const { reactFetch, reactListener } = await import('./react-app.js');
      if (name === 'wirespeed-node-react') return serveOnWirespeed(reactFetch);
      if (name === 'hono-node-react') {
        const { serve } = await import('@hono/node-server');
        await new Promise<void>((resolve) => serve({ fetch: reactFetch, port, hostname: host }, () => resolve()));
        return;
      }
      return listen(http.createServer(reactListener));
    }
    case 'hono-node-hono': {
      const { serve } = await import('@hono/node-server');
      const { honoApp } = await import('./hono-app.js');
      const { serveStatic } = await import('@hono/node-server/serve-static');
      await new Promise<void>((resolve) => serve({ fetch: honoApp(serveStatic).fetch, port, hostname: host }, () => resolve()));
      return;
    }
    case 'wirespeed-node-h2':
    case 'wirespeed-node-runtime-h2': {
      // HTTP/2 (h2c with prior knowledge) and HTTP/1.1 on one port; -runtime: Node's own Response.
      const { serve } = await import('../../../src/server/node.js');
      await serve({ port, hostname: host, http2: true, fetch: fetchAppSync, overrideGlobalObjects: name === 'wirespeed-node-h2' }).ready;
      return;
    }
    case 'node-http2':
    case 'node-http2-tls': {
      // Node's own HTTP/2 server (nghttp2), with its core stream API: the fastest way to use it;
      // over TLS with HTTP/1.1 beside it, as wirespeed's.
      // (An HTTP/2 stream also comes as a compatibility 'request': the stream handler answers it.)
      const http1Only: typeof nodeHttpApp = (req, res) => req.httpVersionMajor === 1 && nodeHttpApp(req, res);
      const server =
        name === 'node-http2-tls' ? http2.createSecureServer({ ...BENCH_TLS, allowHTTP1: true }, http1Only) : http2.createServer();
      server.on('stream', nodeHttp2App);
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      return;
    }
    case 'wirespeed-node-ws': {
      // WebSocket echo on every path (binary as ArrayBuffer, as a server app would take it).
      const { serve, upgradeWebSocket } = await import('../../../src/server/node.js');
      await serve({ port, hostname: host, fetch: (request) => webSocketEcho(upgradeWebSocket(request)) }).ready;
      return;
    }
    case 'ws-node': {
      // The ws package on node:http, with bufferutil when it installed (ws uses it on its own).
      const { WebSocketServer } = await import('ws');
      const server = http.createServer();
      const wss = new WebSocketServer({ server, perMessageDeflate: false });
      wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      return;
    }
    case 'node-http':
    case 'node-https': {
      return listen(name === 'node-https' ? https.createServer(BENCH_TLS, nodeHttpApp) : http.createServer(nodeHttpApp));
    }
    case 'raw-net': {
      const server = net.createServer((socket) => {
        socket.setNoDelay(true);
        socket.on('data', (chunk: Buffer) => {
          // One fixed response per request start in the chunk (pipelined requests come together).
          let count = 0;
          for (let at = chunk.indexOf(GET); at !== -1; at = chunk.indexOf(GET, at + 4)) count++;
          if (count === 1 && chunk.includes(RAW_CLOSE_REQUEST)) socket.end(RAW_RESPONSE);
          else if (count === 1) socket.write(RAW_RESPONSE);
          else if (count > 1) socket.write(Buffer.concat(Array(count).fill(RAW_RESPONSE)));
        });
        socket.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      return;
    }
    case 'raw-ws': {
      // The socket layer's ceiling for WebSocket echo, as raw-net is for HTTP: the handshake
      // answered, then an echo-sized frame written per client frame received, with no unmasking,
      // no validation and no events (the load client sends one frame size and counts bytes).
      const server = net.createServer((socket) => {
        socket.setNoDelay(true);
        let head = '';
        let open = false;
        let start: Buffer = Buffer.alloc(0);
        let frame: { size: number; payload: number } | null = null;
        let echo: Uint8Array = new Uint8Array(0);
        let received = 0;
        socket.on('data', (data: Buffer) => {
          let chunk: Buffer = data;
          if (!open) {
            head += chunk.toString('latin1');
            const end = head.indexOf('\r\n\r\n');
            if (end < 0) return;
            open = true;
            const key = /sec-websocket-key: *(\S+)/i.exec(head)?.[1] ?? '';
            socket.write(
              `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptValue(key)}\r\n\r\n`,
            );
            chunk = Buffer.from(head.slice(end + 4), 'latin1');
          }
          if (!frame) {
            start = Buffer.concat([start, chunk]);
            frame = clientFrame(start);
            if (!frame) return;
            echo = encodeFrame(start[0] & 0x0f, new Uint8Array(frame.payload));
            chunk = start;
          }
          received += chunk.length;
          const frames = Math.floor(received / frame.size);
          received -= frames * frame.size;
          if (frames === 1) socket.write(echo);
          else if (frames > 1) socket.write(Buffer.concat(Array<Uint8Array>(frames).fill(echo)));
        });
        socket.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      return;
    }
    case 'hono-node': {
      const { serve } = await import('@hono/node-server');
      await new Promise<void>((resolve) => serve({ fetch: fetchAppSync, port, hostname: host }, () => resolve()));
      return;
    }
    case 'fastify': {
      const { default: Fastify } = await import('fastify');
      const app = Fastify({ logger: false });
      app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      app.post('/echo', (req, reply) => reply.type('application/octet-stream').send(req.body));
      for (const path of ['/hello', '/json', '/1kb', '/10kb', '/10kb-utf8']) {
        const [type, body] = nodeBody(path)!;
        app.get(path, (_req, reply) => reply.type(type).send(body));
      }
      await app.listen({ port, host });
      return;
    }
  }
  // One line for `wirespeed pair` to show, not a stack.
  console.error(`unknown server "${name}"`);
  process.exit(2);
}

await start();
console.log('ready');
