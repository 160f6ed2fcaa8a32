// A realistic hono app, run unchanged on wirespeed and on its peers (@hono/node-server, Deno.serve):
// routes with params, JSON, cookies, the common middlewares (cors, etag, compress, secureHeaders,
// bodyLimit), SSE, streaming, JSX streamed with Suspense, a multipart upload, redirects, errors,
// hono's other built-in middleware (requestId, logger, timing, contextStorage, jwt,
// bearerAuth, csrf, ipRestriction, timeout, methodOverride, trailing slashes, prettyJSON,
// validator, languageDetector), hono's proxy helper forwarding to an origin, and streams told
// that their client left.
// Plain JS so that plain Node, Deno and vitest all load it.
/* global Blob, File, Headers, ReadableStream, Request, setTimeout */
import { Hono } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import { bearerAuth } from 'hono/bearer-auth';
import { bodyLimit } from 'hono/body-limit';
import { some } from 'hono/combine';
import { compress } from 'hono/compress';
import { contextStorage, getContext } from 'hono/context-storage';
import { getCookie, setCookie } from 'hono/cookie';
import { cors } from 'hono/cors';
import { csrf } from 'hono/csrf';
import { etag } from 'hono/etag';
import { ipRestriction } from 'hono/ip-restriction';
import { jsx } from 'hono/jsx';
import { jsxRenderer } from 'hono/jsx-renderer';
import { renderToReadableStream, Suspense } from 'hono/jsx/streaming';
import { jwt } from 'hono/jwt';
import { languageDetector } from 'hono/language';
import { logger } from 'hono/logger';
import { methodOverride } from 'hono/method-override';
import { poweredBy } from 'hono/powered-by';
import { prettyJSON } from 'hono/pretty-json';
import { proxy } from 'hono/proxy';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { stream, streamSSE, streamText } from 'hono/streaming';
import { timeout } from 'hono/timeout';
import { setMetric, timing } from 'hono/timing';
import { trimTrailingSlash } from 'hono/trailing-slash';
import { validator } from 'hono/validator';

/** The secret of the app's JWT routes (the test signs its tokens with it). */
export const JWT_SECRET = 'a-secret-of-the-test-app';
/** The token of the app's bearerAuth routes. */
export const BEARER_TOKEN = 'hono-bearer-token';

/**
 * `staticFiles`: the static file middleware the server's users take (@hono/node-server's on it,
 * wirespeed/hono's on wirespeed), serving ./static under /static/ with a Cache-Control set in
 * onFound. `connInfo`: the server's getConnInfo (@hono/node-server/conninfo, hono/deno,
 * wirespeed/hono), for ipRestriction.
 */
export function createApp({ staticFiles, connInfo } = {}) {
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
  moreMiddleware(app, connInfo);
  proxied(app);
  clientLeft(app);
  return app;
}

/**
 * Streams whose client leaves, as SSE and streaming apps clean up after it: hono's `onAbort` and
 * `stream.aborted` in streamSSE and streamText, and the request's signal. `/left/seen` gives (and
 * forgets) what the streams saw.
 */
function clientLeft(app) {
  const seen = [];
  const STEPS = 500;
  app.get('/left/sse', (c) =>
    streamSSE(c, async (sse) => {
      sse.onAbort(() => seen.push('sse: onAbort'));
      let sent = 0;
      while (!sse.aborted && sent < STEPS) {
        await sse.writeSSE({ data: String(sent++) });
        await sse.sleep(10);
      }
      seen.push(`sse: ended, aborted ${sse.aborted}`);
    }),
  );
  app.get('/left/text', (c) => {
    c.req.raw.signal.addEventListener('abort', () => seen.push('text: request signal aborted'));
    return streamText(c, async (text) => {
      text.onAbort(() => seen.push('text: onAbort'));
      let sent = 0;
      while (!text.aborted && sent < STEPS) {
        await text.write(String(sent++));
        await text.sleep(10);
      }
      seen.push(`text: ended, aborted ${text.aborted}`);
    });
  });
  app.get('/left/seen', (c) => c.json(seen.splice(0)));
}

/**
 * hono's proxy helper (hono/proxy) as its docs use it, forwarding to an origin app mounted on the
 * same server (so each server proxies to itself, over HTTP/1.1 with the runtime's fetch): the
 * request with its body and fields (`...c.req`, credentials dropped, X-Forwarded-For added), the
 * raw request as it came, and a response whose fields are changed on the way back. The origin
 * answers JSON describing what it got, a gzip body (which fetch decodes), cookies, an event
 * stream, a 204, a redirect (which fetch follows) and a 404.
 */
