// The hono app of the `server` suite's hono groups, the same on every server that runs it
// (wirespeed on Node and Deno, @hono/node-server, Deno.serve): what a hono user writes.
//   GET /hello → c.text, GET /json → c.json,
//   GET /mw/items/:id → a route param through cors + etag + secureHeaders (hono re-wraps the
//   response after each header-setting middleware),
//   GET /bytes → 20 KB of bytes (c.body), GET /file → a 20 KB file streamed from disk (a Node
//   stream through Readable.toWeb, as static file middleware serves one; node: modules run on Deno),
//   GET /static/file.bin → the same file through the static file middleware the server's users
//   take (@hono/node-server's serveStatic, wirespeed/hono's, hono/deno's), when one is given, and
//   GET /static/large.bin → a 200 KB file through it,
//   GET /page → an HTML page streamed in 100 small writes (hono/streaming's `stream()`, as a
//   page rendered row by row is sent),
//   POST /orders → a JSON body (its type checked) read with c.req.json, checked, and answered as
//   JSON with a 201, as an API's create route does.
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import process from 'node:process';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { etag } from 'hono/etag';
import { secureHeaders } from 'hono/secure-headers';
import { stream } from 'hono/streaming';
import { HELLO, JSON_BODY, type Order } from './app.js';

/** The size of the byte body and of the file. */
const FILE_BYTES = 20_000;
/** A file served in chunks (static file middleware streams it). */
const LARGE_FILE_BYTES = 200_000;

/** The streamed page's writes: a head, 98 rows, a tail. */
const PAGE = [
  '<!doctype html><html><body><ul>',
  ...Array.from({ length: 98 }, (_, i) => `<li id="row-${i}">row ${i}</li>`),
  '</ul></body></html>',
];

/** The static file middleware a server's users take, made for a root folder. */
export type StaticFiles = (options: { root: string }) => MiddlewareHandler;

export function honoApp(staticFiles?: StaticFiles): Hono {
  const app = new Hono();
  const bytes = new Uint8Array(FILE_BYTES).fill(0x61);
  const folder = mkdtempSync(join(tmpdir(), 'wirespeed-bench-'));
  mkdirSync(join(folder, 'static'));
  const file = join(folder, 'static', 'file.bin');
  writeFileSync(file, bytes);
  writeFileSync(join(folder, 'static', 'large.bin'), new Uint8Array(LARGE_FILE_BYTES).fill(0x62));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  app.get('/hello', (c) => c.text(HELLO));
  app.get('/json', (c) => c.json(JSON_BODY));
  app.use('/mw/*', cors(), etag(), secureHeaders());
  app.get('/mw/items/:id', (c) => c.json({ item: c.req.param('id'), ...JSON_BODY }));
  app.get('/bytes', (c) => c.body(bytes, 200, { 'content-type': 'application/octet-stream' }));
  app.get('/file', (c) =>
    c.body(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(FILE_BYTES),
    }),
  );
  app.get('/page', (c) => {
    c.header('content-type', 'text/html; charset=utf-8');
    return stream(c, async (page) => {
      for (const part of PAGE) await page.write(part);
    });
  });
  app.post('/orders', async (c) => {
    if (c.req.header('content-type') !== 'application/json') return c.json({ error: 'send JSON' }, 415);
    const order = await c.req.json<Partial<Order>>();
    if (typeof order.item !== 'string' || !Array.isArray(order.lines)) return c.json({ error: 'an order has an item and lines' }, 400);
    const total = order.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
    return c.json({ id: 42, item: order.item, lines: order.lines.length, total }, 201);
  });
  if (staticFiles) app.use('/static/*', staticFiles({ root: folder }));
  return app;
}
