/** What the channel needs from a pipe; the adapters in transports/ provide it. */
export interface Receiver {
  data(chunk: Uint8Array): void;
  /** A message that is not bytes, from a transport that carries values (`IpcTransport.sendValue`). */
  value?(message: unknown): void;
  /** The pipe ended (cleanly when `error` is undefined). */
  end(error?: Error): void;
}

/** Bytes both ways between the two ends of a channel (a socket, stdio, a MessagePort). */
export interface IpcTransport {
  send(bytes: Uint8Array): void;
  /**
   * Present on transports that carry structured-clonable values natively (a MessagePort): one
   * value per message, cloned by the runtime. Channels on them default to the structured-clone codec.
   */
  sendValue?(value: unknown): void;
  /** Starts delivering to `receiver` (called once). */
  start(receiver: Receiver): void;
  close(): void;
}
