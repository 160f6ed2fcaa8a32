// What both halves of a channel (caller.ts, server.ts) share with it: the agreed codec, its
// failure, and a way to send a frame within the agreed limit.
import type { Codec } from './codec.js';
import type { IpcFrameType } from './frame.js';

/** Items a stream may have in flight and queued, by default. */
export const DEFAULT_STREAM_WINDOW = 16;
/** The largest credit window a stream may ask for. */
export const MAX_STREAM_WINDOW = 65_536;

/** A frame as the halves get it: its payload is bytes, or the value itself with the structured-clone codec. */
export interface ChannelFrame {
  type: IpcFrameType;
  id: number;
  payload: unknown;
}

/** What an IpcChannel's halves see of it. */
export interface ChannelLink {
  readonly codec: Codec<unknown>;
  /** Why the channel failed or closed (then nothing more is sent), or null. */
  failure(): Error | null;
  /** Sends a frame (throws when it is over the frame limit both sides agreed on). */
  send(type: IpcFrameType, id: number, payload: unknown): void;
}

/** An ERROR frame's payload: the message, and a code the caller maps (ERR_NO_HANDLER). */
export function errorPayload(codec: Codec<unknown>, error: unknown, code?: string): unknown {
  return codec.encode({ message: error instanceof Error ? error.message : String(error), code });
}

/** Lets a timer not keep the process alive (Node); a no-op elsewhere. */
export const unref = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?(): void }).unref?.();
