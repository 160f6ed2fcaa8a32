// Apps of more fetch-handler frameworks, as their users write them, behind one handler: Elysia
// under /elysia (it enqueues strings into its generator and SSE streams), a tRPC router under
// /trpc (JSON, batches streamed as JSON lines, subscriptions over SSE), GraphQL Yoga at /graphql
// (its own fetch layer, @whatwg-node/server; subscriptions over SSE), h3 (Nitro's) under /h3 and
// itty-router under /itty, a chat endpoint of the AI SDK under /ai (a mock model, streaming text
// and its UI message stream, cancelled when the client leaves), better-auth under /auth, and an
// MCP server at /mcp (the Model Context Protocol SDK's web-standard Streamable HTTP transport,
// one per session), and React's streaming server rendering under /react (`renderToReadableStream`
// in a fetch handler, as React Router, TanStack Start and Next.js render on the server).
import { createElement, Suspense, use, type ReactNode } from 'react';
import { renderToReadableStream } from 'react-dom/server';
import { streamText } from 'ai';
import { MockLanguageModelV4, simulateReadableStream } from 'ai/test';
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import { Elysia, sse, t } from 'elysia';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import { initTRPC, TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createSchema, createYoga } from 'graphql-yoga';
import { getCookie, getQuery, getRouterParam, H3, HTTPError, readBody, redirect, setCookie, setResponseHeader } from 'h3';
import { AutoRouter, error, json } from 'itty-router';

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

function elysiaApp() {
  return new Elysia({ prefix: '/elysia' })
    .get('/users/:id', ({ params, query }) => ({ id: params.id, q: query.q ?? null }))
    .post(
      '/items',
      ({ body, set }) => {
        set.status = 201;
        set.headers['x-made'] = 'yes';
        return { got: body };
      },
      { body: t.Object({ name: t.String(), price: t.Number() }) },
    )
    .get('/cookie', ({ cookie: { session } }) => {
      session.value = 'abc';
      session.httpOnly = true;
      return 'set';
    })
    .get('/read-cookie', ({ cookie: { session } }) => `session=${String(session.value)}`)
    .get('/throw', () => {
      throw new Error('boom');
    })
    .get('/stream', async function* () {
      yield 'one;';
      await tick();
      yield 'two;';
      yield 'three';
    })
    .get('/sse', async function* () {
      for (let i = 0; i < 3; i++) {
        yield sse({ event: 'tick', data: { i } });
        await tick();
      }
    })
    .get('/blob', () => new Blob(['blob body'], { type: 'text/x-blob' }))
    .get('/redirect', ({ redirect }) => redirect('/elysia/users/1', 303))
    .post('/upload', ({ body }) => ({ name: body.name, file: `${body.file.name} ${body.file.size}` }), {
      body: t.Object({ name: t.String(), file: t.File() }),
    });
}

function trpcRouter() {
  const trpc = initTRPC.create({ isDev: false });
  const named = (value: unknown) => {
    if (typeof (value as { name?: unknown })?.name !== 'string')
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'name must be a string' });
    return value as { name: string };
  };
  const pair = (value: unknown) => value as { a: number; b: number };
  return trpc.router({
    hello: trpc.procedure.input(named).query(({ input }) => ({ greeting: `hello ${input.name}` })),
    add: trpc.procedure.input(pair).mutation(({ input }) => input.a + input.b),
    slow: trpc.procedure.query(async () => {
      await tick();
      return 'slow done';
    }),
    count: trpc.procedure.subscription(async function* () {
      for (let i = 0; i < 3; i++) {
        yield i;
        await tick();
      }
    }),
  });
}

function yogaServer() {
  const schema = createSchema({
    typeDefs: 'type Query { hello(name: String): String, slow: String } type Subscription { countdown(from: Int!): Int! }',
    resolvers: {
      Query: {
        hello: (_: unknown, { name }: { name: string }) => `hi ${name}`,
        slow: async () => {
          await tick();
          return 'slow done';
        },
      },
      Subscription: {
        countdown: {
          subscribe: async function* (_: unknown, { from }: { from: number }) {
            for (let i = from; i >= 0; i--) {
              yield { countdown: i };
              await tick();
            }
          },
        },
      },
    },
  });
  return createYoga({ schema, graphiql: false, logging: false });
}

