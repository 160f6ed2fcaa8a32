// A header block gathered from HEADERS and CONTINUATION frames (RFC 9113 §4.3, §6.10), bounded in
// bytes and in frames before it is decoded (CVE-2024-27316), as h2's framed_read.rs `Partial`.
import { concatAll } from '../../bytes.js';
import { ConnectionError } from '../errors.js';
import { FrameType } from './header.js';

/** A header block may span at most this many CONTINUATION frames (CVE-2024-27316). */
export const MAX_CONTINUATIONS = 64;

/** A complete header block, ready for the HPACK decoder. */
export interface HeaderBlock {
  readonly streamId: number;
  readonly endStream: boolean;
  readonly fragment: Uint8Array;
}

interface OpenBlock {
  streamId: number;
  endStream: boolean;
  /** Copies: a frame's payload is a view of a whole read, which it would keep. */
  parts: Uint8Array[];
  bytes: number;
  frames: number;
}

/** Joins HEADERS and CONTINUATION fragments into one block, within the size and frame-count limits. */
export class HeaderBlockAssembler {
  private open: OpenBlock | null = null;
  /** When the open block began (Date.now()): it must complete within the head deadline. */
  startedAt = 0;

  /** `maxBytes`: the largest block taken (the advertised SETTINGS_MAX_HEADER_LIST_SIZE). */
  constructor(private readonly maxBytes: number) {}

  /** A block is open: only its CONTINUATION frames may come next. */
  get pending(): boolean {
    return this.open !== null;
  }

  /** §6.10: a header block is contiguous; any other frame in between is a connection error. */
  checkNext(type: number, streamId: number): void {
    const open = this.open;
    if (open && (type !== FrameType.CONTINUATION || streamId !== open.streamId)) {
      throw new ConnectionError('PROTOCOL_ERROR', 'a header block was interrupted by another frame (§6.10)');
    }
  }

  /** A HEADERS frame: its block when END_HEADERS is set, else null (CONTINUATION follows). */
  headers(streamId: number, endStream: boolean, fragment: Uint8Array, endHeaders: boolean): HeaderBlock | null {
    if (endHeaders) return { streamId, endStream, fragment };
    this.open = { streamId, endStream, parts: [fragment.slice()], bytes: fragment.length, frames: 1 };
    this.startedAt = Date.now();
    this.check(this.open);
    return null;
  }

  /** A CONTINUATION frame: the whole block once END_HEADERS ends it, else null. */
  continuation(streamId: number, fragment: Uint8Array, endHeaders: boolean): HeaderBlock | null {
    const open = this.open;
    // §6.10: CONTINUATION only follows HEADERS (or CONTINUATION) without END_HEADERS.
    if (!open) throw new ConnectionError('PROTOCOL_ERROR', `CONTINUATION on stream ${streamId} without a header block (§6.10)`);
    open.parts.push(fragment.slice());
    open.bytes += fragment.length;
    open.frames++;
    this.check(open);
    if (!endHeaders) return null;
    this.open = null;
    return { streamId: open.streamId, endStream: open.endStream, fragment: concatAll(open.parts) };
  }

  private check(open: OpenBlock): void {
    if (open.bytes > this.maxBytes) throw new ConnectionError('ENHANCE_YOUR_CALM', `a header block over ${this.maxBytes} bytes`);
    if (open.frames > MAX_CONTINUATIONS)
      throw new ConnectionError('ENHANCE_YOUR_CALM', `a header block in over ${MAX_CONTINUATIONS} frames`);
  }
}
