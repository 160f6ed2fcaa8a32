// Round trips over a web MessageChannel inside one thread: the IPC transport every runtime has,
// browsers included (the Node-only transports are in ipc-transports.ts).
import { encodeFrame, IpcFrameType, IpcChannel, jsonCodec, portTransport, type PortLike } from '../../src/ipc/index.js';

export interface RoundTrip {
  run(): Promise<unknown>;
  close(): Promise<void>;
}

/** The bytes the framed request puts on the wire (the default codec): the raw cases move exactly as many. */
export function frameBytes(message: unknown): Uint8Array {
  return encodeFrame(IpcFrameType.REQUEST, 1, jsonCodec.encode(['echo', message]));
}

export async function messageChannelFramed(message: unknown): Promise<RoundTrip> {
  const { port1, port2 } = new MessageChannel();
  new IpcChannel(portTransport(port2 as unknown as PortLike)).handle('echo', (value) => value);
  const channel = new IpcChannel(portTransport(port1 as unknown as PortLike));
  await channel.ready;
  return {
    run: () => channel.request('echo', message),
    close: async () => (port1.close(), port2.close()),
  };
}

/** The raw case over a port whose other end echoes: each run posts a copy of `bytes` and waits for it. */
export function portEchoRoundTrip(
  port: { postMessage(message: unknown, transfer: Transferable[]): void },
  bytes: Uint8Array,
  close: () => Promise<void>,
) {
  let resolve: (() => void) | null = null;
  return {
    /** Call on every message back from the echo. */
    received: () => resolve?.(),
    trip: {
      run() {
        const copy = bytes.slice();
        const back = new Promise<void>((r) => (resolve = r));
        port.postMessage(copy, [copy.buffer]);
        return back;
      },
      close,
    } satisfies RoundTrip,
  };
}

export async function messageChannelRaw(message: unknown): Promise<RoundTrip> {
  const { port1, port2 } = new MessageChannel();
  port2.onmessage = (event: MessageEvent<Uint8Array>) => port2.postMessage(event.data, [event.data.buffer]);
  const { received, trip } = portEchoRoundTrip(port1, frameBytes(message), async () => (port1.close(), port2.close()));
  port1.onmessage = received;
  return trip;
}
