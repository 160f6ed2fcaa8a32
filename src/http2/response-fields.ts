// A response's fields as an HTTP/2 header list (RFC 9113 §8.3.2, §8.2): `:status` first, names in
// lowercase, no connection-specific fields nor TE (§8.2.2), Content-Length from the body when it is known,
// and a Date as the HTTP/1.1 writer adds one.
import { checkField, CONNECTION_SPECIFIC, httpDate, type HeaderList } from '../fields.js';

/**
 * Not sent in a response either: TE is a request's field, and §8.2.2 lets it into HTTP/2 only as
 * `trailers` (nghttp2 clients, Node's among them, fail a response with any other value).
 */
const REQUEST_ONLY = 'te';

/** Whether a response field `name` (lowercase) stays off the HTTP/2 wire. */
const dropped = (name: string) => CONNECTION_SPECIFIC.has(name) || name === REQUEST_ONLY;

const STATUS_TEXT: string[] = [];

/** responseFields' `length` for a status that has no body. */
export const NO_BODY = 'no body';

/**
 * `length`: the body's byte count, null when it is unknown (a stream), or NO_BODY for a status
 * that never has one (204, 304: no Content-Length goes out, as on HTTP/1.1; nghttp2 clients fail
 * a 204 that has one). A Content-Length the handler set is kept only when it is `length` (a
 * stream's declared length: the writer checks the stream against it). `now`: the time the Date
 * field tells.
 */
export function responseFields(
  status: number,
  headers: Iterable<[string, string]>,
  length: number | null | typeof NO_BODY,
  now = Date.now(),
): HeaderList {
  const list: HeaderList = [[':status', (STATUS_TEXT[status] ??= String(status))]];
  let hasDate = false;
  let hasLength = false;
  for (const [rawName, value] of headers) {
    checkField(rawName, value);
    const name = rawName.toLowerCase();
    if (dropped(name)) continue;
    if (name === 'content-length') {
      // Kept as the handler wrote it when it is the true length, once; ours is added otherwise.
      // Any other (a second one, '5, 5', 'abc', or one beside a length not known) would make the
      // client fail the stream (§8.1.1), where HTTP/1.1's writer frames the body its own way.
      if (hasLength || typeof length !== 'number' || !/^\d+$/.test(value) || Number(value) !== length) continue;
      hasLength = true;
    }
    if (name === 'date') hasDate = true;
    list.push([name, value]);
  }
  if (!hasDate) list.push(['date', httpDate(now)]);
  if (typeof length === 'number' && !hasLength) list.push(['content-length', String(length)]);
  return list;
}

/** Trailer fields: regular fields only, lowercase (§8.1). */
export function trailerList(trailers: Iterable<[string, string]>): HeaderList {
  const list: HeaderList = [];
  for (const [name, value] of trailers) {
    checkField(name, value, 'trailer');
    const lower = name.toLowerCase();
    if (!dropped(lower)) list.push([lower, value]);
  }
  return list;
}
