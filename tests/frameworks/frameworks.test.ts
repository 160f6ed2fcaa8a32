// Apps of other fetch-handler frameworks (apps.ts: Elysia, tRPC, GraphQL Yoga, h3, itty-router,
// an AI SDK chat endpoint, better-auth, an MCP server) run on wirespeed/node and wirespeed/deno
// unchanged: each request answered as the framework means it (status, type, the fields that
// matter, body), and the same over HTTP/2 as over HTTP/1.1; a chat whose client leaves is
// aborted; an auth flow keeps its session by cookie; the MCP SDK's own client works a session;
// a React page streams its shell before its suspended parts (chromium shows it so), and stops
// rendering for a client that left.
import http2 from 'node:http2';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/server/node.js';
import { launchChromium } from '../chromium.js';
import { ask, askH2, launch, type Ask } from '../server/answers.js';
import { denoRunArgs } from '../server/launchers.js';
import { frameworksHandler } from './apps.js';

interface Case extends Ask {
  name: string;
  /** Status, Content-Type, body (exact or a pattern) and any other fields that matter. */
  want: { status: number; type?: string; body: string | RegExp; fields?: Record<string, string> };
}

const json = { 'content-type': 'application/json' };
const form = () => {
  const data = new FormData();
  data.set('name', 'report');
  data.set('file', new File(['a,b\n1,2\n'], 'data.csv', { type: 'text/csv' }));
  return data;
};
const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));

