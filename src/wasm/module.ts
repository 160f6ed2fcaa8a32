// Loads the wasm module synchronously on every runtime (the bytes are embedded, see
// scripts/build.mjs) and owns the one instance per thread, re-creating it after a trap.
import { ABI_MISUSE, INITIAL_INPUT_BYTES, RESULT_WORDS, type WasmExports } from './abi.js';
import { wasmBase64 } from './pkg/wasm-bytes.js';

/** A trap inside wasm (a bug, or memory exhausted). The instance was replaced; retry is safe. */
export class WasmTrapError extends Error {
  readonly code = 'ERR_WASM_TRAP';
  constructor(cause: unknown) {
    super(`wasm trapped and was re-instantiated: ${String(cause)}`, { cause });
    this.name = 'WasmTrapError';
  }
}

let compiled: WebAssembly.Module | undefined;

function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The compiled module (compiled once per thread; instances are cheap). */
export function wasmModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(decodeBase64(wasmBase64) as Uint8Array<ArrayBuffer>));
}

interface BindgenExports extends WasmExports {
  readonly __wbindgen_externrefs: WebAssembly.Table;
  __wbindgen_start(): void;
}

function instantiate(): WasmExports {
  // The only import wasm-bindgen emits for a numbers-only ABI: seed the externref table exactly as
  // its generated glue does (tests/wasm/abi.test.ts fails if the module ever asks for more).
  const imports = {
    './wirespeed_wasm_bg.js': {
      __wbindgen_init_externref_table() {
        const table = (instance.exports as unknown as BindgenExports).__wbindgen_externrefs;
        table.set(0, undefined);
        table.set(1024, undefined);
        table.set(1025, null);
        table.set(1026, true);
        table.set(1027, false);
      },
    },
  };
  const instance = new WebAssembly.Instance(wasmModule(), imports);
  const exports = instance.exports as unknown as BindgenExports;
  exports.__wbindgen_start();
  return exports;
}

/** Copies words [from, from + count) of the result table into a plain array (no view allocated). */
export function copyWords(table: Uint32Array, from: number, count: number): number[] {
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = table[from + i];
  return out;
}

/** Something that reads the result table in place and must copy what it needs before it changes. */
export interface TableReader {
  /** The result table is about to be written: copy (or drop) what you read from it. */
  detach(table: Uint32Array): void;
}

/**
 * The wasm instance with typed views of its input buffer and result table. All parsers of a thread
 * share it; calls are synchronous, so they never interleave.
 */
export class WasmCore {
  /** Reads the table in place until the next call that writes it. */
  private tableReader: TableReader | null = null;

  private exports!: WasmExports;
  #bytes!: Uint8Array;
  #table!: Uint32Array;
  #words!: Uint32Array;
  #inputPtr = 0;
  #generation = 0;
  #loads = 0;
  private capacity = 0;
  private inputView: Uint8Array | undefined;

  constructor() {
    this.reset();
  }

  /** Copies `data` into the input buffer (at offset 0), growing it when needed. */
  load(data: Uint8Array): void {
    if (data.length > this.capacity) this.reserve(data.length);
    this.bytes.set(data, this.inputPtr);
    this.#loads++;
  }

  /**
   * Counts every change of the input buffer's contents (loads, growth, `writableInput`). A caller
   * that keeps bytes loaded across a callback checks it after: the callback may have used the core.
   */
  get loads(): number {
    return this.#loads;
  }

  /** The input buffer, to be filled in place by the caller (counted as a load). */
  writableInput(): Uint8Array {
    this.#loads++;
    return this.input;
  }

  reserve(capacity: number): void {
    // Growing may replace memory.buffer, which empties every view of the old one.
    this.reclaimTable();
    try {
      this.#inputPtr = this.exports.input_buffer(capacity);
    } catch (error) {
      throw this.recover(error);
    }
    this.capacity = capacity;
    this.#loads++;
    this.refreshViews();
  }

  /**
   * Runs `fn` on the raw exports with trap recovery, for calls that may allocate in wasm: the
   * views are re-made when memory grew. Reclaims the table first (the call may write it).
   */
  call<T>(fn: (exports: WasmExports) => T): T {
    this.reclaimTable();
    let result: T;
    try {
      result = fn(this.exports);
    } catch (error) {
      throw this.recover(error);
    }
    if (this.bytes.buffer !== this.exports.memory.buffer) this.refreshViews();
    return result;
  }

  /** View of the whole linear memory; re-created when memory grows. */
  get bytes(): Uint8Array {
    return this.#bytes;
  }

