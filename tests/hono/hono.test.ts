// A real hono app switched to wirespeed must answer as it did before: the same app (app.mjs) on
// wirespeed/node against @hono/node-server, and on wirespeed/deno against Deno.serve, request by
// request (status, the fields that matter, body). Where wirespeed answers differently on purpose,
// the difference is named below with its reason.
import { connect, constants } from 'node:http2';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnInfo, serveStatic } from '../../src/hono/index.js';
import { serve } from '../../src/server/node.js';
import { ask, askH2, launch, type Answer, type Ask } from '../server/answers.js';
import { socketPath } from '../server/clients.js';
import { denoRunArgs } from '../server/launchers.js';
import { sign } from 'hono/jwt';
import { BEARER_TOKEN, createApp, JWT_SECRET } from './app.mjs';

interface Case extends Ask {
  name: string;
  /** The handler's body is not a string (bytes, a stream): the Fetch standard gives it no type. */
  untyped?: true;
  /**
   * The app hands the server something that is not a Response: every server answers 500 with its
   * own text (node-server puts the internal TypeError's message in it, Deno.serve says "Internal
   * Server Error"), so only the status is compared.
   */
  serverError?: true;
  /**
   * hono's streamed JSX numbers its Suspense boundaries with one counter per process (`H:0`,
   * `H:1`, ...), so two renders of one page differ there: the numbers (and the byte count they
   * change) are left out of the comparison.
   */
  suspenseIds?: true;
  /** The app forwards the request's body with fetch to an origin that says how it came (see expected()). */
  forwardsBody?: true;
}

/** An answer with hono's Suspense boundary numbers masked (see Case.suspenseIds). */
function maskSuspenseIds(c: Case, answer: Answer): Answer {
  return c.suspenseIds ? { ...answer, body: answer.body.replace(/H:\d+/g, 'H:n'), bytes: 0 } : answer;
}

const form = () => {
  const data = new FormData();
  data.set('name', 'report');
  data.set('file', new File(['a,b\n1,2\n'], 'data.csv', { type: 'text/csv' }));
  return data;
};

/** A multipart form that asks methodOverride for PUT. */
const overrideForm = () => {
  const data = new FormData();
  data.set('_method', 'PUT');
  data.set('title', 'from a form');
  return data;
};

/** A POST of `body` with the given Content-Type (and more fields). */
const post = (name: string, path: string, type: string, body: string, headers: Record<string, string> = {}): Case => ({
  name,
  method: 'POST',
  path,
  headers: { 'content-type': type, ...headers },
  body,
});
const FORM_TYPE = 'application/x-www-form-urlencoded';

const JWT = await sign({ sub: 'ada', role: 'admin' }, JWT_SECRET);
const FORGED_JWT = await sign({ sub: 'ada', role: 'admin' }, 'another-secret');

