// LightResponse must be indistinguishable from the Response it stands for.
import { describe, expect, it } from 'vitest';
import { LightResponse, lightPartsOf } from '../../src/server/light-response.js';

type Init = ConstructorParameters<typeof Response>;

async function observe(response: Response) {
  return {
    status: response.status,
    ok: response.ok,
    statusText: response.statusText,
    headers: [...response.headers],
    body: await response.text(),
  };
}

const inputs: [string, ...Init][] = [
  ['no body', null],
  ['text', 'hello'],
  ['non-ASCII text', 'héllo ✓'],
  ['bytes', new Uint8Array([104, 105])],
  ['an ArrayBuffer', new Uint8Array([111, 107]).buffer],
  ['status and object headers', 'made', { status: 201, headers: { 'X-A': '1', 'content-type': 'text/x-made' } }],
  ['header pairs, repeated', 'pairs', { headers: [['set-cookie', 'a=1'], ['set-cookie', 'b=2'], ['x-b', 'two']] }],
  ['a Headers object', 'h', { headers: new Headers({ 'x-h': '1' }) }],
  ['a status text', 'st', { status: 418, statusText: 'teapot' }],
  ['a value to trim', 'trim', { headers: { 'x-pad': ' padded ' } }],
  ['a stream', new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('streamed')), c.close()) })],
  ['a Blob', new Blob(['blob'])],
];

describe('LightResponse', () => {
  it.each(inputs)('with %s reads like Response', async (_, body, init) => {
    // Streams are read once: give each constructor its own.
    const again = body instanceof ReadableStream ? new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('streamed')), c.close()) }) : body;
    expect(await observe(new LightResponse(body, init))).toEqual(await observe(new Response(again, init)));
  });

  it('keeps plain string, byte and empty bodies light, and nothing else', () => {
    expect(lightPartsOf(new LightResponse('x', { status: 202, headers: { a: 'b' } }))).toEqual({
      status: 202,
      headers: [['a', 'b'], ['content-type', 'text/plain;charset=UTF-8']],
      body: 'x',
    });
    expect(lightPartsOf(new LightResponse())?.body).toBeNull();
    expect(lightPartsOf(new LightResponse(new Blob(['x'])))).toBeUndefined();
    expect(lightPartsOf(new LightResponse('x', { headers: new Headers() }))).toBeUndefined();
    expect(lightPartsOf(new Response('x'))).toBeUndefined();
  });

  it('passes instanceof both ways and names itself Response', () => {
    const light = new LightResponse('x');
    expect(light instanceof Response).toBe(true);
    expect(new Response('x') instanceof LightResponse).toBe(true);
    expect({} instanceof LightResponse).toBe(false);
    expect(Object.prototype.toString.call(light)).toBe('[object Response]');
  });

  it('copies a byte body, as the Fetch standard does', async () => {
    const bytes = new Uint8Array([1, 2]);
    const light = new LightResponse(bytes);
    bytes[0] = 9;
    expect([...new Uint8Array(await light.arrayBuffer())]).toEqual([1, 2]);
  });

  it('becomes the real Response once its headers are asked for, and keeps changes', async () => {
    const light = new LightResponse('x');
    light.headers.set('x-later', 'yes');
    expect(lightPartsOf(light)).toBeUndefined();
    expect(light.headers.get('x-later')).toBe('yes');
    const copy = light.clone();
    expect([await light.text(), await copy.text(), light.bodyUsed]).toEqual(['x', 'x', true]);
  });

  it('throws the standard errors for what Response refuses', () => {
    expect(() => new LightResponse('x', { status: 1000 })).toThrow(RangeError);
    expect(() => new LightResponse('x', { status: 199 })).toThrow(RangeError);
    expect(() => new LightResponse('x', { status: 204 })).toThrow(TypeError);
    expect(() => new LightResponse('x', { headers: { 'bad name': 'v' } })).toThrow(TypeError);
    expect(() => new LightResponse('x', { headers: { a: 'line\r\nbreak' } })).toThrow(TypeError);
    expect(() => LightResponse.json(undefined)).toThrow(TypeError);
  });

  it('makes JSON like Response.json', async () => {
    const inits: (ResponseInit | undefined)[] = [undefined, { status: 201, headers: { 'x-j': '1' } }, { headers: { 'content-type': 'application/vnd.x+json' } }];
    for (const init of inits) {
      expect(await observe(LightResponse.json({ a: [1, 'b'] }, init))).toEqual(await observe(Response.json({ a: [1, 'b'] }, init)));
    }
    expect(lightPartsOf(LightResponse.json({ a: 1 }))?.body).toBe('{"a":1}');
  });
});
