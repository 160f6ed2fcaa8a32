/** What the channel needs from a byte pipe; the adapters in transports/ provide it. */
export interface Receiver {
  data(chunk: Uint8Array): void;
  /** The pipe ended (cleanly when `error` is undefined). */
  end(error?: Error): void;
}

/** Bytes both ways between the two ends of a channel (a socket, stdio, a MessagePort). */
export interface IpcTransport {
  send(bytes: Uint8Array): void;
  /** Starts delivering to `receiver` (called once). */
  start(receiver: Receiver): void;
  close(): void;
}
