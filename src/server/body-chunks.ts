// A response body stream read for writing, over HTTP/1.1 or HTTP/2 alike: byte chunks (and the
// strings and buffers servers on Node and Bun also write), empty ones skipped, and never more
// (nor, at the end, fewer) bytes than a declared length.
// `readAhead` first takes what the stream has ready at once: a body that ends there (a Response
// re-wrapped by middleware, a short generated one) goes out with its Content-Length, not chunked.
import { concatAll } from '../bytes.js';
import { encodeOut } from '../out-bytes.js';

/** A stream body broke or did not match its declared length: the response cannot finish. */
export class ResponseBodyError extends Error {}

/**
 * How many microtask turns a read may take and still count as ready now. A body the runtime
 * already holds is read in 2 turns on Node (undici) and Deno, a Blob in 5 on Deno.
 */
const READY_TURNS = 6;
/** The most bytes read ahead to learn a length; past it the body streams. */
export const READ_AHEAD_BYTES = 64 * 1024;
/**
 * The most bytes of ready chunks joined into one write. One write per chunk made a page streamed
 * in 10,000 small chunks cost 74 ms of server CPU (10,015 write calls) against node-server's 21.
 */
const BATCH_BYTES = 64 * 1024;

/**
 * How long a streamed response's head waits for the body's first chunk, to go out in one write
 * with it (HTTP/1.1) or in one flush (HTTP/2). Sent alone, the head cost the client a wakeup of
 * its own: a 20 KB file streamed from disk, 3.4k → 4.0k requests/s (wrk -c20). node:http holds a
 * head till the first write, however long that takes; here an event stream whose first event is
 * late gets its head this much later.
 */
const HEAD_HOLD_MS = 20;

/** Resolves true once `next` (a stream's next chunk) settles, either way, or false after HEAD_HOLD_MS; never rejects. */
function settlesSoon(next: Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, HEAD_HOLD_MS, false)));
  const settled = next.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

type ReadResult = ReadableStreamReadResult<Uint8Array>;
const NOT_YET = Symbol('not yet');
const SETTLED = Promise.resolve();

/**
 * `read`'s result when it settles within READY_TURNS microtask turns, else NOT_YET (the read goes
 * on); throws its rejection. Watched turn by turn, not raced against a chain of that many
 * promises: 0.5 against 1.1 ms for a body of 1,000 ready chunks (a streamed page).
 */
async function readyNow(read: Promise<ReadResult>): Promise<ReadResult | typeof NOT_YET> {
  const watch: { settled: boolean; failed: boolean; result?: ReadResult; error?: unknown } = { settled: false, failed: false };
  void read.then(
    (result) => ((watch.result = result), (watch.settled = true)),
    (error: unknown) => ((watch.error = error), (watch.failed = watch.settled = true)),
  );
  for (let turn = 0; turn < READY_TURNS && !watch.settled; turn++) await SETTLED;
  if (!watch.settled) return NOT_YET;
  if (watch.failed) throw watch.error;
  return watch.result!;
}

