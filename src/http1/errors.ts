import { CodedError } from '../errors.js';
import { PARSE_ERROR_CODES } from '../wasm/abi.js';

export type HttpParseErrorCode =
  | (typeof PARSE_ERROR_CODES)[number]
  | 'ERR_INCOMPLETE'
  | 'ERR_BODY_TOO_LARGE'
  | 'ERR_DATA_AFTER_CLOSE'
  /** Server side: an HTTP/1.1 request without exactly one valid Host (RFC 9112 §3.2). */
  | 'ERR_INVALID_HOST';

/** Why a message was rejected. `code` is stable; the server maps it to a status code. */
export class HttpParseError extends CodedError<HttpParseErrorCode> {
  /** The error for a negative return value of the wasm parser. */
  static fromWasm(rc: number): HttpParseError {
    const code = PARSE_ERROR_CODES[-rc];
    if (!code) return new HttpParseError('ERR_INVALID_HEADER', `unknown parser error ${rc}`);
    return new HttpParseError(code);
  }
}
