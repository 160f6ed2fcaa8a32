// The application every server test talks to, on Node and on Deno alike. What the server did
// (handler calls, errors, aborted requests) is reported over HTTP at /stats, so the same tests
// work whether the server runs in the test process or in a Deno child process.
import { Hono } from 'hono';
import { LightResponse } from '../../src/server/light-response.js';
import type { RequestInfo } from '../../src/server/request-info.js';
import type { ServeOptions } from '../../src/server/options.js';
import { requestTrailers, withTrailers } from '../../src/server/trailers.js';
import { wasmCore } from '../../src/wasm/module.js';
import { webSocketRoute } from '../websocket/app.js';

const stats = {
  calls: 0,
  errors: [] as string[],
  aborted: 0,
  bodyBytes: 0,
  bigCalls: 0,
  lateAborted: [] as boolean[],
  /** The `id`s of /event-stream responses whose stream the server cancelled. */
  cancelledStreams: [] as string[],
  /** What reads of a body answered before it ended gave, by their `id`: its length, or the error. */
  lateReads: {} as Record<string, string>,
  /** How `info.completed` of requests with `?done=<id>` settled, by id (absent: not yet). */
  completed: {} as Record<string, string>,
};
const recordRead = (id: string, read: Promise<string>) =>
  void read.then(
    (body) => (stats.lateReads[id] = `read ${body.length}`),
    (error: Error) => (stats.lateReads[id] = `failed: ${error.message}`),
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function countBytes(body: ReadableStream<Uint8Array>): Promise<number> {
  const reader = body.getReader();
  let total = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) total += r.value.length;
  return total;
}
/** A checksum of bytes in order (a body read in any pieces sums the same). */
export function checksum(bytes: Uint8Array, sum = 0): number {
  for (const byte of bytes) sum = (Math.imul(sum, 31) + byte) >>> 0;
  return sum;
}

/**
 * Does `action` with the request's body: reads nothing (`none`), only asks whether there is one
 * (`check`), reads it whole (`all`) or as a stream (`stream`), reads its first chunk only
 * (`first`), cancels it (`cancel`), or looks at its first chunk and reads on from the stream
 * (`peek`). Says how many bytes it read and their checksum.
 */
async function bodyAction(request: Request, action: string | null): Promise<{ read: number; sum: number }> {
  const body = request.body;
  if (action === 'all') {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return { read: bytes.length, sum: checksum(bytes) };
  }
  let read = 0;
  let sum = 0;
  if (!body || action === 'none' || action === 'check') return { read, sum };
  if (action === 'cancel') {
    await body.cancel();
    return { read, sum };
  }
  let reader = body.getReader();
  const take = (bytes: Uint8Array) => {
    read += bytes.length;
    sum = checksum(bytes, sum);
  };
  const first = await reader.read();
  if (first.value) take(first.value);
  if (action === 'first' || first.done) return { read, sum };
  if (action === 'peek') {
    reader.releaseLock();
    reader = body.getReader();
  }
  for (let next = await reader.read(); !next.done; next = await reader.read()) take(next.value);
  return { read, sum };
}
const text = (body: string, status = 200) => new Response(body, { status });
const GZIPPED_TEXT = 'hello from a gzip upstream; '.repeat(40);
const gzip = (value: string) => new Response(new Blob([value]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
/** The size of the Deno adapter's pooled write buffers: a chunk of it once passed for one. */
const KEPT_CHUNK_BYTES = 16 * 1024;
const keptChunks: Uint8Array[] = [];

/** A request with this field is answered with its method, URL, fields and body (null: none), as JSON. */
export const SHOW_REQUEST = 'x-show-request';

/** A response as a test describes it (tests/server/response-framing.test.ts): its body a string, a stream of 3-byte pieces, or bytes. */
export interface ResponseSpec {
  status: number;
  body: string | null;
  kind: 'string' | 'stream' | 'bytes';
  headers: [string, string][];
}

function specResponse({ status, body, kind, headers }: ResponseSpec): Response {
  const encoded = body === null ? null : new TextEncoder().encode(body);
  const pieces = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 3) controller.enqueue(bytes.slice(at, at + 3));
        controller.close();
      },
    });
  const made = encoded === null || kind === 'string' ? body : kind === 'bytes' ? encoded : pieces(encoded);
  return new Response(made, { status, headers });
}

