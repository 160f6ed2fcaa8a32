// GOAWAY (RFC 9113 §6.8).
import { ConnectionError } from '../errors.js';
import { frame, FrameType, readUint31, readUint32, writeUint32, type FrameHeader } from './header.js';

/** A GOAWAY frame (§6.8): the last stream the sender takes, why, and debug data. */
export interface GoawayFrame {
  type: 'goaway';
  lastStreamId: number;
  errorCode: number;
  debug: Uint8Array;
}

/** Reads a GOAWAY frame; throws on a stream or a short payload. */
export function parseGoaway(header: FrameHeader, payload: Uint8Array): GoawayFrame {
  // §6.8: on a stream, PROTOCOL_ERROR; shorter than 8 bytes, FRAME_SIZE_ERROR.
  if (header.streamId !== 0) throw new ConnectionError('PROTOCOL_ERROR', 'GOAWAY on a stream');
  if (payload.length < 8) throw new ConnectionError('FRAME_SIZE_ERROR', `GOAWAY of ${payload.length} bytes`);
  return { type: 'goaway', lastStreamId: readUint31(payload, 0), errorCode: readUint32(payload, 4), debug: payload.subarray(8) };
}

/** A GOAWAY payload: last stream id, error code, debug text. */
export function goawayPayload(lastStreamId: number, errorCode: number, debug = ''): Uint8Array {
  const text = new TextEncoder().encode(debug);
  const payload = new Uint8Array(8 + text.length);
  writeUint32(payload, 0, lastStreamId & 0x7fff_ffff);
  writeUint32(payload, 4, errorCode);
  payload.set(text, 8);
  return payload;
}

/** A whole GOAWAY frame. */
export function encodeGoaway(lastStreamId: number, errorCode: number, debug = ''): Uint8Array {
  return frame(FrameType.GOAWAY, 0, 0, goawayPayload(lastStreamId, errorCode, debug));
}
