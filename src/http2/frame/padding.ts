// Padding of DATA, HEADERS and PUSH_PROMISE (RFC 9113 §6.1, §6.2, §6.6).
import { ConnectionError } from '../errors.js';
import { Flag, type FrameHeader } from './header.js';

/**
 * The payload without its Pad Length byte and padding, and the count of bytes after the fixed
 * fields it had (flow control counts the whole payload, §6.9.1). `fixed`: bytes of fields that
 * follow Pad Length and must fit too (HEADERS priority: 5; PUSH_PROMISE promised id: 4).
 */
export function unpad(header: FrameHeader, payload: Uint8Array, fixed = 0): Uint8Array {
  if (!(header.flags & Flag.PADDED)) {
    if (payload.length < fixed) throw new ConnectionError('FRAME_SIZE_ERROR', `frame type ${header.type} is too short for its fields`);
    return payload;
  }
  if (payload.length < 1 + fixed) throw new ConnectionError('FRAME_SIZE_ERROR', `padded frame type ${header.type} is too short`);
  const padLength = payload[0];
  // §6.1: padding that fills the payload (or more) is a connection error PROTOCOL_ERROR.
  if (padLength >= payload.length - fixed)
    throw new ConnectionError('PROTOCOL_ERROR', `padding of ${padLength} bytes does not fit the ${payload.length}-byte payload`);
  return payload.subarray(1, payload.length - padLength);
}
