// Real round trips for the IPC benchmarks: a framed IpcChannel request against the raw transport
// carrying the same bytes (the echo of one frame), over a Unix domain socket, a Worker's
// MessagePort (with birpc and comlink beside), a shared-memory ring and a child process's stdio.
// Each run has `inFlight` requests out at once.
import { spawn } from 'node:child_process';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import {
  encodeFrame,
  IpcChannel,
  IpcFrameType,
  jsonCodec,
  portTransport,
  processTransport,
  streamTransport,
  webSocketTransport,
  type Codec,
  type Serialization,
} from '../../src/ipc/index.js';
import type { ServerWebSocket } from '../../src/server/websocket/socket.js';
import type { WebSocket as WsClient } from 'ws';
import { plainType } from '../../src/ipc/plain.js';
import { inTemporaryFolder } from '../harness/temporary-folder.js';
import { sharedRingPair, sharedRingTransport } from './ipc-shared-ring.js';
import {
  concurrently,
  drain,
  echoCounter,
  frameBytes,
  frameValue,
  type MakeRoundTrip,
  type MakeStream,
  type RoundTrip,
} from './ipc-message-channel.js';

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
  let accept!: (s: Socket) => void;
  const accepted = new Promise<Socket>((resolve) => (accept = resolve));
  const listener = createServer((socket) => accept(socket));
  // A connected pair outlives the socket's path: the listener and its folder go once it is made.
  return inTemporaryFolder('wirespeed-ipc-bench-', async (folder) => {
    try {
      const path = join(folder, 'ipc.sock');
      await new Promise<void>((resolve) => listener.listen(path, resolve));
      const client = createConnection(path);
      client.setNoDelay?.(true);
      const server = await accepted;
      return { client, server, close: () => (client.destroy(), server.destroy()) };
    } finally {
      listener.close();
    }
  });
}

/** `inFlight` copies of `bytes` one after the other, written at once. */
const repeated = (bytes: Uint8Array, inFlight: number) => {
  const all = new Uint8Array(bytes.length * inFlight);
  for (let i = 0; i < inFlight; i++) all.set(bytes, i * bytes.length);
  return all;
};

export const socketFramed: MakeRoundTrip = async (message, inFlight) => {
  const pair = await socketPair();
  new IpcChannel(streamTransport(pair.server)).handle('echo', (value) => value);
  const channel = new IpcChannel(streamTransport(pair.client));
  await channel.ready;
  return { run: concurrently(inFlight, () => channel.request('echo', message)), close: async () => pair.close() };
};

export const socketRaw: MakeRoundTrip = async (message, inFlight) => {
  const pair = await socketPair();
  pair.server.on('data', (chunk: Uint8Array) => pair.server.write(chunk));
  const bytes = repeated(frameBytes(message), inFlight);
  const expect = byteCounter(pair.client);
  return {
    run() {
      const back = expect(bytes.length);
      pair.client.write(bytes);
      return back;
    },
    close: async () => pair.close(),
  };
};

/**
 * birpc over a Unix socket, as its users put it on a byte pipe: its `serialize` (JSON) one message
 * per line, split on newlines as they arrive (JSON.stringify escapes every newline inside a value).
 */
export const socketBirpc: MakeRoundTrip = async (message, inFlight) => {
  const { createBirpc } = await import('birpc');
  const pair = await socketPair();
  const jsonLines = (socket: Socket) => ({
    post: (line: string) => void socket.write(line + '\n'),
    on: (deliver: (line: string) => void) => {
      let held = '';
      socket.setEncoding('utf8');
      socket.on('data', (text: string) => {
        const lines = (held + text).split('\n');
        held = lines.pop()!;
        for (const line of lines) deliver(line);
      });
    },
    serialize: (value: unknown) => JSON.stringify(value),
    deserialize: (line: string) => JSON.parse(line) as unknown,
  });
  createBirpc({ echo: (v: unknown) => v }, jsonLines(pair.server));
  const rpc = createBirpc<{ echo(v: unknown): unknown }>({}, jsonLines(pair.client));
  return { run: concurrently(inFlight, () => rpc.echo(message)), close: async () => pair.close() };
};

