// LightResponse must be indistinguishable from the Response it stands for.
import { describe, expect, it } from 'vitest';
import { LightResponse, RuntimeResponse, lightPartsOf } from '../../src/server/light-response.js';
import { readBodyByob } from './programs.js';

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
  [
    'header pairs, repeated',
    'pairs',
    {
      headers: [
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['x-b', 'two'],
      ],
    },
  ],
  ['a Headers object', 'h', { headers: new Headers({ 'x-h': '1' }) }],
  ['a status text', 'st', { status: 418, statusText: 'teapot' }],
  ['a value to trim', 'trim', { headers: { 'x-pad': ' padded ' } }],
  ['a stream', new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('streamed')), c.close()) })],
  ['a Blob', new Blob(['blob'])],
  ['a typed Blob', new Blob(['{}'], { type: 'application/json' })],
  ['URLSearchParams', new URLSearchParams({ a: '1', b: 'x y' })],
  ['a DataView', new DataView(new Uint8Array([0, 104, 105, 0]).buffer, 1, 2)],
  ['a Response as the init', 'rewrapped', new Response(null, { status: 203, statusText: 'Mine', headers: { 'x-r': '1' } })],
];

describe('LightResponse', () => {
  it.each(inputs)('with %s reads like Response', async (_, body, init) => {
    // Streams are read once: give each constructor its own.
    const again =
      body instanceof ReadableStream
        ? new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('streamed')), c.close()) })
        : body;
    expect(await observe(new LightResponse(body, init))).toEqual(await observe(new Response(again, init)));
  });

  it('keeps string, byte, Blob, form and empty bodies light with any plain init, and nothing else', () => {
    expect(lightPartsOf(new LightResponse('x', { status: 202, headers: { a: 'b' } }))).toEqual({
      status: 202,
      statusText: '',
      headers: [
        ['a', 'b'],
        ['content-type', 'text/plain;charset=UTF-8'],
      ],
      body: 'x',
    });
    expect(lightPartsOf(new LightResponse())?.body).toBeNull();
    const blob = new Blob(['x'], { type: 'text/x' });
    expect(lightPartsOf(new LightResponse(blob))).toMatchObject({ body: blob, headers: [['content-type', 'text/x']] });
    expect(lightPartsOf(new LightResponse('x', { headers: new Headers({ 'x-h': '1' }), statusText: 'Fine' }))).toMatchObject({
      statusText: 'Fine',
      headers: [
        ['x-h', '1'],
        ['content-type', 'text/plain;charset=UTF-8'],
      ],
    });
    expect(lightPartsOf(new LightResponse(new URLSearchParams('a=1')))?.body).toBe('a=1');
    // A stream not made here stays light for the server to read (a file's, through serveStatic).
    const stream = new ReadableStream();
    expect(lightPartsOf(new LightResponse(stream, { headers: { 'content-length': '0' } }))).toMatchObject({ body: stream });
    // What only a real Response can take: FormData.
    expect(lightPartsOf(new LightResponse(new FormData()))).toBeUndefined();
    expect(lightPartsOf(new Response('x'))).toBeUndefined();
  });

  it('is named Response, takes the arguments Response does (length 0: both optional), and has its statics', async () => {
    expect([LightResponse.name, LightResponse.length]).toEqual([RuntimeResponse.name, RuntimeResponse.length]);
    expect(LightResponse.error().type).toBe('error');
    const redirect = LightResponse.redirect('http://localhost/to', 307);
    expect([redirect.status, redirect.headers.get('location')]).toEqual([307, 'http://localhost/to']);
  });

  it('gives a body stream without consuming the body; reading the stream does', async () => {
    const light = new LightResponse('streamed');
    expect(light.body).toBeInstanceOf(ReadableStream);
    expect(light.body).toBe(light.body);
    expect(light.bodyUsed).toBe(false);
    expect(await light.text()).toBe('streamed');
    expect(light.bodyUsed).toBe(true);
    await expect(light.text()).rejects.toThrow(TypeError);

    const read = new LightResponse('read');
    expect(await new Response(read.body).text()).toBe('read');
    expect(read.bodyUsed).toBe(true);
    expect(() => lightPartsOf(read)).toThrow(TypeError);
  });

  // The Fetch standard makes a body's stream a byte stream, so a BYOB reader reads it; the light
  // body's was a default stream, and `getReader({ mode: 'byob' })` threw.
  it('gives a byte stream as its body, as Response does: a BYOB reader reads it in pieces', async () => {
    const byob = (response: Response) => readBodyByob(response.body!);
    const bodies: [string, () => BodyInit][] = [
      ['text', () => 'hello'],
      ['bytes', () => new TextEncoder().encode('bytes!')],
      ['a Blob', () => new Blob(['blob!'])],
      ['a form', () => new URLSearchParams({ a: 'b c' })],
    ];
    for (const [name, body] of bodies) {
      const light = new LightResponse(body());
      expect(lightPartsOf(light), name).not.toBeNull();
      expect(await byob(light), name).toEqual(await byob(new RuntimeResponse(body())));
    }
    // The app's bytes stay its own: a reader gets a copy (enqueueing hands a buffer over).
    const bytes = new TextEncoder().encode('kept');
    await byob(new LightResponse(bytes));
    expect(new TextDecoder().decode(bytes)).toBe('kept');
  });

  it('stays light when middleware re-wraps it (new Response(res.body, res)), with its status and fields', async () => {
    const first = new LightResponse('wrapped', { status: 201, statusText: 'Made', headers: { 'x-a': '1' } });
    const second = new LightResponse(first.body, first);
    second.headers.set('x-b', '2');
    // Both hold the one stream, as two of Node's Responses do, until one of them reads it.
    expect(second.body).toBe(first.body);
    expect([first.bodyUsed, first.body!.locked]).toEqual([false, false]);
    const parts = lightPartsOf(second)!; // the server takes the body
    expect(parts.body).toBe('wrapped');
    expect([parts.status, parts.statusText]).toEqual([201, 'Made']);
    expect([...parts.headers]).toEqual([
      ['content-type', 'text/plain;charset=UTF-8'],
      ['x-a', '1'],
      ['x-b', '2'],
    ]);
    expect(first.bodyUsed).toBe(true);
    await expect(first.text()).rejects.toThrow(TypeError);
    // Read by the first, the body is gone from the second: the server refuses it.
    const fourth = new LightResponse('again');
    const fifth = new LightResponse(fourth.body, fourth);
    expect(await fourth.text()).toBe('again');
    expect([fifth.bodyUsed, fourth.body!.locked]).toEqual([true, true]);
    expect(() => lightPartsOf(fifth)).toThrow(TypeError);
    // A body stream someone started reading cannot be taken over: a real Response gets it.
    const third = new LightResponse('partly');
    const reader = third.body!.getReader();
    reader.releaseLock();
    await third.body!.getReader().read();
    expect(third.bodyUsed).toBe(true);
  });

  it('clones with its own headers, and refuses to clone a read body', async () => {
    const light = new LightResponse('x', { headers: { 'x-a': '1' } });
    const copy = light.clone();
    copy.headers.set('x-a', '2');
    expect([light.headers.get('x-a'), copy.headers.get('x-a')]).toEqual(['1', '2']);
    expect([await light.text(), await copy.text()]).toEqual(['x', 'x']);
    expect(() => light.clone()).toThrow(TypeError);
  });

  it('hands formData() and other rare members to a real Response', async () => {
    const light = new LightResponse(new URLSearchParams('a=1&b=2'));
    expect([...(await light.formData())]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(lightPartsOf(light)).toBeUndefined();
  });

  it('passes instanceof both ways and names itself Response', () => {
    const light = new LightResponse('x');
    expect(light instanceof Response).toBe(true);
    expect(new Response('x') instanceof LightResponse).toBe(true);
    expect({} instanceof LightResponse).toBe(false);
    expect(Object.prototype.toString.call(light)).toBe('[object Response]');
  });

  it('reads a null body as empty any number of times, and stays unused and clonable, as Response does', async () => {
    for (const make of [() => new LightResponse(null, { status: 302, headers: { location: '/x' } }), () => new LightResponse(null)]) {
      const light = make();
      expect([await light.text(), await light.text(), light.bodyUsed, light.clone().status]).toEqual(['', '', false, light.status]);
      expect(lightPartsOf(light)?.body).toBeNull();
    }
  });

  it('keeps a byte body as given, not copied (unlike the Fetch standard’s), and hands readers copies', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const light = new LightResponse(bytes);
    expect(lightPartsOf(light.clone())?.body).toBe(bytes); // what the server writes: the app's own bytes
    bytes[0] = 9; // so a change before it is sent shows (README: LightResponse)
    const read = await light.clone().bytes();
    expect([...read]).toEqual([9, 2, 3]);
    read[1] = 0; // a reader's bytes are its own
    const chunk = (await light.clone().body!.getReader().read()).value!;
    chunk[2] = 0;
    expect([...bytes]).toEqual([9, 2, 3]);
    expect([...new Uint8Array(await light.arrayBuffer())]).toEqual([9, 2, 3]);
    const view = new DataView(new Uint8Array([5, 6, 7, 8]).buffer, 1, 2);
    expect([...(lightPartsOf(new LightResponse(view))!.body as Uint8Array)]).toEqual([6, 7]);
  });

  it('reads a stream body it did not make through a real Response, made at the first touch', async () => {
    const streamOf = (text: string) => new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(text)), c.close()) });
    const read = new LightResponse(streamOf('abc'), { status: 201 });
    expect([read.status, await read.text(), read.bodyUsed]).toEqual([201, 'abc', true]);
    expect(lightPartsOf(read)).toBeUndefined(); // a real Response now, its body read: the server reads it as one
    const cloned = new LightResponse(streamOf('two'));
    const copy = cloned.clone();
    expect([await cloned.text(), await copy.text()]).toEqual(['two', 'two']);
    const given = streamOf('x');
    expect(new LightResponse(given).body).toBe(given); // the stream itself, as the runtime's gives it
    const taken = new LightResponse(streamOf('y'));
    const light = new LightResponse(streamOf('z'));
    expect(lightPartsOf(taken)?.body).toBeInstanceOf(ReadableStream);
    (lightPartsOf(light)!.body as ReadableStream).getReader(); // locked, as the server's read leaves it
    expect(() => lightPartsOf(light)).toThrow('the response body was already read');
    const locked = streamOf('l');
    locked.getReader();
    expect(() => new LightResponse(locked)).toThrow(TypeError); // the runtime's Response refuses it
  });

  it('keeps changes made to its headers, and writes them', async () => {
    const light = new LightResponse('x');
    light.headers.set('x-later', 'yes');
    expect([...lightPartsOf(light)!.headers]).toContainEqual(['x-later', 'yes']);
    expect(light.headers.get('x-later')).toBe('yes');
    const copy = light.clone();
    expect([await light.text(), await copy.text(), light.bodyUsed, copy.headers.get('x-later')]).toEqual(['x', 'x', true, 'yes']);
  });

  it('throws the standard errors for what Response refuses', () => {
    expect(() => new LightResponse('x', { status: 1000 })).toThrow(RangeError);
    expect(() => new LightResponse('x', { status: 199 })).toThrow(RangeError);
    expect(() => new LightResponse('x', { status: 204 })).toThrow(TypeError);
    expect(() => new LightResponse('x', { headers: { 'bad name': 'v' } })).toThrow(TypeError);
    expect(() => new LightResponse('x', { headers: { a: 'line\r\nbreak' } })).toThrow(TypeError);
    expect(() => new LightResponse('x', { statusText: 'bad\r\n' })).toThrow(TypeError);
    // What Response converts (WebIDL), it converts the same way.
    expect(new LightResponse(null, { status: 200.5 }).status).toBe(new Response(null, { status: 200.5 }).status);
    expect(() => LightResponse.json(undefined)).toThrow(TypeError);
  });

  it('makes JSON like Response.json', async () => {
    const inits: (ResponseInit | undefined)[] = [
      undefined,
      { status: 201, headers: { 'x-j': '1' } },
      { headers: { 'content-type': 'application/vnd.x+json' } },
    ];
    for (const init of inits) {
      expect(await observe(LightResponse.json({ a: [1, 'b'] }, init))).toEqual(await observe(Response.json({ a: [1, 'b'] }, init)));
    }
    expect(lightPartsOf(LightResponse.json({ a: 1 }))?.body).toBe('{"a":1}');
  });
});

