import { CodedError } from '../errors.js';

/** RFC 6455 §7.4.1 (close.ts holds the others; this one is the default of every error). */
const PROTOCOL_ERROR = 1002;

/** The codes of WebSocketError. */
export type WebSocketErrorCode =
  | 'ERR_WS_RESERVED_OPCODE'
  | 'ERR_WS_RESERVED_BITS'
  | 'ERR_WS_UNMASKED'
  | 'ERR_WS_CONTROL_TOO_LONG'
  | 'ERR_WS_CONTROL_FRAGMENTED'
  | 'ERR_WS_TOO_BIG'
  | 'ERR_WS_NON_MINIMAL_LENGTH'
  | 'ERR_WS_UNEXPECTED_CONTINUATION'
  | 'ERR_WS_EXPECTED_CONTINUATION'
  | 'ERR_WS_MESSAGE_TOO_BIG'
  | 'ERR_WS_TOO_MANY_FRAGMENTS'
  | 'ERR_WS_INVALID_UTF8'
  | 'ERR_WS_INVALID_CLOSE_CODE'
  | 'ERR_WS_INVALID_CLOSE_PAYLOAD'
  | 'ERR_WS_INVALID_COMPRESSED_DATA'
  | 'ERR_WS_SEND_TIMEOUT'
  | 'ERR_WS_SEND_BUFFER_FULL'
  | 'ERR_WS_INTERNAL';

/**
 * A peer broke the protocol or a limit: the connection is failed with a Close frame carrying
 * `closeCode` (RFC 6455 §7.1.7): 1002 protocol error, 1007 invalid data, 1009 too big.
 */
export class WebSocketError extends CodedError<WebSocketErrorCode> {
  constructor(
    code: WebSocketErrorCode,
    message: string,
    /** 1002, protocol error, unless the error says otherwise. */
    readonly closeCode: number = PROTOCOL_ERROR,
  ) {
    super(code, message);
  }
}
