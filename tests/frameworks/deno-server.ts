// The apps of apps.ts on wirespeed/deno, with HTTP/2 beside HTTP/1.1. Prints its URL; exits when
// stdin closes.
import { serve } from '../../src/server/deno.js';
import { frameworksHandler } from './apps.js';

declare const Deno: { stdin: { readable: ReadableStream<Uint8Array> }; exit(code: number): never };

const server = serve({ fetch: frameworksHandler(), http2: true });
await server.ready;
console.log(server.url);
// Runs until the test closes stdin.
const stdin = Deno.stdin.readable.getReader();
while (!(await stdin.read()).done);
Deno.exit(0);
