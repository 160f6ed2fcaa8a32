// DATA (RFC 9113 §6.1).
import { ConnectionError } from '../errors.js';
import { Flag, frame, FrameType, type FrameHeader } from './header.js';
import { unpad } from './padding.js';

/** A DATA frame (§6.1), padding removed; `flowLength` is what it counts against the windows. */
export interface DataFrame {
  type: 'data';
  streamId: number;
  data: Uint8Array;
  endStream: boolean;
  /** The whole payload length, padding included: what flow control counts (§6.9.1). */
  flowLength: number;
}

/** Reads a DATA frame; throws on stream 0 or bad padding. */
export function parseData(header: FrameHeader, payload: Uint8Array): DataFrame {
  // §6.1: DATA on stream 0 is a connection error PROTOCOL_ERROR.
  if (header.streamId === 0) throw new ConnectionError('PROTOCOL_ERROR', 'DATA on stream 0');
  return {
    type: 'data',
    streamId: header.streamId,
    data: unpad(header, payload),
    endStream: (header.flags & Flag.END_STREAM) !== 0,
    flowLength: payload.length,
  };
}

/** A DATA frame for `data` on `streamId`. */
export function encodeData(streamId: number, data: Uint8Array, endStream: boolean): Uint8Array {
  return frame(FrameType.DATA, endStream ? Flag.END_STREAM : 0, streamId, data);
}
