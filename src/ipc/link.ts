// What both halves of a channel (caller.ts, server.ts) share with it: the agreed codec, its
// failure, and a way to send a frame within the agreed limit.
import type { Codec } from './codec.js';
import type { IpcFrameType } from './frame.js';
import type { ValueFrameType } from './plain.js';

/** A stream's credit window: what may be in flight plus queued, unread, at any time. */
export interface StreamWindow {
  items: number;
  /** Payload bytes on the wire (a value frame's count as 0: only `items` bounds cloned values). */
  bytes: number;
}

/**
 * A stream's window by default (StreamOptions): 256 KiB and 1,024 items, so the bytes hold large
 * items and small ones flow (1,000 items of 16 B over a Unix socket: 1.4 ms with 16 items, 0.74
 * with 256, 0.63 with 1,024).
 */
export const DEFAULT_STREAM_WINDOW: StreamWindow = { items: 1024, bytes: 256 * 1024 };
/**
 * Cloned values are not bytes, so their count is all that holds them: 64 by default (a larger
 * window did not pay there: 1,000 small values over a MessageChannel in 1.42-1.45 ms with 64,
 * 1.39 with 256, 1.40-1.50 with 1,024).
 */
export const DEFAULT_CLONED_STREAM_ITEMS = 64;
/** The largest window a stream may ask for. */
export const MAX_STREAM_WINDOW: StreamWindow = { items: 65_536, bytes: 1024 * 1024 * 1024 };

/** A frame as the halves get it: its payload is bytes, or the value itself with the structured-clone codec. */
export interface ChannelFrame {
  type: IpcFrameType;
  id: number;
  payload: unknown;
  /** The payload's size on the wire in bytes; 0 for a value. */
  size: number;
}

/** What an IpcChannel's halves see of it. */
export interface ChannelLink {
  readonly codec: Codec<unknown>;
  /** Frames are values the transport clones (structured-clone codec), not bytes. */
  readonly cloning: boolean;
  /** Why the channel failed or closed (then nothing more is sent), or null. */
  failure(): Error | null;
  /** Whether sent bytes wait for the transport's pipe (IpcTransport.backlogged); the server's `drained()` follows. */
  backlogged(): boolean;
  /**
   * Sends a frame (throws when it is over the frame limit both sides agreed on); returns its
   * payload's size on the wire, as the other side's ChannelFrame will say it.
   */
  send(type: IpcFrameType, id: number, payload: unknown): number;
  /**
   * Sends a result (RESPONSE) or a stream item (DATA): bytes and strings as they are (plain.ts),
   * anything else through the codec; throws and returns as `send`.
   */
  sendValue(type: ValueFrameType, id: number, value: unknown): number;
}

/** Lets a timer not keep the process alive (Node); a no-op elsewhere. */
export const unref = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?(): void }).unref?.();
