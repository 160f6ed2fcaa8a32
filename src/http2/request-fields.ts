// A decoded request header list to a request (RFC 9113 §8.2, §8.3). Any rule broken makes the
// request malformed, which is a stream error PROTOCOL_ERROR (§8.1.1): the connection goes on.
import { CheckedStrings } from '../checked-strings.js';
import { CONNECTION_SPECIFIC, TOKEN, type HeaderList } from '../fields.js';
import { StreamError } from './errors.js';

/** A decoded header list (the same shape as every protocol's). */
export type FieldList = HeaderList;

/** A request's pseudo-headers and regular fields, checked (§8.3). */
export interface RequestFields {
  method: string;
  scheme: string;
  /** :authority, or the Host field when it is absent (§8.3.1). */
  authority: string | null;
  /** Absent only for CONNECT (§8.5). */
  path: string;
  /** Regular fields; cookie crumbs joined into one field (§8.2.3). */
  headers: FieldList;
  /** The Content-Length field, checked against the DATA received (§8.1.1); null when absent. */
  contentLength: number | null;
  /** RFC 8441 §4: an extended CONNECT's :protocol (e.g. 'websocket'); null for other requests. */
  protocol: string | null;
}

const REQUEST_PSEUDO = new Set([':method', ':scheme', ':authority', ':path', ':protocol']);
/**
 * §8.2.1: a name is lowercase, with no control, space, DEL, non-ASCII or colon; and it is a token
 * (RFC 9110 §5.1), as the HTTP/1.1 parser requires, so no request passes on one protocol that the
 * other refuses (a `(` or `"` in a name would also make a Headers copy of the request throw).
 */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
/** Names and methods come again and again (an indexed field gives the same strings each time): each is tested once. */
const fieldNames = new CheckedStrings((name) => FIELD_NAME.test(name));
const methods = new CheckedStrings((method) => TOKEN.test(method));
/**
 * §8.2.1: no NUL, CR or LF, and no leading or trailing space or tab; and, as the HTTP/1.1 parser
 * holds, no other control character or DEL (RFC 9110 §5.5: field-vchar, SP, HTAB, obs-text).
 */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]|^[ \t]|[ \t]$/;
/** RFC 3986 §3.1: what a scheme is. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+\-.]*$/;
/**
 * §8.3.1: :path holds the path and query of a URI (RFC 3986 §2): visible ASCII, with no backslash,
 * which a URL parser reads as '/' in http(s) (`/x\..\admin` would reach the app as `/admin`), and
 * no '#', as no fragment is sent (a URL parser would cut it off: `/admin/delete#x` would reach the
 * app as `/admin/delete`). The HTTP/1.1 parser refuses the same targets.
 */
const URI_PATH = /^[\x21\x22\x24-\x5b\x5d-\x7e]+$/;

function malformed(streamId: number, why: string): StreamError {
  return new StreamError(streamId, 'PROTOCOL_ERROR', `malformed request: ${why}`);
}

/** §8.2.1: the value of any received field, pseudo or not, or the request is malformed. */
function checkValue(streamId: number, name: string, value: string): void {
  if (BAD_VALUE.test(value)) throw malformed(streamId, `value of ${name}`);
}

/** A regular field of a header or trailer section: §8.2.1, and §8.2.2 (the rules hold for every message, so trailers too). */
function checkRegularField(streamId: number, name: string, value: string): void {
  if (!fieldNames.passes(name)) throw malformed(streamId, `field name ${JSON.stringify(name)}`);
  checkValue(streamId, name, value);
  if (CONNECTION_SPECIFIC.has(name)) throw malformed(streamId, `connection-specific field ${name}`);
  // §8.2.2: TE may only say "trailers".
  if (name === 'te' && value !== 'trailers') throw malformed(streamId, `te: ${value}`);
}

