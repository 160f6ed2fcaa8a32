// HTTP/2 errors (RFC 9113 §5.4, §7). A connection error ends the connection with GOAWAY; a stream
// error ends one stream with RST_STREAM. Both carry the RFC's error code.
import { CodedError } from '../errors.js';

/** Error codes (RFC 9113 §7). */
export const ErrorCode = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd,
} as const;
/** The name of an HTTP/2 error code (RFC 9113 §7). */
export type ErrorCodeName = keyof typeof ErrorCode;

/** The whole connection is unusable: send GOAWAY with `code` (§5.4.1). */
export class ConnectionError extends CodedError<ErrorCodeName> {
  get errorCode(): number {
    return ErrorCode[this.code];
  }
}

/** One stream is unusable: send RST_STREAM with `code` on `streamId` (§5.4.2). */
export class StreamError extends CodedError<ErrorCodeName> {
  constructor(
    readonly streamId: number,
    code: ErrorCodeName,
    message?: string,
  ) {
    super(code, message);
  }
  get errorCode(): number {
    return ErrorCode[this.code];
  }
}

/** The name of a numeric code (unknown codes are kept as numbers by callers, §7). */
export function errorCodeName(code: number): ErrorCodeName | undefined {
  return (Object.keys(ErrorCode) as ErrorCodeName[]).find((name) => ErrorCode[name] === code);
}