function h3App() {
  return new H3()
    .get('/h3/users/:id', (event) => ({ id: getRouterParam(event, 'id'), q: getQuery(event).q ?? null }))
    .post('/h3/echo', async (event) => ({ got: await readBody(event) }))
    .get('/h3/cookie', (event) => {
      setCookie(event, 'a', '1');
      setCookie(event, 'b', '2');
      return { seen: getCookie(event, 'a') ?? null };
    })
    .get('/h3/fail', () => {
      throw new HTTPError({ status: 418, message: 'teapot' });
    })
    .get('/h3/redirect', () => redirect('/h3/users/1'))
    .get('/h3/header', (event) => {
      setResponseHeader(event, 'x-custom', 'v');
      return 'with header';
    });
}

function ittyRouter() {
  const router = AutoRouter({ base: '/itty' });
  router.get('/items/:id', ({ id, query }) => ({ id, q: query.q ?? null }));
  router.post('/items', async (request) => json({ body: await request.json() }, { status: 201 }));
  router.get('/forbidden', () => error(403, 'nope'));
  return router;
}

/** What the AI SDK app saw of each chat (by the id its request gave): the model's abort signal, streamText's onAbort. */
const chatEvents = new Map<string, string[]>();

type DoStream = Extract<NonNullable<ConstructorParameters<typeof MockLanguageModelV4>[0]>['doStream'], (...args: never[]) => unknown>;
/** A part of a model's stream (the provider package's type, reached through the mock's own). */
type StreamPart = Awaited<ReturnType<DoStream>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** A model that streams `words` words (`word0 word1 ...`), `delayMs` apart, and notes an abort. */
function wordModel(id: string, words: number, delayMs: number) {
  return new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => {
      abortSignal?.addEventListener('abort', () => chatEvents.get(id)?.push('model aborted'));
      const deltas = Array.from({ length: words }, (_, i): StreamPart => ({ type: 'text-delta', id: 't', delta: `word${i} ` }));
      const usage = {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: words, text: words, reasoning: 0 },
      };
      const chunks: StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        ...deltas,
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: delayMs }) };
    },
  });
}

/** The AI SDK's chat endpoint as its guides write it: POST a prompt, answer the model's stream, stop when the client leaves. */
async function aiChat(request: Request, pathname: string): Promise<Response> {
  if (pathname === '/ai/events') return Response.json(chatEvents.get(new URL(request.url).searchParams.get('id')!) ?? null);
  const { id = 'chat', words = 5, delayMs = 0 } = (await request.json()) as { id?: string; words?: number; delayMs?: number };
  chatEvents.set(id, []);
  const result = streamText({
    model: wordModel(id, words, delayMs),
    prompt: 'say words',
    abortSignal: request.signal,
    onAbort: () => void chatEvents.get(id)?.push('onAbort'),
  });
  return pathname === '/ai/text' ? result.toTextStreamResponse() : result.toUIMessageStreamResponse();
}

/** better-auth with email and password, users and sessions in memory. */
function authHandler(): (request: Request) => Promise<Response> {
  const db = { user: [], session: [], account: [], verification: [] };
  const auth = betterAuth({
    basePath: '/auth',
    database: memoryAdapter(db),
    emailAndPassword: { enabled: true },
    secret: 'a test secret that is long enough for better-auth',
    logger: { disabled: true },
  });
  return (request) => auth.handler(request);
}

/** An MCP server with two tools: `add`, and `count`, which reports its progress as it goes. */
function mcpServer(): McpServer {
  const server = new McpServer({ name: 'wirespeed-test', version: '1.0.0' });
  server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool(
    'count',
    { description: 'Counts to n, reporting each step', inputSchema: { n: z.number() } },
    async ({ n }, extra) => {
      for (let i = 1; i <= n; i++) {
        const progressToken = extra._meta?.progressToken ?? 0;
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: i, total: n } });
        await tick();
      }
      return { content: [{ type: 'text', text: `counted to ${n}` }] };
    },
  );
  return server;
}

