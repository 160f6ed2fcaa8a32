import { CodedError } from '../errors.js';
import { HPACK_ERROR_CODES } from '../wasm/abi.js';

/** The codes of HpackError: one per way a header block can be bad. */
export type HpackErrorCode =
  | Exclude<(typeof HPACK_ERROR_CODES)[number], ''>
  | 'ERR_HPACK_DECODER_FAILED'
  | 'ERR_HPACK_FREED'
  | 'ERR_HPACK_INVALID_FIELD'
  | 'ERR_WASM_TRAP';

/**
 * A header block could not be decoded (or a field cannot be encoded). For HTTP/2 every decoding
 * error is a connection error of type COMPRESSION_ERROR (RFC 9113 §4.3).
 */
export class HpackError extends CodedError<HpackErrorCode> {
  static fromWasm(rc: number): HpackError {
    const code = HPACK_ERROR_CODES[-rc];
    return code ? new HpackError(code) : new HpackError('ERR_HPACK_DECODER_FAILED', `unknown HPACK error ${rc}`);
  }
}
