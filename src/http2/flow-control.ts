// Flow-control windows (RFC 9113 §5.2, §6.9). A receive window shrinks as DATA arrives and grows
// when this side sends WINDOW_UPDATE; a send window shrinks as this side sends DATA and grows with
// the peer's WINDOW_UPDATE, and may go negative when SETTINGS_INITIAL_WINDOW_SIZE shrinks (§6.9.2).
import { ConnectionError, StreamError } from './errors.js';
import { MAX_WINDOW } from './frame/header.js';

/** The error to throw for a window of `streamId` (0: the connection's). */
function flowError(streamId: number, message: string): Error {
  return streamId === 0 ? new ConnectionError('FLOW_CONTROL_ERROR', message) : new StreamError(streamId, 'FLOW_CONTROL_ERROR', message);
}

/** A flow-control window we send within (§6.9.1): consumed by our DATA, grown by WINDOW_UPDATE. */
export class SendWindow {
  constructor(
    private readonly streamId: number,
    public size: number,
  ) {}

  /** Bytes that may be sent now. */
  get available(): number {
    return Math.max(0, this.size);
  }

  consume(n: number): void {
    this.size -= n;
  }

  /** The peer's WINDOW_UPDATE: past 2^31-1 is a flow-control error (§6.9.1). */
  increase(increment: number): void {
    if (this.size + increment > MAX_WINDOW) throw flowError(this.streamId, `window of stream ${this.streamId} over 2^31-1`);
    this.size += increment;
  }

  /**
   * A new SETTINGS_INITIAL_WINDOW_SIZE moves every stream window by the difference; one pushed past
   * 2^31-1 is a connection error FLOW_CONTROL_ERROR (§6.9.2).
   */
  adjust(delta: number): void {
    if (this.size + delta > MAX_WINDOW)
      throw new ConnectionError('FLOW_CONTROL_ERROR', `SETTINGS_INITIAL_WINDOW_SIZE pushes stream ${this.streamId} over 2^31-1`);
    this.size += delta;
  }
}

/** A flow-control window we grant (§6.9.1): used by the peer's DATA, given back in batches as data is consumed. */
export class ReceiveWindow {
  private size: number;
  /** Consumed since the last WINDOW_UPDATE this side sent. */
  private unacknowledged = 0;

  constructor(
    private readonly streamId: number,
    private readonly target: number,
  ) {
    this.size = target;
  }

  /** A DATA frame of `n` flow-controlled bytes arrived: more than the window is an error (§6.9.1). */
  receive(n: number): void {
    if (n > this.size) throw flowError(this.streamId, `${n} bytes of DATA over a window of ${this.size} on stream ${this.streamId}`);
    this.size -= n;
  }

  /**
   * The application consumed `n` bytes. Returns the increment to send in WINDOW_UPDATE once half the
   * window is used (one update per half window keeps a large body flowing without an update per
   * frame), else 0.
   */
  release(n: number): number {
    this.unacknowledged += n;
    if (this.unacknowledged < this.target / 2) return 0;
    const increment = this.unacknowledged;
    this.unacknowledged = 0;
    this.size += increment;
    return increment;
  }
}
