import { describe, expect, it } from 'vitest';
import {
  chunkHeader,
  dateHeaderLine,
  lastChunk,
  LAST_CHUNK,
  parseResponse,
  statusLine,
  STATUS_REASONS,
  writeResponseHead,
  type ResponseHeadInit,
} from '../../src/http1/index.js';
import { decode, encode, errorCode } from '../helpers.js';

describe('response writer', () => {
  it('has a pre-built status line for every registered code', () => {
    for (const [code, reason] of Object.entries(STATUS_REASONS)) {
      expect(statusLine(Number(code))).toBe(`HTTP/1.1 ${code} ${reason}\r\n`);
    }
    expect(statusLine(299)).toBe('HTTP/1.1 299 \r\n');
    expect(statusLine(200, 'Fine')).toBe('HTTP/1.1 200 Fine\r\n');
    expect(errorCode(() => statusLine(99))).toBe('ERR_INVALID_STATUS');
    expect(errorCode(() => statusLine(1000))).toBe('ERR_INVALID_STATUS');
    expect(errorCode(() => statusLine(200, 'bad\r\nX: y'))).toBe('ERR_INVALID_STATUS');
  });

  it('caches the Date line per second and formats it as an IMF-fixdate', () => {
    const t = Date.UTC(2026, 10, 22, 12, 0, 0);
    expect(dateHeaderLine(t)).toBe('Date: Sun, 22 Nov 2026 12:00:00 GMT\r\n');
    expect(dateHeaderLine(t + 999)).toBe(dateHeaderLine(t));
    expect(dateHeaderLine(t + 1000)).toBe('Date: Sun, 22 Nov 2026 12:00:01 GMT\r\n');
  });

  it('writes a head that our parser reads back, with Content-Length framing', () => {
    const head = writeResponseHead({ status: 200, headers: [['Content-Type', 'text/plain']], body: 5 });
    const r = parseResponse(encode(head + 'hello'));
    expect(r.status).toBe(200);
    expect(decode(r.body)).toBe('hello');
    expect(r.headers.map(([n]) => n)).toEqual(['Content-Type', 'Date', 'Content-Length']);
  });

  it('frames a chunked body with trailers that parse back', () => {
    const head = writeResponseHead({ status: 200, body: 'chunked', date: false });
    const wire = head + chunkHeader(11) + 'hello world' + '\r\n' + lastChunk([['X-Sum', '42']]);
    const r = parseResponse(encode(wire));
    expect(decode(r.body)).toBe('hello world');
    expect(r.trailers).toEqual([['X-Sum', '42']]);
    expect(chunkHeader(255)).toBe('ff\r\n');
    expect(LAST_CHUNK).toBe('0\r\n\r\n');
  });

  it('drops framing fields from the caller and adds Connection: close when asked', () => {
    const head = writeResponseHead({
      status: 200,
      headers: [
        ['Content-Length', '999'],
        ['transfer-encoding', 'chunked'],
        ['X-A', 'b'],
      ],
      body: 3,
      keepAlive: false,
      date: false,
    });
    expect(head).toBe('HTTP/1.1 200 OK\r\nX-A: b\r\nConnection: close\r\nContent-Length: 3\r\n\r\n');
  });

  it('takes a Connection field that lists close as the close (RFC 9112 §9.6): keepAlive comes back false, with no second field', () => {
    const init: ResponseHeadInit = { status: 200, headers: [['connection', 'Foo, CLOSE']], body: 3, date: false };
    expect(writeResponseHead(init)).toBe('HTTP/1.1 200 OK\r\nconnection: Foo, CLOSE\r\nContent-Length: 3\r\n\r\n');
    expect(init.keepAlive).toBe(false);
    // A Connection field without close leaves persistence as it was; closing anyway adds close.
    const kept: ResponseHeadInit = { status: 200, headers: [['connection', 'upgrade']], body: 0, date: false };
    writeResponseHead(kept);
    expect(kept.keepAlive).toBeUndefined();
    expect(writeResponseHead({ status: 200, headers: [['connection', 'upgrade']], body: 0, keepAlive: false, date: false })).toBe(
      'HTTP/1.1 200 OK\r\nconnection: upgrade\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
  });

  // A proxied response (`return fetch(upstream)`) carries the upstream's Connection and
  // Keep-Alive fields: sent on, they told the client the upstream's timeout (30 s) where this
  // server closes after its own, and "keep-alive" beside the server's own close.
  it("drops the caller's Keep-Alive and Connection: keep-alive, and says its own persistence", () => {
    const upstream: [string, string][] = [
      ['connection', 'keep-alive'],
      ['keep-alive', 'timeout=30'],
      ['X-A', 'b'],
    ];
    const base = { status: 200, headers: upstream, body: 0, date: false } as const;
    expect(writeResponseHead({ ...base, keepAliveTimeout: 5 })).toBe(
      'HTTP/1.1 200 OK\r\nX-A: b\r\nKeep-Alive: timeout=5\r\nContent-Length: 0\r\n\r\n',
    );
    expect(writeResponseHead({ ...base, keepAlive: false, keepAliveTimeout: 5 })).toBe(
      'HTTP/1.1 200 OK\r\nX-A: b\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
    // HTTP/1.0 (RFC 9112 §C.2.2): a connection kept alive must say so, or the client closes it.
    expect(writeResponseHead({ ...base, http10: true })).toBe(
      'HTTP/1.1 200 OK\r\nX-A: b\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n',
    );
  });

  it('keeps a Date the caller set, and writes no framing for body "none"', () => {
    const head = writeResponseHead({ status: 304, headers: [['date', 'x']], body: 'none' });
    expect(head).toBe('HTTP/1.1 304 Not Modified\r\ndate: x\r\n\r\n');
  });

  it.each([
    [['X-A', 'b\r\nSet-Cookie: evil'], 'ERR_INVALID_HEADER_VALUE'],
    [['X-A', 'b\nc'], 'ERR_INVALID_HEADER_VALUE'],
    [['X-A', 'b\x00'], 'ERR_INVALID_HEADER_VALUE'],
    [['X-A', 'b\u0100'], 'ERR_INVALID_HEADER_VALUE'],
    [['X A', 'b'], 'ERR_INVALID_HEADER_NAME'],
    [['X-A\r\n', 'b'], 'ERR_INVALID_HEADER_NAME'],
    [['', 'b'], 'ERR_INVALID_HEADER_NAME'],
  ])('rejects header injection: %j', (header, code) => {
    expect(errorCode(() => writeResponseHead({ status: 200, headers: [header as [string, string]], body: 0 }))).toBe(code);
    expect(errorCode(() => lastChunk([header as [string, string]]))).toBe(code);
  });
});
