// Message codecs: how a channel turns values into bytes. JSON is built in; MessagePack (through
// msgpackr, no home-made MessagePack) lives in `msgpack.ts`, the `wirespeed/ipc/msgpack` entry, so
// only its users install msgpackr.
import { IpcError } from './errors.js';

/** The codecs a channel can agree on, by the name the handshake compares. */
export type CodecName = 'json' | 'msgpack' | 'msgpackr' | 'structured-clone';

/** How a channel turns values into payloads (bytes, for every codec but structured clone) and back. */
export interface Codec<Payload = Uint8Array> {
  readonly name: CodecName;
  encode(value: unknown): Payload;
  decode(payload: Payload): unknown;
  /**
   * The same codec with text payloads, for a codec whose bytes are UTF-8 text (JSON): a channel
   * then writes the text into its frames as UTF-8 in place and reads it straight from the bytes
   * received, with no byte array in between (outbox.ts has the numbers).
   */
  readonly text?: Codec<string>;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Runs a decoder; whatever it throws becomes ERR_DECODE, naming the format. */
export function decoding<Payload = Uint8Array>(format: string, decode: (payload: Payload) => unknown): (payload: Payload) => unknown {
  return (payload) => {
    try {
      return decode(payload);
    } catch (error) {
      throw new IpcError('ERR_DECODE', `bad ${format} payload: ${(error as Error).message}`);
    }
  };
}

const parse = decoding('JSON', (text: string) => JSON.parse(text));

function stringify(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** JSON as UTF-8: the default, with no dependency, readable by any peer. */
export const jsonCodec: Codec = {
  name: 'json',
  encode: (value) => utf8Encoder.encode(stringify(value)),
  decode: (bytes) => parse(utf8Decoder.decode(bytes)),
  text: { name: 'json', encode: stringify, decode: parse },
};

/**
 * No encoding: the transport clones each value (the structured clone algorithm, in the runtime's
 * C++), as birpc and comlink do. Only on transports that carry values (`portTransport`), where it
 * is the default: a round trip over a MessageChannel takes 13.1 µs with JSON bytes, 7.9 µs with it
 * (the raw port carrying the same message: 6.7 µs; birpc 10.7 µs).
 * Frames are values too, so `maxFrame` does not bound them: a port's two ends share a process.
 */
export const structuredCloneCodec: Codec<unknown> = {
  name: 'structured-clone',
  encode: (value) => value,
  decode: (payload) => payload,
};
