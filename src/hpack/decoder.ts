import type { HeaderList } from '../http1/head.js';
import { WasmCodec, type HpackField } from './codec.js';
import { HpackError } from './errors.js';

export interface HpackDecoderOptions {
  /** Our SETTINGS_HEADER_TABLE_SIZE: the largest table the peer may use. Default 4096. */
  maxTableSize?: number;
  /** SETTINGS_MAX_HEADER_LIST_SIZE: decoded octets, name + value + 32 per field. Default 65535 (Node). */
  maxHeaderListSize?: number;
  /** Most fields in one block. Default 128 (Node's maxHeaderListPairs). */
  maxFields?: number;
}

function limit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) throw new RangeError(`${name} must be a u32, got ${value}`);
  return value;
}

/**
 * HPACK decoder: one per connection direction (it holds the dynamic table). One wasm call per
 * block; names and values are slices of one decoded string. After an error the decoder is
 * unusable (COMPRESSION_ERROR ends the connection).
 */
export class HpackDecoder extends WasmCodec {
  constructor(options: HpackDecoderOptions = {}) {
    const table = limit('maxTableSize', options.maxTableSize, 4096);
    const list = limit('maxHeaderListSize', options.maxHeaderListSize, 65535);
    const fields = limit('maxFields', options.maxFields, 128);
    super((core) => core.call((e) => e.hpack_decoder_new(table, list, fields)));
  }

  /** Decodes one complete header block (HEADERS + CONTINUATION payloads joined). */
  decode(block: Uint8Array): HeaderList {
    return this.decodeFields(block).map((f) => [f.name, f.value]);
  }

  /** Like `decode`, keeping each field's never-indexed mark. */
  decodeFields(block: Uint8Array): HpackField[] {
    const handle = this.live();
    const core = this.core;
    core.load(block);
    const rc = this.checked(core.call((e) => e.hpack_decode(handle, block.length)));
    if (rc < 0) this.fail(HpackError.fromWasm(rc));
    return this.readFields(rc);
  }
}
