// Round trips over a web MessageChannel inside one thread: the IPC transport every runtime has,
// browsers included (the Node-only transports are in ipc-transports.ts). Each run has `inFlight`
// requests out at once (1: one at a time) and ends when all are answered.
import { encodeFrame, IpcFrameType, IpcChannel, jsonCodec, portTransport, transfer, type Codec } from '../../src/ipc/index.js';
import { DEFAULT_CLONED_STREAM_ITEMS } from '../../src/ipc/link.js';

export interface RoundTrip {
  run(): Promise<unknown>;
  close(): Promise<void>;
}

/** Makes a round trip of `message` with `inFlight` requests at once per run. */
export type MakeRoundTrip = (message: unknown, inFlight: number) => Promise<RoundTrip>;

/** The bytes the framed request puts on the wire (JSON, the default on byte transports): the raw cases move exactly as many. */
export function frameBytes(message: unknown): Uint8Array {
  return encodeFrame(IpcFrameType.REQUEST, 1, jsonCodec.encode(['echo', message]));
}

/** The message a request is on a port with the structured-clone codec (the default there). */
export function frameValue(message: unknown): unknown[] {
  return [IpcFrameType.REQUEST, 1, ['echo', message]];
}

/** `call` made `inFlight` times at once; the promise settles when all have. */
export function concurrently(inFlight: number, call: () => Promise<unknown>): () => Promise<unknown> {
  if (inFlight === 1) return call;
  return () => {
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < inFlight; i++) calls.push(call());
    return Promise.all(calls);
  };
}

/** Resolves each `expect(n)` once n more echoes have arrived (`received()` counts one). */
export function echoCounter() {
  let missing = 0;
  let done: (() => void) | null = null;
  return {
    expect(n: number): Promise<void> {
      missing = n;
      return new Promise<void>((resolve) => (done = resolve));
    },
    received(): void {
      if (--missing === 0) done?.();
    },
  };
}

/** IpcChannel over a MessageChannel, with the port's default codec (structured clone) or `codec`. */
function messageChannelWith(codec?: Codec): MakeRoundTrip {
  return async (message, inFlight) => {
    const { port1, port2 } = new MessageChannel();
    new IpcChannel(portTransport(port2), { codec }).handle('echo', (value) => value);
    const channel = new IpcChannel(portTransport(port1), { codec });
    await channel.ready;
    return { run: concurrently(inFlight, () => channel.request('echo', message)), close: async () => (port1.close(), port2.close()) };
  };
}

export const messageChannelFramed = messageChannelWith();
export const messageChannelFramedJson = messageChannelWith(jsonCodec);

/** The raw port carrying what the channel's request carries: the same value, cloned; echoed back. */
export const messageChannelRaw: MakeRoundTrip = async (message, inFlight) => {
  const { port1, port2 } = new MessageChannel();
  const value = frameValue(message);
  const echoes = echoCounter();
  port2.onmessage = (event: MessageEvent) => port2.postMessage(event.data);
  port1.onmessage = () => echoes.received();
  return {
    run() {
      const back = echoes.expect(inFlight);
      for (let i = 0; i < inFlight; i++) port1.postMessage(value);
      return back;
    },
    close: async () => (port1.close(), port2.close()),
  };
};

/** birpc (the RPC vitest runs its workers on) over the same MessageChannel: structured clone, no bytes. */
export async function messageChannelBirpc(message: unknown, inFlight: number): Promise<RoundTrip> {
  const { createBirpc } = await import('birpc');
  const { port1, port2 } = new MessageChannel();
  const listen = (port: MessagePort) => (fn: (data: unknown) => void) => (port.onmessage = (event) => fn(event.data));
  createBirpc<object, { echo(v: unknown): unknown }>({ echo: (v) => v }, { post: (d) => port2.postMessage(d), on: listen(port2) });
  const rpc = createBirpc<{ echo(v: unknown): unknown }>({}, { post: (d) => port1.postMessage(d), on: listen(port1) });
  return { run: concurrently(inFlight, () => rpc.echo(message)), close: async () => (port1.close(), port2.close()) };
}

/** comlink (Google's RPC for workers) over the same MessageChannel. */
export async function messageChannelComlink(message: unknown, inFlight: number): Promise<RoundTrip> {
  const Comlink = await import('comlink');
  const { port1, port2 } = new MessageChannel();
  Comlink.expose({ echo: (v: unknown) => v }, port2);
  const remote = Comlink.wrap<{ echo(v: unknown): unknown }>(port1);
  return { run: concurrently(inFlight, () => remote.echo(message)), close: async () => (port1.close(), port2.close()) };
}

/** A stream of `count` copies of `item`, read to its end by each run (by `read`, where a channel's stream is read). */
export type MakeStream = (item: string | Uint8Array, count: number, read?: ReadStream) => Promise<RoundTrip>;

/** Reads a stream to its end; resolves with the number of items. */
export type ReadStream = (stream: ReadableStream<unknown>) => Promise<number>;

/** Reads `stream` to its end through a reader, as a consumer that pipes it reads it. */
export const drain: ReadStream = async (stream) => {
  const reader = stream.getReader();
  let n = 0;
  while (!(await reader.read()).done) n++;
  return n;
};

/** Reads `stream` to its end with `for await`, as the README reads a channel's stream. */
export const iterate: ReadStream = async (stream) => {
  let n = 0;
  for await (const item of stream as unknown as AsyncIterable<unknown>) if (item !== undefined) n++;
  return n;
};