function worker(body: string): { worker: Worker; port: MessagePort } {
  const code = `const { parentPort } = require('node:worker_threads');
    parentPort.once('message', (port) => { ${body} });`;
  const w = new Worker(code, { eval: true });
  const { port1, port2 } = new MessageChannel();
  w.postMessage(port2, [port2]);
  return { worker: w, port: port1 };
}

/** IpcChannel to a Worker, with the port's default codec (structured clone), or JSON bytes. */
function workerWith(json: boolean): MakeRoundTrip {
  return async (message, inFlight) => {
    const { worker: w, port } = worker(`import(${JSON.stringify(ipcModule)}).then(({ IpcChannel, portTransport, jsonCodec }) =>
        new IpcChannel(portTransport(port), ${json ? '{ codec: jsonCodec }' : '{}'}).handle('echo', (v) => v));`);
    const channel = new IpcChannel(portTransport(port), json ? { codec: jsonCodec } : {});
    await channel.ready;
    return { run: concurrently(inFlight, () => channel.request('echo', message)), close: async () => void (await w.terminate()) };
  };
}

export const workerFramed = workerWith(false);
export const workerFramedJson = workerWith(true);

/** The raw port carrying what the channel's request carries: the same value, cloned; echoed back. */
export const workerRaw: MakeRoundTrip = async (message, inFlight) => {
  const { worker: w, port } = worker(`port.on('message', (m) => port.postMessage(m));`);
  const value = frameValue(message);
  const echoes = echoCounter();
  port.on('message', () => echoes.received());
  return {
    run() {
      const back = echoes.expect(inFlight);
      for (let i = 0; i < inFlight; i++) port.postMessage(value);
      return back;
    },
    close: async () => void (await w.terminate()),
  };
};

/** birpc over the Worker's MessagePort (structured clone); the worker serves with birpc too. */
export const workerBirpc: MakeRoundTrip = async (message, inFlight) => {
  const { createBirpc } = await import('birpc');
  const { worker: w, port } = worker(`import(${JSON.stringify(import.meta.resolve('birpc'))}).then(({ createBirpc }) =>
      createBirpc({ echo: (v) => v }, { post: (d) => port.postMessage(d), on: (fn) => port.on('message', fn) }));`);
  const rpc = createBirpc<{ echo(v: unknown): unknown }>({}, { post: (d) => port.postMessage(d), on: (fn) => port.on('message', fn) });
  await rpc.echo(null); // the worker is serving
  return { run: concurrently(inFlight, () => rpc.echo(message)), close: async () => void (await w.terminate()) };
};

/** comlink over the Worker's MessagePort; the worker exposes with comlink too. */
export const workerComlink: MakeRoundTrip = async (message, inFlight) => {
  const Comlink = await import('comlink');
  const { worker: w, port } = worker(`import(${JSON.stringify(import.meta.resolve('comlink'))}).then((Comlink) =>
      Comlink.expose({ echo: (v) => v }, port));`);
  const remote = Comlink.wrap<{ echo(v: unknown): unknown }>(port as unknown as Parameters<typeof Comlink.wrap>[0]);
  await remote.echo(null); // the worker is serving
  return { run: concurrently(inFlight, () => remote.echo(message)), close: async () => void (await w.terminate()) };
};

/** A Worker holding the other ends of a shared-memory ring pair, running `body` with `ends` in scope. */
function ringWorker(body: string) {
  const { a, b } = sharedRingPair();
  const code = `const { workerData } = require('node:worker_threads');
    const ends = workerData;
    Promise.all([import(${JSON.stringify(ipcModule)}), import(${JSON.stringify(ringModule)})])
      .then(([{ IpcChannel }, { sharedRingTransport }]) => { ${body} });`;
  return { worker: new Worker(code, { eval: true, workerData: b }), ends: a };
}

export const ringFramed: MakeRoundTrip = async (message, inFlight) => {
  const { worker: w, ends } = ringWorker(`new IpcChannel(sharedRingTransport(ends)).handle('echo', (v) => v);`);
  const channel = new IpcChannel(sharedRingTransport(ends));
  await channel.ready;
  return {
    run: concurrently(inFlight, () => channel.request('echo', message)),
    close: async () => (channel.close(), void (await w.terminate())),
  };
};

