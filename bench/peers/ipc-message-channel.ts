// Round trips over a web MessageChannel inside one thread: the IPC transport every runtime has,
// browsers included (the Node-only transports are in ipc-transports.ts). Each run has `inFlight`
// requests out at once (1: one at a time) and ends when all are answered.
import { encodeFrame, IpcFrameType, IpcChannel, jsonCodec, portTransport } from '../../src/ipc/index.js';

export interface RoundTrip {
  run(): Promise<unknown>;
  close(): Promise<void>;
}

/** Makes a round trip of `message` with `inFlight` requests at once per run. */
export type MakeRoundTrip = (message: unknown, inFlight: number) => Promise<RoundTrip>;

/** The bytes the framed request puts on the wire (the default codec): the raw cases move exactly as many. */
export function frameBytes(message: unknown): Uint8Array {
  return encodeFrame(IpcFrameType.REQUEST, 1, jsonCodec.encode(['echo', message]));
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

/** The raw case over a port whose other end echoes: each run posts `inFlight` copies of `bytes` and waits for them. */
export function portEchoRoundTrip(
  port: { postMessage(message: unknown, transfer: ArrayBuffer[]): void },
  bytes: Uint8Array,
  inFlight: number,
  close: () => Promise<void>,
) {
  const echoes = echoCounter();
  return {
    /** Call on every message back from the echo. */
    received: () => echoes.received(),
    trip: {
      run() {
        const back = echoes.expect(inFlight);
        for (let i = 0; i < inFlight; i++) {
          const copy = bytes.slice();
          port.postMessage(copy, [copy.buffer]);
        }
        return back;
      },
      close,
    } satisfies RoundTrip,
  };
}

export const messageChannelFramed: MakeRoundTrip = async (message, inFlight) => {
  const { port1, port2 } = new MessageChannel();
  new IpcChannel(portTransport(port2)).handle('echo', (value) => value);
  const channel = new IpcChannel(portTransport(port1));
  await channel.ready;
  return { run: concurrently(inFlight, () => channel.request('echo', message)), close: async () => (port1.close(), port2.close()) };
};

export const messageChannelRaw: MakeRoundTrip = async (message, inFlight) => {
  const { port1, port2 } = new MessageChannel();
  port2.onmessage = (event: MessageEvent<Uint8Array>) => port2.postMessage(event.data, [event.data.buffer]);
  const { received, trip } = portEchoRoundTrip(port1, frameBytes(message), inFlight, async () => (port1.close(), port2.close()));
  port1.onmessage = received;
  return trip;
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
