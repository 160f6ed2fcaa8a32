// Node's IPC channel between a parent and a child it forked: `child.send` / `process.send`, as
// `child_process.fork()` (and cluster, and vitest's forks pool) sets it up. Works on Deno through
// its node: modules.
import type { IpcTransport, Receiver } from '../transport.js';

/**
 * What this takes of a ChildProcess (the parent's side) or of `process` (the child's): Node's
 * `send`, and its `message` and `disconnect` events.
 */
export interface ProcessLike {
  /** Absent (undefined) on a process started without an IPC channel. */
  send?(message: unknown): boolean;
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
  const post = (data: unknown) => void target.send!([TAG, data]);
  let stop = () => {};
  const transport: IpcTransport = {
    send(bytes) {
      // The bytes are handed over now: Node serializes the message in send().
      post(advanced ? bytes : latin1Text(bytes));
    },
    allocate(size) {
      return Buffer.allocUnsafe(size);
    },
    start(receiver: Receiver) {
      const onMessage = (message: unknown) => {
        if (!Array.isArray(message) || message.length !== 2 || message[0] !== TAG) return;
        const data: unknown = message[1];
        if (typeof data === 'string') receiver.data(Buffer.from(data, 'latin1'));
        else if (data instanceof Uint8Array) receiver.data(data);
        else receiver.value?.(data);
      };
      const onDisconnect = () => receiver.end();
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
  if (advanced) transport.sendValue = (value) => post(value); // v8 serialization: no transfer list, values are cloned
  return transport;
}

/** `bytes` as a string of one char per byte. */
function latin1Text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
