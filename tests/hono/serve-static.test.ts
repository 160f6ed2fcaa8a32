// wirespeed/hono's serveStatic against @hono/node-server's, the middleware hono users on Node take
// today: the same app with each, served by wirespeed/node, asked the same requests over a real
// socket (paths sent as written, not normalised by a URL parser), must answer alike (status, the
// fields a file response has, the bytes). Then what only ours does: conditional requests (304,
// If-Range), files past the synchronous read's size streamed and every file closed, no path out
// of the root (no root given, or a rewrite that climbs out), and a path that is not a regular file
// (a FIFO) not found instead of blocking the server on its read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { serveStatic as nodeServerStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type ServeStaticOptions } from '../../src/hono/index.js';
import { serve, type Server } from '../../src/server/node.js';

/** The largest file ours reads at once (SYNC_READ_BYTES in serve-static.ts). */
const SYNC_READ_BYTES = 64 * 1024;
const TEXT = 'Hello static\n';

let folder: string;
const bytesOf = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);
const large = bytesOf(200_000, 7);
const atLimit = bytesOf(SYNC_READ_BYTES, 3);
const pastLimit = bytesOf(SYNC_READ_BYTES + 1, 5);

function writeFiles(): void {
  folder = mkdtempSync(join(tmpdir(), 'wirespeed-static-'));
  const assets = join(folder, 'assets');
  mkdirSync(join(assets, 'static', 'admin'), { recursive: true });
  mkdirSync(join(assets, 'static', 'docs'));
  mkdirSync(join(assets, 'precompressed'));
  const files: Record<string, string | Uint8Array> = {
    'secret.txt': 'outside the static folder',
    'static/index.html': '<h1>Hello</h1>',
    'static/docs/index.html': '<h1>Docs</h1>',
    'static/plain.txt': TEXT,
    'static/data.json': '{"a":1}',
    'static/style.css': 'body{}',
    'static/extensionless': 'no extension',
    'static/foo..bar.txt': 'two dots inside a name',
    'static/empty.txt': '',
    'static/admin/secret.txt': 'secret',
    'static/100%.txt': 'a percent in a name',
    'static/large.bin': large,
    'static/at-limit.bin': atLimit,
    'static/past-limit.bin': pastLimit,
    'static/huge.bin': new Uint8Array(8 * 1024 * 1024).fill(0x68),
    'precompressed/hello.txt': TEXT.repeat(20),
    'precompressed/hello.txt.br': brotliCompressSync(TEXT.repeat(20)),
    'precompressed/hello.txt.gz': gzipSync(TEXT.repeat(20)),
    'precompressed/hello.txt.zst': 'zstd bytes (not decoded here)',
    'precompressed/photo.png': 'not compressible',
    'precompressed/photo.png.br': 'never sent',
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(assets, name), content);
  symlinkSync(join(assets, 'static', 'plain.txt'), join(assets, 'static', 'link.txt'));
}

/** The same app, with one serveStatic or the other. */
function appWith(serveStaticOf: (options: ServeStaticOptions) => MiddlewareHandler): Hono {
  const root = join(folder, 'assets');
  const app = new Hono();
  app.use('/static/admin/*', async (c, next) => {
    c.header('x-authorized', 'true');
    await next();
  });
  app.use('/static/*', serveStaticOf({ root, onFound: (_path, c) => void c.header('x-found', 'yes') }));
  app.use('/dotted/*', serveStaticOf({ root, rewriteRequestPath: (path) => path.replace(/^\/dotted/, '/static') }));
  app.use(
    '/percent/*',
    serveStaticOf({ root, allowPercentInPath: true, rewriteRequestPath: (path) => path.replace(/^\/percent/, '/static') }),
  );
  app.use('/one-file/*', serveStaticOf({ path: join(root, 'static', 'data.json') }));
  app.use('/precompressed/*', serveStaticOf({ root, precompressed: true }));
  app.use('/not-found/*', serveStaticOf({ root, onNotFound: (path, c) => void c.header('x-not-found', path.replace(folder, 'ROOT')) }));
  app.notFound((c) => c.text('fallthrough', 404));
  return app;
}

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** The fields a file response has that the two middlewares set. */
const COMPARED = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'content-encoding',
  'vary',
  'last-modified',
  'x-found',
  'x-authorized',
  'x-not-found',
];

