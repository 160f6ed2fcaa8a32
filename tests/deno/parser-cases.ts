// Parser cases run by Node (vitest) and by Deno on the built package, so both runtimes must give
// byte-identical answers. Imports the public entry point only.
import { parseRequest, parseResponse, RequestParser } from '../../dist/src/http1/index.js';

const encode = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const decode = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

const INPUTS = [
  'GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nX-Bin: \x80\x9f\xff\r\n\r\n',
  'POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n0\r\nT: 1\r\n\r\n',
  'POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
  'GET / HTTP/2.0\r\n\r\n',
  'GET / HTTP/1.1\nHost: a\r\n\r\n',
];

/** A JSON-able summary of what the parser makes of each input, whole and one byte at a time. */
export function runParserCases(): unknown[] {
  const results: unknown[] = [];
  for (const input of INPUTS) {
    try {
      const r = parseRequest(encode(input));
      results.push({ method: r.method, url: r.url, headers: r.headers, body: decode(r.body), trailers: r.trailers });
    } catch (error) {
      results.push({ error: (error as { code: string }).code });
    }
    const urls: string[] = [];
    const parser = new RequestParser({ onHead: (head) => urls.push(head.url) });
    try {
      for (const byte of encode(input)) parser.execute(Uint8Array.of(byte));
      results.push({ bytewise: urls });
    } catch (error) {
      results.push({ bytewise: (error as { code: string }).code });
    }
  }
  const response = parseResponse(encode('HTTP/1.1 200 OK\r\nServer: s\r\n\r\nuntil close'));
  results.push({ status: response.status, body: decode(response.body), keepAlive: response.keepAlive });
  return results;
}
