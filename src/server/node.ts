// wirespeed/node: the server on Node's `net`/`tls` sockets, and on several cores through
// `node:cluster`. Only the translation between sockets and the core lives here.
import cluster from 'node:cluster';
import net from 'node:net';
import { Readable } from 'node:stream';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { zlibDeflateCodec } from '../websocket/deflate.js';
import { OptionRangeError } from '../errors.js';
import { checkListener, checkServeOptions, ServerBase, type ListeningInfo, type Server, type ServeOptions } from './options.js';
import { installGlobalObjects } from './global-request.js';
import { useLightHeaders } from './light-headers.js';
import { useDisturbedCheck } from './light-response.js';
import { ServerCore } from './server-core.js';
import { answerPrimary, ClusterServer } from './node-cluster.js';
import { FLUSH_LIMIT_MS, headTimeout, LINGER_MS, type SocketTransport, type TransportEvents } from './connection.js';

export type { ConnectionInfo } from './connection.js';
export { ResponseInterruptedError, type RequestInfo } from './request-info.js';
export type { FetchHandler, ListeningInfo, RouteHandler, RouteInfo, ServeOptions, Server, ServerEvent } from './options.js';
export type { Http2Options } from '../http2/options.js';
export { requestTrailers, withTrailers } from './trailers.js';
export { LightResponse, RuntimeResponse } from './light-response.js';
export { upgradeWebSocket, type WebSocketOptions } from './websocket/upgrade.js';
export { ServerWebSocket } from './websocket/socket.js';
export { WebSocketHandshakeError } from '../websocket/handshake.js';

// A light response refuses a stream another reader disturbed, as undici's Response does (Node's
// `Readable.isDisturbed` reads web streams too).
useDisturbedCheck((stream) => Readable.isDisturbed(stream as unknown as Readable));

/** serve() options on Node: the common ones and `workers`. */
export interface NodeServeOptions extends ServeOptions {
  /**
   * Serve from this many processes through `node:cluster` (they share the port). The primary only
   * supervises: it forks another for a worker that dies (logged; later and later while they die
   * before listening), `ready` rejects if a worker cannot start, and `close()` closes every worker
   * gracefully. Each worker runs your entry script again, so call `serve()` at its top level.
   * Default 1: no cluster.
   */
  workers?: number;
}

/** The options only this adapter takes. */
const NODE_OPTIONS = ['workers'];

/** The most text held back while corked. */
const TEXT_BATCH_BYTES = 16 * 1024;
/**
 * Byte writes up to this size join the corked text (one write, not a writev of two buffers);
 * larger ones would cost more to turn into text than the writev does.
 */
const JOINED_BYTES = 1024;

/** The connection a socket's events go to, kept on the socket: one set of listeners serves every socket. */
const CONNECTION = Symbol('wirespeed.connection');
/** The timer that closes an ended socket (`linger`), cleared when the socket closes first. */
const LINGER = Symbol('wirespeed.linger');
type ServedSocket = net.Socket & { [CONNECTION]: TransportEvents; [LINGER]?: NodeJS.Timeout };
/** A socket the core may have refused: no connection then. */
type MaybeServedSocket = net.Socket & { [CONNECTION]?: TransportEvents; [LINGER]?: NodeJS.Timeout };

class NodeTransport implements SocketTransport {
  constructor(
    private readonly socket: net.Socket,
    readonly encrypted: boolean,
  ) {}

  // Read from the socket when asked (a connection reads them once): not three more fields in
  // every transport an idle WebSocket keeps.
  get remoteAddress(): string {
    return this.socket.remoteAddress ?? '';
  }
  get remotePort(): number {
    return this.socket.remotePort ?? 0;
  }
  get alpnProtocol(): string | null {
    const alpn = (this.socket as tls.TLSSocket).alpnProtocol;
    return typeof alpn === 'string' ? alpn : null;
  }

  get events(): TransportEvents | null {
    return (this.socket as ServedSocket)[CONNECTION] ?? null;
  }
  set events(events: TransportEvents | null) {
    if (events) (this.socket as ServedSocket)[CONNECTION] = events;
  }

