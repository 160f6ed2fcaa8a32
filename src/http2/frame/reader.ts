// Splits a connection's bytes into frames: the client preface first (RFC 9113 §3.4), then frames
// of at most SETTINGS_MAX_FRAME_SIZE (§4.2), from chunks split anywhere.
import { Joiner } from '../../bytes.js';
import { ConnectionError } from '../errors.js';
import { DEFAULT_MAX_FRAME_SIZE, FRAME_HEADER_SIZE, readFrameHeader, type FrameHeader } from './header.js';

/** "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" (§3.4). */
export const CLIENT_PREFACE = new TextEncoder().encode('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

/** How `data` starts: with the whole preface, with a prefix of it (more bytes needed), or not. */
export function prefaceState(data: Uint8Array): 'complete' | 'partial' | 'mismatch' {
  const n = Math.min(data.length, CLIENT_PREFACE.length);
  for (let i = 0; i < n; i++) if (data[i] !== CLIENT_PREFACE[i]) return 'mismatch';
  return n === CLIENT_PREFACE.length ? 'complete' : 'partial';
}

/** A frame as read: its header and payload, not yet parsed. */
export interface RawFrame {
  header: FrameHeader;
  /** A view of the bytes read, which the reader never writes again (a DATA payload is kept as it is). */
  payload: Uint8Array;
}

/** Splits the connection's bytes into frames (after the client preface), within the frame size limit. */
export class FrameReader {
  /** What the reads so far left of an incomplete frame (or preface), joined to the next read. */
  private held: Uint8Array = new Uint8Array(0);
  private readonly joiner = new Joiner();
  private prefaceSeen: boolean;

  /** `maxFrameSize`: what this side advertised (SETTINGS_MAX_FRAME_SIZE). */
  constructor(
    public maxFrameSize = DEFAULT_MAX_FRAME_SIZE,
    options: { preface?: boolean } = {},
  ) {
    this.prefaceSeen = options.preface === false;
  }

  /** Adds `chunk`; returns the whole frames now available. Throws ConnectionError on bad input. */
  push(chunk: Uint8Array): RawFrame[] {
    const data = this.held.length ? this.joiner.join(this.held, chunk) : chunk;
    let at = 0;
    if (!this.prefaceSeen) {
      const preface = prefaceState(data);
      if (preface === 'mismatch')
        throw new ConnectionError('PROTOCOL_ERROR', 'the connection did not start with the HTTP/2 client preface');
      if (preface === 'partial') {
        this.held = this.joiner.keep(data, 0);
        return [];
      }
      this.prefaceSeen = true;
      at = CLIENT_PREFACE.length;
    }
    const frames: RawFrame[] = [];
    while (data.length - at >= FRAME_HEADER_SIZE) {
      const header = readFrameHeader(data, at);
      // §4.2: a frame over SETTINGS_MAX_FRAME_SIZE is FRAME_SIZE_ERROR.
      if (header.length > this.maxFrameSize)
        throw new ConnectionError('FRAME_SIZE_ERROR', `a ${header.length}-byte frame is over the ${this.maxFrameSize}-byte limit`);
      if (data.length - at - FRAME_HEADER_SIZE < header.length) break;
      const start = at + FRAME_HEADER_SIZE;
      frames.push({ header, payload: data.subarray(start, start + header.length) });
      at = start + header.length;
    }
    this.held = this.joiner.keep(data, at);
    return frames;
  }
}
