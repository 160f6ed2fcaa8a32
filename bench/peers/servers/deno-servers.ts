// Starts one bench server on Deno: `deno run -A deno-servers.js NAME PORT`. Prints "ready".
import { fetchAppSync } from './app.js';

interface DenoServe {
  args: string[];
  upgradeWebSocket(request: Request): { socket: WebSocket; response: Response };
  serve(
    options: { port: number; hostname: string; onListen: () => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
}
const Deno = (globalThis as unknown as { Deno: DenoServe }).Deno;
const [name, portText] = Deno.args;
const port = Number(portText);
const hostname = '127.0.0.1';

/** WebSocket echo (binary as ArrayBuffer, as a server app would take it). */
interface EchoSocket {
  binaryType: string;
  onmessage: ((event: MessageEvent) => unknown) | null;
  send(data: string | ArrayBuffer): void;
}
function webSocketEcho({ socket, response }: { socket: EchoSocket; response: Response }) {
  socket.binaryType = 'arraybuffer';
  socket.onmessage = (event) => socket.send(event.data as string | ArrayBuffer);
  return response;
}

switch (name) {
  case 'wirespeed-deno':
  case 'wirespeed-deno-runtime': {
    // Defaults (LightResponse as the global), or -runtime: Deno's own Response.
    const { serve } = await import('../../../src/server/deno.js');
    await serve({ port, hostname, fetch: fetchAppSync, overrideGlobalObjects: name === 'wirespeed-deno' }).ready;
    break;
  }
  case 'wirespeed-deno-h2':
  case 'wirespeed-deno-runtime-h2': {
    const { serve } = await import('../../../src/server/deno.js');
    await serve({ port, hostname, http2: true, fetch: fetchAppSync, overrideGlobalObjects: name === 'wirespeed-deno-h2' }).ready;
    break;
  }
  case 'deno-serve':
    await new Promise<void>((resolve) => Deno.serve({ port, hostname, onListen: resolve }, fetchAppSync));
    break;
  case 'wirespeed-deno-hono': {
    const { serve } = await import('../../../src/server/deno.js');
    const { honoApp } = await import('./hono-app.js');
    await serve({ port, hostname, fetch: honoApp().fetch }).ready;
    break;
  }
  case 'deno-serve-hono': {
    const { honoApp } = await import('./hono-app.js');
    const app = honoApp();
    await new Promise<void>((resolve) => Deno.serve({ port, hostname, onListen: resolve }, app.fetch));
    break;
  }
  case 'wirespeed-deno-ws': {
    const { serve, upgradeWebSocket } = await import('../../../src/server/deno.js');
    await serve({ port, hostname, fetch: (request) => webSocketEcho(upgradeWebSocket(request)) }).ready;
    break;
  }
  case 'deno-ws':
    await new Promise<void>((resolve) =>
      Deno.serve({ port, hostname, onListen: resolve }, (request) => webSocketEcho(Deno.upgradeWebSocket(request))),
    );
    break;
  default:
    throw new Error(`unknown server "${name}"`);
}
console.log('ready');
