// The time, read once per socket read. A server reads it for each request's deadlines and for its
// Date field, and `Date.now()` costs ~60 ns on the reference VM: three reads per request were ~7%
// of a pipelined request's CPU. A connection holds one reading while it handles a read
// (`holdClock` … `releaseClock`), so the requests of one read share it (they are microseconds
// apart; the deadlines it feeds are seconds long and the Date field has a resolution of one
// second); outside a read, `now()` is `Date.now()`.
//
// Measured: expiring the reading with a microtask instead (queueMicrotask, or a resolved
// promise's then) cost ~1 µs of server CPU per unpipelined request on Node 20 (15.2 → 16.3 µs,
// hello under wrk -c50): a microtask left at the end of every socket callback is dearer than the
// clock reads it saves.
let held = 0;
let reading = 0;

/** The time (ms since the epoch): the held reading inside a read, else `Date.now()`. */
export function now(): number {
  return held > 0 ? reading : Date.now();
}

/** Starts a read: `now()` returns one reading until the matching `releaseClock`. Calls nest. */
export function holdClock(): void {
  if (held++ === 0) reading = Date.now();
}

/** Ends what `holdClock` started. */
export function releaseClock(): void {
  held--;
}
