// A MessagePort (worker_threads in Node, web workers, Deno): bytes are transferred, not copied,
// and values (the structured-clone codec, a channel's default here) are cloned by the runtime.
import type { IpcTransport } from '../transport.js';

/**
 * The part of MessagePort this uses (web and node:worker_threads both have it). One loose
 * `addEventListener` signature, so both runtimes' MessagePort types fit without a cast.
 */
export interface PortLike {
  // Two signatures, not one with an optional `transfer`: the web MessagePort's overloads fit only these.
  // eslint-disable-next-line @typescript-eslint/unified-signatures
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'close', listener: (event: Event) => void): void;
  /** Node's EventEmitter face: no MessageEvent object per message, which EventTarget makes. */
  on?(type: 'message', listener: (data: unknown) => void): unknown;
  start?(): void;
  close(): void;
}

/** An IpcTransport over a MessagePort (node:worker_threads or web): bytes transferred, values cloned. */
export function portTransport(port: PortLike): IpcTransport {
  return {
    send(bytes) {
      // Frames from encodeFrame own their buffer, so transferring it moves exactly this frame.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const frame = own ? bytes : bytes.slice();
      port.postMessage(frame, [frame.buffer as ArrayBuffer]);
    },
    sendValue(value) {
      port.postMessage(value); // no transfer list: an empty one cost ~5% of a stream of small items
    },
    start(receiver) {
      const deliver = (data: unknown) => (data instanceof Uint8Array ? receiver.data(data) : receiver.value?.(data));
      if (port.on) port.on('message', deliver);
      else port.addEventListener('message', (event) => deliver((event as MessageEvent).data));
      port.addEventListener('close', () => receiver.end());
      port.start?.();
    },
    close() {
      port.close();
    },
  };
}
