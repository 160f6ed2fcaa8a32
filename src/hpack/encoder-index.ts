// The encoder's full matches, seen from JavaScript: which fields a block can send as one index
// (RFC 7541 §6.1) without crossing into wasm. Wasm owns the dynamic table and decides everything
// else; after each of its blocks it reports the fields it added and the oldest live entry id, and
// this mirror follows. A block whose every field is a full match (a connection's repeated
// requests or responses) is then written here: 16 indexed fields cost 2.3 µs through wasm, most of
// it the crossing (joining and writing the strings, the descriptors, copying the block out).
import type { HeaderList } from '../fields.js';
import { STATIC_TABLE } from './static-table.js';

const STATIC_LEN = STATIC_TABLE.length - 1;
/** An indexed field's first octet (§6.1): the high bit, then a 7-bit prefix. */
const INDEXED = 0x80;
const PREFIX_MAX = 0x7f;
/** Entries kept before the consumed front of the queue is cut off. */
const COMPACT_AFTER = 64;

/**
 * Names the encoder never sends indexed whatever they match (encoder.rs `sensitive`):
 * credentials, and cookies shorter than 20 bytes, which covers the static table's empty cookie.
 * A longer cookie can only be a dynamic entry, and those the encoder does index.
 */
const NEVER_INDEXED_STATIC = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** The static entries the encoder sends as an index, by name then value. */
const STATIC_INDEX = new Map<string, Map<string, number>>();
for (let index = 1; index <= STATIC_LEN; index++) {
  const [name, value] = STATIC_TABLE[index];
  if (NEVER_INDEXED_STATIC.has(name)) continue;
  let values = STATIC_INDEX.get(name);
  if (!values) STATIC_INDEX.set(name, (values = new Map()));
  // The first of equal entries wins, as in wasm's search (there are none today).
  if (!values.has(value)) values.set(value, index);
}

/** Octets of an index with a 7-bit prefix (§5.1). */
function indexLength(index: number): number {
  let length = 1;
  for (let rest = index - PREFIX_MAX; rest >= 0; rest = rest < 128 ? -1 : Math.floor(rest / 128)) length++;
  return length;
}

function writeIndex(block: Uint8Array, at: number, index: number): number {
  if (index < PREFIX_MAX) {
    block[at] = INDEXED | index;
    return at + 1;
  }
  block[at++] = INDEXED | PREFIX_MAX;
  let rest = index - PREFIX_MAX;
  while (rest >= 128) {
    block[at++] = (rest % 128) | 0x80;
    rest = Math.floor(rest / 128);
  }
  block[at] = rest;
  return at + 1;
}

/** Whether `id` is live in a table whose ids run from `oldest` to `next - 1` (ids wrap at 2^32). */
function isLive(id: number, oldest: number, next: number): boolean {
  return (id - oldest) >>> 0 < (next - oldest) >>> 0;
}

/** One encoder's full matches on the JS side, following the wasm table block by block. */
export class EncoderIndex {
  /**
   * False while wasm may owe the peer a table size update (§4.2: at the start of the next block,
   * which wasm must then write) and before this mirror has followed a block.
   */
  ready = false;
  /**
   * The live entries, oldest first from `head`, as name and value at 2k and 2k + 1 (one array:
   * a first block pays one push per entry); entry k has id `baseId + k` (ids are consecutive).
   */
  private entries: string[] = [];
  /** Per indexed entry, the id of the previous entry with the same name (ids wrap at 2^32; -1: none). */
  private previous: number[] = [];
  /** Entries before `head` were evicted. */
  private head = 0;
  private baseId = 0;
  private nextId = 0;
  /**
   * Entries before this one are in `newest`. The rest are indexed when a block is first tried
   * here: a connection that sends one block never pays for the map (50 fields: 6 µs).
   */
  private indexedTo = 0;
  /** The newest entry of each name; older ones follow `previous`. */
  private readonly newest = new Map<string, number>();
  private readonly indexes: number[] = [];

  /** The block for `headers` when every field is one the encoder would send as an index; else null. */
  encode(headers: HeaderList): Uint8Array | null {
    if (!this.ready) return null;
    if (this.indexedTo < this.count()) this.indexPending();
    const indexes = this.indexes;
    let length = 0;
    for (let i = 0; i < headers.length; i++) {
      const field = headers[i];
      if (!Array.isArray(field)) return null;
      const name = field[0];
      const value = field[1];
      let index = STATIC_INDEX.get(name)?.get(value);
      if (index === undefined) {
        const id = this.find(name, value);
        if (id < 0) return null;
        // The newest entry is index 62 (§2.3.3).
        index = STATIC_LEN + 1 + ((this.nextId - 1 - id) >>> 0);
      }
      indexes[i] = index;
      length += index < PREFIX_MAX ? 1 : indexLength(index);
    }
    const block = new Uint8Array(length);
    for (let i = 0, at = 0; i < headers.length; i++) at = writeIndex(block, at, indexes[i]);
    return block;
  }

  /**
   * Follows a block wasm encoded: `count` positions in `headers` (at `words[from..]`) were added,
   * in order, with ids up to `next - 1`; ids below `oldest` were evicted.
   */
  follow(headers: HeaderList, words: Uint32Array, from: number, count: number, oldest: number, next: number): void {
    if (this.head === this.count()) this.reset((next - count) >>> 0);
    const entries = this.entries;
    for (let k = 0; k < count; k++) {
      const field = headers[words[from + k]];
      entries.push(field[0], field[1]);
    }
    while (this.head < this.count() && !isLive((this.baseId + this.head) >>> 0, oldest, next)) {
      // The oldest entry of a name is its newest only when it is the last of that name.
      const name = entries[2 * this.head];
      if (this.head < this.indexedTo && this.newest.get(name) === (this.baseId + this.head) >>> 0) this.newest.delete(name);
      this.head++;
    }
    if (this.head > COMPACT_AFTER && this.head * 2 > this.count()) {
      this.entries = entries.slice(2 * this.head);
      this.previous = this.previous.slice(Math.min(this.head, this.indexedTo));
      this.indexedTo = Math.max(0, this.indexedTo - this.head);
      this.baseId = (this.baseId + this.head) >>> 0;
      this.head = 0;
    }
    this.nextId = next;
    this.ready = true;
  }

  /** The id of the live entry equal to (name, value), or -1. */
  private find(name: string, value: string): number {
    let id = this.newest.get(name);
    while (id !== undefined && id !== -1) {
      const k = (id - this.baseId) >>> 0;
      if (k < this.head || k >= this.indexedTo) return -1;
      if (this.entries[2 * k + 1] === value) return id;
      id = this.previous[k];
    }
    return -1;
  }

  private count(): number {
    return this.entries.length >> 1;
  }

  private indexPending(): void {
    const previous = this.previous;
    // Entries evicted before they were indexed keep a placeholder: `previous` stays aligned.
    while (previous.length < this.head) previous.push(-1);
    for (let k = previous.length; k < this.count(); k++) {
      const name = this.entries[2 * k];
      previous.push(this.newest.get(name) ?? -1);
      this.newest.set(name, (this.baseId + k) >>> 0);
    }
    this.indexedTo = this.count();
  }

  /** Empties the mirror (every entry was evicted); the next entry gets `id`. */
  private reset(id: number): void {
    this.entries = [];
    this.previous = [];
    this.newest.clear();
    this.head = this.indexedTo = 0;
    this.baseId = id;
  }
}