export const ringRaw: MakeRoundTrip = async (message, inFlight) => {
  const { worker: w, ends } = ringWorker(`const t = sharedRingTransport(ends); t.start({ data: (c) => t.send(c), end() {} });`);
  const transport = sharedRingTransport(ends);
  const bytes = repeated(frameBytes(message), inFlight);
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
};

function child(code: string) {
  return spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
}

export const childFramed: MakeRoundTrip = async (message, inFlight) => {
  const proc = child(`import { IpcChannel, streamTransport } from ${JSON.stringify(ipcModule)};
    new IpcChannel(streamTransport(process.stdin, process.stdout)).handle('echo', (v) => v);`);
  const channel = new IpcChannel(streamTransport(proc.stdout, proc.stdin));
  await channel.ready;
  return { run: concurrently(inFlight, () => channel.request('echo', message)), close: async () => void proc.kill() };
};

export const childRaw: MakeRoundTrip = async (message, inFlight) => {
  const proc = child(`process.stdin.on('data', (c) => process.stdout.write(c));`);
  const bytes = repeated(frameBytes(message), inFlight);
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
};

/** A child running `code` (an ES module) with Node's process IPC channel to this process, as fork() makes one. */
function forked(code: string, serialization: Serialization = 'json') {
  return spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization });
}

/** IpcChannel over the process channel (processTransport): JSON frames, or values cloned with `advanced` serialization. */
function forkWith(serialization: Serialization): MakeRoundTrip {
  return async (message, inFlight) => {
    const options = JSON.stringify({ serialization });
    const proc = forked(
      `import { IpcChannel, processTransport } from ${JSON.stringify(ipcModule)};
      new IpcChannel(processTransport(process, ${options})).handle('echo', (v) => v);`,
      serialization,
    );
    const channel = new IpcChannel(processTransport(proc, { serialization }));
    await channel.ready;
    return { run: concurrently(inFlight, () => channel.request('echo', message)), close: async () => void proc.kill() };
  };
}

export const forkFramed = forkWith('json');
export const forkFramedValues = forkWith('advanced');

/**
 * The process channel carrying what the channel's requests carry (their frames, as the one
 * latin1 string a turn's batch is), echoed back by the child as it came.
 */
export const forkRaw: MakeRoundTrip = async (message, inFlight) => {
  const proc = forked(`process.on('message', (m) => process.send(m));`);
  const batch = ['wirespeed/ipc', Buffer.from(repeated(frameBytes(message), inFlight)).toString('latin1')];
  const echoes = echoCounter();
  proc.on('message', () => echoes.received());
  const first = echoes.expect(1); // the child runs: one echo before measuring
  proc.send(batch);
  await first;
  return {
    run() {
      const back = echoes.expect(1);
      proc.send(batch);
      return back;
    },
    close: async () => void proc.kill(),
  };
};

/** birpc over the process channel, as vitest's forks pool runs it: `process.send` and its `message` events. */
export const forkBirpc: MakeRoundTrip = async (message, inFlight) => {
  const { createBirpc } = await import('birpc');
  const proc = forked(`import { createBirpc } from ${JSON.stringify(import.meta.resolve('birpc'))};
    createBirpc({ echo: (v) => v }, { post: (d) => process.send(d), on: (fn) => process.on('message', fn) });`);
  const rpc = createBirpc<{ echo(v: unknown): unknown }>({}, { post: (d) => proc.send(d), on: (fn) => proc.on('message', fn) });
  await rpc.echo(null); // the child is serving
  return { run: concurrently(inFlight, () => rpc.echo(message)), close: async () => void proc.kill() };
};

/**
 * A wirespeed server on 127.0.0.1 whose WebSockets `open` takes, and a `ws` client connected to
 * it: the two ends of an IPC WebSocket, as a page or a service talks to a wirespeed server.
 * `attach` takes the client as soon as it is made: a message that arrives before a listener is
 * lost, and the server's side may speak first.
 */
