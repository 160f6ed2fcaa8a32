// A realistic hono app, run unchanged on wirespeed and on its peers (@hono/node-server, Deno.serve):
// routes with params, JSON, cookies, the common middlewares (cors, etag, compress, secureHeaders,
// bodyLimit), SSE, streaming, a multipart upload, redirects, errors. Plain JS so that plain Node,
// Deno and vitest all load it.
/* global File */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { getCookie, setCookie } from 'hono/cookie';
import { cors } from 'hono/cors';
import { etag } from 'hono/etag';
import { secureHeaders } from 'hono/secure-headers';
import { stream, streamSSE } from 'hono/streaming';

export function createApp() {
  const app = new Hono();

  app.get('/', (c) => c.text('Hello, World!'));
  app.get('/json', (c) => c.json({ message: 'Hello, World!', n: 1 }));
  app.get('/users/:id', (c) => c.json({ id: c.req.param('id'), q: c.req.query('q') ?? null }));
  app.post('/users', async (c) => c.json({ created: await c.req.json() }, 201));
  app.get('/html', (c) => c.html('<h1>hi</h1>'));
  app.get('/redirect', (c) => c.redirect('/json'));
  app.get('/status/:code', (c) => c.text(`status ${c.req.param('code')}`, Number(c.req.param('code'))));
  app.get('/throw', () => {
    throw new Error('boom');
  });
  app.onError((error, c) => c.text(`handled: ${error.message}`, 500));
  app.notFound((c) => c.text(`no route for ${c.req.path}`, 404));

  // Cookies both ways.
  app.get('/cookie/set', (c) => {
    setCookie(c, 'session', 'abc', { path: '/', httpOnly: true });
    setCookie(c, 'theme', 'dark');
    return c.text('set');
  });
  app.get('/cookie/get', (c) => c.json(getCookie(c)));

  // Middleware chains that set headers after the handler (hono then re-wraps the response).
  app.use('/api/*', cors({ origin: 'http://example.com', exposeHeaders: ['x-total'] }));
  app.use('/api/*', secureHeaders());
  app.use('/api/*', etag());
  app.get('/api/items/:id', (c) => {
    c.header('x-total', '3');
    return c.json({ id: c.req.param('id'), items: [1, 2, 3] });
  });
  app.get('/api/bytes', (c) => c.body(new TextEncoder().encode('hello bytes')));
  app.get('/api/text', (c) => c.text('etagged text'));

  // compress: a body over its threshold, gzip when asked.
  app.use('/big', compress());
  app.get('/big', (c) => c.text('x'.repeat(4096)));

  // bodyLimit checks `c.req.raw.body` before reading it.
  app.post('/limited', bodyLimit({ maxSize: 16, onError: (c) => c.text('too big', 413) }), async (c) =>
    c.text(`got ${(await c.req.text()).length}`),
  );

  // A body checked, then read.
  app.post('/body-check', async (c) => (c.req.raw.body ? c.text(`body: ${await c.req.text()}`) : c.text('no body')));

  // A multipart upload.
  app.post('/upload', async (c) => {
    const form = await c.req.parseBody();
    const file = form.file;
    return c.json({ name: form.name, file: file instanceof File ? { name: file.name, size: file.size, type: file.type } : null });
  });

  // hono answers HEAD by running the GET route and dropping its body.
  app.get('/head-length', (c) => c.text('seventeen bytes!!'));

  // Streams: SSE and a plain stream of strings written by hono's helper.
  app.get('/sse', (c) =>
    streamSSE(c, async (s) => {
      for (let i = 0; i < 3; i++) await s.writeSSE({ data: `tick ${i}`, event: 'tick', id: String(i) });
    }),
  );
  app.get('/stream', (c) =>
    stream(c, async (s) => {
      await s.write('one;');
      await s.write('two;');
    }),
  );

  // The URL the handler sees (dot segments, query).
  app.get('/url', (c) => c.text(c.req.url));
  app.get('/files/*', (c) => c.text(`file ${c.req.path}`));

  return app;
}
