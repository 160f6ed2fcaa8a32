// The time, read once per task. A server reads it for each request's deadlines and for its Date
// field, and `Date.now()` costs ~60 ns on the reference VM: three reads per request were ~7% of a
// pipelined request's CPU. The value is kept until the microtasks of the current task run, so
// requests handled in one read of the socket share one reading (they are microseconds apart; the
// deadlines it feeds are seconds long and the Date field has a resolution of one second).
let cached = 0;
let fresh = false;

function expire(): void {
  fresh = false;
}

/** `Date.now()`, read at most once per task. */
export function now(): number {
  if (!fresh) {
    cached = Date.now();
    fresh = true;
    queueMicrotask(expire);
  }
  return cached;
}
