// The experiment the ipc suite measures against postMessage: two threads sharing memory, each
// direction a single-producer single-consumer byte ring in a SharedArrayBuffer. It is not part of
// wirespeed/ipc because it measured slower than a MessagePort for small messages on Node 20 (see
// the README's IPC table); it is kept, tested, so the comparison can be re-run.
// The writer copies bytes in and bumps `tail`; the reader copies them out and
// bumps `head`; each side sleeps with Atomics.waitAsync (never blocking its thread) until the other
// moves. Frames already carry their length, so the ring is a plain byte pipe. Needs shared memory:
// Node, Deno, and browsers only when cross-origin isolated.
import type { IpcTransport } from '../../src/ipc/index.js';

/** Int32 slots before the data: head, tail (free-running byte counters), closed flag. */
const HEAD = 0;
const TAIL = 1;
const CLOSED = 2;
const HEADER_BYTES = 16;

/** Both directions of one side: post `SharedRingEnds` to the other thread as they are. */
export interface SharedRingEnds {
  send: SharedArrayBuffer;
  receive: SharedArrayBuffer;
}

/** Makes the rings for two threads: keep `a`, give `b` to the other side (postMessage copies the reference). */
export function sharedRingPair(capacity = 64 * 1024): { a: SharedRingEnds; b: SharedRingEnds } {
  if (!Number.isInteger(capacity) || capacity < 64) throw new RangeError('a ring needs at least 64 bytes');
  const one = new SharedArrayBuffer(HEADER_BYTES + capacity);
  const two = new SharedArrayBuffer(HEADER_BYTES + capacity);
  return { a: { send: one, receive: two }, b: { send: two, receive: one } };
}

interface Ring {
  header: Int32Array;
  data: Uint8Array;
  capacity: number;
}

function ring(buffer: SharedArrayBuffer): Ring {
  const data = new Uint8Array(buffer, HEADER_BYTES);
  return { header: new Int32Array(buffer, 0, HEADER_BYTES / 4), data, capacity: data.length };
}

// ES2024's Atomics.waitAsync (V8 has it since Node 16; the TypeScript lib here is ES2023).
type WaitAsync = (array: Int32Array, index: number, value: number) => { async: boolean; value: Promise<unknown> | string };
const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;

/** Resolves once `header[index]` is no longer `value` (at once if it already changed). */
function changed(header: Int32Array, index: number, value: number): Promise<unknown> {
  const result = waitAsync!(header, index, value);
  return result.async ? (result.value as Promise<unknown>) : Promise.resolve();
}

export function sharedRingTransport(ends: SharedRingEnds): IpcTransport {
  if (!waitAsync) throw new TypeError('this runtime has no Atomics.waitAsync: use portTransport');
  const out = ring(ends.send);
  const input = ring(ends.receive);
  const queue: Uint8Array[] = [];
  let flushing = false;
  let closed = false;
  // A pending Atomics.waitAsync does not keep Node's or Deno's event loop alive (a socket or a
  // MessagePort does): an idle timer holds it while the ring is open, as a socket would.
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const release = () => clearInterval(keepAlive);

  /** Copies queued bytes into the outgoing ring as space allows; waits for the reader when full. */
  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      while (queue.length && !closed && !Atomics.load(out.header, CLOSED)) {
        const head = Atomics.load(out.header, HEAD);
        const tail = Atomics.load(out.header, TAIL);
        const free = out.capacity - ((tail - head) >>> 0);
        if (free === 0) {
          await changed(out.header, HEAD, head);
          continue;
        }
        const chunk = queue[0];
        const n = Math.min(free, chunk.length);
        const at = (tail >>> 0) % out.capacity;
        const first = Math.min(n, out.capacity - at);
        out.data.set(chunk.subarray(0, first), at);
        if (n > first) out.data.set(chunk.subarray(first, n), 0);
        if (n === chunk.length) queue.shift();
        else queue[0] = chunk.subarray(n);
        Atomics.store(out.header, TAIL, (tail + n) | 0);
        Atomics.notify(out.header, TAIL);
      }
    } finally {
      flushing = false;
    }
  }

  return {
    send(bytes) {
      if (closed) return;
      queue.push(bytes);
      // The common case, room in the ring, completes synchronously inside flush's first turn.
      void flush();
    },
    start(receiver) {
      keepAlive = setInterval(() => undefined, 2 ** 30);
      void (async () => {
        for (;;) {
          const head = Atomics.load(input.header, HEAD);
          const tail = Atomics.load(input.header, TAIL);
          const available = (tail - head) >>> 0;
          if (available === 0) {
            if (Atomics.load(input.header, CLOSED) || closed) {
              release();
              return receiver.end();
            }
            // close() on either side sets CLOSED and then wakes TAIL waiters.
            await changed(input.header, TAIL, tail);
            continue;
          }
          const chunk = new Uint8Array(available);
          const at = (head >>> 0) % input.capacity;
          const first = Math.min(available, input.capacity - at);
          chunk.set(input.data.subarray(at, at + first));
          if (available > first) chunk.set(input.data.subarray(0, available - first), first);
          Atomics.store(input.header, HEAD, (head + available) | 0);
          Atomics.notify(input.header, HEAD);
          receiver.data(chunk);
        }
      })();
    },
    close() {
      if (closed) return;
      closed = true;
      release();
      for (const r of [out, input]) {
        Atomics.store(r.header, CLOSED, 1);
        Atomics.notify(r.header, CLOSED);
        Atomics.notify(r.header, TAIL);
        Atomics.notify(r.header, HEAD);
      }
    },
  };
}
