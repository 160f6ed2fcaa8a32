// One HTTP/2 stream of a server connection: its state (§5.1), its two flow-control windows, the
// request body fed by DATA, and the response waiting for send window. The connection does the
// I/O; a stream only keeps account.
import type { ServerConnection } from '../connection.js';
import { now } from '../clock.js';
import { Exchange } from '../exchange.js';
import { RequestBody } from '../request-body.js';
import { JoinedPieces } from '../../bytes.js';
import { ReceiveWindow, SendWindow } from '../../http2/flow-control.js';
import { StreamStateMachine } from '../../http2/stream-state.js';
import { Outbound } from './send.js';
import { StallClock } from '../stall-clock.js';

/** What a stream asks of its connection. */
export interface StreamHost {
  /** The handler consumed `n` body bytes: give them back to the peer's windows. */
  release(stream: Http2Stream, n: number): void;
  /** The handler read a body that waits for `100 Continue`. */
  sendContinue(stream: Http2Stream): void;
}

/** One HTTP/2 stream of a server connection. */
export class Http2Stream extends Exchange {
  readonly state: StreamStateMachine;
  readonly sendWindow: SendWindow;
  readonly receiveWindow: ReceiveWindow;
  /** From the request's Content-Length, checked against the DATA received (§8.1.1). */
  contentLength: number | null = null;
  received = 0;
  /** The body went over maxBodyBytes: the rest of it is dropped. */
  bodyRefused = false;
  headRequest = false;
  expectsContinue = false;
  readonly startedAt = now();
  /** The response DATA waiting for window (see send.ts). */
  readonly outbound = new Outbound();
  /** How long that DATA has waited with none of it sent (sendTimeout). */
  readonly sendStall = new StallClock();
  /** An extended CONNECT (`extendedConnect`) the handler upgraded: the WebSocket that reads and writes this stream. */
  tunnel: ServerConnection | null = null;
  /** Tunnel bytes that came before the handler answered (bounded by the stream window; tiny DATA frames joined). */
  private early: JoinedPieces | null = null;
  /** The client ended its side (END_STREAM) before the tunnel opened. */
  private tunnelEnded = false;

  private paused = false;
  private unreleased = 0;
  private writableWaiters: (() => void)[] = [];

  constructor(
    readonly id: number,
    private readonly host: StreamHost,
    sendWindow: number,
    receiveWindow: number,
  ) {
    super();
    this.state = new StreamStateMachine(id);
    this.sendWindow = new SendWindow(id, sendWindow);
    this.receiveWindow = new ReceiveWindow(id, receiveWindow);
  }

  openBody(): RequestBody {
    return (this.body = new RequestBody(this, this.expectsContinue));
  }

  /** Body bytes arrived (a copy: the frame's bytes are reused). */
  receiveBody(data: Uint8Array): void {
    const body = this.body;
    if (!body) return;
    body.push(data);
    // Bytes the handler holds off are not given back: the peer stops when its window is used up.
    if (this.paused) this.unreleased += data.length;
    else this.host.release(this, data.length);
  }

  /** Tunnel bytes (a copy): to the WebSocket, or held until it opens; given back as the body's are. */
  receiveTunnel(data: Uint8Array): void {
    if (!this.tunnel) {
      (this.early ??= new JoinedPieces()).push(data);
      return;
    }
    this.tunnel.onData(data);
    if (this.paused) this.unreleased += data.length;
    else this.host.release(this, data.length);
  }

  /** The WebSocket opened on this stream: it gets what came before. */
  openTunnel(tunnel: ServerConnection): void {
    this.tunnel = tunnel;
    const early = this.early;
    this.early = null;
    for (const data of early?.parts ?? []) this.receiveTunnel(data);
    if (this.tunnelEnded) tunnel.onEnd();
  }

  /**
   * The client ended its side of the tunnel: the WebSocket hears it after the bytes before it.
   * One that came while the handler decided was lost, and the WebSocket sat open until idleTimeout.
   */
  endTunnel(): void {
    if (this.tunnel) this.tunnel.onEnd();
    else this.tunnelEnded = true;
  }

  /** The peer reset the stream, or the connection went away: the response cannot reach it either. */
  override cancel(reason: Error): void {
    super.cancel(reason);
    this.abandonResponse(reason);
    this.wakeWriters();
    this.tunnel?.onClose();
  }

  // ---- BodyFlow: the handler's reading paces the peer through the windows ----

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    const n = this.unreleased;
    this.unreleased = 0;
    if (n) this.host.release(this, n);
  }

  sendContinue(): void {
    if (!this.responseStarted) this.host.sendContinue(this);
  }

  // ---- response side ----

  /** Resolves when a streaming response may queue more (or the stream is gone). */
  writable(): Promise<void> {
    return new Promise((resolve) => this.writableWaiters.push(resolve));
  }

  wakeWriters(): void {
    this.tunnel?.onDrain();
    const waiters = this.writableWaiters;
    if (!waiters.length) return;
    this.writableWaiters = [];
    for (const wake of waiters) wake();
  }
}