const hono = new Hono().basePath('/hono');
hono.get('/users/:id', (c) => c.json({ id: c.req.param('id'), q: c.req.query('q') ?? null }));
hono.post('/json', async (c) => c.json({ got: await c.req.json<unknown>() }, 201));

/** On Deno, handler code written for Deno.serve: hono/deno's getConnInfo reads `c.env.remoteAddr` (hono/deno loads only there). */
const denoConnInfo = 'Deno' in globalThis ? await denoConnInfoApp() : null;

async function denoConnInfoApp(): Promise<Hono> {
  const { getConnInfo } = await import('hono/deno');
  return new Hono().get('/deno/conninfo', (c) => c.json(getConnInfo(c)));
}

/** Records how `info.completed` settles: 'resolved', or the rejection's name and its cause. */
function watchCompletion(id: string, info: RequestInfo): void {
  info.completed.then(
    () => (stats.completed[id] = 'resolved'),
    (error: Error) => (stats.completed[id] = `${error.name}: ${(error.cause as Error | undefined)?.message}`),
  );
}

async function handle(request: Request, info: RequestInfo): Promise<Response> {
  stats.calls++;
  // The request as the handler sees it, whatever its path (tests/http2/h1-parity.test.ts).
  if (request.headers.has(SHOW_REQUEST)) {
    const { method, url, headers, body } = request;
    return Response.json({ method, url, headers: [...headers], body: body && (await request.text()) });
  }
  const url = new URL(request.url);
  const q = url.searchParams;
  const done = q.get('done');
  if (done) watchCompletion(done, info);
  switch (url.pathname) {
    case '/hello':
      return text('Hello World!');
    case '/lone-surrogates':
      // Text a URL cannot carry: surrogates without their pair (sent as U+FFFD), `n` times.
      return new Response('a\ud800b\udc00c\udbff'.repeat(Number(q.get('n') ?? 1)));
    case '/utf8':
      return text('héllo wörld ✓');
    case '/repeat':
      // A text body of `n` copies of `unit` (with the index at its start, so bodies differ).
      return new Response(`${q.get('id')}:${(q.get('unit') ?? 'x').repeat(Number(q.get('n')))}`);
    case '/path':
      return text(`${request.method} ${url.pathname}${url.search}`);
    case '/from-spec':
      return specResponse(JSON.parse(q.get('spec')!) as ResponseSpec);
    case '/echo':
      return new Response(await request.arrayBuffer(), {
        headers: { 'content-type': request.headers.get('content-type') ?? 'application/octet-stream' },
      });
    case '/count-body': {
      const total = await countBytes(request.body!);
      stats.bodyBytes = total;
      return text(String(total));
    }
    case '/hold-body': {
      // Reads nothing for a while: the server must stop reading from the socket meanwhile.
      await sleep(Number(q.get('ms') ?? 500));
      return text(String(await countBytes(request.body!)));
    }
    case '/no-read':
      return text('answered without reading', 200);
    case '/headers':
      return Response.json(Object.fromEntries(request.headers));
    case '/info':
      return Response.json({ remoteAddress: info.remoteAddress, url: request.url, instance: request instanceof Request });
    case '/remote-port':
      // Which connection a request came on (a browser's HTTP/2 requests share one).
      return text(String(info.remotePort));
    case '/form-fields': {
      // A multipart or urlencoded upload as the runtime's formData() reads it: files by name and size.
      const form = await request.formData();
      return Response.json([...form].map(([name, value]) => [name, typeof value === 'string' ? value : `${value.name} ${value.size}`]));
    }
    case '/deno/remote-addr':
      return Response.json(info.remoteAddr ?? null);
    case '/deno/conninfo':
      return denoConnInfo ? denoConnInfo.fetch(request, info) : text('Deno only', 404);
    case '/first-chunk': {
      // A stream whose first (and only) chunk comes after `ms`: a file read, or a late event.
      const ms = Number(q.get('ms') ?? 5);
      return new Response(
        new ReadableStream<Uint8Array>({
          async start(controller) {
            await sleep(ms);
            controller.enqueue(new TextEncoder().encode('first'));
            controller.close();
          },
        }),
      );
    }
    case '/stream': {
      const parts = Number(q.get('parts') ?? 3);
      let i = 0;
      return new Response(
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            await sleep(5);
            if (i === parts) return controller.close();
            controller.enqueue(new TextEncoder().encode(`part ${i++};`));
          },
        }),
        { headers: { 'content-type': 'text/plain' } },
      );
    }
    case '/light':
      return new LightResponse('light ✓', { status: 201, headers: { 'x-light': 'yes' } });
    case '/light-bytes':
      return new LightResponse(new Uint8Array([1, 2, 3]), { headers: [['x-light', 'bytes']] });
    case '/light-json':
      return LightResponse.json({ light: true });
    case '/light-changed': {
      // Headers changed after construction: the real Response is made and written instead.
      const response = new LightResponse('changed');
      response.headers.set('x-changed', 'yes');
      return response;
    }
    case '/trailers': {
      // Reads the body and its trailers; answers with trailers of its own.
      const body = await request.text();
      const trailers = await requestTrailers(request);
      // A stream body: HTTP/1.1 sends trailers only with chunked framing.
      const reply = new Response(new Blob([`got ${body.length}`]).stream());
      return withTrailers(reply, () => ({ 'x-length': String(body.length), 'x-echo': trailers.get('x-client') ?? 'none' }));
    }
    case '/bytes':
      return new Response(new Uint8Array([0, 1, 2, 250, 255]));
    case '/blob':
      return new Response(new Blob(['blob ', 'body'], { type: 'text/x-blob' }));
    case '/form': {
      const form = new FormData();
      form.set('a', '1');
      return new Response(form);
    }
    case '/null':
      return new Response(null, { status: Number(q.get('status') ?? 200), headers: { 'x-null': 'yes' } });
    case '/big': {
      stats.bigCalls++;
      return new Response(new Uint8Array(Number(q.get('kb') ?? 1024) * 1024).fill(97));
    }
    case '/slow':
      await sleep(Number(q.get('ms') ?? 200));
      return text(`slept ${q.get('ms') ?? 200}`);
    case '/ignore-abort':
      // A slow handler that does not watch its signal.
      await sleep(Number(q.get('ms') ?? 3000));
      return text('late');
    case '/upstream-fields':
      // What a fetch() of a keep-alive upstream carries: fields of that other connection.
      return new Response('proxied', { headers: { connection: 'keep-alive', 'keep-alive': 'timeout=30' } });
    case '/declared-length': {
      // 'hello', streamed a turn late (its length is not known ahead), under each `value` as a Content-Length.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await sleep(10);
          controller.enqueue(new TextEncoder().encode('hello'));
          controller.close();
        },
      });
      return new Response(body, { headers: q.getAll('value').map((value): [string, string] => ['content-length', value]) });
    }
    case '/bodyless':
      // A status without a body (204, 304) with a Content-Length the handler set anyway.
      return new Response(null, { status: Number(q.get('status')), headers: { 'content-length': q.get('length') ?? '5', etag: '"e"' } });
    case '/hop-fields':
      // Fields of a connection or of a request, set by a handler that copies them blindly.
      return new Response('hop', {
        headers: {
          connection: 'keep-alive',
          'keep-alive': 'timeout=30',
          'transfer-encoding': 'chunked',
          upgrade: 'h2c',
          te: 'gzip',
          'x-kept': '1',
        },
      });
    case '/close-me':
      // The handler closes the connection the Fetch way: its own Connection field.
      return new Response('bye', { headers: { connection: 'close' } });
    case '/answer-then-read':
      // A webhook's way: start reading, answer 202 at once, finish reading after.
      recordRead(q.get('id') ?? '', request.text());
      return new Response(null, { status: 202 });
    case '/answer-then-stream': {
      // Reads a first piece through a reader, answers, then reads on: a stream is not kept going
      // behind its response (its reader may never come back), so the next read fails.
      const reader = request.body!.getReader();
      await reader.read();
      const rest = (async () => {
        let length = 0;
        for (let part = await reader.read(); !part.done; part = await reader.read()) length += part.value.length;
        return 'x'.repeat(length);
      })();
      recordRead(q.get('id') ?? '', rest);
      return new Response(null, { status: 202 });
    }
    case '/answer-then-start-reading':
      // Starts reading only after the response went out: the body was not kept for it.
      setTimeout(() => recordRead(q.get('id') ?? '', request.text()), 50);
      return new Response(null, { status: 202 });
    case '/late-abort-check':
      // Reads the signal only after its client may have left (a long job checking now and then).
      await sleep(Number(q.get('ms') ?? 150));
      stats.lateAborted.push(request.signal.aborted);
      return text('checked');
    case '/event-stream': {
      // An event feed that sends one event, then waits for the next (which never comes): only
      // a cancel from the server tells it the client is gone.
      const id = q.get('id') ?? '';
      const event = new TextEncoder().encode(`data: ${id}\n\n`);
      const feed = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(event),
        cancel: () => void stats.cancelledStreams.push(id),
      });
      return new Response(feed, { headers: { 'content-type': 'text/event-stream' } });
    }
    case '/one-chunk': {
      // A stream of one large chunk: a handler's buffer handed to a ReadableStream at once, sent
      // chunked, or with the length the handler declares (`?length=declared`).
      const chunk = new Uint8Array(Number(q.get('mb') ?? 1) * 1024 * 1024).fill(121);
      const headers = q.get('length') === 'declared' ? { 'content-length': String(chunk.length) } : undefined;
      return new Response(new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(chunk), controller.close()) }), {
        headers,
      });
    }
    case '/endless': {
      // 64 KiB chunks for as long as the client takes them (made only when asked for).
      const chunk = new Uint8Array(64 * 1024).fill(120);
      return new Response(new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(chunk) }));
    }
    case '/wait-abort':
      return new Promise((resolve) => {
        request.signal.addEventListener('abort', () => {
          stats.aborted++;
          resolve(text('aborted'));
        });
      });
    case '/throw':
      throw new Error('handler threw');
    case '/reject':
      await sleep(1);
      throw new Error('handler rejected');
    case '/not-a-response':
      return 'oops' as unknown as Response;
    case '/error-response':
      return Response.error();
    case '/trap':
      // Exhausts wasm memory on purpose: the instance traps and is re-created.
      wasmCore().reserve(0xffff_ffff);
      return text('unreachable');
    case '/body-heap': {
      // What reading a body whole adds to the heap: a body sent in 1-byte pieces once took 100x its
      // size. `?blob`: read by the runtime's own Request (as formData() is), through the body stream.
      const heapUsed = () => process.memoryUsage().heapUsed;
      const before = heapUsed();
      const bytes = new Uint8Array(q.has('blob') ? await (await request.blob()).arrayBuffer() : await request.arrayBuffer());
      const grew = heapUsed() - before;
      return Response.json({ bytes: bytes.length, as: bytes.every((byte) => byte === 97), grewMB: Math.round(grew / 1e6) });
    }
    case '/body-buffers': {
      // What the body's pieces keep alive: a piece is a view, and its whole buffer stays while
      // the piece is held (until read, or all of them for text()).
      const reader = request.body!.getReader();
      const buffers = new Set<ArrayBufferLike>();
      let bytes = 0;
      let held = 0;
      // The largest buffer behind a piece under 1 KiB.
      let smallPieceBuffer = 0;
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        const { length, buffer } = read.value;
        bytes += length;
        if (!buffers.has(buffer)) held += buffer.byteLength;
        buffers.add(buffer);
        if (length < 1024) smallPieceBuffer = Math.max(smallPieceBuffer, buffer.byteLength);
      }
      return Response.json({ bytes, held, smallPieceBuffer });
    }
    case '/pid':
      return text(String(typeof process === 'object' ? process.pid : 0));
    case '/stats':
      return Response.json(stats);
    case '/head-length':
      // A HEAD answered by hand: the length GET would have, and no body (RFC 9110 §9.3.2).
      return new Response(null, { headers: { 'content-length': '17' } });
    case '/padded-length':
      return new Response('hello world', { headers: { 'content-length': '00011' } });
    case '/cancel-then-read': {
      // Fetch: a cancelled body is disturbed, so it is used and cannot be read (it read as empty).
      await request.body!.cancel();
      const read = await request.text().then(
        (body) => `read ${JSON.stringify(body)}`,
        (error: Error) => `failed: ${error.message}`,
      );
      return Response.json({ used: request.bodyUsed, read });
    }
    case '/peek-then-read': {
      // A middleware that looks at the body's first bytes (a reader, then let go), and the app that
      // reads on from the stream. Fetch: the body is used from the first read (no text() after it),
      // and the request stays a Request (its other members once threw, the body being disturbed).
      const reader = request.body!.getReader();
      const first = (await reader.read()).value?.length ?? 0;
      reader.releaseLock();
      const usedAfterPeek = request.bodyUsed;
      const readWhole = await request.text().then(
        () => 'read',
        (error: Error) => `failed: ${error.name}`,
      );
      let bytes = first;
      const onward = request.body!.getReader();
      for (let read = await onward.read(); !read.done; read = await onward.read()) bytes += read.value.length;
      return Response.json({ usedAfterPeek, readWhole, bytes, cache: request.cache, mode: request.mode });
    }
    case '/body-check':
      // hono's bodyLimit() checks `c.req.raw.body` first, then reads it.
      return text(request.body ? `body: ${await request.text()}` : 'no body');
    case '/body-kind':
      return text(request.body === null ? 'null' : `stream of ${(await request.arrayBuffer()).byteLength}`);
    case '/body-action':
      // What a handler does with a body (after `ms`, while it arrives), for
      // tests/server/pipeline-fuzz.test.ts: its id, and the bytes it read and their checksum.
      await sleep(Number(q.get('ms') ?? 0));
      return Response.json({ id: q.get('id'), ...(await bodyAction(request, q.get('do'))) });
    case '/string-stream': {
      // What frameworks enqueue besides Uint8Array (Elysia's generator handlers: strings), and what
      // servers on Node and Bun write anyway: a string (as UTF-8), a DataView, an ArrayBuffer.
      const bytes = (text: string) => new TextEncoder().encode(text).buffer;
      const chunks: unknown[] = ['héllo ', new DataView(bytes('_view '), 1), bytes('buffer')];
      return new Response(new ReadableStream({ start: (c) => (chunks.forEach((chunk) => c.enqueue(chunk)), c.close()) }));
    }
    case '/many-chunks': {
      // A page generated in many small pieces (a template engine, React's stream), ready at once;
      // `fail` errors the stream once they are read.
      const count = Number(q.get('count') ?? 10_000);
      const encoder = new TextEncoder();
      return new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < count; i++) controller.enqueue(encoder.encode(`<p>${i}</p>`));
            if (!q.has('fail')) controller.close();
          },
          pull: (controller) => controller.error(new Error('the body failed after its chunks')),
        }),
        { headers: { 'content-type': 'text/html' } },
      );
    }
    case '/stream-fails-at-once':
      // A body that fails before its first chunk (a file that is gone): nothing went out yet.
      return new Response(new ReadableStream({ start: (c) => c.error(new Error('the body failed at once')) }));
    case '/stream-fails-soon':
      return new Response(
        new ReadableStream({
          pull: (c) => new Promise((resolve) => setTimeout(resolve, 5)).then(() => c.error(new Error('the body failed soon'))),
        }),
      );
    case '/stream-fails-later':
      // After its first chunk: the head went with it, so the response can only be cut.
      return new Response(
        new ReadableStream({
          start: (c) => c.enqueue(new TextEncoder().encode('first')),
          pull: (c) => new Promise((resolve) => setTimeout(resolve, 30)).then(() => c.error(new Error('the body failed later'))),
        }),
      );
    case '/number-stream':
      // A mistake: a number where bytes belong. The response is cut and onError told why.
      return new Response(new ReadableStream({ start: (c) => (c.enqueue(42 as unknown as Uint8Array), c.close()) }));
    case '/rewrapped': {
      // What hono does after header-setting middleware: the length stays known.
      const first = new Response(new TextEncoder().encode('wrapped body'), { headers: { 'x-first': '1' } });
      const second = new Response(first.body, first);
      second.headers.set('x-second', '2');
      return second;
    }
    case '/many-fields': {
      // A Headers object (walked by forEach: Deno's iterator re-sorts at every step), changed after
      // the response was made too (a light response's headers are then a Headers).
      const headers = new Headers();
      for (let i = 0; i < 14; i++) headers.set(`x-field-${i}`, String(i));
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      const response = new Response('fields', { headers });
      response.headers.set('x-late', 'yes');
      return response;
    }
    case '/kept-chunks': {
      // Chunks the handler keeps after the response: the server must never write into them.
      const chunks = [0x61, 0x62].map((byte) => new Uint8Array(KEPT_CHUNK_BYTES).fill(byte));
      keptChunks.push(...chunks);
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await sleep(5);
          if (i === chunks.length) return controller.close();
          controller.enqueue(chunks[i++]);
        },
      });
      return new Response(body, { headers: { 'content-length': String(chunks.length * KEPT_CHUNK_BYTES) } });
    }
    case '/kept-chunks/check':
      return text(keptChunks.every((chunk) => chunk.every((byte) => byte === chunk[0])) ? 'intact' : 'overwritten');
    case '/remade-request': {
      // Middleware makes a Request from the one it was given: with new fields, and after reading
      // the body with a new one (as with a runtime Request, only a new body may follow a read).
      let remade: Request;
      try {
        remade = new Request(request, { headers: { 'x-remade': 'yes', 'content-type': 'text/plain' } });
      } catch (error) {
        return Response.json({ refused: (error as Error).name });
      }
      const read = await remade.text();
      const after = [request.bodyUsed, remade instanceof Request, Request.name];
      let again: string;
      try {
        new Request(request);
        again = 'made';
      } catch (error) {
        again = (error as Error).name;
      }
      const replaced = await new Request(request, { body: 'replaced' }).text();
      return Response.json({ method: remade.method, url: remade.url, field: remade.headers.get('x-remade'), read, after, again, replaced });
    }
    case '/gzipped':
      // An upstream that compresses: gzip bytes, with their own length.
      return new Response(await gzip(GZIPPED_TEXT), { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' } });
    case '/forward':
      // A proxy that forwards the request it got as it is: its Host names the upstream.
      return fetch(request);
    case '/forward-after-read':
      await request.text();
      return fetch(request).catch((error: Error) => text(`refused: ${error.name}`, 502));
    case '/proxied-gzip':
      // `return fetch(upstream)` as it is: fetch decoded the body but kept both coding fields.
      return fetch(new URL('/gzipped', request.url));
    case '/cloned-bytes': {
      // etag() reads a clone; the original must still carry its bytes.
      const original = new Response(new TextEncoder().encode('hello bytes'));
      await original.clone().arrayBuffer();
      return original;
    }
  }
  if (url.pathname.startsWith('/hono/')) return hono.fetch(request);
  if (url.pathname.startsWith('/ws/')) return webSocketRoute(request, url, info);
  return text('not found', 404);
}

/** An error's message, and its cause's (a failed response body's error wraps the stream's). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

/** The options every test server gets besides its own limits. */
export function appOptions(): ServeOptions {
  return {
    fetch: handle,
    onError(error) {
      stats.errors.push(describeError(error));
      return new Response('500 from onError\n', { status: 500 });
    },
    // What went wrong after the handler (a response body that failed), reported the same way.
    logError(error) {
      stats.errors.push(describeError(error));
    },
  };
}
