import { describe, expect, it } from 'vitest';
import { Router, RouterError } from '../../src/router/index.js';
import { errorCode } from '../helpers.js';
import { CASES, type RouterUnderTest } from './cases.js';

/** The implementations we keep. (A wasm router was measured and dropped: see docs/architecture.md.) */
const IMPLEMENTATIONS: Record<string, (options: (typeof CASES)[number]['options']) => RouterUnderTest> = {
  wirespeed: (options) => {
    const router = new Router<string>(options);
    return {
      add: (method, pattern, value) => router.add(method, pattern, value),
      lookup(method, path) {
        const r = router.lookup(method, path);
        if (r.status === 'found') return { value: r.value, params: { ...r.params } };
        if (r.status === 'method-not-allowed') return { allowed: r.allowed };
        return null;
      },
    };
  },
};

for (const [name, make] of Object.entries(IMPLEMENTATIONS)) {
  describe(`router: ${name}`, () => {
    for (const c of CASES) {
      it(c.name, () => {
        const router = make(c.options);
        for (const [method, pattern] of c.routes) router.add(method, pattern, `${method} ${pattern}`);
        for (const [method, path, expected] of c.expect) {
          const got = router.lookup(method, path);
          const want =
            expected && typeof expected === 'object' && 'route' in expected ? { value: expected.route, params: expected.params } : expected;
          expect(got, `${method} ${path}`).toEqual(want);
        }
      });
    }
  });
}

describe('router: registration errors', () => {
  it.each([['users'], ['/a/*/b'], ['/a/b*'], ['/a/:'], ['/a/:x:y'], ['/a/:x/:x'], ['/a/:1x']])('%s is an invalid pattern', (pattern) => {
    expect(errorCode(() => new Router().add('GET', pattern, 1))).toBe('ERR_INVALID_PATTERN');
  });

  it.each([
    ['/a/:id(\\d+)', /param constraints like ":id\(…\)" are not supported/],
    ['/a/:id?', /optional params like ":id\?" are not supported/],
    ['/a?b=1', /query string, so "\?" never matches/],
    ['/a b', /byte 0x20 is never in a request path.*%20/],
    ['/café', /"é" is never in a request path.*%C3%A9/],
    ['/a/%zz', /percent-encoded byte/],
    ['/a/x:id|y', /"\|" is never in a request path/],
    [42, /a pattern must be a string, got number/],
  ])('%s can never match a request path: ERR_INVALID_PATTERN says why', (pattern, reason) => {
    const error = (() => {
      try {
        new Router().add('GET', pattern as string, 1);
      } catch (e) {
        return e as RouterError;
      }
    })();
    expect(error).toBeInstanceOf(RouterError);
    expect(error!.code).toBe('ERR_INVALID_PATTERN');
    expect(error!.message).toMatch(reason);
  });

  it('accepts every character a path may hold (RFC 3986 pchar), percent-encoded bytes included', () => {
    const router = new Router<number>().add('GET', "/a-b.c_d~e/!$&'()+,;=@/caf%C3%A9/v:version", 1);
    expect(router.find('GET', "/a-b.c_d~e/!$&'()+,;=@/caf%C3%A9/v2")).toEqual({ value: 1, params: { version: '2' } });
  });

  it('methods are case-sensitive tokens in add as in find; a lower-case standard method is refused with a hint', () => {
    expect(errorCode(() => new Router().add('get', '/x', 1))).toBe('ERR_INVALID_METHOD');
    expect(() => new Router().add('get', '/x', 1)).toThrow('methods are case-sensitive (RFC 9110 §9.1): "get" is not "GET"; write "GET"');
    expect(errorCode(() => new Router().add('G ET', '/x', 1))).toBe('ERR_INVALID_METHOD');
    expect(errorCode(() => new Router().add(7 as unknown as string, '/x', 1))).toBe('ERR_INVALID_METHOD');
    // An extension method is a token like any other, matched exactly.
    const router = new Router<number>().add('PURGE', '/cache', 1);
    expect(router.find('PURGE', '/cache')?.value).toBe(1);
    expect(router.find('purge', '/cache')).toBeNull();
  });

  it('the same method and pattern twice is a conflict; the same pattern for another method is not', () => {
    const router = new Router<number>().add('GET', '/users/:id', 1).add('POST', '/users/:id', 2);
    expect(errorCode(() => router.add('GET', '/users/:id', 3))).toBe('ERR_ROUTE_CONFLICT');
    expect(errorCode(() => router.add('GET', '/static', 1).add('GET', '/static', 2))).toBe('ERR_ROUTE_CONFLICT');
  });

  it('malformed percent-encoding in a param is an error, not a silent wrong value', () => {
    const router = new Router<number>().add('GET', '/users/:name', 1);
    expect(() => router.find('GET', '/users/%E0%A4%A')).toThrow(RouterError);
    expect(errorCode(() => router.find('GET', '/users/%zz'))).toBe('ERR_INVALID_PERCENT_ENCODING');
  });
});

