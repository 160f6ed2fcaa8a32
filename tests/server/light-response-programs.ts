// The random programs of the LightResponse differential, runtime-neutral: run under vitest on
// Node (against undici's Response) and by `deno-light-response.ts` on Deno (against Deno's). See
// light-response-differential.test.ts for what they found.
import { RuntimeResponse } from '../../src/server/light-response.js';
import {
  bodyStreamOperations,
  comparePrograms,
  latin1,
  readBodyByob,
  readBodyStream,
  type CompareOptions,
  type Operations,
  type ProgramSubject,
} from './programs.js';

const MOST_STEPS = 6;

type ResponseClass = typeof Response;
const encoder = new TextEncoder();

/** Bodies: what a Response takes, kept light or not, and what it refuses or turns into text. */
const BODIES: [string, () => unknown][] = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['a string', () => 'hello'],
  ['an empty string', () => ''],
  ['non-ASCII text', () => 'héllo ✓'],
  ['bytes', () => encoder.encode('bytes')],
  ['a view into bytes', () => encoder.encode('xxbytesxx').subarray(2, 7)],
  ['an ArrayBuffer', () => encoder.encode('ab').buffer],
  ['a DataView', () => new DataView(encoder.encode('xdvx').buffer, 1, 2)],
  ['an Int16Array', () => new Int16Array([1, 2])],
  ['a Blob', () => new Blob(['blob'])],
  ['a typed Blob', () => new Blob(['{"a":1}'], { type: 'application/json' })],
  ['a Blob of an unusual type', () => new Blob(['x'], { type: 'Text/Plain; X=Y' })],
  ['URLSearchParams', () => new URLSearchParams({ a: '1', b: 'x y' })],
  [
    'FormData',
    () => {
      const form = new FormData();
      form.set('a', '1');
      return form;
    },
  ],
  ['a stream', () => new ReadableStream({ start: (c) => (c.enqueue(encoder.encode('st')), c.close()) })],
  ['a number', () => 42],
  ['an object', () => ({ a: 1 })],
  ['a SharedArrayBuffer', () => new SharedArrayBuffer(2)],
];

/** Inits, made for the class under test (a response of the same class as the init, as middleware passes one). */
const INITS: [string, (R: ResponseClass) => unknown][] = [
  ['none', () => undefined],
  ['empty', () => ({})],
  ['null', () => null],
  ...[201, 204, 304, 101, 199, 599, 600, 0, '201', 200.5, NaN].map((status): [string, () => unknown] => [
    `status ${status}`,
    () => ({ status }),
  ]),
  ['a status text', () => ({ statusText: 'Fine' })],
  ['a status text with a newline', () => ({ statusText: 'a\nb' })],
  ['a status text in Latin-1', () => ({ statusText: 'é' })],
  ['a status text beyond Latin-1', () => ({ statusText: '✓' })],
  ['fields as an object', () => ({ headers: { 'X-A': '1', 'content-type': 'text/x' } })],
  [
    'fields as pairs',
    () => ({
      headers: [
        ['set-cookie', 'a'],
        ['set-cookie', 'b'],
      ],
    }),
  ],
  ['a Headers object', () => ({ headers: new Headers({ 'x-h': 'v' }) })],
  ['a bad field name', () => ({ headers: { 'x y': '1' } })],
  ['a bad field value', () => ({ headers: { x: 'a\nb' } })],
  ['a value to trim', () => ({ headers: { x: '  a  ' } })],
  ['a bad pair', () => ({ headers: [['a']] })],
  ['fields as a string', () => ({ headers: 'x' })],
  ['a Content-Type', () => ({ headers: { 'Content-Type': 'text/y' } })],
  ['a Content-Length', () => ({ headers: { 'content-length': '99' } })],
  ['a runtime Response', () => new RuntimeResponse(null, { status: 203, statusText: 'Mine', headers: { 'x-r': '1' } })],
  ['a response of the class', (R) => new R('src', { status: 203, statusText: 'Mine', headers: { 'x-r': '1' } })],
  [
    'a read response of the class',
    (R) => {
      const response = new R('src', { status: 206 });
      void response.text();
      return response;
    },
  ],
  ['the fields of a response of the class', (R) => ({ headers: new R('x', { headers: { 'x-q': '2' } }).headers })],
];

/** The program's state: the response it works on (re-wrapping replaces it) and its clone. */
interface State {
  R: ResponseClass;
  response: Response;
  clone?: Response;
}

const text = async (stream: ReadableStream<Uint8Array> | null) =>
  stream === null ? null : latin1(await new Response(stream).arrayBuffer());
