// Deno.serve in a process where wirespeed's serve() installed its global objects: each form of
// Deno.serve's handler and onError answers with the light responses the global Response now makes.
// Prints what a client got from each, as JSON; the test (deno-serve-beside.test.ts) checks it.
import { serve } from '../../src/server/deno.js';

declare const Deno: {
  serve(...args: unknown[]): { finished: Promise<void>; shutdown(): Promise<void> };
  exit(code: number): never;
};

// Never outlive the test: a server that never answers would hold this process (and its port) open.
const deadline = setTimeout(() => Deno.exit(2), 20_000);

const ours = serve({ fetch: () => new Response('from wirespeed') });
await ours.ready;

const listening = (resolve: (port: number) => void) => ({
  port: 0,
  hostname: '127.0.0.1',
  onListen: ({ port }: { port: number }) => resolve(port),
});
const handlers: Record<string, (request: Request) => Response | Promise<Response>> = {
  'a handler returning new Response()': () => new Response('sync', { headers: { 'x-form': 'sync' } }),
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
    const response = await fetch(`http://127.0.0.1:${port}/`);
    results[`${name} ${form}`] = `${response.status} ${response.headers.get('x-form') ?? '-'} ${await response.text()}`;
    await server!.shutdown();
  }
}
results['wirespeed beside them'] = await (await fetch(ours.url)).text();
await ours.close();
console.log(JSON.stringify(results));
clearTimeout(deadline);
