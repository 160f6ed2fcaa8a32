// CONTINUATION (RFC 9113 §6.10): more of a header block, until END_HEADERS.
import { ConnectionError } from '../errors.js';
import { Flag, type FrameHeader } from './header.js';

/** A CONTINUATION frame (§6.10): more of a header block. */
export interface ContinuationFrame {
  type: 'continuation';
  streamId: number;
  fragment: Uint8Array;
  endHeaders: boolean;
}

/** Reads a CONTINUATION frame; throws ConnectionError on stream 0. */
export function parseContinuation(header: FrameHeader, payload: Uint8Array): ContinuationFrame {
  // §6.10: CONTINUATION on stream 0 is a connection error PROTOCOL_ERROR.
  if (header.streamId === 0) throw new ConnectionError('PROTOCOL_ERROR', 'CONTINUATION on stream 0');
  return { type: 'continuation', streamId: header.streamId, fragment: payload, endHeaders: (header.flags & Flag.END_HEADERS) !== 0 };
}