const OPERATIONS: Operations<State> = {
  status: ({ response }) => response.status,
  statusText: ({ response }) => response.statusText,
  ok: ({ response }) => response.ok,
  type: ({ response }) => response.type,
  url: ({ response }) => response.url,
  redirected: ({ response }) => response.redirected,
  fields: ({ response }) => [...response.headers],
  'get content-type': ({ response }) => response.headers.get('content-type'),
  'set-cookie fields': ({ response }) => response.headers.getSetCookie(),
  bodyUsed: ({ response }) => response.bodyUsed,
  'body is null': ({ response }) => response.body === null,
  text: ({ response }) => response.text(),
  json: ({ response }) => response.json(),
  arrayBuffer: async ({ response }) => latin1(await response.arrayBuffer()),
  blob: async ({ response }) => {
    const blob = await response.blob();
    return [blob.type, blob.size, await blob.text()];
  },
  formData: async ({ response }) =>
    [...(await response.formData())].map(([name, value]) => [name, typeof value === 'string' ? value : 'a file']),
  'read the body stream': ({ response }) => readBodyStream(response),
  // In 3-byte reads, as a BYOB reader asks: a body's stream is a byte stream (the app's own stream excepted).
  'read the body with a BYOB reader': async ({ response }) => {
    if (response.body === null) return null;
    try {
      const pieces = await readBodyByob(response.body);
      // The text whole (a form's boundary is named alike only there) and the size of each piece.
      return [pieces.join(''), pieces.map((piece) => piece.length), response.bodyUsed];
    } catch (error) {
      return (error as Error).name;
    }
  },
  ...bodyStreamOperations<State>((state) => state.response),
  'tee the body stream': async ({ response }) => {
    const [a, b] = response.body!.tee();
    return [await text(a), await text(b), response.bodyUsed];
  },
  clone: (state) => void (state.clone = state.response.clone()),
  'clone, read both': async ({ response }) => {
    const copy = response.clone();
    return [await copy.text(), await response.text()];
  },
  'set a field': ({ response }) => response.headers.set('x-set', 'v'),
  'append a Content-Type': ({ response }) => response.headers.append('content-type', 'a/b'),
  'delete the Content-Type': ({ response }) => response.headers.delete('content-type'),
  'set a Content-Length': ({ response }) => response.headers.set('content-length', '1'),
  're-wrap': (state) => {
    const wrapped = new state.R(state.response.body, state.response);
    state.response = wrapped;
    return [wrapped.status, wrapped.statusText, [...wrapped.headers]];
  },
  're-wrap, read both': async (state) => {
    const old = state.response;
    const wrapped = new state.R(old.body, old);
    state.response = wrapped;
    const again = await old.text().catch((error: Error) => error.constructor.name);
    return [await wrapped.text(), again, old.bodyUsed, wrapped.bodyUsed];
  },
  instanceof: ({ response }) => response instanceof Response,
  'to string': ({ response }) => Object.prototype.toString.call(response),
  'own keys': ({ response }) => Object.keys(response),
  'clone: text': ({ clone }) => clone?.text(),
  'clone: fields': ({ clone }) => clone && [...clone.headers],
  'clone: status': ({ clone }) => clone?.status,
  'clone: bodyUsed': ({ clone }) => clone?.bodyUsed,
  'Response.json': async ({ R }) => {
    const made = R.json({ a: [1, 'x'] }, { status: 201, headers: { 'x-j': '1' } });
    return [made.status, [...made.headers], await made.text()];
  },
  'Response.redirect': ({ R }) => {
    const made = R.redirect('http://a.test/x', 307);
    return [made.status, [...made.headers]];
  },
  'Response.error': ({ R }) => {
    const made = R.error();
    return [made.status, made.type, [...made.headers]];
  },
};

/** A FormData body's boundary is random (undici's `----formdata-undici-0…`, Deno's `----0…`): the same on both once named alike. */
const sameBoundary = (line: string) => line.replace(/(formdata-undici-|----)\d{10,}/g, '$1N');

/** Programs on LightResponse (`ours`) against `runtime`: a body and an init drawn, then the steps. */
export function compareResponsePrograms(light: ResponseClass, runtime: ResponseClass, options: Omit<CompareOptions, 'mostSteps'>) {
  const draw = (random: () => number): ProgramSubject<State> => {
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const [bodyName, body] = pick(BODIES);
    const [initName, init] = pick(INITS);
    const make = (R: ResponseClass) => (): State => ({ R, response: new R(body() as BodyInit, init(R) as ResponseInit) });
    return { name: `${bodyName}, ${initName}`, ours: make(light), runtime: make(runtime) };
  };
  return comparePrograms(OPERATIONS, draw, { ...options, mostSteps: MOST_STEPS }, sameBoundary);
}