/** The MCP endpoint as the SDK's guide writes it: a transport per session, found by its Mcp-Session-Id. */
function mcpHandler(): (request: Request) => Promise<Response> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return async (request) => {
    const id = request.headers.get('mcp-session-id');
    if (id) return sessions.get(id)?.handleRequest(request) ?? Response.json({ error: 'no such session' }, { status: 404 });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (session) => void sessions.set(session, transport),
      onsessionclosed: (session) => void sessions.delete(session),
    });
    await mcpServer().connect(transport);
    return transport.handleRequest(request);
  };
}

/** The rows of the React page; the first needs escaping, the second is not ASCII. */
const ORDERS = [
  { id: 1, name: 'tea & <cake>' },
  { id: 2, name: 'café' },
];

/** The React gates of `/react/gated?gate=ID`, opened by `/react/open?gate=ID`, and what each render saw. */
const reactGates = new Map<string, { open: (text: string) => void; promise: Promise<string>; events: string[] }>();

function reactGate(id: string) {
  let gate = reactGates.get(id);
  if (!gate) {
    let open!: (text: string) => void;
    const promise = new Promise<string>((resolve) => (open = resolve));
    gate = { open, promise, events: [] };
    reactGates.set(id, gate);
  }
  return gate;
}

/** A part of the page that suspends until its data comes (React's `use` of a promise). */
function Shipping({ status }: { status: Promise<string> }): ReactNode {
  return createElement('p', null, use(status));
}

/** A page as a React app writes it: a document, a list, and a part streamed in later behind a Suspense fallback. */
function OrdersPage({ status }: { status?: Promise<string> }): ReactNode {
  const list = createElement(
    'ul',
    null,
    ORDERS.map((order) => createElement('li', { key: order.id, 'data-id': order.id }, order.name)),
  );
  const later = status
    ? createElement(Suspense, { fallback: createElement('p', null, 'loading…') }, createElement(Shipping, { status }))
    : null;
  return createElement(
    'html',
    { lang: 'en' },
    createElement('head', null, createElement('title', null, 'Orders')),
    createElement('body', null, createElement('h1', null, 'Orders'), list, later),
  );
}

/**
 * React's streaming server rendering as its guides write it for a fetch handler: the stream of
 * `renderToReadableStream` as the body, the request's signal to stop rendering for a client that
 * left. `/react/gated` suspends until the test opens its gate, so the shell must reach the client
 * before the rest of the page exists.
 */
async function reactPage(request: Request, url: URL): Promise<Response> {
  const id = url.searchParams.get('gate');
  if (url.pathname === '/react/open') {
    reactGate(id!).open('shipped');
    return new Response('opened');
  }
  if (url.pathname === '/react/events') return Response.json(reactGates.get(id!)?.events ?? null);
  const gate = url.pathname === '/react/gated' ? reactGate(id!) : undefined;
  const stream = await renderToReadableStream(createElement(OrdersPage, { status: gate?.promise }), {
    signal: request.signal,
    onError: () => void gate?.events.push(`render stopped; request.signal ${request.signal.aborted ? 'aborted' : 'not aborted'}`),
  });
  return new Response(stream, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/** One fetch handler for the apps. */
export function frameworksHandler(): (request: Request) => Response | Promise<Response> {
  const elysia = elysiaApp();
  const router = trpcRouter();
  const yoga = yogaServer();
  const h3 = h3App();
  const itty = ittyRouter();
  const auth = authHandler();
  const mcp = mcpHandler();
  return (request) => {
    const url = new URL(request.url);
    const { pathname } = url;
    if (pathname.startsWith('/elysia/')) return elysia.fetch(request);
    if (pathname.startsWith('/trpc/')) return fetchRequestHandler({ endpoint: '/trpc', req: request, router, createContext: () => ({}) });
    if (pathname === '/graphql') return yoga.fetch(request);
    if (pathname.startsWith('/h3/')) return h3.fetch(request);
    if (pathname.startsWith('/itty/')) return itty.fetch(request);
    if (pathname.startsWith('/ai/')) return aiChat(request, pathname);
    if (pathname.startsWith('/auth/')) return auth(request);
    if (pathname === '/mcp') return mcp(request);
    if (pathname.startsWith('/react/')) return reactPage(request, url);
    return new Response('not found', { status: 404 });
  };
}
