// Debian's chromium (playwright-core) as the client of the test app over HTTPS, where it picks
// HTTP/2 by ALPN, on both adapters: a page's requests multiplexed on one connection, bodies larger
// than the flow-control windows both ways, a download cancelled midway, an event stream the
// browser closes, a multipart upload as the browser encodes it, and a WebSocket over the same
// HTTP/2 connection (RFC 8441: chromium uses it when the server offers extended CONNECT), and an
// upload over the body limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../chromium.js';
import { launchDeno, launchNode } from './launchers.js';
import type { Launched, Launcher } from './suite.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Larger than the server's stream window (256 KiB) and connection window (1 MiB). */
const UPLOAD_BYTES = 3 * 1024 * 1024;
const DOWNLOAD_KB = 4096;

function inChromium(adapter: string, launch: Launcher): void {
  describe(`${adapter}: chromium over HTTPS (HTTP/2 by ALPN)`, () => {
    let server: Launched;
    let page: Page;

    beforeAll(async () => {
      server = await launch({ tls: true, http2: true });
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      page = await context.newPage();
      const loaded = await page.goto(`${server.url}/hello`);
      expect(loaded?.status()).toBe(200);
    });

    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    it('a page and 40 requests at once share one HTTP/2 connection', async () => {
      const result = await page.evaluate(async () => {
        const port = await (await fetch('/remote-port')).text();
        const bodies = await Promise.all(
          Array.from({ length: 40 }, (_, i) => fetch(`/repeat?id=${i}&n=2000&unit=ab`).then((r) => r.text())),
        );
        const wrong = bodies.filter((body, i) => body !== `${i}:${'ab'.repeat(2000)}`).length;
        const ports = new Set(await Promise.all(Array.from({ length: 5 }, () => fetch('/remote-port').then((r) => r.text()))));
        const protocols = new Set(performance.getEntriesByType('resource').map((e) => (e as PerformanceResourceTiming).nextHopProtocol));
        const navigation = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol;
        return { wrong, samePort: ports.size === 1 && ports.has(port), protocols: [...protocols], navigation };
      });
      expect(result).toEqual({ wrong: 0, samePort: true, protocols: ['h2'], navigation: 'h2' });
    });

    it('an upload and a download larger than the flow-control windows arrive whole', async () => {
      const result = await page.evaluate(
        async ([uploadBytes, downloadKb]) => {
          const hex = async (bytes: ArrayBuffer | Uint8Array<ArrayBuffer>) =>
            [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
          const sent = new Uint8Array(uploadBytes);
          for (let at = 0; at < sent.length; at += 65536) crypto.getRandomValues(sent.subarray(at, at + 65536));
          const echoed = await (await fetch('/echo', { method: 'POST', body: sent })).arrayBuffer();
          const download = new Uint8Array(await (await fetch(`/big?kb=${downloadKb}`)).arrayBuffer());
          return {
            echoed: echoed.byteLength,
            sameBytes: (await hex(echoed)) === (await hex(sent)),
            downloaded: download.length,
            allA: download.every((byte) => byte === 97),
          };
        },
        [UPLOAD_BYTES, DOWNLOAD_KB],
      );
      expect(result).toEqual({ echoed: UPLOAD_BYTES, sameBytes: true, downloaded: DOWNLOAD_KB * 1024, allA: true });
    });

    it('a download the page cancels midway ends that stream only: the connection serves on', async () => {
      const result = await page.evaluate(async () => {
        const port = await (await fetch('/remote-port')).text();
        const controller = new AbortController();
        const response = await fetch('/big?kb=16384', { signal: controller.signal });
        const first = await response.body!.getReader().read();
        controller.abort();
        const after = await (await fetch('/hello')).text();
        return { firstChunk: (first.value?.length ?? 0) > 0, after, samePort: (await (await fetch('/remote-port')).text()) === port };
      });
      expect(result).toEqual({ firstChunk: true, after: 'Hello World!', samePort: true });
    });

    it('an EventSource the page closes cancels its response stream on the server', async () => {
      const id = `chromium-${adapter}`;
      const result = await page.evaluate(async (id) => {
        const source = new EventSource(`/event-stream?id=${id}`);
        const data = await new Promise<string>((resolve, reject) => {
          source.onmessage = (event) => resolve(event.data as string);
          source.onerror = () => reject(new Error('EventSource failed'));
        });
        source.close();
        // The browser resets the stream; the server cancels the feed (it never sends again).
        for (let tries = 0; tries < 100; tries++) {
          const stats = (await (await fetch('/stats')).json()) as { cancelledStreams: string[] };
          if (stats.cancelledStreams.includes(id)) return { data, cancelled: true };
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return { data, cancelled: false };
      }, id);
      expect(result).toEqual({ data: id, cancelled: true });
    });

    it('a multipart upload as chromium encodes it reads back field by field', async () => {
      const fields = await page.evaluate(async () => {
        const form = new FormData();
        form.set('name', 'wirespeed ✓');
        form.set('file', new Blob([new Uint8Array(200 * 1024).fill(7)]), 'data.bin');
        return (await fetch('/form-fields', { method: 'POST', body: form })).json();
      });
      expect(fields).toEqual([
        ['name', 'wirespeed ✓'],
        ['file', 'data.bin 204800'],
      ]);
    });

    it('a WebSocket goes over the same HTTP/2 connection (RFC 8441) and closes cleanly', async () => {
      const result = await page.evaluate(async () => {
        const port = await (await fetch('/remote-port')).text();
        const ws = new WebSocket(`wss://${location.host}/ws/echo`);
        ws.binaryType = 'arraybuffer';
        await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = () => reject(new Error('WebSocket failed')))));
        const replies: (string | number)[] = [];
        const received = new Promise<void>((resolve) => {
          ws.onmessage = (event) => {
            replies.push(typeof event.data === 'string' ? event.data : (event.data as ArrayBuffer).byteLength);
            if (replies.length === 3) resolve();
          };
        });
        ws.send('remote-port');
        ws.send('héllo over h2');
        ws.send(new Uint8Array(100_000));
        await received;
        const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
        ws.close(4001, 'done');
        const event = await closed;
        return { overTheSameConnection: replies[0] === port, echoes: replies.slice(1), close: [event.code, event.reason, event.wasClean] };
      });
      expect(result).toEqual({ overTheSameConnection: true, echoes: ['héllo over h2', 100_000], close: [4001, 'done', true] });
    });
  });

  describe(`${adapter}: chromium uploading over maxBodyBytes (HTTP/2)`, () => {
    let server: Launched;
    let page: Page;

    beforeAll(async () => {
      server = await launch({ tls: true, http2: true, maxBodyBytes: 1024 * 1024 });
      page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
      await page.goto(`${server.url}/hello`);
    });

    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    // Chromium hands over a response only once its upload ends: it waits for the reset that
    // asks it to stop (RST_STREAM NO_ERROR), and the connection goes on after it.
    it('gets the 413, and the same connection serves on', async () => {
      const result = await page.evaluate(async (bytes) => {
        const port = await (await fetch('/remote-port')).text();
        const refused = await fetch('/echo', { method: 'POST', body: new Uint8Array(bytes) });
        const text = await refused.text();
        const after = await (await fetch('/remote-port')).text();
        return { status: refused.status, text, sameConnection: after === port };
      }, UPLOAD_BYTES);
      expect(result).toEqual({ status: 413, text: '413 Content Too Large (ERR_BODY_TOO_LARGE)\n', sameConnection: true });
    });
  });
}

inChromium('node', launchNode);
inChromium('deno', launchDeno);
