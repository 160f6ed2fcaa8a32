// An ERROR frame's payload, both ways: what a handler threw (or the channel's own refusal, such as
// a missing handler) becomes `{ message, code?, name?, errorCode? }`, and the caller's IpcError.
// The handler's error travels as far as plain data does: its name, message and `code` (Node's
// system errors and most libraries say what went wrong there), not its stack or class.
import type { Codec } from './codec.js';
import { IpcError } from './errors.js';
import { corruptPayload, IpcFrameType } from './frame.js';

/** The channel's own code for the caller (the rest are ERR_REMOTE). */
const NO_HANDLER = 'ERR_NO_HANDLER';

interface ErrorPayload {
  message: string;
  /** The channel's code: ERR_NO_HANDLER, or absent for a handler's error. */
  code?: string;
  /** The handler's error's name and `code`, when it threw an Error. */
  name?: string;
  errorCode?: string | number;
}

/** The payload for `error`, a handler's throw or rejection; `code` for the channel's own refusals. */
export function errorPayload(codec: Codec<unknown>, error: unknown, code?: 'ERR_NO_HANDLER'): unknown {
  if (!(error instanceof Error)) return codec.encode({ message: String(error), code } satisfies ErrorPayload);
  const errorCode = (error as { code?: unknown }).code;
  const payload: ErrorPayload = { message: error.message, code, name: error.name };
  if (typeof errorCode === 'string' || typeof errorCode === 'number') payload.errorCode = errorCode;
  return codec.encode(payload);
}

/**
 * The caller's error for an ERROR frame's (decoded) payload: ERR_NO_HANDLER, or ERR_REMOTE whose
 * `cause` is the handler's error as it arrived (an Error with its name, message and code).
 */
export function remoteError(payload: unknown): IpcError {
  if (!isErrorPayload(payload)) throw corruptPayload(IpcFrameType.ERROR, '{ message }', payload);
  const { message, code, name, errorCode } = payload;
  if (code === NO_HANDLER) return new IpcError(NO_HANDLER, message);
  if (typeof name !== 'string') return new IpcError('ERR_REMOTE', message);
  const cause = new Error(message);
  cause.name = name;
  if (typeof errorCode === 'string' || typeof errorCode === 'number') Object.assign(cause, { code: errorCode });
  return new IpcError('ERR_REMOTE', message, { cause });
}

function isErrorPayload(payload: unknown): payload is ErrorPayload {
  return typeof payload === 'object' && payload !== null && typeof (payload as ErrorPayload).message === 'string';
}