const cases: Case[] = [
  {
    name: 'Elysia: params and query',
    path: '/elysia/users/42?q=x',
    want: { status: 200, type: 'application/json', body: '{"id":"42","q":"x"}' },
  },
  {
    name: 'Elysia: a validated JSON body, its status and a field set by the handler',
    method: 'POST',
    path: '/elysia/items',
    headers: json,
    body: '{"name":"w","price":2}',
    want: { status: 201, type: 'application/json', body: '{"got":{"name":"w","price":2}}', fields: { 'x-made': 'yes' } },
  },
  {
    name: 'Elysia: a body that fails validation',
    method: 'POST',
    path: '/elysia/items',
    headers: json,
    body: '{"name":"w"}',
    want: { status: 422, type: 'application/json', body: /"type": "validation"/ },
  },
  {
    name: 'Elysia: a cookie set',
    path: '/elysia/cookie',
    want: { status: 200, type: 'text/plain', body: 'set', fields: { 'set-cookie': 'session=abc; Path=/; HttpOnly' } },
  },
  {
    name: 'Elysia: a cookie read',
    path: '/elysia/read-cookie',
    headers: { cookie: 'session=xyz' },
    want: { status: 200, type: 'text/plain', body: 'session=xyz' },
  },
  { name: 'Elysia: a thrown error', path: '/elysia/throw', want: { status: 500, type: 'text/plain', body: 'boom' } },
  {
    name: 'Elysia: a generator streaming strings',
    path: '/elysia/stream',
    want: { status: 200, type: 'text/plain', body: 'one;two;three' },
  },
  {
    name: 'Elysia: server-sent events from a generator',
    path: '/elysia/sse',
    want: {
      status: 200,
      type: 'text/event-stream',
      body: 'event: tick\ndata: {"i":0}\n\nevent: tick\ndata: {"i":1}\n\nevent: tick\ndata: {"i":2}\n\n',
    },
  },
  {
    name: 'Elysia: a redirect to a path (Response.redirect with a relative reference, as on Bun)',
    path: '/elysia/redirect',
    want: { status: 303, body: '', fields: { location: '/elysia/users/1' } },
  },
  { name: 'Elysia: a Blob', path: '/elysia/blob', want: { status: 200, type: 'text/x-blob', body: 'blob body' } },
  {
    name: 'Elysia: a multipart upload with a file',
    method: 'POST',
    path: '/elysia/upload',
    body: form(),
    want: { status: 200, type: 'application/json', body: '{"name":"report","file":"data.csv 8"}' },
  },
  {
    name: 'tRPC: a query',
    path: `/trpc/hello?input=${input({ name: 'w' })}`,
    want: { status: 200, type: 'application/json', body: '{"result":{"data":{"greeting":"hello w"}}}' },
  },
  {
    name: 'tRPC: a query whose input is refused',
    path: `/trpc/hello?input=${input({ name: 1 })}`,
    want: { status: 400, type: 'application/json', body: /"message":"name must be a string".*"code":"BAD_REQUEST"/ },
  },
  {
    name: 'tRPC: a mutation',
    method: 'POST',
    path: '/trpc/add',
    headers: json,
    body: '{"a":2,"b":3}',
    want: { status: 200, type: 'application/json', body: '{"result":{"data":5}}' },
  },
  {
    name: 'tRPC: a batch streamed as JSON lines',
    path: `/trpc/hello,slow?batch=1&input=${input({ 0: { name: 'b' } })}`,
    headers: { 'trpc-accept': 'application/jsonl' },
    want: { status: 200, type: 'application/json', body: /"greeting":"hello b".*\n.*"slow done"/s },
  },
  {
    name: 'tRPC: a subscription over server-sent events',
    path: '/trpc/count',
    headers: { accept: 'text/event-stream' },
    want: { status: 200, type: 'text/event-stream', body: /data: 0\n\n.*data: 1\n\n.*data: 2\n\n/s },
  },
  {
    name: 'GraphQL Yoga: a query in the URL',
    path: `/graphql?query=${encodeURIComponent('{ hello(name: "q") }')}`,
    want: { status: 200, type: 'application/json; charset=utf-8', body: '{"data":{"hello":"hi q"}}' },
  },
  {
    name: 'GraphQL Yoga: a POSTed query with an async resolver',
    method: 'POST',
    path: '/graphql',
    headers: json,
    body: JSON.stringify({ query: '{ hello(name: "p") slow }' }),
    want: { status: 200, type: 'application/json; charset=utf-8', body: '{"data":{"hello":"hi p","slow":"slow done"}}' },
  },
  {
    name: 'GraphQL Yoga: a subscription over server-sent events',
    method: 'POST',
    path: '/graphql',
    headers: { ...json, accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { countdown(from: 2) }' }),
    want: {
      status: 200,
      type: 'text/event-stream',
      body: /"countdown":2.*"countdown":1.*"countdown":0.*event: complete/s,
    },
  },
  {
    name: 'GraphQL Yoga: a body that is not JSON',
    method: 'POST',
    path: '/graphql',
    headers: json,
    body: '{bad json',
    want: { status: 400, type: 'application/json; charset=utf-8', body: /POST body sent invalid JSON/ },
  },
  {
    name: 'h3: params and query',
    path: '/h3/users/7?q=x',
    want: { status: 200, type: 'application/json;charset=UTF-8', body: '{"id":"7","q":"x"}' },
  },
  {
    name: 'h3: a JSON body read back',
    method: 'POST',
    path: '/h3/echo',
    headers: json,
    body: '{"a":1}',
    want: { status: 200, type: 'application/json;charset=UTF-8', body: '{"got":{"a":1}}' },
  },
  {
    name: 'h3: two cookies set, one read',
    path: '/h3/cookie',
    headers: { cookie: 'a=old' },
    want: {
      status: 200,
      type: 'application/json;charset=UTF-8',
      body: '{"seen":"old"}',
      fields: { 'set-cookie': 'a=1; Path=/\nb=2; Path=/' },
    },
  },
  { name: 'h3: an HTTPError', path: '/h3/fail', want: { status: 418, type: 'application/json;charset=UTF-8', body: /"message":"teapot"/ } },
  {
    name: 'h3: a redirect',
    path: '/h3/redirect',
    want: { status: 302, type: 'text/html; charset=utf-8', body: /\/h3\/users\/1/, fields: { location: '/h3/users/1' } },
  },
  {
    name: 'h3: a field set by the handler',
    path: '/h3/header',
    want: { status: 200, type: 'text/plain;charset=UTF-8', body: 'with header', fields: { 'x-custom': 'v' } },
  },
  {
    name: 'itty-router: params and query',
    path: '/itty/items/5?q=y',
    want: { status: 200, type: 'application/json; charset=utf-8', body: '{"id":"5","q":"y"}' },
  },
  {
    name: 'itty-router: a JSON body and its status',
    method: 'POST',
    path: '/itty/items',
    headers: json,
    body: '{"z":2}',
    want: { status: 201, type: 'application/json; charset=utf-8', body: '{"body":{"z":2}}' },
  },
  {
    name: 'itty-router: an error response',
    path: '/itty/forbidden',
    want: { status: 403, type: 'application/json; charset=utf-8', body: '{"status":403,"error":"nope"}' },
  },
  {
    name: 'itty-router: a route no one serves',
    path: '/itty/nope',
    want: { status: 404, type: 'application/json; charset=utf-8', body: '{"status":404,"error":"Not Found"}' },
  },
  {
    name: 'AI SDK: a chat answered as a text stream',
    method: 'POST',
    path: '/ai/text',
    headers: json,
    body: '{"id":"text","words":5}',
    want: { status: 200, type: 'text/plain; charset=utf-8', body: 'word0 word1 word2 word3 word4 ' },
  },
  {
    name: 'AI SDK: a chat answered as a UI message stream (SSE)',
    method: 'POST',
    path: '/ai/ui',
    headers: json,
    body: '{"id":"ui","words":2}',
    want: {
      status: 200,
      type: 'text/event-stream',
      body: [
        '{"type":"start"}',
        '{"type":"start-step"}',
        '{"type":"text-start","id":"t"}',
        '{"type":"text-delta","id":"t","delta":"word0 "}',
        '{"type":"text-delta","id":"t","delta":"word1 "}',
        '{"type":"text-end","id":"t"}',
        '{"type":"finish-step"}',
        '{"type":"finish","finishReason":"stop"}',
        '[DONE]',
      ]
        .map((data) => `data: ${data}\n\n`)
        .join(''),
      fields: { 'x-vercel-ai-ui-message-stream': 'v1', 'cache-control': 'no-cache' },
    },
  },
  {
    name: 'React: a page rendered as a stream (renderToReadableStream), escaped and in UTF-8',
    path: '/react/page',
    want: {
      status: 200,
      type: 'text/html; charset=utf-8',
      // The body as latin1 (what `ask` reads): é is two bytes of UTF-8.
      body:
        '<!DOCTYPE html><html lang="en"><head><title>Orders</title></head><body><h1>Orders</h1><ul><li data-id="1">tea &amp; &lt;cake&gt;</li>' +
        `<li data-id="2">${Buffer.from('café').toString('latin1')}</li></ul></body></html>`,
    },
  },
];

/** The text of a GET of `path`, read as it arrives: `step(textSoFar)` is called after each chunk; the whole text once it ends, or what came before `step` said to leave. */
async function readAsItComes(
  url: string,
  path: string,
  protocol: 'h1' | 'h2',
  step: (text: string) => Promise<'leave' | 'read on'>,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  if (protocol === 'h1') {
    const agent = new Agent();
    try {
      const res = await request(`${url}${path}`, { dispatcher: agent });
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        if ((await step(text)) === 'leave') return text;
      }
      return text + decoder.decode();
    } finally {
      await agent.destroy();
    }
  }
  const session = http2.connect(url);
  try {
    const stream = session.request({ ':path': path });
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if ((await step(text)) === 'leave') {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        return text;
      }
    }
    return text + decoder.decode();
  } finally {
    session.close();
  }
}