// The cases @hono/node-server's suite (test/response.test.ts) holds its own light Response to: an
// app that passed them there must pass them here.
describe('LightResponse, the cases of @hono/node-server', () => {
  it('cannot be called without new, and a subclass of it is a Response', () => {
    expect(() => (LightResponse as unknown as () => unknown)()).toThrow(TypeError);
    class NextResponse extends LightResponse {}
    expect(new NextResponse('x')).toBeInstanceOf(Response);
    expect(new NextResponse('x')).toBeInstanceOf(LightResponse);
    // A subclass's instanceof answers for its own instances only (not for every Response).
    expect([new LightResponse('x') instanceof NextResponse, new RuntimeResponse('x') instanceof NextResponse]).toEqual([false, false]);
    expect(new RuntimeResponse('x')).toBeInstanceOf(LightResponse);
  });

  it('keeps the fields it was made with when the response it copied them from changes', () => {
    const parent = new LightResponse('OK', { headers: { 'content-type': 'application/json' } });
    const child = new LightResponse('OK', parent);
    parent.headers.delete('content-type');
    expect(child.headers.get('content-type')).toBe('application/json');
  });

  it('reads a Headers init when its fields are first needed, as @hono/node-server does (a field set after construction goes out)', () => {
    // hono's c.body() passes its Headers; node-server's serveStatic sets onFound's fields after.
    const init = new Headers({ 'content-type': 'text/plain' });
    const response = new LightResponse('hello', { headers: init });
    init.set('cache-control', 'max-age=60');
    expect(Object.fromEntries(lightPartsOf(response)!.headers)).toEqual({ 'content-type': 'text/plain', 'cache-control': 'max-age=60' });
    // From then on the response has its own fields: the init is the app's, never changed here.
    const read = new LightResponse('hello', { headers: init });
    expect(read.headers.get('cache-control')).toBe('max-age=60');
    init.delete('cache-control');
    read.headers.set('x-mine', '1');
    expect([read.headers.get('cache-control'), init.has('x-mine')]).toEqual(['max-age=60', false]);
  });

  it('adds the default Content-Type to its own fields, not to the Headers init it was given', () => {
    const init = new Headers();
    const response = new LightResponse('hello', { headers: init });
    expect(response.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(init.has('content-type')).toBe(false);
    init.set('content-type', 'text/html');
    const typed = new LightResponse('<p>hi</p>', { headers: init });
    expect(typed.headers.get('content-type')).toBe('text/html');
  });

  it('has fields of its own to change when its Headers init cannot be changed (a runtime response’s)', () => {
    const immutable = RuntimeResponse.redirect('http://example.com/').headers;
    expect(() => immutable.set('x', '1')).toThrow(TypeError);
    const response = new LightResponse('moved', { headers: immutable });
    response.headers.set('x-added', '1');
    expect([response.headers.get('location'), response.headers.get('x-added')]).toEqual(['http://example.com/', '1']);
  });

  it('copies fields appended after construction, whether the body was touched or not', () => {
    for (const touched of [false, true]) {
      const parent = new LightResponse('hello', { status: 200, headers: { 'content-type': 'application/json' } });
      parent.headers.append('set-cookie', 'session=abc; Path=/; HttpOnly');
      const child = new LightResponse(touched ? parent.body : 'hello', parent);
      expect([child.headers.get('set-cookie'), child.headers.get('content-type')], `body touched: ${touched}`).toEqual([
        'session=abc; Path=/; HttpOnly',
        'application/json',
      ]);
    }
  });

  it('keeps status and statusText when its fields change, and a runtime Response’s status when re-wrapped', async () => {
    const res = new LightResponse('hello', { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json' } });
    res.headers.append('set-cookie', 'a=1');
    expect([res.status, res.statusText, res.headers.get('set-cookie')]).toEqual([201, 'Created', 'a=1']);

    const native = new RuntimeResponse(null, { status: 302, headers: { location: 'https://example.com/' } });
    const wrapped = new LightResponse(native.body, native);
    expect(wrapped.status).toBe(302);
    void wrapped.body;
    expect([wrapped.status, wrapped.headers.get('location')]).toEqual([302, 'https://example.com/']);
  });

  it('re-wraps its own body piped through a transform', async () => {
    const parent = new LightResponse(new LightResponse('hono').body);
    const upper = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => controller.enqueue(new TextEncoder().encode(new TextDecoder().decode(chunk).toUpperCase())),
    });
    expect(await new LightResponse(parent.body!.pipeThrough(upper), parent).text()).toBe('HONO');
  });

  it('makes JSON and redirects as the statics of Response do', async () => {
    expect([LightResponse.json({ e: 1 }, { status: 404, statusText: 'Not Found' }).statusText, LightResponse.json({}).status]).toEqual([
      'Not Found',
      200,
    ]);
    const typed = LightResponse.json({ d: 1 }, { headers: { 'x-custom': 'value' } });
    expect([typed.headers.get('content-type'), typed.headers.get('x-custom')]).toEqual(['application/json', 'value']);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => LightResponse.json(circular)).toThrow(TypeError);

    expect([LightResponse.redirect('https://example.com').status, LightResponse.redirect('https://example.com/new', 301).status]).toEqual([
      302, 301,
    ]);
    expect(LightResponse.redirect(new URL('https://example.com/path')).headers.get('location')).toBe('https://example.com/path');
    expect(() => LightResponse.redirect('https://example.com', 200)).toThrow(RangeError);
    expect(LightResponse.error().type).toBe('error');
  });

  it('redirects to a relative reference, as Bun.serve does (the runtimes throw: a server has no base URL)', async () => {
    const login = LightResponse.redirect('/login?next=%2Fcart');
    expect([login.status, login.headers.get('location'), login.body, await login.text()]).toEqual([302, '/login?next=%2Fcart', null, '']);
    expect(LightResponse.redirect('../up', 308).headers.get('location')).toBe('../up');
    expect(() => LightResponse.redirect('/login', 200)).toThrow(RangeError);
    // No response splitting: a CR or LF in the reference is refused as a field value, not written.
    expect(() => LightResponse.redirect('/a\r\nset-cookie: x=1')).toThrow(TypeError);
    expect(() => LightResponse.redirect('http://[bad')).toThrow(TypeError);
  });
});
