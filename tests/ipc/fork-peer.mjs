// A peer in a forked child, on Node's process IPC channel (processTransport): the built package, as
// a user would run it. argv[2] is the serialization fork() was given; the child also answers the
// app's own messages on the same channel ('app ping' → 'app pong').
import { setTimeout } from 'node:timers';
import { IpcChannel, processTransport } from '../../dist/src/ipc/index.js';

process.on('message', (message) => {
  if (message === 'app ping') process.send('app pong');
});
// What this process would crash with, told to the parent instead.
process.on('uncaughtException', (error) => process.send(`app uncaught ${error.message}`));
let heard = 0;
new IpcChannel(processTransport(process, { serialization: process.argv[2] }))
  .on('boom', () => {
    throw new Error('a bug in a listener');
  })
  .on('boom', () => heard++)
  .handle('heard', () => heard)
  .handle('echo', (value) => value)
  .handle('bytes', () => Uint8Array.of(0, 10, 13, 34, 92, 255))
  .handle('items', function* (n) {
    for (let i = 0; i < n; i++) yield i % 2 ? `item ${i} ✓` : Uint8Array.of(i % 256, 0, 10);
  })
  .handle('fail', () => {
    throw Object.assign(new RangeError('too far'), { code: 'E_FAR' });
  })
  .handle('exit', () => process.exit(5))
  // Items of 1 KB for as long as the reader's credit lasts; how many were made 300 ms in.
  .handle('endless', function* () {
    setTimeout(() => (madeAt300ms = made), 300);
    for (;;) {
      made++;
      yield 'x'.repeat(1024);
    }
  })
  .handle('madeAt300ms', () => madeAt300ms);
let made = 0;
let madeAt300ms = -1;