/** Asks `path` until `done` holds of the JSON answer, for at most `ms`; returns the last answer. */
async function pollJson(url: string, path: string, done: (value: unknown) => boolean, ms = 3000): Promise<unknown> {
  const until = Date.now() + ms;
  for (;;) {
    const value = JSON.parse((await ask(url, { path })).body) as unknown;
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts a POST of `body` to `path` and leaves once the first bytes of the answer came: over HTTP/1.1 the connection is closed, over HTTP/2 the stream reset (CANCEL). */
async function leaveEarly(url: string, path: string, body: string, protocol: 'h1' | 'h2'): Promise<void> {
  if (protocol === 'h1') {
    const agent = new Agent();
    const res = await request(`${url}${path}`, { method: 'POST', headers: json, body, dispatcher: agent });
    for await (const chunk of res.body) if (chunk) break;
    await agent.destroy();
    return;
  }
  const session = http2.connect(url);
  await new Promise<void>((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, ...json });
    stream.once('data', () => {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      resolve();
    });
    stream.once('error', reject);
    stream.end(body);
  });
  session.close();
}

function onAdapter(adapter: string, start: () => Promise<{ url: string; stop(): Promise<void> | void }>): void {
  describe(`apps of other frameworks on wirespeed/${adapter}`, () => {
    let server: { url: string; stop(): Promise<void> | void } = { url: '', stop: () => undefined };
    beforeAll(async () => void (server = await start()));
    afterAll(() => server.stop());

    for (const c of cases) {
      it(`${c.name}: answered as the framework means, the same over HTTP/2`, async () => {
        const [h1, h2] = await Promise.all([ask(server.url, c), askH2(server.url, c)]);
        const { status, type, body, fields = {} } = c.want;
        const seen = Object.fromEntries(Object.keys(fields).map((name) => [name, h1.headers[name]]));
        expect({ status: h1.status, type: h1.headers['content-type'], fields: seen }).toEqual({ status, type, fields });
        if (typeof body === 'string') expect(h1.body).toBe(body);
        else expect(h1.body).toMatch(body);
        expect(h2).toEqual(h1);
      });
    }

    it('AI SDK: a client that leaves mid-answer aborts the model (request.signal), over HTTP/1.1 and HTTP/2', async () => {
      for (const protocol of ['h1', 'h2'] as const) {
        const id = `leave-${protocol}`;
        await leaveEarly(server.url, '/ai/ui', JSON.stringify({ id, words: 400, delayMs: 5 }), protocol);
        const events = await pollJson(server.url, `/ai/events?id=${id}`, (seen) => Array.isArray(seen) && seen.length === 2);
        expect({ protocol, events }).toEqual({ protocol, events: ['model aborted', 'onAbort'] });
      }
    });

    it('React: the shell and its fallback reach the client before the suspended part exists, then the rest; over HTTP/1.1 and HTTP/2', async () => {
      for (const protocol of ['h1', 'h2'] as const) {
        const gate = `stream-${protocol}`;
        let before = '';
        // The part is made only when the gate opens, after the fallback was read: a server that
        // held the stream back (to learn its length, say) would never show the fallback, and the
        // test would time out.
        const whole = await readAsItComes(server.url, `/react/gated?gate=${gate}`, protocol, async (text) => {
          if (before || !text.includes('<p>loading…</p>')) return 'read on';
          before = text;
          expect((await ask(server.url, { path: `/react/open?gate=${gate}` })).body).toBe('opened');
          return 'read on';
        });
        expect({ protocol, before: before.includes('shipped'), whole }).toEqual({
          protocol,
          before: false,
          whole: expect.stringMatching(
            /^<!DOCTYPE html>.*<!--\$\?--><template id="B:0"><\/template><p>loading…<\/p><!--\/\$-->.*<div hidden id="S:0"><p>shipped<\/p><\/div><script>.*\$RC\("B:0","S:0"\)<\/script><\/body><\/html>$/s,
          ),
        });
        expect(whole.startsWith(before)).toBe(true);
      }
    }, 15_000);

    it('React: a client that leaves while a part is suspended stops the render (its stream cancelled, request.signal aborted), over HTTP/1.1 and HTTP/2', async () => {
      for (const protocol of ['h1', 'h2'] as const) {
        const gate = `leave-${protocol}`;
        const seen = await readAsItComes(server.url, `/react/gated?gate=${gate}`, protocol, async (text) =>
          text.includes('<p>loading…</p>') ? 'leave' : 'read on',
        );
        expect(seen).toContain('<title>Orders</title>');
        const events = await pollJson(server.url, `/react/events?gate=${gate}`, (value) => Array.isArray(value) && value.length > 0);
        expect({ protocol, events }).toEqual({ protocol, events: ['render stopped; request.signal aborted'] });
      }
    });

    it('React: chromium shows the fallback while the part is suspended, then the part in its place (HTTP/1.1)', async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(`${server.url}/react/gated?gate=chromium`, { waitUntil: 'commit' });
        // The document is still loading: the browser shows what it has, the shell.
        await page.getByText('loading…').waitFor({ state: 'visible', timeout: 10_000 });
        expect(await page.evaluate(() => document.readyState)).toBe('loading');
        expect((await ask(server.url, { path: '/react/open?gate=chromium' })).body).toBe('opened');
        // React's script, sent with the part, puts it in the fallback's place.
        await page.getByText('shipped').waitFor({ state: 'visible', timeout: 10_000 });
        expect(await page.getByText('loading…').count()).toBe(0);
      } finally {
        await browser.close();
      }
    }, 30_000);

    it('MCP: the SDK’s client opens a session, lists and calls tools (one with progress over SSE, 20 at once), and ends it', async () => {
      const client = new Client({ name: 'wirespeed-test-client', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.url));
      await client.connect(transport);
      const session = transport.sessionId;
      expect(session).toMatch(/^[0-9a-f-]{36}$/);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add', 'count']);
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([{ type: 'text', text: '5' }]);
      const progress: number[] = [];
      const counted = await client.callTool({ name: 'count', arguments: { n: 5 } }, undefined, {
        onprogress: (step) => progress.push(step.progress),
      });
      expect([counted.content, progress]).toEqual([[{ type: 'text', text: 'counted to 5' }], [1, 2, 3, 4, 5]]);
      const sums = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool({ name: 'add', arguments: { a: i, b: 100 } })));
      expect(sums.map((sum) => sum.content)).toEqual(Array.from({ length: 20 }, (_, i) => [{ type: 'text', text: String(i + 100) }]));
      await transport.terminateSession();
      await client.close();
      // The session is gone: a request that names it is refused.
      const stale = await ask(server.url, {
        method: 'POST',
        path: '/mcp',
        headers: { ...json, accept: 'application/json, text/event-stream', 'mcp-session-id': session! },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(stale.status).toBe(404);
    });

    it('better-auth: sign up, a session by its cookie, a wrong password, sign out; over HTTP/1.1 and HTTP/2', async () => {
      for (const [protocol, send] of [
        ['h1', ask],
        ['h2', askH2],
      ] as const) {
        const email = `${protocol}@example.com`;
        const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
          send(server.url, { method: 'POST', path, headers: { ...json, origin: server.url, ...headers }, body: JSON.stringify(body) });
        const signUp = await post('/auth/sign-up/email', { email, password: 'correct horse', name: 'Ada' });
        expect({ protocol, status: signUp.status }).toEqual({ protocol, status: 200 });
        const setCookie = signUp.headers['set-cookie'];
        expect(setCookie).toMatch(/^better-auth\.session_token=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
        const cookie = setCookie.split(';')[0];
        const session = JSON.parse((await send(server.url, { path: '/auth/get-session', headers: { cookie } })).body) as {
          user: { email: string };
        };
        expect(session.user.email).toBe(email);
        const wrong = await post('/auth/sign-in/email', { email, password: 'wrong horse' });
        expect([wrong.status, JSON.parse(wrong.body).code]).toEqual([401, 'INVALID_EMAIL_OR_PASSWORD']);
        const signOut = await post('/auth/sign-out', {}, { cookie });
        expect([signOut.status, signOut.body]).toEqual([200, '{"success":true}']);
        expect((await send(server.url, { path: '/auth/get-session', headers: { cookie } })).body).toBe('null');
      }
    });
  });
}

onAdapter('node', async () => {
  const server = serve({ fetch: frameworksHandler(), http2: true });
  await server.ready;
  return { url: server.url, stop: () => server.close() };
});

onAdapter('deno', async () => {
  const { url, child } = await launch(process.execPath, denoRunArgs(new URL('./deno-server.ts', import.meta.url).pathname));
  return { url, stop: () => void child.stdin!.end() };
});
