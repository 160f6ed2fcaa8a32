// IpcChannel in a real browser (Debian's chromium, playwright-core): a page loads wirespeed/ipc
// (the built modules, served by the test's server) and talks to a wirespeed server over a
// WebSocket (webSocketTransport): requests both ways, bytes and strings, a stream, a remote error.
import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../chromium.js';
import { IpcChannel, webSocketTransport } from '../../src/ipc/index.js';
import { serve, upgradeWebSocket, type Server } from '../../src/server/node.js';
import { serveTestMethods } from './test-methods.js';

const DIST = join(new URL('../..', import.meta.url).pathname, 'dist');

let server: Server;
let browser: Browser;
const channels: IpcChannel[] = [];

beforeAll(async () => {
  server = serve({
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === '/ipc') {
        const { socket, response } = upgradeWebSocket(request);
        const channel = serveTestMethods(new IpcChannel(webSocketTransport(socket)));
        channels.push(channel);
        return response;
      }
      // The built modules, for the page's import(); nothing outside dist/.
      const file = normalize(join(DIST, path.replace(/^\/dist\//, '')));
      if (path.startsWith('/dist/') && file.startsWith(DIST + sep) && file.endsWith('.js')) {
        return new Response(await readFile(file), { headers: { 'content-type': 'text/javascript' } });
      }
      return new Response('<!doctype html><title>ipc</title>', { headers: { 'content-type': 'text/html' } });
    },
  });
  await server.ready;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('IPC in chromium, over a WebSocket to a wirespeed server', () => {
  it('requests both ways, bytes and strings, a 2,000-item stream and a remote error', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    const fromPage = page.evaluate(async () => {
      // import() spelled in a string: vitest rewrites the test file's own import() calls, this function's too.
      const load = new Function('url', 'return import(url)') as (url: string) => Promise<typeof import('../../src/ipc/index.js')>;
      const ipc = await load('/dist/src/ipc/index.js');
      const channel = new ipc.IpcChannel(ipc.webSocketTransport(new WebSocket(`ws://${location.host}/ipc`)));
      channel.handle('whoami', () => (navigator.userAgent.includes('Chrome') ? 'chromium' : navigator.userAgent));
      const echo = await channel.request('echo', { text: 'é ✓ 😀', n: [1, 2, 3] });
      const bytes = (await channel.request('bytes')) as Uint8Array;
      const items: unknown[] = [];
      for await (const item of channel.stream('items', 2000) as unknown as AsyncIterable<unknown>) {
        items.push(item instanceof Uint8Array ? { bytes: [...item] } : item);
      }
      const failure = await channel.request('fail').catch((error: Error & { code?: string; cause?: Error & { code?: string } }) => ({
        code: error.code,
        cause: [error.cause?.name, error.cause?.code],
      }));
      await new Promise((resolve) => setTimeout(resolve, 200)); // the server's request to this page
      return { echo, bytes: [bytes instanceof Uint8Array, ...bytes], count: items.length, first: items.slice(0, 2), failure };
    });
    await expect.poll(() => channels.length).toBe(1);
    expect(await channels[0]!.request('whoami')).toBe('chromium');
    expect(await fromPage).toEqual({
      echo: { text: 'é ✓ 😀', n: [1, 2, 3] },
      bytes: [true, 0, 1, 255],
      count: 2000,
      first: [{ bytes: [0] }, 'item 1 ✓'],
      failure: { code: 'ERR_REMOTE', cause: ['RangeError', 'E_FAR'] },
    });
    await page.close();
    // The page went away: its socket closed, and the server's channel failed.
    await expect(channels[0]!.request('whoami')).rejects.toMatchObject({ code: 'ERR_CLOSED' });
  });
});