const cases: Case[] = [
  { name: 'text', path: '/' },
  { name: 'JSON', path: '/json' },
  { name: 'a route param and a query', path: '/users/42?q=x%20y' },
  { name: 'a JSON body', method: 'POST', path: '/users', headers: { 'content-type': 'application/json' }, body: '{"name":"ada"}' },
  { name: 'HTML', path: '/html' },
  { name: 'a redirect', path: '/redirect' },
  { name: 'a status set by the handler', path: '/status/418' },
  { name: 'a thrown error (app.onError)', path: '/throw' },
  { name: 'no route (app.notFound)', path: '/nope' },
  { name: 'cookies set', path: '/cookie/set' },
  { name: 'cookies read', path: '/cookie/get', headers: { cookie: 'session=abc; theme=dark' } },
  { name: 'cors + secureHeaders + etag on JSON', path: '/api/items/7', headers: { origin: 'http://example.com' } },
  {
    name: 'a CORS preflight',
    method: 'OPTIONS',
    path: '/api/items/7',
    headers: { origin: 'http://example.com', 'access-control-request-method': 'GET' },
  },
  { name: 'etag on a byte body', path: '/api/bytes', untyped: true },
  { name: 'etag on text', path: '/api/text' },
  { name: 'etag answered 304', path: '/api/text', headers: { 'if-none-match': '"fd0c3ef8e8dc8bc1bfc1ad7706de4a22a2e6bd8b"' } },
  { name: 'compress (gzip)', path: '/big', headers: { 'accept-encoding': 'gzip' } },
  { name: 'compress not asked for', path: '/big' },
  { name: 'bodyLimit under the limit', method: 'POST', path: '/limited', body: 'small' },
  { name: 'bodyLimit over the limit', method: 'POST', path: '/limited', body: 'x'.repeat(100) },
  { name: 'a body checked, then read', method: 'POST', path: '/body-check', body: 'hello' },
  { name: 'POST with Content-Length: 0', method: 'POST', path: '/body-check', body: '' },
  { name: 'a multipart upload', method: 'POST', path: '/upload', body: form() },
  { name: 'HEAD with the length GET would have', method: 'HEAD', path: '/head-length' },
  { name: 'HEAD of a GET route', method: 'HEAD', path: '/json' },
  { name: 'SSE', path: '/sse' },
  { name: 'a stream of strings', path: '/stream', untyped: true },
  { name: 'the URL a handler sees', path: '/url?a=1' },
  { name: 'JSX streamed with two Suspense boundaries', path: '/jsx/stream', suspenseIds: true },
  { name: 'jsxRenderer streaming a Suspense boundary', path: '/jsx/page', suspenseIds: true },
  // @hono/node-server's own suite (test/server.test.ts), as routes of the same app.
  { name: 'a query read by the handler', path: '/posts?page=2' },
  { name: 'a request field read by the handler', path: '/user-agent', headers: { 'user-agent': 'Hono' } },
  { name: 'a redirect after POST', method: 'POST', path: '/posts' },
  { name: 'DELETE with a param', method: 'DELETE', path: '/posts/123' },
  { name: 'TRACE', method: 'TRACE', path: '/' },
  { name: 'a handler result that is not a Response', path: '/invalid', serverError: true },
  { name: 'a body left unread', method: 'POST', path: '/body/unread', body: 'x'.repeat(10 * 1024) },
  { name: 'an empty body left unread', method: 'POST', path: '/body/unread', body: '' },
  { name: 'a body cancelled', method: 'POST', path: '/body/cancelled', body: 'x'.repeat(10 * 1024) },
  { name: 'a body read in part', method: 'POST', path: '/body/partly-read', body: 'x'.repeat(10 * 1024) },
  { name: 'a large body read in part', method: 'POST', path: '/body/partly-read', body: 'x'.repeat(256 * 1024) },
  { name: 'a body read in part, then cancelled', method: 'POST', path: '/body/partly-read-then-cancelled', body: 'x' },
  {
    name: 'a urlencoded form',
    method: 'POST',
    path: '/form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'foo=bar&n=%E7%82%8E',
  },
  { name: 'a request re-made with new fields and handed to another app', method: 'POST', path: '/reissued', body: 'payload' },
  { name: 'a 1 MiB text body', path: '/res/large' },
  { name: 'a Uint8Array body', path: '/res/uint8array' },
  { name: 'a Blob body', path: '/res/blob' },
  { name: 'JSON in a Blob', path: '/res/json-blob' },
  { name: 'JSON in an ArrayBuffer', path: '/res/json-arraybuffer' },
  { name: 'a stream with the handler’s own Transfer-Encoding', path: '/res/stream-declared-chunked' },
  { name: 'an event stream', path: '/res/event-stream' },
  { name: 'a Content-Length of 00011 in a plain object', path: '/res/length-object' },
  { name: 'a Content-Length of 00011 in a Headers', path: '/res/length-headers' },
  { name: 'a Content-Length of 00011 in a list', path: '/res/length-array' },
  { name: 'two Set-Cookie fields from a list', path: '/res/set-cookie-array' },
  { name: 'etag on a byte Response', path: '/res/etag/bytes' },
  { name: 'hono’s stream helper with a type set', path: '/res/json-stream' },
  { name: 'a Set-Cookie appended after construction, then re-wrapped', method: 'POST', path: '/mw/appended/cookie' },
  { name: 'a response re-made from another’s init', path: '/mw/child/json' },
  { name: 'a redirect whose null body middleware read', path: '/mw/read/redirect' },
  { name: 'poweredBy and a field set after the handler', path: '/mw/powered/hello' },
  { name: 'basicAuth without credentials', path: '/auth/a' },
  {
    name: 'basicAuth',
    path: '/auth/a',
    headers: { authorization: `Basic ${Buffer.from('hono-user-a:hono-password-a').toString('base64')}` },
  },
  {
    name: 'basicAuth with a Unicode password',
    path: '/auth-unicode/a',
    headers: { authorization: `Basic ${Buffer.from('hono-user-a:炎').toString('base64')}` },
  },
  // hono's other built-in middleware (app.mjs, moreMiddleware).
  { name: 'requestId, logger, contextStorage and timing together', path: '/more/context' },
  { name: 'requestId taken from the request', path: '/more/context', headers: { 'x-request-id': 'from-the-client' } },
  { name: 'jwt without a token', path: '/more/jwt/me' },
  { name: 'jwt with a valid token', path: '/more/jwt/me', headers: { authorization: `Bearer ${JWT}` } },
  { name: 'jwt with a token of another secret', path: '/more/jwt/me', headers: { authorization: `Bearer ${FORGED_JWT}` } },
  { name: 'bearerAuth without a token', path: '/more/bearer/data' },
  { name: 'bearerAuth with the token', path: '/more/bearer/data', headers: { authorization: `Bearer ${BEARER_TOKEN}` } },
  post('csrf: a form from the allowed origin', '/more/csrf/form', FORM_TYPE, 'a=1', { origin: 'http://example.com' }),
  post('csrf: a form from another origin', '/more/csrf/form', FORM_TYPE, 'a=1', { origin: 'http://evil.example' }),
  { name: 'ipRestriction allowing the client (getConnInfo)', path: '/more/ip/allowed' },
  { name: 'ipRestriction denying the client (getConnInfo)', path: '/more/ip/denied' },
  { name: 'some(bearerAuth, ipRestriction)', path: '/more/either' },
  { name: 'timeout cutting a slow handler', path: '/more/slow' },
  post('methodOverride: PATCH from a urlencoded form', '/more/posts/7', FORM_TYPE, '_method=PATCH&title=new%20title'),
  { name: 'methodOverride: PUT from a multipart form', method: 'POST', path: '/more/posts/8', body: overrideForm() },
  post('methodOverride: DELETE', '/more/posts/9', FORM_TYPE, '_method=DELETE'),
  { name: 'trimTrailingSlash', path: '/more/slash/page/' },
  { name: 'prettyJSON asked for', path: '/more/pretty?pretty' },
  { name: 'prettyJSON not asked for', path: '/more/pretty' },
  post('validator: valid JSON', '/more/valid/json', 'application/json', '{"name":"ada","n":1}'),
  post('validator: invalid JSON', '/more/valid/json', 'application/json', '{"name":'),
  post('validator: JSON sent as text', '/more/valid/json', 'text/plain', '{}'),
  { name: 'validator: a multipart form', method: 'POST', path: '/more/valid/form', body: form() },
  { name: 'validator: a query', path: '/more/valid/query?name=ada&tag=a&tag=b' },
  { name: 'validator: a query without the field', path: '/more/valid/query?tag=a' },
  { name: 'languageDetector from Accept-Language', path: '/more/lang', headers: { 'accept-language': 'fr-CA;q=0.9, ja;q=0.8, en;q=0.5' } },
  // hono's proxy helper forwarding to the same server's origin app (app.mjs, proxied).
  { name: 'proxy: a GET with its fields, credentials dropped', path: '/proxy/echo', headers: { authorization: 'Bearer secret' } },
  { ...post('proxy: a POST with its body', '/proxy/echo', 'text/plain', 'hello body'), forwardsBody: true },
  { name: 'proxy: HEAD', method: 'HEAD', path: '/proxy/echo' },
  { name: 'proxy: the raw request as it came', path: '/proxy-raw/echo', headers: { authorization: 'Bearer secret' } },
  { ...post('proxy: the raw request with a body', '/proxy-raw/echo', 'text/plain', 'raw'), forwardsBody: true },
  { name: 'proxy: a gzip body, decoded on the way', path: '/proxy/gzip', headers: { 'accept-encoding': 'gzip' } },
  { name: 'proxy: two cookies', path: '/proxy/cookies' },
  { name: 'proxy: fields changed on the way back', path: '/proxy-plain/cookies' },
  { name: 'proxy: an event stream', path: '/proxy/events' },
  { name: 'proxy: a 204', path: '/proxy/empty' },
  { name: 'proxy: a redirect, followed', path: '/proxy/moved' },
  { name: 'proxy: a 404', path: '/proxy/missing' },
  // Static files: each server with its users' serveStatic (wirespeed/hono's on wirespeed).
  { name: 'a static file, with the Cache-Control its onFound sets', path: '/static/hello.txt' },
  { name: 'a static file by HEAD', method: 'HEAD', path: '/static/hello.txt' },
  { name: 'a static file in part (Range)', path: '/static/hello.txt', headers: { range: 'bytes=7-11' } },
  { name: 'a static file past its end (416)', path: '/static/hello.txt', headers: { range: 'bytes=500-' } },
  { name: 'a static folder (its index.html)', path: '/static/' },
  { name: 'no such static file (on to notFound)', path: '/static/nothing.txt' },
];

