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
    sendValue(value, transfer) {
      // No empty transfer list: one cost ~5% of a stream of small items.
      if (!transfer) return port.postMessage(value);
      // Node 20 drops a message whose transfer list holds a buffer moved already, silently (the
      // request would hang); Deno and browsers throw, as the HTML standard says. Throw everywhere.
      const moved = transfer.findIndex(isDetached);
      if (moved >= 0) throw new DOMException(`the ArrayBuffer at index ${moved} of the transfer list was moved already`, 'DataCloneError');
      // Any transferable goes; the list is typed as PortLike's, which both runtimes' ports fit.
      port.postMessage(value, transfer as ArrayBuffer[]);
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

/** Whether `item` is an ArrayBuffer moved away (`detached` is in V8 from Node 22; before, only its constructor tells). */
function isDetached(item: object): boolean {
  if (!(item instanceof ArrayBuffer) || item.byteLength > 0) return false;
  const detached = (item as { detached?: boolean }).detached;
  if (detached !== undefined) return detached;
  try {
    new Uint8Array(item);
    return false;
  } catch {
    return true;
  }
}
