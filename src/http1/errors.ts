import { CodedError } from '../errors.js';
import { PARSE_ERROR_CODES } from '../wasm/abi.js';
import { explainHeadError } from './explain.js';

/** The codes of HttpParseError (see the README table for the status each one gets). */
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
  /** The error for a negative return value of the wasm parser; with the head's bytes, the message says where. */
  static fromWasm(rc: number, bytes?: Uint8Array, start = 0, end = bytes?.length ?? 0): HttpParseError {
    const code = PARSE_ERROR_CODES[-rc];
    if (!code) return new HttpParseError('ERR_INVALID_HEADER', `unknown parser error ${rc}`);
    const where = bytes ? explainHeadError(code, bytes, start, end) : undefined;
    return new HttpParseError(code, where ?? code);
  }
}
