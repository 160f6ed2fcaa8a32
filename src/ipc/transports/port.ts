// A MessagePort, a Worker or a worker's own scope (node:worker_threads' parentPort, a web worker's
// `self`): bytes are transferred, not copied, and values (the structured-clone codec, a channel's
// default here) are cloned by the runtime.
import type { IpcTransport } from '../transport.js';

/**
 * What this takes of a MessagePort, a Worker (node:worker_threads or web) or a worker's global
 * scope: `postMessage`, and a way to listen (`on`, Node's EventEmitter face, or
 * `addEventListener`). One loose signature each, so every runtime's types fit without a cast.
 */
export interface PortLike {
  // Two signatures, not one with an optional `transfer`: the web MessagePort's overloads fit only these.
  // eslint-disable-next-line @typescript-eslint/unified-signatures
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  postMessage(message: unknown): void;
  addEventListener?(type: 'message' | 'close', listener: (event: Event) => void): void;
  removeEventListener?(type: 'message', listener: (event: Event) => void): void;
  /** Node's EventEmitter face: no MessageEvent object per message, which EventTarget makes. */
  on?(type: 'message' | 'close' | 'exit', listener: (data: unknown) => void): unknown;
  off?(type: 'message' | 'exit', listener: (data: unknown) => void): unknown;
  /** A MessagePort's: what tells a port from a Worker or a worker's scope. */
  start?(): void;
  close?(): void;
}

/**
 * An IpcTransport over a MessagePort, a Worker or a worker's global scope: bytes transferred,
 * values cloned. Closing the channel closes a port (its other end sees it and fails its channel);
 * a Worker or a worker's scope is only no longer listened to (closing one would end the worker:
 * `worker.terminate()` is the caller's to call). A Node Worker that exits ends the channel.
 */
export function portTransport(port: PortLike): IpcTransport {
  const isPort = typeof port.start === 'function';
  let stopListening = () => {};
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
      const end = () => receiver.end();
      if (port.on) {
        port.on('message', deliver);
        // A port closed at either end says 'close'; a Node Worker that exited, 'exit'.
        port.on(isPort ? 'close' : 'exit', end);
        stopListening = () => {
          port.off?.('message', deliver);
          port.off?.('exit', end);
        };
      } else if (port.addEventListener) {
        const listener = (event: Event) => deliver((event as MessageEvent).data);
        port.addEventListener('message', listener);
        if (isPort) port.addEventListener('close', end);
        stopListening = () => port.removeEventListener?.('message', listener);
      } else
        throw new TypeError('portTransport takes a MessagePort, a Worker or a worker’s scope: it has neither on() nor addEventListener()');
      port.start?.();
    },
    close() {
      if (isPort) port.close?.();
      else stopListening();
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
