// One WebSocket connection after its handshake (RFC 6455 §5-7): frames in through the wasm
// decoder and the message reader, events out to the handler's ServerWebSocket, its messages out
// as frames. It answers pings, sends its own when the client is silent, runs the closing
// handshake and fails the connection with the right close code. Runtime-agnostic, like the
// HTTP/1.1 connection it takes the Transport over from.
import { CloseCode, closePayload } from '../../websocket/close.js';
import { COMPRESS_THRESHOLD, type DeflateCodec, type DeflateParams } from '../../websocket/deflate.js';
import { WebSocketError } from '../../websocket/errors.js';
import { FrameDecoder } from '../../websocket/frame-decoder.js';
import { encodeFrame, frameHeaderText, Opcode } from '../../websocket/frame.js';
import { MessageReader, type MessageSink } from '../../websocket/message-reader.js';
import { OPT_RSV1 } from '../../wasm/abi.js';
import { encodeOut } from '../../out-bytes.js';
import type { ConnectionHost, ServerConnection, Transport } from '../connection.js';
import type { ResolvedServeOptions } from '../options.js';
import { PROGRESS_BYTES, StallClock } from '../stall-clock.js';
import { socketControl, type ServerWebSocket, type SocketLink } from './socket.js';

/** What a WebSocket connection needs from where it runs (the server core, or an HTTP/2 connection). */
export interface WebSocketHost extends Pick<ConnectionHost, 'reportError' | 'connectionClosed'> {
  /** The server's options: `sendTimeout` holds a WebSocket as it holds a response. */
  readonly options: Pick<ResolvedServeOptions, 'sendTimeout'>;
}

/**
 * After our Close frame, how long the client has to answer with its own before the connection is
 * cut (a client that is there answers within a round trip; ws waits 30 s, which holds a dead
 * peer's socket that long).
 */
export const CLOSE_TIMEOUT_MS = 5_000;

/** upgradeWebSocket's options, resolved (idleTimeout in ms). */
export interface ResolvedWebSocketOptions {
  /** The most bytes of one message (1009 past it). */
  readonly maxPayload: number;
  /** The most frames of one message (1008 past it). */
  readonly maxFragments: number;
  /** The most bytes held unsent when a message is sent (the connection is cut past it); Infinity: no limit. */
  readonly maxBufferedAmount: number;
  /** Milliseconds without a frame from the client before it is pinged, and again before it is cut; 0: never. */
  readonly idleTimeout: number;
}

const EMPTY = new Uint8Array(0);
/** No char above 0x7f: the string's chars are its UTF-8 bytes. */
const NOT_ASCII = /[^\0-\x7f]/;

/** One WebSocket connection after its handshake. */
export class WebSocketConnection implements ServerConnection, SocketLink, MessageSink {
  closed = false;
  /**
   * Made at the first read: an idle WebSocket (most of them, most of the time) holds no frame
   * decoder or message reader, ~0.35 of its ~2.5 KiB of live heap (tests/server/idle-memory.test.ts).
   */
  private decoder: FrameDecoder | null = null;
  private closeSentAt = 0;
  private closeReceived: { code: number; reason: string } | null = null;
  /** Why we failed the connection, once we did. */
  private failure: WebSocketError | null = null;
  /**
   * When the client was last heard from, as the server's sweep saw it: a read only raises
   * `heard`, and the next sweep takes its time (the idle deadline is checked there anyway, so it
   * loses nothing; a clock read per message cost ~70 ns of a 16 B echo's ~10 us).
   */
  private lastReceived = Date.now();
  private heard = false;
  private pingSentAt = 0;
  /**
   * Bytes handed to the transport, and how many of them it had sent at the last sweep: what the
   * client takes is progress even while the queue stays full (the app may keep filling it).
   */
  private written = 0;
  private sentAtSweep = 0;
  /** How long the client has taken none of what it is sent (sendTimeout). */
  private readonly sendStall = new StallClock();

  constructor(
    private readonly transport: Transport,
    private readonly host: WebSocketHost,
    private readonly socket: ServerWebSocket,
    private readonly options: ResolvedWebSocketOptions,
    /** permessage-deflate, when it was agreed. */
    private readonly deflate: { codec: DeflateCodec; params: DeflateParams } | null = null,
  ) {}

