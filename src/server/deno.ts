// wirespeed/deno: the same server core on `Deno.listen` / `Deno.listenTls`. Deno's connections
// read and write through promises, so this adapter keeps a write queue (with a high-water mark,
// like a Node socket) and a read loop that stops while the core asks for a pause.
import zlib from 'node:zlib';
import { zlibDeflateCodec } from '../websocket/deflate.js';
import { InvalidOptionError } from '../errors.js';
import { checkListener, checkServeOptions, ServerBase, type ListeningInfo, type Server, type ServeOptions } from './options.js';
import { installGlobalObjects } from './global-request.js';
import { ServerCore } from './server-core.js';
import { Slab } from '../bytes.js';
import { joinInto, joinOut, type OutPart } from '../out-bytes.js';
import {
  HIGH_WATER_MARK,
  FLUSH_LIMIT_MS,
  headTimeout,
  LINGER_MS,
  type NetAddress,
  type RuntimeAddress,
  type SocketTransport,
  type TransportEvents,
  type UnixAddress,
} from './connection.js';
import { installDenoResponseTakers, installDenoServe, installDenoUpgrade } from './deno-globals.js';

export type { ConnectionInfo, NetAddress, RuntimeAddress, UnixAddress } from './connection.js';
export type { RequestInfo } from './request-info.js';
export type { FetchHandler, ListeningInfo, RouteHandler, RouteInfo, ServeOptions, Server, ServerEvent } from './options.js';
export type { Http2Options } from '../http2/options.js';
export { requestTrailers, withTrailers } from './trailers.js';
export { LightResponse, RuntimeResponse } from './light-response.js';
export { upgradeWebSocket, type WebSocketOptions } from './websocket/upgrade.js';
export { ServerWebSocket } from './websocket/socket.js';
export { WebSocketHandshakeError } from '../websocket/handshake.js';

// The slice of the Deno namespace this adapter uses (the project compiles with Node's types).
interface DenoConn {
  readonly remoteAddr: RuntimeAddress;
  read(buffer: Uint8Array): Promise<number | null>;
  write(data: Uint8Array): Promise<number>;
  closeWrite(): Promise<void>;
  close(): void;
  setNoDelay?(on: boolean): void;
  /** TLS connections only. */
  handshake?(): Promise<{ alpnProtocol: string | null }>;
}
interface DenoListener extends AsyncIterable<DenoConn> {
  readonly addr: RuntimeAddress;
  close(): void;
  ref(): void;
  unref(): void;
}
interface DenoNamespace {
  listen(options: { port: number; hostname: string } | { transport: 'unix'; path: string }): DenoListener;
  listenTls(options: { port: number; hostname: string; cert: string; key: string; alpnProtocols: string[] }): DenoListener;
  errors: { Interrupted: new (message: string, options?: ErrorOptions) => Error };
}

const denoNamespace = (): DenoNamespace => (globalThis as unknown as { Deno: DenoNamespace }).Deno;

// Deno.serve takes light responses from now on, servers started before serve() included
// (deno-globals.ts): wrapped when this module loads, it passes runtime responses through as they are.
installDenoServe();

/**
 * Reads start this small, so an idle connection (a read always waits on it) holds no more: a
 * 64 KiB buffer each made 10,000 idle connections 677 MiB; now 9-10 KiB each in all, against
 * Deno.serve's 6.7 (tests/server/idle-memory.test.ts). Most request heads fit.
 */
const SMALL_READ = 2 * 1024;
/** A read that filled its buffer means more is waiting (a body, a pipelined burst): read bigger. */
const LARGE_READ = 64 * 1024;

/*
 * Deno allocates every new ArrayBuffer outside V8's heap, small ones too: ~400 ns each here
 * (`new Uint8Array(64)`, against 37 ns on Node), where a view of an existing buffer costs ~30 ns.
 * So the per-request path makes none: small reads are copied into shared slabs (as Node's
 * Buffer pool does), small writes are joined into the shared outgoing pool, and larger ones into
 * buffers lent out of a pool of their own.
 *
 * A chunk the core keeps keeps its whole buffer alive: a request's head as long as the request
 * lives, a body's pieces until the handler reads them (the body buffer copies out those that
 * would keep much more: `unpinned`). So slabs are small: a long poll that came between other
 * requests keeps one (1,000 of them held 62 MB of 64 KiB slabs, now 10 MB). And a large read
 * that fills less than half of its 64 KiB buffer is copied out: kept as a view, a body sent in
 * pieces of 2,048 then 3,000 bytes (the second read into a fresh large buffer) held 13x its
 * size, 65 MB for 4.8 MB sent on one connection, where maxBodyBytes is meant to bound it.
 */
