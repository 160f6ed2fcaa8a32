import { expectBytes } from '../errors.js';
import type { HeaderList } from '../fields.js';
import { latin1Range } from '../latin1.js';
import { Hpack } from '../wasm/abi.js';
import { DEFAULT_TABLE_SIZE, WasmCodec, type HpackField } from './codec.js';

/** Decoded octets a header list may have by default (name + value + 32 per field): Node's limit. */
const DEFAULT_MAX_HEADER_LIST_SIZE = 65_535;
/** Fields a header list may have by default. */
const DEFAULT_MAX_FIELDS = 128;
import { HpackError } from './errors.js';
import { STATIC_TABLE } from './static-table.js';

/** Limits of an HpackDecoder (RFC 7541 §4.2 table size, RFC 9113 §6.5.2 list size). */
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
 * block. Indexed fields cost no string work: static ones come from the static table, dynamic ones
 * from the strings kept for each live table entry (made once, when the entry was added). After an
 * error the decoder is unusable (COMPRESSION_ERROR ends the connection).
 */
export class HpackDecoder extends WasmCodec {
  /** Strings of the live dynamic entries, by the entry id wasm gives them. */
  private readonly entries = new Map<number, readonly [string, string]>();
  /** Ids below this were evicted and removed from `entries`. */
  private oldestId = 0;

  constructor(options: HpackDecoderOptions = {}) {
    const table = limit('maxTableSize', options.maxTableSize, DEFAULT_TABLE_SIZE);
    const list = limit('maxHeaderListSize', options.maxHeaderListSize, DEFAULT_MAX_HEADER_LIST_SIZE);
    const fields = limit('maxFields', options.maxFields, DEFAULT_MAX_FIELDS);
    super((core) => core.call((e) => e.hpack_decoder_new(table, list, fields)));
  }

  /** Decodes one complete header block (HEADERS + CONTINUATION payloads joined). */
  decode(block: Uint8Array): HeaderList {
    const count = this.run(block);
    const list: HeaderList = new Array(count);
    this.read(count, (i, name, value) => {
      list[i] = [name, value];
    });
    return list;
  }

  /** Like `decode`, keeping each field's never-indexed mark. */
  decodeFields(block: Uint8Array): HpackField[] {
    const count = this.run(block);
    const fields = new Array<HpackField>(count);
    this.read(count, (i, name, value, neverIndex) => {
      fields[i] = { name, value, neverIndex };
    });
    return fields;
  }

  private run(block: Uint8Array): number {
    expectBytes(block, 'decode(block)');
    const handle = this.live();
    const core = this.core;
    core.load(block);
    const rc = this.checked(core.call((e) => e.hpack_decode(handle, block.length)));
    if (rc < 0) this.fail(HpackError.fromWasm(rc));
    return rc;
  }

  /** Walks the records of the last decode; literal strings are slices of one arena decode. */
  private read(count: number, emit: (i: number, name: string, value: string, neverIndex: boolean) => void): void {
    const { table, bytes, words } = this.core;
    const arena = table[Hpack.ARENA_PTR];
    const arenaEnd = arena + table[Hpack.ARENA_LEN];
    const oldest = table[Hpack.OLDEST_ID];
    let text: string | undefined;
    for (let i = 0, w = table[Hpack.FIELDS_PTR] >>> 2; i < count; i++, w += Hpack.FIELD_WORDS) {
      const flags = words[w + 4];
      let name: string;
      let value: string;
      if (flags & Hpack.FIELD_STATIC) {
        [name, value] = STATIC_TABLE[words[w]];
      } else if (flags & Hpack.FIELD_DYNAMIC) {
        [name, value] = this.entries.get(words[w])!;
      } else {
        text ??= latin1Range(bytes, arena, arenaEnd);
        name = text.slice(words[w], words[w] + words[w + 1]);
        value = text.slice(words[w + 2], words[w + 2] + words[w + 3]);
        if (flags & Hpack.FIELD_INSERTED) this.entries.set(words[w + 5], [name, value]);
      }
      emit(i, name, value, (flags & Hpack.FIELD_NEVER_INDEXED) !== 0);
    }
    // Forget evicted entries (after reading: a block may use an entry it then evicts). Ids are u32
    // and wrap, so the walk does too.
    while (this.oldestId !== oldest) {
      this.entries.delete(this.oldestId);
      this.oldestId = (this.oldestId + 1) >>> 0;
    }
  }
}
