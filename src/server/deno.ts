// wirespeed/deno: the same server core on `Deno.listen` / `Deno.listenTls`. Deno's connections
// read and write through promises, so this adapter keeps a write queue (with a high-water mark,
// like a Node socket) and a read loop that stops while the core asks for a pause.
import zlib from 'node:zlib';
import { zlibDeflateCodec } from '../websocket/deflate.js';
import { checkServeOptions, ServerBase, type Server, type ServeOptions } from './options.js';
import { installLightResponse } from './light-response.js';
import { ServerCore } from './server-core.js';
import { concatAll } from '../bytes.js';
import { latin1Bytes } from '../latin1.js';
import { HIGH_WATER_MARK, headTimeout, type Transport, type TransportEvents } from './connection.js';

export type { ConnectionInfo } from './connection.js';
export type { FetchHandler, RouteHandler, ServeOptions, Server } from './options.js';
export type { Http2Options } from '../http2/options.js';
export { requestTrailers, withTrailers } from './trailers.js';
export { LightResponse, RuntimeResponse } from './light-response.js';
export { upgradeWebSocket, type WebSocketOptions } from './websocket/upgrade.js';
export { ServerWebSocket } from './websocket/socket.js';
export { WebSocketHandshakeError } from '../websocket/handshake.js';

// The slice of the Deno namespace this adapter uses (the project compiles with Node's types).
interface DenoAddr {
  hostname: string;
  port: number;
}
interface DenoConn {
  readonly remoteAddr: DenoAddr;
  read(buffer: Uint8Array): Promise<number | null>;
  write(data: Uint8Array): Promise<number>;
  closeWrite(): Promise<void>;
  close(): void;
  setNoDelay?(on: boolean): void;
  /** TLS connections only. */
  handshake?(): Promise<{ alpnProtocol: string | null }>;
}
interface DenoListener extends AsyncIterable<DenoConn> {
  readonly addr: DenoAddr;
  close(): void;
}
interface DenoNamespace {
  listen(options: { port: number; hostname: string }): DenoListener;
  listenTls(options: { port: number; hostname: string; cert: string; key: string; alpnProtocols: string[] }): DenoListener;
}

/**
 * Reads start this small, so an idle connection (a read always waits on it) holds no more: a
 * 64 KiB buffer each made 10,000 idle connections 677 MiB; now 9-10 KiB each in all, against
 * Deno.serve's 6.7 (tests/server/idle-memory.test.ts). Most request heads fit.
 */
const SMALL_READ = 2 * 1024;
/** A read that filled its buffer means more is waiting (a body, a pipelined burst): read bigger. */
const LARGE_READ = 64 * 1024;
const LINGER_MS = 2_000;