/** A slab's size: what a kept head (a long poll's) can hold besides itself, about hyper's read buffer. */
const SLAB_BYTES = 8 * 1024;
const readChunks = new Slab((length) => new Uint8Array(length), SLAB_BYTES);
/**
 * A write of up to this many bytes is joined into the shared outgoing pool (whose bytes are never
 * written again): a response head, a small WebSocket message. Lent a pooled 16 KiB buffer
 * instead, each held it until Deno had sent it, so more writes in flight than the pool keeps (100
 * WebSocket echoes) allocated 16 KiB apiece: 13.5-14.1 → 10.5-11.2 µs of server CPU per 16 B echo.
 */
const SMALL_WRITE = 1024;
/** A write of up to this many bytes is joined into a pooled buffer; a larger one gets its own. */
const POOLED_WRITE = 16 * 1024;
/** Buffers kept for reuse (a write holds one until Deno has sent it): at most 1 MiB idle. */
const POOLED_WRITES_KEPT = 64;
const writeBuffers: Uint8Array[] = [];

/** The queued parts as one buffer of `size` bytes: a lone byte part as it is, else joined. */
function joinWrite(parts: readonly OutPart[], size: number): Uint8Array {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only instanceof Uint8Array) return only;
  if (size <= SMALL_WRITE) return joinOut(parts, size);
  const into = size <= POOLED_WRITE ? (writeBuffers.pop() ?? new Uint8Array(POOLED_WRITE)) : new Uint8Array(size);
  joinInto(parts, into, 0);
  return into;
}

/** One write of the queue: `length` bytes of `data`, which `joinWrite` joined if `joined`. */
interface QueuedWrite {
  data: Uint8Array;
  length: number;
  joined: boolean;
}

/**
 * The queued parts as the writes to make, in order: runs of parts joined (`joinWrite`), and a byte
 * part over POOLED_WRITE as it is. Joined with its head into a fresh buffer, a 20 KB body cost a
 * copy and an allocation Deno makes outside V8's heap, more than a write of its own: hono
 * `c.body` of 20 KB, 32-35k → 48-50k requests/s (`--suite server --filter '20 KB bytes'`).
 */
function writesOf(parts: OutPart[], size: number): QueuedWrite[] {
  const join = (run: OutPart[], length: number): QueuedWrite => {
    const data = joinWrite(run, length);
    return { data, length, joined: data !== run[0] };
  };
  if (size <= POOLED_WRITE || parts.length === 1) return [join(parts, size)];
  const writes: QueuedWrite[] = [];
  let run: OutPart[] = [];
  let runSize = 0;
  for (const part of parts) {
    if (typeof part === 'string' || part.length <= POOLED_WRITE) {
      run.push(part);
      runSize += part.length;
      continue;
    }
    if (run.length) writes.push(join(run, runSize));
    writes.push({ data: part, length: part.length, joined: false });
    run = [];
    runSize = 0;
  }
  if (run.length) writes.push(join(run, runSize));
  return writes;
}

/** Gives a buffer `joinWrite` joined into back to the pool, once Deno is done with it. */
function releaseWrite(buffer: Uint8Array): void {
  if (buffer.length === POOLED_WRITE && writeBuffers.length < POOLED_WRITES_KEPT) writeBuffers.push(buffer);
}

