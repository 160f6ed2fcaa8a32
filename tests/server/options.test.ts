// serve() checks its options when called, with the same error class, code and option name on
// Node and on Deno (the table is option-cases.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { serve, type ListeningInfo } from '../../src/server/node.js';
import { fixture as fixtureText, socketPath } from './clients.js';
import { denoRunArgs } from './launchers.js';
import { describeError, optionCases } from './option-cases.js';

describe('serve() options', () => {
  interface DenoResults {
    cases: { what: string; error: string; code: string; option: string; message: string }[];
    listening: { calls: ListeningInfo[]; port: number };
    httpServer: {
      addr: { transport: string; hostname: string; port: number };
      addressWhileServing: ListeningInfo | null;
      addressAfterShutdown: ListeningInfo | null;
      port: number;
      answered: string;
      finishedWhileServing: boolean;
      finished: boolean;
      refused: boolean;
      disposedFinished: boolean;
    };
    stringPort: number;
    events: string[];
    tlsBytes: string;
    unix: { calls: ListeningInfo[]; addr: unknown; url: string; port: number; hostname: string; path: string };
    tlsOnUnix: { error: string; code: string; option: string } | null;
  }
  let denoResults: DenoResults | undefined;
  const deno = (): DenoResults => {
    if (denoResults) return denoResults;
    const script = new URL('./deno-options.ts', import.meta.url).pathname;
    const out = execFileSync(process.execPath, denoRunArgs(script), { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    return (denoResults = JSON.parse(out) as DenoResults);
  };

  it.each(optionCases.map((c) => [c.what, c] as const))('node: %s', (_, c) => {
    let thrown: unknown;
    try {
      serve(c.options() as Parameters<typeof serve>[0], c.listener?.() as Parameters<typeof serve>[1]);
    } catch (error) {
      thrown = error;
    }
    expect(describeError(thrown)).toMatchObject({ error: c.error, code: c.code, option: c.option });
  });

  it('deno: the same error for every case', () => {
    const results = deno().cases;
    for (const c of optionCases) {
      const seen = results.find((r) => r.what === c.what)!;
      expect(seen).toMatchObject({ what: c.what, error: c.error, code: c.code, option: c.option });
    }
  });

  it("calls the second argument once listening, with the address, as @hono/node-server's serve() does", async () => {
    // create-hono's Node template: serve({ fetch: app.fetch, port }, (info) => console.log(info.port)).
    const calls: ListeningInfo[] = [];
    const server = serve({ fetch: () => new Response('ok') }, (info) => calls.push(info));
    expect(calls).toEqual([]);
    // node:http's server.address() (node-server returns its server): null until listening.
    expect(server.address()).toBe(null);
    await server.ready;
    await new Promise((resolve) => setTimeout(resolve, 10));
    try {
      expect(calls).toEqual([{ address: '127.0.0.1', family: 'IPv4', port: server.port }]);
      expect(server.port).toBeGreaterThan(0);
      expect(server.address()).toEqual(calls[0]);
    } finally {
      await server.close();
    }
    expect(server.address()).toBe(null);
    const denoSide = deno().listening;
    expect(denoSide.calls).toEqual([{ address: '127.0.0.1', family: 'IPv4', port: denoSide.port }]);
  });

  it('says where it listens on a Unix socket: the listening callback, address(), url, and Deno.serve’s addr', async () => {
    const path = socketPath();
    const calls: ListeningInfo[] = [];
    const server = serve({ fetch: () => new Response('ok'), path }, (info) => calls.push(info));
    await server.ready;
    await new Promise((resolve) => setTimeout(resolve, 10));
    try {
      expect(calls).toEqual([{ address: path, family: 'unix', port: 0 }]);
      expect(server.address()).toEqual(calls[0]);
      expect([server.url, server.port, server.hostname]).toEqual([`http+unix://${encodeURIComponent(path)}`, 0, '']);
    } finally {
      await server.close();
    }
    expect(server.address()).toBe(null);
    const { unix } = deno();
    expect(unix).toEqual({
      calls: [{ address: unix.path, family: 'unix', port: 0 }],
      addr: { transport: 'unix', path: unix.path },
      url: `http+unix://${encodeURIComponent(unix.path)}`,
      port: 0,
      hostname: '',
      path: unix.path,
    });
  });

  it('node serves TLS on a Unix socket; deno refuses tls with a path (Deno.listenTls has no Unix sockets)', async () => {
    const path = socketPath();
    const server = serve({
      fetch: () => new Response('over tls on a unix socket'),
      path,
      tls: { cert: fixtureText('cert.pem'), key: fixtureText('key.pem') },
    });
    await server.ready;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        https
          .get({ socketPath: path, path: '/', servername: 'localhost', ca: fixtureText('ca.pem') }, (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      expect(body).toBe('over tls on a unix socket');
    } finally {
      await server.close();
    }
    expect(deno().tlsOnUnix).toMatchObject({ error: 'TypeError', code: 'ERR_INVALID_OPTION', option: 'tls' });
  });

  it("calls close()'s callback once closed, as node:http's server.close(callback) (create-hono's SIGTERM handler)", async () => {
    const server = serve({ fetch: () => new Response('ok') });
    await server.ready;
    const calls: unknown[][] = [];
    const closed = server.close((...args: unknown[]) => calls.push(args));
    expect(calls).toEqual([]);
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual([[]]);
    // A second close (a second signal) is called back too, not refused.
    await server.close((...args: unknown[]) => calls.push(args));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual([[], []]);
  });

  it("deno: has Deno.serve's HttpServer members (addr, finished, shutdown(), ref/unref, asyncDispose)", () => {
    const seen = deno().httpServer;
    expect(seen).toEqual({
      addr: { transport: 'tcp', hostname: '127.0.0.1', port: seen.port },
      addressWhileServing: { address: '127.0.0.1', family: 'IPv4', port: seen.port },
      addressAfterShutdown: null,
      port: seen.port,
      answered: 'ok',
      finishedWhileServing: false,
      finished: true,
      refused: true,
      disposedFinished: true,
    });
  });

  // An app that passes process.env.PORT as it is (a string) listened on node:http, which
  // @hono/node-server hands it to; serve() refused it.
  it('takes a port given as a string of digits (process.env.PORT), on Node and Deno', async () => {
    const probe = serve({ fetch: () => new Response('ok') });
    await probe.ready;
    const free = probe.port;
    await probe.close();
    const server = serve({ fetch: () => new Response('from env'), port: String(free) as unknown as number });
    await server.ready;
    try {
      expect(server.port).toBe(free);
      expect(await (await fetch(`http://127.0.0.1:${free}/`)).text()).toBe('from env');
    } finally {
      await server.close();
    }
    expect(deno().stringPort).toBeGreaterThan(0);
  });

  // node-server users read their PEM files into Buffers (serverOptions: { key: readFileSync(...) }).
  it('takes tls cert and key as the bytes of the PEM files, on Node and Deno', async () => {
    const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
    const server = serve({ fetch: () => new Response('over tls'), tls: { cert: fixture('cert.pem'), key: fixture('key.pem') } });
    await server.ready;
    try {
      const body = await new Promise<string>((resolve, reject) =>
        https
          .get({ host: '127.0.0.1', port: server.port, ca: fixture('ca.pem') }, (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve(text));
          })
          .on('error', reject),
      );
      expect(body).toBe('over tls');
    } finally {
      await server.close();
    }
    expect(deno().tlsBytes).toBe('over tls');
    expect(() => serve({ fetch: () => new Response(), tls: { cert: 1, key: 'x' } as never })).toThrow(
      'tls must be { cert, key } with PEM strings or bytes',
    );
  });

  // Apps chain node:http's events on what @hono/node-server returns:
  // serve(...).on('listening', () => console.log(server.address())), server.on('close', ...).
  it("has node:http's server events: listening, error (which handles a failed listen), close; others are refused", async () => {
    const seen: string[] = [];
    const server = serve({ fetch: () => new Response('ok') })
      .on('listening', () => seen.push(`listening ${server.address()?.port}`))
      .once('close', () => seen.push('close'));
    await server.ready;
    const port = server.port;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([`listening ${port}`]);
    // A second server on the taken port: its error listener gets EADDRINUSE.
    const errors: unknown[] = [];
    const taken = serve({ fetch: () => new Response('ok'), port }).on('error', (error) => errors.push(error));
    await taken.ready.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((errors[0] as NodeJS.ErrnoException | undefined)?.code).toBe('EADDRINUSE');
    expect(() => server.on('request' as never, () => undefined)).toThrow(
      "server.on('request') is not an event of this server: it has 'listening', 'error' and 'close' (requests go to fetch)",
    );
    await server.close();
    await server.finished;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([`listening ${port}`, 'close']);
    expect(deno().events).toEqual(['listening', 'close']);
  });

  it('does not call it when listening fails: ready rejects', async () => {
    const taken = serve({ fetch: () => new Response('ok') });
    await taken.ready;
    const calls: ListeningInfo[] = [];
    const second = serve({ fetch: () => new Response('ok'), port: taken.port }, (info) => calls.push(info));
    await expect(second.ready).rejects.toThrow(/EADDRINUSE/);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual([]);
    await taken.close();
  });

  it('says what to do: the option, the value, and the name meant for a typo', () => {
    expect(() => serve({ fetch: () => new Response(), prot: 8080 } as never)).toThrow(
      'serve() has no option "prot" (did you mean "port"?)',
    );
    expect(() => serve({ fetch: () => new Response(), port: 'abc' as never })).toThrow('port must be a number, got "abc"');
    expect(() => serve({ fetch: () => new Response(), workers: 0 })).toThrow(RangeError);
    // Options of @hono/node-server and Deno.serve say what to pass instead.
    expect(() => serve({ fetch: () => new Response(), createServer: () => undefined } as never)).toThrow(
      'serve() has no option "createServer" (for HTTPS pass tls: { cert, key }; for HTTP/2, http2: true)',
    );
    expect(() => serve({ fetch: () => new Response(), onListen: () => undefined } as never)).toThrow(/second argument/);
    // Deno.serve's forms, serve(handler) and serve(options, handler): where the handler goes.
    expect(() => serve((() => new Response()) as never)).toThrow(
      'serve() takes an options object, got a function: pass the handler as serve({ fetch: handler })',
    );
    expect(() => serve({ port: 0 }, (() => new Response()) as never)).toThrow(
      'serve() needs a fetch handler, routes or a router: serve({ fetch: handler, port })',
    );
    expect(() => serve({ fetch: () => new Response(), websocket: { server: {} } } as never)).toThrow(
      /has no option "websocket" \(WebSockets are built in, with no ws server: use upgradeWebSocket from 'wirespeed\/hono'/,
    );
    expect(() => serve(new Hono() as never)).toThrow('serve() takes options, not an app: serve({ fetch: app.fetch, port: 3000 })');
    expect(() => serve({ ...new Hono(), port: 3000 } as never)).toThrow(
      /has no option "\w+" \(an app spread into the options\? pass \{ fetch: app\.fetch \}\)/,
    );
  });
});
