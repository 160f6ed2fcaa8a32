// A realistic hono app, run unchanged on wirespeed and on its peers (@hono/node-server, Deno.serve):
// routes with params, JSON, cookies, the common middlewares (cors, etag, compress, secureHeaders,
// bodyLimit), SSE, streaming, JSX streamed with Suspense, a multipart upload, redirects, errors.
// Plain JS so that plain Node, Deno and vitest all load it.
/* global Blob, File, Headers, ReadableStream, Request, setTimeout */
import { Hono } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { getCookie, setCookie } from 'hono/cookie';
import { cors } from 'hono/cors';
import { etag } from 'hono/etag';
import { jsx } from 'hono/jsx';
import { jsxRenderer } from 'hono/jsx-renderer';
import { renderToReadableStream, Suspense } from 'hono/jsx/streaming';
import { poweredBy } from 'hono/powered-by';
import { secureHeaders } from 'hono/secure-headers';
import { stream, streamSSE } from 'hono/streaming';

/**
 * `staticFiles`: the static file middleware the server's users take (@hono/node-server's on it,
 * wirespeed/hono's on wirespeed), serving ./static under /static/ with a Cache-Control set in
 * onFound.
 */
export function createApp({ staticFiles } = {}) {
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

  // Server-side rendering streamed: the page's shell first, each Suspense boundary's content when
  // its async component resolves (jsx() calls: the file is plain JS).
  const Later = async ({ ms, label }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return jsx('p', {}, `loaded ${label}`);
  };
  const boundary = (label, ms) => jsx(Suspense, { fallback: jsx('p', {}, `loading ${label}`) }, jsx(Later, { ms, label }));
  app.get('/jsx/stream', (c) =>
    c.body(renderToReadableStream(jsx('html', {}, jsx('body', {}, jsx('h1', {}, 'Title'), boundary('a', 30), boundary('b', 10)))), {
      headers: { 'content-type': 'text/html; charset=UTF-8', 'transfer-encoding': 'chunked' },
    }),
  );
  app.use(
    '/jsx/page',
    jsxRenderer(({ children }) => jsx('html', {}, jsx('body', {}, children)), { stream: true }),
  );
  app.get('/jsx/page', (c) => c.render(boundary('page', 20)));

  // The URL the handler sees (dot segments, query).
  app.get('/url', (c) => c.text(c.req.url));
  app.get('/files/*', (c) => c.text(`file ${c.req.path}`));

  if (staticFiles) {
    const root = new URL('./static', import.meta.url).pathname;
    const onFound = (_path, c) => c.header('Cache-Control', 'public, max-age=60');
    app.use('/static/*', staticFiles({ root, rewriteRequestPath: (path) => path.slice('/static'.length), onFound }));
  }

  portedFromNodeServer(app);
  return app;
}

const bytesOf = (text) => new TextEncoder().encode(text);
/** A stream of byte chunks, `pause` ms apart (0: all at once). */
const chunkStream = (chunks, pause = 0) =>
  new ReadableStream({
    async start(controller) {
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0 && pause) await new Promise((resolve) => setTimeout(resolve, pause));
        controller.enqueue(bytesOf(chunk));
      }
      controller.close();
    },
  });

/**
 * The behaviours @hono/node-server's own test suite (test/server.test.ts) checks, as routes of this
 * app: what an app that runs there today does, and so what it must find again after switching.
 */
