// RST_STREAM (RFC 9113 §6.4).
import { ConnectionError } from '../errors.js';
import { frame, FrameType, readUint32, uint32Bytes, type FrameHeader } from './header.js';

/** An RST_STREAM frame (§6.4): the stream and why. */
export interface RstStreamFrame {
  type: 'rst_stream';
  streamId: number;
  errorCode: number;
}

/** Reads an RST_STREAM frame; throws on stream 0 or a payload other than 4 bytes. */
export function parseRstStream(header: FrameHeader, payload: Uint8Array): RstStreamFrame {
  // §6.4: on stream 0, PROTOCOL_ERROR; not 4 bytes, FRAME_SIZE_ERROR (connection errors both).
  if (header.streamId === 0) throw new ConnectionError('PROTOCOL_ERROR', 'RST_STREAM on stream 0');
  if (payload.length !== 4) throw new ConnectionError('FRAME_SIZE_ERROR', `RST_STREAM of ${payload.length} bytes`);
  return { type: 'rst_stream', streamId: header.streamId, errorCode: readUint32(payload, 0) };
}

/** An RST_STREAM frame. */
export function encodeRstStream(streamId: number, errorCode: number): Uint8Array {
  return frame(FrameType.RST_STREAM, 0, streamId, uint32Bytes(errorCode));
}