/** A response body being written: its reader, and chunks read ahead. */
export class ResponseBody {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly ahead: Uint8Array[] = [];
  /** A read still in flight after `readAhead` gave up waiting for it. */
  private inFlight: Promise<ReadResult> | null = null;
  private ended = false;
  /** Cancelled because the response can no longer reach the client: its end is no error. */
  abandoned = false;
  private failure: ResponseBodyError | null = null;
  /** Bytes read ahead. */
  aheadBytes = 0;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }

  /**
   * Reads the chunks that are ready within a few microtask turns, up to READ_AHEAD_BYTES.
   * Resolves true when the stream ended meanwhile: then `aheadBytes` is its length.
   */
  async readAhead(): Promise<boolean> {
    await this.readReady((chunk) => {
      this.ahead.push(chunk);
      this.aheadBytes += chunk.length;
      return this.aheadBytes <= READ_AHEAD_BYTES;
    });
    return this.ended;
  }

  /**
   * Whether the next chunk (or the end) is here within HEAD_HOLD_MS, so the head can wait for it
   * and go out with it. The read goes on either way, for `chunks()`.
   */
  arrivesSoon(): Promise<boolean> {
    if (this.ahead.length || this.ended || this.failure) return Promise.resolve(true);
    this.inFlight ??= this.reader.read();
    return settlesSoon(this.inFlight);
  }

  /** The whole body, when `readAhead` found its end (checked against `length`, as `chunks` would); else null. */
  takeWhole(length: number | null): Uint8Array[] | null {
    if (!this.ended || this.failure) return null;
    if (length !== null && length !== this.aheadBytes) return null;
    const chunks = this.ahead.filter((chunk) => chunk.length > 0);
    this.ahead.length = 0;
    return chunks;
  }

  /**
   * The chunk `chunks()` gave last is the body's last and the body is whole: the stream had ended,
   * every chunk read of it was given, no failure is still to be thrown, and it has the declared
   * length. The response can end with that chunk.
   */
  exhausted = false;

  /**
   * The body's bytes (read ahead first), checked against `length` (the declared Content-Length, or
   * null). Chunks that are ready together come joined, up to BATCH_BYTES: a stream of many small
   * chunks goes out in few writes (HTTP/1.1) or DATA frames (HTTP/2), not one per chunk.
   */
  async *chunks(length: number | null): AsyncGenerator<Uint8Array, void, undefined> {
    let written = 0;
    let finished = false;
    try {
      for (;;) {
        // A failure met while joining ready chunks comes after the bytes before it went out.
        if (this.failure) throw this.failure;
        let value: Uint8Array;
        if (this.ahead.length) value = this.takeAhead();
        else if (this.ended) break;
        else {
          const read = this.inFlight ?? this.reader.read();
          this.inFlight = null;
          const result = await read;
          if (result.done && this.abandoned) return void (finished = true);
          if (result.done) break;
          value = bytesOf(result.value);
          if (value.length < BATCH_BYTES) value = await this.withReady(value);
        }
        if (value.length === 0) continue;
        written += value.length;
        if (length !== null && written > length)
          throw new ResponseBodyError(`the response body is longer than its Content-Length ${length}`);
        this.exhausted = this.ended && this.ahead.length === 0 && this.failure === null && (length === null || written === length);
        yield value;
      }
      finished = true;
      if (length !== null && written !== length)
        throw new ResponseBodyError(`the response body ended at ${written} of its Content-Length ${length} bytes`);
    } catch (error) {
      finished = true;
      this.cancel(error);
      throw wrap(error);
    } finally {
      // The consumer stopped early (the connection or stream went away).
      if (!finished) this.cancel();
    }
  }

  /** The chunks read ahead, as many as fit in BATCH_BYTES (at least one), joined. */
  private takeAhead(): Uint8Array {
    const ahead = this.ahead;
    let count = 1;
    let bytes = ahead[0].length;
    while (count < ahead.length && bytes + ahead[count].length <= BATCH_BYTES) bytes += ahead[count++].length;
    return concatAll(ahead.splice(0, count));
  }

  /**
   * `first` joined with the chunks that are ready now (within READY_TURNS each), up to BATCH_BYTES;
   * a chunk that would pass it waits in `ahead`, a read not ready yet in `inFlight`.
   */
  private async withReady(first: Uint8Array): Promise<Uint8Array> {
    const run = [first];
    let bytes = first.length;
    await this.readReady((chunk) => {
      if (bytes + chunk.length > BATCH_BYTES) {
        this.ahead.push(chunk);
        return false;
      }
      run.push(chunk);
      bytes += chunk.length;
      return bytes < BATCH_BYTES;
    });
    return concatAll(run);
  }

  /**
   * Hands the chunks the stream has ready now (each within READY_TURNS) to `take`, until it says
   * no more. Stops too at a read not ready yet (kept in `inFlight`), at the end (`ended`; not when
   * cut short by `abandon`: what was read is not all of it) and at a failure: the stream is
   * cancelled, and `chunks()` throws it once the bytes before it are out, as for a later failure.
   */
  private async readReady(take: (chunk: Uint8Array) => boolean): Promise<void> {
    try {
      for (;;) {
        const read = this.reader.read();
        const result = await readyNow(read);
        if (result === NOT_YET) {
          this.inFlight = read;
          return;
        }
        if (result.done) {
          this.ended = !this.abandoned;
          return;
        }
        if (!take(bytesOf(result.value))) return;
      }
    } catch (error) {
      this.failure = wrap(error);
      this.cancel(error);
    }
  }

  /**
   * The response can no longer reach the client: the stream is cancelled now, and a read waiting
   * on it ends `chunks()` early and quietly (the writer then does not end the response as if
   * complete). Its source stops (an event feed unsubscribes) instead of waiting, maybe for
   * ever, to produce a chunk no one will read.
   */
  abandon(reason: Error): void {
    this.abandoned = true;
    this.cancel(reason);
  }

  /** Nobody will write the rest. */
  cancel(reason?: unknown): void {
    void this.reader.cancel(reason).catch(() => undefined);
  }
}

/**
 * A chunk as bytes. Besides Uint8Array (all the Fetch standard allows), a string is written as
 * UTF-8 and any ArrayBuffer or view of one as its bytes, as @hono/node-server, srvx and Bun.serve
 * write them: frameworks enqueue strings (Elysia's generator and SSE handlers do), and undici's
 * and Deno's refusal broke those apps. Anything else cuts the response and says why.
 */
function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return encodeOut(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  const what = value === null ? 'null' : typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
  throw new ResponseBodyError(`a response body stream must yield bytes (a Uint8Array) or strings, not ${what}`);
}

function wrap(error: unknown): ResponseBodyError {
  return error instanceof ResponseBodyError ? error : new ResponseBodyError('the response body stream failed', { cause: error });
}