  /** The result table. */
  get table(): Uint32Array {
    return this.#table;
  }

  /** View of the whole linear memory as u32 words (for records that live outside the table). */
  get words(): Uint32Array {
    return this.#words;
  }

  /** Where the input buffer starts in linear memory. */
  get inputPtr(): number {
    return this.#inputPtr;
  }

  /** Incremented whenever the instance is replaced: state made in wasm before is gone. */
  get generation(): number {
    return this.#generation;
  }

  /** A view of the input buffer (re-made with the others when memory grows or moves). */
  get input(): Uint8Array {
    return (this.inputView ??= this.bytes.subarray(this.inputPtr, this.inputPtr + this.capacity));
  }

  /** Lends the table to `reader` until the next call that writes it (which detaches the reader). */
  lendTable(reader: TableReader): void {
    this.tableReader = reader;
  }

  /** Takes the table back from its reader (which copies what it needs) before writing it. */
  reclaimTable(): void {
    if (this.tableReader) {
      this.tableReader.detach(this.#table);
      this.tableReader = null;
    }
  }

  /** parse_head over the loaded input; see wasm/src/lib.rs. */
  parseHead(start: number, end: number, maxHeaders: number, maxHead: number, maxTarget: number, options: number): number {
    this.reclaimTable();
    let rc: number;
    try {
      rc = this.exports.parse_head(start, end, maxHeaders, maxHead, maxTarget, options);
    } catch (error) {
      throw this.recover(error);
    }
    if (rc === ABI_MISUSE) throw new RangeError(`parse_head(${start}, ${end}) outside the input buffer`);
    return rc;
  }

  /**
   * decode_chunked over the loaded input, from the decoder state given (phase, size halves,
   * extension bytes); the new state, spans and trailers are in the table afterwards.
   */
  decodeChunked(
    start: number,
    end: number,
    maxExtension: number,
    maxTrailer: number,
    options: number,
    state: readonly [phase: number, sizeLo: number, sizeHi: number, extBytes: number],
  ): number {
    this.reclaimTable();
    const table = this.table;
    for (let i = 0; i < 4; i++) table[i] = state[i];
    let rc: number;
    try {
      rc = this.exports.decode_chunked(start, end, maxExtension, maxTrailer, options);
    } catch (error) {
      throw this.recover(error);
    }
    if (rc === ABI_MISUSE) throw new RangeError(`decode_chunked(${start}, ${end}) outside the input buffer`);
    return rc;
  }

  /**
   * ws_decode over the loaded input, from the decoder state given (WS_STATE_WORDS words, updated
   * in place); the records are in the table afterwards.
   */
  wsDecode(start: number, end: number, maxFrame: number, options: number, state: number[]): number {
    this.reclaimTable();
    const table = this.table;
    for (let i = 0; i < state.length; i++) table[i] = state[i];
    let rc: number;
    try {
      rc = this.exports.ws_decode(start, end, maxFrame, options);
    } catch (error) {
      throw this.recover(error);
    }
    if (rc === ABI_MISUSE) throw new RangeError(`ws_decode(${start}, ${end}) outside the input buffer`);
    for (let i = 0; i < state.length; i++) state[i] = table[i];
    return rc;
  }

  /** SHA-1 of `key` (latin1 bytes) and the WebSocket GUID: the handshake's accept digest. */
  wsAccept(key: Uint8Array): Uint8Array {
    this.load(key);
    this.reclaimTable();
    const length = this.exports.ws_accept(key.length);
    if (length === ABI_MISUSE) throw new RangeError('ws_accept outside the input buffer');
    return new Uint8Array(this.table.buffer, this.table.byteOffset, length).slice();
  }

  private recover(error: unknown): unknown {
    if (!(error instanceof WebAssembly.RuntimeError)) return error;
    this.reset();
    return new WasmTrapError(error);
  }

  private reset(): void {
    this.reclaimTable();
    this.#generation++;
    this.exports = instantiate();
    this.#inputPtr = this.exports.input_buffer(0);
    this.capacity = INITIAL_INPUT_BYTES;
    this.refreshViews();
  }

  private refreshViews(): void {
    this.inputView = undefined;
    const buffer = this.exports.memory.buffer;
    this.#bytes = new Uint8Array(buffer);
    this.#words = new Uint32Array(buffer);
    this.#table = new Uint32Array(buffer, this.exports.result_table(), RESULT_WORDS);
  }
}

let shared: WasmCore | undefined;

/** The thread's shared instance. */
export function wasmCore(): WasmCore {
  return (shared ??= new WasmCore());
}
