// Memory per idle connection, on each adapter, at 2,000 connections: the server process's RSS
// growth divided by the connections (also for open WebSockets, beside their peers). Two states: connected with nothing sent yet (what an idle
// or slow client costs: at most 16 KiB), and kept alive after one request (that also counts the
// request's garbage not yet collected: Deno.serve itself measures ~19 KiB there, so the bound is
// 24 KiB). And what a closed connection leaves: nothing. The servers are the bench's (built code,
// each in its own process).
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { freePort, ServerProcess } from '../../bench/harness/load.js';
import { denoBinary } from '../../bench/suites/server-processes.js';

const CONNECTIONS = 2_000;
const KIB = 1024;
const servers = new URL('../../dist/bench/peers/servers/', import.meta.url).pathname;
// The deno binary itself (not the npm wrapper that spawns it): its RSS is the server's.
const deno = denoBinary()!;

function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
  return Number(kb) * KIB;
}

const HANDSHAKE =
  'GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';

/**
 * Opens `count` connections (100 at a time); with `request`, each makes one request and reads its
 * answer ('websocket': the request is a WebSocket handshake, and the socket stays open on it).
 */
async function clients(port: number, count: number, request: boolean | 'websocket'): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from(
      { length: Math.min(100, count - i) },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            if (!request) return resolve(socket);
            socket.write(request === 'websocket' ? HANDSHAKE : 'GET /hello HTTP/1.1\r\nHost: a\r\n\r\n');
            socket.once('data', () => resolve(socket));
          });
          socket.once('error', reject);
        }),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

const adapters: [string, (port: number) => string[]][] = [
  ['node', (port) => [process.execPath, `${servers}node-servers.js`, 'wirespeed-node', String(port)]],
  ['deno', (port) => [deno, 'run', '--quiet', '-A', '--no-lock', `${servers}deno-servers.js`, 'wirespeed-deno', String(port)]],
];

const states: [string, boolean, number][] = [
  ['connected, nothing sent', false, 16 * KIB],
  ['kept alive after a request', true, 24 * KIB],
];

/**
 * Memory per idle connection at CONNECTIONS, from `command`'s server warmed with 50 of the same.
 * With `collected`, the server was started with the Deno hook below, and both readings are taken
 * after a full GC: the steady cost, without the garbage the handshakes left.
 */
async function perConnection(command: (port: number) => string[], request: boolean | 'websocket', collected = false): Promise<number> {
  const port = await freePort();
  const server = await ServerProcess.start({ command: command(port), port });
  const reading = collected ? collectedRss(server) : () => Promise.resolve(rss(server.pid));
  try {
    // Warm: the code paths and the first allocations of every size, then settle.
    for (const socket of await clients(port, 50, request || true)) socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    const before = await reading();
    const sockets = await clients(port, CONNECTIONS, request);
    await new Promise((r) => setTimeout(r, 300));
    const bytes = ((await reading()) - before) / CONNECTIONS;
    for (const socket of sockets) socket.destroy();
    return bytes;
  } finally {
    await server.stop();
  }
}

/** Makes a Deno server report its RSS after a full GC on SIGUSR2 (`--preload` it, with `--expose-gc`). */
const denoGcHook = new URL('./fixtures/gc-report-deno.mjs', import.meta.url).pathname;

/** Asks a server started with `denoGcHook` for its RSS after a full GC. */
function collectedRss(server: ServerProcess): () => Promise<number> {
  const reports = createInterface({ input: server.child.stdout! });
  return () =>
    new Promise<number>((resolve) => {
      reports.once('line', (line) => resolve(Number(/^rss (\d+)/.exec(line)![1])));
      server.child.kill('SIGUSR2');
    });
}

const wsServer = (name: string) => (port: number) => [process.execPath, `${servers}node-servers.js`, name, String(port)];
const denoServer = (name: string) => (port: number) => [
  deno,
  'run',
  '--quiet',
  '-A',
  '--no-lock',
  '--v8-flags=--expose-gc',
  '--preload',
  denoGcHook,
  `${servers}deno-servers.js`,
  name,
  String(port),
];

