// The `headers` of a light response and of the lazy Request: the Fetch standard's Headers
// (https://fetch.spec.whatwg.org/#headers-class), kept as two arrays. Node's Headers (undici)
// converts and checks every argument through WebIDL and sorts its list again after changes:
// making one from 2 fields, 12 `set`s, a `delete`, a `get` and a `forEach` (what hono's cors,
// secureHeaders and etag do to a response) took 4 µs on Node 20 and 24. It passes `instanceof
// Headers` (it inherits the runtime's Headers.prototype) and answers every member of the
// standard itself, so none of the runtime's methods ever sees it. Node only (see useLightHeaders).
import { FIELD_LIST, isFieldName, type HeaderList } from '../fields.js';

const NativeHeaders: typeof Headers = globalThis.Headers;

/** Values Headers would reject or trim: NUL, CR, LF, above latin1, edge whitespace. */
const UNUSUAL_VALUE = /[\0\r\n]|[^\0-\xff]|^[\t ]|[\t ]$/;
/** Fetch's HTTP whitespace at either end, removed from values ("normalize"). */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;
const ABOVE_LATIN1 = /[^\0-\xff]/;
const SET_COOKIE = 'set-cookie';

type Pairs = [name: string, value: string][];

/** The Fetch standard's Headers over a list of fields; see the file comment. */
export class LightHeaders {
  /** Names as first given (what goes on the wire), lower-cased names (what lookups compare), values. */
  #names: string[] = [];
  #keys: string[] = [];
  #values: string[] = [];
  /** "Sort and combine" of the list, made when iterated and dropped at any change. */
  #sorted: Pairs | null = null;

