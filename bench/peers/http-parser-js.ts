// http-parser-js: llhttp's API in pure JavaScript (runs on Node, Deno and, with the browser
// bundle's `buffer` package as node:buffer, in browsers).
import { Buffer } from 'node:buffer';
import httpParserJsPackage from 'http-parser-js';
import type { CallbackParser, CallbackParserStatics } from './http1-parsers.js';
import type { ParserDriver } from './wirespeed-parsers.js';

/** http-parser-js: llhttp's API in pure JavaScript. */
export const httpParserJs: ParserDriver = (input) => {
  const { HTTPParser } = httpParserJsPackage as unknown as {
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