describe('router: client input', () => {
  it('a path or method put on Object.prototype (pollution elsewhere in an app) is no route', () => {
    // '/z' has the length of a static route, so the lookup is not skipped by length.
    const router = new Router<number>().add('GET', '/a', 1).add('GET', '/b/:id', 2);
    const proto = Object.prototype as Record<string, unknown>;
    try {
      proto['/z'] = { value: 666, params: {}, match: { value: 666, params: {} }, method: 'GET' };
      proto['POST'] = { static: {}, root: null };
      expect(router.find('GET', '/z')).toBeNull();
      expect(router.find('POST', '/a')).toBeNull();
      expect(router.lookup('GET', '/z')).toEqual({ status: 'not-found' });
    } finally {
      delete proto['/z'];
      delete proto['POST'];
    }
  });
});

describe('router: static paths filtered by length', () => {
  it('paths whose lengths share a filter bit, and paths of any length, resolve only to their own route', () => {
    // The filter keeps one bit per length modulo 30: lengths 30 apart share it, and a path of such
    // a length must still go through the table and miss.
    const lengths = [1, 2, 31, 61, 255, 256, 257, 1000, 4000];
    const pathOf = (length: number, fill = 'a') => '/' + fill.repeat(length - 1);
    const router = new Router<number>();
    for (const length of lengths) router.add('GET', pathOf(length), length);
    for (const length of lengths) {
      expect(router.find('GET', pathOf(length))?.value).toBe(length);
      if (length > 1) expect(router.find('GET', pathOf(length, 'b'))).toBeNull();
    }
    for (const length of [3, 30, 32, 91, 285, 1030]) expect(router.find('GET', pathOf(length))).toBeNull();
  });

  it('a normalizing router (case-insensitive, trailing slash) filters the path it normalized', () => {
    const router = new Router<number>({ caseSensitive: false, ignoreTrailingSlash: true })
      .add('GET', '/Users/All', 1)
      .add('GET', '/x/:id', 2);
    expect(router.find('GET', '/USERS/ALL/')?.value).toBe(1);
    expect(router.find('HEAD', '/users/all')?.value).toBe(1);
    expect(router.find('GET', '/X/AbC/')).toEqual({ value: 2, params: { id: 'abc' } });
    expect(router.lookup('POST', '/users/all/')).toEqual({ status: 'method-not-allowed', allowed: ['GET', 'HEAD'] });
  });
});

describe('router: scale', () => {
  it('10,000 static and 10,000 dynamic routes all resolve', () => {
    const router = new Router<number>();
    for (let i = 0; i < 10_000; i++) {
      router.add('GET', `/static/${i}/page`, i);
      router.add('GET', `/dyn${i}/:id/x`, i);
    }
    for (let i = 0; i < 10_000; i += 97) {
      expect(router.find('GET', `/static/${i}/page`)?.value).toBe(i);
      expect(router.find('GET', `/dyn${i}/abc/x`)).toEqual({ value: i, params: { id: 'abc' } });
    }
    expect(router.find('GET', '/static/10000/page')).toBeNull();
  });
});
