// What the decoder and the encoder share: a handle to a codec inside wasm, freed explicitly or,
// as a backstop, when the JS object is collected; and invalid once a trap replaced the instance.
import { latin1Range } from '../latin1.js';
import { ABI_MISUSE, Hpack } from '../wasm/abi.js';
import { wasmCore, type WasmCore } from '../wasm/module.js';
import { HpackError } from './errors.js';

/** SETTINGS_HEADER_TABLE_SIZE until a peer says otherwise: the dynamic table's default size (RFC 9113 §6.5.2). */
export const DEFAULT_TABLE_SIZE = 4096;
/** The largest u32 a table size can be on the wire. */
export const MAX_TABLE_SIZE = 0xffff_ffff;

/** A decoded field; `neverIndex` keeps the sender's "never indexed" mark (RFC 7541 §6.2.3). */
export interface HpackField {
  name: string;
  value: string;
  neverIndex: boolean;
}

interface Held {
  core: WasmCore;
  handle: number;
  generation: number;
}

const registry = new FinalizationRegistry<Held>(({ core, handle, generation }) => {
  if (core.generation === generation) core.call((e) => e.hpack_free(handle));
});

/** The wasm side of an HPACK encoder or decoder: its handle, freed once, and recreated state after a trap. */
export abstract class WasmCodec {
  protected readonly core: WasmCore = wasmCore();
  private handle: number;
  private readonly generation: number;
  private failure: HpackError | null = null;

  protected constructor(create: (core: WasmCore) => number) {
    this.handle = create(this.core);
    this.generation = this.core.generation;
    registry.register(this, { core: this.core, handle: this.handle, generation: this.generation }, this);
  }

  /** The live handle; throws when freed, failed, or lost to a trap. */
  protected live(): number {
    if (this.failure) {
      // Its table is out of step with the peer's: nothing it decodes can be trusted again.
      throw new HpackError('ERR_HPACK_DECODER_FAILED', `this codec failed earlier (${this.failure.code}) and cannot be used again`, {
        cause: this.failure,
      });
    }
    if (this.handle === 0) throw new HpackError('ERR_HPACK_FREED', 'this codec was freed');
    if (this.core.generation !== this.generation) {
      this.failure = new HpackError('ERR_WASM_TRAP', 'the wasm instance was replaced after a trap; the table state is gone');
      throw this.failure;
    }
    return this.handle;
  }

  /** Marks the codec unusable (a decoding error leaves the table in an unknown state). */
  protected fail(error: HpackError): never {
    this.failure = error;
    throw error;
  }

  protected checked(rc: number): number {
    if (rc === ABI_MISUSE) throw new RangeError('HPACK call refused by wasm (bad handle or input range)');
    return rc;
  }

  /** Applies an acknowledged SETTINGS_HEADER_TABLE_SIZE (RFC 9113 §6.5.2). */
  setTableLimit(limit: number): void {
    if (!Number.isInteger(limit) || limit < 0 || limit > 0xffff_ffff) throw new RangeError(`invalid table size ${limit}`);
    const handle = this.live();
    this.checked(this.core.call((e) => e.hpack_set_table_limit(handle, limit)));
  }

  /** The dynamic table, newest entry first, and its size (RFC 7541 §4.1). */
  dynamicTable(): { entries: [string, string][]; size: number } {
    const handle = this.live();
    const count = this.checked(this.core.call((e) => e.hpack_table_dump(handle)));
    return { entries: this.readLiterals(count).map((f) => [f.name, f.value]), size: this.core.table[Hpack.TABLE_SIZE] };
  }

  /** Releases the wasm side now (the finalizer would, later). */
  free(): void {
    if (this.handle === 0) return;
    registry.unregister(this);
    if (this.core.generation === this.generation) {
      const handle = this.handle;
      this.core.call((e) => e.hpack_free(handle));
    }
    this.handle = 0;
  }

  /** The literal fields of the last decode/dump: one latin1 decode of the arena, then slices. */
  protected readLiterals(count: number): HpackField[] {
    const { table, bytes, words } = this.core;
    const arena = table[Hpack.ARENA_PTR];
    const text = latin1Range(bytes, arena, arena + table[Hpack.ARENA_LEN]);
    const fields = new Array<HpackField>(count);
    for (let i = 0, w = table[Hpack.FIELDS_PTR] >>> 2; i < count; i++, w += Hpack.FIELD_WORDS) {
      fields[i] = {
        name: text.slice(words[w], words[w] + words[w + 1]),
        value: text.slice(words[w + 2], words[w + 2] + words[w + 3]),
        neverIndex: (words[w + 4] & Hpack.FIELD_NEVER_INDEXED) !== 0,
      };
    }
    return fields;
  }
}
