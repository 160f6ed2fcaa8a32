// RST_STREAM (RFC 9113 §6.4).
import { ConnectionError } from '../errors.js';
import { frame, FrameType, readUint32, uint32Bytes, type FrameHeader } from './header.js';

export interface RstStreamFrame {
  type: 'rst_stream';
  streamId: number;
  errorCode: number;
}

export function parseRstStream(header: FrameHeader, payload: Uint8Array): RstStreamFrame {
  // §6.4: on stream 0, PROTOCOL_ERROR; not 4 bytes, FRAME_SIZE_ERROR (connection errors both).
  if (header.streamId === 0) throw new ConnectionError('PROTOCOL_ERROR', 'RST_STREAM on stream 0');
  if (payload.length !== 4) throw new ConnectionError('FRAME_SIZE_ERROR', `RST_STREAM of ${payload.length} bytes`);
  return { type: 'rst_stream', streamId: header.streamId, errorCode: readUint32(payload, 0) };
}

export function encodeRstStream(streamId: number, errorCode: number): Uint8Array {
  return frame(FrameType.RST_STREAM, 0, streamId, uint32Bytes(errorCode));
}
