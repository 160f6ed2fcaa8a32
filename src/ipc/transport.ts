import type { TransferList } from './transfer.js';

/** What the channel needs from a pipe; the adapters in transports/ provide it. */
export interface Receiver {
  data(chunk: Uint8Array): void;
  /** A message that is not bytes, from a transport that carries values (`IpcTransport.sendValue`). */
  value?(message: unknown): void;
  /** The pipe ended (cleanly when `error` is undefined). */
  end(error?: Error): void;
  /** The pipe took the bytes that waited for it (`IpcTransport.backlogged` went false). */
  drained?(): void;
}

/** Bytes both ways between the two ends of a channel (a socket, stdio, a MessagePort). */
export interface IpcTransport {
  /** Sends `bytes`, which it may hold until written: the channel never changes bytes it sent. */
  send(bytes: Uint8Array): void;
  /**
   * Present on transports that carry structured-clonable values natively (a MessagePort): one
   * value per message, cloned by the runtime, but for what `transfer` lists, which is moved.
   * Channels on them default to the structured-clone codec.
   */
  sendValue?(value: unknown, transfer?: TransferList): void;
  /**
   * A buffer for the channel to fill, from the transport's cheapest memory (Node streams:
   * Buffer.allocUnsafe, which their write takes without a conversion, and which takes a small
   * size from Node's pool: 1 KB in ~240 ns, where `new Uint8Array(1024)` is ~800 ns here). The
   * channel writes frames into it and sends views of it, never writing a byte again once sent; it
   * also copies received bytes values into it. Absent: `new Uint8Array`.
   */
  allocate?(size: number): Uint8Array;
  /**
   * Whether bytes sent wait in this process for the pipe to take them, past the transport's mark
   * (Node streams: `writableNeedDrain`); `Receiver.drained` says when that is over. Streams wait
   * on it, so a reader that grants credit but takes nothing cannot fill this process's memory.
   * Absent: no backpressure to see (a MessagePort queues in the runtime).
   */
  backlogged?(): boolean;
  /** Starts delivering to `receiver` (called once). Chunks given to `data` may be reused after it returns. */
  start(receiver: Receiver): void;
  close(): void;
}

/** The transport's `allocate`, or `new Uint8Array` for a transport without one. */
export function allocator(transport: IpcTransport): (size: number) => Uint8Array {
  return transport.allocate ? (size) => transport.allocate!(size) : (size) => new Uint8Array(size);
}
