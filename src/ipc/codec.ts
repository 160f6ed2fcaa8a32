// Message codecs: how a channel turns values into bytes. JSON is built in; MessagePack (through
// msgpackr, no home-made MessagePack) lives in `msgpack.ts`, the `wirespeed/ipc/msgpack` entry, so
// only its users install msgpackr.
import { IpcError } from './errors.js';

/** The codecs a channel can agree on, by the name the handshake compares. */
export type CodecName = 'json' | 'msgpack' | 'msgpackr';

/** How a channel turns values into bytes and back. */
export interface Codec {
  readonly name: CodecName;
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Runs a decoder; whatever it throws becomes ERR_DECODE, naming the format. */
export function decoding(format: string, decode: (bytes: Uint8Array) => unknown): (bytes: Uint8Array) => unknown {
  return (bytes) => {
    try {
      return decode(bytes);
    } catch (error) {
      throw new IpcError('ERR_DECODE', `bad ${format} payload: ${(error as Error).message}`);
    }
  };
}

/** JSON as UTF-8: the default, with no dependency, readable by any peer. */
export const jsonCodec: Codec = {
  name: 'json',
  encode: (value) => utf8Encoder.encode(JSON.stringify(value) ?? 'null'),
  decode: decoding('JSON', (bytes) => JSON.parse(utf8Decoder.decode(bytes))),
};
