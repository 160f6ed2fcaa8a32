// Entry point for `deno run`: serves the test app with the options in argv[0] (JSON), prints its
// URL, and closes gracefully when a line "close" arrives on stdin.
import { serve } from '../../src/server/deno.js';
import { appOptions } from './app.js';
import type { TestServerOptions } from './suite.js';

declare const Deno: {
  args: string[];
  stdin: { readable: ReadableStream<Uint8Array> };
  readTextFileSync(path: string): string;
  exit(code: number): never;
};

const { tls, ...limits } = JSON.parse(Deno.args[0] ?? '{}') as TestServerOptions;
const read = (name: string) => Deno.readTextFileSync(new URL(`./fixtures/${name}`, import.meta.url).pathname);
const server = serve({ ...appOptions(), ...limits, tls: tls ? { cert: read('cert.pem'), key: read('key.pem') } : undefined });
await server.ready;
console.log(server.url);

const stdin = Deno.stdin.readable.getReader();
let input = '';
while (!input.includes('close')) {
  const { done, value } = await stdin.read();
  if (done) break;
  input += new TextDecoder().decode(value);
}
await server.close();
console.log('closed');
Deno.exit(0);