  // While corked, text is joined into one string: one write instead of a writev of many small
  // chunks (pipelined responses of one read go out together; writev cost a quarter of the CPU).
  // The socket itself is corked only when a large byte write comes between: the usual corked
  // batch is one string, written at uncork without the socket's cork buffer (~0.4 us less per
  // unpipelined request than cork + uncork around one write: docs/architecture.md).
  private corks = 0;
  private socketCorked = false;
  private pendingText = '';

  write(data: Uint8Array | string): boolean {
    const socket = this.socket;
    if (socket.writableEnded || socket.destroyed) return false;
    if (this.corks > 0) {
      if (typeof data === 'string' || data.length <= JOINED_BYTES) {
        // Small bytes join the text as latin1 (exact, and a native slice): a head and its body go
        // out in one write, not a writev of two buffers (which cost a quarter of a small response).
        this.pendingText += typeof data === 'string' ? data : Buffer.prototype.latin1Slice.call(data, 0, data.length);
        // Past a socket buffer's worth the socket takes it now, so backpressure still shows.
        if (this.pendingText.length > TEXT_BATCH_BYTES) this.flushText();
        return !socket.writableNeedDrain;
      }
      // The text before it and these bytes leave together, as one writev at uncork.
      this.corkSocket();
    }
    if (typeof data === 'string') return socket.write(data, 'latin1');
    this.flushText();
    return socket.write(data);
  }
  writeText(text: string): boolean {
    const socket = this.socket;
    if (socket.writableEnded || socket.destroyed) return false;
    // UTF-8 cannot join the latin1 text held while corked: after other writes of the batch it
    // follows them, as one writev at uncork; as the batch's first write (a response of its own,
    // usually) it goes now, without the socket's cork.
    if (this.corks > 0 && (this.pendingText !== '' || this.socketCorked)) {
      this.corkSocket();
      this.flushText();
    }
    return socket.write(text, 'utf8');
  }
  /** Corks the socket itself until uncork (a write that cannot join the held text comes). */
  private corkSocket(): void {
    if (this.socketCorked) return;
    this.socketCorked = true;
    this.socket.cork();
  }
  allocate(size: number): Uint8Array {
    // A slice of Node's pool, not zeroed: the caller writes every byte (a WebSocket frame).
    return Buffer.allocUnsafe(size);
  }
  cork(): void {
    this.corks++;
  }
  uncork(): void {
    if (this.corks === 0 || --this.corks > 0) return;
    this.flushText();
    if (this.socketCorked) {
      this.socketCorked = false;
      this.socket.uncork();
    }
  }
  private flushText(): void {
    if (this.pendingText === '') return;
    const text = this.pendingText;
    this.pendingText = '';
    if (!this.socket.destroyed) this.socket.write(text, 'latin1');
  }
  pause(): void {
    this.socket.pause();
  }
  resume(): void {
    this.socket.resume();
  }
  get needsDrain(): boolean {
    return this.socket.writableNeedDrain;
  }
  get bufferedAmount(): number {
    return this.socket.writableLength + this.pendingText.length;
  }
  end(): void {
    const socket = this.socket;
    if (socket.writableEnded || socket.destroyed) return;
    this.flushText();
    socket.end();
    socket.resume();
    linger(socket, Date.now());
  }
  destroy(): void {
    this.socket.destroy();
  }
}

/**
 * An ended socket is closed LINGER_MS after the last of its bytes went to the kernel, not
 * LINGER_MS after `end()`: a slow client still taking the end of a large response lost it (the
 * socket was destroyed with megabytes queued). One that takes nothing goes at FLUSH_LIMIT_MS, if
 * sendTimeout has not cut it already.
 */
function linger(socket: net.Socket, endedAt: number): void {
  (socket as ServedSocket)[LINGER] = setTimeout(() => {
    if (socket.destroyed) return;
    if (!socket.writableFinished && Date.now() - endedAt < FLUSH_LIMIT_MS) return linger(socket, endedAt);
    socket.destroy();
  }, LINGER_MS).unref();
}

// Shared listeners (Node calls them with the socket as `this`) instead of five closures per
// socket: 0.2 KiB less per open connection, which an idle WebSocket is for hours.
function onSocketData(this: ServedSocket, chunk: Buffer): void {
  this[CONNECTION].onData(chunk);
}
function onSocketEnd(this: ServedSocket): void {
  this[CONNECTION].onEnd();
}
function onSocketDrain(this: ServedSocket): void {
  this[CONNECTION].onDrain();
}
function onSocketError(this: net.Socket): void {
  this.destroy();
}
function onSocketClose(this: MaybeServedSocket): void {
  // The timer would hold the closed connection for LINGER_MS: long enough for V8 to move it to
  // the old generation, where a client that closes each connection made collection a quarter of
  // the server's busy time (docs/architecture.md).
  clearTimeout(this[LINGER]);
  // (A refused socket has no connection.)
  this[CONNECTION]?.onClose();
}

