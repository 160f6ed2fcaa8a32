// The fixed inputs of the parser benchmarks, shared by every implementation.
const CRLF = '\r\n';

const head = (line: string, fields: string[]) => line + CRLF + fields.map((f) => f + CRLF).join('') + CRLF;

/** 78 bytes: what wrk or curl sends. */
export const SIMPLE_GET = head('GET /hello HTTP/1.1', ['Host: localhost:8080', 'User-Agent: wrk/42', 'Accept: */*']);

/** 124 bytes: a small JSON POST. */
export const POST_WITH_BODY =
  head('POST /api/items HTTP/1.1', ['Host: api.local', 'Content-Type: application/json', 'Content-Length: 27']) +
  '{"name":"widget","qty":100}';

/** 485 bytes: a browser navigation with 10 fields. */
export const BROWSER_GET = head('GET /docs/getting-started HTTP/1.1', [
  'Host: www.example.com',
  'Connection: keep-alive',
  'Cache-Control: max-age=0',
  'sec-ch-ua: "Chromium";v="124"',
  'Upgrade-Insecure-Requests: 1',
  'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Accept-Encoding: gzip, deflate, br',
  'Accept-Language: en-US,en;q=0.9',
  'Cookie: session=3f9a1c2b7d; _ga=GA1.1.123456789.1700000000',
]);

/** A request with 50 fields (a proxy-heavy request). */
export const FIFTY_HEADERS = head(
  'GET /v1/resources/42 HTTP/1.1',
  Array.from({ length: 50 }, (_, i) => `X-Custom-Header-${String(i).padStart(2, '0')}: value-${i}-${'abcdef'.slice(0, (i % 6) + 1)}`),
);

/**
 * A chunked upload: 4 chunks and a trailer, announced by `Trailer` as RFC 9110 §6.6.2 asks a sender
 * to (Milo 0.2 refuses undeclared trailers).
 */
export const CHUNKED_POST =
  head('POST /upload HTTP/1.1', ['Host: files.local', 'Content-Type: text/plain', 'Trailer: X-Checksum', 'Transfer-Encoding: chunked']) +
  ['Wikipedia in', ' chunks: one', ' two three', ' four five six'].map((c) => `${c.length.toString(16)}\r\n${c}\r\n`).join('') +
  '0\r\nX-Checksum: 1234\r\n\r\n';

/** Other methods than GET and POST. */
export const DELETE_REQUEST = head('DELETE /api/items/42 HTTP/1.1', [
  'Host: api.local',
  'Authorization: Bearer 4f1c9b2e7a',
  'Content-Length: 0',
]);
export const PUT_JSON =
  head('PUT /api/items/42 HTTP/1.1', ['Host: api.local', 'Content-Type: application/json', 'Content-Length: 33']) +
  '{"name":"widget","qty":101,"v":2}';

/** A 1 KB request target (deep path, as some CDNs and object stores see). */
export const LONG_PATH = head(
  `GET /${Array.from({ length: 90 }, (_, i) => `segment-${String(i).padStart(3, '0')}`)
    .join('/')
    .slice(0, 1023)} HTTP/1.1`,
  ['Host: cdn.local', 'Accept: */*'],
);

/** A search with 20 query parameters. */
export const QUERY_STRING = head(`GET /search?${Array.from({ length: 20 }, (_, i) => `p${i}=value%20${i}`).join('&')} HTTP/1.1`, [
  'Host: www.example.com',
  'Accept: text/html',
]);

/** A realistic API call: GitHub's REST API as its CLI sends it. */
export const API_REQUEST = head('GET /repos/nodejs/node/issues?state=open&per_page=100&page=2 HTTP/1.1', [
  'Host: api.github.com',
  'User-Agent: GitHub CLI 2.62.0',
  'Accept: application/vnd.github+json',
  'Authorization: Bearer ghp_0123456789abcdefghijklmnopqrstuvwxyzAB',
  'X-GitHub-Api-Version: 2022-11-28',
  'Accept-Encoding: gzip',
]);

/** 16 simple GETs in one buffer (HTTP pipelining). */
export const PIPELINED_16 = SIMPLE_GET.repeat(16);

export const PARSER_INPUTS: Record<string, string> = {
  'simple GET (78 B)': SIMPLE_GET,
  'POST with body (124 B)': POST_WITH_BODY,
  'browser GET, 10 headers': BROWSER_GET,
  '50 headers': FIFTY_HEADERS,
  'chunked POST': CHUNKED_POST,
  'pipelined x16': PIPELINED_16,
  DELETE: DELETE_REQUEST,
  'PUT with JSON': PUT_JSON,
  'long path (1 KB target)': LONG_PATH,
  'query string (20 params)': QUERY_STRING,
  'API request (GitHub REST)': API_REQUEST,
};

export function latin1Encode(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
