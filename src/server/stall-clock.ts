// The slow-read clock (`sendTimeout`): how long a response has waited on its client to take
// bytes without any going out. Checked on the server's sweep, so it costs nothing per write.

/** How long something has stayed stalled, with no progress in between. */
export class StallClock {
  private since = 0;

  /** Progress: bytes went out (a drain, DATA within a window). */
  progressed(): void {
    this.since = 0;
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