/** @hono/node-server's Response class differs from the Fetch standard, which undici, Deno and wirespeed follow. */
const NODE_SERVER_TEXT_TYPE = 'text/plain; charset=UTF-8';

/**
 * The peer's answer as wirespeed should give it. wirespeed knows the length of some bodies the
 * peer streams chunked (a body that is ready at once). Against @hono/node-server, two of its
 * Response class's habits are not copied: a space in `text/plain; charset=UTF-8` (the standard,
 * undici and Deno write `text/plain;charset=UTF-8`), and that type given to byte and stream bodies
 * (the standard gives them none; Deno.serve sends none).
 */
function expected(c: Case, peer: Answer, ours: Answer, peerName: string): Answer {
  if (c.serverError) return peer.status === 500 ? { ...ours, status: 500 } : peer;
  const headers = { ...peer.headers };
  // A request body forwarded with fetch on Deno: Deno's fetch sends a Content-Length with a
  // stream only when the stream is Deno's own (Deno.serve's request body); any JavaScript stream,
  // wirespeed/deno's request body among them, goes chunked, the Content-Length field given dropped.
  if (peerName === 'deno' && c.forwardsBody) {
    const body = peer.body.replace(/"length":"\d+","transferEncoding":null/, '"length":null,"transferEncoding":"chunked"');
    headers['content-length'] = String(body.length);
    peer = { ...peer, body, bytes: body.length };
  }
  // A handler's own Content-Length is sent as written when it is the true length, leading zeros
  // and all (RFC 9110 §8.6 allows them), as node-server sends it; Deno.serve writes it anew.
  const length = ours.headers['content-length'];
  if (peerName === 'deno' && length !== undefined && headers['content-length'] === String(Number(length)))
    headers['content-length'] = length;
  // HEAD of a GET route (hono runs it and drops the body): Deno.serve says `content-length: 0`,
  // which RFC 9110 §8.6 forbids (a HEAD response's length MUST be GET's, here 17 bytes); wirespeed
  // sends none, as node-server does.
  if (peerName === 'deno' && c.method === 'HEAD' && headers['content-length'] === '0' && length === undefined)
    delete headers['content-length'];
  // A field given only empty values (here Server-Timing, appended empty by hono's timing() once
  // per app.fetch that methodOverride runs): Deno's Headers give `""` for it when iterated where
  // get() gives `", "`, and wirespeed/deno writes what they give. An empty list either way.
  for (const [name, value] of Object.entries(headers)) {
    if (peerName === 'deno' && /^[, ]+$/.test(value) && ours.headers[name] === '') headers[name] = '';
  }
  // A length wirespeed knows where the peer streamed chunked. (Not for HEAD: no bytes follow its head, so a length there cannot be checked against them.)
  if (
    c.method !== 'HEAD' &&
    !('content-length' in headers) &&
    'content-length' in ours.headers &&
    ours.bytes === Number(ours.headers['content-length'])
  ) {
    headers['content-length'] = ours.headers['content-length'];
  }
  // (hono itself writes `text/plain; charset=UTF-8` when it sets the type: that one must match.)
  if (peerName === 'node-server' && headers['content-type'] === NODE_SERVER_TEXT_TYPE) {
    if (c.untyped && !('content-type' in ours.headers)) delete headers['content-type'];
    else if (ours.headers['content-type'] === 'text/plain;charset=UTF-8') headers['content-type'] = 'text/plain;charset=UTF-8';
  }
  return { ...peer, headers, bytes: ours.bytes === peer.bytes || 'content-encoding' in headers ? ours.bytes : peer.bytes };
}

