import { IN_HEAP_BYTES, Slab } from '../bytes.js';
import { typeName } from '../errors.js';
import type { HeaderList } from '../fields.js';
import { Hpack } from '../wasm/abi.js';
import { DEFAULT_TABLE_SIZE, MAX_TABLE_SIZE, WasmCodec } from './codec.js';
import { EncoderIndex } from './encoder-index.js';
import { HpackError } from './errors.js';

/** How an HpackEncoder sizes its table and when it uses Huffman coding. */
export interface HpackEncoderOptions {
  /** The table size this encoder uses, at most the peer's SETTINGS_HEADER_TABLE_SIZE. Default 4096. */
  maxTableSize?: number;
  /** 'auto' (default): Huffman-code a string when that is shorter. */
  huffman?: 'auto' | 'always' | 'never';
}

const HUFFMAN_MODES = { auto: 0, always: 1, never: 2 } as const;
/** A field name HTTP/2 allows: a lowercase token, or a pseudo-header (RFC 9113 §8.2.1, §8.3). */
const FIELD_NAME = /^:?[!#$%&'*+\-.^_`|~0-9a-z]+$/;
/** What a field value must not hold (RFC 9113 §8.2.1). */
const BAD_VALUE = /[\0\r\n]/;

function describeField(field: unknown): string {
  if (!Array.isArray(field)) return typeName(field);
  return `[${field.map((part: unknown) => (typeof part === 'string' ? JSON.stringify(part) : typeName(part))).join(', ')}]`;
}
const utf8 = new TextEncoder();
/**
 * Where blocks over IN_HEAP_BYTES are copied out of wasm memory: a response's first block (~120
 * bytes) spent 16% of its encode allocating a typed array of its own.
 */
const blocks = new Slab((length) => new Uint8Array(length), 16 * 1024);

/** Why wasm refused `field` (RFC 9113 §8.2.1), said as the caller wrote it: the error path only. */
function invalidField([name, value]: [string, string]): HpackError {
  if (!FIELD_NAME.test(name)) {
    return new HpackError(
      'ERR_HPACK_INVALID_FIELD',
      `invalid field name ${JSON.stringify(name)}: HTTP/2 names are lowercase tokens (RFC 9113 §8.2.1)`,
    );
  }
  const bad = BAD_VALUE.exec(value);
  // Wasm's check and these expressions agree; if they ever did not, the error must still be coded.
  if (!bad) return new HpackError('ERR_HPACK_INVALID_FIELD', `invalid field ${JSON.stringify(name)} (RFC 9113 §8.2.1)`);
  const byte = `0x${bad[0].charCodeAt(0).toString(16).padStart(2, '0')}`;
  return new HpackError(
    'ERR_HPACK_INVALID_FIELD',
    `invalid byte ${byte} in the value of ${JSON.stringify(name)} at offset ${bad.index} (RFC 9113 §8.2.1)`,
  );
}

/**
 * HPACK encoder: one per connection direction. Full matches are indexed, name matches reuse the
 * name's index, new fields are added to the table; `authorization`, `proxy-authorization`, short
 * `cookie` values and the names in `neverIndex` are sent never-indexed.
 */
export class HpackEncoder extends WasmCodec {
  /** The table's full matches on this side: a block of only those is written without wasm. */
  private readonly index = new EncoderIndex();

  constructor(options: HpackEncoderOptions = {}) {
    const size = options.maxTableSize ?? DEFAULT_TABLE_SIZE;
    if (!Number.isInteger(size) || size < 0 || size > MAX_TABLE_SIZE) throw new RangeError(`invalid maxTableSize ${size}`);
    const mode = HUFFMAN_MODES[options.huffman ?? 'auto'];
    if (mode === undefined) throw new RangeError(`huffman must be auto, always or never`);
    super((core) => core.call((e) => e.hpack_encoder_new(size, mode)));
  }

  /**
   * One header block for `headers` (names should be lowercase for HTTP/2). Like a small Node
   * Buffer, a block over 64 bytes is a view of a shared buffer: use its bytes, not its `.buffer`.
   */
  encode(headers: HeaderList, options?: { neverIndex?: readonly string[] }): Uint8Array {
    const handle = this.live();
    if (headers.length > Hpack.MAX_ENCODE_FIELDS) {
      throw new HpackError('ERR_HPACK_INVALID_FIELD', `at most ${Hpack.MAX_ENCODE_FIELDS} fields per block`);
    }
    const neverIndex = options?.neverIndex;
    if (!neverIndex?.length) {
      const block = this.index.encode(headers);
      if (block) return block;
    }
    const core = this.core;
    // Every name and value, back to back, written with one native call: for ASCII text UTF-8 is
    // latin1. Non-ASCII text takes the exact path below. The names and values are checked in wasm
    // (RFC 9113 §8.2.1) before any is encoded: nothing is (and the table is not touched) when one
    // cannot be. Two regular expressions per field here were 39% of a warm block's encode.
    let all = '';
    for (let i = 0; i < headers.length; i++) {
      const field = headers[i];
      if (!Array.isArray(field) || typeof field[0] !== 'string' || typeof field[1] !== 'string') {
        throw new HpackError('ERR_HPACK_INVALID_FIELD', `field ${i} must be a [name, value] pair of strings, got ${describeField(field)}`);
      }
      all += field[0] + field[1];
    }
    if (all.length > core.input.length) core.reserve(all.length);
    const { written } = utf8.encodeInto(all, core.writableInput());
    if (written !== all.length) this.writeLatin1(all);
    // The descriptors go into the table: take it back from any head still reading it first.
    core.reclaimTable();
    const table = core.table;
    for (let i = 0, w = 0; i < headers.length; i++, w += 3) {
      const [name, value] = headers[i];
      table[w] = name.length;
      table[w + 1] = value.length;
      table[w + 2] = neverIndex?.includes(name) ? Hpack.FIELD_SENSITIVE : 0;
    }
    const rc = core.call((e) => e.hpack_encode(handle, headers.length));
    if (rc === Hpack.INVALID_FIELD) throw invalidField(headers[core.table[Hpack.BAD_FIELD]]);
    const length = this.checked(rc);
    // Views made before the call are stale if the memory grew during it.
    const { table: after, words } = core;
    const at = after[Hpack.OUTPUT_PTR];
    this.index.follow(
      headers,
      words,
      after[Hpack.FIELDS_PTR] >>> 2,
      after[Hpack.INSERTED_COUNT],
      after[Hpack.OLDEST_ID],
      after[Hpack.NEXT_ID],
    );
    return length > IN_HEAP_BYTES ? blocks.copy(core.bytes, at, at + length) : core.bytes.slice(at, at + length);
  }

  override setTableLimit(limit: number): void {
    super.setTableLimit(limit);
    // Wasm now owes a size update at the start of the next block, and may have evicted entries.
    this.index.ready = false;
  }

  private writeLatin1(text: string): void {
    const input = this.core.writableInput();
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0xff) throw new HpackError('ERR_HPACK_INVALID_FIELD', `character U+${code.toString(16)} is not a header octet`);
      input[i] = code;
    }
  }
}
