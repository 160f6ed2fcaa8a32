// What only the Node adapter has (node:cluster), and a bounded wrk run against it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Agent, fetch, Response as UndiciResponse } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import http2 from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import { serve, type RouteInfo } from '../../src/server/node.js';
import { socketPath } from './clients.js';

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket
      .setEncoding('latin1')
      .on('data', (d: string) => (out += d))
      .on('end', () => resolve(out))
      .on('error', reject);
  });
}

describe('node: cluster workers', () => {
  const script = new URL('./cluster-server.mjs', import.meta.url).pathname;

  it('serves from several processes on one port, and close() stops them all', async () => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const url = (await lines.next()).value as string;
    const pids = new Set<string>();
    // A new connection per request: the primary hands connections to workers in turn.
    for (let i = 0; i < 20 && pids.size < 2; i++) {
      const agent = new Agent({ pipelining: 0 });
      pids.add(await (await fetch(url, { dispatcher: agent })).text());
      await agent.close();
    }
    expect(pids.size).toBe(2);
    expect(pids.has(String(child.pid))).toBe(false);
    child.stdin!.write('close\n');
    expect((await lines.next()).value).toBe('closed');
    await expect(fetch(url)).rejects.toThrow();
    child.kill();
  });

  it('serves from several processes on one Unix socket, and close() removes it', async () => {
    const path = socketPath();
    const child = spawn(process.execPath, [script, path], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe(`http+unix://${encodeURIComponent(path)}`);
    const pids = new Set<string>();
    for (let i = 0; i < 20 && pids.size < 2; i++) {
      const agent = new Agent({ connect: { socketPath: path }, pipelining: 0 });
      pids.add(await (await fetch('http://localhost/', { dispatcher: agent })).text());
      await agent.close();
    }
    expect(pids.size).toBe(2);
    child.stdin!.write('close\n');
    expect((await lines.next()).value).toBe('closed');
    expect(existsSync(path)).toBe(false);
    child.kill();
  });
});

describe('node: cluster supervision', () => {
  const script = new URL('./cluster-server.mjs', import.meta.url).pathname;

  /** Primaries a test left running (it failed before closing them); their workers exit with them. */
  const running = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
  });

  /** The cluster script run with `env`: its stdout lines, its stderr so far, and its exit. */
  function startCluster(env: Record<string, string>) {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    running.add(child);
    child.on('exit', () => running.delete(child));
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](), stderr: () => stderr, exited };
  }

  /** The pid of the worker that answers a request on a new connection. */
  async function workerPid(url: string): Promise<number> {
    const agent = new Agent({ pipelining: 0 });
    try {
      return Number(await (await fetch(url, { dispatcher: agent })).text());
    } finally {
      await agent.close();
    }
  }

  it('forks another worker for one that dies, says so through logError, and serves on', async () => {
    const { child, lines, stderr, exited } = startCluster({});
    const url = (await lines.next()).value as string;
    const killed = await workerPid(url);
    process.kill(killed, 'SIGKILL');
    const pids = new Set<number>();
    for (let i = 0; i < 100 && pids.size < 2; i++) {
      const pid = await workerPid(url);
      if (pid !== killed) pids.add(pid);
      if (pids.size < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pids.size).toBe(2);
    expect(stderr()).toContain(`a cluster worker (pid ${killed}) exited (SIGKILL); forking another now`);
    child.stdin!.write('close\n');
    expect((await lines.next()).value).toBe('closed');
    expect(await exited).toBe(0);
  });

  // Before, each worker that died before listening was forked again at once, and the second such
  // death ended the primary with an unhandled rejection: the whole cluster stopped serving.
  it('forks a worker that keeps dying before it listens again after growing delays, while the others serve; close() ends it', async () => {
    const flag = `${socketPath()}.broken`;
    const { child, lines, stderr, exited } = startCluster({ BROKEN_FLAG: flag });
    const url = (await lines.next()).value as string;
    const killed = await workerPid(url);
    writeFileSync(flag, '');
    try {
      process.kill(killed, 'SIGKILL');
      // 100 + 200 + 400 + 800 ms: four more deaths at most in these 1.6 s (forked at once, dozens).
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const deaths = stderr().match(/exited \(code 1\) before listening; forking another in \d+ ms/g) ?? [];
      expect(deaths.length).toBeGreaterThanOrEqual(2);
      expect(deaths.length).toBeLessThanOrEqual(5);
      expect(deaths.slice(0, 3).map((line) => Number(/in (\d+) ms/.exec(line)![1]))).toEqual([100, 200, 400]);
      const survivor = await workerPid(url);
      expect(survivor).not.toBe(killed);
    } finally {
      rmSync(flag, { force: true });
    }
    child.stdin!.write('close\n');
    expect((await lines.next()).value).toBe('closed');
    expect(await exited).toBe(0);
  });

  // Before, `ready` rejected with "exited with code 1", and the primary went on forking workers
  // that failed the same way until an unhandled rejection ended it.
  it('rejects ready with why a worker could not listen, and leaves nothing running', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const { lines, exited } = startCluster({ PORT: String(port) });
      expect((await lines.next()).value).toBe(`failed: a cluster worker could not listen: bind EADDRINUSE 127.0.0.1:${port}`);
      // The primary ends by itself: no worker or timer is left to hold it.
      expect(await exited).toBe(0);
    } finally {
      taken.close();
    }
  });
});

