// The lazy Request a handler gets against the runtime's Request made from the same method, URL,
// fields and body, on random programs: up to six operations an app or a framework does (read the
// fields and the body every way, read it again, the stream, clone, copies with `new Request`,
// field changes, the members that go to a real Request). Each step must give the same value, or
// an error of the same class. Copies use the Request serve() installs (it takes lazy requests).
// It found, once the body was read: members that go to the real Request (`mode`, `referrer`,
// `cache`, ...) throwing a TypeError, since the real one was made from the read stream; `bodyUsed`
// false again after such a member, so the body could be cloned or copied; a copy
// (`new Request(url, request)`) taking the read body's stream; and a field changed after that
// hand-over missing from a copy.
import { describe, expect, it } from 'vitest';
import { ServerRequest } from '../../src/server/global-request.js';
import { RequestBody } from '../../src/server/request-body.js';
import { asRequest, IncomingRequest, NativeRequest } from '../../src/server/request.js';
import { rng } from '../http1/corpus.js';
import { readBodyStream, runProgram, type Operations } from './programs.js';

const PROGRAMS = 4000;
const MOST_STEPS = 6;

const encoder = new TextEncoder();
/** A connection's side of a body that has all arrived. */
const ARRIVED = { pause() {}, resume() {}, sendContinue() {} };

interface Sent {
  method: string;
  path: string;
  fields: [string, string][];
  /** The bytes that came, as text; null when none did (a POST still has an empty body). */
  body: string | null;
}

/** The request as the server makes it. */
function lazy({ method, path, fields, body }: Sent): Request {
  let incoming: RequestBody | null = null;
  if (body !== null) {
    incoming = new RequestBody(ARRIVED, false);
    if (body) incoming.push(encoder.encode(body));
    incoming.end();
  }
  const controller = new AbortController();
  return asRequest(
    new IncomingRequest(
      { method, url: path, headers: fields },
      { scheme: 'http', host: 'a.test', body: incoming, signal: () => controller.signal },
    ),
  );
}

/** The runtime's Request with the same parts (no body for GET and HEAD, an empty one for a POST that sent none). */
function runtime({ method, path, fields, body }: Sent): Request {
  const bodiless = method === 'GET' || method === 'HEAD';
  return new NativeRequest(`http://a.test${path}`, {
    method,
    headers: fields,
    body: bodiless ? null : encoder.encode(body ?? ''),
    duplex: 'half',
  } as RequestInit);
}

// Methods as the standard spells them: another case is passed on as sent (RFC 9110 §9.1: a method
// is case-sensitive), where `new Request` writes `post` as `POST`.
const METHODS = ['GET', 'POST', 'PUT', 'HEAD', 'DELETE', 'PATCH', 'OPTIONS'];
const PATHS = ['/', '/x?y=1', '/a/../b', '/%7Efoo', '/caf%C3%A9'];
const MULTIPART =
  '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b\r\nContent-Disposition: form-data; name="f"; filename="x.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n';
const BODIES: [type: string | null, body: string | null][] = [
  [null, null],
  [null, ''],
  ['text/plain', 'hello'],
  ['application/json', '{"a":[1,2]}'],
  ['application/json', '{"a":'],
  ['application/x-www-form-urlencoded', 'a=1&b=x+y&c=%C3%A9'],
  ['multipart/form-data; boundary=b', MULTIPART],
];

function draw(random: () => number): Sent {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const [type, body] = pick(BODIES);
  const fields: [string, string][] = [['host', 'a.test']];
  if (type) fields.push(['content-type', type]);
  if (body !== null) fields.push(['content-length', String(Buffer.byteLength(body))]);
  if (random() < 0.3) fields.push(['cookie', 'a=1'], ['cookie', 'b=2']);
  if (random() < 0.3) fields.push(['X-A', 'v'], ['x-a', 'w']);
  return { method: pick(METHODS), path: pick(PATHS), fields, body };
}

interface State {
  request: Request;
  clone?: Request;
}

