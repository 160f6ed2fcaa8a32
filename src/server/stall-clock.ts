// The slow-read clock (`sendTimeout`): how long a response has waited on its client to take
// bytes without enough going out. Read on the server's sweep: a write only counts its bytes.
import { DEFAULT_MAX_FRAME_SIZE } from '../http2/frame/header.js';

/**
 * A frame's worth (HTTP/2's default SETTINGS_MAX_FRAME_SIZE): the least a client must take to
 * count as taking what it is sent (an HTTP/2 stream's response, a WebSocket's messages), and on
 * HTTP/2 the least window it opens that counts as reading (maxQueuedBytes). Counting any bytes,
 * a client that takes a few bytes a minute (a data dribble, CVE-2019-9511) would hold what is
 * queued for it for ever.
 */
export const PROGRESS_BYTES = DEFAULT_MAX_FRAME_SIZE;

/** How long something has stayed stalled, with no progress in between. */
export class StallClock {
  private since = 0;
  /** Bytes sent since the last progress (`sent`). */
  private unprogressed = 0;

  /** Progress: bytes went out (a drain: the whole queue did). */
  progressed(): void {
    this.since = 0;
    this.unprogressed = 0;
  }

  /** `bytes` went out: progress once they add up to `atLeast` since the last progress. */
  sent(bytes: number, atLeast: number): void {
    this.unprogressed += bytes;
    if (this.unprogressed >= atLeast) this.progressed();
  }

  /** Whether `stalled` has held from one check to this one, with no progress, for `limit` ms. */
  expired(stalled: boolean, now: number, limit: number): boolean {
    if (!stalled) {
      this.since = 0;
      return false;
    }
    if (this.since === 0) {
      this.since = now;
      return false;
    }
    return now - this.since >= limit;
  }
}
