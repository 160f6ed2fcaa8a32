// The streams of one HTTP/2 connection (RFC 9113 §5.1) and how they end: the open ones, the
// closed ones remembered so late frames on them get the answer §5.1 asks for, and resets either
// way (§6.4), rate-limited against rapid reset.
import { ConnectionError, ErrorCode, type ErrorCodeName } from '../../http2/errors.js';
import { FrameType, uint32Bytes } from '../../http2/frame/header.js';
import type { RateLimit } from '../../http2/rate-limit.js';
import { StreamStateMachine } from '../../http2/stream-state.js';
import type { FrameWriter } from './frame-writer.js';
import type { Http2Stream } from './stream.js';

/** What the table tells its connection. */
export interface StreamEvents {
  /** A stream left the table. */
  closed(stream: Http2Stream): void;
  /** A connection error found outside the frame loop (e.g. over the reset limit when a response ends). */
  fail(error: unknown): void;
}

/** Closed streams remembered so late frames on them get the answer §5.1 asks for. */
const CLOSED_STREAMS_KEPT = 256;

/**
 * How long after a refused body's response (413, 431) RST_STREAM NO_ERROR asks its client to stop
 * sending; it gets no WINDOW_UPDATE meanwhile, so it sends no more than its stream window. With the
 * reset in the response's write, curl 7.88 (Debian 12's) read the two in one read as a failed
 * stream (exit 92, the 413 never shown), and 3 times in 40 with it a turn later; 10 ms and more:
 * 40/40, over TLS too. Longer costs browsers: Chromium hands over the response only once the
 * upload ends, so a 1 s wait made its 413 take 1,030 ms (150 ms with none, 150-185 with this).
 */
const REFUSED_BODY_GRACE_MS = 50;

/** The streams of one HTTP/2 connection and how they end. */
export class StreamTable {
  private readonly open = new Map<number, Http2Stream>();
  private readonly closed = new Map<number, StreamStateMachine>();
  /** The highest stream the client opened (§5.1.1). */
  lastStreamId = 0;

  constructor(
    private readonly writer: FrameWriter,
    private readonly resets: RateLimit,
    private readonly events: StreamEvents,
  ) {}

  get size(): number {
    return this.open.size;
  }

  get(streamId: number): Http2Stream | undefined {
    return this.open.get(streamId);
  }

  values(): IterableIterator<Http2Stream> {
    return this.open.values();
  }

  add(stream: Http2Stream): void {
    this.open.set(stream.id, stream);
  }

  /** Takes an open stream out; its state is remembered. */
  close(stream: Http2Stream): void {
    if (!this.open.delete(stream.id)) return;
    this.remember(stream.state);
    this.events.closed(stream);
  }

  /** The response is complete (END_STREAM went out). */
  endSent(stream: Http2Stream): void {
    stream.state.sendEnd();
    stream.responseSent();
    stream.wakeWriters();
    if (stream.state.state === 'closed') return this.close(stream);
    // §8.1: a refused body: with the response complete, the client is asked to stop sending it (after a grace).
    if (stream.bodyRefused) return this.refuseRest(stream);
    // Answered before the request ended (§8.1): the rest of it goes on to a handler reading it
    // whole, or is read and dropped; either way the stream closes when the client ends it.
    // (RST_STREAM NO_ERROR would be allowed, but then frames that cross it could no longer be
    // checked against the stream's state, and a handler still reading would lose its body.)
    stream.body?.dropUnlessRead();
  }

  /** RST_STREAM (§6.4), counted against the reset limit: a client that provokes resets is a client that resets. */
  reset(streamId: number, code: ErrorCodeName): void {
    const stream = this.open.get(streamId);
    const state = stream?.state ?? this.closed.get(streamId);
    this.writer.frame(FrameType.RST_STREAM, 0, streamId, uint32Bytes(ErrorCode[code]));
    if (state) state.sendReset();
    else {
      const reset = new StreamStateMachine(streamId);
      reset.sendReset();
      this.remember(reset);
    }
    if (stream) {
      stream.cancel(new Error(`the stream was reset (${code})`));
      this.close(stream);
    }
    this.countReset();
  }

  /** The client reset a stream (§6.4). */
  receiveReset(streamId: number): void {
    this.stateOf(streamId).receiveReset();
    this.countReset();
    const stream = this.open.get(streamId);
    if (!stream) return;
    stream.cancel(new Error('the client reset the stream'));
    this.close(stream);
  }

  private refuseRest(stream: Http2Stream): void {
    const timer = setTimeout(() => {
      if (this.open.get(stream.id) === stream) this.resetOutsideFrames(stream.id, 'NO_ERROR');
    }, REFUSED_BODY_GRACE_MS);
    (timer as { unref?: () => void }).unref?.();
  }

  /** A reset decided outside the frame loop (a response ending, a timer): over the reset limit, the connection fails. */
  resetOutsideFrames(streamId: number, code: ErrorCodeName): void {
    try {
      this.reset(streamId, code);
    } catch (error) {
      this.events.fail(error);
    }
  }

  /** CVE-2023-44487 (rapid reset): resets either side makes are rate-limited. */
  private countReset(): void {
    if (!this.resets.take()) throw new ConnectionError('ENHANCE_YOUR_CALM', 'too many stream resets');
  }

  /** The connection is gone: every open stream is cancelled with `reason`. */
  cancelAll(reason: Error): void {
    for (const stream of this.open.values()) stream.cancel(reason);
    this.open.clear();
  }

  remember(state: StreamStateMachine): void {
    this.closed.set(state.id, state);
    if (this.closed.size > CLOSED_STREAMS_KEPT) this.closed.delete(this.closed.keys().next().value!);
  }

  /** A closed stream's state, if it is still remembered. */
  closedState(streamId: number): StreamStateMachine | undefined {
    return this.closed.get(streamId);
  }

  /** The state of any stream: open, remembered, implicitly closed (§5.1.1), or idle. */
  stateOf(streamId: number): StreamStateMachine {
    const known = this.open.get(streamId)?.state ?? this.closed.get(streamId);
    if (known) return known;
    const state = new StreamStateMachine(streamId);
    if (streamId <= this.lastStreamId && streamId % 2 === 1) {
      state.receiveHeaders(true);
      state.sendEnd();
    }
    return state;
  }
}
