// Real round trips for the IPC benchmarks: a framed IpcChannel request against the raw transport
// carrying the same bytes (the echo of one frame), over a Unix domain socket, a Worker's
// MessagePort and a child process's stdio.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { IpcChannel, portTransport, streamTransport, type PortLike } from '../../src/ipc/index.js';
import { sharedRingPair, sharedRingTransport } from './ipc-shared-ring.js';
import { frameBytes, portEchoRoundTrip, type RoundTrip } from './ipc-message-channel.js';

export type { RoundTrip };

const ipcModule = new URL('../../src/ipc/index.js', import.meta.url).href;
const ringModule = new URL('./ipc-shared-ring.js', import.meta.url).href;

/** Resolves each `expect(n)` once n more bytes have arrived. */
function byteCounter(source: { on(event: 'data', listener: (chunk: Uint8Array) => void): unknown }) {
  let have = 0;
  let want = 0;
  let done: (() => void) | null = null;
  source.on('data', (chunk) => {
    have += chunk.length;
    if (done && have >= want) {
      have -= want;
      const resolve = done;
      done = null;
      resolve();
    }
  });
  return (n: number) =>
    new Promise<void>((resolve) => {
      want = n;
      done = resolve;
    });
}

/** A connected pair of Unix domain sockets: `client`, and `server` (the accepted side). */
export async function socketPair(): Promise<{ close(): void; client: Socket; server: Socket }> {
  const path = join(mkdtempSync(join(tmpdir(), 'wirespeed-ipc-bench-')), 'ipc.sock');
  let accept!: (s: Socket) => void;
  const accepted = new Promise<Socket>((resolve) => (accept = resolve));
  const listener = createServer((socket) => accept(socket));
  await new Promise<void>((resolve) => listener.listen(path, resolve));
  const client = createConnection(path);
  client.setNoDelay?.(true);
  const server = await accepted;
  return { client, server, close: () => (client.destroy(), server.destroy(), listener.close()) };
}

export async function socketFramed(message: unknown): Promise<RoundTrip> {
  const pair = await socketPair();
  new IpcChannel(streamTransport(pair.server)).handle('echo', (value) => value);
  const channel = new IpcChannel(streamTransport(pair.client));
  await channel.ready;
  return { run: () => channel.request('echo', message), close: async () => pair.close() };
}

export async function socketRaw(message: unknown): Promise<RoundTrip> {
  const pair = await socketPair();
  pair.server.on('data', (chunk: Uint8Array) => pair.server.write(chunk));
  const bytes = frameBytes(message);
  const expect = byteCounter(pair.client);
  return {
    run() {
      const back = expect(bytes.length);
      pair.client.write(bytes);
      return back;
    },
    close: async () => pair.close(),
  };
}

function worker(body: string): { worker: Worker; port: MessagePort } {
  const code = `const { parentPort } = require('node:worker_threads');
    parentPort.once('message', (port) => { ${body} });`;
  const w = new Worker(code, { eval: true });
  const { port1, port2 } = new MessageChannel();
  w.postMessage(port2, [port2]);
  return { worker: w, port: port1 };
}

export async function workerFramed(message: unknown): Promise<RoundTrip> {
  const { worker: w, port } = worker(`import(${JSON.stringify(ipcModule)}).then(({ IpcChannel, portTransport }) =>
      new IpcChannel(portTransport(port)).handle('echo', (v) => v));`);
  const channel = new IpcChannel(portTransport(port as unknown as PortLike));
  await channel.ready;
  return { run: () => channel.request('echo', message), close: async () => void (await w.terminate()) };
}

export async function workerRaw(message: unknown): Promise<RoundTrip> {
  const { worker: w, port } = worker(`port.on('message', (m) => port.postMessage(m, [m.buffer]));`);
  const { received, trip } = portEchoRoundTrip(port as unknown as PortLike, frameBytes(message), async () => void (await w.terminate()));
  port.on('message', received);
  return trip;
}

/** A Worker holding the other ends of a shared-memory ring pair, running `body` with `ends` in scope. */
function ringWorker(body: string) {
  const { a, b } = sharedRingPair();
  const code = `const { workerData } = require('node:worker_threads');
    const ends = workerData;
    Promise.all([import(${JSON.stringify(ipcModule)}), import(${JSON.stringify(ringModule)})])
      .then(([{ IpcChannel }, { sharedRingTransport }]) => { ${body} });`;
  return { worker: new Worker(code, { eval: true, workerData: b }), ends: a };
}

export async function ringFramed(message: unknown): Promise<RoundTrip> {
  const { worker: w, ends } = ringWorker(`new IpcChannel(sharedRingTransport(ends)).handle('echo', (v) => v);`);
  const channel = new IpcChannel(sharedRingTransport(ends));
  await channel.ready;
  return { run: () => channel.request('echo', message), close: async () => (channel.close(), void (await w.terminate())) };
}

export async function ringRaw(message: unknown): Promise<RoundTrip> {
  const { worker: w, ends } = ringWorker(`const t = sharedRingTransport(ends); t.start({ data: (c) => t.send(c), end() {} });`);
  const transport = sharedRingTransport(ends);
  const bytes = frameBytes(message);
  let have = 0;
  let resolve: (() => void) | null = null;
  transport.start({
    data(chunk) {
      have += chunk.length;
      if (have >= bytes.length && resolve) {
        have -= bytes.length;
        const done = resolve;
        resolve = null;
        done();
      }
    },
    end() {},
  });
  return {
    run() {
      const back = new Promise<void>((r) => (resolve = r));
      transport.send(bytes);
      return back;
    },
    close: async () => (transport.close(), void (await w.terminate())),
  };
}

function child(code: string) {
  return spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
}

export async function childFramed(message: unknown): Promise<RoundTrip> {
  const proc = child(`import { IpcChannel, streamTransport } from ${JSON.stringify(ipcModule)};
    new IpcChannel(streamTransport(process.stdin, process.stdout)).handle('echo', (v) => v);`);
  const channel = new IpcChannel(streamTransport(proc.stdout, proc.stdin));
  await channel.ready;
  return { run: () => channel.request('echo', message), close: async () => void proc.kill() };
}

export async function childRaw(message: unknown): Promise<RoundTrip> {
  const proc = child(`process.stdin.on('data', (c) => process.stdout.write(c));`);
  const bytes = frameBytes(message);
  const expect = byteCounter(proc.stdout);
  // Wait until the child runs: one echo before measuring.
  const first = expect(1);
  proc.stdin.write(Uint8Array.of(0));
  await first;
  return {
    run() {
      const back = expect(bytes.length);
      proc.stdin.write(bytes);
      return back;
    },
    close: async () => void proc.kill(),
  };
}
