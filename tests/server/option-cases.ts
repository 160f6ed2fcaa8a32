// Bad `serve()` options and the error each must give, the same on every adapter: the class
// (TypeError for a wrong type or name, RangeError for a value out of range), the code, and the
// option it names. Run by options.test.ts on Node and, through deno-options.ts, on Deno.
export interface OptionCase {
  what: string;
  /** Evaluated in the runtime under test (a function cannot cross into the Deno child as JSON). */
  options: () => unknown;
  /** serve()'s second argument, the listening callback, when the case gives one. */
  listener?: () => unknown;
  error: 'TypeError' | 'RangeError';
  code: 'ERR_INVALID_OPTION' | 'ERR_OPTION_OUT_OF_RANGE';
  option: string;
}

const ok = () => new Response('ok');

export const optionCases: OptionCase[] = [
  { what: 'no options at all', options: () => undefined, error: 'TypeError', code: 'ERR_INVALID_OPTION', option: 'options' },
  { what: 'no handler', options: () => ({}), error: 'TypeError', code: 'ERR_INVALID_OPTION', option: 'fetch' },
  {
    what: 'fetch not a function',
    options: () => ({ fetch: 'index.html' }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'fetch',
  },
  {
    what: 'a route handler not a function',
    options: () => ({ routes: { 'GET /': 'hello' } }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'routes["GET /"]',
  },
  {
    what: 'a path that is not a string',
    options: () => ({ fetch: ok, path: 8080 }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'path',
  },
  {
    what: 'an empty path',
    options: () => ({ fetch: ok, path: '' }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'path',
  },
  {
    what: 'a path and a port',
    options: () => ({ fetch: ok, path: '/tmp/app.sock', port: 3000 }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'path',
  },
  {
    what: 'a path and a hostname',
    options: () => ({ fetch: ok, path: '/tmp/app.sock', hostname: '0.0.0.0' }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'path',
  },
  {
    what: 'a port that is a string',
    options: () => ({ fetch: ok, port: 'abc' }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'port',
  },
  {
    what: 'a port string that is not plain digits',
    options: () => ({ fetch: ok, port: ' 3e3' }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'port',
  },
  {
    what: 'a port string over 65535',
    options: () => ({ fetch: ok, port: '70000' }),
    error: 'RangeError',
    code: 'ERR_OPTION_OUT_OF_RANGE',
    option: 'port',
  },
  {
    what: 'a negative port',
    options: () => ({ fetch: ok, port: -1 }),
    error: 'RangeError',
    code: 'ERR_OPTION_OUT_OF_RANGE',
    option: 'port',
  },
  {
    what: 'a port over 65535',
    options: () => ({ fetch: ok, port: 70_000 }),
    error: 'RangeError',
    code: 'ERR_OPTION_OUT_OF_RANGE',
    option: 'port',
  },
  {
    what: 'a typo in an option name',
    options: () => ({ fetch: ok, prot: 8080 }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'prot',
  },
  {
    what: 'a negative timeout',
    options: () => ({ fetch: ok, headersTimeout: -1 }),
    error: 'RangeError',
    code: 'ERR_OPTION_OUT_OF_RANGE',
    option: 'headersTimeout',
  },
  {
    what: 'a timeout that is a string',
    options: () => ({ fetch: ok, keepAliveTimeout: '5s' }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'keepAliveTimeout',
  },
  {
    what: 'a sendTimeout of zero (a response could never wait)',
    options: () => ({ fetch: ok, sendTimeout: 0 }),
    error: 'RangeError',
    code: 'ERR_OPTION_OUT_OF_RANGE',
    option: 'sendTimeout',
  },
  {
    what: 'an HTTP/2 response queue smaller than a window',
    options: () => ({ fetch: ok, http2: { maxQueuedBytes: 1024 } }),
    error: 'RangeError',
    code: 'ERR_OPTION_OUT_OF_RANGE',
    option: 'http2.maxQueuedBytes',
  },
  {
    what: 'too many headers allowed',
    options: () => ({ fetch: ok, maxHeaders: 5000 }),
    error: 'RangeError',
    code: 'ERR_OPTION_OUT_OF_RANGE',
    option: 'maxHeaders',
  },
  {
    what: 'a bad HTTP/2 limit',
    options: () => ({ fetch: ok, http2: { maxConcurrentStreams: -5 } }),
    error: 'RangeError',
    code: 'ERR_OPTION_OUT_OF_RANGE',
    option: 'http2.maxConcurrentStreams',
  },
  {
    // A misspelt limit was ignored: its default held, unseen.
    what: 'a misspelt HTTP/2 limit',
    options: () => ({ fetch: ok, http2: { maxConcurentStreams: 10 } }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'http2.maxConcurentStreams',
  },
  {
    what: 'http2 options that are not an object',
    options: () => ({ fetch: ok, http2: 'yes' }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'http2',
  },
  {
    what: 'tls without a key',
    options: () => ({ fetch: ok, tls: { cert: 'x' } }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'tls',
  },
  {
    // As @hono/node-server's serve(app) is called: an object with a fetch method, not options.
    what: 'an app in place of the options',
    options: () =>
      new (class App {
        onError = () => undefined;
        fetch = () => new Response('app');
      })(),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'options',
  },
  {
    what: 'an app spread into the options',
    options: () => ({ get: () => undefined, routes: [], fetch: ok, port: 3000 }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'get',
  },
  {
    what: 'a listening callback that is not a function',
    options: () => ({ fetch: ok }),
    listener: () => 'ready',
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'onListening',
  },
  {
    what: 'onError not a function',
    options: () => ({ fetch: ok, onError: true }),
    error: 'TypeError',
    code: 'ERR_INVALID_OPTION',
    option: 'onError',
  },
];

/** What a thrown error says about itself, comparable across runtimes. */
export function describeError(error: unknown): { error: string; code: string; option: string; message: string } {
  const e = error as { code?: string; option?: string; message?: string };
  return {
    error: error instanceof TypeError ? 'TypeError' : error instanceof RangeError ? 'RangeError' : 'other',
    code: e.code ?? '',
    option: e.option ?? '',
    message: e.message ?? '',
  };
}