/** The app's streams that are told their client left (app.mjs, clientLeft). */
const LEFT_STREAMS = ['/left/sse', '/left/text'];

/** Reads `path`'s first chunk over HTTP/1.1 or HTTP/2 (h2c), then leaves: the connection closed, or the stream cancelled. */
async function leaveAfterFirstChunk(base: string, path: string, protocol: 'h1' | 'h2'): Promise<void> {
  if (protocol === 'h1') {
    const controller = new AbortController();
    const res = await undiciFetch(`${base}${path}`, { signal: controller.signal });
    await res.body!.getReader().read();
    controller.abort();
    return;
  }
  const session = connect(base);
  try {
    await new Promise<void>((resolve, reject) => {
      const stream = session.request({ ':path': path });
      stream.once('data', () => {
        stream.close(constants.NGHTTP2_CANCEL);
        resolve();
      });
      stream.once('error', reject);
    });
  } finally {
    session.close();
  }
}

/** What the app's stream saw after its client left (sorted: servers may tell the signal and the stream in either order). */
async function seenAfterLeaving(base: string, path: string, protocol: 'h1' | 'h2'): Promise<string[]> {
  await leaveAfterFirstChunk(base, path, protocol);
  const seen: string[] = [];
  for (let poll = 0; poll < 100 && !seen.some((event) => event.includes('ended')); poll++) {
    await sleep(20);
    seen.push(...((await (await undiciFetch(`${base}/left/seen`)).json()) as string[]));
  }
  return seen.sort();
}

