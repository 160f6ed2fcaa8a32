// wirespeed/ipc on Deno: over a TCP socket through Deno's node:net (JSON), over a MessageChannel
// and to a web Worker itself (structured clone), over a WebSocket (wirespeed/deno's server, Deno's
// client), and over a forked child's process channel. Prints what each call gave, as JSON; deno.test.ts checks it.
import { fork } from 'node:child_process';
import { createConnection, createServer, type Socket } from 'node:net';
import { IpcChannel, portTransport, processTransport, streamTransport, webSocketTransport } from '../../src/ipc/index.js';
import { serve, upgradeWebSocket } from '../../src/server/deno.js';
import { serveTestMethods } from './test-methods.js';

declare const Deno: { exit(code: number): never };

// Never outlive the test: a call that never settles would hold this process open.
const deadline = setTimeout(() => Deno.exit(2), 20_000);

const results: Record<string, unknown> = {};
/** What a value is, in a form JSON keeps: bytes as their class and numbers. */
const shown = (value: unknown) => (value instanceof Uint8Array ? { bytes: [...value], isUint8Array: true } : value);

async function exercise(name: string, channel: IpcChannel): Promise<void> {
  await channel.ready;
  results[`${name}: echo`] = await channel.request('echo', { a: [1, 'two', null], text: 'é 😀' });
  results[`${name}: bytes`] = shown(await channel.request('bytes'));
  results[`${name}: fail`] = await channel.request('fail').catch((error: Error & { cause?: Error & { code?: string } }) => ({
    code: (error as { code?: string }).code,
    cause: { name: error.cause?.name, code: error.cause?.code },
  }));
  const items: unknown[] = [];
  for await (const item of channel.stream('items', 3000) as unknown as AsyncIterable<unknown>) items.push(shown(item));
  results[`${name}: items`] = { count: items.length, first: items.slice(0, 3), last: items.at(-1) };
}

// A TCP socket pair through node:net.
const listener = createServer();
await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
const accepted = new Promise<Socket>((resolve) => listener.once('connection', resolve));
const client = createConnection((listener.address() as { port: number }).port, '127.0.0.1');
serveTestMethods(new IpcChannel(streamTransport(await accepted)));
const overSocket = new IpcChannel(streamTransport(client));
await exercise('socket', overSocket);
overSocket.close();
listener.close();

// A MessageChannel: values cloned.
const { port1, port2 } = new MessageChannel();
serveTestMethods(new IpcChannel(portTransport(port2)));
const overPort = new IpcChannel(portTransport(port1));
await exercise('port', overPort);
overPort.close();

// A web Worker itself, the worker on its own scope (deno-ipc-worker.ts).
const worker = new Worker(new URL('./deno-ipc-worker.ts', import.meta.url).href, { type: 'module' });
const toWorker = new IpcChannel(portTransport(worker));
results['worker: square'] = await toWorker.request('square', 12);
results['worker: bytes'] = shown(await toWorker.request('bytes'));
toWorker.close();
worker.terminate();

// A WebSocket: wirespeed/deno's server side (upgradeWebSocket) and Deno's own WebSocket client.
const wsServer = serve({
  fetch(request) {
    const { socket, response } = upgradeWebSocket(request);
    serveTestMethods(new IpcChannel(webSocketTransport(socket)));
    return response;
  },
});
await wsServer.ready;
const overWebSocket = new IpcChannel(webSocketTransport(new WebSocket(wsServer.url.replace(/^http/, 'ws'))));
await exercise('websocket', overWebSocket);
overWebSocket.close();
await wsServer.close();

// A forked child's process channel (fork-peer.mjs, on the built package).
for (const serialization of ['json', 'advanced'] as const) {
  const child = fork(new URL('./fork-peer.mjs', import.meta.url).pathname, [serialization], { serialization });
  const toChild = new IpcChannel(processTransport(child, { serialization }));
  results[`fork ${serialization}: echo`] = await toChild.request('echo', { text: 'é "q" \n' });
  results[`fork ${serialization}: bytes`] = shown(await toChild.request('bytes'));
  results[`fork ${serialization}: exit`] = await toChild.request('exit').catch((error: { code?: string }) => error.code);
}

console.log(JSON.stringify(results));
clearTimeout(deadline);
Deno.exit(0);
