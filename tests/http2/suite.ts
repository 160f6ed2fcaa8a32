// `serve({ http2: true })` checked with real HTTP/2 peers: Node's http2 client, curl, h2load,
// h2spec, and a bare frame client for the attacks. One suite, run against each adapter.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { h2specBin } from '../../scripts/tools.mjs';
import { Flag, frame, FrameType, uint32Bytes } from '../../src/http2/frame/header.js';
import { SettingId, settingsPayload } from '../../src/http2/frame/settings.js';
import { curl, fixture, raw, statuses } from '../server/clients.js';
import { interruptedName, stats, TEXT_LENGTHS, TEXT_UNITS, useServer, type Launcher } from '../server/suite.js';
import { RawHttp2Client } from './raw-client.js';

/** h2spec is installed by `npm run setup` (which `npm test` runs): missing, the conformance run fails rather than skips. */
function requireH2spec(): void {
  if (!existsSync(h2specBin())) throw new Error(`h2spec is missing at ${h2specBin()}: run npm run setup`);
}

interface H2Response {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
  trailers: http2.IncomingHttpHeaders;
}

/** One request on `session`; `trailers` are sent after the body. */
function request(
  session: http2.ClientHttp2Session,
  headers: http2.OutgoingHttpHeaders,
  body?: Uint8Array | string,
  trailers?: http2.OutgoingHttpHeaders,
): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: body === undefined && !trailers, waitForTrailers: trailers !== undefined });
    if (trailers) stream.on('wantTrailers', () => stream.sendTrailers(trailers));
    const chunks: Buffer[] = [];
    let status = 0;
    let responseHeaders: http2.IncomingHttpHeaders = {};
    let responseTrailers: http2.IncomingHttpHeaders = {};
    stream.on('response', (h) => {
      status = Number(h[':status']);
      responseHeaders = h;
    });
    stream.on('trailers', (t) => (responseTrailers = t));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve({ status, headers: responseHeaders, body: Buffer.concat(chunks), trailers: responseTrailers }));
    stream.on('error', reject);
    if (body !== undefined) stream.end(body);
    else if (trailers) stream.end();
  });
}

function connect(url: string): http2.ClientHttp2Session {
  const session = http2.connect(url, url.startsWith('https') ? { ca: fixture('ca.pem'), servername: 'localhost' } : {});
  session.on('error', () => undefined);
  return session;
}

async function withSession<T>(url: string, run: (session: http2.ClientHttp2Session) => Promise<T>): Promise<T> {
  const session = connect(url);
  try {
    return await run(session);
  } finally {
    session.close();
  }
}

const get = (path: string): http2.OutgoingHttpHeaders => ({ ':method': 'GET', ':path': path });

/** GETs `path`, resets the stream with CANCEL after `resetMs`, and gives the server `settleMs` to see it. */
function resetAfter(url: string, path: string, resetMs: number, settleMs: number): Promise<void> {
  return withSession(url, async (session) => {
    const stream = session.request(get(path));
    stream.on('error', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, resetMs));
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
  });
}

function execText(command: string, args: string[], timeout = 120_000): Promise<string> {
  return new Promise((resolve) =>
    execFile(command, args, { timeout, maxBuffer: 16 << 20 }, (_error, stdout, stderr) => resolve(`${stdout}${stderr}`)),
  );
}

