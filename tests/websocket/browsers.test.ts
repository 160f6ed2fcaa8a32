// Real browser and runtime clients against the Node server: Debian's chromium (playwright-core),
// which offers permessage-deflate (declined: messages go uncompressed), and Deno's WebSocket.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../chromium.js';
import { denoRunArgs, launchNode } from '../server/launchers.js';
import type { Launched } from '../server/suite.js';

let server: Launched;
let browser: Browser;

beforeAll(async () => {
  server = await launchNode({});
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('WebSocket clients that are not Node', () => {
  it('chromium: text and binary echo, a subprotocol, and a clean close with its code', async () => {
    const page = await browser.newPage();
    const result = await page.evaluate(async (port) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/echo?protocol=v2`, ['v1', 'v2']);
      ws.binaryType = 'arraybuffer';
      const messages: unknown[] = [];
      await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
      const received = new Promise<void>((resolve) => {
        ws.onmessage = (event) => {
          messages.push(typeof event.data === 'string' ? event.data : [...new Uint8Array(event.data as ArrayBuffer)]);
          if (messages.length === 3) resolve();
        };
      });
      ws.send('héllo from chromium');
      ws.send(new Uint8Array([1, 2, 3]));
      ws.send('x'.repeat(100_000));
      await received;
      const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
      ws.close(4001, 'done');
      const event = await closed;
      return {
        protocol: ws.protocol,
        extensions: ws.extensions,
        messages: [messages[0], messages[1], (messages[2] as string).length],
        close: [event.code, event.reason, event.wasClean],
      };
    }, server.port);
    expect(result).toEqual({
      protocol: 'v2',
      extensions: '',
      messages: ['héllo from chromium', [1, 2, 3], 100_000],
      close: [4001, 'done', true],
    });
    await page.close();
  });

  it('chromium: permessage-deflate when the handler asks for it', async () => {
    const page = await browser.newPage();
    const result = await page.evaluate(async (port) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/echo?deflate`);
      await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
      const text = 'squeeze '.repeat(50_000);
      const echoed = new Promise<string>((resolve) => (ws.onmessage = (event) => resolve(event.data as string)));
      ws.send(text);
      const same = (await echoed) === text;
      ws.close();
      return { extensions: ws.extensions, same };
    }, server.port);
    expect(result).toEqual({ extensions: 'permessage-deflate; server_no_context_takeover; client_no_context_takeover', same: true });
    await page.close();
  });

  it("Deno's WebSocket client", async () => {
    const script = `
      const ws = new WebSocket('ws://127.0.0.1:${server.port}/ws/echo');
      ws.binaryType = 'arraybuffer';
      await new Promise((resolve) => (ws.onopen = resolve));
      const got = [];
      const done = new Promise((resolve) => (ws.onmessage = (e) => { got.push(typeof e.data === 'string' ? e.data : new Uint8Array(e.data).join(',')); if (got.length === 2) resolve(); }));
      ws.send('from deno');
      ws.send(new Uint8Array([7, 8]));
      await done;
      const closed = new Promise((resolve) => (ws.onclose = resolve));
      ws.close(1000);
      const event = await closed;
      console.log(JSON.stringify({ got, code: event.code, clean: event.wasClean }));
    `;
    // Asynchronously: the server runs in this process and must keep serving meanwhile.
    const child = spawn(process.execPath, denoRunArgs('-'), { env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } });
    child.stdin.end(script);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.once('exit', resolve));
    expect(JSON.parse(out.trim())).toEqual({ got: ['from deno', '7,8'], code: 1000, clean: true });
  });
});
