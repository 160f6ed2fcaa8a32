import { CodedError } from '../errors.js';

/** The codes of IpcError. */
export type IpcErrorCode =
  | 'ERR_CORRUPT_FRAME'
  | 'ERR_FRAME_TOO_LARGE'
  | 'ERR_UNKNOWN_MESSAGE_TYPE'
  | 'ERR_TRUNCATED_FRAME'
  | 'ERR_HANDSHAKE'
  | 'ERR_TIMEOUT'
  | 'ERR_CANCELLED'
  | 'ERR_CLOSED'
  | 'ERR_NO_HANDLER'
  | 'ERR_REMOTE'
  | 'ERR_DECODE'
  | 'ERR_FLOW_CONTROL'
  | 'ERR_TOO_MANY_REQUESTS';

/** An IPC failure with a stable `code`. */
export class IpcError extends CodedError<IpcErrorCode> {}