const OPERATIONS: Operations<State> = {
  method: ({ request }) => request.method,
  url: ({ request }) => request.url,
  fields: ({ request }) => [...request.headers],
  'get content-type': ({ request }) => request.headers.get('content-type'),
  'get cookie': ({ request }) => request.headers.get('cookie'),
  'set a field': ({ request }) => request.headers.set('x-set', '1'),
  'delete a field': ({ request }) => request.headers.delete('x-a'),
  'body is null': ({ request }) => request.body === null,
  bodyUsed: ({ request }) => request.bodyUsed,
  text: ({ request }) => request.text(),
  json: ({ request }) => request.json(),
  arrayBuffer: async ({ request }) => Buffer.from(await request.arrayBuffer()).toString('latin1'),
  blob: async ({ request }) => {
    const blob = await request.blob();
    return [blob.type, blob.size];
  },
  formData: async ({ request }) =>
    [...(await request.formData())].map(([name, value]) => [
      name,
      typeof value === 'string' ? value : [value.name, value.type, value.size],
    ]),
  'read the body stream': ({ request }) => readBodyStream(request),
  clone: (state) => void (state.clone = state.request.clone()),
  'clone: text': ({ clone }) => clone?.text(),
  'clone: fields': ({ clone }) => clone && [...clone.headers],
  'copy: new Request(request)': (state) => {
    const copy = new ServerRequest(state.request);
    state.request = copy;
    return [copy.method, copy.url, [...copy.headers]];
  },
  'copy with new fields': (state) => {
    const copy = new ServerRequest(state.request, { headers: { 'x-new': '1' } });
    state.request = copy;
    return [copy.method, [...copy.headers]];
  },
  'copy: new Request(url, request)': (state) => {
    const copy = new ServerRequest(state.request.url, state.request);
    state.request = copy;
    return [copy.method, [...copy.headers], copy.body === null];
  },
  'signal.aborted': ({ request }) => request.signal.aborted,
  cache: ({ request }) => request.cache,
  credentials: ({ request }) => request.credentials,
  mode: ({ request }) => request.mode,
  redirect: ({ request }) => request.redirect,
  referrer: ({ request }) => request.referrer,
  integrity: ({ request }) => request.integrity,
  keepalive: ({ request }) => request.keepalive,
  destination: ({ request }) => request.destination,
  duplex: ({ request }) => (request as unknown as { duplex: string }).duplex,
  instanceof: ({ request }) => request instanceof ServerRequest,
  'to string': ({ request }) => Object.prototype.toString.call(request),
  'own keys': ({ request }) => Object.keys(request),
};

/** The program on the request `make` makes. */
const run = (make: (sent: Sent) => Request, sent: Sent, steps: string[]) =>
  runProgram(() => ({ request: make(sent) }) as State, OPERATIONS, steps);

describe("the server's lazy Request against the runtime Request, on random programs", () => {
  it(`does what the runtime Request does, step for step, on ${PROGRAMS} programs`, async () => {
    const random = rng(0x4e9);
    const names = Object.keys(OPERATIONS);
    const differences: { program: string; lazy: string[]; runtime: string[] }[] = [];
    let errors = 0;
    for (let n = 0; n < PROGRAMS; n++) {
      const sent = draw(random);
      const steps = Array.from({ length: 1 + Math.floor(random() * MOST_STEPS) }, () => names[Math.floor(random() * names.length)]!);
      const [ours, theirs] = [await run(lazy, sent, steps), await run(runtime, sent, steps)];
      if (ours.join('\n') !== theirs.join('\n')) {
        if (differences.length < 10)
          differences.push({ program: `${JSON.stringify(sent)}: ${steps.join(', ')}`, lazy: ours, runtime: theirs });
      } else if (ours.some((step) => step.includes('!'))) errors++;
    }
    expect(differences).toEqual([]);
    // The programs reach the errors (reads of a read body, bodies for GET) as well as the values.
    expect(errors).toBeGreaterThan(PROGRAMS / 5);
  });
});
