// A token bucket: `burst` events at once, refilled at `perSecond`. The connection keeps one for
// stream resets (rapid reset, CVE-2023-44487) and one for frames that cost this side work but
// carry no request (PING, SETTINGS, PRIORITY, empty DATA: the floods of CVE-2019-9512/9515/9518).

/** A token bucket: a burst, then so many per second. */
export class RateLimit {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token; false when the bucket is empty (the peer is over the limit). */
  take(): boolean {
    const now = this.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.perSecond) / 1000);
      this.last = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
