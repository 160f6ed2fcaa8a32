import { concatAll, Joiner } from '../bytes.js';
import { expectBytes, InvalidArgumentError, InvalidOptionError, typeName } from '../errors.js';
import {
  Chunked,
  OPT_REQUEST_CONNECT,
  OPT_REPORT_ASCII,
  OPT_REQUEST_HEAD,
  OPT_RESPONSE,
  PHASE_DATA,
  PHASE_DATA_CR,
  PHASE_DONE,
} from '../wasm/abi.js';
import { copyWords, wasmCore, type WasmCore } from '../wasm/module.js';
import { HttpParseError } from './errors.js';
import { RequestHead, ResponseHead, type HeaderList, type MessageHead } from './head.js';
import { latin1Range, wantsAsciiHint } from '../latin1.js';
import { PARSER_OPTIONS, resolveOptions, type ParserOptions, type ResolvedOptions } from './options.js';

/** What a parser reports, in order, for each message. */
export interface MessageHandler<H extends MessageHead> {
  onHead(head: H): void;
  /** A piece of the (de-chunked) body: a view of the input, valid until you return. */
  onBody?(chunk: Uint8Array): void;
  onTrailers?(trailers: HeaderList): void;
  onComplete?(): void;
}

const HEAD = 0;
const BODY_BY_LENGTH = 1;
const BODY_BY_CHUNKS = 2;
const BODY_TO_CLOSE = 3;
const UPGRADED = 4;
/** After a message that ends the connection (RFC 9112 §9.6): no more messages may follow. */
const CLOSED = 5;

const EMPTY = new Uint8Array(0);
const CR = 0x0d;
const LF = 0x0a;
const TWO_32 = 0x1_0000_0000;
/**
 * An incomplete head or trailer section up to this size is parsed again at each line's end (a bad
 * byte refused at once); past it, once it may have ended or has doubled (worthParsingAgain).
 */
const EAGER_SECTION_BYTES = 4096;

/**
 * Incremental HTTP/1.1 parser: feed chunks of any size with `execute`, get callbacks. Walks
 * pipelined messages; `pause()` (from a callback) stops after the current event and keeps the
 * rest for `resume()`. Input chunks are referenced, not copied: do not reuse them.
 */
export abstract class MessageParser<H extends MessageHead> {
  /** Bytes of input consumed by parsed messages so far. */
  bytesConsumed = 0;

  protected readonly options: ResolvedOptions;
  private readonly core: WasmCore = wasmCore();
  private state = HEAD;
  private pending: Uint8Array | null = null;
  /** Joins the pending bytes to the next chunk (in place while a head or trailer section comes in many reads). */
  private readonly joiner = new Joiner();
  /**
   * The pending bytes are an incomplete head or trailer section, parsed again only once it may be
   * whole (worthParsingAgain).
   */
  private pendingSection = false;
  /** The length of that section when it was last parsed. */
  private sectionParsedBytes = 0;
  private paused = false;
  private failure: Error | null = null;
  private upgradeData: Uint8Array[] = [];
  /** Whether the connection persists after the current message. */
  private keepAlive = true;
  // Body state: bytes left (length framing), bytes so far, and the chunked decoder's state.
  private remaining = 0;
  private bodyBytes = 0;
  private phase = 0;
  private sizeLo = 0;
  private sizeHi = 0;
  private extBytes = 0;

  constructor(
    protected readonly handler: MessageHandler<H>,
    options?: ParserOptions,
    /** The option names this parser takes (a subclass checks those beyond ParserOptions itself). */
    optionNames: readonly string[] = PARSER_OPTIONS,
  ) {
    if (handler === null || typeof handler !== 'object' || typeof handler.onHead !== 'function') {
      throw new InvalidArgumentError(`a parser needs a handler with an onHead function, got ${typeName(handler)}`);
    }
    for (const name of ['onBody', 'onTrailers', 'onComplete'] as const) {
      if (handler[name] !== undefined && typeof handler[name] !== 'function')
        throw new InvalidArgumentError(`handler.${name} must be a function, got ${typeName(handler[name])}`);
    }
    this.options = resolveOptions(options, optionNames);
    if (wantsAsciiHint) this.options.flags |= OPT_REPORT_ASCII;
  }

