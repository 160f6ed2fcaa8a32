// The Request serve() installs as the global one: the runtime's class, taking the server's lazy
// requests as input (the behaviour suite checks that over real sockets), and a Request in every
// other way.
import { describe, expect, it } from 'vitest';
import { ServerRequest } from '../../src/server/global-request.js';
import { NativeRequest } from '../../src/server/request.js';

describe('ServerRequest', () => {
  it('is named Request, makes runtime Requests, and counts every runtime Request as its own', async () => {
    const made = new ServerRequest('http://a.test/x', { method: 'POST', body: 'hi' });
    expect([ServerRequest.name, made instanceof NativeRequest, made.method, await made.text()]).toEqual(['Request', true, 'POST', 'hi']);
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
});
