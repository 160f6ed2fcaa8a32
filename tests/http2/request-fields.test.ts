// Request header lists checked as RFC 9113 §8.2–§8.3 require; every malformed one is a stream
// error PROTOCOL_ERROR on its own stream.
import { describe, expect, it } from 'vitest';
import { StreamError } from '../../src/http2/errors.js';
import { requestFields, trailerFields, type FieldList } from '../../src/http2/request-fields.js';

const base: FieldList = [
  [':method', 'GET'],
  [':scheme', 'https'],
  [':authority', 'example.com'],
  [':path', '/a?b=1'],
];

describe('request fields (§8.3)', () => {
  it('takes the pseudo-headers and keeps regular fields, joining cookie crumbs (§8.2.3)', () => {
    const fields = requestFields(1, [...base, ['accept', '*/*'], ['cookie', 'a=1'], ['content-length', '3'], ['cookie', 'b=2']]);
    expect(fields).toEqual({
      method: 'GET',
      scheme: 'https',
      authority: 'example.com',
      path: '/a?b=1',
      headers: [
        ['accept', '*/*'],
        ['content-length', '3'],
        ['cookie', 'a=1; b=2'],
      ],
      contentLength: 3,
      protocol: null,
    });
  });

  it('takes an extended CONNECT (RFC 8441 §4) and refuses :protocol elsewhere or without :authority', () => {
    const connect: [string, string][] = [
      [':method', 'CONNECT'],
      [':protocol', 'websocket'],
      [':scheme', 'https'],
      [':path', '/chat'],
      [':authority', 'example.com'],
    ];
    expect(requestFields(1, connect)).toMatchObject({ method: 'CONNECT', protocol: 'websocket', path: '/chat', authority: 'example.com' });
    expect(() => requestFields(1, [...base, [':protocol', 'websocket']])).toThrow(/:protocol on GET/);
    expect(() =>
      requestFields(
        1,
        connect.filter(([name]) => name !== ':authority'),
      ),
    ).toThrow(/without :authority/);
    expect(() =>
      requestFields(
        1,
        connect.filter(([name]) => name !== ':path'),
      ),
    ).toThrow(/no :path/);
  });

  it('falls back to Host without :authority; OPTIONS * and CONNECT have their own forms', () => {
    expect(
      requestFields(1, [
        [':method', 'GET'],
        [':scheme', 'http'],
        [':path', '/'],
        ['host', 'h.test'],
      ]).authority,
    ).toBe('h.test');
    expect(
      requestFields(1, [
        [':method', 'OPTIONS'],
        [':scheme', 'https'],
        [':path', '*'],
      ]).path,
    ).toBe('*');
    expect(
      requestFields(1, [
        [':method', 'CONNECT'],
        [':authority', 'h.test:443'],
      ]),
    ).toMatchObject({ method: 'CONNECT', path: '', authority: 'h.test:443' });
  });

  const malformed: [string, FieldList][] = [
    ['no :method', base.filter(([n]) => n !== ':method')],
    ['no :scheme', base.filter(([n]) => n !== ':scheme')],
    ['no :path', base.filter(([n]) => n !== ':path')],
    ['an empty :path', [...base.slice(0, 3), [':path', '']]],
    ['a :path not in origin form', [...base.slice(0, 3), [':path', 'a/b']]],
    ['* for GET', [...base.slice(0, 3), [':path', '*']]],
    // What the HTTP/1.1 parser refuses in a target: a backslash (a URL parser reads it as '/'),
    // a space, non-ASCII.
    ['a backslash in :path', [...base.slice(0, 3), [':path', '/x\\..\\admin']]],
    ['a fragment in :path', [...base.slice(0, 3), [':path', '/admin/delete#x']]],
    ['a fragment after a query in :path', [...base.slice(0, 3), [':path', '/search?q=#tag']]],
    ['a space in :path', [...base.slice(0, 3), [':path', '/a b']]],
    ['non-ASCII in :path', [...base.slice(0, 3), [':path', '/caf\u00e9']]],
    ['an unknown pseudo-header', [...base, [':protocol', 'x']]],
    [':status in a request', [...base, [':status', '200']]],
    ['a pseudo-header twice', [...base, [':path', '/again']]],
    ['a pseudo-header after a regular field', [base[0], base[1], ['accept', '*/*'], base[2], base[3]]],
    ['an uppercase name (§8.2.1)', [...base, ['Accept', '*/*']]],
    ['a space in a name', [...base, ['x y', '1']]],
    ['a colon in a name (§8.2.1)', [...base, ['x:y', '1']]],
    ['a name that is no token (RFC 9110 §5.1)', [...base, ['x(y)', '1']]],
    ['a CR LF in a value', [...base, ['x', 'a\r\nb']]],
    ['a control character in a value (RFC 9110 §5.5)', [...base, ['x', 'a\x01b']]],
    ['DEL in a value', [...base, ['x', 'a\x7fb']]],
    ['a :method that is no token (RFC 9110 §9.1)', [[':method', 'G(T'], ...base.slice(1)]],
    ['an empty :method', [[':method', ''], ...base.slice(1)]],
    ['a :scheme that is no scheme (RFC 3986 §3.1)', [base[0], [':scheme', 'ht tp'], ...base.slice(2)]],
    ['a :path not in origin form for another scheme', [base[0], [':scheme', 'foo'], base[2], [':path', 'a/b']]],
    ['two Host fields', [...base.slice(0, 2), base[3], ['host', 'a.test'], ['host', 'b.test']]],
    ['a value with leading space', [...base, ['x', ' a']]],
    ['connection (§8.2.2)', [...base, ['connection', 'keep-alive']]],
    ['transfer-encoding', [...base, ['transfer-encoding', 'chunked']]],
    ['upgrade', [...base, ['upgrade', 'websocket']]],
    ['keep-alive', [...base, ['keep-alive', '5']]],
    ['te other than trailers', [...base, ['te', 'gzip']]],
    ['two different content-lengths', [...base, ['content-length', '1'], ['content-length', '2']]],
    ['a content-length that is not a number', [...base, ['content-length', '1e3']]],
    ['a Host naming another entity', [...base, ['host', 'other.test']]],
    [
      'CONNECT with a :path',
      [
        [':method', 'CONNECT'],
        [':authority', 'h:1'],
        [':path', '/'],
      ],
    ],
    ['CONNECT without :authority', [[':method', 'CONNECT']]],
  ];
  it.each(malformed)('refuses %s with a stream error PROTOCOL_ERROR', (_, list) => {
    let error: unknown;
    try {
      requestFields(7, list);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamError);
    expect(error).toMatchObject({ streamId: 7, code: 'PROTOCOL_ERROR' });
  });

  it('accepts a tab and obs-text inside a value, a method of any case, and any scheme', () => {
    const fields = requestFields(1, [[':method', 'get'], [':scheme', 'a+b.c-d'], base[2], base[3], ['x', 'a\tb\xe9\xff']]);
    expect(fields).toMatchObject({ method: 'get', scheme: 'a+b.c-d', headers: [['x', 'a\tb\xe9\xff']] });
  });

  it('accepts te: trailers and repeated equal content-lengths', () => {
    expect(requestFields(1, [...base, ['te', 'trailers'], ['content-length', '5'], ['content-length', '5']]).contentLength).toBe(5);
  });

  it('trailers carry no pseudo-headers (§8.1)', () => {
    expect(trailerFields(3, [['x-checksum', 'abc']])).toEqual([['x-checksum', 'abc']]);
    expect(() => trailerFields(3, [[':path', '/']])).toThrow(StreamError);
  });

  it('trailers follow the rules of every field section: no connection-specific field, TE only "trailers" (§8.2.2)', () => {
    for (const field of [
      ['connection', 'close'],
      ['keep-alive', '5'],
      ['transfer-encoding', 'chunked'],
      ['upgrade', 'h2c'],
      ['te', 'gzip'],
      ['x(y)', '1'],
      ['x', 'a\x01b'],
    ] as [string, string][])
      expect(() => trailerFields(3, [field]), field[0]).toThrow(StreamError);
    expect(trailerFields(3, [['te', 'trailers']])).toEqual([['te', 'trailers']]);
  });
});
