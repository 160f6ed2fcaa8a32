// Round trips over a web MessageChannel inside one thread: the IPC transport every runtime has,
// browsers included (the Node-only transports are in ipc-transports.ts).
import { encodeFrame, FrameType, IpcChannel, msgpackCodec, portTransport, type PortLike } from '../../src/ipc/index.js';

export interface RoundTrip {
  run(): Promise<unknown>;
  close(): Promise<void>;
}

/** The bytes the framed request puts on the wire: the raw cases move exactly as many. */
export function frameBytes(message: unknown): Uint8Array {
  return encodeFrame(FrameType.REQUEST, 1, msgpackCodec.encode(['echo', message]));
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

export async function messageChannelRaw(message: unknown): Promise<RoundTrip> {
  const { port1, port2 } = new MessageChannel();
  const bytes = frameBytes(message);
  port2.onmessage = (event: MessageEvent<Uint8Array>) => port2.postMessage(event.data, [event.data.buffer]);
  let resolve: (() => void) | null = null;
  port1.onmessage = () => resolve?.();
  return {
    run() {
      const copy = bytes.slice();
      const back = new Promise<void>((r) => (resolve = r));
      port1.postMessage(copy, [copy.buffer]);
      return back;
    },
    close: async () => (port1.close(), port2.close()),
  };
}
