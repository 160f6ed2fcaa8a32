// What tests that play a raw, hand-written peer (no IpcChannel on that side) send.
import { encodeFrame, IpcFrameType, jsonCodec, PROTOCOL_VERSION } from '../../src/ipc/index.js';

/** A raw peer's Hello: JSON, this protocol version, what a default channel says, and `overrides`. */
export function helloFrame(overrides: Record<string, unknown> = {}): Uint8Array {
  const hello = { version: PROTOCOL_VERSION, maxFrame: 1 << 20, codec: 'json', maxConcurrent: 1024, ...overrides };
  return encodeFrame(IpcFrameType.HELLO, 0, jsonCodec.encode(hello));
}

/** A REQUEST frame of `method` with `params`, as JSON. */
export const requestFrame = (id: number, method: string, params: unknown = null) =>
  encodeFrame(IpcFrameType.REQUEST, id, jsonCodec.encode([method, params]));