  private makeDecoder(): FrameDecoder {
    const { options, deflate } = this;
    const codec = deflate?.codec;
    const reader = new MessageReader(this, {
      maxPayload: options.maxPayload,
      maxFragments: options.maxFragments,
      inflate: codec && ((data, maxOutput) => codec.inflate(data, maxOutput)),
    });
    return new FrameDecoder(reader, { maxFrame: options.maxPayload, options: deflate ? OPT_RSV1 : 0, memory: this.transport });
  }

  /** The handshake's answer is out: the socket opens. */
  start(): void {
    socketControl.open(this.socket, this);
  }

  // ---- transport events ----

  onData(chunk: Uint8Array): void {
    // §5.5.1: nothing the client sends after its Close frame is read.
    if (this.closed || this.failure || this.closeReceived) return;
    this.heard = true;
    this.transport.cork();
    try {
      (this.decoder ??= this.makeDecoder()).push(chunk);
    } catch (error) {
      // A fault after the client's Close in the same read is not read either (§5.5.1).
      if (!this.closeReceived) this.fail(error);
    }
    // A client that does not read what it is sent stops being read (its echoes cannot pile up).
    if (this.transport.needsDrain) this.transport.pause();
    this.transport.uncork();
  }

  onEnd(): void {
    // The client sends no more: without its Close frame, the connection closed abnormally (1006).
    // The socket is closing from now on (sends are dropped, as after close()), as ws has it.
    socketControl.closing(this.socket);
    this.transport.end();
  }

  onDrain(): void {
    if (!this.closed) this.transport.resume();
  }

  onClose(): void {
    if (this.closed) return;
    this.closed = true;
    const received = this.closeReceived;
    const failure = this.failure;
    if (received) socketControl.closed(this.socket, received.code, received.reason, this.closeSentAt > 0);
    else if (failure) socketControl.closed(this.socket, failure.closeCode, failure.code, false);
    else socketControl.closed(this.socket, CloseCode.ABNORMAL, '', false);
    this.host.connectionClosed(this.transport);
  }

  // ---- server events ----

  checkDeadline(now: number): void {
    if (this.closed) return;
    if (this.closeSentAt) {
      if (now > this.closeSentAt + CLOSE_TIMEOUT_MS) this.transport.destroy();
      return;
    }
    // A slow read: a client that takes none of what it is sent while the app goes on sending
    // would hold all of it in memory (reading stops then, so the idle ping catches it only after
    // twice idleTimeout, or never with idleTimeout 0).
    const sent = this.written - this.transport.bufferedAmount;
    this.sendStall.sent(Math.max(0, sent - this.sentAtSweep), PROGRESS_BYTES);
    this.sentAtSweep = sent;
    const sendTimeout = this.host.options.sendTimeout;
    if (this.sendStall.expired(this.transport.needsDrain, now, sendTimeout)) {
      const message = `the client took none of what it was sent for ${sendTimeout} ms (sendTimeout)`;
      return this.cut(new WebSocketError('ERR_WS_SEND_TIMEOUT', message, CloseCode.ABNORMAL));
    }
    const idle = this.options.idleTimeout;
    if (!idle) return;
    if (this.heard) {
      // Any frame since the last sweep, a Pong or not, shows the client is there.
      this.heard = false;
      this.lastReceived = now;
      this.pingSentAt = 0;
      return;
    }
    if (this.pingSentAt) {
      // No frame at all since our ping: the client is gone.
      if (now > this.pingSentAt + idle) this.transport.destroy();
    } else if (now > this.lastReceived + idle) {
      this.pingSentAt = now;
      this.write(encodeFrame(Opcode.PING, EMPTY));
    }
  }

  /** The server is closing: 1001 Going Away (§7.4.1), then the client's Close ends it. */
  shutdown(): void {
    if (this.closed || this.closeSentAt) return;
    socketControl.closing(this.socket);
    this.sendClose(CloseCode.GOING_AWAY, 'the server is shutting down');
  }

  destroy(): void {
    this.transport.destroy();
  }

  // ---- MessageSink ----

  text(data: string): void {
    socketControl.message(this.socket, data);
  }

  binary(data: Uint8Array): void {
    socketControl.message(this.socket, data);
  }

