// A CREDIT frame's payload: what a stream's reader took since its last one, given back to the
// sender. In bytes it is 8 of them, u32 BE items then u32 BE bytes. With cloned values it is the
// pair itself: a runtime clones a Uint8Array by copying its ArrayBuffer, and sending the pair took
// 7-9% off a stream of small values over a MessageChannel.
import { IpcError } from './errors.js';
import type { StreamWindow } from './link.js';

/** A CREDIT frame's payload in bytes. */
const CREDIT_BYTES = 8;
const MAX_U32 = 0xffff_ffff;

/** The payload of a CREDIT frame giving back `items` and `bytes`: a value when frames are values. */
export function creditPayload(cloned: boolean, items: number, bytes: number): Uint8Array | [number, number] {
  if (cloned) return [items, bytes];
  const payload = new Uint8Array(CREDIT_BYTES);
  const view = new DataView(payload.buffer);
  view.setUint32(0, items);
  view.setUint32(4, bytes);
  return payload;
}

/** What a CREDIT frame gives back; anything but the two forms above is a corrupt frame. */
export function readCredit(payload: unknown): StreamWindow {
  if (payload instanceof Uint8Array && payload.length === CREDIT_BYTES) {
    const view = new DataView(payload.buffer, payload.byteOffset, CREDIT_BYTES);
    return { items: view.getUint32(0), bytes: view.getUint32(4) };
  }
  if (Array.isArray(payload) && payload.length === 2 && payload.every(isU32)) return { items: payload[0], bytes: payload[1] };
  const what = payload instanceof Uint8Array ? `${payload.length} bytes` : typeof payload;
  throw new IpcError('ERR_CORRUPT_FRAME', `a CREDIT frame carries ${CREDIT_BYTES} bytes (or, cloned, two counts), not ${what}`);
}

function isU32(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_U32;
}
