// WINDOW_UPDATE (RFC 9113 §6.9).
import { ConnectionError, StreamError } from '../errors.js';
import { frame, FrameType, readUint31, uint32Bytes, type FrameHeader } from './header.js';

/** A WINDOW_UPDATE frame (§6.9): the stream (0: the connection) and the increment. */
export interface WindowUpdateFrame {
  type: 'window_update';
  /** 0: the connection's window. */
  streamId: number;
  increment: number;
}

/** Reads a WINDOW_UPDATE frame; a zero increment is an error (§6.9). */
export function parseWindowUpdate(header: FrameHeader, payload: Uint8Array): WindowUpdateFrame {
  // §6.9: not 4 bytes, a connection error FRAME_SIZE_ERROR.
  if (payload.length !== 4) throw new ConnectionError('FRAME_SIZE_ERROR', `WINDOW_UPDATE of ${payload.length} bytes`);
  const increment = readUint31(payload, 0);
  // §6.9: an increment of 0 is PROTOCOL_ERROR: a stream error on a stream, a connection error on 0.
  if (increment === 0) {
    if (header.streamId === 0) throw new ConnectionError('PROTOCOL_ERROR', 'WINDOW_UPDATE of 0 on the connection');
    throw new StreamError(header.streamId, 'PROTOCOL_ERROR', 'WINDOW_UPDATE of 0');
  }
  return { type: 'window_update', streamId: header.streamId, increment };
}

/** A WINDOW_UPDATE frame. */
export function encodeWindowUpdate(streamId: number, increment: number): Uint8Array {
  return frame(FrameType.WINDOW_UPDATE, 0, streamId, uint32Bytes(increment & 0x7fff_ffff));
}