  /** OPT_* bits for the next head. */
  protected abstract headOptions(): number;
  /** A head over input[start..end) and the records in `table`, parsed with the OPT_* bits `options`. */
  protected abstract makeHead(input: Uint8Array, start: number, end: number, table: Uint32Array, options: number): H;
  /** Whether this head switches protocols, after which the bytes are not HTTP/1.1. */
  protected abstract switchesProtocol(head: H): boolean;

  /** Parses `chunk`; throws HttpParseError (and stays failed) on a malformed message. */
  execute(chunk: Uint8Array): void {
    if (this.failure) throw this.failure;
    expectBytes(chunk, 'execute(chunk)');
    if (this.state === UPGRADED) {
      if (chunk.length) this.upgradeData.push(chunk);
      return;
    }
    let data = chunk;
    let fresh = 0;
    if (this.pending) {
      data = chunk.length ? this.joiner.join(this.pending, chunk) : this.pending;
      fresh = this.pending.length;
      this.pending = null;
    }
    if (this.paused) {
      this.pending = data;
      return;
    }
    try {
      this.run(data, fresh);
    } catch (error) {
      this.failure = error as Error;
      throw error;
    } finally {
      this.joiner.releaseUnless(this.pending);
    }
  }

  /**
   * The end of input (the peer closed). Completes a read-until-close body; else the message is cut.
   * Empty lines where a message would start are none (RFC 9112 §2.2: a server ignores them; a
   * client may send one after a body).
   */
  finish(): void {
    if (this.failure) throw this.failure;
    if (this.state === BODY_TO_CLOSE) return this.complete();
    if (this.state === UPGRADED || this.state === CLOSED || (this.state === HEAD && onlyEmptyLines(this.pending))) return;
    if (this.pendingSection && !this.paused) {
      // Bytes of a head or trailer section that came after it was last parsed are held unparsed
      // (see run): parsed now, so a bad byte among them gives its own error, as the same input
      // given whole does.
      this.pendingSection = false;
      this.execute(EMPTY);
    }
    this.failure = new HttpParseError('ERR_INCOMPLETE', 'the input ended inside a message');
    throw this.failure;
  }

  /** Back to the state of a new parser (same handler and options), for the next, unrelated input. */
  reset(): void {
    this.bytesConsumed = 0;
    this.state = HEAD;
    this.pending = null;
    this.pendingSection = this.paused = false;
    this.failure = null;
    this.joiner.releaseUnless(null);
    this.upgradeData = [];
    this.keepAlive = true;
    this.remaining = this.bodyBytes = this.phase = this.sizeLo = this.sizeHi = this.extBytes = 0;
  }

  /** Stops after the current callback; bytes already given are kept for `resume()`. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.pendingSection = false;
    if (this.pending) this.execute(EMPTY);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Paused with bytes given that `resume()` will read. */
  get holdsInput(): boolean {
    return this.paused && this.pending !== null && this.pending.length > 0;
  }

  /**
   * While paused: takes the bytes held for `resume()`, for when the application switched protocols
   * after the head (they belong to the new protocol).
   */
  takeHeld(): Uint8Array | null {
    const held = this.pending;
    this.pending = null;
    return held;
  }

  /** After a protocol switch: the bytes that followed the head (they belong to the new protocol). */
  takeUpgradeData(): Uint8Array {
    const parts = this.upgradeData;
    this.upgradeData = [];
    return concatAll(parts);
  }

  get upgraded(): boolean {
    return this.state === UPGRADED;
  }

