// A `Response` for hot handlers, installed as the global one by `serve()` on Node (as
// @hono/node-server does with its own). Node's Response (undici) wraps every body in a web stream
// and a transferable object: about 20 µs per response on Node 20, more than the rest of the
// server's work for a small request. This one keeps its body and fields as given and answers the
// members apps use (status, headers, body, text(), clone(), ...) itself; the server writes the
// body straight out. Anything else (formData(), an unusual init) goes to a real Response, made
// once; from then on every member is the real one's. It passes `instanceof Response` both ways.
//
// Bodies kept as given: string, bytes (not copied, unlike the Fetch standard's: the app must not
// change them until the response is sent), Blob, URLSearchParams, an untouched `body` stream of
// another light response (so middleware that re-wraps a response, `new Response(res.body, res)`,
// keeps it light and its length known), and any other stream, for the server to read (a member
// that touches such a body makes the real Response first).
//
// A `Headers` object given as the init is read when the fields are first needed (by `headers`, the
// server, a copy), not at construction: as with @hono/node-server's Response, a field set on it
// after `new Response(body, { headers })` still goes out. @hono/node-server's serveStatic calls
// `onFound` after making its response, and the Cache-Control a hono app sets there was lost.
import { fieldList, isFieldName } from '../fields.js';
import { delegateToNative, withBodyLocked, withBodyRead } from './native-delegate.js';
import { headersOf, isHeaderValueAsIs } from './light-headers.js';

/** The runtime's own Response, even when this module loads after the global was replaced. */
const NATIVE = Symbol.for('wirespeed.NativeResponse');
const NativeResponse: typeof Response = (globalThis.Response as unknown as Record<symbol, typeof Response>)[NATIVE] ?? globalThis.Response;

/** A body this class reads itself. */
type KeptBody = string | Uint8Array<ArrayBuffer> | Blob | null;
/** And a stream not made here, which only the server reads (the members go to a real Response). */
type LightBody = KeptBody | ReadableStream<Uint8Array>;
type Fields = [string, string][];

/** What the server writes for a light response. */
export interface LightParts {
  readonly status: number;
  /** Empty: the registered reason phrase. */
  readonly statusText: string;
  readonly headers: Headers | Fields;
  readonly body: LightBody;
}

/** RFC 9110 §15.1 reason-phrase (what the Fetch standard accepts as statusText). */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
/** Response.redirect's default status and the ones it takes (Fetch standard, "redirect status"). */
const DEFAULT_REDIRECT_STATUS = 302;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Any base URL: a relative reference that parses against it parses against the client's. */
const RELATIVE_CHECK_BASE = 'http://localhost/';
const TEXT_PLAIN = 'text/plain;charset=UTF-8';
/**
 * A Content-Type as the Fetch standard serializes the MIME type it extracts (lowercase type and
 * parameter names, no spaces, token values): `blob()` gives it as the type. Any other value, or a
 * parameter named twice, goes through the real Response, which parses it as the standard says.
 */
