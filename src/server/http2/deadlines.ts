// The clocks of an HTTP/2 server connection, checked on the server's sweep: the preface and our
// SETTINGS' acknowledgement (§6.5.3), a header block cut short, each stream's request, a
// response the client does not take (sendTimeout: its windows or its socket), an idle
// connection, and the PING (§6.7) that asks a silent client with open streams whether it is
// still there. It decides; the connection acts (DeadlineHost).
import { ConnectionError } from '../../http2/errors.js';
import type { HeaderBlockAssembler } from '../../http2/frame/header-block.js';
import type { ResolvedHttp2Options } from '../../http2/options.js';
import { headTimeout, type Transport } from '../connection.js';
import type { ResolvedServeOptions } from '../options.js';
import { StallClock } from '../stall-clock.js';
import type { SettingsSync } from './settings-sync.js';
import type { Http2Stream } from './stream.js';
import type { StreamTable } from './streams.js';

/** What the deadlines act through. */
export interface DeadlineHost {
  destroy(error?: unknown): void;
  /** A connection error: GOAWAY with its code. */
  fail(error: unknown): void;
  /** Graceful close: GOAWAY NO_ERROR. */
  shutdown(): void;
  ping(): void;
  /** A stream's request did not arrive within requestTimeout. */
  timeOut(stream: Http2Stream): void;
  /** The client's windows held a stream's response back for sendTimeout. */
  sendTimedOut(stream: Http2Stream): void;
}

/** The pieces of the connection whose time runs. */
export interface Clocked {
  readonly settings: SettingsSync;
  readonly blocks: HeaderBlockAssembler;
  readonly streams: StreamTable;
  readonly transport: Transport;
}

/** When the connection was last heard from, and what each clock says now. */
export class Deadlines {
  readonly createdAt = Date.now();
  private lastReceived = this.createdAt;
  private idleSince = this.createdAt;
  private pingSentAt = 0;
  /** How long the socket's queue has stayed full. */
  private readonly sendStall = new StallClock();
  /** A check found the socket's queue full: this side stopped reading the client. */
  private deaf = false;

  constructor(
    private readonly host: DeadlineHost,
    private readonly clocked: Clocked,
    private readonly serve: ResolvedServeOptions,
    private readonly options: ResolvedHttp2Options,
  ) {}

  /** Bytes arrived from the client. */
  received(now: number): void {
    this.lastReceived = now;
  }

  /** The last stream closed. */
  idle(now: number): void {
    this.idleSince = now;
  }

  /** The socket's queue drained: the client takes bytes. */
  drained(): void {
    this.sendStall.progressed();
    if (!this.deaf) return;
    // It took bytes while this side could not hear it (a drain after any write, as Deno reports
    // them, says nothing of that): it is there. (The clock is read only then: Deno drains often.)
    this.deaf = false;
    this.lastReceived = Date.now();
    this.pingSentAt = 0;
  }

  /** Our PING was answered. */
  pong(): void {
    this.pingSentAt = 0;
  }

  check(now: number): void {
    const { settings, blocks, streams, transport } = this.clocked;
    const o = this.serve;
    if (this.sendStall.expired(transport.needsDrain, now, o.sendTimeout)) {
      return this.host.destroy(new Error(`the client took none of the responses for ${o.sendTimeout} ms (sendTimeout)`));
    }
    // The preface and SETTINGS must come as fast as an HTTP/1.1 head would (slowloris).
    if (!settings.received) {
      if (now > this.createdAt + headTimeout(o)) this.host.destroy();
      return;
    }
    if (settings.overdue(now)) {
      return this.host.fail(new ConnectionError('SETTINGS_TIMEOUT', 'our SETTINGS were not acknowledged in time (§6.5.3)'));
    }
    if (blocks.pending && now > blocks.startedAt + o.headersTimeout) {
      return this.host.fail(new ConnectionError('ENHANCE_YOUR_CALM', 'a header block did not complete in time'));
    }
    if (streams.size === 0) {
      if (now > this.idleSince + o.keepAliveTimeout) this.host.shutdown();
      return;
    }
    for (const stream of streams.values()) {
      if (stream.tunnel) stream.tunnel.checkDeadline(now);
      else if (stream.body && !stream.body.complete && now > stream.startedAt + o.requestTimeout) this.host.timeOut(stream);
      else if (stream.sendStall.expired(stream.outbound.bytes > 0, now, o.sendTimeout)) this.host.sendTimedOut(stream);
    }
    // While the socket's queue is full this side may read nothing (the connection pauses): the
    // silence may be ours, so no PING is judged then; the socket's clock above (sendTimeout)
    // watches the client instead.
    if (transport.needsDrain) {
      this.deaf = true;
      return;
    }
    if (this.pingSentAt) {
      if (now > this.pingSentAt + this.options.pingTimeout) this.host.destroy(new Error('the client did not answer a PING in time'));
    } else if (now > this.lastReceived + o.keepAliveTimeout) {
      // Streams wait on a silent client: make sure it is still there.
      this.pingSentAt = now;
      this.host.ping();
    }
  }
}
