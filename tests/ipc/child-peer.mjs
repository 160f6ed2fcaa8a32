// A peer in a child process, on its stdio: the built package, as a user would run it.
import { IpcChannel, jsonCodec, streamTransport } from '../../dist/src/ipc/index.js';
import { msgpackCodec, msgpackrRecordsCodec } from '../../dist/src/ipc/msgpack.js';

const codecs = { json: () => jsonCodec, msgpack: () => msgpackCodec, msgpackr: msgpackrRecordsCodec };
const channel = new IpcChannel(streamTransport(process.stdin, process.stdout), { codec: codecs[process.argv[2] ?? 'json']() });
channel
  .handle('add', ([a, b]) => a + b)
  .handle('echo', (value) => value)
  .handle('pid', () => process.pid)
  .handle('slow', (_, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('aborted'))))
  .handle('count', function* (n) {
    for (let i = 0; i < n; i++) yield i;
  })
  .handle('fail', () => {
    throw new Error('boom');
  });
channel.on('bye', () => process.exit(0));