  private run(data: Uint8Array, fresh: number): void {
    const core = this.core;
    const o = this.options;
    let pos = 0;
    // data[base..] is loaded into the wasm input buffer (-1: not yet in this call), as load number
    // `loaded` of the core: a callback that used the core (another parser, HPACK) means load again.
    let base = -1;
    let loaded = -1;
    while (pos < data.length) {
      if (this.paused) {
        this.pending = data.subarray(pos);
        return;
      }
      switch (this.state) {
        case HEAD: {
          if (this.holdsSection(data, pos, fresh)) return;
          if (base < 0 || core.loads !== loaded) {
            core.load(pos ? data.subarray(pos) : data);
            base = pos;
            loaded = core.loads;
          }
          const flags = o.flags | this.headOptions();
          const rc = core.parseHead(pos - base, data.length - base, o.maxHeaders, o.maxHeadBytes, o.maxTargetBytes, flags);
          if (rc === 0) return this.holdSection(data, pos);
          if (rc < 0) throw HttpParseError.fromWasm(rc, data, pos, data.length);
          const head = this.makeHead(data, pos, pos + rc, core.table, flags);
          core.lendTable(head);
          pos += rc;
          this.bytesConsumed += rc;
          this.startBody(head);
          this.handler.onHead(head);
          if (this.switchesProtocol(head)) {
            this.keepAlive = true;
            this.complete();
            this.state = UPGRADED;
            if (pos < data.length) this.upgradeData.push(data.subarray(pos));
            return;
          }
          if (this.state === HEAD) this.complete();
          break;
        }
        case BODY_BY_LENGTH: {
          const take = Math.min(this.remaining, data.length - pos);
          this.remaining -= take;
          this.bytesConsumed += take;
          this.emitBody(data, pos, pos + take);
          pos += take;
          if (this.remaining === 0) this.complete();
          break;
        }
        case BODY_TO_CLOSE: {
          this.addBodyBytes(data.length - pos);
          this.bytesConsumed += data.length - pos;
          this.emitBody(data, pos, data.length);
          pos = data.length;
          break;
        }
        case BODY_BY_CHUNKS: {
          if (this.phase === PHASE_DATA) {
            // Chunk data needs no parsing: hand it out without a trip through wasm.
            const size = this.sizeHi * TWO_32 + this.sizeLo;
            const take = Math.min(size, data.length - pos);
            const left = size - take;
            this.sizeLo = left % TWO_32;
            this.sizeHi = Math.floor(left / TWO_32);
            if (left === 0) this.phase = PHASE_DATA_CR;
            this.bytesConsumed += take;
            this.emitBody(data, pos, pos + take);
            pos += take;
            break;
          }
          if (this.holdsSection(data, pos, fresh)) return;
          if (base < 0 || core.loads !== loaded) {
            core.load(pos ? data.subarray(pos) : data);
            base = pos;
            loaded = core.loads;
          }
          const consumed = this.decodeChunks(data, pos, base);
          pos += consumed;
          this.bytesConsumed += consumed;
          if (this.phase === PHASE_DONE) {
            this.complete();
          } else if (consumed === 0) {
            // An incomplete trailer section: wait for the rest.
            return this.holdSection(data, pos);
          }
          break;
        }
        case CLOSED:
          throw new HttpParseError('ERR_DATA_AFTER_CLOSE', 'bytes after a message that closes the connection');
        default:
          return;
      }
    }
  }

  /** Holds the incomplete head or trailer section data[pos..] until more comes. */
  private holdSection(data: Uint8Array, pos: number): void {
    this.pending = this.joiner.keep(data, pos);
    this.pendingSection = true;
    this.sectionParsedBytes = data.length - pos;
  }

  /**
   * Whether the incomplete section held (data[pos..], with new bytes from `fresh`) stays held,
   * not worth parsing again yet; else it is parsed now.
   */
  private holdsSection(data: Uint8Array, pos: number, fresh: number): boolean {
    if (!this.pendingSection) return false;
    if (pos < fresh && data.length <= this.options.maxHeadBytes && !this.worthParsingAgain(data, pos, fresh)) {
      this.pending = data;
      return true;
    }
    this.pendingSection = false;
    return false;
  }