async function webSocketPair<T>(
  open: (socket: ServerWebSocket) => void,
  attach: (client: WsClient) => T,
): Promise<{ client: WsClient; attached: T; close(): Promise<void> }> {
  const [{ serve, upgradeWebSocket }, { default: WebSocket }] = await Promise.all([import('../../src/server/node.js'), import('ws')]);
  const server = serve({
    fetch(request) {
      const { socket, response } = upgradeWebSocket(request);
      open(socket);
      return response;
    },
  });
  await server.ready;
  const client = new WebSocket(server.url.replace(/^http/, 'ws'));
  client.binaryType = 'arraybuffer';
  const attached = attach(client);
  await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
  return { client, attached, close: () => (client.close(), server.close()) };
}

export const webSocketFramed: MakeRoundTrip = async (message, inFlight) => {
  const pair = await webSocketPair(
    (socket) => new IpcChannel(webSocketTransport(socket)).handle('echo', (v) => v),
    (client) => new IpcChannel(webSocketTransport(client)),
  );
  const channel = pair.attached;
  await channel.ready;
  return { run: concurrently(inFlight, () => channel.request('echo', message)), close: pair.close };
};

/** The WebSocket carrying the channel's request frames as one binary message, echoed back by the server as it came. */
export const webSocketRaw: MakeRoundTrip = async (message, inFlight) => {
  const echoes = echoCounter();
  const pair = await webSocketPair(
    (socket) => {
      socket.binaryType = 'arraybuffer'; // not a Blob to read back
      socket.addEventListener('message', (event) => socket.send((event as MessageEvent<ArrayBuffer>).data));
    },
    (client) => client.addEventListener('message', () => echoes.received()),
  );
  const bytes = repeated(frameBytes(message), inFlight);
  return {
    run() {
      const back = echoes.expect(1);
      pair.client.send(bytes);
      return back;
    },
    close: pair.close,
  };
};

/** birpc over the WebSocket, as its users put it there: JSON text messages. */
export const webSocketBirpc: MakeRoundTrip = async (message, inFlight) => {
  const { createBirpc } = await import('birpc');
  const options = (socket: ServerWebSocket | WsClient) => ({
    post: (text: string) => socket.send(text),
    on: (deliver: (text: string) => void) =>
      (socket as ServerWebSocket).addEventListener('message', (event) => deliver((event as MessageEvent<string>).data)),
    serialize: (value: unknown) => JSON.stringify(value),
    deserialize: (text: string) => JSON.parse(text) as unknown,
  });
  const pair = await webSocketPair(
    (socket) => createBirpc({ echo: (v: unknown) => v }, options(socket)),
    (client) => createBirpc<{ echo(v: unknown): unknown }>({}, options(client)),
  );
  const rpc = pair.attached;
  return { run: concurrently(inFlight, () => rpc.echo(message)), close: pair.close };
};

/** IpcChannel's `stream` over a Unix socket with `codec` (default JSON), with the default credit window. */
export const socketStreamWith =
  (codec?: Codec): MakeStream =>
  async (item, count, read = drain) => {
    const pair = await socketPair();
    new IpcChannel(streamTransport(pair.server), { codec }).handle('items', function* (n) {
      for (let i = 0; i < (n as number); i++) yield item;
    });
    const channel = new IpcChannel(streamTransport(pair.client), { codec });
    await channel.ready;
    return { run: () => read(channel.stream('items', count)), close: async () => pair.close() };
  };

/** IpcChannel's `stream` over a Unix socket (JSON frames), with the default credit window. */
export const socketStream: MakeStream = socketStreamWith();

/**
 * The raw socket carrying the same bytes as the stream's DATA frames (a string or bytes item goes
 * as it is: in a DATA_TEXT frame as UTF-8, in DATA_BYTES): one write per item, counted on arrival.
 */
export const socketStreamRaw: MakeStream = async (item, count) => {
  const pair = await socketPair();
  const payload = typeof item === 'string' ? new TextEncoder().encode(item) : item;
  const frame = encodeFrame(plainType(IpcFrameType.DATA, item)!, 1, payload);
  pair.server.on('data', () => {
    for (let i = 0; i < count; i++) pair.server.write(frame);
  });
  const expect = byteCounter(pair.client);
  return {
    run() {
      const back = expect(frame.length * count);
      pair.client.write(Uint8Array.of(0)); // the request
      return back;
    },
    close: async () => pair.close(),
  };
};