/** Checks a decoded request header list (§8.2, §8.3, RFC 8441 §4); throws StreamError PROTOCOL_ERROR when malformed. */
export function requestFields(streamId: number, list: FieldList): RequestFields {
  const pseudo = new Map<string, string>();
  const headers: FieldList = [];
  const cookies: string[] = [];
  let contentLength: number | null = null;
  let host: string | null = null;
  let regularSeen = false;
  for (const [name, value] of list) {
    if (name.charCodeAt(0) === 58 /* : */) {
      // §8.3: only the defined request pseudo-fields, each once, all before any regular field.
      if (!REQUEST_PSEUDO.has(name)) throw malformed(streamId, `pseudo-header ${name}`);
      if (regularSeen) throw malformed(streamId, `${name} after a regular field`);
      if (pseudo.has(name)) throw malformed(streamId, `${name} twice`);
      checkValue(streamId, name, value); // its name is one of REQUEST_PSEUDO
      pseudo.set(name, value);
      continue;
    }
    regularSeen = true;
    checkRegularField(streamId, name, value);
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (contentLength !== null && contentLength !== Number(value)))
        throw malformed(streamId, `content-length ${value}`);
      contentLength = Number(value);
    }
    if (name === 'host') {
      // One Host, as RFC 9112 §3.2 requires of HTTP/1.1: a second could name another origin than the URL's.
      if (host !== null) throw malformed(streamId, 'more than one host field');
      host = value;
    }
    if (name === 'cookie') {
      cookies.push(value);
      continue;
    }
    headers.push([name, value]);
  }
  if (cookies.length) headers.push(['cookie', cookies.join('; ')]);

  const method = pseudo.get(':method');
  if (method === undefined) throw malformed(streamId, 'no :method');
  // RFC 9110 §9.1: a method is a token.
  if (!methods.passes(method)) throw malformed(streamId, `:method ${JSON.stringify(method)}`);
  const authority = pseudo.get(':authority') ?? null;
  // §8.3.1: a Host naming another entity than :authority makes the request malformed.
  if (authority !== null && host !== null && host !== authority) throw malformed(streamId, 'host differs from :authority');
  const protocol = pseudo.get(':protocol') ?? null;
  // RFC 8441 §4: :protocol only on CONNECT (the server announced SETTINGS_ENABLE_CONNECT_PROTOCOL).
  if (protocol !== null && method !== 'CONNECT') throw malformed(streamId, `:protocol on ${method}`);
  if (method === 'CONNECT' && protocol === null) {
    // §8.5: CONNECT has :authority and neither :scheme nor :path.
    if (authority === null || pseudo.has(':scheme') || pseudo.has(':path')) throw malformed(streamId, 'CONNECT pseudo-headers');
    return { method, scheme: '', authority, path: '', headers, contentLength, protocol };
  }
  const scheme = pseudo.get(':scheme');
  const path = pseudo.get(':path');
  if (scheme === undefined) throw malformed(streamId, 'no :scheme');
  if (scheme !== 'http' && scheme !== 'https' && !SCHEME.test(scheme)) throw malformed(streamId, `:scheme ${JSON.stringify(scheme)}`);
  // §8.3.1: :path is not empty; for http(s) it is origin-form, or '*' for OPTIONS. The server
  // gives every request an http(s) URL, whatever its scheme, so it holds that rule for all
  // (`foo` as path of a `foo:` request would make the URL `http://hostfoo`).
  if (path === undefined || path === '') throw malformed(streamId, 'no :path');
  if (path[0] !== '/' && !(path === '*' && method === 'OPTIONS')) throw malformed(streamId, `:path ${path}`);
  if (!URI_PATH.test(path)) throw malformed(streamId, `:path ${JSON.stringify(path)}`);
  // RFC 8441 §4: an extended CONNECT has :scheme and :path (checked above) and :authority.
  if (protocol !== null && authority === null) throw malformed(streamId, 'an extended CONNECT without :authority');
  return { method, scheme, authority: authority ?? host, path, headers, contentLength, protocol };
}

/** Trailers: regular fields only (§8.1). */
export function trailerFields(streamId: number, list: FieldList): FieldList {
  for (const [name, value] of list) {
    if (name.charCodeAt(0) === 58) throw malformed(streamId, `pseudo-header ${name} in trailers`);
    checkRegularField(streamId, name, value);
  }
  return list;
}

/** `name: value` and CRLF around a field, as HTTP/1.1 writes it. */
const FIELD_LINE_EXTRA = 4;
/** The CRLF that ends a head or a trailer section. */
const SECTION_END = 2;
/** The request line's space after the method, ` HTTP/1.1` and CRLF. */
const REQUEST_LINE_EXTRA = 12;

// HTTP/1.1's head limits (maxHeadBytes, maxHeaders) hold an HTTP/2 request as HTTP/1.1 would
// write it: its request line, a Host field made from :authority, its fields (cookie crumbs
// joined). So the same request is taken or refused on both protocols.

/** The bytes of `list` as HTTP/1.1 field lines. */
function fieldLineBytes(list: FieldList): number {
  let bytes = 0;
  for (const [name, value] of list) bytes += name.length + value.length + FIELD_LINE_EXTRA;
  return bytes;
}

/** The Host that HTTP/1.1 would add for an :authority sent without a host field; null if none. */
export function addedHost(fields: RequestFields): string | null {
  return fields.headers.some(([name]) => name === 'host') ? null : fields.authority;
}

/** The fields of the request's head as HTTP/1.1 would write it (`host`: from addedHost). */
export function http1FieldCount(fields: RequestFields, host: string | null): number {
  return fields.headers.length + (host === null ? 0 : 1);
}

/** The bytes of the request's head as HTTP/1.1 would write it (`host`: from addedHost). */
export function http1HeadBytes(fields: RequestFields, host: string | null): number {
  const hostLine = host === null ? 0 : 'host'.length + host.length + FIELD_LINE_EXTRA;
  return fields.method.length + fields.path.length + REQUEST_LINE_EXTRA + hostLine + fieldLineBytes(fields.headers) + SECTION_END;
}

/** The bytes of a trailer section as HTTP/1.1 would write it. */
export function http1TrailerBytes(trailers: FieldList): number {
  return fieldLineBytes(trailers) + SECTION_END;
}