  ping(payload: Uint8Array): void {
    // §5.5.2: a Pong with the Ping's payload, unless we are closing.
    if (!this.closeSentAt) this.write(encodeFrame(Opcode.PONG, payload));
  }

  pong(): void {
    // Any frame shows the client is there (onData noted it).
  }

  close(code: number, reason: string): void {
    this.closeReceived = { code, reason };
    socketControl.closing(this.socket);
    // §5.5.1: answer with a Close frame, echoing the code (and the reason, as ws does); then the
    // server closes the TCP connection first (§7.1.1).
    if (!this.closeSentAt) this.sendClose(code === CloseCode.NO_STATUS ? undefined : code, reason);
    this.transport.end();
  }

  // ---- SocketLink ----

  sendMessage(opcode: number, payload: Uint8Array): void {
    if (this.closed || this.closeSentAt || this.failure || this.overBuffered()) return;
    const deflate = this.deflate;
    if (deflate && payload.length >= COMPRESS_THRESHOLD) {
      // RFC 7692 §6: RSV1 on the (only) frame marks the message compressed.
      const compressed = deflate.codec.deflate(payload, deflate.params.serverWindowBits);
      this.write(encodeFrame(opcode, compressed, { compressed: true }, this.transport));
      return;
    }
    this.write(encodeFrame(opcode, payload, undefined, this.transport));
  }

  sendText(text: string): void {
    if (this.closed || this.closeSentAt || this.failure || this.overBuffered()) return;
    // ASCII text is its own UTF-8: the frame goes out as a string, with no encoding step and no
    // buffer made for it (unless it is to be compressed).
    if ((!this.deflate || text.length < COMPRESS_THRESHOLD) && !NOT_ASCII.test(text)) {
      this.write(frameHeaderText(Opcode.TEXT, text.length) + text);
      return;
    }
    // Into the shared pool: the frame (or the deflated payload) is made from it at once.
    this.sendMessage(Opcode.TEXT, encodeOut(text));
  }

  startClose(code: number | undefined, reason: string): void {
    if (this.closed || this.closeSentAt) return;
    this.sendClose(code, reason);
  }

  get bufferedAmount(): number {
    return this.transport.bufferedAmount;
  }

  reportError(error: unknown): void {
    this.host.reportError(error, null);
  }

  // ---- internals ----

  /** Hands a frame to the transport, counted (a string is latin1: one byte a char). */
  private write(frame: Uint8Array | string): void {
    this.written += frame.length;
    this.transport.write(frame);
  }

  /** Whether the client is over maxBufferedAmount behind: then the connection is cut, after this send returns. */
  private overBuffered(): boolean {
    const held = this.transport.bufferedAmount;
    const max = this.options.maxBufferedAmount;
    if (held <= max) return false;
    const failure = new WebSocketError(
      'ERR_WS_SEND_BUFFER_FULL',
      `the client is ${held} bytes behind, over maxBufferedAmount (${max})`,
      CloseCode.ABNORMAL,
    );
    this.failure = failure;
    // After the app's send() returns, as the standard's events come, not inside it.
    queueMicrotask(() => this.cut(failure));
    return true;
  }

  /** Ends a connection that can take no Close frame: the handler's socket gets `error`, then `close` (1006, the error's code). */
  private cut(failure: WebSocketError): void {
    this.failure = failure;
    socketControl.error(this.socket, failure);
    this.transport.destroy();
  }

  private sendClose(code: number | undefined, reason: string): void {
    this.closeSentAt = Date.now();
    this.write(encodeFrame(Opcode.CLOSE, closePayload(code, reason)));
  }

  /** Fails the connection (§7.1.7): a Close frame with the error's code, then the end. */
  private fail(error: unknown): void {
    let failure: WebSocketError;
    if (error instanceof WebSocketError) failure = error;
    else {
      // Not the client's fault: our bug, or a handler's throw that reached here.
      this.host.reportError(error, null);
      failure = new WebSocketError('ERR_WS_INTERNAL', 'internal error', CloseCode.INTERNAL_ERROR);
    }
    this.failure = failure;
    socketControl.error(this.socket, failure);
    if (!this.closeSentAt) this.sendClose(failure.closeCode, failure.code);
    this.transport.end();
  }
}