/** IpcChannel's `stream` over a MessageChannel (values cloned), with the default credit window. */
export const messageChannelStream: MakeStream = async (item, count, read = drain) => {
  const { port1, port2 } = new MessageChannel();
  new IpcChannel(portTransport(port2)).handle('items', function* (n) {
    for (let i = 0; i < (n as number); i++) yield item;
  });
  const channel = new IpcChannel(portTransport(port1));
  await channel.ready;
  return { run: () => read(channel.stream('items', count)), close: async () => (port1.close(), port2.close()) };
};

/** The raw port carrying the same messages as the stream's DATA frames: `count` posts, counted on arrival. */
export const messageChannelStreamRaw: MakeStream = async (item, count) => {
  const { port1, port2 } = new MessageChannel();
  const echoes = echoCounter();
  const data = [IpcFrameType.DATA, 1, item];
  port2.onmessage = () => {
    for (let i = 0; i < count; i++) port2.postMessage(data);
  };
  port1.onmessage = () => echoes.received();
  return {
    run() {
      const done = echoes.expect(count);
      port1.postMessage(null); // the request
      return done;
    },
    close: async () => (port1.close(), port2.close()),
  };
};

/**
 * The floor of any stream API that hands out a ReadableStream: the raw port's messages enqueued
 * into one (the window IpcChannel grants cloned values, 64) and read to its end, with no framing
 * and no credit going back.
 */
export const messageChannelStreamRawReadable: MakeStream = async (item, count) => {
  const { port1, port2 } = new MessageChannel();
  const data = [IpcFrameType.DATA, 1, item];
  port2.onmessage = () => {
    for (let i = 0; i < count; i++) port2.postMessage(data);
  };
  return {
    run() {
      let received = 0;
      const readable = new ReadableStream<unknown>(
        {
          start(controller) {
            port1.onmessage = (event: MessageEvent<unknown[]>) => {
              controller.enqueue(event.data[2]);
              if (++received === count) controller.close();
            };
          },
        },
        { highWaterMark: DEFAULT_CLONED_STREAM_ITEMS },
      );
      port1.postMessage(null); // the request
      return drain(readable);
    },
    close: async () => (port1.close(), port2.close()),
  };
};

/** Round trips of `{ data }`, a buffer of `size` bytes, echoed back: cloned each way, or moved (transferred). */
export type MakeBufferTrip = (size: number, moved: boolean) => Promise<RoundTrip>;

/**
 * A run sends the buffer and waits for it to come back; the next run sends what came back (a
 * moved buffer is detached on the side that sent it).
 */
function bufferTrips(size: number, send: (message: { data: Uint8Array }) => Promise<{ data: Uint8Array }>): () => Promise<unknown> {
  let message: { data: Uint8Array } = { data: new Uint8Array(size).fill(1) };
  return async () => (message = await send(message));
}

/** The raw port: the message posted and posted back, with the buffer in the transfer list if moved. */
export const messageChannelBufferRaw: MakeBufferTrip = async (size, moved) => {
  const { port1, port2 } = new MessageChannel();
  const list = (message: { data: Uint8Array }) => (moved ? [message.data.buffer as ArrayBuffer] : []);
  port2.onmessage = (event: MessageEvent) => port2.postMessage(event.data, list(event.data as { data: Uint8Array }));
  let back: ((message: { data: Uint8Array }) => void) | null = null;
  port1.onmessage = (event: MessageEvent) => back?.(event.data as { data: Uint8Array });
  const run = bufferTrips(size, (message) => {
    const answer = new Promise<{ data: Uint8Array }>((resolve) => (back = resolve));
    port1.postMessage(message, list(message));
    return answer;
  });
  return { run, close: async () => (port1.close(), port2.close()) };
};

/** IpcChannel over the same port (values cloned), moving the buffer with `transfer` if moved. */
export const messageChannelBufferFramed: MakeBufferTrip = async (size, moved) => {
  const { port1, port2 } = new MessageChannel();
  const mark = (message: { data: Uint8Array }) => (moved ? transfer(message, [message.data.buffer]) : message);
  new IpcChannel(portTransport(port2)).handle('echo', (message: { data: Uint8Array }) => mark(message));
  const channel = new IpcChannel(portTransport(port1));
  await channel.ready;
  const run = bufferTrips(size, (message) => channel.request('echo', mark(message)) as Promise<{ data: Uint8Array }>);
  return { run, close: async () => (port1.close(), port2.close()) };
};

/** comlink over the same port, moving the buffer with `Comlink.transfer` if moved. */
export async function messageChannelBufferComlink(size: number, moved: boolean): Promise<RoundTrip> {
  const Comlink = await import('comlink');
  const { port1, port2 } = new MessageChannel();
  const mark = (message: { data: Uint8Array }) => (moved ? Comlink.transfer(message, [message.data.buffer as ArrayBuffer]) : message);
  Comlink.expose({ echo: (message: { data: Uint8Array }) => mark(message) }, port2);
  const remote = Comlink.wrap<{ echo(message: { data: Uint8Array }): { data: Uint8Array } }>(port1);
  const run = bufferTrips(size, (message) => remote.echo(mark(message)));
  return { run, close: async () => (port1.close(), port2.close()) };
}