describe('node: under load', () => {
  it('a short wrk run gets only 2xx answers and no socket errors', async () => {
    const server = serve({ fetch: () => new Response('Hello World!') });
    await server.ready;
    const out = await new Promise<string>((resolve, reject) =>
      execFile('wrk', ['-t1', '-c20', '-d2s', '--latency', `${server.url}/`], (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    await server.close();
    const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
    expect(requests).toBeGreaterThan(1000);
    expect(out).not.toMatch(/Non-2xx|Socket errors/);
  });
});

describe('node: routes', () => {
  it('dispatches routes with params, answers 404 and 405 with Allow, and falls back to fetch', async () => {
    const routes = {
      'GET /users/:id': (_req: Request, info: { params: Readonly<Record<string, string>> }) => Response.json(info.params),
      'POST /users': () => new Response('created', { status: 201 }),
      '/any': (req: Request) => new Response(req.method),
    };
    const server = serve({ routes });
    await server.ready;
    const withFallback = serve({ routes, fetch: () => new Response('fallback', { status: 418 }) });
    await withFallback.ready;
    try {
      expect(await (await fetch(`${server.url}/users/a%20b?x=1`)).json()).toEqual({ id: 'a b' });
      expect((await fetch(`${server.url}/users`, { method: 'POST' })).status).toBe(201);
      expect(await (await fetch(`${server.url}/any`, { method: 'DELETE' })).text()).toBe('DELETE');
      expect((await fetch(`${server.url}/nope`)).status).toBe(404);
      const wrong = await fetch(`${server.url}/users/1`, { method: 'DELETE' });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('GET, HEAD');
      const head = await fetch(`${server.url}/users/7`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      // Routing sees the path a URL parser gives (dot segments removed), not the raw target.
      const dotted = await rawRequest(server.port, 'GET /nope/../users/%7E9?q=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(dotted).toMatch(/^HTTP\/1\.1 200 /);
      expect(dotted).toContain('{"id":"~9"}');
      expect((await fetch(`${withFallback.url}/nope`)).status).toBe(418);
    } finally {
      await server.close();
      await withFallback.close();
    }
  });

  it('gives a route handler the request info: params, the peer, and completed', async () => {
    const seen: Promise<string>[] = [];
    const server = serve({
      routes: {
        'GET /users/:id': (_req: Request, info: RouteInfo) => {
          seen.push(info.completed.then(() => 'resolved'));
          return Response.json({ params: info.params, remoteAddress: info.remoteAddress, own: Object.keys({ ...info }) });
        },
      },
    });
    await server.ready;
    try {
      expect(await (await fetch(`${server.url}/users/7`)).json()).toEqual({
        params: { id: '7' },
        remoteAddress: '127.0.0.1',
        own: ['remoteAddress', 'remotePort', 'encrypted', 'params'],
      });
      expect(await Promise.all(seen)).toEqual(['resolved']);
    } finally {
      await server.close();
    }
  });

  it("answers a param whose percent-encoding cannot be decoded with 400, the client's error, and logs nothing", async () => {
    const logged: unknown[] = [];
    const server = serve({
      logError: (error) => void logged.push(error),
      routes: { 'GET /users/:name': (_req: Request, info: { params: Readonly<Record<string, string>> }) => Response.json(info.params) },
    });
    await server.ready;
    try {
      for (const target of ['/users/%E0%A4%A', '/users/%zz', '/users/a%']) {
        const response = await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        expect(response, target).toMatch(/^HTTP\/1\.1 400 /);
        expect(response, target).toContain('ERR_INVALID_PERCENT_ENCODING');
      }
      // A good one on the same server still routes.
      expect(await (await fetch(`${server.url}/users/caf%C3%A9`)).json()).toEqual({ name: 'café' });
      expect(logged).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

/** GET `path` over h2c with node's client: status, fields and body. */
function h2Get(url: string, path: string): Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url);
    session.on('error', reject);
    const stream = session.request({ ':path': path });
    let body = '';
    let headers: http2.IncomingHttpHeaders = {};
    stream.setEncoding('utf8');
    stream.on('response', (h) => (headers = h));
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => {
      session.close();
      resolve({ status: Number(headers[':status']), headers, body });
    });
    stream.on('error', reject);
  });
}

// The npm `undici` package's Response is not the global class (Node's copy of undici is its own):
// apps that proxy with `import { fetch } from 'undici'` return one. @hono/node-server sends it;
// the server answered 500 "not a Response".
describe('node: a Response of another Fetch implementation', () => {
  it('is sent over HTTP/1.1 and HTTP/2 (fetched, constructed, streamed), and its Response.error() reaches onError', async () => {
    const upstream = http.createServer((_req, res) => res.setHeader('content-type', 'text/plain').end('from upstream'));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}/`;
    const errors: unknown[] = [];
    const server = serve({
      http2: true,
      onError: (error) => {
        errors.push(error);
        return new Response('handled', { status: 500 });
      },
      fetch: async (request) => {
        const path = new URL(request.url).pathname;
        if (path === '/fetch') return (await fetch(upstreamUrl)) as unknown as Response;
        if (path === '/stream') {
          type UndiciBody = ConstructorParameters<typeof UndiciResponse>[0];
          const body = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('streamed')), c.close()) });
          return new UndiciResponse(body as unknown as UndiciBody, { status: 201 }) as unknown as Response;
        }
        if (path === '/error') return UndiciResponse.error() as unknown as Response;
        if (path === '/object') return { status: 200 } as unknown as Response;
        return new UndiciResponse('constructed', { headers: { 'x-from': 'undici' } }) as unknown as Response;
      },
    });
    await server.ready;
    try {
      const fetched = await fetch(`${server.url}/fetch`);
      expect([fetched.status, fetched.headers.get('content-type'), await fetched.text()]).toEqual([200, 'text/plain', 'from upstream']);
      const made = await fetch(`${server.url}/new`);
      expect([made.headers.get('x-from'), made.headers.get('content-length'), await made.text()]).toEqual(['undici', '11', 'constructed']);
      const streamed = await fetch(`${server.url}/stream`);
      expect([streamed.status, await streamed.text()]).toEqual([201, 'streamed']);
      const h2 = await h2Get(server.url, '/new');
      expect([h2.status, h2.headers['x-from'], h2.body]).toEqual([200, 'undici', 'constructed']);
      expect((await h2Get(server.url, '/fetch')).body).toBe('from upstream');
      // Not sendable: a network error, and an object with a status but no Response surface.
      for (const path of ['/error', '/object']) {
        const answer = await fetch(`${server.url}${path}`);
        expect([answer.status, await answer.text()]).toEqual([500, 'handled']);
      }
      expect(errors.map((e) => (e as Error).message)).toEqual([
        expect.stringMatching(/Response\.error\(\), a network error/),
        'the handler returned object, not a Response',
      ]);
    } finally {
      await server.close();
      upstream.close();
    }
  });
});

describe('node: logError', () => {
  it('gets what no response can carry, and the library logs nothing itself', async () => {
    const logged: unknown[] = [];
    const original = console.error;
    const consoleCalls: unknown[] = [];
    console.error = (...args: unknown[]) => void consoleCalls.push(args);
    const server = serve({
      logError: (error) => void logged.push(error),
      fetch: (request) => {
        if (request.url.endsWith('/throw')) throw new Error('handler failed');
        // A body that breaks after its head went out (with its first chunk; failing before that,
        // it would be answered 500).
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (!sent) {
              sent = true;
              return controller.enqueue(new Uint8Array(10));
            }
            await new Promise((resolve) => setTimeout(resolve, 30));
            controller.error(new Error('body failed'));
          },
        });
        return new Response(body);
      },
    });
    await server.ready;
    try {
      const thrown = await fetch(`${server.url}/throw`);
      expect(thrown.status).toBe(500);
      await thrown.text();
      await expect(fetch(`${server.url}/broken`).then((r) => r.arrayBuffer())).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logged.map((e) => (e as Error).message)).toEqual(['handler failed', expect.stringMatching(/body/)]);
      expect(consoleCalls).toEqual([]);
    } finally {
      console.error = original;
      await server.close();
    }
  });

  it("gets both errors when onError fails (throws, rejects, returns no Response), the handler's first", async () => {
    const failures: Record<string, () => unknown> = {
      throws: () => {
        throw new Error('onError failed');
      },
      rejects: () => Promise.reject(new Error('onError failed')),
      undefined: () => undefined,
    };
    for (const [how, onError] of Object.entries(failures)) {
      const logged: string[] = [];
      const server = serve({
        logError: (error) => void logged.push((error as Error).message),
        onError: onError as () => Response,
        fetch: () => {
          throw new Error('handler failed');
        },
      });
      await server.ready;
      try {
        expect((await fetch(server.url)).status, how).toBe(500);
        const second = how === 'undefined' ? 'onError returned undefined, not a Response' : 'onError failed';
        expect(logged, how).toEqual(['handler failed', second]);
      } finally {
        await server.close();
      }
    }
  });

  // A logger that throws (one that stringifies a circular error) cut the connection of every
  // request that erred: the 500 never went out.
  it('that throws still lets the 500 go out; its error goes to the console with the one it was given', async () => {
    const original = console.error;
    const consoleCalls: unknown[][] = [];
    console.error = (...args: unknown[]) => void consoleCalls.push(args);
    const server = serve({
      logError: () => {
        throw new Error('logger broke');
      },
      fetch: () => {
        throw new Error('handler failed');
      },
    });
    await server.ready;
    try {
      for (let i = 0; i < 2; i++) expect((await fetch(server.url)).status).toBe(500);
      expect(consoleCalls.map(([what, broken, , error]) => [what, (broken as Error).message, (error as Error).message])).toEqual([
        ['wirespeed: logError threw', 'logger broke', 'handler failed'],
        ['wirespeed: logError threw', 'logger broke', 'handler failed'],
      ]);
    } finally {
      console.error = original;
      await server.close();
    }
  });

  // The server's own cancel reason, come back through the handler's `await request.text()`:
  // logging it told of a server error for every client that left mid-upload or was too slow.
  it("is not told of a request the server cancelled (reset mid-body, timed out), on HTTP/1.1 and HTTP/2; a handler's own error is", async () => {
    const logged: string[] = [];
    const server = serve({
      http2: true,
      requestTimeout: 300,
      logError: (error) => void logged.push((error as Error).message),
      fetch: async (request) => {
        const text = await request.text().catch((error: unknown) => {
          if (request.url.endsWith('/own')) throw new Error('the handler failed on its own');
          throw error;
        });
        return new Response(text);
      },
    });
    await server.ready;
    const head = (path: string) => `POST ${path} HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc`;
    try {
      // HTTP/1.1: a reset mid-body, then a body that stalls past requestTimeout (408).
      const reset = net.connect(server.port, '127.0.0.1', () => reset.write(head('/reset')));
      await new Promise((r) => setTimeout(r, 100));
      reset.resetAndDestroy();
      const stall = net.connect(server.port, '127.0.0.1', () => stall.write(head('/stall')));
      const answer = await new Promise<string>((resolve) => stall.setEncoding('latin1').once('data', resolve));
      stall.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      // HTTP/2: a stream reset mid-body, then a body that stalls.
      const session = http2.connect(server.url);
      const cancelled = session.request({ ':method': 'POST', ':path': '/reset' }, { endStream: false });
      cancelled.write('abc');
      await new Promise((r) => setTimeout(r, 100));
      cancelled.close(http2.constants.NGHTTP2_CANCEL);
      const stalled = session.request({ ':method': 'POST', ':path': '/stall' }, { endStream: false });
      stalled.write('abc');
      const status = await new Promise((resolve) => stalled.on('response', (h) => resolve(h[':status'])));
      expect(status).toBe(408);
      // A handler that turns the failed read into an error of its own is still logged.
      const own = net.connect(server.port, '127.0.0.1', () => own.write(head('/own')));
      await new Promise((r) => setTimeout(r, 100));
      own.resetAndDestroy();
      await new Promise((r) => setTimeout(r, 200));
      session.destroy();
      expect(logged).toEqual(['the handler failed on its own']);
    } finally {
      await server.close();
    }
  });

  // A proxy that hands its upstream the request's signal, as fetch's docs and every AI-streaming
  // example do: a client that leaves aborts the upstream fetch, whose body then fails with the
  // server's own reason. That was logged as a broken response body for every client that left.
  it("is not told of a proxied body cut because its client left (fetch given request.signal), on HTTP/1.1 and HTTP/2; a body's own failure is", async () => {
    const upstreamClosed: string[] = [];
    const upstream = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.url === '/breaks') {
        res.write('data: 0\n\n');
        setTimeout(() => res.destroy(), 100);
        return;
      }
      const timer = setInterval(() => res.write('data: tick\n\n'), 20);
      req.on('close', () => (clearInterval(timer), upstreamClosed.push(req.url!)));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const logged: string[] = [];
    const server = serve({
      http2: true,
      logError: (error) => void logged.push((error as Error).message),
      fetch: (request) => globalThis.fetch(origin + new URL(request.url).pathname, { signal: request.signal }),
    });
    await server.ready;
    try {
      // HTTP/1.1: the client reads a few events and leaves.
      const socket = net.connect(server.port, '127.0.0.1', () => socket.write('GET /h1 HTTP/1.1\r\nHost: a\r\n\r\n'));
      await new Promise((resolve) => socket.once('data', resolve));
      await new Promise((r) => setTimeout(r, 60));
      socket.destroy();
      // HTTP/2: the client cancels its stream after the first events.
      const session = http2.connect(server.url);
      const stream = session.request({ ':path': '/h2' });
      await new Promise((resolve) => stream.once('data', resolve));
      stream.close(http2.constants.NGHTTP2_CANCEL);
      // An upstream that breaks on its own: the body's failure is the server's to report.
      await fetch(`${server.url}/breaks`)
        .then((res) => res.text())
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      session.destroy();
      expect(upstreamClosed.sort()).toEqual(['/h1', '/h2']);
      expect(logged).toEqual(['the response body stream failed']);
    } finally {
      await server.close();
      upstream.closeAllConnections();
      upstream.close();
    }
  });

  it('is checked like the other options', () => {
    expect(() => serve({ fetch: () => new Response(''), logError: 'x' as never })).toThrow(/logError must be a function/);
  });
});
