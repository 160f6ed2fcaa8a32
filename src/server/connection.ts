// The seams around a protocol connection (HTTP/1.1, HTTP/2, WebSocket): below it the
// runtime's socket as a Transport (an adapter implements it and forwards the socket's events to
// `onData`/`onEnd`/`onDrain`/`onClose`), above it the server core as a ConnectionHost.
import type { DeflateCodec } from '../websocket/deflate.js';
import type { ResolvedServeOptions } from './options.js';
import type { ExchangeInfo, InterruptedError } from './request-info.js';

/**
 * The bytes buffered in any one direction before the side producing them is paused: a request
 * body the handler does not read, a response the client does not read (the runtimes' default
 * stream high-water mark, 64 KiB, as Node's sockets use).
 */
export const HIGH_WATER_MARK = 64 * 1024;

/** Who is on the other end of a connection, as the handler sees it (in its RequestInfo). */
export interface ConnectionInfo {
  /** The peer's IP address; '' on a Unix socket. */
  readonly remoteAddress: string;
  /** 0 on a Unix socket. */
  readonly remotePort: number;
  /** True on TLS. */
  readonly encrypted: boolean;
  /**
   * On Deno, what Deno.serve's handler info has: the peer's `Deno.NetAddr` (a `Deno.UnixAddr` on
   * a Unix socket), so handlers written for Deno.serve (`info.remoteAddr.hostname`) and
   * hono/deno's `getConnInfo` keep working.
   */
  readonly remoteAddr?: RuntimeAddress;
}

/** A runtime's own address object: Deno's `Deno.NetAddr` or `Deno.UnixAddr`. */
export type RuntimeAddress = NetAddress | UnixAddress;

/** Deno's NetAddr: `{ transport: 'tcp', hostname, port }`. */
export interface NetAddress {
  readonly transport: 'tcp' | 'udp';
  readonly hostname: string;
  readonly port: number;
}

/** Deno's UnixAddr: a Unix socket's path (null for a client's unnamed socket). */
export interface UnixAddress {
  readonly transport: 'unix' | 'unixpacket';
  readonly path: string | null;
}

/** The info a handler gets with each request of `transport`'s connection (made once per connection). */
export function connectionInfo(transport: Transport): ConnectionInfo {
  const { remoteAddress, remotePort, encrypted, remoteAddr } = transport;
  return Object.freeze(remoteAddr ? { remoteAddress, remotePort, encrypted, remoteAddr } : { remoteAddress, remotePort, encrypted });
}

/** A connection's bytes, as an adapter gives them (a Node socket, a Deno conn, an HTTP/2 stream). */
export interface Transport {
  /**
   * Queues bytes (a string is written as latin1, one byte per char). Returns false once the
   * queue is over the high-water mark: wait for `onDrain` before writing more.
   */
  write(data: Uint8Array | string): boolean;
  /**
   * Queues `text` as UTF-8, where the runtime writes strings natively (Node, from C++, with no
   * buffer made in JavaScript); the same return as `write`. Absent: the caller encodes the text.
   */
  writeText?(text: string): boolean;
  /** Batches writes until `uncork()` (one syscall for a pipelined batch). */
  cork(): void;
  uncork(): void;
  /** Stops and restarts delivering data (backpressure on the peer). */
  pause(): void;
  resume(): void;
  /** Sends what is queued, then closes. */
  end(): void;
  /** Closes at once, dropping what is queued. */
  destroy(): void;
  /** True while the write queue is over the high-water mark. */
  readonly needsDrain: boolean;
  /** Bytes written but not yet handed to the network (a WebSocket's bufferedAmount). */
  readonly bufferedAmount: number;
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly encrypted: boolean;
  /** The runtime's own address object, where its own server hands one to handlers (Deno). */
  readonly remoteAddr?: RuntimeAddress;
  /** The protocol TLS ALPN chose ('h2', 'http/1.1'), or null (cleartext, or no ALPN). */
  readonly alpnProtocol: string | null;
  /**
   * Bytes for a buffer the caller fills completely before it writes it or hands it on (a frame
   * out, a message in): the runtime's cheapest (Node: Buffer.allocUnsafe, a slice of a pool, not
   * zeroed, so a Node Buffer whose `slice()` is a view). Absent: `new Uint8Array`.
   */
  allocate?(size: number): Uint8Array;
}

/**
 * A socket's Transport, as an adapter hands it to the core. The adapter sends the socket's events
 * to `events`, which the core sets: to the connection it made, and again when another connection
 * takes the socket over (a sniffed protocol, a WebSocket upgrade), so the one before is let go.
 */
export interface SocketTransport extends Transport {
  events: TransportEvents | null;
}

/** What an adapter calls on the connection. Chunks given to `onData` must not be reused later. */
export interface TransportEvents {
  onData(chunk: Uint8Array): void;
  /** The peer finished sending (half-close). */
  onEnd(): void;
  onDrain(): void;
  /** The transport is closed (either side, or an error). */
  onClose(): void;
}

/** What the server core keeps of each connection, whatever its protocol. */
export interface ServerConnection extends TransportEvents {
  /** Called by the server's sweep: enforces the deadline that runs. */
  checkDeadline(now: number): void;
  /** Graceful shutdown: finish what is in flight, take nothing new. */
  shutdown(): void;
  destroy(error?: unknown): void;
}

/** What a protocol connection needs from the server it belongs to (server-core.ts). */
export interface ConnectionHost {
  readonly options: ResolvedServeOptions;
  /**
   * Runs the handler (routes, fetch, onError): a Response or a native Promise of one, never a
   * throw. (The Response may be of another Fetch implementation, so tell the two apart by Promise.)
   */
  respond(request: Request, info: ExchangeInfo): Response | Promise<Response>;
  /** Makes the rejection of a handler info's `completed` (the runtime's own class on Deno). */
  readonly responseInterrupted: InterruptedError;
  /** The server is shutting down: finish what is in flight, take nothing new. */
  readonly closing: boolean;
  /** The connection on `transport` is closed. */
  connectionClosed(transport: Transport): void;
  /** `connection` serves `transport` from now on: its events go there, and the one before is let go. */
  handOver(transport: SocketTransport, connection: ServerConnection): void;
  /** An error after the response began (its body stream failed): no response can say it any more. */
  reportError(error: unknown, request: Request | null): void;
  /** The 500 for an error no handler turned into a response (the error is logged). */
  internalError(error: unknown): Response;
  /** WebSocket compression, from the adapter (it has the runtime's zlib); null: none. */
  readonly webSocketDeflate: DeflateCodec | null;
}

/** What an adapter gives the core from its runtime. */
export interface Platform {
  /** zlib-backed permessage-deflate (node:zlib on Node and Deno). */
  readonly webSocketDeflate?: DeflateCodec;
  /** `info.completed`'s rejection, where the runtime has its own (Deno.errors.Interrupted). */
  readonly responseInterrupted?: InterruptedError;
}

/**
 * After our side of a connection ended, how long the adapters keep it (reading and dropping what
 * comes, so unread input does not reset the response) once its last queued byte was written.
 */
export const LINGER_MS = 2_000;
/** The longest an ended connection is kept while it still writes what was queued. */
export const FLUSH_LIMIT_MS = 60_000;

/** How long a new connection (or request) may take to send a whole head: the shorter of the two limits. */
export function headTimeout(options: Pick<ResolvedServeOptions, 'headersTimeout' | 'requestTimeout'>): number {
  return Math.min(options.headersTimeout, options.requestTimeout);
}