class ConnTransport implements Transport {
  readonly remoteAddress: string;
  readonly remotePort: number;
  alpnProtocol: string | null = null;
  events: TransportEvents | null = null;
  private queue: Uint8Array[] = [];
  private queued = 0;
  private corked = 0;
  private flushing = false;
  private ended = false;
  private closed = false;
  private paused = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly conn: DenoConn,
    readonly encrypted: boolean,
  ) {
    this.remoteAddress = conn.remoteAddr.hostname;
    this.remotePort = conn.remoteAddr.port;
    conn.setNoDelay?.(true);
  }

  get needsDrain(): boolean {
    return this.queued >= HIGH_WATER_MARK;
  }
  get bufferedAmount(): number {
    return this.queued;
  }

  write(data: Uint8Array | string): boolean {
    if (this.ended || this.closed) return false;
    const bytes = typeof data === 'string' ? latin1Bytes(data) : data;
    if (bytes.length) {
      this.queue.push(bytes);
      this.queued += bytes.length;
      if (!this.corked) void this.flush();
    }
    return this.queued < HIGH_WATER_MARK;
  }
  cork(): void {
    this.corked++;
  }
  uncork(): void {
    if (this.corked && --this.corked === 0) void this.flush();
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
    this.wake?.();
    this.wake = null;
  }
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.resume(); // keep reading (and dropping) until the peer closes or the linger ends
    setTimeout(() => this.destroy(), LINGER_MS);
    void this.flush();
  }
  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    try {
      this.conn.close();
    } catch {
      // already closed by the peer
    }
    this.resume();
    this.events?.onClose();
  }

  /**
   * Reads until the peer closes. While paused it still reads once more, and holds that chunk until
   * resumed: so a client that goes away is noticed even while its connection is paused.
   */
  async readLoop(): Promise<void> {
    let buffer = new Uint8Array(SMALL_READ);
    try {
      while (!this.closed) {
        const n = await this.conn.read(buffer);
        if (n === null) {
          this.events?.onEnd();
          if (this.ended) this.destroy();
          break;
        }
        // The core keeps chunks it is given: hand it a copy, not the reused buffer.
        const chunk = buffer.slice(0, n);
        // Sized for what comes next: large while reads fill the buffer, small again when idle.
        if (n === buffer.length && n < LARGE_READ) buffer = new Uint8Array(LARGE_READ);
        else if (n < buffer.length && buffer.length > SMALL_READ) buffer = new Uint8Array(SMALL_READ);
        if (this.paused) await new Promise<void>((resolve) => (this.wake = resolve));
        if (this.closed) break;
        this.events?.onData(chunk);
      }
    } catch {
      this.destroy();
    }
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.closed) return;
    this.flushing = true;
    try {
      while (this.queue.length && !this.closed) {
        const parts = this.queue;
        const size = this.queued;
        this.queue = [];
        const data = concatAll(parts);
        let sent = 0;
        while (sent < data.length) sent += await this.conn.write(data.subarray(sent));
        this.queued -= size;
        if (this.queued < HIGH_WATER_MARK) this.events?.onDrain();
      }
      if (this.ended && !this.closed) await this.conn.closeWrite();
    } catch {
      this.destroy();
    } finally {
      this.flushing = false;
    }
  }
}

class DenoServer extends ServerBase {
  readonly ready: Promise<void>;
  private readonly core: ServerCore;
  private listener: DenoListener | null = null;

  constructor(options: ServeOptions) {
    super(options);
    // Deno serves node:zlib too: the same compression as on Node.
    this.core = new ServerCore(options, { webSocketDeflate: zlibDeflateCodec(zlib) });
    this.ready = Promise.resolve().then(() => this.listen());
    this.closeOnAbort();
  }

  private listen(): void {
    const deno = (globalThis as unknown as { Deno: DenoNamespace }).Deno;
    const o = this.options;
    const at = { port: o.port ?? 0, hostname: o.hostname ?? '127.0.0.1' };
    const alpnProtocols = o.http2 ? ['h2', 'http/1.1'] : ['http/1.1'];
    this.listener = o.tls ? deno.listenTls({ ...at, ...o.tls, alpnProtocols }) : deno.listen(at);
    void this.acceptLoop(this.listener, o.tls !== undefined);
  }

  private async acceptLoop(listener: DenoListener, encrypted: boolean): Promise<void> {
    try {
      for await (const conn of listener) void this.start(conn, encrypted);
    } catch {
      // the listener was closed
    }
  }

  private async start(conn: DenoConn, encrypted: boolean): Promise<void> {
    const transport = new ConnTransport(conn, encrypted);
    if (encrypted && conn.handshake) {
      // ALPN is known once the handshake is done; a failed handshake is a closed connection, and
      // one that stalls is cut like a stalled head (the core's deadlines start after it).
      const cut = setTimeout(() => transport.destroy(), headTimeout(this.core.options));
      try {
        transport.alpnProtocol = (await conn.handshake()).alpnProtocol;
      } catch {
        return transport.destroy();
      } finally {
        clearTimeout(cut);
      }
    }
    const connection = this.core.accept(transport);
    if (!connection) return;
    transport.events = connection;
    await transport.readLoop();
  }

  protected boundPort(): number {
    return this.listener?.addr.port ?? 0;
  }

  protected async stop(): Promise<void> {
    this.listener?.close();
    await this.core.shutdown();
  }
}

/** Serves `options.fetch` (and `options.routes`) over HTTP/1.1, and HTTP/2 with `http2: true`, on Deno. */
export function serve(options: ServeOptions): Server {
  checkServeOptions(options);
  if (options.overrideGlobalObjects !== false) installLightResponse();
  return new DenoServer(options);
}
