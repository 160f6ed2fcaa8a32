// Starts one bench server on Deno: `deno run -A deno-servers.js NAME PORT`. Prints "ready".
import { fetchAppSync } from './app.js';

interface DenoServe {
  args: string[];
  serve(options: { port: number; hostname: string; onListen: () => void }, handler: (request: Request) => Response | Promise<Response>): unknown;
}
const Deno = (globalThis as unknown as { Deno: DenoServe }).Deno;
const [name, portText] = Deno.args;
const port = Number(portText);
const hostname = '127.0.0.1';

switch (name) {
  case 'wirespeed-deno': {
    const { serve } = await import('../../../src/server/deno.js');
    await serve({ port, hostname, fetch: fetchAppSync }).ready;
    break;
  }
  case 'wirespeed-deno-light': {
    const { serve, LightResponse } = await import('../../../src/server/deno.js');
    globalThis.Response = LightResponse;
    await serve({ port, hostname, fetch: fetchAppSync }).ready;
    break;
  }
  case 'wirespeed-deno-h2':
  case 'wirespeed-deno-light-h2': {
    const { serve, LightResponse } = await import('../../../src/server/deno.js');
    if (name === 'wirespeed-deno-light-h2') globalThis.Response = LightResponse;
    await serve({ port, hostname, http2: true, fetch: fetchAppSync }).ready;
    break;
  }
  case 'deno-serve':
    await new Promise<void>((resolve) => Deno.serve({ port, hostname, onListen: resolve }, fetchAppSync));
    break;
  default:
    throw new Error(`unknown server "${name}"`);
}
console.log('ready');