/** Makes the server report its live heap (after a full GC) on SIGUSR2. */
const heapHook = new URL('./fixtures/heap-report.mjs', import.meta.url).pathname;

/** Live V8 heap per idle WebSocket at CONNECTIONS: what stays once the handshakes' garbage is collected. */
async function liveHeapPerConnection(name: string): Promise<number> {
  const port = await freePort();
  const server = await ServerProcess.start({
    command: [process.execPath, '--expose-gc', '--import', heapHook, `${servers}node-servers.js`, name, String(port)],
    port,
  });
  const reports = createInterface({ input: server.child.stdout! });
  const heap = () =>
    new Promise<number>((resolve) => {
      reports.once('line', (line) => resolve(Number(/^heap (\d+)$/.exec(line)![1])));
      server.child.kill('SIGUSR2');
    });
  try {
    for (const socket of await clients(port, 50, 'websocket')) socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    const before = await heap();
    const sockets = await clients(port, CONNECTIONS, 'websocket');
    // Settled, as idle sockets are: right after the burst V8's heap still counts ~0.1 KiB per
    // connection more on either server (2.58 against 2.47 KiB here), gone within a second.
    await new Promise((r) => setTimeout(r, 1000));
    const bytes = ((await heap()) - before) / CONNECTIONS;
    for (const socket of sockets) socket.destroy();
    return bytes;
  } finally {
    await server.stop();
  }
}

describe('memory per idle WebSocket', () => {
  // The goal: no more than ws. Live heap after a GC is the steady measure (2.19 against
  // ws's 2.55-2.64 KiB here at 2,000; 2.01 against 2.55 at 10,000, 2026-11-25, since the frame
  // decoder is made at the first read: 2.53 before, 0.03 KiB from ws's lowest).
  it(`node: an open WebSocket holds no more live heap than ws's, at ${CONNECTIONS} connections`, async () => {
    const ours = await liveHeapPerConnection('wirespeed-node-ws');
    const peer = await liveHeapPerConnection('ws-node');
    console.log(
      `idle WebSocket, live heap: wirespeed/node ${(ours / KIB).toFixed(2)} KiB, ws ${(peer / KIB).toFixed(2)} KiB per connection`,
    );
    expect(ours).toBeLessThanOrEqual(peer);
  });

  // RSS also counts the handshakes' garbage not yet collected (our handshake makes a Request and
  // its fields: 11.0 against ws's 9.1 KiB here at 2,000; after a GC, at 10,000, 5.6-6.1 KiB
  // against ws's 5.6-6.1): this holds the line of an idle HTTP connection, 16 KiB.
  it(`node: an open WebSocket costs at most 16 KiB (ws measured beside it), at ${CONNECTIONS} connections`, async () => {
    const ours = await perConnection(wsServer('wirespeed-node-ws'), 'websocket');
    const peer = await perConnection(wsServer('ws-node'), 'websocket');
    console.log(`idle WebSocket: wirespeed/node ${(ours / KIB).toFixed(1)} KiB, ws ${(peer / KIB).toFixed(1)} KiB per connection`);
    expect(ours).toBeLessThanOrEqual(16 * KIB);
  });

  // RSS right after the handshakes also counts their garbage, which came and went by run (Deno's
  // own 18.6-20.9 KiB, ours 19.7-24.3): measured after a full GC instead, Deno.upgradeWebSocket
  // holds 18.3-22.0 KiB and wirespeed/deno 18.2-21.4 here (2026-11-25, either ahead by run): held
  // to the bound of a kept-alive connection, 24 KiB. (A ratio bound is too tight for that noise.)
  it(`deno: an open WebSocket costs at most 24 KiB after a GC (Deno.upgradeWebSocket measured beside it), at ${CONNECTIONS} connections`, async () => {
    const ours = await perConnection(denoServer('wirespeed-deno-ws'), 'websocket', true);
    const peer = await perConnection(denoServer('deno-ws'), 'websocket', true);
    console.log(
      `idle WebSocket, after a GC: wirespeed/deno ${(ours / KIB).toFixed(1)} KiB, Deno.upgradeWebSocket ${(peer / KIB).toFixed(1)} KiB per connection`,
    );
    expect(ours).toBeLessThanOrEqual(24 * KIB);
  });
});

