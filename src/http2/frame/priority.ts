// PRIORITY (RFC 9113 §6.3): deprecated; checked for size and self-dependency, then ignored.
import { ConnectionError, StreamError } from '../errors.js';
import { readUint31, type FrameHeader } from './header.js';

/** A PRIORITY frame (§6.3): deprecated, checked and ignored. */
export interface PriorityFrame {
  type: 'priority';
  streamId: number;
}

/** Reads a PRIORITY frame; throws on stream 0, a wrong length or a self-dependency. */
export function parsePriority(header: FrameHeader, payload: Uint8Array): PriorityFrame {
  // §6.3: on stream 0, a connection error PROTOCOL_ERROR; not 5 bytes, a stream error FRAME_SIZE_ERROR.
  if (header.streamId === 0) throw new ConnectionError('PROTOCOL_ERROR', 'PRIORITY on stream 0');
  if (payload.length !== 5) throw new StreamError(header.streamId, 'FRAME_SIZE_ERROR', `PRIORITY of ${payload.length} bytes`);
  // §5.3.1: a stream cannot depend on itself.
  if (readUint31(payload, 0) === header.streamId)
    throw new StreamError(header.streamId, 'PROTOCOL_ERROR', 'a stream cannot depend on itself');
  return { type: 'priority', streamId: header.streamId };
}
