// The methods the IPC transport tests serve on every transport (Node, Deno, a browser's peer):
// an echo, a bytes result, a stream of bytes and strings, and a handler that throws a coded error.
import type { IpcChannel } from '../../src/ipc/index.js';

/** Serves echo, bytes, items (n of them: bytes at even positions, strings at odd) and fail on `channel`. */
export function serveTestMethods(channel: IpcChannel): IpcChannel {
  return channel
    .handle('echo', (v) => v)
    .handle('bytes', () => Uint8Array.of(0, 1, 255))
    .handle('items', function* (n) {
      for (let i = 0; i < (n as number); i++) yield i % 2 ? `item ${i} ✓` : Uint8Array.of(i % 256);
    })
    .handle('fail', () => {
      throw Object.assign(new RangeError('too far'), { code: 'E_FAR' });
    });
}
