// The stream state machine of a server (RFC 9113 §5.1), apart from framing and I/O. Push is off,
// so the reserved states never occur. Each transition names what the RFC says of a frame that
// arrives in the wrong state.
import { ConnectionError, StreamError } from './errors.js';

/** The states of a stream (§5.1). */
export type StreamState = 'idle' | 'open' | 'half-closed (remote)' | 'half-closed (local)' | 'closed';

/** How a stream was closed decides how late frames are treated (§5.1, "closed"). */
export type ClosedBy = 'end-stream' | 'reset-sent' | 'reset-received' | null;

/** What the connection does with a frame that did not throw. */
export type Verdict = 'request' | 'trailers' | 'data' | 'ignore';

/** A stream's state (§5.1), moved by the frames either side sends; throws on a frame its state forbids. */
export class StreamStateMachine {
  state: StreamState = 'idle';
  closedBy: ClosedBy = null;

  constructor(readonly id: number) {}

  /** HEADERS from the client: opens the stream, or is trailers on an open one. */
  receiveHeaders(endStream: boolean): Verdict {
    switch (this.state) {
      case 'idle':
        this.state = endStream ? 'half-closed (remote)' : 'open';
        return 'request';
      case 'open':
      case 'half-closed (local)':
        // §8.1: a second HEADERS is trailers and must end the stream.
        if (!endStream) throw new StreamError(this.id, 'PROTOCOL_ERROR', 'trailers without END_STREAM');
        this.receiveEnd();
        return 'trailers';
      default:
        return this.lateFrame('HEADERS');
    }
  }

  /** DATA from the client (§6.1: only in "open" or "half-closed (local)"). */
  receiveData(endStream: boolean): Verdict {
    if (this.state === 'idle') throw new ConnectionError('PROTOCOL_ERROR', `DATA on idle stream ${this.id}`);
    if (this.state !== 'open' && this.state !== 'half-closed (local)') return this.lateFrame('DATA');
    if (endStream) this.receiveEnd();
    return 'data';
  }

  /** RST_STREAM from the client: closes (§6.4); on an idle stream a connection error. */
  receiveReset(): void {
    if (this.state === 'idle') throw new ConnectionError('PROTOCOL_ERROR', `RST_STREAM on idle stream ${this.id}`);
    if (this.state === 'closed') return;
    this.close('reset-received');
  }

  /** WINDOW_UPDATE from the client: allowed in every state but idle (§5.1). */
  receiveWindowUpdate(): void {
    if (this.state === 'idle') throw new ConnectionError('PROTOCOL_ERROR', `WINDOW_UPDATE on idle stream ${this.id}`);
  }

  /** This side sent END_STREAM (the last of the response). */
  sendEnd(): void {
    if (this.state === 'open') this.state = 'half-closed (local)';
    else if (this.state === 'half-closed (remote)') this.close('end-stream');
  }

  /** This side sent RST_STREAM. */
  sendReset(): void {
    if (this.state !== 'closed') this.close('reset-sent');
  }

  get canSend(): boolean {
    return this.state === 'open' || this.state === 'half-closed (remote)';
  }

  private receiveEnd(): void {
    if (this.state === 'open') this.state = 'half-closed (remote)';
    else if (this.state === 'half-closed (local)') this.close('end-stream');
  }

  private close(by: ClosedBy): void {
    this.state = 'closed';
    this.closedBy = by;
  }

  /**
   * A frame after the client ended its side (§5.1): "half-closed (remote)" answers STREAM_CLOSED as
   * a stream error; so does a stream closed by END_STREAM, where the RFC allows a connection
   * error too; after this side reset it, late frames are ignored (they may have crossed the reset).
   */
  private lateFrame(type: string): Verdict {
    if (this.closedBy === 'reset-sent') return 'ignore';
    if (this.state === 'closed' && this.closedBy === 'end-stream')
      throw new ConnectionError('STREAM_CLOSED', `${type} on closed stream ${this.id}`);
    throw new StreamError(this.id, 'STREAM_CLOSED', `${type} on stream ${this.id} in state ${this.state}`);
  }
}
