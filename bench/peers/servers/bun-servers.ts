// Starts one bench server on Bun: `bun bun-servers.js NAME PORT`. Prints "ready" once listening.
import { fetchAppSync } from './app.js';

interface BunServe {
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Response | Promise<Response> }): unknown;
}
const Bun = (globalThis as unknown as { Bun: BunServe }).Bun;
const [name, portText] = process.argv.slice(2);

switch (name) {
  case 'bun-serve':
    Bun.serve({ port: Number(portText), hostname: '127.0.0.1', fetch: fetchAppSync });
    break;
  default:
    throw new Error(`unknown bun server ${name}`);
}
console.log('ready');
