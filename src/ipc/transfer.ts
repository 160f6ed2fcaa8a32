// Moving buffers instead of copying them, on channels whose frames are values (a MessagePort with
// the structured-clone codec): `transfer(value, [buffer])` marks a value, and the frame that carries
// it is posted with that transfer list, so the runtime moves the buffer to the other side (and
// detaches it here) instead of cloning it. The same mark works for params, results, stream items
// and events, as comlink's `transfer` does. On byte channels the mark is ignored: the codec writes
// the bytes into the frame either way.
import { IpcFrameType } from './frame.js';

/**
 * What a MessagePort can move: ArrayBuffers, MessagePorts, streams and the runtime's other
 * transferables (typed as objects: Node's types have no global `Transferable`).
 */
export type TransferList = readonly object[];

/** Values marked by `transfer`, until a frame carries them (weak: a mark never sent keeps nothing alive). */
const marked = new WeakMap<object, TransferList>();
/** Whether any value was ever marked: channels that never transfer look nothing up. */
let marking = false;

/**
 * Marks `value` so that the frame carrying it moves `list` instead of cloning it:
 * `channel.request('resize', transfer({ pixels }, [pixels.buffer]))`, `return transfer(image,
 * [image.data.buffer])` in a handler, `yield transfer(chunk, [chunk.buffer])` in a stream. The
 * buffers are detached here once sent. Returns `value`. A mark is used once.
 */
export function transfer<T extends object>(value: T, list: TransferList): T {
  if (typeof value !== 'object' || value === null) throw new TypeError('transfer() marks an object (or array), not a primitive');
  if (!Array.isArray(list)) throw new TypeError('transfer() takes an array of transferables');
  marked.set(value, list);
  marking = true;
  return value;
}

/**
 * The transfer list of a value frame `[type, id, payload]`, taken off the value it was marked on.
 * The user's value is the payload itself (RESPONSE, DATA) or its second element (REQUEST and
 * STREAM: `[method, params, ...]`; EVENT: `[event, data]`).
 */
export function takeTransferList(type: IpcFrameType, payload: unknown): TransferList | undefined {
  if (!marking) return undefined;
  const value = type === IpcFrameType.RESPONSE || type === IpcFrameType.DATA ? payload : (payload as unknown[] | null)?.[1];
  if (typeof value !== 'object' || value === null) return undefined;
  const list = marked.get(value);
  if (list) marked.delete(value);
  return list;
}
