// A `Response` for hot handlers. Node's Response (undici) wraps every body in a web stream and a
// transferable object: about 20 µs per response on Node 20, more than the rest of the server's
// work for a small request. LightResponse keeps a string or byte body and its init as given, and
// the server writes them straight out. Anything else asked of it (headers, body, text(), clone(),
// ...) makes the real Response first, so it behaves as one and passes `instanceof Response`.
// Inputs it cannot keep as they are (streams, a Headers object, a statusText, bad values) go to
// the real Response at once, which also throws the standard errors for them.
import { TOKEN } from '../http1/writer.js';
import { delegateToNative } from './native-delegate.js';

const NativeResponse: typeof Response = globalThis.Response;

/** What the server writes for a light response. */
export interface LightParts {
  readonly status: number;
  readonly headers: [string, string][];
  readonly body: string | Uint8Array<ArrayBuffer> | null;
}

// Values the Headers class would reject or trim (NUL, CR, LF, above latin1, edge whitespace).
const UNUSUAL_VALUE = /[\0\r\n]|[^\0-\xff]|^[\t ]|[\t ]$/;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

let partsOf: (response: Response) => LightParts | undefined;

class Light {
  #light: LightParts | undefined;
  #response: Response | undefined;

  static {
    partsOf = (response) => (#light in response ? response.#light : undefined);
  }

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    this.#light = lightParts(body, init, 'text/plain;charset=UTF-8');
    if (!this.#light) this.#response = new NativeResponse(body, init);
  }

  /** Like `Response.json()`, light when `data` serialises and the init is plain. */
  static json(data: unknown, init?: ResponseInit): Response {
    const text = JSON.stringify(data) as string | undefined;
    const light = text === undefined ? undefined : lightParts(text, init, 'application/json');
    if (!light) return NativeResponse.json(data, init);
    const response = new Light();
    response.#light = light;
    return response as unknown as Response;
  }

  static error(): Response {
    return NativeResponse.error();
  }

  static redirect(url: string | URL, status?: number): Response {
    return NativeResponse.redirect(url, status);
  }

  // Native responses are instances too, so `instanceof` keeps working when an app installs this
  // class as the global Response (what @hono/node-server does with its own).
  static [Symbol.hasInstance](value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(NativeResponse, value);
  }

  get status(): number {
    return this.#light ? this.#light.status : this.toResponse().status;
  }

  get ok(): boolean {
    const status = this.status;
    return status >= 200 && status <= 299;
  }

  get statusText(): string {
    return this.#light ? '' : this.toResponse().statusText;
  }

  /** The real Response, made once; from then on the light parts are gone. */
  toResponse(): Response {
    if (this.#response) return this.#response;
    const light = this.#light!;
    this.#light = undefined;
    return (this.#response = new NativeResponse(light.body, { status: light.status, headers: light.headers }));
  }
}

delegateToNative(Light.prototype, NativeResponse.prototype, (self) => (self as Light).toResponse(), 'Response');

/** Use it as `Response` (or install it as the global one); it is typed as one. */
export const LightResponse: typeof Response = Light as unknown as typeof Response;

/** The parts of a light response nothing has looked into yet, for the server to write. */
export function lightPartsOf(response: Response): LightParts | undefined {
  return partsOf(response);
}

function lightParts(body: BodyInit | null | undefined, init: ResponseInit | undefined, contentType: string): LightParts | undefined {
  let bytes: string | Uint8Array<ArrayBuffer> | null;
  if (body === null || body === undefined) bytes = null;
  else if (typeof body === 'string') bytes = body;
  // The Fetch standard copies a buffer body: later writes to it must not change the response.
  else if (body instanceof Uint8Array) bytes = new Uint8Array(body);
  else if (body instanceof ArrayBuffer) bytes = new Uint8Array(body.slice(0));
  else return undefined;

  let status = 200;
  let headers: [string, string][] = [];
  if (init !== undefined) {
    if (init === null || typeof init !== 'object' || init.statusText !== undefined) return undefined;
    if (init.status !== undefined) {
      status = init.status;
      if (!Number.isInteger(status) || status < 200 || status > 599) return undefined;
    }
    const lightHeaders = headerPairs(init.headers);
    if (!lightHeaders) return undefined;
    headers = lightHeaders;
  }
  if (bytes !== null && NULL_BODY_STATUS.has(status)) return undefined;
  if (typeof bytes === 'string' && !headers.some(([name]) => name.length === 12 && name.toLowerCase() === 'content-type')) {
    headers.push(['content-type', contentType]);
  }
  return { status, headers, body: bytes };
}

/** Plain-object or array-of-pairs headers as pairs, or undefined for anything else. */
function headerPairs(init: HeadersInit | undefined): [string, string][] | undefined {
  const pairs: [string, string][] = [];
  if (init === undefined) return pairs;
  if (Array.isArray(init)) {
    for (const pair of init) {
      if (!Array.isArray(pair) || pair.length !== 2 || !plainField(pair[0], pair[1])) return undefined;
      pairs.push([pair[0], pair[1]]);
    }
    return pairs;
  }
  const proto = Object.getPrototypeOf(init) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const record = init as Record<string, unknown>;
  for (const name in record) {
    const value = record[name];
    if (!plainField(name, value)) return undefined;
    pairs.push([name, value]);
  }
  return pairs;
}

// Apps send the same few field names again and again: each is checked once.
const checkedNames = new Set<string>();
const MAX_CHECKED_NAMES = 1024;

function plainField(name: unknown, value: unknown): value is string {
  if (typeof name !== 'string' || typeof value !== 'string' || UNUSUAL_VALUE.test(value)) return false;
  if (checkedNames.has(name)) return true;
  if (!TOKEN.test(name)) return false;
  if (checkedNames.size < MAX_CHECKED_NAMES) checkedNames.add(name);
  return true;
}
