// Node-style streams: a net.Socket (Unix domain socket, named pipe, TCP) or a child process's
// stdio. Works on Deno through its node: modules.
import type { Readable, Writable } from 'node:stream';
import type { IpcTransport } from '../transport.js';

/** An IpcTransport over Node streams (a socket, or a child's stdio). */
export function streamTransport(readable: Readable, writable: Writable = readable as unknown as Writable): IpcTransport {
  return {
    send(bytes) {
      writable.write(bytes);
    },
    backlogged() {
      return writable.writableNeedDrain === true;
    },
    allocate(size) {
      // Not zeroed (the channel writes every byte it sends), and a Buffer, which write() takes as is.
      return Buffer.allocUnsafe(size);
    },
    start(receiver) {
      readable.on('data', (chunk: Uint8Array) => receiver.data(chunk));
      readable.once('end', () => receiver.end());
      readable.once('error', (error) => receiver.end(error));
      writable.once('error', (error) => receiver.end(error));
      writable.on('drain', () => receiver.drained?.());
    },
    close() {
      writable.end();
      if (readable !== (writable as unknown)) readable.destroy();
    },
  };
}