export function http2Suite(name: string, launch: Launcher): void {
  const interrupted = interruptedName(name);
  describe(`${name}: HTTP/2 requests and responses (h2c)`, () => {
    const server = useServer(launch, { http2: true });

    it('answers the same handler over h2c, with Date and Content-Length and no connection fields', async () => {
      const res = await withSession(server.url, (s) => request(s, get('/hello')));
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('Hello World!');
      expect(res.headers['content-length']).toBe('12');
      expect(new Date(String(res.headers.date)).getTime()).toBeGreaterThan(Date.now() - 5000);
      expect(res.headers.connection).toBeUndefined();
    });

    // Before, HTTP/2 sent it (HTTP/1.1 did not), and Node's client (nghttp2) failed a 204 that had one.
    it('sends no Content-Length with a 204 or 304, whatever the handler set, as HTTP/1.1 does', async () => {
      for (const status of [204, 304]) {
        const res = await withSession(server.url, (s) => request(s, get(`/bodyless?status=${status}&length=5`)));
        expect([res.status, res.headers['content-length'], res.headers.etag]).toEqual([status, undefined, '"e"']);
        const h1 = await raw(server.port, [`GET /bodyless?status=${status}&length=5 HTTP/1.1\r\nHost: a\r\n\r\n`], { responses: 1 });
        expect(h1.text).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
        expect(h1.text).not.toMatch(/content-length/i);
      }
    });

    // Before, each of these went out as the handler wrote it, and Node's client failed the stream.
    it("sends a handler's Content-Length only when it is one true length: not twice, nor garbage beside a streamed body", async () => {
      const cases: [string[], string | undefined][] = [
        [['5', '5'], '5'],
        [['5, 5'], undefined],
        [['abc'], undefined],
        [['-5'], undefined],
        [['+5'], undefined],
        [['005'], '005'],
      ];
      for (const [values, expected] of cases) {
        const path = `/declared-length?${values.map((v) => `value=${encodeURIComponent(v)}`).join('&')}`;
        const res = await withSession(server.url, (s) => request(s, get(path)));
        expect([values, res.status, res.body.toString(), res.headers['content-length']]).toEqual([values, 200, 'hello', expected]);
      }
    });

    it('resets a streamed body that ends short of its declared content-length, and does not end it (RFC 9113 §8.1.1)', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'GET', '/declared-length?value=10');
      const ofStream = () => client.frames.filter((f) => f.streamId === 1);
      expect(await client.until(() => ofStream().some((f) => f.type === FrameType.RST_STREAM), 5000)).toBe(true);
      client.close();
      const data = ofStream().filter((f) => f.type === FrameType.DATA);
      expect([Buffer.concat(data.map((f) => f.payload)).toString(), data.some((f) => f.flags & Flag.END_STREAM)]).toEqual(['hello', false]);
    });

    // Before, a handler's TE went out, and Node's client (nghttp2) failed the stream (ERR_HTTP2_STREAM_ERROR).
    it('leaves the fields HTTP/2 forbids in a response (§8.2.2) off the wire: connection-specific ones and TE', async () => {
      const res = await withSession(server.url, (s) => request(s, get('/hop-fields')));
      expect([res.status, res.body.toString(), res.headers['x-kept']]).toEqual([200, 'hop', '1']);
      for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te']) expect(res.headers[name]).toBeUndefined();
    });

    it('serves HTTP/1.1 on the same port', async () => {
      const res = await fetch(`${server.url}/path?x=1`);
      expect(await res.text()).toBe('GET /path?x=1');
    });

    it('gives the handler the URL, method and headers of the request', async () => {
      const res = await withSession(server.url, (s) =>
        request(s, { ':method': 'PUT', ':path': '/headers', 'x-test': 'yes', cookie: 'a=1' }, ''),
      );
      const headers = JSON.parse(res.body.toString()) as Record<string, string>;
      expect(headers['x-test']).toBe('yes');
      expect(headers.cookie).toBe('a=1');
      // RFC 9113 §8.2.3: cookie crumbs (node's client sends a list as separate fields) reach the handler as one cookie-string.
      const crumbs = await withSession(server.url, (s) => request(s, { ':path': '/headers', cookie: ['a=1', 'b=2', 'c=3'] }));
      expect((JSON.parse(crumbs.body.toString()) as Record<string, string>).cookie).toBe('a=1; b=2; c=3');
      const path = await withSession(server.url, (s) => request(s, get('/path?q=%20')));
      expect(path.body.toString()).toBe('GET /path?q=%20');
    });

    it('answered before the request ended: a handler still reading gets the rest; a read begun after the response fails, saying why', async () => {
      // Both reads used to wait forever: the rest of the body was dropped behind END_STREAM.
      const id = `h2-${Date.now()}`;
      const answeredFirst = (path: string, rest: string) =>
        withSession(server.url, async (session) => {
          const stream = session.request({ ':method': 'POST', ':path': `${path}?id=${id}-${path.length}` });
          stream.write('x'.repeat(1000));
          const [headers] = (await once(stream, 'response')) as [http2.IncomingHttpHeaders];
          stream.end(rest);
          stream.resume();
          await once(stream, 'close');
          return headers[':status'];
        });
      expect(await answeredFirst('/answer-then-read', 'y'.repeat(99_000))).toBe(202);
      expect(await answeredFirst('/answer-then-start-reading', 'late')).toBe(202);
      let seen: Record<string, string> = {};
      for (let i = 0; i < 50 && Object.keys(seen).filter((k) => k.startsWith(id)).length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = (await stats(server.url)).lateReads;
      }
      expect([seen[`${id}-${'/answer-then-read'.length}`], seen[`${id}-${'/answer-then-start-reading'.length}`]]).toEqual([
        'read 100000',
        expect.stringMatching(/^failed: the request body was dropped: the response was sent before it was read/),
      ]);
    });

    it('echoes a 5 MiB body through both flow-control windows', async () => {
      const body = new Uint8Array(5 * 1024 * 1024);
      for (let i = 0; i < body.length; i++) body[i] = (i * 31) & 0xff;
      const res = await withSession(server.url, (s) => request(s, { ':method': 'POST', ':path': '/echo' }, body));
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(body.length);
      expect(Buffer.compare(res.body, Buffer.from(body))).toBe(0);
    });

    it('gives back the connection window of bodies a handler leaves unread: 3 MiB of uploads on one connection, then one read whole', async () => {
      // Each body is 100 KB against the connection's 1 MiB window, and arrives while its handler
      // waits (held past 64 KiB, its window not given back then): a share not given back once
      // the body is dropped stalls every later upload.
      const body = new Uint8Array(100_000).fill(0x61);
      const answers = await withSession(server.url, async (s) => {
        const read: string[] = [];
        for (const action of ['none', 'check', 'first', 'cancel'])
          for (let i = 0; i < 8; i++) {
            const res = await request(s, { ':method': 'POST', ':path': `/body-action?id=${action}-${i}&do=${action}&ms=20` }, body);
            read.push(`${res.status} ${(JSON.parse(res.body.toString()) as { id: string }).id}`);
          }
        const whole = await request(s, { ':method': 'POST', ':path': '/body-action?id=whole&do=all' }, body);
        return { read, whole: JSON.parse(whole.body.toString()) as { read: number } };
      });
      expect(answers.read).toEqual(
        ['none', 'check', 'first', 'cancel'].flatMap((action) => Array.from({ length: 8 }, (_, i) => `200 ${action}-${i}`)),
      );
      expect(answers.whole.read).toBe(body.length);
    }, 15_000);

    it('sends text bodies of every size and script exactly, many streams at once (their UTF-8 shares pools)', async () => {
      const cases = TEXT_UNITS.flatMap((unit) => TEXT_LENGTHS.map((n) => ({ unit, n })));
      const responses = await withSession(server.url, (s) =>
        Promise.all(cases.map(({ unit, n }, id) => request(s, get(`/repeat?id=${id}&n=${n}&unit=${encodeURIComponent(unit)}`)))),
      );
      responses.forEach((res, id) => {
        const expected = Buffer.from(`${id}:${cases[id].unit.repeat(cases[id].n)}`);
        expect(Buffer.compare(res.body, expected), `body ${id}`).toBe(0);
        expect(res.headers['content-length'], `length ${id}`).toBe(String(expected.length));
      });
    });

    it('sends a 2 MiB response within the client windows', async () => {
      const res = await withSession(server.url, (s) => request(s, get('/big?kb=2048')));
      expect(res.body.length).toBe(2048 * 1024);
      expect(res.body.every((b) => b === 97)).toBe(true);
    });

    it('streams a response body as it is produced', async () => {
      const res = await withSession(server.url, (s) => request(s, get('/stream?parts=4')));
      expect(res.body.toString()).toBe('part 0;part 1;part 2;part 3;');
      expect(res.headers['content-length']).toBeUndefined();
    });

    it('writes the strings (as UTF-8) and buffers a response stream yields, as over HTTP/1.1', async () => {
      const res = await withSession(server.url, (s) => request(s, get('/string-stream')));
      expect([res.status, res.body.toString()]).toEqual([200, 'héllo view buffer']);
    });

    it('answers 500 for a response stream that fails before its first chunk, and resets one that fails after it', async () => {
      for (const path of ['/stream-fails-at-once', '/stream-fails-soon', '/number-stream']) {
        const res = await withSession(server.url, (s) => request(s, get(path)));
        expect(res.status, path).toBe(500);
      }
      const later = await withSession(server.url, (s) =>
        request(s, get('/stream-fails-later')).then(
          () => 'ended',
          (error: Error) => error.message,
        ),
      );
      expect(later).toMatch(/INTERNAL_ERROR|RST_STREAM|Stream closed with error code/);
    });

    it('gives every method but GET and HEAD a body, empty when none came, and GET none even when one came, as over HTTP/1.1', async () => {
      const kinds = await withSession(server.url, (s) =>
        Promise.all([
          request(s, { ':method': 'POST', ':path': '/body-kind' }),
          request(s, { ':method': 'DELETE', ':path': '/body-kind' }),
          request(s, { ':method': 'PUT', ':path': '/body-kind' }, 'hi'),
          request(s, { ':method': 'GET', ':path': '/body-kind' }),
          request(s, { ':method': 'GET', ':path': '/body-kind' }, 'hello'),
        ]),
      );
      expect(kinds.map((res) => res.body.toString())).toEqual(['stream of 0', 'stream of 0', 'stream of 2', 'null', 'null']);
    });

    it('answers HEAD with the GET headers and no body', async () => {
      const res = await withSession(server.url, (s) => request(s, { ':method': 'HEAD', ':path': '/hello' }));
      expect(res.status).toBe(200);
      expect(res.headers['content-length']).toBe('12');
      expect(res.body.length).toBe(0);
    });

    it('sends no content-length for HEAD when the length GET would send is not known (RFC 9110 §8.6)', async () => {
      const res = await withSession(server.url, (s) => request(s, { ':method': 'HEAD', ':path': '/hono/users/7' }));
      expect([res.status, res.headers['content-type'], res.headers['content-length'], res.body.length]).toEqual([
        200,
        'application/json',
        undefined,
        0,
      ]);
    });

    it('carries trailers both ways', async () => {
      const res = await withSession(server.url, (s) =>
        request(s, { ':method': 'POST', ':path': '/trailers' }, 'abcdef', { 'x-client': 'from-client' }),
      );
      expect(res.body.toString()).toBe('got 6');
      expect(res.trailers['x-length']).toBe('6');
      expect(res.trailers['x-echo']).toBe('from-client');
    });

    it('runs 100 streams of one connection concurrently', async () => {
      const results = await withSession(server.url, (s) =>
        Promise.all(Array.from({ length: 100 }, (_, i) => request(s, get(`/slow?ms=${20 + (i % 5)}`)))),
      );
      expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    });

    it('turns a throwing handler into the onError response', async () => {
      const res = await withSession(server.url, (s) => request(s, get('/throw')));
      expect(res.status).toBe(500);
      expect(res.body.toString()).toBe('500 from onError\n');
    });

    it('aborts the handler signal when the client resets the stream', async () => {
      const before = (await stats(server.url)).aborted;
      await resetAfter(server.url, '/wait-abort', 100, 200);
      expect((await stats(server.url)).aborted).toBe(before + 1);
    });

    // An event feed waits for its next event: only the server's cancel tells it the client left,
    // by resetting the stream or ending the connection (no half-close in HTTP/2: Node takes an
    // ended connection as gone too).
    it('cancels a response stream at once when the client resets it, or ends the connection', async () => {
      const feed = (id: string, leave: (session: http2.ClientHttp2Session, stream: http2.ClientHttp2Stream) => void) =>
        new Promise<void>((resolve) => {
          const session = http2.connect(server.url);
          session.on('error', () => undefined);
          const stream = session.request(get(`/event-stream?id=${id}`));
          stream.on('error', () => undefined);
          stream.on('data', () => leave(session, stream));
          session.on('close', () => resolve());
        });
      const reset = `reset-${Math.random()}`;
      const ended = `ended-${Math.random()}`;
      await feed(reset, (session, stream) => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        setTimeout(() => session.close(), 50);
      });
      await feed(ended, (session) => session.destroy());
      await new Promise((r) => setTimeout(r, 100));
      expect((await stats(server.url)).cancelledStreams).toEqual(expect.arrayContaining([reset, ended]));
    });

    it('settles info.completed when END_STREAM went out, and rejects it when the client resets the stream first', async () => {
      const hello = `h2-hello-${Math.random()}`;
      const feed = `h2-feed-${Math.random()}`;
      await withSession(server.url, (s) => request(s, get(`/hello?done=${hello}`)));
      await resetAfter(server.url, `/event-stream?id=x&done=${feed}`, 100, 200);
      const { completed } = await stats(server.url);
      expect(completed[hello]).toBe('resolved');
      expect(completed[feed]).toBe(`${interrupted}: the client reset the stream`);
    });

    it('shows a signal first read after the client reset the stream as aborted', async () => {
      const before = (await stats(server.url)).lateAborted.length;
      await resetAfter(server.url, '/late-abort-check?ms=150', 30, 300);
      expect((await stats(server.url)).lateAborted.slice(before)).toEqual([true]);
    });

    it('answers curl --http2-prior-knowledge', async () => {
      const res = await curl(['--http2-prior-knowledge', '-w', '\n%{http_version}', `${server.url}/hello`]);
      expect(res.stdout).toBe('Hello World!\n2');
    });

    it('serves a bounded h2load run without a failure', async () => {
      const out = await execText('h2load', ['-n', '2000', '-c', '4', '-m', '10', `${server.url}/hello`]);
      expect(out).toMatch(/requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored/);
    });

    it('passes every h2spec case on h2c', async () => {
      requireH2spec();
      const out = await execText(h2specBin(), ['-h', '127.0.0.1', '-p', String(server.port), '-o', '3']);
      expect(out).toMatch(/145 tests, 145 passed, 0 skipped, 0 failed/);
    });
  });

  describe(`${name}: HTTP/2 over TLS (ALPN)`, () => {
    const server = useServer(launch, { http2: true, tls: true });

    it('speaks h2 to an h2 client and HTTP/1.1 to an HTTP/1.1 client on one port', async () => {
      const res = await withSession(server.url, (s) => request(s, get('/hello')));
      expect(res.body.toString()).toBe('Hello World!');
      const h2 = await curl(['--http2', '-k', '-w', '\n%{http_version}', `${server.url}/hello`]);
      expect(h2.stdout).toBe('Hello World!\n2');
      const h1 = await curl(['--http1.1', '-k', '-w', '\n%{http_version}', `${server.url}/hello`]);
      expect(h1.stdout).toBe('Hello World!\n1.1');
    });

    it('passes every h2spec case over TLS', async () => {
      requireH2spec();
      const out = await execText(h2specBin(), ['-h', '127.0.0.1', '-p', String(server.port), '-t', '-k', '-o', '3']);
      expect(out).toMatch(/145 tests, 145 passed, 0 skipped, 0 failed/);
    });
  });

  describe(`${name}: HTTP/2 over the connection limit`, () => {
    const server = useServer(launch, { http2: true, tls: true, maxConnections: 1 });

    it('answers an h2 client over maxConnections with GOAWAY REFUSED_STREAM, not HTTP/1.1 text', async () => {
      const first = connect(server.url);
      await request(first, get('/hello'));
      const second = connect(server.url);
      const code = await new Promise<number>((resolve) => second.once('goaway', (errorCode) => resolve(errorCode)));
      expect(code).toBe(http2.constants.NGHTTP2_REFUSED_STREAM);
      second.destroy();
      first.close();
    });
  });

  describe(`${name}: TLS handshake deadline`, () => {
    const server = useServer(launch, { http2: true, tls: true, headersTimeout: 300 });

    // Deno 2.9.6: closing a TlsConn whose handshake is pending cancels the handshake but leaves the
    // TCP socket open (the client never sees a close), so there is nothing to observe there.
    it.skipIf(name === 'deno')('cuts a client that opens a TLS connection and never finishes the handshake', async () => {
      const socket = net.connect(server.port, '127.0.0.1');
      socket.on('error', () => undefined);
      const closed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 5000);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      expect(closed).toBe(true);
    });
  });

  describe(`${name}: HTTP/2 defenses (attacks over a real socket)`, () => {
    const server = useServer(launch, { http2: true });

    it('cuts a rapid reset flood (CVE-2023-44487) with GOAWAY ENHANCE_YOUR_CALM', async () => {
      const before = (await stats(server.url)).calls;
      const client = new RawHttp2Client(server.port);
      await client.ready;
      for (let id = 1; id < 2 * 3000; id += 2) {
        client.request(id, 'GET', '/slow?ms=1000');
        client.send(FrameType.RST_STREAM, 0, id, uint32Bytes(8));
      }
      expect(await client.goaway()).toBe('ENHANCE_YOUR_CALM');
      expect(await client.waitClosed()).toBe(true);
      // The default burst is 1000 resets: the handler never saw the other 2000 streams.
      expect((await stats(server.url)).calls - before).toBeLessThan(1100);
    });

    it('cuts a flood of streams the client makes the server reset (MadeYouReset, CVE-2025-8671)', async () => {
      // Each stream starts a handler, then draws a stream error from the server (a WINDOW_UPDATE of
      // 0 on it, RFC 9113 §6.9): resets the server makes count against the same limit.
      const before = (await stats(server.url)).calls;
      const client = new RawHttp2Client(server.port);
      await client.ready;
      for (let id = 1; id < 2 * 3000 && !client.closed; id += 2) {
        client.request(id, 'GET', '/slow?ms=1000');
        client.send(FrameType.WINDOW_UPDATE, 0, id, uint32Bytes(0));
      }
      expect(await client.goaway()).toBe('ENHANCE_YOUR_CALM');
      expect(await client.waitClosed()).toBe(true);
      expect(client.count(FrameType.RST_STREAM)).toBeGreaterThan(900);
      expect((await stats(server.url)).calls - before).toBeLessThan(1100);
    });

    it('bounds a header block across CONTINUATION frames (CVE-2024-27316)', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'GET', '/hello', { endHeaders: false });
      const fragment = new Uint8Array(16_000).fill(0x40);
      for (let i = 0; i < 200 && !client.closed; i++) client.send(FrameType.CONTINUATION, 0, 1, fragment);
      expect(await client.goaway()).toBe('ENHANCE_YOUR_CALM');
      expect(await client.waitClosed()).toBe(true);
    });

    it('cuts a flood of empty CONTINUATION frames', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'GET', '/hello', { endHeaders: false });
      for (let i = 0; i < 5000; i++) client.send(FrameType.CONTINUATION, 0, 1);
      expect(await client.goaway()).toBe('ENHANCE_YOUR_CALM');
    });

    it('cuts an HPACK bomb at the header list limit', async () => {
      const client = new RawHttp2Client(server.port);
      // One 4000-byte field put in the dynamic table (index 62), then referenced 200 times: 200
      // bytes on the wire that decode to 800 KB.
      const pseudo = client.headerBlock([
        [':method', 'GET'],
        [':scheme', 'http'],
        [':authority', 'localhost'],
        [':path', '/hello'],
      ]);
      // Literal with incremental indexing (RFC 7541 §6.2.1): name "x-bomb", a 4000-byte value.
      const literal = [0x40, 6, ...Buffer.from('x-bomb'), 0x7f, 0xa1, 0x1e, ...Buffer.alloc(4000, 'a')];
      const indexed = new Array<number>(200).fill(0x80 | 62);
      const bomb = new Uint8Array([...pseudo, ...literal, ...indexed]);
      client.send(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM, 1, bomb);
      expect(await client.goaway()).toBe('ENHANCE_YOUR_CALM');
      expect(client.count(FrameType.HEADERS)).toBe(0);
    });

    for (const [flood, send] of [
      ['PING', (c: RawHttp2Client) => c.send(FrameType.PING, 0, 0, new Uint8Array(8))],
      ['SETTINGS', (c: RawHttp2Client) => c.send(FrameType.SETTINGS, 0, 0)],
      ['PRIORITY', (c: RawHttp2Client) => c.send(FrameType.PRIORITY, 0, 3, new Uint8Array([0, 0, 0, 0, 16]))],
    ] as const) {
      it(`cuts a ${flood} flood (CVE-2019-9512/9515)`, async () => {
        const client = new RawHttp2Client(server.port);
        for (let i = 0; i < 5000; i++) send(client);
        expect(await client.goaway()).toBe('ENHANCE_YOUR_CALM');
        // At most the burst was answered.
        expect(client.count(FrameType.PING, Flag.ACK) + client.count(FrameType.SETTINGS, Flag.ACK)).toBeLessThanOrEqual(1002);
      });
    }

    it('cuts a flood of empty DATA frames (CVE-2019-9518)', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'POST', '/count-body');
      for (let i = 0; i < 5000; i++) client.send(FrameType.DATA, 0, 1);
      expect(await client.goaway()).toBe('ENHANCE_YOUR_CALM');
    });

    it('refuses a :path with a backslash or a fragment (a URL parser reads them as / and cuts) with RST_STREAM PROTOCOL_ERROR, and serves the next stream', async () => {
      const before = (await stats(server.url)).calls;
      const client = new RawHttp2Client(server.port);
      client.request(1, 'GET', '/x\\..\\stats');
      client.request(3, 'GET', '/stats#x');
      client.request(5, 'GET', '/hello');
      await client.until(
        () => client.resets().has(1) && client.resets().has(3) && client.frames.some((f) => f.streamId === 5 && f.type === FrameType.DATA),
      );
      expect([client.resets().get(1), client.resets().get(3)]).toEqual(['PROTOCOL_ERROR', 'PROTOCOL_ERROR']);
      // Only /hello and this check reached the handler.
      expect((await stats(server.url)).calls).toBe(before + 2);
      client.close();
    });

    it('answers a connection window pushed past 2^31-1 with GOAWAY FLOW_CONTROL_ERROR', async () => {
      const client = new RawHttp2Client(server.port);
      client.send(FrameType.WINDOW_UPDATE, 0, 0, uint32Bytes(0x7fff_ffff));
      expect(await client.goaway()).toBe('FLOW_CONTROL_ERROR');
    });

    it('answers DATA past the stream window with FLOW_CONTROL_ERROR', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'POST', '/hold-body?ms=2000');
      const chunk = new Uint8Array(16_384);
      for (let i = 0; i < 40; i++) client.send(FrameType.DATA, 0, 1, chunk); // 640 KiB > the 256 KiB window
      await client.until(() => client.frames.some((f) => f.type === FrameType.RST_STREAM || f.type === FrameType.GOAWAY));
      const code = client.resets().get(1) ?? (await client.goaway(100));
      expect(code).toBe('FLOW_CONTROL_ERROR');
    });
  });

  describe(`${name}: HTTP/2 responses of many small chunks`, () => {
    const server = useServer(launch, { http2: true });

    it('sends a body streamed in 10,000 small ready chunks in a few DATA frames, not one frame each', async () => {
      const client = new RawHttp2Client(server.port, { settings: [[SettingId.INITIAL_WINDOW_SIZE, 1 << 20]] });
      client.send(FrameType.WINDOW_UPDATE, 0, 0, uint32Bytes(1 << 20));
      client.request(1, 'GET', '/many-chunks');
      const data = () => client.frames.filter((f) => f.type === FrameType.DATA && f.streamId === 1);
      expect(await client.until(() => data().some((f) => f.flags & Flag.END_STREAM), 10_000)).toBe(true);
      client.close();
      expect(Buffer.concat(data().map((f) => f.payload)).toString()).toBe(Array.from({ length: 10_000 }, (_, i) => `<p>${i}</p>`).join(''));
      // 148,890 bytes: 10 frames of 16 KiB at the least.
      expect(data().length).toBeLessThanOrEqual(20);
    });

    it('ends a body whose stream ended with its last chunks on their DATA frame, with no empty frame for the end', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'GET', '/many-chunks?count=100');
      const data = () => client.frames.filter((f) => f.type === FrameType.DATA && f.streamId === 1);
      expect(await client.until(() => data().some((f) => f.flags & Flag.END_STREAM), 5000)).toBe(true);
      client.close();
      expect(data().map((f) => [Buffer.from(f.payload).toString(), f.flags & Flag.END_STREAM])).toEqual([
        [Array.from({ length: 100 }, (_, i) => `<p>${i}</p>`).join(''), Flag.END_STREAM],
      ]);
    });
  });

  describe(`${name}: HTTP/2 request bodies in tiny frames`, () => {
    const window = 4 * 1024 * 1024;
    const server = useServer(launch, { http2: { initialWindowSize: window, connectionWindowSize: window } });

    it('holds a body sent as 1-byte DATA frames in about its size, not 100x (1 MB in a million frames)', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'POST', '/body-heap');
      const tiny = frame(FrameType.DATA, 0, 1, new Uint8Array([97]));
      const batch = Buffer.concat(Array<Uint8Array>(10_000).fill(tiny));
      for (let i = 0; i < 100; i++) client.write(batch);
      client.send(FrameType.DATA, Flag.END_STREAM, 1);
      const ended = () => client.frames.some((f) => f.type === FrameType.DATA && f.streamId === 1 && f.flags & Flag.END_STREAM);
      expect(await client.until(ended, 20_000)).toBe(true);
      const body = Buffer.concat(client.frames.filter((f) => f.type === FrameType.DATA && f.streamId === 1).map((f) => f.payload));
      const result = JSON.parse(body.toString()) as { bytes: number; as: boolean; grewMB: number };
      client.close();
      expect([result.bytes, result.as]).toEqual([1_000_000, true]);
      // Garbage not yet collected counts too (61 MB once on Deno under CI load); held as it came, 200 or more.
      expect(result.grewMB).toBeLessThan(120);
    });
  });

  describe(`${name}: HTTP/2 request body limit (maxBodyBytes)`, () => {
    const server = useServer(launch, { http2: true, maxBodyBytes: 1000 });

    it('answers a declared content-length over the limit with 413 before the handler runs', async () => {
      const calls = (await stats(server.url)).calls;
      const res = await withSession(server.url, (s) =>
        request(s, { ':method': 'POST', ':path': '/echo', 'content-length': '3000' }, new Uint8Array(3000)),
      );
      expect(res.status).toBe(413);
      expect(res.body.toString()).toContain('ERR_BODY_TOO_LARGE');
      // Only the /stats call itself ran.
      expect((await stats(server.url)).calls).toBe(calls + 1);
    });

    it('answers a body without content-length that runs past the limit with 413, and the read rejects', async () => {
      const res = await withSession(server.url, (s) => request(s, { ':method': 'POST', ':path': '/count-body' }, new Uint8Array(5000)));
      expect(res.status).toBe(413);
      const { errors } = await stats(server.url);
      expect(errors.at(-1)).toMatch(/over 1000 bytes/);
    });

    // Before, the reset went out in the same write as the 413: curl (7.88, Debian 12's) then failed
    // the transfer with exit 92 and showed no status, every time for a declared length.
    it('shows curl the 413 for an upload over the limit, declared or not (exit 0)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wirespeed-upload-'));
      const file = join(dir, 'big.bin');
      writeFileSync(file, new Uint8Array(300_000));
      /** curl's exit code and the status it showed, for an upload of `file` sent with `how`. */
      const upload = async (how: string[]) => {
        const out = await curl(['--http2-prior-knowledge', ...how, '-w', '%{http_code}', '-o', '/dev/null', `${server.url}/echo`]);
        return [out.code, out.stdout];
      };
      for (let i = 0; i < 5; i++) expect(await upload(['--data-binary', `@${file}`])).toEqual([0, '413']);
      // No content-length: the count runs past the limit.
      expect(await upload(['-T', file, '-H', 'content-length:'])).toEqual([0, '413']);
      rmSync(dir, { recursive: true });
    });

    it('accepts a body of exactly the limit', async () => {
      const res = await withSession(server.url, (s) => request(s, { ':method': 'POST', ':path': '/echo' }, new Uint8Array(1000).fill(65)));
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(1000);
    });

    it('stops a large upload early: no more window for it, then RST_STREAM NO_ERROR a little after the 413; nothing is held', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'POST', '/count-body');
      for (let i = 0; i < 4; i++) client.send(FrameType.DATA, 0, 1, new Uint8Array(16_000));
      await client.until(() => client.frames.some((f) => f.type === FrameType.HEADERS && f.streamId === 1));
      const answeredAt = Date.now();
      await client.until(() => client.resets().has(1));
      expect(client.resets().get(1)).toBe('NO_ERROR');
      // Sent with the response, the reset made curl 7.88 drop the 413 (the next test); it comes
      // after a pause (50 ms), and no WINDOW_UPDATE for the stream meanwhile.
      expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(25);
      expect(client.frames.some((f) => f.type === FrameType.WINDOW_UPDATE && f.streamId === 1)).toBe(false);
      // DATA after the reset is dropped without a connection error.
      client.send(FrameType.DATA, Flag.END_STREAM, 1, new Uint8Array(100));
      client.request(3, 'GET', '/hello');
      await client.until(() => client.frames.some((f) => f.type === FrameType.DATA && f.streamId === 3));
      expect(client.frames.some((f) => f.type === FrameType.GOAWAY)).toBe(false);
      client.close();
    });
  });

  describe(`${name}: HTTP/1.1's head limits on HTTP/2`, () => {
    const LIMITS = { maxHeadBytes: 2048, maxHeaders: 5, maxTargetBytes: 100 };
    const server = useServer(launch, { http2: true, ...LIMITS });

    /** The status of the first response to `text` on a raw HTTP/1.1 connection. */
    const h1Status = async (text: string) => statuses((await raw(server.port, [text], { responses: 1 })).text)[0];

    /** The status of a request with these fields over HTTP/1.1 (a raw socket) and over HTTP/2. */
    async function bothWays(session: http2.ClientHttp2Session, path: string, fields: [string, string][]): Promise<[number, number]> {
      const head = `GET ${path} HTTP/1.1\r\nhost: a\r\n${fields.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
      const h1 = await h1Status(head);
      const h2 = await request(session, { ':method': 'GET', ':path': path, ':authority': 'a', ...Object.fromEntries(fields) });
      return [h1, h2.status];
    }

    // Before, HTTP/2 held requests to its own maxHeaderListSize (64 KiB) alone: a request any of
    // these limits refused on HTTP/1.1 was served over HTTP/2.
    it('takes and refuses the same requests as HTTP/1.1: head size (431), field count (431), target length (414)', async () => {
      await withSession(server.url, async (session) => {
        const sizes: [number, number][] = [];
        // The head crosses maxHeadBytes within these value lengths.
        for (let length = 1980; length <= 2010; length++) sizes.push(await bothWays(session, '/hello', [['x-big', 'v'.repeat(length)]]));
        expect(sizes.filter(([h1, h2]) => h1 !== h2)).toEqual([]);
        expect(new Set(sizes.map(([h1]) => h1))).toEqual(new Set([200, 431]));
        const fields = (count: number) => Array.from({ length: count }, (_, i): [string, string] => [`x-${i}`, '1']);
        // With Host, 5 fields are allowed: 4 more, not 5.
        expect(await bothWays(session, '/hello', fields(4))).toEqual([200, 200]);
        expect(await bothWays(session, '/hello', fields(5))).toEqual([431, 431]);
        expect(await bothWays(session, `/hello?${'q'.repeat(93)}`, [])).toEqual([200, 200]);
        expect(await bothWays(session, `/hello?${'q'.repeat(94)}`, [])).toEqual([414, 414]);
      });
    });

    it('holds trailers to the head limits, maxHeadBytes and maxHeaders (431), alike on both protocols', async () => {
      /** The status of a POST whose chunked (HTTP/1.1) or HTTP/2 body ends with these trailers. */
      async function bothWays(session: http2.ClientHttp2Session, trailers: [string, string][]): Promise<[number, number]> {
        const lines = trailers.map(([n, v]) => `${n}: ${v}\r\n`).join('');
        const h1 = await h1Status(`POST /trailers HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n${lines}\r\n`);
        const h2 = await request(session, { ':method': 'POST', ':path': '/trailers' }, 'x', Object.fromEntries(trailers));
        return [h1, h2.status];
      }
      await withSession(server.url, async (session) => {
        const sizes: [number, number][] = [];
        // The section crosses maxHeadBytes (2048) within these value lengths.
        for (let length = 2030; length <= 2045; length++) sizes.push(await bothWays(session, [['x-big', 'v'.repeat(length)]]));
        expect(sizes.filter(([h1, h2]) => h1 !== h2)).toEqual([]);
        expect(new Set(sizes.map(([h1]) => h1))).toEqual(new Set([200, 431]));
        const fields = (count: number) => Array.from({ length: count }, (_, i): [string, string] => [`x-${i}`, '1']);
        // Before, trailers were held to 64 fields whatever maxHeaders said, on both protocols.
        expect(await bothWays(session, fields(5))).toEqual([200, 200]);
        expect(await bothWays(session, fields(6))).toEqual([431, 431]);
        expect((await request(session, { ':method': 'POST', ':path': '/echo' }, 'after')).body.toString()).toBe('after');
      });
    });

    it('refuses a POST over a limit before its body, which is dropped; the connection serves on', async () => {
      await withSession(server.url, async (session) => {
        const refused = await request(session, { ':method': 'POST', ':path': '/echo', 'x-big': 'v'.repeat(3000) }, 'x'.repeat(50_000));
        expect([refused.status, refused.body.toString()]).toEqual([431, '431 Request Header Fields Too Large (ERR_HEADER_TOO_LARGE)\n']);
        expect((await request(session, { ':method': 'POST', ':path': '/echo' }, 'after')).body.toString()).toBe('after');
      });
    });
  });

  describe(`${name}: HTTP/2 and maxRequestsPerConnection`, () => {
    const server = useServer(launch, { http2: true, maxRequestsPerConnection: 3 });

    it('sends GOAWAY (NO_ERROR) with the last request allowed, finishes the streams taken, and closes', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'GET', '/hello');
      client.request(3, 'GET', '/hello');
      client.request(5, 'GET', '/slow?ms=200');
      expect(await client.goaway()).toBe('NO_ERROR');
      const goaway = client.frames.find((f) => f.type === FrameType.GOAWAY)!;
      expect(new DataView(goaway.payload.buffer, goaway.payload.byteOffset).getUint32(0)).toBe(5);
      // A stream above the GOAWAY's last one is not taken (RFC 9113 §6.8); the slow one still ends.
      client.request(7, 'GET', '/hello');
      expect(await client.waitClosed()).toBe(true);
      expect(client.frames.filter((f) => f.type === FrameType.HEADERS).map((f) => f.streamId)).toEqual([1, 3, 5]);
      expect(client.count(FrameType.DATA, Flag.END_STREAM)).toBe(3);
    });
  });

  describe(`${name}: HTTP/2 limits`, () => {
    const server = useServer(launch, {
      http2: { maxConcurrentStreams: 2, initialWindowSize: 16_384, settingsTimeout: 400, pingTimeout: 400 },
      keepAliveTimeout: 400,
    });

    it('refuses a stream over SETTINGS_MAX_CONCURRENT_STREAMS with REFUSED_STREAM', async () => {
      const client = new RawHttp2Client(server.port);
      for (const id of [1, 3, 5]) client.request(id, 'GET', '/slow?ms=300');
      await client.until(() => client.count(FrameType.HEADERS) === 2);
      expect(client.resets().get(5)).toBe('REFUSED_STREAM');
      expect(client.frames.filter((f) => f.type === FrameType.HEADERS).map((f) => f.streamId)).toEqual([1, 3]);
      client.close();
    });

    it('lets a client send no more body than the window while the handler does not read', async () => {
      const client = new RawHttp2Client(server.port);
      client.request(1, 'POST', '/hold-body?ms=600');
      // Send as the windows allow; count what the server let through before the handler reads.
      let window = 16_384;
      let connection = 65_535;
      let sent = 0;
      let seen = 0;
      const total = 1024 * 1024;
      const pump = () => {
        for (; seen < client.frames.length; seen++) {
          const f = client.frames[seen];
          if (f.type !== FrameType.WINDOW_UPDATE) continue;
          const increment = new DataView(f.payload.buffer, f.payload.byteOffset).getUint32(0);
          if (f.streamId === 1) window += increment;
          else connection += increment;
        }
        while (sent < total && Math.min(window, connection) > 0) {
          const n = Math.min(16_384, window, connection, total - sent);
          client.send(FrameType.DATA, sent + n === total ? Flag.END_STREAM : 0, 1, new Uint8Array(n));
          sent += n;
          window -= n;
          connection -= n;
        }
      };
      const start = Date.now();
      while (Date.now() - start < 300) {
        pump();
        await client.until(() => client.frames.length > seen, 50);
      }
      // The stream window (16 KiB) plus what the body buffers (64 KiB) before it pauses.
      expect(sent).toBeLessThanOrEqual(16_384 + 64 * 1024 + 16_384);
      while (sent < total && !client.closed) {
        pump();
        await client.until(() => client.frames.length > seen, 2000);
      }
      expect(sent).toBe(total);
      await client.until(() => client.frames.some((f) => f.type === FrameType.DATA && f.streamId === 1));
      const data = client.frames.find((f) => f.type === FrameType.DATA && f.streamId === 1)!;
      expect(new TextDecoder().decode(data.payload)).toBe(String(total));
      client.close();
    });

    it('closes an idle connection after keepAliveTimeout with GOAWAY NO_ERROR', async () => {
      const client = new RawHttp2Client(server.port);
      expect(await client.goaway(3000)).toBe('NO_ERROR');
      expect(await client.waitClosed(3000)).toBe(true);
    });

    it('closes a connection that never acknowledges SETTINGS (SETTINGS_TIMEOUT)', async () => {
      const client = new RawHttp2Client(server.port, { ackSettings: false });
      client.request(1, 'GET', '/slow?ms=2000');
      expect(await client.goaway(3000)).toBe('SETTINGS_TIMEOUT');
    });

    it('pings a silent client with open streams and closes it when no PING ACK comes', async () => {
      const before = (await stats(server.url)).aborted;
      const client = new RawHttp2Client(server.port, { ackPings: false });
      client.request(1, 'GET', '/wait-abort');
      expect(await client.until(() => client.count(FrameType.PING) > 0, 3000)).toBe(true);
      expect(await client.waitClosed(5000)).toBe(true);
      expect((await stats(server.url)).aborted).toBe(before + 1);
    });
  });

  describe(`${name}: HTTP/2 request deadline`, () => {
    const server = useServer(launch, { http2: true, requestTimeout: 400 });

    it('answers a stream whose body stalls with 408 (its handler’s info.completed rejects)', async () => {
      const id = `h2-stalled-${Math.random()}`;
      const res = await withSession(server.url, (session) => {
        const stream = session.request({ ':method': 'POST', ':path': `/echo?done=${id}`, 'content-length': '10' }, { endStream: false });
        stream.write('abc');
        return new Promise<number>((resolve) => stream.on('response', (headers) => resolve(Number(headers[':status']))));
      });
      expect(res).toBe(408);
      await new Promise((r) => setTimeout(r, 50));
      expect((await stats(server.url)).completed[id]).toBe(`${interrupted}: the request timed out`);
    });
  });

  // Slow reads (CVE-2019-9517): a client whose windows take no DATA would have the server hold a
  // response per stream for ever.
  describe(`${name}: HTTP/2 slow reads`, () => {
    const server = useServer(launch, { http2: { maxQueuedBytes: 600 * 1024 }, sendTimeout: 400 });
    const takesNoData = () => new RawHttp2Client(server.port, { settings: [[SettingId.INITIAL_WINDOW_SIZE, 0]] });
    const headersOn = (client: RawHttp2Client, id: number) => client.frames.some((f) => f.type === FrameType.HEADERS && f.streamId === id);

    it('resets a stream whose response the client’s windows hold back for sendTimeout (CANCEL); the connection goes on', async () => {
      const id = `h2-never-${Math.random()}`;
      const client = takesNoData();
      client.request(1, 'GET', `/big?kb=64&done=${id}`);
      expect(await client.until(() => client.resets().has(1), 3000)).toBe(true);
      expect(client.resets().get(1)).toBe('CANCEL');
      expect(client.frames.some((f) => f.type === FrameType.DATA && f.streamId === 1)).toBe(false);
      // A response with no DATA still goes out on the same connection.
      client.request(3, 'GET', '/null?status=204');
      expect(await client.until(() => headersOn(client, 3), 3000)).toBe(true);
      client.close();
      expect((await stats(server.url)).completed[id]).toBe(
        `${interrupted}: the client's windows took under 16384 bytes of the response in 400 ms (sendTimeout)`,
      );
    });

    it('resets a stream whose client opens its window a few bytes at a time (a data dribble, CVE-2019-9511)', async () => {
      const id = `h2-dribble-${Math.random()}`;
      const client = takesNoData();
      client.request(1, 'GET', `/big?kb=64&done=${id}`);
      // 200 bytes a second: DATA keeps going out, a frame's worth never within sendTimeout.
      const dribble = setInterval(() => client.send(FrameType.WINDOW_UPDATE, 0, 1, uint32Bytes(10)), 50);
      const reset = await client.until(() => client.resets().has(1), 3000);
      clearInterval(dribble);
      expect(reset).toBe(true);
      expect(client.resets().get(1)).toBe('CANCEL');
      expect(client.frames.some((f) => f.type === FrameType.DATA && f.streamId === 1)).toBe(true);
      client.close();
      expect((await stats(server.url)).completed[id]).toBe(
        `${interrupted}: the client's windows took under 16384 bytes of the response in 400 ms (sendTimeout)`,
      );
    });

    it('closes a connection whose socket takes none of its responses for sendTimeout', async () => {
      const id = `h2-unread-${Math.random()}`;
      const client = new RawHttp2Client(server.port, { settings: [[SettingId.INITIAL_WINDOW_SIZE, 0x7fff_ffff]] });
      client.send(FrameType.WINDOW_UPDATE, 0, 0, uint32Bytes(0x7fff_ffff - 65_535));
      client.request(1, 'GET', `/endless?done=${id}`);
      await client.until(() => client.count(FrameType.DATA) > 0, 3000);
      client.pause();
      await new Promise((r) => setTimeout(r, 1200));
      client.resume();
      expect(await client.waitClosed(3000)).toBe(true);
      expect((await stats(server.url)).completed[id]).toBe(
        `${interrupted}: the client took none of the responses for 400 ms (sendTimeout)`,
      );
    });

    it('refuses new streams (REFUSED_STREAM) while maxQueuedBytes of responses wait for the client', async () => {
      const client = takesNoData();
      client.request(1, 'GET', '/big?kb=512');
      client.request(3, 'GET', '/big?kb=512');
      expect(await client.until(() => headersOn(client, 1) && headersOn(client, 3), 3000)).toBe(true);
      // 1 MiB waits for the client's windows now: over the 600 KiB allowed.
      client.request(5, 'GET', '/hello');
      expect(await client.until(() => client.resets().has(5), 3000)).toBe(true);
      expect(client.resets().get(5)).toBe('REFUSED_STREAM');
      // Windows opened a few bytes at a time (a data dribble, CVE-2019-9511) are not reading.
      client.send(FrameType.WINDOW_UPDATE, 0, 1, uint32Bytes(10));
      client.send(FrameType.WINDOW_UPDATE, 0, 0, uint32Bytes(10));
      client.request(7, 'GET', '/hello');
      expect(await client.until(() => client.resets().has(7), 3000)).toBe(true);
      expect(client.resets().get(7)).toBe('REFUSED_STREAM');
      // Once what waited is gone (the windows took it, or sendTimeout reset it), streams are taken again.
      client.send(FrameType.SETTINGS, 0, 0, settingsPayload([[SettingId.INITIAL_WINDOW_SIZE, 1 << 20]]));
      client.send(FrameType.WINDOW_UPDATE, 0, 0, uint32Bytes(4 << 20));
      const ended = (id: number) =>
        client.resets().has(id) || client.frames.some((f) => f.type === FrameType.DATA && f.streamId === id && f.flags & Flag.END_STREAM);
      expect(await client.until(() => ended(1) && ended(3), 3000)).toBe(true);
      client.request(9, 'GET', '/hello');
      expect(await client.until(() => headersOn(client, 9), 3000)).toBe(true);
      expect(client.resets().has(9)).toBe(false);
      client.close();
    });

    it('keeps taking streams from a client that takes its responses, however much of them waits', async () => {
      const session = connect(server.url);
      // Two 512 KiB bodies: past the 600 KiB budget while the client reads them, slowly.
      const downloads = ['/big?kb=512', '/big?kb=512'].map((path) => {
        const stream = session.request(get(path));
        stream.on('error', () => undefined);
        return stream;
      });
      // Each takes a first window's worth (the client opens its windows again), then stops.
      await Promise.all(downloads.map((stream) => once(stream, 'data')));
      for (const stream of downloads) stream.pause();
      await new Promise((r) => setTimeout(r, 100));
      const res = await request(session, get('/hello'));
      expect(res.status).toBe(200);
      for (const stream of downloads) stream.close(http2.constants.NGHTTP2_CANCEL);
      session.close();
    });
  });

  describe(`${name}: HTTP/2 graceful close`, () => {
    it('sends GOAWAY and lets the stream in flight finish', async () => {
      const server = await launch({ http2: true });
      const session = connect(server.url);
      const goaway = new Promise<number>((resolve) => session.once('goaway', (code) => resolve(code)));
      const pending = request(session, get('/slow?ms=300'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closed = server.close();
      expect(await goaway).toBe(0);
      const res = await pending;
      expect(res.body.toString()).toBe('slept 300');
      await closed;
      session.destroy();
    });
  });
}