class ConnTransport implements SocketTransport {
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** Deno.serve gives handlers this object as `info.remoteAddr`: so does this server. */
  readonly remoteAddr: RuntimeAddress;
  alpnProtocol: string | null = null;
  events: TransportEvents | null = null;
  /** Strings are latin1, one byte per char: their length is their size. */
  private queue: OutPart[] = [];
  private queued = 0;
  private corked = 0;
  private writing = false;
  private writeClosed = false;
  private ended = false;
  /** The peer sent its FIN: once ours is out too, the connection is closed. */
  private readEnded = false;
  private closed = false;
  /** The timer that closes the connection after `end()` (`linger`), cleared when it closes first. */
  private lingerTimer: ReturnType<typeof setTimeout> | undefined;
  private paused = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly conn: DenoConn,
    readonly encrypted: boolean,
  ) {
    const address = conn.remoteAddr;
    this.remoteAddr = address;
    // A Unix socket's peer has no IP address: '' and 0, as a Node socket gives.
    this.remoteAddress = 'hostname' in address ? address.hostname : '';
    this.remotePort = 'port' in address ? address.port : 0;
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
    if (data.length) {
      this.queue.push(data);
      this.queued += data.length;
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
    if (this.ended || this.closed) return;
    this.ended = true;
    this.resume(); // keep reading (and dropping) until the peer closes or the linger ends
    this.linger(Date.now());
    void this.flush();
  }
  /** Closes LINGER_MS after the FIN went out (all queued bytes written), as the Node adapter does. */
  private linger(endedAt: number): void {
    this.lingerTimer = setTimeout(() => {
      if (this.closed) return;
      if (!this.writeClosed && Date.now() - endedAt < FLUSH_LIMIT_MS) return this.linger(endedAt);
      this.destroy();
    }, LINGER_MS);
  }
  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    // Not held LINGER_MS more: V8 would move the closed connection to the old generation.
    clearTimeout(this.lingerTimer);
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
          this.readEnded = true;
          this.events?.onEnd();
          // Closed once both sides are done: with our FIN still to go (often `end()` from onEnd
          // just now), destroying here dropped the bytes not yet written, the end of a response
          // or a WebSocket's last echoes; the flush closes it after the FIN instead.
          if (this.writeClosed) this.destroy();
          break;
        }
        // The core keeps chunks it is given, so it never gets the buffer read into next, nor a
        // view of one mostly empty (see SLAB_BYTES): a small read is copied into a slab, a large
        // one that fills half its buffer or more keeps the buffer (the next read gets a new
        // one), and one between is copied out on its own.
        const handedOver = 2 * n >= LARGE_READ;
        const chunk = n <= SMALL_READ ? readChunks.copy(buffer, 0, n) : handedOver ? buffer.subarray(0, n) : buffer.slice(0, n);
        // Sized for what comes next: large while reads fill the buffer, small again when idle.
        const next = n === buffer.length ? LARGE_READ : SMALL_READ;
        if (handedOver || buffer.length !== next) buffer = new Uint8Array(next);
        if (this.paused) await new Promise<void>((resolve) => (this.wake = resolve));
        if (this.closed) break;
        this.events?.onData(chunk);
      }
    } catch {
      this.destroy();
    }
  }

  /** Writes what is queued, one write at a time (a short write is finished first), then the FIN once ended. */
  private async flush(): Promise<void> {
    if (this.writing || this.closed) return;
    this.writing = true;
    try {
      while (this.queue.length && !this.closed) {
        const parts = this.queue;
        const size = this.queued;
        this.queue = [];
        for (const { data, length, joined } of writesOf(parts, size)) {
          let sent = 0;
          while (sent < length) sent += await this.conn.write(data.subarray(sent, length));
          if (joined) releaseWrite(data); // joined here: the pool's, not the caller's
        }
        this.queued -= size;
        if (this.queued < HIGH_WATER_MARK) this.events?.onDrain();
      }
      if (this.ended && !this.closed && !this.writeClosed) {
        this.writeClosed = true;
        await this.conn.closeWrite();
        if (this.readEnded) this.destroy();
      }
    } catch {
      this.destroy();
    } finally {
      this.writing = false;
    }
  }
}

/**
 * What serve() returns on Deno: a Server, with the members of Deno.serve's `HttpServer` too, so
 * code written for it (`await server.finished`, `server.shutdown()` on a signal, `server.addr`)
 * keeps working.
 */
