// HEADERS (RFC 9113 §6.2): a header block fragment, maybe padded, maybe with (deprecated)
// priority fields, which are parsed and ignored (§5.3.2).
import { ConnectionError, StreamError } from '../errors.js';
import { Flag, frame, FrameType, readUint31, type FrameHeader } from './header.js';
import { unpad } from './padding.js';

/** A HEADERS frame (§6.2), padding and priority removed: a header block fragment. */
export interface HeadersFrame {
  type: 'headers';
  streamId: number;
  fragment: Uint8Array;
  endStream: boolean;
  endHeaders: boolean;
}

/** Reads a HEADERS frame; throws on stream 0, bad padding or a self-dependency. */
export function parseHeaders(header: FrameHeader, payload: Uint8Array): HeadersFrame {
  // §6.2: HEADERS on stream 0 is a connection error PROTOCOL_ERROR.
  if (header.streamId === 0) throw new ConnectionError('PROTOCOL_ERROR', 'HEADERS on stream 0');
  const prioritized = (header.flags & Flag.PRIORITY) !== 0;
  let fragment = unpad(header, payload, prioritized ? 5 : 0);
  if (prioritized) {
    // §5.3.1: a stream cannot depend on itself (stream error PROTOCOL_ERROR).
    if (readUint31(fragment, 0) === header.streamId)
      throw new StreamError(header.streamId, 'PROTOCOL_ERROR', 'a stream cannot depend on itself');
    fragment = fragment.subarray(5);
  }
  return {
    type: 'headers',
    streamId: header.streamId,
    fragment,
    endStream: (header.flags & Flag.END_STREAM) !== 0,
    endHeaders: (header.flags & Flag.END_HEADERS) !== 0,
  };
}

/** One frame of an outgoing header block: HEADERS first, then CONTINUATION. */
export interface HeaderBlockPiece {
  type: number;
  flags: number;
  fragment: Uint8Array;
}

/** A header block as HEADERS then, past `maxFrameSize`, CONTINUATION frames (§4.3): type, flags, fragment of each. */
export function headerBlockPieces(block: Uint8Array, endStream: boolean, maxFrameSize: number): HeaderBlockPiece[] {
  const pieces: HeaderBlockPiece[] = [];
  for (let at = 0; at === 0 || at < block.length; at += maxFrameSize) {
    const last = at + maxFrameSize >= block.length;
    const type = at === 0 ? FrameType.HEADERS : FrameType.CONTINUATION;
    const flags = (last ? Flag.END_HEADERS : 0) | (at === 0 && endStream ? Flag.END_STREAM : 0);
    pieces.push({ type, flags, fragment: block.subarray(at, at + maxFrameSize) });
  }
  return pieces;
}

/** HEADERS then CONTINUATION frames for a block, each in its own buffer. */
export function encodeHeaders(streamId: number, block: Uint8Array, endStream: boolean, maxFrameSize: number): Uint8Array[] {
  return headerBlockPieces(block, endStream, maxFrameSize).map(({ type, flags, fragment }) => frame(type, flags, streamId, fragment));
}
