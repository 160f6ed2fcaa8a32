// The HTTP/1.1 request parser peers share one shape (ParserDriver): `make(input)` returns an
// operation that parses all of `input` and touches method, url and every header name and value as
// strings (the work a server does before calling a handler). This file: Node's own llhttp (the C++
// binding node:http uses), the one that runs only on Node; the others are llhttp-wasm.ts,
// milo.ts and http-parser-js.ts.
import { createRequire } from 'node:module';
import type { ParserDriver } from './wirespeed-parsers.js';

export { wirespeedLazy, wirespeedStrings, type ParserDriver } from './wirespeed-parsers.js';

const require = createRequire(import.meta.url);

export interface CallbackParser {
  initialize?(type: number, resource: object): void;
  execute(data: Uint8Array): unknown;
  [key: number]: unknown;
}

/** The statics of llhttp's parser class, which node:http and http-parser-js share. */
export interface CallbackParserStatics {
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
