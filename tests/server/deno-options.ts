// Entry point for `deno run`: tries every bad option of option-cases.ts on wirespeed/deno and
// prints what each threw, and what a good server's listening callback got, as JSON.
import { tmpdir } from 'node:os';
import { serve, type ListeningInfo } from '../../src/server/deno.js';
import { describeError, optionCases } from './option-cases.js';

interface DenoTls {
  readFileSync(path: URL): Uint8Array;
  readTextFileSync(path: URL): string;
  createHttpClient(options: { caCerts: string[] }): { close(): void };
}

const cases = optionCases.map((c) => {
  try {
    serve(c.options() as Parameters<typeof serve>[0], c.listener?.() as Parameters<typeof serve>[1]);
    return { what: c.what, error: 'none', code: '', option: '', message: '' };
  } catch (error) {
    return { what: c.what, ...describeError(error) };
  }
});
const calls: ListeningInfo[] = [];
const server = serve({ fetch: () => new Response('ok') }, (info) => calls.push(info));
await server.ready;
await new Promise((resolve) => setTimeout(resolve, 10));
const listening = { calls, port: server.port };
await server.close();

// Deno.serve's HttpServer members: code written for it awaits `finished` and calls `shutdown()`.
const served = serve({ fetch: () => new Response('ok') });
let finished = false;
void served.finished.then(() => (finished = true));
await served.ready;
const addr = served.addr;
const addressServing = served.address();
const answered = await (await fetch(`http://127.0.0.1:${addr.port}/`)).text();
const finishedWhileServing = finished;
await served.shutdown();
await new Promise((resolve) => setTimeout(resolve, 0));
let refused = false;
await fetch(`http://127.0.0.1:${addr.port}/`).catch(() => (refused = true));
const disposed = serve({ fetch: () => new Response('ok') });
let disposedFinished = false;
void disposed.finished.then(() => (disposedFinished = true));
await disposed.ready;
disposed.unref();
disposed.ref();
await disposed[Symbol.asyncDispose]();
await new Promise((resolve) => setTimeout(resolve, 0));
// process.env.PORT, a string of digits, is taken as node:http's listen() takes it.
const fromEnv = serve({ fetch: () => new Response('ok'), port: '0' as unknown as number });
await fromEnv.ready;
const stringPort = fromEnv.port;
await fromEnv.close();
// The PEM files' bytes (as node:https takes them), not only strings.
const Deno = (globalThis as unknown as { Deno: DenoTls }).Deno;
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const secure = serve({
  fetch: () => new Response('over tls'),
  tls: { cert: Deno.readFileSync(fixture('cert.pem')), key: Deno.readFileSync(fixture('key.pem')) },
});
await secure.ready;
const trusting = Deno.createHttpClient({ caCerts: [Deno.readTextFileSync(fixture('ca.pem'))] });
const tlsBytes = await (await fetch(`https://127.0.0.1:${secure.port}/`, { client: trusting } as RequestInit)).text();
trusting.close();
await secure.close();
const httpServer = {
  addr,
  addressWhileServing: addressServing,
  addressAfterShutdown: served.address(),
  port: addr.port,
  answered,
  finishedWhileServing,
  finished,
  refused,
  disposedFinished,
};
// node:http's events, as on Node.
const events: string[] = [];
const evented = serve({ fetch: () => new Response('ok') })
  .on('listening', () => events.push('listening'))
  .on('close', () => events.push('close'));
await evented.ready;
await new Promise((resolve) => setTimeout(resolve, 0));
await evented.close();
await new Promise((resolve) => setTimeout(resolve, 0));
// On a Unix socket: where it listens, as the listening callback, address() and addr give it.
const socketPath = `${tmpdir()}/wirespeed-deno-options-${Date.now()}.sock`;
const unixCalls: ListeningInfo[] = [];
const onUnix = serve({ fetch: () => new Response('ok'), path: socketPath }, (info) => unixCalls.push(info));
await onUnix.ready;
await new Promise((resolve) => setTimeout(resolve, 10));
const unix = { calls: unixCalls, addr: onUnix.addr, url: onUnix.url, port: onUnix.port, hostname: onUnix.hostname, path: socketPath };
await onUnix.close();
// Deno.listenTls has no Unix sockets: TLS with a path is refused, naming tls.
let tlsOnUnix: ReturnType<typeof describeError> | null = null;
try {
  serve({ fetch: () => new Response('ok'), path: socketPath, tls: { cert: 'x', key: 'y' } });
} catch (error) {
  tlsOnUnix = describeError(error);
}
console.log(JSON.stringify({ cases, listening, httpServer, stringPort, tlsBytes, events, unix, tlsOnUnix }));
