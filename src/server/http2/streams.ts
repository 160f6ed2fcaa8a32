// The streams of one HTTP/2 connection (RFC 9113 §5.1): the open ones, and the closed ones
// remembered so late frames on them get the answer §5.1 asks for.
import { StreamStateMachine } from '../../http2/stream-state.js';
import type { Http2Stream } from './stream.js';

/** Closed streams remembered so late frames on them get the answer §5.1 asks for. */
const CLOSED_STREAMS_KEPT = 256;

export class StreamTable {
  private readonly open = new Map<number, Http2Stream>();
  private readonly closed = new Map<number, StreamStateMachine>();
  /** The highest stream the client opened (§5.1.1). */
  lastStreamId = 0;

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

  /** Takes an open stream out (false if it was not open); its state is remembered. */
  close(stream: Http2Stream): boolean {
    if (!this.open.delete(stream.id)) return false;
    this.remember(stream.state);
    return true;
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
