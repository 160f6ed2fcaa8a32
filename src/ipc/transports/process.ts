// Node's IPC channel between a parent and a child it forked: `child.send` / `process.send`, as
// `child_process.fork()` (and cluster, and vitest's forks pool) sets it up. Works on Deno through
// its node: modules.
import { latin1 } from '../../latin1.js';
import type { IpcTransport, Receiver } from '../transport.js';

/**
 * What this takes of a ChildProcess (the parent's side) or of `process` (the child's): Node's
 * `send`, and its `message` and `disconnect` events.
 */
export interface ProcessLike {
  /** Absent (undefined) on a process started without an IPC channel. Calls back once written. */
  send?(message: unknown, callback: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'disconnect', listener: () => void): unknown;
  connected?: boolean;
}

/** How Node serializes the channel's messages: fork()'s `serialization` option. */
export type Serialization = 'json' | 'advanced';

/**
 * The channel's messages are `[TAG, data]`: others on the same process channel (the app's own
 * `process.send`, a process manager's) are left to their listeners, not taken for frames.
 */
const TAG = 'wirespeed/ipc';
/**
 * Bytes sent and not yet written past which the transport is backlogged (streams wait for it to
 * drain): a reader that grants credit and reads nothing then holds a stream to the pipe's
 * buffers, as on a socket, not to its window (up to 1 GiB) in the sender's memory.
 */
const BACKLOG_BYTES = 256 * 1024;
/** What a cloned value counts for in the backlog (its size is the serializer's to know). */
const VALUE_BYTES = 1024;

/**
 * An IpcTransport over Node's process IPC channel. Node serializes its messages as fork() was told
 * (`serialization`, 'json' by default), and neither side can read which (Node takes the setting out
 * of the child's environment), so say `{ serialization: 'advanced' }` on both sides to have values
 * cloned (the structured-clone codec, the default then, as on a MessagePort); a side that says it
 * and one that does not fail the handshake (their codecs differ). Otherwise frames go as strings,
 * one char a byte (latin1), which either serialization carries, and channels speak JSON (whose
 * text JSON keeps as it is; frame headers and bytes items it escapes). Closing the channel stops
 * listening and leaves the process channel open (it may carry other messages; `disconnect()` is
 * the caller's). When the process channel disconnects (the child exited or disconnected) the
 * channel fails with ERR_CLOSED.
 */
export function processTransport(target: ProcessLike, options: { serialization?: Serialization } = {}): IpcTransport {
  if (typeof target.send !== 'function')
    throw new TypeError('processTransport needs a process with an IPC channel (a forked child, or fork()’s ChildProcess)');
  const serialization = options.serialization ?? 'json';
  if (serialization !== 'json' && serialization !== 'advanced')
    throw new TypeError(`serialization is 'json' or 'advanced', not ${String(serialization)}`);
  const advanced = serialization === 'advanced';
  // What was sent and is not written to the channel's pipe yet: Node queues it in this process
  // (the pipe is full while the other side does not read), and calls back once it is written.
  let pending = 0;
  let receiver: Receiver | null = null;
  let waited = false;
  const backlogged = () => {
    if (pending <= BACKLOG_BYTES) return false;
    waited = true; // someone holds back: tell the receiver when it may go on
    return true;
  };
  const post = (data: unknown, size: number) => {
    pending += size;
    target.send!([TAG, data], () => {
      pending -= size;
      if (waited && !backlogged()) {
        waited = false;
        receiver?.drained?.();
      }
    });
  };
  let stop = () => {};
  const transport: IpcTransport = {
    send(bytes) {
      // The bytes are handed over now: Node serializes the message in send().
      post(advanced ? bytes : latin1(bytes), bytes.length);
    },
    backlogged,
    allocate(size) {
      return Buffer.allocUnsafe(size);
    },
    start(to: Receiver) {
      receiver = to;
      const onMessage = (message: unknown) => {
        if (!Array.isArray(message) || message.length !== 2 || message[0] !== TAG) return;
        const data: unknown = message[1];
        if (typeof data === 'string') to.data(Buffer.from(data, 'latin1'));
        else if (data instanceof Uint8Array) to.data(data);
        else to.value?.(data);
      };
      const onDisconnect = () => to.end();
      target.on('message', onMessage);
      target.on('disconnect', onDisconnect);
      stop = () => {
        target.off('message', onMessage);
        target.off('disconnect', onDisconnect);
      };
      if (target.connected === false) queueMicrotask(onDisconnect);
    },
    close() {
      stop();
    },
  };
  // v8 serialization: no transfer list, values are cloned; a value counts as a small message.
  if (advanced) transport.sendValue = (value) => post(value, VALUE_BYTES);
  return transport;
}
