// The worker side of deno-ipc.ts: a channel on the worker's own scope (`self`), as a web worker has it.
import { IpcChannel, portTransport, type PortLike } from '../../src/ipc/index.js';

new IpcChannel(portTransport(self as unknown as PortLike))
  .handle('square', (n) => (n as number) ** 2)
  .handle('bytes', () => Uint8Array.of(7, 8, 9));
