// A result or stream item that is bytes or a string goes in a frame of its own type, as it is, not
// through the codec: JSON cannot carry bytes at all (a Uint8Array would arrive as {"0": 1, ...}), and
// a string skips the codec's quoting and escaping (Node 20's JSON.stringify checks every char of a
// 1 KB string: 1.2-3.6 µs, where its UTF-8 is written in place in ~0.1 µs). Only on byte pipes: on
// ports values are cloned as they are already.
import type { Codec } from './codec.js';
import { IpcFrameType } from './frame.js';

/** The frames whose payload is a user's value itself (params and event data are inside arrays). */
export type ValueFrameType = typeof IpcFrameType.RESPONSE | typeof IpcFrameType.DATA;

/** The plain frame types, by type number: how each one's payload is read. */
export const PLAIN_FRAMES: ReadonlyMap<number, 'bytes' | 'text'> = new Map([
  [IpcFrameType.RESPONSE_BYTES, 'bytes'],
  [IpcFrameType.RESPONSE_TEXT, 'text'],
  [IpcFrameType.DATA_BYTES, 'bytes'],
  [IpcFrameType.DATA_TEXT, 'text'],
]);

/** The frame type that carries `value` as it is in place of `type`, or undefined when the codec encodes it. */
export function plainType(type: ValueFrameType, value: unknown): IpcFrameType | undefined {
  if (value instanceof Uint8Array) return type === IpcFrameType.RESPONSE ? IpcFrameType.RESPONSE_BYTES : IpcFrameType.DATA_BYTES;
  if (typeof value === 'string' && isWellFormed(value))
    return type === IpcFrameType.RESPONSE ? IpcFrameType.RESPONSE_TEXT : IpcFrameType.DATA_TEXT;
  return undefined;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether `text` has no lone surrogate, which UTF-8 cannot carry (it would arrive as U+FFFD); a
 * string with one goes through the codec (JSON.stringify escapes it).
 */
const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (text) => (text as string & { isWellFormed(): boolean }).isWellFormed()
    : (text) => !LONE_SURROGATE.test(text);

/**
 * Throws when `value` (a request's params, an event's data) is bytes and the codec is JSON, which
 * would make an object of them (`{"0": 1, ...}`) without a word. Params and event data go through
 * the codec, inside its arrays; msgpackCodec carries bytes there. (Nested in an object, bytes are
 * JSON's to convert, as `JSON.stringify` does.)
 */
export function checkCarried(codec: Codec<unknown>, value: unknown, what: string): void {
  if (codec.name === 'json' && (ArrayBuffer.isView(value) || value instanceof ArrayBuffer))
    throw new TypeError(`${what} is bytes, which the JSON codec cannot carry: use msgpackCodec, or send them as a result or stream item`);
}
