// Message codecs: JSON, and MessagePack through msgpackr (no home-made MessagePack).
import { Packr } from 'msgpackr';
import { IpcError } from './errors.js';

export interface Codec {
  readonly name: 'json' | 'msgpack';
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

export const jsonCodec: Codec = {
  name: 'json',
  encode: (value) => utf8Encoder.encode(JSON.stringify(value) ?? 'null'),
  decode(bytes) {
    try {
      return JSON.parse(utf8Decoder.decode(bytes));
    } catch (error) {
      throw new IpcError('ERR_DECODE', `bad JSON payload: ${(error as Error).message}`);
    }
  },
};

// Plain MessagePack (no msgpackr "records" extension), so any MessagePack peer can read it.
const packr = new Packr({ useRecords: false, moreTypes: false });

export const msgpackCodec: Codec = {
  name: 'msgpack',
  encode: (value) => packr.pack(value),
  decode(bytes) {
    try {
      return packr.unpack(bytes);
    } catch (error) {
      throw new IpcError('ERR_DECODE', `bad MessagePack payload: ${(error as Error).message}`);
    }
  },
};

export const CODECS = { json: jsonCodec, msgpack: msgpackCodec } as const;
