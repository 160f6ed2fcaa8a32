// A MessagePort (worker_threads in Node, web workers, Deno): each frame is one message and its
// buffer is transferred, not copied.
import type { IpcTransport } from '../transport.js';

/**
 * The part of MessagePort this uses (web and node:worker_threads both have it). One loose
 * `addEventListener` signature, so both runtimes' MessagePort types fit without a cast.
 */
export interface PortLike {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: 'message' | 'close', listener: (event: Event) => void): void;
  /** Node's EventEmitter face: no MessageEvent object per message, which EventTarget makes. */
  on?(type: 'message', listener: (data: unknown) => void): unknown;
  start?(): void;
  close(): void;
}

/** An IpcTransport over a MessagePort (node:worker_threads or web): each frame one message, its buffer transferred. */
export function portTransport(port: PortLike): IpcTransport {
  return {
    send(bytes) {
      // Frames from encodeFrame own their buffer, so transferring it moves exactly this frame.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const frame = own ? bytes : bytes.slice();
      port.postMessage(frame, [frame.buffer as ArrayBuffer]);
    },
    start(receiver) {
      if (port.on) port.on('message', (data) => receiver.data(data as Uint8Array));
      else port.addEventListener('message', (event) => receiver.data((event as MessageEvent).data as Uint8Array));
      port.addEventListener('close', () => receiver.end());
      port.start?.();
    },
    close() {
      port.close();
    },
  };
}