function portedFromNodeServer(app) {
  app.get('/posts', (c) => c.text(`Page ${c.req.query('page')}`));
  app.post('/posts', (c) => c.redirect('/posts'));
  app.delete('/posts/:id', (c) => c.text(`DELETE ${c.req.param('id')}`));
  app.get('/user-agent', (c) => c.text(c.req.header('user-agent') ?? 'none'));
  app.on('TRACE', '/', (c) => c.text(`headers: ${JSON.stringify(c.req.raw.headers)}`));
  // A handler's result that is not a Response: hono's onError answers.
  app.get('/invalid', () => '<h1>HTML</h1>');

  // Request bodies left unread, cancelled, or read in part before the answer.
  app.post('/body/unread', (c) => c.text(c.req.raw.body ? 'No body consumed' : 'no body'));
  app.post('/body/cancelled', async (c) => {
    await c.req.raw.body?.cancel();
    return c.text('Body cancelled');
  });
  app.post('/body/partly-read', async (c) => {
    await c.req.raw.body?.getReader().read();
    return c.text('Partially consumed');
  });
  app.post('/body/partly-read-then-cancelled', async (c) => {
    const reader = c.req.raw.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    return c.text('Partially consumed and cancelled');
  });
  app.post('/form', async (c) => c.json(await c.req.parseBody()));
  // A request re-made with another field and handed to a second app (node-server's global Request).
  const inner = new Hono().post('/inner', async (c) => c.json({ tag: c.req.header('x-tag'), body: await c.req.text() }));
  app.post('/reissued', (c) => {
    const remade = new Request(c.req.raw, { headers: { 'x-tag': 'remade' } });
    return inner.fetch(new Request(remade.url.replace('/reissued', '/inner'), remade));
  });

  // Response bodies of every kind a handler makes with the standard Response.
  app.get('/res/large', () => new Response('a'.repeat(1024 * 1024)));
  app.get('/res/uint8array', () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'application/octet-stream' } }));
  app.get(
    '/res/blob',
    () => new Response(new Blob([new Uint8Array([1, 2, 3])]), { headers: { 'content-type': 'application/octet-stream' } }),
  );
  app.get(
    '/res/json-blob',
    () => new Response(new Blob([JSON.stringify({ foo: 'blob' })]), { headers: { 'content-type': 'application/json' } }),
  );
  app.get(
    '/res/json-arraybuffer',
    () => new Response(bytesOf(JSON.stringify({ foo: 'buffer' })).buffer, { headers: { 'content-type': 'application/json' } }),
  );
  app.get(
    '/res/stream-declared-chunked',
    () =>
      new Response(chunkStream(['Hello!']), { headers: { 'content-type': 'text/plain; charset=UTF-8', 'transfer-encoding': 'chunked' } }),
  );
  app.get(
    '/res/event-stream',
    () => new Response(chunkStream(['data: First!\n\n', 'data: Second!\n\n'], 20), { headers: { 'content-type': 'text/event-stream' } }),
  );
  for (const [kind, headers] of [
    ['object', { 'content-type': 'text/plain', 'content-length': '00011' }],
    ['headers', new Headers({ 'content-type': 'text/plain', 'content-length': '00011' })],
    [
      'array',
      [
        ['content-type', 'text/plain'],
        ['content-length', '00011'],
      ],
    ],
  ]) {
    app.get(`/res/length-${kind}`, () => new Response('Hello Hono!', { headers }));
  }
  app.get(
    '/res/set-cookie-array',
    () =>
      new Response('Hello Hono!', {
        headers: [
          ['content-type', 'text/plain'],
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
        ],
      }),
  );
  app.use('/res/etag/*', etag());
  app.get('/res/etag/bytes', () => new Response(bytesOf('Hello Hono!'), { headers: { 'content-type': 'text/plain' } }));
  // A stream that fails after its first chunk: the client must see the response cut, not ended.
  app.get('/res/error-stream', (c) => {
    c.header('Content-Type', 'text/event-stream; charset=utf-8');
    return c.body(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(bytesOf('data: Hello!\n\n'));
          await new Promise((resolve) => setTimeout(resolve, 20));
          controller.error(new Error('test'));
        },
      }),
    );
  });
  // hono's stream helper with the type set by the handler.
  app.get('/res/json-stream', (c) => {
    c.header('x-accel-buffering', 'no');
    c.header('content-type', 'application/json');
    return stream(c, async (s) => {
      await s.write(JSON.stringify({ foo: 'bar' }));
    });
  });

  // Middleware that re-makes the response after the handler.
  app.use('/mw/appended/*', async (c, next) => {
    await next();
    c.res = new Response(c.res.body, c.res);
  });
  app.post('/mw/appended/cookie', () => {
    const res = new Response('hello', { status: 200, headers: { 'Content-Type': 'text/plain' } });
    res.headers.append('Set-Cookie', 'session=abc; Path=/; HttpOnly');
    return res;
  });
  // Middleware that reads the response it got (a logger), here a redirect's null body.
  app.use('/mw/read/*', async (c, next) => {
    await next();
    await c.res.text();
  });
  app.get('/mw/read/redirect', (c) => c.redirect('/json'));
  app.use('/mw/child/*', async (c, next) => {
    await next();
    c.res = new Response('', c.res);
    void c.res.headers;
  });
  app.get('/mw/child/json', (c) => c.json({}));
  app.use('/mw/powered/*', poweredBy(), async (c, next) => {
    c.set('foo', 'bar');
    await next();
    c.header('foo', c.get('foo'));
  });
  app.get('/mw/powered/hello', (c) => c.text('Hello! Middleware!'));
  app.use('/auth/*', basicAuth({ username: 'hono-user-a', password: 'hono-password-a' }));
  app.use('/auth-unicode/*', basicAuth({ username: 'hono-user-a', password: '炎' }));
  app.get('/auth/*', (c) => c.text('auth'));
  app.get('/auth-unicode/*', (c) => c.text('auth'));
}
