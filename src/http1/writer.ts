// The HTTP/1.1 response writer: heads built from pre-made status lines and a per-second Date.
import { BAD_VALUE, checkField, httpDate, HttpWriteError, type HeaderList } from '../fields.js';
import { STATUS_REASONS } from './status.js';

export { HttpWriteError };

const STATUS_LINES: string[] = [];
for (const [code, reason] of Object.entries(STATUS_REASONS)) {
  STATUS_LINES[Number(code)] = `HTTP/1.1 ${code} ${reason}\r\n`;
}

let dateValue = '';
let dateLine = '';

/** `Date: <IMF-fixdate>\r\n`, rebuilt at most once per second. */
export function dateHeaderLine(now: number = Date.now()): string {
  const value = httpDate(now);
  if (value !== dateValue) {
    dateValue = value;
    dateLine = `Date: ${value}\r\n`;
  }
  return dateLine;
}

/** The status line, from a table for registered statuses; throws HttpWriteError on a bad status or reason. */
export function statusLine(status: number, reason?: string): string {
  if (reason === undefined) {
    const cached = STATUS_LINES[status];
    if (cached) return cached;
    reason = '';
  }
  if (!Number.isInteger(status) || status < 100 || status > 999) {
    throw new HttpWriteError('ERR_INVALID_STATUS', `invalid status code ${status}`);
  }
  if (BAD_VALUE.test(reason)) throw new HttpWriteError('ERR_INVALID_STATUS', 'invalid reason phrase');
  return `HTTP/1.1 ${status} ${reason}\r\n`;
}

/** What writeResponseHead needs: status, fields, body framing, persistence. */
export interface ResponseHeadInit {
  status: number;
  /** Default: the registered reason phrase. */
  reason?: string;
  headers?: HeaderList | Iterable<[string, string]>;
  /**
   * Body framing. A number: Content-Length. 'chunked': Transfer-Encoding: chunked. 'close': the
   * body ends when the connection closes. 'none': no body and no framing header (1xx, 204, 304,
   * or a HEAD answered with the GET headers already set by the caller).
   */
  body: number | 'chunked' | 'close' | 'none';
  /**
   * False adds `Connection: close`. Default true. In and out: a `Connection` field of the caller's
   * that lists `close` sets it false, as the server must then close (RFC 9112 §9.6).
   */
  keepAlive?: boolean;
  /**
   * With keepAlive: the idle timeout to announce, in whole seconds (`Keep-Alive: timeout=N`, as
   * node:http sends). Clients such as undici read it to stop reusing a connection before the
   * server closes it; without it undici assumes 4 s, and a shorter server timeout raced its reuse.
   */
  keepAliveTimeout?: number;
  /**
   * The request was HTTP/1.0: a connection kept alive must say so (`Connection: keep-alive`,
   * RFC 9112 §C.2.2), or the client takes it as closing and never reuses it.
   */
  http10?: boolean;
  /** Default true: a `Date` field unless the headers have one. */
  date?: boolean;
  /** The time (ms since the epoch) the Date field tells. Default: `Date.now()`. */
  now?: number;
}

/** Framing fields belong to the writer: a caller's Content-Length/Transfer-Encoding are dropped. */
function isFramingField(name: string): boolean {
  return (
    (name.length === 14 && name.toLowerCase() === 'content-length') || (name.length === 17 && name.toLowerCase() === 'transfer-encoding')
  );
}

/** Whether a Connection field value lists `option` (lowercase), in any case. */
function listsOption(value: string, option: string): boolean {
  return value.split(',').some((listed) => listed.trim().toLowerCase() === option);
}

/**
 * A caller's Keep-Alive field is dropped: it describes another connection (a proxied upstream's,
 * which `fetch()` keeps in its response) or a timeout the server does not keep, and a client
 * trusting it reused the connection after the server closed it.
 */
function isKeepAliveField(name: string): boolean {
  return name.length === 10 && name.toLowerCase() === 'keep-alive';
}

/** The response head as a latin1 string (write it with the 'latin1' encoding). */
export function writeResponseHead(init: ResponseHeadInit): string {
  let head = statusLine(init.status, init.reason);
  let hasDate = false;
  let closeListed = false;
  let lengthWritten = false;
  const body = init.body;
  if (init.headers) {
    for (const [name, value] of init.headers) {
      checkField(name, value);
      if (isFramingField(name)) {
        // The handler's own Content-Length is kept as written when it is the true length.
        if (typeof body === 'number' && !lengthWritten && name.length === 14 && /^\d+$/.test(value) && Number(value) === body) {
          head += `${name}: ${value}\r\n`;
          lengthWritten = true;
        }
        continue;
      }
      if (isKeepAliveField(name)) continue;
      if (name.length === 4 && name.toLowerCase() === 'date') hasDate = true;
      if (name.length === 10 && name.toLowerCase() === 'connection') {
        if (listsOption(value, 'close')) closeListed = true;
        // Persistence is the server's to say (it may be closing): its own field says it.
        else if (listsOption(value, 'keep-alive')) continue;
      }
      head += `${name}: ${value}\r\n`;
    }
  }
  if (init.date !== false && !hasDate) head += dateHeaderLine(init.now);
  if (closeListed) init.keepAlive = false;
  else if (init.keepAlive === false) head += 'Connection: close\r\n';
  else {
    if (init.http10) head += 'Connection: keep-alive\r\n';
    if (init.keepAliveTimeout !== undefined) head += `Keep-Alive: timeout=${init.keepAliveTimeout}\r\n`;
  }
  if (typeof body === 'number') {
    if (!lengthWritten) head += `Content-Length: ${body}\r\n`;
  } else if (body === 'chunked') head += 'Transfer-Encoding: chunked\r\n';
  return head + '\r\n';
}

/** The line before a chunk of `size` bytes (RFC 9112 §7.1). */
export function chunkHeader(size: number): string {
  return `${size.toString(16)}\r\n`;
}

/** Ends a chunk's data. */
export const CHUNK_END = '\r\n';
/** The last chunk with an empty trailer section. */
export const LAST_CHUNK = '0\r\n\r\n';

/** The last chunk with trailer fields (validated like header fields). */
export function lastChunk(trailers: HeaderList): string {
  let out = '0\r\n';
  for (const [name, value] of trailers) {
    checkField(name, value, 'trailer');
    out += `${name}: ${value}\r\n`;
  }
  return out + '\r\n';
}
