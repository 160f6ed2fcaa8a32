// The HTTP/1.1 response writer: heads built from pre-made status lines and a per-second Date.
import { CodedError } from '../errors.js';
import type { HeaderList } from './head.js';
import { STATUS_REASONS } from './status.js';

/** A response head that would inject or break framing (CR/LF/NUL, a bad name, a bad status). */
export class HttpWriteError extends CodedError<'ERR_INVALID_HEADER_NAME' | 'ERR_INVALID_HEADER_VALUE' | 'ERR_INVALID_STATUS'> {}

const STATUS_LINES: string[] = [];
for (const [code, reason] of Object.entries(STATUS_REASONS)) {
  STATUS_LINES[Number(code)] = `HTTP/1.1 ${code} ${reason}\r\n`;
}

/** A field name (RFC 9110 §5.1: a token). */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Anything but HTAB, SP, VCHAR and obs-text (RFC 9110 §5.5): CR, LF and NUL among them. */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

let dateSecond = -1;
let dateValue = '';
let dateLine = '';

/** The IMF-fixdate of now (RFC 9110 §5.6.7), rebuilt at most once per second. */
export function httpDate(now: number = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateValue = new Date(second * 1000).toUTCString();
    dateLine = `Date: ${dateValue}\r\n`;
  }
  return dateValue;
}

/** `Date: <IMF-fixdate>\r\n`, rebuilt at most once per second. */
export function dateHeaderLine(now: number = Date.now()): string {
  httpDate(now);
  return dateLine;
}

/** Throws HttpWriteError for a field that would break framing; `kind` names it in the message. */
export function checkField(name: string, value: string, kind: 'header' | 'trailer' = 'header'): void {
  if (!TOKEN.test(name)) throw new HttpWriteError('ERR_INVALID_HEADER_NAME', `invalid ${kind} name ${JSON.stringify(name)}`);
  if (BAD_VALUE.test(value)) throw new HttpWriteError('ERR_INVALID_HEADER_VALUE', `invalid value for ${kind} ${name}`);
}

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
  /** False adds `Connection: close`. Default true. */
  keepAlive?: boolean;
  /** Default true: a `Date` field unless the headers have one. */
  date?: boolean;
}

/** Framing fields belong to the writer: a caller's Content-Length/Transfer-Encoding are dropped. */
function isFramingField(name: string): boolean {
  return (
    (name.length === 14 && name.toLowerCase() === 'content-length') ||
    (name.length === 17 && name.toLowerCase() === 'transfer-encoding')
  );
}

/** The response head as a latin1 string (write it with the 'latin1' encoding). */
export function writeResponseHead(init: ResponseHeadInit): string {
  let head = statusLine(init.status, init.reason);
  let hasDate = false;
  let hasConnection = false;
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
      if (name.length === 4 && name.toLowerCase() === 'date') hasDate = true;
      if (name.length === 10 && name.toLowerCase() === 'connection') hasConnection = true;
      head += `${name}: ${value}\r\n`;
    }
  }
  if (init.date !== false && !hasDate) head += dateHeaderLine();
  if (init.keepAlive === false && !hasConnection) head += 'Connection: close\r\n';
  if (typeof body === 'number') {
    if (!lengthWritten) head += `Content-Length: ${body}\r\n`;
  }
  else if (body === 'chunked') head += 'Transfer-Encoding: chunked\r\n';
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