function attach(core: ServerCore, socket: net.Socket, encrypted: boolean): void {
  // Heard first: a socket the core refuses (over maxConnections, or while closing) is answered
  // and ended, and can still fail (a client that resets); an 'error' nobody hears ends the process.
  socket.on('error', onSocketError);
  socket.on('close', onSocketClose);
  // The core sets the transport's events (socket[CONNECTION]) to the connection it makes.
  if (!core.accept(new NodeTransport(socket, encrypted))) return;
  socket.on('data', onSocketData);
  socket.on('end', onSocketEnd);
  socket.on('drain', onSocketDrain);
}

class NodeServer extends ServerBase {
  readonly ready: Promise<void>;
  private readonly core: ServerCore;
  private readonly listener: net.Server;

  constructor(options: NodeServeOptions) {
    super(options);
    this.core = new ServerCore(options, { webSocketDeflate: zlibDeflateCodec(zlib) });
    const core = this.core;
    const encrypted = options.tls !== undefined;
    this.listener = encrypted
      ? tls.createServer(
          {
            // Other node:tls options given beside cert and key go through as they did.
            ...(options.tls as unknown as tls.TlsOptions),
            ...this.pem(),
            // Not half-open over TLS: a client that ends during the handshake is closed at once
            // (half-open, Node would hold it until handshakeTimeout). HTTPS clients do not
            // half-close (a TLS close is the end), so nothing else changes.
            allowHalfOpen: false,
            noDelay: true,
            ALPNProtocols: options.http2 ? ['h2', 'http/1.1'] : ['http/1.1'],
            // A stalled handshake is cut like a stalled head (the core's deadlines start after it).
            handshakeTimeout: headTimeout(core.options),
          },
          (socket) => attach(core, socket, true),
        )
      : net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => attach(core, socket, false));
    // Node reports a failed or timed-out handshake here but leaves the raw socket open.
    this.listener.on('tlsClientError', (_error: Error, socket: tls.TLSSocket) => socket.destroy());
    this.ready = new Promise<void>((resolve, reject) => {
      this.listener.once('error', reject);
      const listening = () => {
        this.listener.off('error', reject);
        resolve();
      };
      // Not bound yet: the port and hostname asked for.
      if (options.path !== undefined) this.listener.listen(options.path, listening);
      else this.listener.listen(this.port, this.hostname, listening);
    });
    this.closeOnAbort();
  }

  protected listening(): boolean {
    return this.listener.listening;
  }

  protected boundPort(): number {
    const address = this.listener.address();
    // A string is a Unix socket's path.
    return typeof address === 'object' && address ? address.port : 0;
  }

  protected async stop(): Promise<void> {
    const stopped = new Promise<void>((resolve) => this.listener.close(() => resolve()));
    await this.core.shutdown();
    await stopped;
  }
}

/**
 * Serves `options.fetch` (and `options.routes`) over HTTP/1.1, and HTTP/2 with `http2: true`, on Node.
 * `onListening` is called once listening, as @hono/node-server's second argument is (with
 * `workers`, in the primary only).
 */
export function serve(options: NodeServeOptions, onListening?: (info: ListeningInfo) => void): Server {
  checkServeOptions(options, NODE_OPTIONS);
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1)
    throw new OptionRangeError('workers', `workers must be a positive integer, got ${String(workers)}`);
  checkListener(onListening);
  useLightHeaders();
  if (options.overrideGlobalObjects !== false) installGlobalObjects();
  if (workers > 1 && cluster.isPrimary) {
    const primary = new ClusterServer(options, workers);
    if (onListening) primary.whenListening(onListening);
    return primary;
  }
  const server = new NodeServer(options);
  if (onListening && workers === 1) server.whenListening(onListening);
  // A worker of the cluster above (not of one the app runs itself, which has its own protocol).
  if (workers > 1 && cluster.isWorker) answerPrimary(server);
  return server;
}
