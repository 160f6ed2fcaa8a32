// Deno's own APIs beside wirespeed/deno's server: the ones that take a Request or a Response
// refuse any they did not construct ("is not of type Response", "must be a Response constructed
// via the Response constructor in this realm"). With LightResponse as the global Response and the
// server's lazy requests, each is wrapped to take them: Deno.upgradeWebSocket (this server's
// requests), Deno.serve (a second server in the process), the Cache API (a light response made
// real, a request of this server keyed by a runtime copy) and WebAssembly's streaming compile.
// Each wrapper is installed once, marked.
import { runtimeResponseOf } from './light-response.js';
import { requestExchangeOf, runtimeKey } from './request.js';
import { upgradeWebSocket, type WebSocketOptions } from './websocket/upgrade.js';

type Callable = (this: unknown, ...args: unknown[]) => unknown;
type UpgradeWebSocket = (request: Request, options?: WebSocketOptions) => { socket: unknown; response: Response };

/** Marks a function installed here, so that a second serve() does not wrap it again. */
const WRAPPED = Symbol.for('wirespeed.wrappedForDeno');
type Marked<F> = F & { [WRAPPED]?: true };

/** The slice of the Deno namespace wrapped here (none when this module loads elsewhere). */
interface DenoGlobals {
  serve?: Marked<Callable>;
  upgradeWebSocket?: Marked<UpgradeWebSocket>;
}
const deno = (): DenoGlobals | undefined => (globalThis as { Deno?: DenoGlobals }).Deno;

/** `wrapper` standing in for `native`: its name and `length` (which Deno.serve reads), marked. */
function standIn<F extends object>(native: F, wrapper: F): F {
  Object.defineProperty(wrapper, 'length', { value: (native as unknown as Callable).length });
  Object.defineProperty(wrapper, 'name', { value: (native as unknown as Callable).name });
  return Object.assign(wrapper, { [WRAPPED]: true as const });
}

/** A light response made the runtime's (anything else as it is). */
const runtimeOf = (value: unknown): unknown => (typeof value === 'object' && value !== null ? runtimeResponseOf(value as Response) : value);

/**
 * Makes `Deno.upgradeWebSocket` upgrade this server's requests too (installed with the global
 * objects): a Deno app moving from Deno.serve keeps calling it, itself or through hono/deno's
 * `upgradeWebSocket` helper, and Deno's own refuses a request it did not make. Its options
 * (`protocol`, `idleTimeout` in seconds) mean the same here. Other requests go to Deno's.
 */
export function installDenoUpgrade(): void {
  const namespace = deno();
  const native = namespace?.upgradeWebSocket;
  if (typeof native !== 'function' || native[WRAPPED]) return;
  const upgrade = (request: Request, options?: WebSocketOptions) =>
    requestExchangeOf(request) ? upgradeWebSocket(request, options) : native.call(namespace, request, options);
  namespace!.upgradeWebSocket = standIn(native, upgrade);
}

/**
 * Makes `Deno.serve` take the responses handlers make once LightResponse is the global Response:
 * Deno's refuses them, so a second server in the process (a health check, a test's mock upstream)
 * answered every request 500. Its handler and onError, given in any of its forms, have a light
 * response made real before Deno reads it. Installed when wirespeed/deno loads, not in serve(): a
 * Deno.serve started before serve() (a mock upstream made first) makes its responses after the
 * global changed, and Deno's refusal left its clients waiting. Until LightResponse is installed
 * the wrapper passes every response through as it is.
 */
export function installDenoServe(): void {
  const namespace = deno();
  const native = namespace?.serve;
  if (typeof native !== 'function' || native[WRAPPED]) return;
  namespace!.serve = standIn(native, function (this: unknown, ...args: unknown[]) {
    return native.apply(this, args.map(realResponsesIn));
  });
}

/** A Deno.serve argument with its handler and onError (a function, or an options object's) giving runtime Responses. */
function realResponsesIn(arg: unknown): unknown {
  if (typeof arg === 'function') return givingRuntimeResponses(arg as Callable);
  if (typeof arg !== 'object' || arg === null) return arg;
  const options = arg as { handler?: unknown; onError?: unknown };
  if (typeof options.handler !== 'function' && typeof options.onError !== 'function') return arg;
  const wrapped = { ...options };
  if (typeof options.handler === 'function') wrapped.handler = givingRuntimeResponses(options.handler as Callable);
  if (typeof options.onError === 'function') wrapped.onError = givingRuntimeResponses(options.onError as Callable);
  return wrapped;
}

/**
 * `handler`, its light responses made real. It keeps the handler's `length`: Deno.serve makes no
 * Request for a handler that declares no parameter, and a wrapper of length 0 had every handler
 * called with none.
 */
function givingRuntimeResponses(handler: Callable): Callable {
  return standIn(handler, function (this: unknown, ...args: unknown[]) {
    const result = handler.apply(this, args);
    return result instanceof Promise ? result.then(runtimeOf) : runtimeOf(result);
  });
}

/**
 * Makes Deno's Cache API (`caches.open(name)`, then `put`, which hono's cache() middleware calls
 * with `c.res.clone()`, `match`, `delete`) take a light response and this server's requests as
 * keys, and WebAssembly's `compileStreaming` / `instantiateStreaming` a light response (or a
 * promise of one): Deno's refuse them as "not of type Response" or "Request". Installed with the
 * global objects.
 */
export function installDenoResponseTakers(): void {
  const cache = (globalThis as { Cache?: { prototype: object } }).Cache?.prototype;
  if (cache) {
    convertArguments(cache, 'put', (args) => ((args[0] = runtimeKey(args[0])), (args[1] = runtimeOf(args[1]))));
    for (const name of ['match', 'matchAll', 'delete']) convertArguments(cache, name, (args) => (args[0] = runtimeKey(args[0])));
  }
  for (const name of ['compileStreaming', 'instantiateStreaming']) {
    convertArguments(WebAssembly, name, (args) => {
      const given = args[0] as { then?: unknown } | undefined;
      args[0] = typeof given?.then === 'function' ? Promise.resolve(given).then(runtimeOf) : runtimeOf(given);
    });
  }
}

/** Wraps the method `owner[name]` (when there is one) so that `convert` rewrites its arguments first. */
function convertArguments(owner: object, name: string, convert: (args: unknown[]) => void): void {
  const methods = owner as Record<string, Marked<Callable> | undefined>;
  const native = methods[name];
  if (typeof native !== 'function' || native[WRAPPED]) return;
  methods[name] = standIn(native, function (this: unknown, ...args: unknown[]) {
    convert(args);
    return native.apply(this, args);
  });
}