  constructor(init?: HeadersInit) {
    if (init === undefined) return;
    if (init === null || (typeof init !== 'object' && typeof init !== 'function')) {
      throw new TypeError('Headers constructor: init must be a sequence of pairs, a record or a Headers object');
    }
    const iterator = (init as Partial<Iterable<unknown>>)[Symbol.iterator];
    if (iterator !== undefined) {
      if (typeof iterator !== 'function') throw new TypeError('Headers constructor: init is not iterable');
      for (const pair of init as Iterable<unknown>) {
        if (typeof pair !== 'object' || pair === null || typeof (pair as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
          throw new TypeError('Headers constructor: each header must be a sequence of a name and a value');
        }
        const parts = [...(pair as Iterable<unknown>)];
        if (parts.length !== 2) throw new TypeError(`Headers constructor: a header needs a name and a value, got ${parts.length} items`);
        this.append(parts[0] as string, parts[1] as string);
      }
      return;
    }
    for (const name of Reflect.ownKeys(init)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(init, name);
      if (descriptor?.enumerable) this.append(name as string, (init as Record<string | symbol, string>)[name]);
    }
  }

  /** Headers of fields already checked (a parsed request, a light response's init): names kept, nothing tested again. */
  static trusted(fields: HeaderList): Headers {
    const headers = new LightHeaders();
    for (const [name, value] of fields) headers.#push(name, name.toLowerCase(), value);
    return headers as unknown as Headers;
  }

  append(name: string, value: string): void {
    arity(arguments.length, 2, 'append');
    const key = headerName(name, 'append');
    const normal = headerValue(value, 'append');
    this.#push(this.#firstName(key) ?? `${name}`, key, normal);
  }

  delete(name: string): void {
    arity(arguments.length, 1, 'delete');
    const key = headerName(name, 'delete');
    if (this.#keys.indexOf(key) === -1) return;
    for (let i = this.#keys.length - 1; i >= 0; i--) if (this.#keys[i] === key) this.#remove(i);
    this.#sorted = null;
  }

  get(name: string): string | null {
    arity(arguments.length, 1, 'get');
    return this.#combined(headerName(name, 'get'));
  }

  /** The values named `key`, joined by ", ", or null. */
  #combined(key: string): string | null {
    let found: string | null = null;
    for (let i = 0; i < this.#keys.length; i++) {
      if (this.#keys[i] === key) found = found === null ? this.#values[i] : `${found}, ${this.#values[i]}`;
    }
    return found;
  }

  getSetCookie(): string[] {
    const cookies: string[] = [];
    for (let i = 0; i < this.#keys.length; i++) if (this.#keys[i] === SET_COOKIE) cookies.push(this.#values[i]);
    return cookies;
  }

  has(name: string): boolean {
    arity(arguments.length, 1, 'has');
    return this.#keys.indexOf(headerName(name, 'has')) !== -1;
  }

  set(name: string, value: string): void {
    arity(arguments.length, 2, 'set');
    const key = headerName(name, 'set');
    const normal = headerValue(value, 'set');
    const first = this.#keys.indexOf(key);
    if (first === -1) return this.#push(`${name}`, key, normal);
    this.#values[first] = normal;
    for (let i = this.#keys.length - 1; i > first; i--) if (this.#keys[i] === key) this.#remove(i);
    this.#sorted = null;
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    arity(arguments.length, 1, 'forEach');
    if (typeof callback !== 'function') throw new TypeError('Headers.forEach: the callback is not a function');
    // The list is read again at each step, as the standard's iteration does: changes made by the callback show.
    for (let i = 0; i < this.#pairs().length; i++) {
      const [name, value] = this.#pairs()[i];
      callback.call(thisArg, value, name, this as unknown as Headers);
    }
  }

  entries(): HeadersIterator<[string, string]> {
    return new LightHeadersIterator(() => this.#pairs(), 'entries') as unknown as HeadersIterator<[string, string]>;
  }

  keys(): HeadersIterator<string> {
    return new LightHeadersIterator(() => this.#pairs(), 'keys') as unknown as HeadersIterator<string>;
  }

  values(): HeadersIterator<string> {
    return new LightHeadersIterator(() => this.#pairs(), 'values') as unknown as HeadersIterator<string>;
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  /** The fields in the order given, names as first given: what a server writes. */
  [FIELD_LIST](): HeaderList {
    return this.#names.map((name, i) => [name, this.#values[i]]);
  }

  /** What Node's console shows (the runtime's own inspector would refuse this object). */
  [Symbol.for('nodejs.util.inspect.custom')](
    _depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    return `Headers ${inspect(Object.fromEntries(this.#pairs()), options)}`;
  }

  /** The name the list already has for `key` (the standard keeps the first one's case), or undefined. */
  #firstName(key: string): string | undefined {
    const at = this.#keys.indexOf(key);
    return at === -1 ? undefined : this.#names[at];
  }

  #push(name: string, key: string, value: string): void {
    this.#names.push(name);
    this.#keys.push(key);
    this.#values.push(value);
    this.#sorted = null;
  }

  #remove(i: number): void {
    this.#names.splice(i, 1);
    this.#keys.splice(i, 1);
    this.#values.splice(i, 1);
  }

  /** Fetch's "sort and combine": names lower-cased and sorted, values of a name joined, each Set-Cookie its own. */
  #pairs(): Pairs {
    if (this.#sorted) return this.#sorted;
    const order = [...new Set(this.#keys)].sort();
    const pairs: Pairs = [];
    for (const key of order) {
      if (key === SET_COOKIE) {
        for (const cookie of this.getSetCookie()) pairs.push([key, cookie]);
      } else {
        pairs.push([key, this.#combined(key)!]);
      }
    }
    return (this.#sorted = pairs);
  }
}

Object.setPrototypeOf(LightHeaders.prototype, NativeHeaders.prototype);
Object.defineProperty(LightHeaders, 'name', { value: 'Headers' });

let lightHeadersOn = false;

/**
 * Makes `headersOf` give LightHeaders: the Node adapter's choice. Node's Response and Request take
 * any iterable of pairs as headers; Deno's Response takes any object that inherits its
 * Headers.prototype for one of its own and reads private state it does not have ("Cannot read
 * properties of undefined (reading 'length')"), so Deno keeps its own Headers.
 */
export function useLightHeaders(): void {
  lightHeadersOn = true;
}

/** Whether Headers keeps `value` as it is (a light response's init then needs no Headers to normalize it). */
export function isHeaderValueAsIs(value: string): boolean {
  return !UNUSUAL_VALUE.test(value);
}

/** Headers over fields already checked (a parsed request, a light response's init). */
export function headersOf(fields: HeaderList): Headers {
  return lightHeadersOn ? LightHeaders.trusted(fields) : new NativeHeaders(fields);
}

/** The iterator of `entries()`, `keys()` and `values()`: it reads the list again at each step. */
class LightHeadersIterator {
  #index = 0;
  constructor(
    private readonly pairs: () => Pairs,
    private readonly kind: 'entries' | 'keys' | 'values',
  ) {}

  next(): IteratorResult<unknown> {
    const pairs = this.pairs();
    if (this.#index >= pairs.length) return { value: undefined, done: true };
    const [name, value] = pairs[this.#index++];
    return { value: this.kind === 'entries' ? [name, value] : this.kind === 'keys' ? name : value, done: false };
  }
}

const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object;
Object.setPrototypeOf(LightHeadersIterator.prototype, iteratorPrototype);
Object.defineProperty(LightHeadersIterator.prototype, Symbol.toStringTag, { value: 'Headers Iterator', configurable: true });

function arity(given: number, needed: number, method: string): void {
  if (given < needed)
    throw new TypeError(`Headers.${method}: ${needed} argument${needed > 1 ? 's' : ''} required, but only ${given} present`);
}

/** A token (RFC 9110 §5.1, so a ByteString too), lower-cased: how lookups compare names. */
function headerName(name: unknown, method: string): string {
  const text = `${name as string}`; // a Symbol throws TypeError here, as WebIDL's ToString does
  if (!isFieldName(text)) throw new TypeError(`Headers.${method}: ${JSON.stringify(text)} is an invalid header name`);
  return text.toLowerCase();
}

/** A WebIDL ByteString, normalized (HTTP whitespace off both ends), without NUL, CR or LF (Fetch §5.2). */
function headerValue(value: unknown, method: string): string {
  const text = `${value as string}`;
  if (isHeaderValueAsIs(text)) return text;
  if (ABOVE_LATIN1.test(text))
    throw new TypeError(`Headers.${method}: ${JSON.stringify(text)} has a character above U+00FF (not a ByteString)`);
  const normal = text.replace(EDGE_WHITESPACE, '');
  if (FORBIDDEN_IN_VALUE.test(normal)) throw new TypeError(`Headers.${method}: ${JSON.stringify(normal)} is an invalid header value`);
  return normal;
}
