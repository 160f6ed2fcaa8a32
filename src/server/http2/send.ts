// The sending half of an HTTP/2 connection (RFC 9113 §5.2, §6.9): header blocks, then DATA within
// the peer's windows. It owns everything waiting to go out: each stream's queued DATA and how the
// stream ends, and the streams held back by the connection window.
import type { HeaderList } from '../../fields.js';
import type { HpackEncoder } from '../../hpack/encoder.js';
import { SendWindow } from '../../http2/flow-control.js';
import { EMPTY, Flag, FrameType } from '../../http2/frame/header.js';
import { headerBlockPieces } from '../../http2/frame/headers.js';
import { DEFAULT_INITIAL_WINDOW_SIZE, type Settings } from '../../http2/settings.js';
import { HIGH_WATER_MARK, type Transport } from '../connection.js';
import type { FrameWriter } from './frame-writer.js';
import type { Http2Stream } from './stream.js';
import { PROGRESS_BYTES } from '../stall-clock.js';

/** Response bytes queued past this make a streaming response wait (its producer is paused). */
export const STREAM_HIGH_WATER_MARK = HIGH_WATER_MARK;
/**
 * DATA waits in its stream past this much in the socket's queue (see `waitingForSocket`), so the
 * queue drains at least every 4 MiB a client takes. Measured (h2load -c4 -m4, 1 MiB responses,
 * loopback): 64 KiB (the socket's high-water mark) cost 35% of the throughput, 1 MiB 25%, 2 MiB
 * 22%, 4 MiB 2-4%.
 */
const SOCKET_QUEUE_LIMIT = 4 * 1024 * 1024;
/** The RFC's initial connection window (§6.9.2): both sides start with it. */
export const INITIAL_CONNECTION_WINDOW = DEFAULT_INITIAL_WINDOW_SIZE;

/** A stream's response DATA not yet sent for want of window, and how the stream ends. Only `Send` changes it. */
export class Outbound {
  readonly chunks: Uint8Array[] = [];
  bytes = 0;
  /** END_STREAM goes out after the chunks: with `trailers` as a HEADERS frame, or on the last DATA. */
  endQueued = false;
  trailers: HeaderList | null = null;
}

/** The sending half of an HTTP/2 connection. */
export class Send {
  /** The connection's send window. */
  readonly window = new SendWindow(0, INITIAL_CONNECTION_WINDOW);
  /** Streams with DATA waiting for the connection window, oldest first. */
  private readonly blocked = new Set<Http2Stream>();
  /**
   * Streams with DATA waiting for the socket: past SOCKET_QUEUE_LIMIT DATA stays in its stream,
   * where it counts toward maxQueuedBytes, and the socket's queue (which a client with wide windows
   * on a slow link would fill for minutes) drains often enough to show the client's progress
   * (sendTimeout).
   */
  private readonly waitingForSocket = new Set<Http2Stream>();
  /** The DATA bytes of every stream not yet written (waiting for window, or for the socket). */
  private queuedBytes = 0;

  constructor(
    private readonly writer: FrameWriter,
    private readonly encoder: HpackEncoder,
    /** The peer's settings, as they change. */
    private readonly peer: Settings,
    private readonly transport: Transport,
    /** The stream's END_STREAM went out. */
    private readonly endSent: (stream: Http2Stream) => void,
  ) {}

  /** A header block as HEADERS and, past the peer's frame size, CONTINUATION frames (§4.3). */
  headers(stream: Http2Stream, fields: HeaderList, endStream: boolean): void {
    const block = this.encoder.encode(fields);
    for (const { type, flags, fragment } of headerBlockPieces(block, endStream, this.peer.maxFrameSize))
      this.writer.frame(type, flags, stream.id, fragment);
    if (endStream) this.endSent(stream);
  }

  /** Queues DATA; `last` puts END_STREAM on its last frame. */
  data(stream: Http2Stream, bytes: Uint8Array, last = false): void {
    const out = stream.outbound;
    out.chunks.push(bytes);
    out.bytes += bytes.length;
    this.queuedBytes += bytes.length;
    if (last) out.endQueued = true;
    this.flush(stream);
  }

  /** Queues the end of the stream: `trailers` as a HEADERS frame, or END_STREAM on empty DATA. */
  end(stream: Http2Stream, trailers: HeaderList | null): void {
    stream.outbound.endQueued = true;
    stream.outbound.trailers = trailers;
    this.flush(stream);
  }

  /** Sends what the windows allow of a stream's queued DATA, then its end when it is due. */
  flush(stream: Http2Stream): void {
    if (!stream.state.canSend) return;
    const out = stream.outbound;
    const chunks = out.chunks;
    const maxFrame = this.peer.maxFrameSize;
    while (chunks.length) {
      if (this.transport.bufferedAmount >= SOCKET_QUEUE_LIMIT) {
        this.waitingForSocket.add(stream);
        return;
      }
      const chunk = chunks[0];
      const n = Math.min(chunk.length, maxFrame, this.window.available, stream.sendWindow.available);
      if (n === 0) {
        if (this.window.available === 0) this.blocked.add(stream);
        return;
      }
      if (n === chunk.length) chunks.shift();
      else chunks[0] = chunk.subarray(n);
      out.bytes -= n;
      this.queuedBytes -= n;
      stream.sendStall.sent(n, PROGRESS_BYTES);
      this.window.consume(n);
      stream.sendWindow.consume(n);
      const last = chunks.length === 0 && out.endQueued && !out.trailers;
      this.writer.frame(FrameType.DATA, last ? Flag.END_STREAM : 0, stream.id, n === chunk.length ? chunk : chunk.subarray(0, n));
      if (last) return this.endSent(stream);
    }
    this.blocked.delete(stream);
    if (out.endQueued) {
      if (out.trailers) return this.headers(stream, out.trailers, true);
      this.writer.frame(FrameType.DATA, Flag.END_STREAM, stream.id, EMPTY);
      return this.endSent(stream);
    }
    if (out.bytes < STREAM_HIGH_WATER_MARK && !this.transport.needsDrain) stream.wakeWriters();
  }

  /** The socket drained: the streams it held back go on, oldest first, while it takes more. */
  socketDrained(): void {
    for (const stream of this.waitingForSocket) {
      if (this.transport.bufferedAmount >= SOCKET_QUEUE_LIMIT) return;
      this.waitingForSocket.delete(stream);
      this.flush(stream);
    }
  }

  /** The connection window grew (WINDOW_UPDATE on stream 0): the streams it held back go on. */
  windowOpened(increment: number): void {
    this.window.increase(increment);
    for (const stream of this.blocked) {
      this.flush(stream);
      if (this.window.available === 0) break;
    }
  }

  /** The DATA bytes of every stream not yet written. */
  get queued(): number {
    return this.queuedBytes;
  }

  /** The stream closed: nothing of it waits any more (a reset stream's DATA is dropped). */
  forget(stream: Http2Stream): void {
    this.blocked.delete(stream);
    this.waitingForSocket.delete(stream);
    const out = stream.outbound;
    // Most streams close with nothing left (an array's length set costs ~25 ns).
    if (out.bytes === 0) return;
    this.queuedBytes -= out.bytes;
    out.chunks.length = 0;
    out.bytes = 0;
  }
}
