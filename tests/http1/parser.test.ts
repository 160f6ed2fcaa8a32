import { describe, expect, it } from 'vitest';
import {
  parseRequest,
  parseResponse,
  RequestParser,
  ResponseParser,
  HttpParseError,
  WasmTrapError,
  type MessageHead,
  type RequestHead,
} from '../../src/http1/index.js';
import { HpackEncoder } from '../../src/hpack/index.js';
import { wasmCore } from '../../src/wasm/module.js';
import { bytesCopied, collectedSoon, decode, encode, errorCode, feed } from '../helpers.js';
import { chunksOf, generate, rng } from './corpus.js';

const GET = 'GET /search?q=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n';

describe('requests', () => {
  it('parses the start line and fields in wire order and original case', () => {
    const r = parseRequest(encode(GET));
    expect(r.method).toBe('GET');
    expect(r.url).toBe('/search?q=1');
    expect([r.versionMajor, r.versionMinor]).toEqual([1, 1]);
    expect(r.headers).toEqual([
      ['Host', 'example.com'],
      ['Accept', '*/*'],
    ]);
    expect(r.body.length).toBe(0);
    expect(r.keepAlive).toBe(true);
    expect(r.bytesConsumed).toBe(GET.length);
  });

  it('results stay whole after later calls, failed ones included (the default parser is reused)', () => {
    const first = parseRequest(encode('POST /a HTTP/1.1\r\nX-One: 1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\n'));
    expect(errorCode(() => parseRequest(encode('GET / HTTP/1.1\r\nBad Name: 1\r\n\r\n')))).toBe('ERR_INVALID_HEADER');
    expect(errorCode(() => parseRequest(encode('POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab')))).toBe('ERR_INCOMPLETE');
    const second = parseRequest(encode('GET /b HTTP/1.0\r\nX-Two: 2\r\n\r\n'));
    expect([first.method, first.url, first.headers, decode(first.body), first.trailers, first.keepAlive]).toEqual([
      'POST',
      '/a',
      [
        ['X-One', '1'],
        ['Transfer-Encoding', 'chunked'],
      ],
      'abc',
      [['T', '1']],
      true,
    ]);
    expect([second.method, second.url, second.headers, second.body.length, second.keepAlive]).toEqual([
      'GET',
      '/b',
      [['X-Two', '2']],
      0,
      false,
    ]);
  });

  it('finds fields by name in any case, passing over names of other lengths (get, indexOfField)', () => {
    let head: RequestHead | undefined;
    new RequestParser({ onHead: (h) => (head = h) }).execute(
      encode('GET / HTTP/1.1\r\nHOST: a\r\nX-Host: no\r\nHosts: no\r\nAccept: x\r\nhost: b\r\nHoSt: c\r\nHast: no\r\nhos^: no\r\n\r\n'),
    );
    const r = head!;
    // Read from the bytes first, then (once `headers` made the list) from the list: the same answers.
    for (const from of ['bytes', 'list']) {
      if (from === 'list') expect(r.headers).toHaveLength(8);
      expect(r.indexOfField('host'), from).toBe(0);
      expect(r.indexOfField('host', 1), from).toBe(4);
      expect(r.indexOfField('host', 5), from).toBe(5);
      expect(r.indexOfField('host', 6), from).toBe(-1);
      expect(r.indexOfField('accept'), from).toBe(3);
      expect(r.indexOfField('cookie'), from).toBe(-1);
      // Only A-Z fold: '^' (0x5e, a token char) is not '~' (0x7e), and 'Hast' is not 'host'.
      expect(r.indexOfField('hos~'), from).toBe(-1);
      expect(r.indexOfField('hos^'), from).toBe(7);
      expect(r.indexOfField('hast'), from).toBe(6);
    }
    expect(r.get('Host')).toBe('a, b, c');
    expect(r.get('x-host')).toBe('no');
    expect(r.get('ACCEPT')).toBe('x');
    expect(r.get('hos')).toBeUndefined();
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect([r.headerValueEquals(0, bytes('a')), r.headerValueEquals(0, bytes('b')), r.headerValueEquals(1, bytes('no'))]).toEqual([
      true,
      false,
      true,
    ]);
    expect([r.headerValueEquals(1, bytes('n')), r.headerValueEquals(1, bytes('nO')), r.headerValueEquals(3, bytes(''))]).toEqual([
      false,
      false,
      false,
    ]);
    void r.headers; // from the list now
    expect([r.headerValueEquals(0, bytes('a')), r.headerValueEquals(4, bytes('b')), r.headerValueEquals(4, bytes('c'))]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('gives every method as sent: registered ones, extension methods and other cases alike', () => {
    const methods = [
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'DELETE',
      'OPTIONS',
      'TRACE',
      'PATCH',
      'PROPFIND',
      'get',
      'Post',
      'GETS',
      'GE',
      'M-SEARCH',
    ];
    for (const method of methods) {
      const r = parseRequest(encode(`${method} / HTTP/1.1\r\nHost: a\r\n\r\n`));
      expect([r.method, r.method]).toEqual([method, method]);
    }
    // Read after the parser moved on to another message (the table reused): still this one's.
    let first: RequestHead | undefined;
    new RequestParser({ onHead: (h) => (first ??= h) }).execute(
      encode('PATCH /a HTTP/1.1\r\nHost: a\r\n\r\nDELETE /b HTTP/1.1\r\nHost: a\r\n\r\n'),
    );
    expect(first!.method).toBe('PATCH');
    expect(parseRequest(encode('CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n')).method).toBe('CONNECT');
  });

  it('trims optional whitespace around field values but keeps inner spaces', () => {
    const r = parseRequest(encode('GET / HTTP/1.1\r\nX-A: \t a  b \t\r\nX-Empty:\r\n\r\n'));
    expect(r.headers).toEqual([
      ['X-A', 'a  b'],
      ['X-Empty', ''],
    ]);
  });

  it('decodes field bytes as latin1, byte for byte (0x80-0x9F included)', () => {
    const value = String.fromCharCode(0x80, 0x85, 0x9f, 0xa0, 0xe9, 0xff);
    const r = parseRequest(encode(`GET / HTTP/1.1\r\nX-Bin: ${value}\r\n\r\n`));
    expect(r.headers[0][1]).toBe(value);
  });

  it.each([
    ['HTTP/1.1', '', true],
    ['HTTP/1.1', 'Connection: close\r\n', false],
    ['HTTP/1.1', 'Connection: keep-alive, CLOSE\r\n', false],
    ['HTTP/1.0', '', false],
    ['HTTP/1.0', 'Connection: Keep-Alive\r\n', true],
  ])('keepAlive for %s with %j is %s', (version, field, keepAlive) => {
    expect(parseRequest(encode(`GET / ${version}\r\n${field}\r\n`)).keepAlive).toBe(keepAlive);
  });

  it('reads a Content-Length body and leaves the next message alone', () => {
    const input = 'POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello' + GET;
    const r = parseRequest(encode(input));
    expect(decode(r.body)).toBe('hello');
    expect(r.bytesConsumed).toBe(input.length - GET.length);
    expect(parseRequest(encode(input).subarray(r.bytesConsumed)).url).toBe('/search?q=1');
  });

  it('de-chunks a chunked body with extensions and returns trailers', () => {
    const input =
      'POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '4;name=value;quoted="a \\" b"\r\nWiki\r\n5 ; x\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n';
    const r = parseRequest(encode(input));
    expect(decode(r.body)).toBe('Wikipedia in\r\n\r\nchunks.');
    expect(r.trailers).toEqual([
      ['X-Checksum', 'abc'],
      ['X-Other', '1'],
    ]);
    expect(r.bytesConsumed).toBe(input.length);
  });

  it('accepts "chunked" in any case as the last coding', () => {
    const r = parseRequest(encode('POST / HTTP/1.1\r\nTransfer-Encoding: CHUNKED\r\n\r\n1\r\na\r\n0\r\n\r\n'));
    expect(decode(r.body)).toBe('a');
  });

  it('flags Expect: 100-continue, upgrades and CONNECT', () => {
    expect(parseRequest(encode('PUT / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 0\r\n\r\n')).expectContinue).toBe(true);
    expect(parseRequest(encode(GET)).expectContinue).toBe(false);
    const ws = parseRequest(encode('GET /ws HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'));
    expect(ws.upgrade).toBe(true);
    expect(parseRequest(encode('GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n')).upgrade).toBe(false);
    expect(parseRequest(encode('CONNECT example.com:443 HTTP/1.1\r\n\r\n')).upgrade).toBe(true);
  });

  it('hands the bytes after an upgrade head to the new protocol untouched', () => {
    const { messages, parser } = feed('request', 'GET / HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: h2c\r\n\r\n\x00\x01binary', 7);
    expect(messages).toHaveLength(1);
    expect(parser.upgraded).toBe(true);
    expect(decode(parser.takeUpgradeData())).toBe('\x00\x01binary');
  });

  it.each([
    ['OPTIONS * HTTP/1.1', '*'],
    ['GET http://example.com/a?b HTTP/1.1', 'http://example.com/a?b'],
    ['CONNECT example.com:443 HTTP/1.1', 'example.com:443'],
    ['CONNECT [::1]:8080 HTTP/1.1', '[::1]:8080'],
  ])('accepts the request-target forms of RFC 9112 §3.2: %s', (line, url) => {
    expect(parseRequest(encode(`${line}\r\n\r\n`)).url).toBe(url);
  });

  it('skips empty lines before a request line (RFC 9112 §2.2)', () => {
    expect(parseRequest(encode('\r\n\r\n' + GET)).url).toBe('/search?q=1');
  });
});

describe('heads read later', () => {
  // A head reads the shared wasm result table in place until something else would overwrite it.
  const keepHead = (input: string) => {
    let kept: RequestHead | undefined;
    new RequestParser({ onHead: (head) => (kept = head) }).execute(encode(input));
    return kept!;
  };
  const expectFirst = (head: RequestHead) => {
    expect([head.method, head.url, head.headers]).toEqual([
      'PUT',
      '/first',
      [
        ['X-First', '1'],
        ['Content-Length', '0'],
      ],
    ]);
  };
  const FIRST = 'PUT /first HTTP/1.1\r\nX-First: 1\r\nContent-Length: 0\r\n\r\n';

  it('keep their fields after another parser reuses the table', () => {
    const head = keepHead(FIRST);
    keepHead('GET /second HTTP/1.1\r\nA: b\r\nC: d\r\nE: f\r\n\r\n');
    expectFirst(head);
  });

  it('read as a list before the table is reused, keep every accessor whole (only the fixed words are copied)', () => {
    let kept: RequestHead | undefined;
    new RequestParser({
      onHead: (head) => {
        kept = head;
        expect(head.headers).toHaveLength(2); // the list exists before the detach
      },
    }).execute(encode(FIRST));
    const head = kept!;
    keepHead('GET /second HTTP/1.1\r\nA: b\r\nC: d\r\nE: f\r\nG: h\r\nI: j\r\n\r\n');
    expectFirst(head);
    expect([head.headerCount, head.headerName(1), head.headerValue(0), head.get('content-length'), head.indexOfField('x-first')]).toEqual([
      2,
      'Content-Length',
      '1',
      '0',
      0,
    ]);
    expect([head.keepAlive, head.bodyKind, head.contentLength, head.versionMinor]).toEqual([true, 'length', 0, 1]);
  });

  it('with many fields (copied into a slab), keep each field and the fixed words when read after the table is reused', () => {
    const names = Array.from({ length: 20 }, (_, i) => `X-Field-${i}`);
    const head = keepHead(`POST /many HTTP/1.0\r\nContent-Length: 7\r\n${names.map((n, i) => `${n}: v${i}\r\n`).join('')}\r\n`);
    keepHead(FIRST);
    expect([head.method, head.url, head.headerCount, head.headerName(20), head.headerValue(20), head.headerValue(1)]).toEqual([
      'POST',
      '/many',
      21,
      'X-Field-19',
      'v19',
      'v0',
    ]);
    expect([head.indexOfField('x-field-7'), head.headerValueEquals(8, encode('v7')), head.get('content-length')]).toEqual([8, true, '7']);
    expect([head.keepAlive, head.bodyKind, head.contentLength, head.versionMinor]).toEqual([false, 'length', 7, 0]);
  });

  it('keep their fields after a chunked body reuses the table', () => {
    const head = keepHead(FIRST);
    parseRequest(encode('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'));
    expectFirst(head);
  });

  it('keep their fields after wasm memory grows', () => {
    const head = keepHead(FIRST);
    const big = 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n' + '1;x=y\r\na\r\n'.repeat(400_000) + '0\r\n\r\n';
    expect(parseRequest(encode(big)).body.length).toBe(400_000);
    expectFirst(head);
  });

  it('keep their fields after a trap replaces the instance', () => {
    const head = keepHead(FIRST);
    expect(() => wasmCore().reserve(0xffff_ffff)).toThrow(WasmTrapError);
    expectFirst(head);
  });

  // A head's records are dropped when the table is reused and parsed again from its bytes when read.

  /** Every field as read one by one (not as the list, which would be kept), and lookups. */
  const fieldsOf = (head: MessageHead) => {
    const fields: string[] = [];
    for (let i = 0; i < head.headerCount; i++) fields.push(`${head.headerName(i)}: ${head.headerValue(i)}`);
    const first = head.headerCount ? head.headerName(0).toLowerCase() : 'none';
    return { fields, first: [head.indexOfField(first), head.get(first)], host: head.get('host') };
  };

  it('read after later parses, give what they gave at once: the heads of 600 seeded inputs in random chunks', () => {
    const random = rng(0x5eed_4ead);
    const kept: { head: RequestHead; atOnce: ReturnType<typeof fieldsOf> }[] = [];
    for (const c of generate(random, 600)) {
      const parser = new RequestParser({ onHead: (head) => void kept.push({ head, atOnce: fieldsOf(head) }) });
      try {
        for (const chunk of chunksOf(encode(c.input), c.splits)) parser.execute(chunk);
      } catch {
        // Mutated (and some generated targets) are refused; the heads before the fault stay.
      }
    }
    expect(kept.length).toBeGreaterThan(300);
    // Newest first, so that each read comes after parses of others (the first re-parse drops the next head's records).
    for (const { head, atOnce } of kept.reverse()) expect(fieldsOf(head)).toEqual(atOnce);
    for (const { head, atOnce } of kept) expect(head.headers.map(([n, v]) => `${n}: ${v}`)).toEqual(atOnce.fields);
  });

  it('parsed with lenient options, are parsed again with them (obs-fold, bare LF)', () => {
    let folded: MessageHead | undefined;
    new ResponseParser({ onHead: (head) => (folded = head) }, { allowObsFold: true }).execute(
      encode('HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n'),
    );
    let bare: MessageHead | undefined;
    new RequestParser({ onHead: (head) => (bare = head) }, { allowBareLF: true }).execute(encode('GET / HTTP/1.1\nHost: h\nX-Bare: 1\n\n'));
    const atOnce = [fieldsOf(folded!), fieldsOf(bare!)];
    keepHead(FIRST);
    expect([fieldsOf(folded!), fieldsOf(bare!)]).toEqual(atOnce);
    expect(atOnce[1].fields).toEqual(['Host: h', 'X-Bare: 1']);
  });

  it("read inside another parser's callback, leave that parser's input whole", () => {
    const early = keepHead('GET /early HTTP/1.1\r\nX-A-Much-Longer-Name-Than-Any-Below: with a long value too\r\n\r\n');
    keepHead(FIRST); // drops early's records
    const seen: string[] = [];
    const parser = new RequestParser({
      onHead(head) {
        seen.push(`${head.method} ${head.url} ${head.headerName(0)} ${early.headerValue(0)}`);
      },
      onBody: (chunk) => void seen.push(decode(chunk)),
    });
    parser.execute(encode('POST /a HTTP/1.1\r\nX: 1\r\nContent-Length: 3\r\n\r\nabcGET /b HTTP/1.1\r\nY: 2\r\n\r\n'));
    expect(seen).toEqual(['POST /a X with a long value too', 'abc', 'GET /b Y with a long value too']);
  });

  it('without fields, read after later parses, have none', () => {
    const head = keepHead('GET /none HTTP/1.0\r\n\r\n');
    keepHead(FIRST);
    expect([head.headerCount, head.indexOfField('host'), head.get('host'), head.headers]).toEqual([0, -1, undefined, []]);
  });
});

describe('incremental parsing', () => {
  const pipelined =
    GET +
    'POST /a HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc' +
    'POST /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nxyz\r\n0\r\nT: 1\r\n\r\n' +
    'DELETE /c HTTP/1.0\r\n\r\n';

  it('a callback that uses the wasm core itself (another parser, HPACK) leaves the rest of the input intact', () => {
    const inner = encode('DELETE /a-much-longer-target-than-any-of-the-outer-ones HTTP/1.1\r\nX: y\r\n\r\n');
    const encoder = new HpackEncoder();
    const parse = () => parseRequest(inner);
    const encodeFields = () => encoder.encode([['x-long-enough-to-overwrite', 'the-input-buffer-of-the-outer-parser']]);
    const seen: string[] = [];
    const parser = new RequestParser({
      onHead(head) {
        seen.push(`${head.method} ${head.url}`);
        if (head.url === '/a') encodeFields();
        else parse();
      },
      onBody(chunk) {
        seen.push(decode(chunk));
        encodeFields();
      },
      onTrailers(trailers) {
        seen.push(JSON.stringify(trailers));
        encodeFields();
      },
    });
    parser.execute(encode(pipelined));
    expect(seen).toEqual(['GET /search?q=1', 'POST /a', 'abc', 'POST /b', 'xyz', '[["T","1"]]', 'DELETE /c']);
    encoder.free();
  });

  it('gives the same messages for every chunk size down to one byte', () => {
    const whole = feed('request', pipelined).messages;
    expect(whole.map((m) => m.url)).toEqual(['/search?q=1', '/a', '/b', '/c']);
    expect(whole[2].trailers).toEqual([['T', '1']]);
    for (let step = 1; step < pipelined.length; step++) {
      expect(feed('request', pipelined, step).messages).toEqual(whole);
    }
  });

  it('copies a head and a trailer section that come in many reads a few times over, not once per read', () => {
    // 800 KB in 50 fields (a trailer section takes 64 at most).
    const fields = Array.from({ length: 50 }, (_, i) => `X-Field-${i}: ${'v'.repeat(16_000)}\r\n`).join('');
    const inputs = {
      head: `GET / HTTP/1.1\r\nHost: a\r\n${fields}\r\n`,
      trailers: `POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n${fields}\r\n`,
    };
    for (const [what, text] of Object.entries(inputs)) {
      const input = encode(text);
      let done = 0;
      const parser = new RequestParser({ onHead() {}, onComplete: () => void done++ }, { maxHeadBytes: 1 << 20 });
      // Joins of the reads and loads into wasm memory (each parse of the section loads it again).
      const copied = bytesCopied(() => {
        for (let at = 0; at < input.length; at += 1448) parser.execute(input.subarray(at, at + 1448));
      });
      expect(done, what).toBe(1);
      // Joined to all before it on every read, the 800 KB head was 553 reads copying 241 MB; then
      // parsed again at each line's end (the head: 20 MB of loads) or each read (the trailers: 225 MB).
      expect(copied, what).toBeLessThan(6 * input.length);
    }
  });

  it('lets go of a head that came in pieces once its request is done with (an idle connection holds none of it)', async () => {
    const head = encode(`GET / HTTP/1.1\r\nHost: a\r\nCookie: ${'c'.repeat(16_000)}\r\n\r\n`);
    let joined: WeakRef<ArrayBufferLike> | undefined;
    const parser = new RequestParser({ onHead: (parsed) => void (joined = new WeakRef(parsed.raw.buffer)) });
    parser.execute(head.slice(0, 8000));
    parser.execute(head.slice(8000));
    // The parsed head's bytes are the two pieces joined into one buffer of the parser's.
    expect(joined!.deref()).toBeDefined();
    expect(joined!.deref()!.byteLength).toBeGreaterThan(head.length);
    // The wasm core lends its result table to the last head it parsed (one head in all): another
    // parse takes it back.
    parseRequest(encode(GET));
    expect(await collectedSoon(joined!)).toBe(true);
  });

  it('refuses bytes after a message that closes the connection (RFC 9112 §9.6)', () => {
    for (const first of ['GET / HTTP/1.1\r\nConnection: close\r\n\r\n', 'GET / HTTP/1.0\r\n\r\n']) {
      const parser = new RequestParser({ onHead: () => {} });
      parser.execute(encode(first));
      parser.finish();
      expect(errorCode(() => parser.execute(encode(GET)))).toBe('ERR_DATA_AFTER_CLOSE');
    }
  });

  it('walks 16 pipelined requests in order', () => {
    const input = Array.from({ length: 16 }, (_, i) => `GET /${i} HTTP/1.1\r\nHost: h\r\n\r\n`).join('');
    expect(feed('request', input).messages.map((m) => m.url)).toEqual(Array.from({ length: 16 }, (_, i) => `/${i}`));
  });

  it('pauses after a message and resumes where it stopped', () => {
    const urls: string[] = [];
    const parser: RequestParser = new RequestParser({
      onHead: (head) => urls.push(head.url),
      onComplete: () => parser.pause(),
    });
    parser.execute(encode(GET + GET.replace('/search?q=1', '/two')));
    expect(urls).toEqual(['/search?q=1']);
    expect(parser.isPaused).toBe(true);
    parser.resume();
    expect(urls).toEqual(['/search?q=1', '/two']);
  });

  it('without onBody a body is still skipped as a body, never parsed as requests (smuggling)', () => {
    const inner = 'GET /admin HTTP/1.1\r\nHost: a\r\n\r\n';
    const smuggle = `POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: ${inner.length}\r\n\r\n${inner}`;
    const chunked = `POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${inner.length.toString(16)}\r\n${inner}\r\n0\r\n\r\n`;
    for (const input of [smuggle, chunked]) {
      for (let step = 1; step <= input.length; step++) {
        const urls: string[] = [];
        const parser = new RequestParser({ onHead: (head) => void urls.push(head.url) });
        const bytes = encode(input);
        for (let i = 0; i < bytes.length; i += step) parser.execute(bytes.subarray(i, i + step));
        expect(urls, `step ${step}`).toEqual([input.startsWith('POST /u') ? '/u' : '/c']);
        expect(parser.bytesConsumed).toBe(input.length);
      }
    }
  });

  it('stays failed after an error', () => {
    const parser = new RequestParser({ onHead: () => {} });
    expect(errorCode(() => parser.execute(encode('G@T / HTTP/1.1\r\n\r\n')))).toBe('ERR_INVALID_METHOD');
    expect(errorCode(() => parser.execute(encode(GET)))).toBe('ERR_INVALID_METHOD');
  });

  it('reports a message cut short at the end of input', () => {
    expect(errorCode(() => parseRequest(encode('GET / HTTP/1.1\r\nHost: a\r\n')))).toBe('ERR_INCOMPLETE');
    expect(errorCode(() => parseRequest(encode('POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab')))).toBe('ERR_INCOMPLETE');
    const parser = new RequestParser({ onHead: () => {} });
    parser.execute(encode('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab'));
    expect(errorCode(() => parser.finish())).toBe('ERR_INCOMPLETE');
  });

  it('ends without a message on empty lines where one would start (RFC 9112 §2.2), and not on anything more', () => {
    const ended = (input: string) => {
      const parser = new RequestParser({ onHead: () => {} });
      parser.execute(encode(input));
      return errorCode(() => parser.finish());
    };
    // A client may send an empty line after a body: at the end of input it is no message.
    for (const input of ['', '\r', '\r\n', '\r\n\r\n\r', `${GET}\r\n`, 'POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nab\r\n'])
      expect({ input, finish: ended(input) }).toEqual({ input, finish: 'none' });
    for (const input of ['\r\nG', 'G', `${GET}\r\nGET`])
      expect({ input, finish: ended(input) }).toEqual({ input, finish: 'ERR_INCOMPLETE' });
  });

  it('gives a bad byte that came after its line began its own error at the end of input, as whole input does', () => {
    // Bytes of a line that has not ended are parsed once a line ends (a head dribbled a byte at a
    // time is not parsed again per byte); at the end of input they are parsed once more, so the
    // error is the bad byte's, not ERR_INCOMPLETE.
    for (const [start, rest, code] of [
      ['GET / HTTP/1.1\r\nHost: a\r\n', '\r;x', 'ERR_INVALID_NEWLINE'],
      [`${GET}Y`, 'V(j, x', 'ERR_INVALID_METHOD'],
      ['GET / HTTP/1.1\r\nA', ' (b', 'ERR_INVALID_HEADER'],
    ]) {
      const ended = (...pieces: string[]) => {
        const parser = new RequestParser({ onHead: () => {} });
        return errorCode(() => (pieces.forEach((piece) => parser.execute(encode(piece))), parser.finish()));
      };
      expect({ start, rest, split: ended(start!, rest!), whole: ended(start! + rest!) }).toEqual({ start, rest, split: code, whole: code });
    }
  });

  it('rejects a bad byte in a large head or trailer section in small reads before the section ends (once it has doubled)', () => {
    const good = `X-Pad: ${'p'.repeat(410)}\r\n`.repeat(20); // 8.4 KB
    const sections = {
      ERR_INVALID_HEADER: `GET / HTTP/1.1\r\nHost: a\r\n${good}Bad\x01Name: x\r\n${good}${good}`,
      ERR_INVALID_TRAILER: `POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n${good}Bad\x01Name: x\r\n${good}${good}`,
    };
    for (const [what, text] of Object.entries(sections)) {
      const input = encode(text);
      const parser = new RequestParser({ onHead() {} }, { maxHeadBytes: 1 << 20 });
      let refusedAt = -1;
      for (let at = 0; at < input.length && refusedAt < 0; at += 100) {
        try {
          parser.execute(input.subarray(at, at + 100));
        } catch (error) {
          expect((error as HttpParseError).code).toBe(what);
          refusedAt = at + 100;
        }
      }
      // The bad line ends 8.5 KB in: refused by 17 KB, of 25 KB that never end the section.
      expect(refusedAt, what).toBeGreaterThan(0);
      expect(refusedAt, what).toBeLessThanOrEqual(2 * (text.indexOf('Bad') + 16) + 100);
    }
  });

  it('gives a bad byte in a held trailer section its own error at the end of input', () => {
    const parser = new RequestParser({ onHead() {} });
    const pieces = ['POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nA: 1\r\n', 'B\x01'];
    expect(errorCode(() => (pieces.forEach((piece) => parser.execute(encode(piece))), parser.finish()))).toBe('ERR_INVALID_TRAILER');
  });

  it('rejects a bad byte in a head delivered one byte at a time, before the head ends', () => {
    const parser = new RequestParser({ onHead: () => {} });
    const bytes = encode('GET / HTTP/1.1\r\nBad\x01Name: x\r\n');
    expect(errorCode(() => bytes.forEach((b) => parser.execute(Uint8Array.of(b))))).toBe('ERR_INVALID_HEADER');
  });
});

describe('inputs of the wrong type', () => {
  it('get a TypeError with a code that says what was expected', () => {
    for (const input of ['GET / HTTP/1.1\r\n\r\n', new ArrayBuffer(8), new DataView(new ArrayBuffer(8)), null, undefined, [71, 69, 84]]) {
      for (const parse of [parseRequest, parseResponse]) {
        expect(() => parse(input as unknown as Uint8Array)).toThrow(TypeError);
        expect(errorCode(() => parse(input as unknown as Uint8Array))).toBe('ERR_INVALID_ARG_TYPE');
      }
      expect(errorCode(() => new RequestParser({ onHead() {} }).execute(input as unknown as Uint8Array))).toBe('ERR_INVALID_ARG_TYPE');
    }
    expect(() => parseRequest('GET / HTTP/1.1\r\n\r\n' as unknown as Uint8Array)).toThrow(
      'parseRequest(bytes) must be a Uint8Array, got a string',
    );
    // A Node Buffer is a Uint8Array.
    expect(parseRequest(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n\r\n')).url).toBe('/');
  });

  it('options that are misspelt, of the wrong type or not an object are refused, naming the option', () => {
    const option = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return [(error as { code?: string }).code, (error as { option?: string }).option, (error as Error).message];
      }
      return 'accepted';
    };
    const bytes = encode(GET);
    const response = encode('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    // A misspelt limit was ignored: the default held, unseen.
    expect(option(() => parseRequest(bytes, { maxHeader: 1 } as never))).toEqual([
      'ERR_INVALID_OPTION',
      'maxHeader',
      'the HTTP/1.1 parser has no option "maxHeader" (did you mean "maxHeaders"?)',
    ]);
    expect(option(() => new RequestParser({ onHead() {} }, { requestMethod: 'HEAD' } as never))[1]).toBe('requestMethod');
    expect(option(() => parseRequest(bytes, null as never))).toEqual([
      'ERR_INVALID_OPTION',
      'options',
      'the HTTP/1.1 parser takes an options object, got null',
    ]);
    expect(option(() => parseRequest(bytes, { allowBareLF: 'yes' } as never))[1]).toBe('allowBareLF');
    expect(option(() => parseResponse(response, { requestMethod: 5 } as never))[1]).toBe('requestMethod');
    expect(option(() => parseResponse(response, { requestMetod: 'HEAD' } as never))[2]).toMatch(/did you mean "requestMethod"/);
    expect(option(() => parseResponse(response, 'HEAD' as never))[1]).toBe('options');
    expect(parseResponse(response, { requestMethod: 'HEAD', maxHeaders: 5 }).status).toBe(200);
  });

  it('a parser without onHead is refused when made, not at the first message', () => {
    expect(() => new RequestParser({} as never)).toThrow('a parser needs a handler with an onHead function, got an Object');
    expect(errorCode(() => new RequestParser(undefined as never))).toBe('ERR_INVALID_ARG_TYPE');
    expect(errorCode(() => new RequestParser({ onHead() {}, onBody: 'x' } as never))).toBe('ERR_INVALID_ARG_TYPE');
  });

  it('parse errors say where: the byte, its offset and the field', () => {
    const message = (input: string) => {
      try {
        parseRequest(encode(input));
      } catch (error) {
        return String(error);
      }
      return 'none';
    };
    expect(message('GET / HTTP/1.1\r\nHost: a\r\nX-A: ab\x00c\r\n\r\n')).toBe(
      'HttpParseError [ERR_INVALID_HEADER]: invalid byte 0x00 in the value of "X-A" at offset 32',
    );
    expect(message('GET / HTTP/1.1\r\nHost: a\r\nBad Name: 1\r\n\r\n')).toBe(
      'HttpParseError [ERR_INVALID_HEADER]: invalid byte 0x20 in the field name "Bad Name" at offset 28',
    );
    expect(message('GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n')).toMatch(/a field line without a colon at offset 25: "NoColon"/);
    expect(message('GET / HTTP/1.1\r\nHost: a\nX: 1\r\n\r\n')).toMatch(/ERR_INVALID_NEWLINE.*a bare LF \(no CR before it\) at offset 23/);
    expect(message('G(T / HTTP/1.1\r\nHost: a\r\n\r\n')).toMatch(
      /ERR_INVALID_METHOD.*invalid byte 0x28 in the method at offset 1 of the request line/,
    );
  });

  it('errors print their code and message', () => {
    let error: unknown;
    try {
      parseRequest(encode('GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n'));
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).toMatch(/^HttpParseError \[ERR_INVALID_CONTENT_LENGTH\]/);
  });
});

// The wasm build reads field names and values in 16-byte vector blocks: a fault must be found in
// every lane of a block, in the tail after the last whole block, and across block borders.
describe('field lines read 16 bytes at a time', () => {
  const LENGTHS = Array.from({ length: 40 }, (_, i) => i + 1);
  const head = (line: string) => encode(`GET / HTTP/1.1\r\nHost: a\r\n${line}\r\nAccept: */*\r\n\r\n`);

  it('finds a byte that may not be in a value at every position', () => {
    const faults: [string, string][] = [
      ['\x00', 'ERR_INVALID_HEADER'],
      ['\x1f', 'ERR_INVALID_HEADER'],
      ['\x7f', 'ERR_INVALID_HEADER'],
      ['\rx', 'ERR_INVALID_HEADER'],
      ['\n', 'ERR_INVALID_NEWLINE'],
    ];
    for (const length of LENGTHS) {
      for (let at = 1; at < length; at++) {
        for (const [fault, code] of faults) {
          const value = 'v'.repeat(at) + fault + 'v'.repeat(length - at);
          expect([length, at, fault, errorCode(() => parseRequest(head(`X-Value: ${value}`)))]).toEqual([length, at, fault, code]);
        }
      }
    }
  });

  it('finds a byte that may not be in a name at every position', () => {
    for (const length of LENGTHS) {
      for (let at = 0; at < length; at++) {
        for (const fault of [' ', '"', '(', '@', '{', '\x7f', '\xe9', '\t']) {
          const name = 'n'.repeat(at) + fault + 'n'.repeat(length - at);
          expect([length, at, fault, errorCode(() => parseRequest(head(`${name}: value`)))]).toEqual([
            length,
            at,
            fault,
            'ERR_INVALID_HEADER',
          ]);
        }
      }
    }
  });

  it('takes every byte a value may hold and every tchar, in names and values of any length', () => {
    const valueBytes = [
      '\t',
      ...Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i)),
      ...Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(0x80 + i)),
    ];
    const tchars = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (let shift = 0; shift < 16; shift++) {
      // Values neither start nor end with whitespace (it is trimmed), so frame them with 'x'.
      const value = 'x' + valueBytes.slice(shift).join('') + valueBytes.slice(0, shift).join('') + 'x';
      const name = tchars.slice(shift) + tchars.slice(0, shift);
      const r = parseRequest(head(`${name}: ${value}`));
      expect(r.headers[1]).toEqual([name, value]);
    }
  });
});

describe('strict rejections', () => {
  const cases: [string, string][] = [
    ['GET / HTTP/1.1\nHost: a\r\n\r\n', 'ERR_INVALID_NEWLINE'],
    ['GET / HTTP/1.1\r\nHost: a\n\r\n', 'ERR_INVALID_NEWLINE'],
    ['GET / HTTP/1.1\r\nHost: a\r\n\n', 'ERR_INVALID_NEWLINE'],
    ['\nGET / HTTP/1.1\r\n\r\n', 'ERR_INVALID_NEWLINE'],
    ['GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n', 'ERR_INVALID_HEADER'],
    ['GET / HTTP/1.1\r\nHost: a\x00\r\n\r\n', 'ERR_INVALID_HEADER'],
    ['GET / HTTP/1.1\r\nHost : a\r\n\r\n', 'ERR_INVALID_HEADER'],
    ['GET / HTTP/1.1\r\nHo(st: a\r\n\r\n', 'ERR_INVALID_HEADER'],
    ['GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n', 'ERR_INVALID_HEADER'],
    ['GET / HTTP/1.1\r\n Host: a\r\n\r\n', 'ERR_INVALID_HEADER'],
    ['GET / HTTP/1.1\r\n: empty-name\r\n\r\n', 'ERR_INVALID_HEADER'],
    ['G(T / HTTP/1.1\r\n\r\n', 'ERR_INVALID_METHOD'],
    [' GET / HTTP/1.1\r\n\r\n', 'ERR_INVALID_METHOD'],
    ['GET /a\x7f HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET /\xe9 HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    // A URL parser would read `\` as `/` (path confusion): refused.
    ['GET /x\\..\\admin HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET http://a/x\\y HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    // RFC 9112 §3.2: no fragment in a target (a URL parser would cut it off).
    ['GET /admin/delete#x HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET /search?q=#tag HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET http://a/b#c HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET /a b HTTP/1.1\r\n\r\n', 'ERR_INVALID_VERSION'],
    ['GET %2F/a HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET * HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET 1http://a/ HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['CONNECT /path HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['CONNECT example.com HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET  / HTTP/1.1\r\n\r\n', 'ERR_INVALID_TARGET'],
    ['GET / HTTP/1.1 \r\n\r\n', 'ERR_INVALID_NEWLINE'],
    ['GET / http/1.1\r\n\r\n', 'ERR_INVALID_VERSION'],
    ['GET / HTTP/1.x\r\n\r\n', 'ERR_INVALID_VERSION'],
    ['GET / HTTP/2.0\r\n\r\n', 'ERR_UNSUPPORTED_VERSION'],
    ['GET / HTTP/1.2\r\n\r\n', 'ERR_UNSUPPORTED_VERSION'],
    ['GET / HTTP/0.9\r\n\r\n', 'ERR_UNSUPPORTED_VERSION'],
    ['POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 1,2\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 1 2\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length:\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 9007199254740992\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n', 'ERR_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', 'ERR_CL_TE_CONFLICT'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n', 'ERR_CL_TE_CONFLICT'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n', 'ERR_INVALID_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n', 'ERR_INVALID_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n', 'ERR_INVALID_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n', 'ERR_INVALID_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding:\r\n\r\n', 'ERR_INVALID_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chu nked\r\n\r\n', 'ERR_INVALID_TRANSFER_ENCODING'],
    ['POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n', 'ERR_INVALID_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n', 'ERR_UNSUPPORTED_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: foo\r\nTransfer-Encoding: chunked\r\n\r\n', 'ERR_UNSUPPORTED_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nz\r\n', 'ERR_INVALID_CHUNK_SIZE'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\r\n', 'ERR_INVALID_CHUNK_SIZE'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n', 'ERR_INVALID_CHUNK_SIZE'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n 1\r\n', 'ERR_INVALID_CHUNK_SIZE'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n', 'ERR_INVALID_CHUNK_SIZE'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\na\r\n0\r\n\r\n', 'ERR_INVALID_NEWLINE'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n', 'ERR_INVALID_CHUNK_DATA'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\n0\r\n\r\n', 'ERR_INVALID_CHUNK_DATA'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;\r\na\r\n', 'ERR_INVALID_CHUNK_EXTENSION'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;a=\r\na\r\n', 'ERR_INVALID_CHUNK_EXTENSION'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;a="b\r\na\r\n', 'ERR_INVALID_CHUNK_EXTENSION'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;a\x00\r\na\r\n', 'ERR_INVALID_CHUNK_EXTENSION'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad Name: x\r\n\r\n', 'ERR_INVALID_TRAILER'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nA: b\n\r\n', 'ERR_INVALID_NEWLINE'],
  ];

  it.each(cases)('%j → %s', (input, code) => {
    expect(errorCode(() => parseRequest(encode(input)))).toBe(code);
    // The same verdict when the bytes arrive one at a time.
    expect(errorCode(() => feed('request', input, 1))).toBe(code);
  });

  it('throws HttpParseError instances with a message', () => {
    try {
      parseRequest(encode('GET / HTTP/2.0\r\n\r\n'));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpParseError);
      expect((error as Error).message).toMatch(/UNSUPPORTED_VERSION/);
    }
  });
});

describe('limits: accepted at the limit, rejected one past it', () => {
  it('maxHeadBytes', () => {
    const head = (n: number) => {
      const base = 'GET / HTTP/1.1\r\nX: \r\n\r\n';
      return base.replace('X: ', 'X: ' + 'a'.repeat(n - base.length));
    };
    expect(head(100).length).toBe(100);
    expect(parseRequest(encode(head(100)), { maxHeadBytes: 100 }).url).toBe('/');
    expect(errorCode(() => parseRequest(encode(head(101)), { maxHeadBytes: 100 }))).toBe('ERR_HEADER_TOO_LARGE');
    // An incomplete head past the limit fails without waiting for its end.
    expect(errorCode(() => feed('request', head(400).slice(0, 200), 10, { maxHeadBytes: 100 }))).toBe('ERR_HEADER_TOO_LARGE');
    // The default is Node's 16 KiB.
    expect(parseRequest(encode(head(16384))).url).toBe('/');
    expect(errorCode(() => parseRequest(encode(head(16385))))).toBe('ERR_HEADER_TOO_LARGE');
  });

  it('maxHeaders', () => {
    const fields = (n: number) => `GET / HTTP/1.1\r\n${'A: b\r\n'.repeat(n)}\r\n`;
    expect(parseRequest(encode(fields(100))).headers).toHaveLength(100);
    expect(errorCode(() => parseRequest(encode(fields(101))))).toBe('ERR_TOO_MANY_HEADERS');
    expect(parseRequest(encode(fields(3)), { maxHeaders: 3 }).headers).toHaveLength(3);
    expect(errorCode(() => parseRequest(encode(fields(4)), { maxHeaders: 3 }))).toBe('ERR_TOO_MANY_HEADERS');
    expect(() => new RequestParser({ onHead: () => {} }, { maxHeaders: 1025 })).toThrow(RangeError);
  });

  it('maxTargetBytes (414) and a request line that never ends', () => {
    const target = (n: number) => `GET /${'a'.repeat(n - 1)} HTTP/1.1\r\n\r\n`;
    expect(parseRequest(encode(target(50)), { maxTargetBytes: 50 }).url).toHaveLength(50);
    expect(errorCode(() => parseRequest(encode(target(51)), { maxTargetBytes: 50 }))).toBe('ERR_URI_TOO_LONG');
    const endless = 'GET /' + 'a'.repeat(20_000);
    expect(errorCode(() => feed('request', endless, 1000))).toBe('ERR_URI_TOO_LONG');
  });

  it('maxChunkExtensionBytes', () => {
    const body = (n: number) => `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;${'e'.repeat(n - 1)}\r\na\r\n0\r\n\r\n`;
    expect(decode(parseRequest(encode(body(8)), { maxChunkExtensionBytes: 8 }).body)).toBe('a');
    expect(errorCode(() => parseRequest(encode(body(9)), { maxChunkExtensionBytes: 8 }))).toBe('ERR_CHUNK_EXTENSION_TOO_LARGE');
  });

  it('maxBodyBytes for Content-Length and chunked bodies', () => {
    const cl = (n: number) => `POST / HTTP/1.1\r\nContent-Length: ${n}\r\n\r\n${'x'.repeat(n)}`;
    expect(parseRequest(encode(cl(10)), { maxBodyBytes: 10 }).body).toHaveLength(10);
    expect(errorCode(() => parseRequest(encode(cl(11)), { maxBodyBytes: 10 }))).toBe('ERR_BODY_TOO_LARGE');
    const chunked = (n: number) =>
      `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${n.toString(16)}\r\n${'x'.repeat(n)}\r\n0\r\n\r\n`;
    expect(parseRequest(encode(chunked(10)), { maxBodyBytes: 10 }).body).toHaveLength(10);
    expect(errorCode(() => parseRequest(encode(chunked(11)), { maxBodyBytes: 10 }))).toBe('ERR_BODY_TOO_LARGE');
  });

  it('maxBodyBytes holds for chunked bodies however the input is split (chunk data in a later read than its size line)', () => {
    const max = 64;
    const over = `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${(max + 1).toString(16)}\r\n${'x'.repeat(max + 1)}\r\n0\r\n\r\n`;
    const split = `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n${'x'.repeat(32)}\r\n21\r\n${'y'.repeat(33)}\r\n0\r\n\r\n`;
    const exact = `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n${'x'.repeat(32)}\r\n20\r\n${'y'.repeat(32)}\r\n0\r\n\r\n`;
    for (let step = 1; step <= over.length; step++) {
      expect(
        errorCode(() => feed('request', over, step, { maxBodyBytes: max })),
        `step ${step}`,
      ).toBe('ERR_BODY_TOO_LARGE');
      expect(
        errorCode(() => feed('request', split, step, { maxBodyBytes: max })),
        `step ${step}`,
      ).toBe('ERR_BODY_TOO_LARGE');
      expect(feed('request', exact, step, { maxBodyBytes: max }).messages[0].body).toHaveLength(max);
    }
  });

  it('a chunk over maxBodyBytes is refused at its size line, before its data arrives', () => {
    const bodies: number[] = [];
    const parser = new RequestParser({ onHead() {}, onBody: (chunk) => void bodies.push(chunk.length) }, { maxBodyBytes: 1024 * 1024 });
    const head = encode('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n');
    parser.execute(head);
    expect(errorCode(() => parser.execute(encode('200000\r\n')))).toBe('ERR_BODY_TOO_LARGE');
    expect(bodies).toEqual([]);
  });

  it('a trailer section is bounded by maxHeadBytes', () => {
    const input = `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: ${'v'.repeat(200)}\r\n\r\n`;
    expect(errorCode(() => parseRequest(encode(input), { maxHeadBytes: 100 }))).toBe('ERR_HEADER_TOO_LARGE');
  });

  it('a trailer section is bounded by maxHeaders as the head is, however the input is split (and by 64 fields)', () => {
    const withTrailers = (count: number) =>
      encode(`POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n${'T: 1\r\n'.repeat(count)}\r\n`);
    expect(parseRequest(withTrailers(3), { maxHeaders: 3 }).trailers).toHaveLength(3);
    const over = withTrailers(4);
    for (let split = 1; split < over.length; split++) {
      const parser = new RequestParser({ onHead() {} }, { maxHeaders: 3 });
      expect(errorCode(() => [over.subarray(0, split), over.subarray(split)].forEach((part) => parser.execute(part)))).toBe(
        'ERR_TOO_MANY_HEADERS',
      );
    }
    expect(parseRequest(withTrailers(64), { maxHeaders: 200 }).trailers).toHaveLength(64);
    expect(errorCode(() => parseRequest(withTrailers(65), { maxHeaders: 200 }))).toBe('ERR_TOO_MANY_HEADERS');
  });
});

describe('lenient options', () => {
  it('allowBareLF accepts LF-only lines in heads and chunked framing', () => {
    const input = 'POST / HTTP/1.1\nTransfer-Encoding: chunked\n\n1\na\n0\n\n';
    expect(errorCode(() => parseRequest(encode(input)))).toBe('ERR_INVALID_NEWLINE');
    expect(decode(parseRequest(encode(input), { allowBareLF: true }).body)).toBe('a');
  });

  it('allowObsFold accepts folded fields in responses only', () => {
    const input = 'HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 0\r\n\r\n';
    expect(errorCode(() => parseResponse(encode(input)))).toBe('ERR_INVALID_HEADER');
    expect(parseResponse(encode(input), { allowObsFold: true }).headers[0][0]).toBe('X');
  });
});

describe('responses', () => {
  it('results stay whole after later calls, failed ones included, and each call has its own request method (the default parser is reused)', () => {
    const first = parseResponse(encode('HTTP/1.1 200 OK\r\nX-One: 1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\n'));
    expect(errorCode(() => parseResponse(encode('HTTP/1.1 200 OK\r\nBad Name: 1\r\n\r\n')))).toBe('ERR_INVALID_HEADER');
    // Answering HEAD, a Content-Length frames no body: the rest is not this response's.
    const head = parseResponse(encode('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n'), { requestMethod: 'HEAD' });
    const second = parseResponse(encode('HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnope'));
    expect([first.status, first.headers, decode(first.body), first.trailers]).toEqual([
      200,
      [
        ['X-One', '1'],
        ['Transfer-Encoding', 'chunked'],
      ],
      'abc',
      [['T', '1']],
    ]);
    expect([head.body.length, head.bytesConsumed]).toEqual([0, 39]);
    expect([second.status, second.reason, decode(second.body)]).toEqual([404, 'Not Found', 'nope']);
  });

  it('parses status, reason and a Content-Length body', () => {
    const r = parseResponse(encode('HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnope'));
    expect([r.status, r.reason, decode(r.body), r.keepAlive]).toEqual([404, 'Not Found', 'nope', true]);
  });

  it('accepts an empty reason phrase', () => {
    expect(parseResponse(encode('HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n')).reason).toBe('');
    expect(parseResponse(encode('HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n')).status).toBe(200);
  });

  it('accepts obs-text in a reason phrase (RFC 9112 §4), whole or split, and refuses a control character', () => {
    const input = Buffer.from('HTTP/1.1 200 caf\xe9 cr\xe8me\r\nContent-Length: 2\r\n\r\nok', 'latin1');
    const whole = parseResponse(input);
    expect([whole.status, whole.reason, decode(whole.body)]).toEqual([200, 'caf\xe9 cr\xe8me', 'ok']);
    for (let cut = 1; cut < input.length; cut++) {
      const seen: string[] = [];
      const parser = new ResponseParser({ onHead: (head) => seen.push(head.reason) });
      parser.execute(input.subarray(0, cut));
      parser.execute(input.subarray(cut));
      expect(seen, `cut at ${cut}`).toEqual(['caf\xe9 cr\xe8me']);
    }
    expect(parseResponse(Buffer.from('HTTP/1.1 200 \xe9\r\n\r\n', 'latin1'), { requestMethod: 'HEAD' }).reason).toBe('\xe9');
    expect(errorCode(() => parseResponse(encode('HTTP/1.1 200 a\x01b\r\n\r\n')))).toBe('ERR_INVALID_STATUS');
  });

  it('reads until close when there is no framing, and keepAlive is then false', () => {
    const r = parseResponse(encode('HTTP/1.1 200 OK\r\n\r\nall the rest'));
    expect([decode(r.body), r.keepAlive]).toEqual(['all the rest', false]);
  });

  it('has no body for HEAD, 1xx, 204 and 304 whatever the fields say', () => {
    expect(parseResponse(encode('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n'), { requestMethod: 'HEAD' }).body).toHaveLength(0);
    for (const status of [204, 304]) {
      const r = parseResponse(encode(`HTTP/1.1 ${status} X\r\nContent-Length: 10\r\n\r\n`));
      expect(r.body).toHaveLength(0);
    }
    const { messages } = feed(
      'response',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
    );
    expect(messages.map((m) => [m.status, m.body])).toEqual([
      [100, ''],
      [103, ''],
      [200, 'ok'],
    ]);
  });

  it('a 2xx answer to CONNECT and a 101 switch protocols', () => {
    expect(parseResponse(encode('HTTP/1.1 200 OK\r\n\r\n'), { requestMethod: 'CONNECT' }).upgrade).toBe(true);
    expect(parseResponse(encode('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n')).upgrade).toBe(
      true,
    );
  });

  it('chunked only when chunked is the last coding; else until close (RFC 9112 §6.3)', () => {
    const chunked = parseResponse(encode('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nzz\r\n0\r\n\r\n'));
    expect(decode(chunked.body)).toBe('zz');
    const close = parseResponse(encode('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nraw'));
    expect([decode(close.body), close.keepAlive]).toEqual(['raw', false]);
  });

  it('chunked twice is an error where the body is framed by it, not a read until close (RFC 9112 §7)', () => {
    for (const te of ['Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked', 'Transfer-Encoding: chunked, gzip, chunked'])
      expect(errorCode(() => parseResponse(encode(`HTTP/1.1 200 OK\r\n${te}\r\n\r\n0\r\n\r\n`)))).toBe('ERR_INVALID_TRANSFER_ENCODING');
    // A response without a body has no framing to doubt.
    const head = parseResponse(encode('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n'), { requestMethod: 'HEAD' });
    expect([head.status, head.keepAlive]).toEqual([200, true]);
  });

  it.each([
    ['HTTP/1.1 20 OK\r\n\r\n', 'ERR_INVALID_STATUS'],
    ['HTTP/1.1 099 Low\r\n\r\n', 'ERR_INVALID_STATUS'],
    ['HTTP/1.1 2000 OK\r\n\r\n', 'ERR_INVALID_STATUS'],
    ['HTTP/3.0 200 OK\r\n\r\n', 'ERR_UNSUPPORTED_VERSION'],
    ['HTTX/1.1 200 OK\r\n\r\n', 'ERR_INVALID_VERSION'],
    ['HTTP/1.1 200 OK\nA: b\r\n\r\n', 'ERR_INVALID_NEWLINE'],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n', 'ERR_CL_TE_CONFLICT'],
  ])('%j → %s', (input, code) => {
    expect(errorCode(() => parseResponse(encode(input)))).toBe(code);
  });
});
