// Every HTTP/1.1 request parser of the benchmark behind one shape: `make(input)` returns an
// operation that parses all of `input` and touches method, url and every header name and value as
// strings (the work a server does before calling a handler). Node-only peers load lazily.
import { createRequire } from 'node:module';
import type { ParserDriver } from './wirespeed-parsers.js';

export { wirespeedLazy, wirespeedStrings, type ParserDriver } from './wirespeed-parsers.js';

const require = createRequire(import.meta.url);

/** Node's fastest bytes → latin1 string (what node:http and undici use internally). */
type Latin1Buffer = Buffer & { latin1Slice(start: number, end: number): string };

interface CallbackParser {
  initialize?(type: number, resource: object): void;
  execute(data: Uint8Array): unknown;
  [key: number]: unknown;
}

/** The statics of llhttp's parser class, which node:http and http-parser-js share. */
interface CallbackParserStatics {
  REQUEST: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
}

/** Node's llhttp, with callbacks as node:http installs them (strings are made in C++). */
export const llhttpNode: ParserDriver = (input) => {
  const { HTTPParser, methods } = require('_http_common') as {
    HTTPParser: CallbackParserStatics & (new () => CallbackParser);
    methods: string[];
  };
  let sink = 0;
  const parser = new HTTPParser();
  parser.initialize!(HTTPParser.REQUEST, {});
  const countHeaders = (headers: string[]) => {
    for (let i = 0; i < headers.length; i++) sink += headers[i].length;
  };
  // As lib/_http_common.js: a URL flushed early is kept until headers complete; the one that comes
  // again with a trailer flush is dropped at message complete.
  let url = '';
  parser[HTTPParser.kOnHeaders] = (headers: string[], part: string) => {
    countHeaders(headers);
    url += part;
  };
  parser[HTTPParser.kOnHeadersComplete] = (
    _ma: number,
    _mi: number,
    headers: string[] | undefined,
    method: number,
    full: string | undefined,
  ) => {
    if (headers) countHeaders(headers);
    sink += methods[method].length + (full ?? url).length;
    url = '';
    return 0;
  };
  parser[HTTPParser.kOnBody] = (chunk: Uint8Array) => {
    sink += chunk.length;
  };
  parser[HTTPParser.kOnMessageComplete] = () => {
    url = '';
  };
  const buffer = Buffer.from(input);
  return () => {
    const result = parser.execute(buffer);
    if (result instanceof Error) throw result;
    return sink;
  };
};

/** http-parser-js: llhttp's API in pure JavaScript. */
export const httpParserJs: ParserDriver = (input) => {
  const { HTTPParser } = require('http-parser-js') as {
    HTTPParser: CallbackParserStatics & { methods: string[] } & (new (type: number) => CallbackParser);
  };
  let sink = 0;
  const parser = new HTTPParser(HTTPParser.REQUEST);
  // Trailers arrive here.
  parser[HTTPParser.kOnHeaders] = (headers: string[]) => {
    for (let i = 0; i < headers.length; i++) sink += headers[i].length;
  };
  parser[HTTPParser.kOnHeadersComplete] = (info: { headers: string[]; method: number; url: string }) => {
    for (let i = 0; i < info.headers.length; i++) sink += info.headers[i].length;
    sink += HTTPParser.methods[info.method].length + info.url.length;
  };
  parser[HTTPParser.kOnBody] = (_chunk: Uint8Array, _start: number, length: number) => {
    sink += length;
  };
  parser[HTTPParser.kOnMessageComplete] = () => {};
  const buffer = Buffer.from(input);
  return () => {
    const result = parser.execute(buffer);
    if (result instanceof Error) throw result;
    return sink;
  };
};

interface Milo {
  alloc(len: number): number;
  create(): number;
  parse(parser: number, data: number, length: number): number;
  getMethod(parser: number): number;
  memory: WebAssembly.Memory;
  Methods: Record<number, string>;
  MESSAGE_TYPE_REQUEST: number;
  setMode(parser: number, mode: number): void;
  setOnUrl(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnMethod(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnHeaderName(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnHeaderValue(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnData(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnTrailerName(parser: number, cb: (p: number, at: number, len: number) => void): void;
  setOnTrailerValue(parser: number, cb: (p: number, at: number, len: number) => void): void;
}

/** Milo: a Rust HTTP/1.1 parser compiled to wasm, with offset callbacks. */
export const milo: ParserDriver = (input) => {
  const m = (require('@perseveranza-pets/milo') as { milo: Milo }).milo;
  let sink = 0;
  const buffer = Buffer.from(input) as Latin1Buffer;
  const text = (at: number, len: number) => buffer.latin1Slice(at, at + len);
  const parser = m.create();
  m.setMode(parser, m.MESSAGE_TYPE_REQUEST);
  m.setOnMethod(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnUrl(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnHeaderName(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnHeaderValue(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnData(parser, (_p, _at, len) => (sink += len));
  m.setOnTrailerName(parser, (_p, at, len) => (sink += text(at, len).length));
  m.setOnTrailerValue(parser, (_p, at, len) => (sink += text(at, len).length));
  const data = m.alloc(input.length);
  return () => {
    new Uint8Array(m.memory.buffer, data, input.length).set(input);
    const consumed = m.parse(parser, data, input.length);
    if (consumed !== input.length) throw new Error(`milo consumed ${consumed} of ${input.length}`);
    return sink;
  };
};
