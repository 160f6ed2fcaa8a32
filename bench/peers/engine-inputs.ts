// The inputs of the HTTP/1.1 engine report: requests and responses of the sizes it names.
import { POST_WITH_BODY, SIMPLE_GET } from './http1-inputs.js';

const CRLF = '\r\n';

/** 296 bytes: a GET of an API client with 10 fields. */
export const TEN_HEADERS =
  [
    'GET /api/v1/users/42 HTTP/1.1',
    'Host: api.example.com',
    'User-Agent: curl/8.5.0',
    'Accept: application/json',
    'Accept-Language: en-US',
    'Accept-Encoding: gzip, br',
    'Content-Type: application/json',
    'Authorization: Bearer abcdef0123',
    'Cache-Control: no-cache',
    'Connection: keep-alive',
    'X-Request-Id: 7f3c9a1e',
  ].join(CRLF) +
  CRLF +
  CRLF;

/** Requests by group name: 78, 124 and 296 bytes. */
export const ENGINE_REQUESTS: Record<string, string> = {
  'parse simple GET (78 B)': SIMPLE_GET,
  'parse POST with body (124 B)': POST_WITH_BODY,
  'parse 10 headers (296 B)': TEN_HEADERS,
};

/** Response bodies by group name: 13 B of text, 57 B of JSON, 1 KB and 10 KB. */
export const ENGINE_RESPONSES: Record<string, { type: string; body: string }> = {
  'write 13 B text response': { type: 'text/plain', body: 'Hello, World!' },
  'write 57 B JSON response': {
    type: 'application/json',
    body: JSON.stringify({ message: 'Hello, World!', status: 'success', id: 42424 }),
  },
  'write 1 KB response (MB/s)': { type: 'text/plain', body: 'x'.repeat(1024) },
  'write 10 KB response (MB/s)': { type: 'text/plain', body: 'x'.repeat(10 * 1024) },
};