function proxied(app) {
  const origin = new Hono();
  origin.all('/echo', async (c) =>
    c.json({
      method: c.req.method,
      forwardedFor: c.req.header('x-forwarded-for') ?? null,
      authorization: c.req.header('authorization') ?? null,
      type: c.req.header('content-type') ?? null,
      length: c.req.header('content-length') ?? null,
      transferEncoding: c.req.header('transfer-encoding') ?? null,
      body: c.req.method === 'GET' || c.req.method === 'HEAD' ? null : await c.req.text(),
    }),
  );
  origin.get('/gzip', compress({ encoding: 'gzip' }), (c) => c.text('zipped '.repeat(400)));
  origin.get('/cookies', (c) => {
    setCookie(c, 'a', '1');
    setCookie(c, 'b', '2', { httpOnly: true });
    return c.text('cookies');
  });
  origin.get('/events', (c) =>
    streamSSE(c, async (sse) => {
      for (let i = 0; i < 3; i++) await sse.writeSSE({ data: `event ${i}` });
    }),
  );
  origin.get('/empty', (c) => c.body(null, 204));
  origin.get('/moved', (c) => c.redirect('/origin/echo'));
  origin.get('/missing', (c) => c.text('no such thing', 404));
  app.route('/origin', origin);

  const target = (c) => new URL(`/origin/${c.req.param('path')}`, c.req.url);
  app.all('/proxy/:path', (c) =>
    proxy(target(c), {
      ...c.req,
      headers: { ...c.req.header(), 'x-forwarded-for': '127.0.0.1', authorization: undefined },
    }),
  );
  app.all('/proxy-raw/:path', (c) => proxy(target(c), c.req.raw));
  app.get('/proxy-plain/:path', async (c) => {
    const res = await proxy(target(c));
    res.headers.delete('set-cookie');
    res.headers.set('x-proxied', 'yes');
    return res;
  });
}

/**
 * hono's other built-in middleware as apps use it: request ids, logging, timing, context storage,
 * JWT and bearer tokens, CSRF, IP rules, timeouts, method override (which clones the request and
 * re-makes it), trailing slashes, pretty JSON, validation and language detection.
 */
function moreMiddleware(app, connInfo) {
  app.use(
    '/more/*',
    requestId({ generator: () => 'generated-id' }),
    logger(() => {}),
    contextStorage(),
    timing({ total: false }),
  );
  app.get('/more/context', (c) => {
    setMetric(c, 'db', 'Database');
    return c.json({ requestId: c.get('requestId'), path: getContext().req.path });
  });

  app.use('/more/jwt/*', jwt({ secret: JWT_SECRET, alg: 'HS256' }));
  app.get('/more/jwt/me', (c) => c.json(c.get('jwtPayload')));
  app.use('/more/bearer/*', bearerAuth({ token: BEARER_TOKEN }));
  app.get('/more/bearer/data', (c) => c.text('bearer ok'));

  app.use('/more/csrf/*', csrf({ origin: 'http://example.com' }));
  app.post('/more/csrf/form', async (c) => c.json(await c.req.parseBody()));

  if (connInfo) {
    app.get('/more/ip/allowed', ipRestriction(connInfo, { allowList: ['127.0.0.1', '::1'] }), (c) => c.text('allowed'));
    app.get('/more/ip/denied', ipRestriction(connInfo, { denyList: ['127.0.0.0/8', '::1'] }), (c) => c.text('not denied'));
    app.get('/more/either', some(bearerAuth({ token: BEARER_TOKEN }), ipRestriction(connInfo, { allowList: ['127.0.0.1'] })), (c) =>
      c.text('either'),
    );
  }

  app.get('/more/slow', timeout(50), async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return c.text('too late');
  });

  app.use('/more/posts/*', methodOverride({ app }));
  app.put('/more/posts/:id', async (c) => c.json({ method: 'PUT', id: c.req.param('id'), form: await c.req.parseBody() }));
  app.patch('/more/posts/:id', async (c) => c.json({ method: 'PATCH', id: c.req.param('id'), form: await c.req.parseBody() }));
  app.delete('/more/posts/:id', (c) => c.json({ method: 'DELETE', id: c.req.param('id') }));

  app.use('/more/slash/*', trimTrailingSlash());
  app.get('/more/slash/page', (c) => c.text('no slash'));
  app.get('/more/pretty', prettyJSON(), (c) => c.json({ a: 1, list: [1, 2], nested: { b: 'c' } }));

  const named = (value, c) => (typeof value.name === 'string' && value.name.length > 0 ? value : c.json({ error: 'name' }, 400));
  app.post('/more/valid/json', validator('json', named), (c) => c.json({ json: c.req.valid('json') }));
  app.post('/more/valid/form', validator('form', named), (c) => c.json({ form: c.req.valid('form') }));
  app.get('/more/valid/query', validator('query', named), (c) => c.json({ query: c.req.valid('query') }));

  app.get('/more/lang', languageDetector({ supportedLanguages: ['en', 'ja', 'fr'], fallbackLanguage: 'en' }), (c) =>
    c.text(c.get('language')),
  );
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
