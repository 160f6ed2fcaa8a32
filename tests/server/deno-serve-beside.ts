// Deno.serve in a process where wirespeed's serve() installed its global objects: each form of
// Deno.serve's handler and onError answers with the light responses the global Response now makes,
// and so does a Deno.serve started before serve().
// Prints what a client got from each, as JSON; the test (deno-serve-beside.test.ts) checks it.
import { serve } from '../../src/server/deno.js';

declare const Deno: {
  serve(...args: unknown[]): { finished: Promise<void>; shutdown(): Promise<void> };
  exit(code: number): never;
};

// Never outlive the test: a server that never answers would hold this process (and its port) open.
const deadline = setTimeout(() => Deno.exit(2), 20_000);

const listening = (resolve: (port: number) => void) => ({
  port: 0,
  hostname: '127.0.0.1',
  onListen: ({ port }: { port: number }) => resolve(port),
});

// A Deno.serve started before serve() (a test's mock upstream made first, a health check started
// at boot): its handler makes its responses after the global Response changed.
let first: { shutdown(): Promise<void> } | undefined;
const firstPort = await new Promise<number>((resolve) => {
  first = Deno.serve(
    listening(resolve),
    (request: Request) => new Response(`started first, ${request.headers.get('x-asked')}`, { headers: { 'x-form': 'before' } }),
  );
});

const ours = serve({
  fetch: async (request) => {
    if (new URL(request.url).pathname !== '/cached') return new Response('from wirespeed');
    // Deno's Cache API keyed by the request, as code written for Deno.serve does.
    const cache = await caches.open('wirespeed-deno-beside-requests');
    const hit = await cache.match(request);
    if (hit) return new Response(`hit: ${await hit.text()}`);
    await cache.put(request, new Response('stored'));
    return new Response('miss');
  },
});
await ours.ready;
const handlers: Record<string, (request: Request) => Response | Promise<Response>> = {
  // Reading its request: Deno.serve passes none to a handler of no parameters (a wrapper that
  // declared none had every handler called without one).
  'a handler returning new Response()': (request) =>
    new Response(`sync ${request.method} ${new URL(request.url).pathname}`, { headers: { 'x-form': 'sync' } }),
  'an async handler returning Response.json()': async () => Response.json({ async: true }),
  'a handler returning a stream body': () =>
    new Response(new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('streamed')), c.close()) })),
  'a handler that throws, answered by onError': () => {
    throw new Error('boom');
  },
};
const onError = (error: unknown) => new Response(`onError: ${(error as Error).message}`, { status: 500 });

const results: Record<string, string> = {};
for (const [name, handler] of Object.entries(handlers)) {
  for (const form of ['(options, handler)', 'options.handler']) {
    let server: { shutdown(): Promise<void> } | undefined;
    const port = await new Promise<number>((resolve) => {
      server =
        form === 'options.handler'
          ? Deno.serve({ ...listening(resolve), handler, onError })
          : Deno.serve({ ...listening(resolve), onError }, handler);
    });
    const response = await fetch(`http://127.0.0.1:${port}/path`);
    results[`${name} ${form}`] = `${response.status} ${response.headers.get('x-form') ?? '-'} ${await response.text()}`;
    await server!.shutdown();
  }
}
results['wirespeed beside them'] = await (await fetch(ours.url)).text();
const cached = async () => await (await fetch(`${ours.url}/cached`)).text();
results['the Cache API keyed by a request of the server'] = `${await cached()}, ${await cached()}`;
await caches.delete('wirespeed-deno-beside-requests');
// Deno's other APIs that take a Response: the Cache API (hono's cache() middleware puts
// `c.res.clone()`) and WebAssembly's streaming compile.
const cache = await caches.open('wirespeed-deno-beside');
await cache.put('http://cached.test/a', new Response('cached body', { headers: { 'x-form': 'cache' } }));
const hit = await cache.match('http://cached.test/a');
results['the Cache API: put, then match'] = `${hit?.status} ${hit?.headers.get('x-form')} ${await hit?.text()}`;
await caches.delete('wirespeed-deno-beside');
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const wasm = () => new Response(EMPTY_MODULE, { headers: { 'content-type': 'application/wasm' } });
results['WebAssembly.compileStreaming'] = String((await WebAssembly.compileStreaming(wasm())) instanceof WebAssembly.Module);
results['WebAssembly.instantiateStreaming of a promise'] = typeof (await WebAssembly.instantiateStreaming(Promise.resolve(wasm())))
  .instance;
const before = await fetch(`http://127.0.0.1:${firstPort}/`, { headers: { 'x-asked': 'yes' } });
results['a Deno.serve started before serve()'] = `${before.status} ${before.headers.get('x-form') ?? '-'} ${await before.text()}`;
await first!.shutdown();
await ours.close();
console.log(JSON.stringify(results));
clearTimeout(deadline);
