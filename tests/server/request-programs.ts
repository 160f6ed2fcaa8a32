// The random programs of the lazy Request differential, runtime-neutral: run under vitest on
// Node (against undici's Request) and by `deno-request.ts` on Deno (against Deno's). See
// request-differential.test.ts for what they found.
import { ServerRequest } from '../../src/server/global-request.js';
import { RequestBody } from '../../src/server/request-body.js';
import { asRequest, IncomingRequest, NativeRequest } from '../../src/server/request.js';
import {
  bodyStreamOperations,
  comparePrograms,
  latin1,
  readBodyStream,
  type CompareOptions,
  type Operations,
  type ProgramSubject,
} from './programs.js';

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

/**
 * The runtime's Request with the same parts (no body for GET and HEAD, an empty one for a POST that
 * sent none). Cookie fields are given joined with "; ", as the server joins them (RFC 9113 §8.2.3;
 * a cookie parser reads `a=1, b=2` as one cookie) and undici's Headers does, where Deno's joins
 * every field with ", ".
 */
function runtime({ method, path, fields, body }: Sent): Request {
  const bodiless = method === 'GET' || method === 'HEAD';
  const cookies = fields.filter(([name]) => name === 'cookie').map(([, value]) => value);
  const headers = fields.filter(([name]) => name !== 'cookie');
  if (cookies.length) headers.push(['cookie', cookies.join('; ')]);
  return new NativeRequest(`http://a.test${path}`, {
    method,
    headers,
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

function drawSent(random: () => number): Sent {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const [type, body] = pick(BODIES);
  const fields: [string, string][] = [['host', 'a.test']];
  if (type) fields.push(['content-type', type]);
  if (body !== null) fields.push(['content-length', String(encoder.encode(body).length)]);
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
  arrayBuffer: async ({ request }) => latin1(await request.arrayBuffer()),
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
  ...bodyStreamOperations<State>((state) => state.request),
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

/** Programs on the lazy request (`ours`) against the runtime's Request with the same parts. */
export function compareRequestPrograms(options: Omit<CompareOptions, 'mostSteps'>) {
  const draw = (random: () => number): ProgramSubject<State> => {
    const sent = drawSent(random);
    return { name: JSON.stringify(sent), ours: () => ({ request: lazy(sent) }), runtime: () => ({ request: runtime(sent) }) };
  };
  return comparePrograms(OPERATIONS, draw, { ...options, mostSteps: MOST_STEPS });
}
