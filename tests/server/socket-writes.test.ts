// How a response's bytes are grouped into the socket's writes, at the core's Transport seam: each
// write costs a system call and a packet, and the client a wakeup, so what is ready together goes
// out together; what is not ready is not held back for what comes later.
import { describe, expect, it } from 'vitest';
import { ServerCore } from '../../src/server/server-core.js';
import type { FetchHandler } from '../../src/server/options.js';
import { LightResponse } from '../../src/server/light-response.js';
import { withTrailers } from '../../src/server/trailers.js';
import { RecordingTransport } from './recording-transport.js';

const REQUEST = 'GET / HTTP/1.1\r\nHost: a\r\n\r\n';
const encoder = new TextEncoder();
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A body streamed in bursts: each burst's chunks enqueued at once, a turn of the event loop apart; closed with the last burst, or a turn after it. */
function bursts(parts: string[][], closeLater = false): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      for (const [i, burst] of parts.entries()) {
        if (i > 0) await nextTurn();
        for (const part of burst) controller.enqueue(encoder.encode(part));
      }
      if (closeLater) await nextTurn();
      controller.close();
    },
  });
}

/** The writes one GET answered by `fetch` makes, once the response is complete (waited for up to 2 s). */
async function writesOf(fetch: FetchHandler): Promise<string[]> {
  const core = new ServerCore({ fetch });
  const transport = new RecordingTransport();
  core.accept(transport);
  transport.events!.onData(encoder.encode(REQUEST));
  for (let i = 0; i < 400 && !/0\r\n(?:[^\r]+\r\n)*\r\n$/.test(transport.written); i++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  transport.destroy();
  // The head's Date and Keep-Alive change from run to run.
  return transport.flushes.map((write) => write.replace(/^HTTP\/1\.1 200 OK\r\n[^]*?\r\n\r\n/, 'HEAD '));
}

describe('socket writes of a streamed response (HTTP/1.1)', () => {
  it('sends a burst that ends the stream in one write with the last chunk (node:http ends a response in the same write)', async () => {
    const writes = await writesOf(() => new Response(bursts([['<p>a</p>', '<p>b</p>'], ['<p>c</p>']])));
    expect(writes).toEqual(['HEAD 10\r\n<p>a</p><p>b</p>\r\n', '8\r\n<p>c</p>\r\n0\r\n\r\n']);
  });

  it('does not hold a chunk back for an end that comes later: the last chunk then goes on its own', async () => {
    const writes = await writesOf(() => new Response(bursts([['<p>a</p>'], ['<p>b</p>']], true)));
    expect(writes).toEqual(['HEAD 8\r\n<p>a</p>\r\n', '8\r\n<p>b</p>\r\n', '0\r\n\r\n']);
  });

  it('sends trailers after the last burst, on their own (they are asked for once the body is written)', async () => {
    const writes = await writesOf(() => withTrailers(new Response(bursts([['<p>a</p>'], ['<p>b</p>']])), () => ({ 'x-sum': '2' })));
    expect(writes).toEqual(['HEAD 8\r\n<p>a</p>\r\n', '8\r\n<p>b</p>\r\n', '0\r\nx-sum: 2\r\n\r\n']);
  });
});

describe('socket writes of a text body (HTTP/1.1)', () => {
  /** The transport's write calls for one GET answered with `body`, and the body as it went out (UTF-8 bytes as latin1). */
  function writeOf(
    body: string,
    { writesText = false, headers = {} }: { writesText?: boolean; headers?: Record<string, string> } = {},
  ): { kinds: string[]; flushes: number; sent: string; length: number } {
    // (serve()'s global Response: the runtime's reads its body as a stream, a turn later.)
    const core = new ServerCore({ fetch: () => new LightResponse(body, { headers }) });
    const transport = new RecordingTransport({ writesText });
    core.accept(transport);
    transport.events!.onData(encoder.encode(REQUEST));
    transport.destroy();
    const at = transport.written.indexOf('\r\n\r\n') + 4;
    const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(transport.written)![1]);
    return { kinds: transport.kinds, flushes: transport.flushes.length, sent: transport.written.slice(at), length };
  }

  it('writes ASCII text up to 16 K chars as one string with its head, as node:http writes a string (no bytes made for it)', () => {
    // Encoded into the out pool, a 10 KB text made a 64 KiB slab outside V8's heap every six
    // responses: on Node 26 the GC took 7.6% of the route's CPU.
    for (const body of ['x'.repeat(300), 'ctrl\x00\x01\x7f '.repeat(100), 'y'.repeat(16 * 1024)]) {
      const { kinds, sent, length } = writeOf(body);
      expect(kinds, `${body.length} chars`).toEqual(['string']);
      expect([sent, length]).toEqual([body, body.length]);
    }
  });

  it('writes text past 256 chars that is not ASCII as one UTF-8 string with its head where the transport writes strings (Node)', () => {
    // Encoded into the out pool instead, a 10 KB page with one euro sign cost 1.13x node:http's CPU on Node 26.
    for (const body of ['é'.repeat(257), `${'a'.repeat(5000)}€`, '😀'.repeat(8 * 1024), 'a\ud800b'.repeat(100)]) {
      const { kinds, sent, length } = writeOf(body, { writesText: true });
      const utf8 = Buffer.from(body, 'utf8');
      expect(kinds, `${body.length} chars`).toEqual(['text']);
      expect([sent, length]).toEqual([utf8.toString('latin1'), utf8.length]);
    }
    // Behind a head that is not ASCII (a latin1 value), the text follows it in the same flush.
    const body = '€'.repeat(1000);
    const { kinds, flushes, sent, length } = writeOf(body, { writesText: true, headers: { 'x-name': 'caf\u00e9' } });
    expect([kinds, flushes]).toEqual([['string', 'text'], 1]);
    expect([sent, length]).toEqual([Buffer.from(body).toString('latin1'), 3000]);
    // Short text stays bytes (they join a pipelined batch's one string), and so does text past 16 K chars.
    for (const body of ['é'.repeat(256), `${'a'.repeat(16 * 1024)}€`]) {
      expect(writeOf(body, { writesText: true }).kinds, `${body.length} chars`).toContain('bytes');
    }
  });

  it('writes longer or non-ASCII text as its UTF-8 bytes, with their length', () => {
    for (const body of ['z'.repeat(16 * 1024 + 1), 'é'.repeat(300), `${'a'.repeat(5000)}€`]) {
      const { kinds, sent, length } = writeOf(body);
      const utf8 = Buffer.from(body, 'utf8');
      expect(kinds, `${body.length} chars`).toContain('bytes');
      expect([sent, length]).toEqual([utf8.toString('latin1'), utf8.length]);
    }
  });
});