describe('memory per idle connection', () => {
  for (const [adapter, command] of adapters) {
    it.each(states)(`${adapter}: %s, at ${CONNECTIONS} connections`, async (state, request, bound) => {
      const port = await freePort();
      const server = await ServerProcess.start({ command: command(port), port });
      try {
        // Warm: the code paths and the first allocations of every size, then settle.
        for (const socket of await clients(port, 50, true)) socket.destroy();
        await new Promise((r) => setTimeout(r, 300));
        const before = rss(server.pid);
        const sockets = await clients(port, CONNECTIONS, request);
        await new Promise((r) => setTimeout(r, 300));
        const perConnection = (rss(server.pid) - before) / CONNECTIONS;
        for (const socket of sockets) socket.destroy();
        console.log(`${adapter}, ${state}: ${(perConnection / KIB).toFixed(1)} KiB per connection`);
        expect(perConnection).toBeLessThanOrEqual(bound);
      } finally {
        await server.stop();
      }
    });
  }
});

/** `count` connections, 100 at a time, each sending one request with `Connection: close` and read until the server closes it. */
async function closedClients(port: number, count: number): Promise<void> {
  const request = 'GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n';
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from(
      { length: Math.min(100, count - i) },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
          socket.on('error', reject).on('close', () => resolve());
          socket.resume();
        }),
    );
    await Promise.all(batch);
  }
}

describe('memory of closed connections', () => {
  // An ended connection is kept a moment (LINGER_MS, 2 s) so the client can take the last bytes;
  // a connection the client closed is garbage at once. Held by that timer, each one lived long
  // enough to reach V8's old generation: a client closing every connection (wrk with `Connection:
  // close`) went from 51 to 39 µs of server CPU per request when it was cleared (node:http 37).
  // Here: the live heap after a full GC, taken right after 2,000 such connections closed (well
  // within LINGER_MS): 2.9-3.1 KiB per connection on both adapters while the timer held them, now
  // under 16 bytes. (The warm-up is long because V8 still compiles code for the first few
  // thousand: ~100 bytes per connection after 1,000.)
  const live: [string, (port: number) => string[], RegExp][] = [
    [
      'node',
      (port) => [process.execPath, '--expose-gc', '--import', heapHook, `${servers}node-servers.js`, 'wirespeed-node', String(port)],
      /^heap (\d+)$/,
    ],
    ['deno', denoServer('wirespeed-deno'), /heap (\d+)$/],
  ];
  for (const [adapter, command, report] of live) {
    it(`${adapter}: a connection the client closed holds no memory, at ${CONNECTIONS} connections`, async () => {
      const port = await freePort();
      const server = await ServerProcess.start({ command: command(port), port });
      const reports = createInterface({ input: server.child.stdout! });
      const heap = () =>
        new Promise<number>((resolve) => {
          reports.once('line', (line) => resolve(Number(report.exec(line)![1])));
          server.child.kill('SIGUSR2');
        });
      try {
        // Warm (the code paths, V8's compiled code) and settle.
        await closedClients(port, 3000);
        const before = await heap();
        await closedClients(port, CONNECTIONS);
        // The server sees the last closes a moment after the clients do.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const perConnection = ((await heap()) - before) / CONNECTIONS;
        console.log(`${adapter}, closed connections: ${perConnection.toFixed(0)} bytes of live heap per connection`);
        expect(perConnection).toBeLessThan(256);
      } finally {
        await server.stop();
      }
    });
  }
});