  /**
   * Whether the incomplete section data[pos..] (the bytes from `fresh` on are new since it was last
   * parsed) is worth parsing again: once a line ended since, and the section is small
   * (EAGER_SECTION_BYTES), an empty line (its end) may have come, or it has doubled (so a bad byte
   * is still refused before the section ends). Parsed again at every line's end, a head sent a
   * line per read was scanned once per line: 100 times for a 16 KiB head of 100 lines; a 4 MB one
   * (maxHeadBytes raised) in 1,448-byte reads took 354 ms, now 32. A trailer section was parsed
   * again at every read.
   */
  private worthParsingAgain(data: Uint8Array, pos: number, fresh: number): boolean {
    let lf = data.indexOf(LF, fresh);
    if (lf === -1) return false;
    const length = data.length - pos;
    if (length <= EAGER_SECTION_BYTES || length >= 2 * this.sectionParsedBytes) return true;
    // An empty line ends with a new LF after a LF, or after a CR LF (bare LFs: allowBareLF).
    for (; lf !== -1; lf = data.indexOf(LF, lf + 1)) {
      const before = data[lf - 1];
      if (lf > pos && (before === LF || (before === CR && lf - 1 > pos && data[lf - 2] === LF))) return true;
    }
    return false;
  }

  /** One decode_chunked call: emits data spans and, at the end, trailers. Returns bytes consumed. */
  private decodeChunks(data: Uint8Array, pos: number, base: number): number {
    const o = this.options;
    const state = [this.phase, this.sizeLo, this.sizeHi, this.extBytes] as const;
    const rc = this.core.decodeChunked(pos - base, data.length - base, o.maxChunkExtensionBytes, o.maxHeadBytes, o.flags, state);
    if (rc < 0) throw HttpParseError.fromWasm(rc);
    const table = this.core.table;
    this.phase = table[Chunked.PHASE];
    this.sizeLo = table[Chunked.SIZE_LO];
    this.sizeHi = table[Chunked.SIZE_HI];
    this.extBytes = table[Chunked.EXT_BYTES];
    // Copy the records out before any callback: a handler may run another parser on this core.
    const spans = copyWords(table, Chunked.SPANS, 2 * table[Chunked.SPAN_COUNT]);
    const trailerWords = copyWords(table, Chunked.TRAILERS, 4 * table[Chunked.TRAILER_COUNT]);
    // Counted before any of it is handed out: the data of this call and the rest of a chunk still
    // to come (from its size line; the PHASE_DATA path hands that out uncounted). So the limit
    // holds however the data is split across reads, and a chunk over it is refused at once.
    let counted = this.phase === PHASE_DATA ? this.sizeHi * TWO_32 + this.sizeLo : 0;
    for (let i = 1; i < spans.length; i += 2) counted += spans[i];
    this.addBodyBytes(counted);
    for (let i = 0; i < spans.length; i += 2) {
      const start = base + spans[i];
      this.emitBody(data, start, start + spans[i + 1]);
    }
    // The head's field limit holds the trailer section too (the decoder's own cap is MAX_TRAILERS).
    if (this.phase === PHASE_DONE && trailerWords.length / 4 > o.maxHeaders) {
      throw new HttpParseError('ERR_TOO_MANY_HEADERS', `more than ${o.maxHeaders} trailer fields`);
    }
    if (this.phase === PHASE_DONE && this.handler.onTrailers) {
      const trailers: HeaderList = [];
      for (let i = 0; i < trailerWords.length; i += 4) {
        const name = base + trailerWords[i];
        const value = base + trailerWords[i + 2];
        trailers.push([latin1Range(data, name, name + trailerWords[i + 1]), latin1Range(data, value, value + trailerWords[i + 3])]);
      }
      this.handler.onTrailers(trailers);
    }
    return rc;
  }

