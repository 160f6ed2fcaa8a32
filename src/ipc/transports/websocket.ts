// A WebSocket as the WHATWG standard gives it: a browser's, Deno's, Node 22's, the `ws` package's,
// or the server side wirespeed's upgradeWebSocket (and Deno.upgradeWebSocket) hands a handler. A
// turn's frames go as one binary message; the decoder takes any number of frames per message.
import { IpcError } from '../errors.js';
import { unref } from '../link.js';
import type { IpcTransport, Receiver } from '../transport.js';

/** What this takes of a WebSocket. */
export interface WebSocketLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  // The event as `object`: the `ws` package's events are not DOM Events; a message event has `data`.
  addEventListener(type: 'open' | 'message' | 'close', listener: (event: object) => void): void;
}

/** WebSocket.CONNECTING and OPEN (not every runtime has the class where this runs). */
const CONNECTING = 0;
const OPEN = 1;
/**
 * Bytes the socket holds unsent past which the transport is backlogged (streams wait): a reader
 * that grants credit and reads nothing holds a stream to the connection's buffers, as on a
 * socket. A WebSocket says nothing when its buffer empties, so a waiting transport looks again
 * every BACKLOG_POLL_MS.
 */
const BACKLOG_BYTES = 256 * 1024;
const BACKLOG_POLL_MS = 10;

/**
 * An IpcTransport over an open or opening WebSocket: frames as binary messages, sent once it
 * opens. A text message from the other side is not a frame and fails the channel; the socket
 * closing ends it. Closing the channel closes the socket (1000).
 */
export function webSocketTransport(socket: WebSocketLike): IpcTransport {
  let waiting: Uint8Array[] | null = socket.readyState === CONNECTING ? [] : null;
  let receiver: Receiver | null = null;
  let poll: ReturnType<typeof setTimeout> | null = null;
  const backlogged = () => socket.bufferedAmount > BACKLOG_BYTES;
  const watchDrain = () => {
    poll = setTimeout(() => {
      poll = null;
      if (backlogged()) watchDrain();
      else receiver?.drained?.();
    }, BACKLOG_POLL_MS);
    unref(poll);
  };
  return {
    send(bytes) {
      if (waiting) waiting.push(bytes);
      else if (socket.readyState === OPEN) socket.send(bytes);
      // Closing or closed: the channel fails on the close event.
    },
    backlogged() {
      const full = backlogged();
      if (full && !poll) watchDrain();
      return full;
    },
    start(to) {
      receiver = to;
      socket.binaryType = 'arraybuffer';
      socket.addEventListener('open', () => {
        const queued = waiting ?? [];
        waiting = null;
        for (const bytes of queued) socket.send(bytes);
      });
      socket.addEventListener('message', (event) => {
        const data = (event as { data?: unknown }).data;
        if (data instanceof ArrayBuffer) to.data(new Uint8Array(data));
        else if (ArrayBuffer.isView(data)) to.data(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        else {
          to.end(new IpcError('ERR_CORRUPT_FRAME', 'the other side sent a text message, not frames'));
          socket.close(1000);
        }
      });
      socket.addEventListener('close', () => {
        if (poll) clearTimeout(poll);
        to.end();
      });
    },
    close() {
      socket.close(1000);
    },
  };
}