function compareSuite(name: string, peerName: string, start: () => Promise<{ ours: string; peer: string; stop(): Promise<void> | void }>) {
  describe(name, () => {
    const urls = { ours: '', peer: '' };
    let stop: () => Promise<void> | void = () => undefined;
    beforeAll(async () => {
      const started = await start();
      Object.assign(urls, started);
      stop = started.stop;
    });
    afterAll(() => stop());

    for (const c of cases) {
      it(`answers ${c.name} as the peer does`, async () => {
        const [ours, peer] = (await Promise.all([ask(urls.ours, c), ask(urls.peer, c)])).map((answer) => maskSuspenseIds(c, answer));
        expect(ours).toEqual(expected(c, peer, ours, peerName));
      });
    }

    for (const path of LEFT_STREAMS) {
      it(`tells the stream of ${path} that its client left, as the peer does (hono's onAbort, stream.aborted)`, async () => {
        const [ours, peer] = await Promise.all([seenAfterLeaving(urls.ours, path, 'h1'), seenAfterLeaving(urls.peer, path, 'h1')]);
        expect(peer).toContainEqual(expect.stringMatching(/ended, aborted true$/));
        expect(ours).toEqual(peer);
      });
    }

    it('cuts a response whose stream fails after its first chunk, as the peer does', async () => {
      const outcome = (base: string) =>
        request(`${base}/res/error-stream`)
          .then(
            async (res) => {
              const text = await res.body.text();
              return `ended cleanly after ${JSON.stringify(text)}`;
            },
            (error: Error) => `failed: ${error.name}`,
          )
          .catch((error: Error) => `cut: ${error.name}`);
      const [ours, peer] = await Promise.all([outcome(urls.ours), outcome(urls.peer)]);
      expect(peer).toMatch(/^cut: /);
      expect(ours).toMatch(/^cut: /);
    });
  });
}

