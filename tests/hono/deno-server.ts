// The same hono app on Deno: `wirespeed` (wirespeed/deno), `wirespeed-h2` (the same with HTTP/2
// beside HTTP/1.1) or `deno` (Deno.serve), by argv[0]. Static files through wirespeed/hono's
// serveStatic on both (hono/deno's answers differently: no Last-Modified, no ranges).
// Prints its URL; exits when stdin closes.
import { getConnInfo as denoConnInfo } from 'hono/deno';
import { getConnInfo, serveStatic } from '../../src/hono/index.js';
import { serve } from '../../src/server/deno.js';
import { createApp } from './app.mjs';

declare const Deno: {
  args: string[];
  stdin: { readable: ReadableStream<Uint8Array> };
  serve(
    options: { port: number; hostname: string; onListen(addr: { port: number }): void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
  exit(code: number): never;
};

// Each server with its users' getConnInfo: hono/deno's on Deno.serve, wirespeed/hono's on wirespeed.
const app = createApp({ staticFiles: serveStatic, connInfo: Deno.args[0] === 'deno' ? denoConnInfo : getConnInfo });
if (Deno.args[0] === 'deno') {
  Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`http://127.0.0.1:${port}`) }, app.fetch);
} else {
  const server = serve({ fetch: app.fetch, http2: Deno.args[0] === 'wirespeed-h2' });
  await server.ready;
  console.log(server.url);
}
// Runs until the test closes stdin.
const stdin = Deno.stdin.readable.getReader();
while (!(await stdin.read()).done);
Deno.exit(0);
