// What both halves of a channel (caller.ts, server.ts) share with it: the agreed codec, its
// failure, and a way to send a frame within the agreed limit.
import type { Codec } from './codec.js';
import type { IpcFrameType } from './frame.js';

/** Items a stream may have in flight and queued, by default. */
export const DEFAULT_STREAM_WINDOW = 16;
/** The largest credit window a stream may ask for. */
export const MAX_STREAM_WINDOW = 65_536;

/** What an IpcChannel's halves see of it. */
export interface ChannelLink {
  readonly codec: Codec;
  /** Why the channel failed or closed (then nothing more is sent), or null. */
  failure(): Error | null;
  /** Sends a frame (throws when it is over the frame limit both sides agreed on). */
  send(type: IpcFrameType, id: number, payload: Uint8Array): void;
}

/** An ERROR frame's payload: the message, and a code the caller maps (ERR_NO_HANDLER). */
export function errorPayload(codec: Codec, error: unknown, code?: string): Uint8Array {
  return codec.encode({ message: error instanceof Error ? error.message : String(error), code });
}

/** Lets a timer not keep the process alive (Node); a no-op elsewhere. */
export const unref = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?(): void }).unref?.();
