// The little a connection needs from a runtime's socket. An adapter implements it and forwards the
// socket's events to the connection's `onData`/`onEnd`/`onDrain`/`onClose`.

export interface Transport {
  /**
   * Queues bytes (a string is written as latin1, one byte per char). Returns false once the
   * queue is over the high-water mark: wait for `onDrain` before writing more.
   */
  write(data: Uint8Array | string): boolean;
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
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly encrypted: boolean;
  /** The protocol TLS ALPN chose ('h2', 'http/1.1'), or null (cleartext, or no ALPN). */
  readonly alpnProtocol: string | null;
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
