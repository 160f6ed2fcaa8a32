// The Request serve() installs as the global one: the runtime's class, taking the server's lazy
// requests as input (the behaviour suite checks that over real sockets), and a Request in every
// other way.
import { describe, expect, it } from 'vitest';
import { ServerFetch, installServerFetch } from '../../src/server/global-fetch.js';
import { ServerRequest } from '../../src/server/global-request.js';
import { NativeRequest } from '../../src/server/request.js';

describe('ServerRequest', () => {
  it('is named Request, makes runtime Requests, and counts every runtime Request as its own', async () => {
    const made = new ServerRequest('http://a.test/x', { method: 'POST', body: 'hi' });
    expect([ServerRequest.name, made instanceof NativeRequest, made.method, await made.text()]).toEqual(['Request', true, 'POST', 'hi']);
    // One argument required, as the runtime's (its init is optional).
    expect(ServerRequest.length).toBe(NativeRequest.length);
    expect(new NativeRequest('http://a.test/') instanceof ServerRequest).toBe(true);
    expect({} instanceof ServerRequest).toBe(false);
  });

  it('leaves a subclass its own instanceof (class MyRequest extends Request)', () => {
    class MyRequest extends ServerRequest {}
    expect(new MyRequest('http://a.test/') instanceof MyRequest).toBe(true);
    expect(new MyRequest('http://a.test/') instanceof ServerRequest).toBe(true);
    expect([new ServerRequest('http://a.test/') instanceof MyRequest, new NativeRequest('http://a.test/') instanceof MyRequest]).toEqual([
      false,
      false,
    ]);
  });

  it('fetch, once installed, hands every call to the fetch it replaced (a wrapper installed before serve() keeps seeing them)', async () => {
    const original = globalThis.fetch;
    const seen: string[] = [];
    const wrapper = ((input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return original(input, init);
    }) as typeof fetch;
    globalThis.fetch = wrapper;
    try {
      installServerFetch();
      installServerFetch();
      expect([globalThis.fetch, ServerFetch.name]).toEqual([ServerFetch, 'fetch']);
      await fetch('data:text/plain,hi').then((response) => response.text());
      expect(seen).toEqual(['data:text/plain,hi']);
    } finally {
      globalThis.fetch = original;
    }
  });
});