/** A request with its path sent exactly as written. */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const fields: Record<string, string | undefined> = {};
        for (const name of COMPARED) fields[name] = res.headers[name] as string | undefined;
        resolve({ status: res.statusCode!, headers: fields, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Case {
  path: string;
  method?: string;
  headers?: Record<string, string>;
}

const range = (path: string, value: string): Case => ({ path, headers: { range: value } });

const cases: Case[] = [
  { path: '/static/plain.txt' },
  { path: '/static/index.html' },
  { path: '/static/' },
  { path: '/static/docs' },
  { path: '/static/data.json' },
  { path: '/static/style.css' },
  { path: '/static/extensionless' },
  { path: '/static/foo..bar.txt' },
  { path: '/static/empty.txt' },
  { path: '/static/link.txt' },
  { path: '/static/large.bin' },
  { path: '/static/at-limit.bin' },
  { path: '/static/past-limit.bin' },
  { path: '/static/nothing.txt' },
  { path: '/static/plain.txt', method: 'HEAD' },
  { path: '/static/large.bin', method: 'HEAD' },
  { path: '/static/plain.txt', method: 'POST' },
  // Paths that must not leave the folder or pass the /static/admin guard.
  { path: '/static/../secret.txt' },
  { path: '/static/../../package.json' },
  { path: '/static/..\\..\\secret.txt' },
  { path: '/static/%2e%2e%2fsecret.txt' },
  { path: '/static/%2e%2e/secret.txt' },
  { path: '/static/./plain.txt' },
  { path: '/static/admin/secret.txt' },
  { path: '/static/admin%2Fsecret.txt' },
  { path: '/static/admin%5Csecret.txt' },
  { path: '/static//admin/secret.txt' },
  { path: '/static/%c0%afsecret.txt' },
  { path: '/static/plain%2Etxt' },
  { path: '/dotted/plain.txt' },
  { path: '/percent/100%25.txt' },
  { path: '/percent/100%2525.txt' },
  { path: '/percent/admin%2Fsecret.txt' },
  { path: '/one-file/anything' },
  { path: '/not-found/nothing.txt' },
  // Ranges (RFC 9110 §14), small files read at once and large ones streamed.
  range('/static/plain.txt', 'bytes=0-4'),
  range('/static/plain.txt', 'bytes=6-'),
  range('/static/plain.txt', 'bytes=-3'),
  range('/static/plain.txt', 'bytes=-999'),
  range('/static/plain.txt', 'bytes=0-0'),
  range('/static/plain.txt', 'bytes=2-999'),
  range('/static/plain.txt', 'bytes=13-'),
  range('/static/plain.txt', 'bytes=500-'),
  range('/static/plain.txt', 'bytes=5-2'),
  range('/static/plain.txt', 'bytes=-0'),
  range('/static/empty.txt', 'bytes=0-1'),
  range('/static/empty.txt', 'garbage'),
  range('/static/large.bin', 'bytes=1000-150999'),
  range('/static/large.bin', 'bytes=-70000'),
  range('/static/large.bin', 'bytes=199990-'),
  { path: '/static/plain.txt', method: 'HEAD', headers: { range: 'bytes=0-4' } },
  // Precompressed variants, chosen by Accept-Encoding.
  { path: '/precompressed/hello.txt', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } },
  { path: '/precompressed/hello.txt', headers: { 'accept-encoding': 'zstd, gzip' } },
  { path: '/precompressed/hello.txt', headers: { 'accept-encoding': 'gzip' } },
  { path: '/precompressed/hello.txt', headers: { 'accept-encoding': 'identity' } },
  { path: '/precompressed/hello.txt' },
  { path: '/precompressed/photo.png', headers: { 'accept-encoding': 'br' } },
];

/**
 * Where ours answers differently on purpose. A Range field that is not one byte range (garbage,
 * several ranges, another unit) is ignored as RFC 9110 §14.2 allows: the whole file, 200.
 * node-server reads it as `bytes=0-` and answers 206 with the whole file.
 */
const DIFFERENT: Case[] = [
  range('/static/plain.txt', 'bytes=0-1,4-5'),
  range('/static/plain.txt', 'lines=1-2'),
  range('/static/plain.txt', 'bytes=abc'),
];

const describeCase = (c: Case) => `${c.method ?? 'GET'} ${c.path}${c.headers ? ` ${JSON.stringify(c.headers)}` : ''}`;

describe('wirespeed/hono serveStatic against @hono/node-server serveStatic (both on wirespeed/node)', () => {
  let ours: Server;
  let theirs: Server;
  /** What our server reported (logError). */
  const logged: Error[] = [];

  beforeAll(async () => {
    writeFiles();
    ours = serve({ fetch: appWith(serveStatic).fetch, logError: (error) => logged.push(error as Error) });
    theirs = serve({ fetch: appWith(nodeServerStatic as (options: ServeStaticOptions) => MiddlewareHandler).fetch });
    await Promise.all([ours.ready, theirs.ready]);
  });
  afterAll(async () => {
    await Promise.all([ours.close(), theirs.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it.each(cases.map((c) => [describeCase(c), c] as const))('%s', async (_name, c) => {
    const [mine, peer] = await Promise.all([get(ours.port, c.path, c.headers, c.method), get(theirs.port, c.path, c.headers, c.method)]);
    expect(mine).toEqual(peer);
  });

  it('answers what the cases expect (the peer agreeing is not enough)', async () => {
    const plain = await get(ours.port, '/static/plain.txt');
    // x-found: set by onFound, which node-server's calls after making its response.
    expect(plain).toMatchObject({
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(TEXT.length), 'x-found': 'yes' },
    });
    expect(plain.body.toString()).toBe(TEXT);
    expect(plain.headers['last-modified']).toMatch(/ GMT$/);
    for (const path of ['/static/large.bin', '/static/at-limit.bin', '/static/past-limit.bin']) {
      const { status, body } = await get(ours.port, path);
      expect(status).toBe(200);
      expect(new Uint8Array(body)).toEqual(
        { '/static/large.bin': large, '/static/at-limit.bin': atLimit, '/static/past-limit.bin': pastLimit }[path],
      );
    }
    const part = await get(ours.port, '/static/large.bin', { range: 'bytes=1000-150999' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-150999/${large.length}`);
    expect(new Uint8Array(part.body)).toEqual(large.subarray(1000, 151000));
    expect((await get(ours.port, '/static/plain.txt', { range: 'bytes=500-' })).headers['content-range']).toBe(`bytes */${TEXT.length}`);
    const gz = await get(ours.port, '/precompressed/hello.txt', { 'accept-encoding': 'gzip' });
    expect(gz.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    // A backslash in a target never reaches the app: the server answers 400 (RFC 9112 §3.2).
    const refused = {
      '/static/../secret.txt': 404,
      '/static/%2e%2e%2fsecret.txt': 404,
      '/static/admin%2Fsecret.txt': 404,
      '/static/..\\..\\secret.txt': 400,
    };
    for (const [path, expected] of Object.entries(refused)) {
      const { status, body } = await get(ours.port, path);
      expect(status, path).toBe(expected);
      expect(body.toString(), path).not.toMatch(/secret|outside/);
    }
  });

  it.each(DIFFERENT.map((c) => [describeCase(c), c] as const))(
    '%s: a Range that is not one byte range is ignored (200), node-server answers 206',
    async (_name, c) => {
      const [mine, peer] = await Promise.all([get(ours.port, c.path, c.headers), get(theirs.port, c.path, c.headers)]);
      expect(mine.status).toBe(200);
      expect(mine.body.toString()).toBe(TEXT);
      expect(mine.headers['content-range']).toBeUndefined();
      expect(peer.status).toBe(206);
      expect(peer.body.toString()).toBe(TEXT);
    },
  );

  it('answers If-Modified-Since with 304 while the file is unchanged (node-server sends the whole file each time)', async () => {
    const first = await get(ours.port, '/static/plain.txt');
    const lastModified = first.headers['last-modified']!;
    const notModified = await get(ours.port, '/static/plain.txt', { 'if-modified-since': lastModified });
    // RFC 9110 §15.4.5: the fields a cache updates from, onFound's included; no body, no type.
    expect(notModified).toMatchObject({
      status: 304,
      headers: { 'last-modified': lastModified, 'x-found': 'yes', 'content-type': undefined },
    });
    expect(notModified.body.length).toBe(0);
    expect((await get(ours.port, '/static/plain.txt', { 'if-modified-since': lastModified }, 'HEAD')).status).toBe(304);
    expect((await get(theirs.port, '/static/plain.txt', { 'if-modified-since': lastModified })).status).toBe(200);
    const older = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const later = new Date(Date.now() + 60_000).toUTCString();
    for (const [headers, why] of [
      [{ 'if-modified-since': older }, 'changed since'],
      [{ 'if-modified-since': 'yesterday' }, 'not a date'],
      [{ 'if-modified-since': later }, 'a date past the server clock'],
      [{ 'if-modified-since': lastModified, 'if-none-match': '"x"' }, 'If-None-Match takes precedence'],
    ] as const) {
      const answer = await get(ours.port, '/static/plain.txt', headers);
      expect([answer.status, answer.body.toString()], why).toEqual([200, TEXT]);
    }
    // Precompressed: the variant's date, and Vary, which a 304 repeats.
    const gz = await get(ours.port, '/precompressed/hello.txt', { 'accept-encoding': 'gzip' });
    const gz304 = await get(ours.port, '/precompressed/hello.txt', {
      'accept-encoding': 'gzip',
      'if-modified-since': gz.headers['last-modified']!,
    });
    expect(gz304).toMatchObject({ status: 304, headers: { vary: 'Accept-Encoding' } });
  });

  it('sends the part an If-Range asks for only while it names the file as it is (RFC 9110 §13.1.5)', async () => {
    const lastModified = (await get(ours.port, '/static/plain.txt')).headers['last-modified']!;
    const part = await get(ours.port, '/static/plain.txt', { range: 'bytes=0-4', 'if-range': lastModified });
    expect([part.status, part.body.toString()]).toEqual([206, TEXT.slice(0, 5)]);
    const older = new Date(Date.parse(lastModified) - 1000).toUTCString();
    for (const ifRange of [older, '"an-etag"']) {
      const whole = await get(ours.port, '/static/plain.txt', { range: 'bytes=0-4', 'if-range': ifRange });
      expect([whole.status, whole.body.toString(), whole.headers['content-range']], ifRange).toEqual([200, TEXT, undefined]);
    }
  });

  it('closes every file it opens: read whole, streamed to the end, or left by its client midway', async () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const settled = async (limit: number) => {
      for (let i = 0; i < 200 && openFiles() > limit; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return openFiles();
    };
    const before = await settled(0);
    for (const path of ['/static/plain.txt', '/static/large.bin', '/static/huge.bin', '/static/huge.bin']) {
      expect((await get(ours.port, path, { connection: 'close' })).status).toBe(200);
    }
    // A client that leaves after the first bytes of 8 MiB: the server cancels the body, which closes the file.
    for (let i = 0; i < 10; i++) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(ours.port, '127.0.0.1', () => socket.write('GET /static/huge.bin HTTP/1.1\r\nHost: x\r\n\r\n'));
        socket.once('data', () => socket.destroy());
        socket.once('close', () => resolve());
        socket.once('error', reject);
      });
    }
    expect(await settled(before)).toBeLessThanOrEqual(before);
  });

  it('ends a streamed file that shrinks after its stat short of its length, and the server goes on', async () => {
    const path = join(folder, 'assets', 'static', 'shrinking.bin');
    writeFileSync(path, new Uint8Array(4 * 1024 * 1024).fill(0x73));
    // The file shrinks between its stat (the 4 MiB Content-Length) and its reads: in onFound, not
    // on the client's first chunk, which came after the whole file when the socket's buffers took
    // it all at once (a loopback receive buffer grows to tcp_rmem's 32 MiB here). Past one chunk,
    // so the first read is whole and the stream runs dry while it is sent.
    const shrinking = new Hono().use(
      '/static/*',
      serveStatic({
        root: join(folder, 'assets'),
        onFound: (found) => {
          if (found === path) truncateSync(path, SYNC_READ_BYTES + 1000);
        },
      }),
    );
    const errors: Error[] = [];
    const server = serve({ fetch: shrinking.fetch, logError: (error) => errors.push(error as Error) });
    await server.ready;
    try {
      const outcome = await new Promise<string>((resolve) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: '/static/shrinking.bin' }, (res) => {
          let received = 0;
          res.on('data', (chunk: Buffer) => (received += chunk.length));
          res.on('end', () => resolve(`ended at ${received}`));
          res.on('error', () => resolve(`cut at ${received} of ${res.headers['content-length']}`));
          res.on('aborted', () => resolve(`cut at ${received} of ${res.headers['content-length']}`));
        });
        req.on('error', (error) => resolve(`error ${error.message}`));
        req.end();
      });
      // The client knows the file did not come whole: the connection was cut short of Content-Length.
      expect(outcome).toBe(`cut at ${SYNC_READ_BYTES + 1000} of 4194304`);
      expect(errors.map((error) => error.message)).toEqual([
        `the response body ended at ${SYNC_READ_BYTES + 1000} of its Content-Length 4194304 bytes`,
      ]);
      expect((await get(server.port, '/static/plain.txt')).status).toBe(200);
    } finally {
      await server.close();
      rmSync(path);
    }
  });

  it('answers a FIFO as not found instead of blocking on its read (node-server would stream it forever)', async () => {
    const fifo = join(folder, 'assets', 'static', 'pipe');
    execFileSync('mkfifo', [fifo]);
    try {
      const answer = await get(ours.port, '/static/pipe');
      expect(answer.status).toBe(404);
      expect(answer.body.toString()).toBe('fallthrough');
      // The server still answers: nothing blocked its one thread.
      expect((await get(ours.port, '/static/plain.txt')).status).toBe(200);
    } finally {
      rmSync(fifo, { force: true });
    }
  });

  it('follows a file changed between requests: the length said is the length sent', async () => {
    const path = join(folder, 'assets', 'static', 'changing.txt');
    writeFileSync(path, 'first version, longer');
    expect((await get(ours.port, '/static/changing.txt')).body.toString()).toBe('first version, longer');
    writeFileSync(path, 'second');
    const second = await get(ours.port, '/static/changing.txt');
    expect(second.headers['content-length']).toBe('6');
    expect(second.body.toString()).toBe('second');
  });

  it('looks a request path up under the working directory when no root is given (node-server: under /)', async () => {
    const app = (middleware: MiddlewareHandler) => new Hono().use('/*', middleware);
    const mine = serve({ fetch: app(serveStatic()).fetch });
    const peer = serve({ fetch: app(nodeServerStatic()).fetch });
    await Promise.all([mine.ready, peer.ready]);
    try {
      // The test runs in the repository: its package.json is there, the temporary folder is not.
      expect((await get(mine.port, '/package.json')).body.toString()).toContain('"name": "wirespeed"');
      const outside = join(folder, 'assets', 'secret.txt');
      expect((await get(mine.port, outside)).status).toBe(404);
      expect((await get(peer.port, outside)).body.toString()).toBe('outside the static folder');
    } finally {
      await Promise.all([mine.close(), peer.close()]);
    }
  });

  it('answers a path that rewriteRequestPath takes out of the root as not found (node-server serves it)', async () => {
    const root = join(folder, 'assets', 'static');
    const app = (middleware: MiddlewareHandler) => new Hono().use('*', middleware);
    const rewriteRequestPath = (path: string) => path.replace('/assets', '');
    const mine = serve({ fetch: app(serveStatic({ root, rewriteRequestPath })).fetch });
    const peer = serve({ fetch: app(nodeServerStatic({ root, rewriteRequestPath })).fetch });
    await Promise.all([mine.ready, peer.ready]);
    try {
      expect((await get(mine.port, '/assets/plain.txt')).body.toString()).toBe(TEXT);
      // `/assets../secret.txt` has no dot segment; rewritten it is `../secret.txt`.
      expect((await get(mine.port, '/assets../secret.txt')).status).toBe(404);
      expect((await get(peer.port, '/assets../secret.txt')).body.toString()).toBe('outside the static folder');
    } finally {
      await Promise.all([mine.close(), peer.close()]);
    }
  });

  it('answers a dangling symlink as not found, as node-server does', async () => {
    const dangling = join(folder, 'assets', 'static', 'dangling.txt');
    symlinkSync(join(folder, 'nowhere.txt'), dangling);
    try {
      const [mine, peer] = await Promise.all([get(ours.port, '/static/dangling.txt'), get(theirs.port, '/static/dangling.txt')]);
      expect(mine.status).toBe(404);
      expect(mine).toEqual(peer);
    } finally {
      rmSync(dangling, { force: true });
    }
  });
});