compareSuite('hono app: wirespeed/node against @hono/node-server', 'node-server', async () => {
  const app = createApp({ staticFiles: serveStatic, connInfo: getConnInfo });
  const server = serve({ fetch: app.fetch });
  await server.ready;
  const peer = await launch(process.execPath, [new URL('./node-server.mjs', import.meta.url).pathname]);
  return {
    ours: server.url,
    peer: peer.url,
    async stop() {
      peer.child.stdin!.end();
      await server.close();
    },
  };
});

compareSuite('hono app: wirespeed/deno against Deno.serve', 'deno', async () => {
  const script = new URL('./deno-server.ts', import.meta.url).pathname;
  const args = (which: string) => denoRunArgs(script, which);
  const [ours, peer] = await Promise.all([launch(process.execPath, args('wirespeed')), launch(process.execPath, args('deno'))]);
  return {
    ours: ours.url,
    peer: peer.url,
    stop() {
      ours.child.stdin!.end();
      peer.child.stdin!.end();
    },
  };
});

// HTTP/2: the answers above, checked against the peers over HTTP/1.1, must not change when the
// same app is asked over h2c. (@hono/node-server itself is no peer here: over node:http2 its
// process dies at the SSE route, whose Transfer-Encoding field node:http2 refuses with a throw
// nobody catches.)
function compareProtocols(name: string, start: () => Promise<{ url: string; stop(): Promise<void> | void }>) {
  describe(name, () => {
    let server: { url: string; stop(): Promise<void> | void } = { url: '', stop: () => undefined };
    beforeAll(async () => void (server = await start()));
    afterAll(() => server.stop());

    for (const c of cases) {
      it(`answers ${c.name} over both`, async () => {
        const [h1, h2] = (await Promise.all([ask(server.url, c), askH2(server.url, c)])).map((answer) => maskSuspenseIds(c, answer));
        expect(h2).toEqual(h1);
      });
    }

    for (const path of LEFT_STREAMS) {
      it(`tells the stream of ${path} that its client left over both (a closed connection, a cancelled stream)`, async () => {
        const h1 = await seenAfterLeaving(server.url, path, 'h1');
        const h2 = await seenAfterLeaving(server.url, path, 'h2');
        expect(h1).toContainEqual(expect.stringMatching(/ended, aborted true$/));
        expect(h2).toEqual(h1);
      });
    }
  });
}

compareProtocols('hono app on wirespeed/node: HTTP/2 answers as HTTP/1.1 does', async () => {
  const server = serve({ fetch: createApp({ staticFiles: serveStatic, connInfo: getConnInfo }).fetch, http2: true });
  await server.ready;
  return { url: server.url, stop: () => server.close() };
});

compareProtocols('hono app on wirespeed/deno: HTTP/2 answers as HTTP/1.1 does', async () => {
  const { url, child } = await launch(process.execPath, denoRunArgs(new URL('./deno-server.ts', import.meta.url).pathname, 'wirespeed-h2'));
  return { url, stop: () => void child.stdin!.end() };
});

describe('wirespeed/hono', () => {
  it('getConnInfo gives the client address and port from c.env', async () => {
    const app = createApp();
    app.get('/conninfo', (c) => c.json(getConnInfo(c)));
    const server = serve({ fetch: app.fetch });
    await server.ready;
    const info = (await (await fetch(`${server.url}/conninfo`)).json()) as {
      remote: { address: string; port: number; addressType: string };
    };
    await server.close();
    expect(info.remote.address).toBe('127.0.0.1');
    expect(info.remote.addressType).toBe('IPv4');
    expect(info.remote.port).toBeGreaterThan(0);
  });

  it('getConnInfo on a Unix socket: no address, as @hono/node-server gives it there', async () => {
    const app = createApp();
    app.get('/conninfo', (c) => c.json(getConnInfo(c)));
    const path = socketPath();
    const server = serve({ fetch: app.fetch, path });
    await server.ready;
    const agent = new Agent({ connect: { socketPath: path } });
    try {
      const info = await (await undiciFetch('http://localhost/conninfo', { dispatcher: agent })).json();
      expect(info).toEqual({ remote: {} });
    } finally {
      await agent.close();
      await server.close();
    }
  });
});