  /**
   * Hands data[start, end) to onBody. The caller advances its position itself, after this call:
   * an update written inside an optional call's arguments is skipped when onBody is absent, and
   * body bytes were once parsed as requests that way (the lint rule no-restricted-syntax guards it).
   */
  private emitBody(data: Uint8Array, start: number, end: number): void {
    const onBody = this.handler.onBody;
    if (onBody) onBody.call(this.handler, data.subarray(start, end));
  }

  private startBody(head: H): void {
    this.bodyBytes = 0;
    this.keepAlive = head.keepAlive;
    switch (head.bodyKind) {
      case 'length': {
        const length = head.contentLength;
        if (length > this.options.maxBodyBytes) {
          throw new HttpParseError('ERR_BODY_TOO_LARGE', `Content-Length ${length} is over the limit`);
        }
        if (length > 0) {
          this.state = BODY_BY_LENGTH;
          this.remaining = length;
        }
        return;
      }
      case 'chunked':
        this.state = BODY_BY_CHUNKS;
        this.phase = this.sizeLo = this.sizeHi = this.extBytes = 0;
        return;
      case 'until-close':
        this.state = BODY_TO_CLOSE;
        return;
    }
  }

  private addBodyBytes(n: number): void {
    this.bodyBytes += n;
    if (this.bodyBytes > this.options.maxBodyBytes) {
      throw new HttpParseError('ERR_BODY_TOO_LARGE', `the body is over ${this.options.maxBodyBytes} bytes`);
    }
  }

  private complete(): void {
    this.state = this.keepAlive ? HEAD : CLOSED;
    this.handler.onComplete?.();
  }
}

/** The incremental parser for requests (servers). */
export class RequestParser extends MessageParser<RequestHead> {
  protected headOptions(): number {
    return 0;
  }
  protected makeHead(input: Uint8Array, start: number, end: number, table: Uint32Array, options: number): RequestHead {
    return new RequestHead(input, start, end, table, options);
  }
  protected switchesProtocol(head: RequestHead): boolean {
    return head.upgrade;
  }
}

/** ParserOptions plus the method of the request a response answers. */
export interface ResponseParserOptions extends ParserOptions {
  /** The method of the request being answered: HEAD and CONNECT change the framing (RFC 9112 §6.3). */
  requestMethod?: string;
}

/** What the response parser takes: ParserOptions and `requestMethod`. */
const RESPONSE_OPTIONS: readonly string[] = [...PARSER_OPTIONS, 'requestMethod'];

/** Whether `held` (bytes before a start line) is nothing, or empty lines only, the last maybe cut after its CR. */
function onlyEmptyLines(held: Uint8Array | null): boolean {
  if (held === null) return true;
  for (let i = 0; i < held.length; i++) if (held[i] !== (i % 2 === 0 ? CR : LF)) return false;
  return true;
}

/** The incremental parser for responses (clients, proxies). */
export class ResponseParser extends MessageParser<ResponseHead> {
  /** The method of the request the next response answers; set it per message when pipelining. */
  requestMethod: string;

  constructor(handler: MessageHandler<ResponseHead>, options: ResponseParserOptions = {}) {
    super(handler, options, RESPONSE_OPTIONS);
    const method = options.requestMethod ?? 'GET';
    if (typeof method !== 'string')
      throw new InvalidOptionError('requestMethod', `requestMethod must be a string, got ${typeName(method)}`);
    this.requestMethod = method;
  }

  protected headOptions(): number {
    const method = this.requestMethod;
    return OPT_RESPONSE | (method === 'HEAD' ? OPT_REQUEST_HEAD : method === 'CONNECT' ? OPT_REQUEST_CONNECT : 0);
  }
  protected makeHead(input: Uint8Array, start: number, end: number, table: Uint32Array, options: number): ResponseHead {
    return new ResponseHead(input, start, end, table, options);
  }
  protected switchesProtocol(head: ResponseHead): boolean {
    return head.upgrade;
  }
}