const SERIALIZED_MIME = /^[a-z0-9!#$%&'*+.^_`|~-]+\/[a-z0-9!#$%&'*+.^_`|~-]+(?:;[a-z0-9!#$%&'*+.^_`|~-]+=[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;
const FORM_URLENCODED = 'application/x-www-form-urlencoded;charset=UTF-8';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A body stream made by a light response: adoptable by another one while nobody has read it. */
interface StreamSource {
  body: KeptBody;
  /** A read was asked for (the stream is disturbed), or another response took the body. */
  taken: boolean;
}
const streamSources = new WeakMap<ReadableStream, StreamSource>();

/** Whether the runtime's Response gives a body of `body`'s kind as a byte stream (a BYOB reader reads it). */
function byteBody(body: BodyInit): boolean {
  try {
    new NativeResponse(body).body!.getReader({ mode: 'byob' }).releaseLock();
    return true;
  } catch {
    return false;
  }
}

/**
 * The Fetch standard makes every body's stream a byte stream. undici's Response does (Node);
 * Deno 2.9's only for a Blob. A light body's stream is what the runtime's is for its kind.
 */
const BYTE_BODIES = { blob: byteBody(new Blob([])), other: byteBody('') };

function bodyStream(source: StreamSource): ReadableStream<Uint8Array> {
  // highWaterMark 0: `pull` runs only when someone reads, so "pulled" means "disturbed". A byte
  // stream where the runtime's is (BYTE_BODIES): what it enqueues is its own (a copy or a fresh
  // encoding), since enqueueing hands the buffer over.
  const byteStream = source.body instanceof Blob ? BYTE_BODIES.blob : BYTE_BODIES.other;
  const stream = new ReadableStream(
    {
      type: byteStream ? 'bytes' : undefined,
      async pull(controller: ReadableByteStreamController | ReadableStreamDefaultController<Uint8Array>) {
        source.taken = true;
        const body = source.body;
        if (body !== null) {
          const bytes =
            typeof body === 'string' ? encoder.encode(body) : body instanceof Blob ? new Uint8Array(await body.arrayBuffer()) : body;
          // The app's own bytes are not handed to a reader, which may change what it reads in place.
          if (bytes.length) controller.enqueue(bytes === body ? bytes.slice() : bytes);
        }
        controller.close();
        // A BYOB read still waiting (an empty body) ends only when answered with no bytes.
        if ('byobRequest' in controller) controller.byobRequest?.respond(0);
      },
      // A cancel disturbs the stream as a read does: the body is used.
      cancel() {
        source.taken = true;
      },
    },
    { highWaterMark: 0 },
  );
  streamSources.set(stream, source);
  return stream;
}

/** Whether `type` is already what the Fetch standard would serialize it as (SERIALIZED_MIME, each parameter once). */
function isSerializedMime(type: string): boolean {
  if (!SERIALIZED_MIME.test(type)) return false;
  const names = type
    .split(';')
    .slice(1)
    .map((parameter) => parameter.slice(0, parameter.indexOf('=')));
  return new Set(names).size === names.length;
}

/**
 * Whether a stream not made here was read from or cancelled ("disturbed", which a Response
 * refuses as a body). No public API of the Streams standard tells; an adapter whose runtime can
 * sets it (Node's `stream.isDisturbed`). Without it such a stream is taken, and what is left of
 * it is sent.
 */
let isDisturbedStream: (stream: ReadableStream) => boolean = () => false;

/** Sets how a stream not made here is found disturbed (see isDisturbedStream). */
export function useDisturbedCheck(check: (stream: ReadableStream) => boolean): void {
  isDisturbedStream = check;
}

let partsOf: (response: Response) => LightParts | undefined;
let realOf: (response: Response) => Response;

class LightResponseImpl {
  #status = 200;
  #statusText = '';
  /** The fields as given, until `headers` is asked for; then `#headers` is the truth. */
  #fields: Fields = [];
  #headers: Headers | undefined;
  /** A Headers object given as the init, not read yet (`#given()` reads it), and the body's default Content-Type. */
  #initHeaders: Headers | undefined;
  #defaultType: string | null = null;
  #body: LightBody = null;
  /** Made when `body` is asked for. */
  #stream: StreamSource | undefined;
  #streamObject: ReadableStream<Uint8Array> | null = null;
  #used = false;
  /** The real Response, once one was needed. */
  #native: Response | undefined;
  /**
   * `#native` stands in for this one with a body that is no use (read, cancelled, or locked by a
   * reader when it was made): this response's own body stream and state stay the truth for
   * `body` and `bodyUsed`; the runtime's refuses reads and clones as the standard does.
   */
  #standIn = false;

  static {
    realOf = (response) => (#native in response ? (response as unknown as LightResponseImpl).toResponse() : response);
    partsOf = (response) => {
      if (!(#native in response)) return undefined;
      const self = response as unknown as LightResponseImpl;
      if (self.#native) return undefined;
      if (self.#unusable || (self.#body instanceof ReadableStream && self.#body.locked))
        throw new TypeError('the response body was already read, or a reader holds its stream');
      // The server takes the body now: a read of the body stream after this finds it taken.
      if (self.#stream) self.#stream.taken = true;
      return { status: self.#status, statusText: self.#statusText, headers: self.#headers ?? self.#given(), body: self.#body };
    };
  }

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    if (!this.#init(body, init)) this.#native = new NativeResponse(body, init);
  }

  /** Keeps `body` and `init` light; false when only a real Response can take them. */
  #init(body: BodyInit | null | undefined, init: ResponseInit | undefined, textType = TEXT_PLAIN): boolean {
    let contentType: string | null = null;
    if (body === null || body === undefined) this.#body = null;
    else if (typeof body === 'string') {
      this.#body = body;
      contentType = textType;
    } else if (body instanceof Uint8Array) {
      // Kept, not copied (the Fetch standard copies; @hono/node-server's Response keeps them too):
      // a copy of a 20 KB body halved the requests a server answered (docs/architecture.md).
      this.#body = body as Uint8Array<ArrayBuffer>;
    } else if (body instanceof ArrayBuffer) this.#body = new Uint8Array(body);
    else if (ArrayBuffer.isView(body)) this.#body = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    else if (body instanceof Blob) {
      this.#body = body;
      contentType = body.type || null;
    } else if (body instanceof URLSearchParams) {
      this.#body = body.toString();
      contentType = FORM_URLENCODED;
    } else if (body instanceof ReadableStream) {
      if (body.locked) return false; // the runtime's Response refuses it, with its own error
      const source = streamSources.get(body);
      if (source?.taken) return false; // read from or cancelled: disturbed, which the runtime's Response refuses
      if (source) {
        // The untouched body stream of another light response: its bytes, so its length, are known.
        // Both share it, as two Responses share a stream: whichever reads it first has the body,
        // and the other finds it read (undici's order; Deno's Response copies the body instead).
        this.#body = source.body;
        this.#stream = source;
        this.#streamObject = body as ReadableStream<Uint8Array>;
      } else if (isDisturbedStream(body))
        return false; // refused by the runtime's Response, with its own error
      else this.#body = body as ReadableStream<Uint8Array>; // any other stream (a file's): the server reads it
    } else return false;

    if (init !== undefined && init !== null) {
      if (typeof init !== 'object') return false;
      if (#status in init && !init.#native) {
        // Another light response as the init (middleware re-wrapping one): its parts as they are.
        this.#status = init.#status;
        this.#statusText = init.#statusText;
        this.#fields = init.#headers ? [...init.#headers] : init.#given().map(([name, value]) => [name, value]);
        return !(this.#body !== null && NULL_BODY_STATUS.has(this.#status));
      }
      const status = init.status;
      if (status !== undefined) {
        if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) return false;
        this.#status = status;
      }
      const statusText = init.statusText;
      if (statusText !== undefined) {
        if (typeof statusText !== 'string' || !REASON_PHRASE.test(statusText)) return false;
        this.#statusText = statusText;
      }
      const headers = init.headers;
      if (headers instanceof Headers) this.#initHeaders = headers;
      else {
        const fields = fieldsOf(headers);
        if (!fields) return false;
        this.#fields = fields;
      }
    }
    if (this.#body !== null && NULL_BODY_STATUS.has(this.#status)) return false;
    if (this.#initHeaders) this.#defaultType = contentType;
    else if (contentType !== null && !hasField(this.#fields, 'content-type')) this.#fields.push(['content-type', contentType]);
    return true;
  }

  /** The fields as given: a Headers object given as the init is read the first time they are needed. */
  #given(): Fields {
    const headers = this.#initHeaders;
    if (headers) {
      this.#initHeaders = undefined;
      this.#fields = fieldList(headers);
      const type = this.#defaultType;
      if (type !== null && !hasField(this.#fields, 'content-type')) this.#fields.push(['content-type', type]);
    }
    return this.#fields;
  }

  /** Like `Response.json()`, light when `data` serialises and the init is plain. */
  static json(data: unknown, init?: ResponseInit): Response {
    const text = JSON.stringify(data) as string | undefined;
    if (text === undefined) return NativeResponse.json(data, init);
    const response = new LightResponseImpl();
    if (!response.#init(text, init, 'application/json')) return NativeResponse.json(data, init);
    return response as unknown as Response;
  }

  static error(): Response {
    return NativeResponse.error();
  }

  /**
   * Like `Response.redirect()`, and a relative reference (`'/login'`) too: the standard parses it
   * against the page's base URL, which a server has none of, so undici and Deno throw; Bun.serve
   * takes it, and frameworks written for Bun send one (Elysia's `redirect('/')`). It goes into
   * Location as given (RFC 9110 §10.2.2 allows a relative reference there), once it parses.
   */
  static redirect(url: string | URL, status = DEFAULT_REDIRECT_STATUS): Response {
    if (typeof url !== 'string' || URL.canParse(url) || !URL.canParse(url, RELATIVE_CHECK_BASE))
      return NativeResponse.redirect(url, status);
    if (!REDIRECT_STATUSES.has(status))
      throw new RangeError(`Response.redirect: ${status} is not a redirect status (301, 302, 303, 307, 308)`);
    return new LightResponseImpl(null, { status, headers: { location: url } }) as unknown as Response;
  }

  // Native responses are instances too, so `instanceof Response` keeps working for responses
  // made before the global was replaced, or by fetch(). A subclass (`class MyResponse extends
  // Response`) inherits this method and keeps the ordinary check: its own instances only.
  static [Symbol.hasInstance](this: unknown, value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(this === LightResponseImpl ? NativeResponse : this, value);
  }

  get status(): number {
    return this.#native ? this.#native.status : this.#status;
  }

  get ok(): boolean {
    const status = this.status;
    return status >= 200 && status <= 299;
  }

  get statusText(): string {
    return this.#native ? this.#native.statusText : this.#statusText;
  }

  get type(): ResponseType {
    return this.#native ? this.#native.type : 'default';
  }

  get url(): string {
    return this.#native ? this.#native.url : '';
  }

  get redirected(): boolean {
    return this.#native ? this.#native.redirected : false;
  }

  get headers(): Headers {
    if (this.#native) return this.#native.headers;
    return (this.#headers ??= headersOf(this.#given()));
  }

  get body(): ReadableStream<Uint8Array> | null {
    const native = this.#real();
    if (native && !this.#standIn) return native.body;
    if (this.#body === null) return null;
    if (!this.#stream) {
      this.#stream = { body: this.#body as KeptBody, taken: this.#used }; // a stream body went to #real()
      this.#streamObject = bodyStream(this.#stream);
      if (this.#used) this.#streamObject.getReader(); // read already: locked, as the standard leaves it
    }
    return this.#streamObject;
  }

  get bodyUsed(): boolean {
    const native = this.#real();
    if (native && !this.#standIn) return native.bodyUsed;
    return this.#taken;
  }

  /** The body was read here, or its stream was read from or cancelled (or another response took it). */
  get #taken(): boolean {
    return this.#used || (this.#stream?.taken ?? false);
  }

  /** Taken, or its stream locked by a reader: the Fetch standard's "unusable" (no read or clone). */
  get #unusable(): boolean {
    return this.#taken || (this.#streamObject?.locked ?? false);
  }

  text(): Promise<string> {
    const native = this.#real();
    if (native) return native.text();
    return this.#consume().then((body) => (typeof body === 'string' ? body : body instanceof Blob ? body.text() : decoder.decode(body)));
  }

  json(): Promise<unknown> {
    if (this.#native) return this.#native.json();
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#native) return this.#native.arrayBuffer();
    return this.bytes().then((bytes) => bytes.buffer);
  }

  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const native = this.#real();
    if (native) return (native as unknown as { bytes(): Promise<Uint8Array<ArrayBuffer>> }).bytes();
    return this.#consume().then(async (body) =>
      typeof body === 'string'
        ? encoder.encode(body)
        : body instanceof Blob
          ? new Uint8Array(await body.arrayBuffer())
          : new Uint8Array(body),
    );
  }

  blob(): Promise<Blob> {
    const native = this.#real();
    if (native) return native.blob();
    const type = this.headers.get('content-type') ?? '';
    if (type !== '' && type !== TEXT_PLAIN && !isSerializedMime(type)) return this.toResponse().blob();
    return this.#consume().then((body) => new Blob([body], { type }));
  }

  clone(): Response {
    const native = this.#real();
    if (native) return native.clone();
    if (this.#taken) throw new TypeError('Response.clone: the body was already read');
    if (this.#unusable) throw new TypeError("Response.clone: a reader holds the body's stream");
    const copy = new LightResponseImpl();
    copy.#status = this.#status;
    copy.#statusText = this.#statusText;
    copy.#fields = this.#headers ? fieldList(this.#headers) : this.#given().map(([name, value]) => [name, value]);
    copy.#body = this.#body; // this side never changes a body in place (a body stream's reader gets a copy)
    return copy as unknown as Response;
  }

  /**
   * The real Response when there is one, or when the body is a stream not made here: that stays
   * light only for the server, which reads it itself; any member that touches the body (even
   * `bodyUsed`: the public API cannot tell a disturbed stream) goes to a real one.
   */
  #real(): Response | undefined {
    if (!this.#native && this.#body instanceof ReadableStream) return this.toResponse();
    return this.#native;
  }

  /** The body, once: a second read rejects as the Fetch standard says. */
  #consume(): Promise<string | Uint8Array<ArrayBuffer> | Blob> {
    // A null body is never used (Fetch: bodyUsed needs a body): it reads as empty, again and again.
    if (this.#body === null) return Promise.resolve(new Uint8Array(0));
    if (this.#taken) return Promise.reject(new TypeError('the response body was already read'));
    if (this.#unusable) return Promise.reject(new TypeError("a reader holds the response body's stream"));
    this.#used = true;
    if (this.#stream) this.#stream.taken = true;
    // Its stream, if one was handed out, is locked from now on, as the standard's read leaves it.
    if (this.#streamObject && !this.#streamObject.locked) this.#streamObject.getReader();
    return Promise.resolve((this.#body as KeptBody) ?? new Uint8Array(0)); // a stream body went to #real()
  }

  /** The real Response, made once; from then on every member is its. */
  toResponse(): Response {
    if (this.#native) return this.#native;
    // A stream not made here may have been read by another holder since it was given (a response
    // re-wrapped from it and then read): a locked one is taken as read, not refused.
    const foreign = this.#body instanceof ReadableStream ? this.#body : null;
    const taken = this.#taken || (foreign?.locked ?? false);
    const body = this.#streamObject && !this.#stream!.taken ? this.#streamObject : this.#body;
    const fields = fieldList(this.#headers ?? this.#given()); // pairs: the runtime never reads a LightHeaders' state
    const init = { status: this.#status, statusText: this.#statusText, headers: fields };
    const make = (stream: ReadableStream) => new NativeResponse(stream, init);
    // A kept body read or held by a reader: the runtime's stands in, this one's stream stays the body.
    this.#standIn = foreign === null && this.#unusable;
    this.#native = taken ? withBodyRead(make) : this.#standIn ? withBodyLocked(make) : new NativeResponse(body, init);
    // The body's default Content-Type is added at construction only: one deleted since stays deleted.
    if (!hasField(fields, 'content-type')) this.#native.headers.delete('content-type');
    return this.#native;
  }
}

Object.defineProperty(LightResponseImpl, 'name', { value: 'Response' });
Object.defineProperty(LightResponseImpl, 'length', { value: NativeResponse.length }); // WebIDL: both arguments optional, 0
Object.defineProperty(LightResponseImpl, NATIVE, { value: NativeResponse });
delegateToNative(LightResponseImpl.prototype, NativeResponse.prototype, (self) => (self as LightResponseImpl).toResponse(), 'Response');

/** Use it as `Response` (serve() installs it as the global one on Node); it is typed as one. */
export const LightResponse: typeof Response = LightResponseImpl as unknown as typeof Response;

/** The runtime's own Response class. */
export const RuntimeResponse: typeof Response = NativeResponse;

/** The parts of a light response, for the server to write; undefined for any other Response. Throws if its body was read. */
export function lightPartsOf(response: Response): LightParts | undefined {
  return partsOf(response);
}

/**
 * The runtime's own Response for `response`: a light one made real (from then on its members are
 * the real one's), any other as it is. For code that takes only the runtime's (Deno.serve).
 */
export function runtimeResponseOf(response: Response): Response {
  return realOf(response);
}

/** Replaces the global Response with LightResponse (once; idempotent). */
export function installLightResponse(): void {
  if (globalThis.Response !== LightResponse) globalThis.Response = LightResponse;
}

function hasField(fields: Fields, lowerName: string): boolean {
  // The same string first: most handlers write the name in lower case, as a literal.
  for (const [name] of fields)
    if (name === lowerName || (name.length === lowerName.length && name.toLowerCase() === lowerName)) return true;
  return false;
}

/** Headers given as pairs or a plain record, checked as Headers would; undefined to let the real class decide. */
function fieldsOf(init: HeadersInit | undefined): Fields | undefined {
  const fields: Fields = [];
  if (init === undefined || init === null) return fields;
  if (typeof init !== 'object') return undefined;
  // A plain record first: what handlers write most (`{ 'content-type': ... }`).
  const proto = Object.getPrototypeOf(init) as unknown;
  if (proto === Object.prototype || proto === null) {
    const record = init as Record<string, unknown>;
    for (const name in record) {
      const value = record[name];
      if (!plainField(name, value)) return undefined;
      fields.push([name, value]);
    }
    return fields;
  }
  if (Array.isArray(init)) {
    for (const pair of init) {
      if (!Array.isArray(pair) || pair.length !== 2 || !plainField(pair[0], pair[1])) return undefined;
      fields.push([pair[0], pair[1]]);
    }
    return fields;
  }
  return undefined;
}

function plainField(name: unknown, value: unknown): value is string {
  return typeof name === 'string' && typeof value === 'string' && isHeaderValueAsIs(value) && isFieldName(name);
}
