// The complete-message API: one whole message in, one parsed message out.
import { concatAll } from '../bytes.js';
import { expectBytes } from '../errors.js';
import { HttpParseError } from './errors.js';
import type { HeaderList, MessageHead, RequestHead, ResponseHead } from './head.js';
import type { ParserOptions } from './options.js';
import { RequestParser, ResponseParser, type MessageHandler, type MessageParser } from './parser.js';

const EMPTY = new Uint8Array(0);

interface ParsedMessage {
  versionMajor: number;
  versionMinor: number;
  /** Wire order, original case. */
  headers: HeaderList;
  /** The body, de-chunked. */
  body: Uint8Array;
  trailers: HeaderList;
  keepAlive: boolean;
  /** Bytes of the input this message used, so pipelined input can be walked. */
  bytesConsumed: number;
}

/** What parseRequest returns: the head, the whole (de-chunked) body and the trailers. */
export interface ParsedRequest extends ParsedMessage {
  method: string;
  url: string;
  upgrade: boolean;
  expectContinue: boolean;
}

/** What parseResponse returns: the head, the whole (de-chunked) body and the trailers. */
export interface ParsedResponse extends ParsedMessage {
  status: number;
  reason: string;
  upgrade: boolean;
}

/** Collects one message, then pauses the parser so that the rest of the input is left alone. */
class Collector<H extends MessageHead> implements MessageHandler<H> {
  head: H | undefined;
  chunks: Uint8Array[] = [];
  trailers: HeaderList = [];
  done = false;
  parser!: MessageParser<H>;

  onHead(head: H): void {
    this.head = head;
  }
  onBody(chunk: Uint8Array): void {
    this.chunks.push(chunk);
  }
  onTrailers(trailers: HeaderList): void {
    this.trailers = trailers;
  }
  onComplete(): void {
    this.done = true;
    this.parser.pause();
  }

  run(parser: MessageParser<H>, bytes: Uint8Array, untilClose: boolean): H {
    this.parser = parser;
    this.head = undefined;
    this.chunks = [];
    this.trailers = [];
    this.done = false;
    parser.execute(bytes);
    if (!this.done && untilClose) parser.finish();
    if (!this.done || !this.head) throw new HttpParseError('ERR_INCOMPLETE', 'the input ends inside the message');
    return this.head;
  }

  body(): Uint8Array {
    return this.chunks.length ? concatAll(this.chunks) : EMPTY;
  }
}

class MessageView<H extends MessageHead> implements ParsedMessage {
  constructor(
    readonly head: H,
    readonly body: Uint8Array,
    readonly trailers: HeaderList,
    readonly bytesConsumed: number,
  ) {}
  get versionMajor(): number {
    return this.head.versionMajor;
  }
  get versionMinor(): number {
    return this.head.versionMinor;
  }
  get headers(): HeaderList {
    return this.head.headers;
  }
  get keepAlive(): boolean {
    return this.head.keepAlive;
  }
  get upgrade(): boolean {
    return this.head.upgrade;
  }
}

class RequestView extends MessageView<RequestHead> implements ParsedRequest {
  get method(): string {
    return this.head.method;
  }
  get url(): string {
    return this.head.url;
  }
  get expectContinue(): boolean {
    return this.head.expectContinue;
  }
}

class ResponseView extends MessageView<ResponseHead> implements ParsedResponse {
  get status(): number {
    return this.head.status;
  }
  get reason(): string {
    return this.head.reason;
  }
}

/**
 * With default options, one parser and collector serve every call (reset each time): making a
 * parser per call was a fifth of a small request's parse. Calls never nest (no user callbacks),
 * and a head outlives the next call (it copies its record out of the wasm table first).
 */
let defaultRequest: { collector: Collector<RequestHead>; parser: RequestParser } | undefined;

/** Parses the first request in `bytes`; throws HttpParseError (ERR_INCOMPLETE when cut short). */
export function parseRequest(bytes: Uint8Array, options?: ParserOptions): ParsedRequest {
  expectBytes(bytes, 'parseRequest(bytes)');
  let collector: Collector<RequestHead>;
  let parser: RequestParser;
  if (options === undefined) {
    defaultRequest ??= (() => {
      const c = new Collector<RequestHead>();
      return { collector: c, parser: new RequestParser(c) };
    })();
    ({ collector, parser } = defaultRequest);
    parser.reset();
  } else {
    collector = new Collector<RequestHead>();
    parser = new RequestParser(collector, options);
  }
  const head = collector.run(parser, bytes, false);
  return new RequestView(head, collector.body(), collector.trailers, parser.bytesConsumed);
}

/**
 * Parses the first response in `bytes`. A body framed by the end of the connection takes the rest
 * of `bytes`. `requestMethod` (default GET) decides HEAD / CONNECT framing.
 */
export function parseResponse(bytes: Uint8Array, options?: ParserOptions & { requestMethod?: string }): ParsedResponse {
  expectBytes(bytes, 'parseResponse(bytes)');
  const collector = new Collector<ResponseHead>();
  const parser = new ResponseParser(collector, options);
  const head = collector.run(parser, bytes, true);
  return new ResponseView(head, collector.body(), collector.trailers, parser.bytesConsumed);
}