export interface DenoServer<Address extends RuntimeAddress = NetAddress> extends Server, AsyncDisposable {
  /**
   * Where it listens, as Deno.serve gives it (a `Deno.NetAddr`, or a `Deno.UnixAddr` with `path`;
   * the requested one before `ready`).
   */
  readonly addr: Address;
  /** `close()`: stops accepting and lets in-flight requests finish. */
  shutdown(): Promise<void>;
  /** The listener keeps the process alive again (the default). */
  ref(): void;
  /** The listener no longer keeps the process alive (open connections still do). */
  unref(): void;
}

class DenoHttpServer extends ServerBase implements DenoServer<RuntimeAddress> {
  readonly ready: Promise<void>;
  private readonly core: ServerCore;
  private listener: DenoListener | null = null;
  /** The accept loop, which ends once the listener is closed. */
  private accepting: Promise<void> = Promise.resolve();

  constructor(options: ServeOptions) {
    super(options);
    // Deno serves node:zlib too: the same compression as on Node.
    this.core = new ServerCore(options, {
      webSocketDeflate: zlibDeflateCodec(zlib),
      // What Deno.serve's `completed` rejects with.
      responseInterrupted: (cause) => new (denoNamespace().errors.Interrupted)('HTTP response was not sent successfully', { cause }),
    });
    this.ready = Promise.resolve().then(() => this.listen());
    this.closeOnAbort();
  }

  get addr(): RuntimeAddress {
    const path = this.options.path;
    return (
      this.listener?.addr ??
      (path !== undefined ? { transport: 'unix', path } : { transport: 'tcp', hostname: this.hostname, port: this.port })
    );
  }
  shutdown(): Promise<void> {
    return this.close();
  }
  ref(): void {
    this.listener?.ref();
  }
  unref(): void {
    this.listener?.unref();
  }
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private listen(): void {
    const deno = denoNamespace();
    const o = this.options;
    const pem = this.pem();
    // Not bound yet: the port and hostname asked for.
    const at = { port: this.port, hostname: this.hostname };
    const alpnProtocols = o.http2 ? ['h2', 'http/1.1'] : ['http/1.1'];
    this.listener =
      o.path !== undefined
        ? deno.listen({ transport: 'unix', path: o.path })
        : pem
          ? deno.listenTls({ ...at, ...pem, alpnProtocols })
          : deno.listen(at);
    this.accepting = this.acceptLoop(this.listener, pem !== undefined);
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
    if (!this.core.accept(transport)) return;
    await transport.readLoop();
  }

  protected listening(): boolean {
    return this.listener !== null;
  }

  protected boundPort(): number {
    const address = this.listener?.addr;
    return address && 'port' in address ? address.port : 0;
  }

  protected async stop(): Promise<void> {
    this.listener?.close();
    this.listener = null; // no longer bound: address() is null again, as on Node
    // Deno removes a Unix socket's file once the pending accept has ended, not at close().
    await this.accepting;
    await this.core.shutdown();
  }
}

/** Serves on the Unix socket `options.path`: the server's `addr` is a `Deno.UnixAddr`, as Deno.serve's is there. */
export function serve(options: ServeOptions & { path: string }, onListening?: (info: ListeningInfo) => void): DenoServer<UnixAddress>;
/** Serves `options.fetch` (and `options.routes`) over HTTP/1.1, and HTTP/2 with `http2: true`, on Deno. */
export function serve(options: ServeOptions, onListening?: (info: ListeningInfo) => void): DenoServer<NetAddress>;
/** Both: checks the options, installs the global objects unless told not to, and starts listening. */
export function serve(options: ServeOptions, onListening?: (info: ListeningInfo) => void): DenoServer<RuntimeAddress> {
  checkServeOptions(options);
  checkListener(onListening);
  if (options.path !== undefined && options.tls !== undefined)
    throw new InvalidOptionError('tls', 'Deno serves TLS on TCP only (Deno.listenTls has no Unix sockets): pass port, not path, with tls');
  if (options.overrideGlobalObjects !== false) {
    installGlobalObjects();
    installDenoUpgrade();
    installDenoResponseTakers();
  }
  const server = new DenoHttpServer(options);
  if (onListening) server.whenListening(onListening);
  return server;
}
