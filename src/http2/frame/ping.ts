// PING (RFC 9113 §6.7).
import { ConnectionError } from '../errors.js';
import { Flag, frame, FrameType, type FrameHeader } from './header.js';

/** A PING frame (§6.7): 8 opaque bytes, or their ACK. */
export interface PingFrame {
  type: 'ping';
  ack: boolean;
  opaque: Uint8Array;
}

/** Reads a PING frame; throws on a stream or a payload other than 8 bytes. */
export function parsePing(header: FrameHeader, payload: Uint8Array): PingFrame {
  // §6.7: on a stream, PROTOCOL_ERROR; not 8 bytes, FRAME_SIZE_ERROR (connection errors both).
  if (header.streamId !== 0) throw new ConnectionError('PROTOCOL_ERROR', 'PING on a stream');
  if (payload.length !== 8) throw new ConnectionError('FRAME_SIZE_ERROR', `PING of ${payload.length} bytes`);
  return { type: 'ping', ack: (header.flags & Flag.ACK) !== 0, opaque: payload };
}

/** A PING frame (or its ACK) with `opaque`. */
export function encodePing(opaque: Uint8Array, ack: boolean): Uint8Array {
  return frame(FrameType.PING, ack ? Flag.ACK : 0, 0, opaque);
}
