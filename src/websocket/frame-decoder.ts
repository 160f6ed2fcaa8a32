// Client frames in: each read goes to wasm once (ws_decode checks every header and unmasks the
// payloads in place), and the records it leaves say where each payload piece is. A header cut
// by the end of a read is kept and joined to the next one. A binary frame that spans reads is
// put together in one buffer (grown to the length its header announced), and handed on whole.
import { concat } from '../bytes.js';
import { RECORD_FRAME_END, RECORD_FRAME_START, WS_FRAME_ERROR_CODES, WS_STATE_WORDS, WsFrame } from '../wasm/abi.js';
import { wasmCore } from '../wasm/module.js';
import { CloseCode } from './close.js';
import { Opcode, type FrameMemory } from './frame.js';
import { WebSocketError, type WebSocketErrorCode } from './errors.js';

/** What the decoder reports, in order, for each frame. */
export interface FrameSink {
  /** A frame begins: its first byte (FIN, RSV1-3, opcode) and its whole payload length. */
  frameStart(first: number, length: number): void;
  /** A piece of the frame's payload, unmasked: a copy, the sink's to keep. */
  payload(bytes: Uint8Array): void;
  /** The frame's payload is complete. */
  frameEnd(): void;
}

/** The limits and negotiated options of a FrameDecoder. */
export interface FrameDecoderOptions {
  /** The most payload bytes one frame may carry (a larger one fails with 1009 from its header alone). */
  maxFrame: number;
  /** OPT_* bits (OPT_RSV1 once permessage-deflate is negotiated). */
  options?: number;
  /** Where an assembled frame's buffer comes from (every byte of it is written before it is handed on). */
  memory?: FrameMemory;
}

const NONE = -1;
/** The most a frame length may be in the ABI (a u32). */
const MAX_FRAME_LIMIT = 0xffff_ffff;
/**
 * A binary frame spanning reads is put together in one buffer, and the message is that buffer.
 * Joining its pieces at the end cost a 64 KiB frame a second buffer and copy, and the churn of
 * short-lived 64 KiB buffers made the allocator hand memory back to the OS and fault it in
 * again: 18-55 page faults per 64 KiB echo against 4, and 175 against 84 us of server CPU
 * (docs/architecture.md, "WebSocket"). The buffer starts at twice the frame's first piece (at
 * least this) and doubles as bytes come, up to the frame's length: it is never more than twice
 * what arrived (a header and a byte cannot make the server hold the announced length), and a
 * frame that fills a read more than half comes in one buffer of its exact length.
 */
const MIN_ASSEMBLY = 4 * 1024;

/** The records of one wasm call, copied out before the sink runs (it may use the core itself). */
interface Records {
  bits: number[];
  lengths: number[];
  pieces: (Uint8Array | null)[];
}
/**
 * Shared by every decoder, one set per nesting level: a sink may make another decoder push (a
 * paused stream resumed from a message handler) while this one's records are still being handed
 * out. An idle connection holds no arrays.
 */
const recordSets: Records[] = [];
let nesting = 0;

/** Reads client frames: one wasm call per read. */
export class FrameDecoder {
  private readonly core = wasmCore();
  /** The decoder's state between reads (WS_STATE_WORDS words; a plain array: no typed-array backing store per connection). */
  private readonly state: number[] = new Array<number>(WS_STATE_WORDS).fill(0);
  private held: Uint8Array | null = null;
  private readonly maxFrame: number;
  private readonly options: number;
  private readonly memory: FrameMemory | undefined;
  /** The binary frame being put together across reads, how much of it has come, and its length. */
  private assembly: Uint8Array | null = null;
  private assembled = 0;
  private assemblyLength = 0;

  constructor(
    private readonly sink: FrameSink,
    { maxFrame, options = 0, memory }: FrameDecoderOptions,
  ) {
    this.maxFrame = Math.min(maxFrame, MAX_FRAME_LIMIT);
    this.options = options;
    this.memory = memory;
  }

  /**
   * Reads `chunk`; throws WebSocketError on the first frame that breaks the protocol or the limit,
   * once the frames before it have been handed on.
   */
  push(chunk: Uint8Array): void {
    const records = (recordSets[nesting] ??= { bits: [], lengths: [], pieces: [] });
    nesting++;
    try {
      this.decode(chunk, records);
    } catch (error) {
      records.pieces.fill(null); // what a failed read left undelivered is not kept
      throw error;
    } finally {
      nesting--;
    }
  }

  private decode(chunk: Uint8Array, { bits, lengths, pieces }: Records): void {
    const data = this.held ? concat(this.held, chunk) : chunk;
    this.held = null;
    let pos = 0;
    for (;;) {
      const core = this.core;
      core.load(pos ? data.subarray(pos) : data);
      // A negative rc is an error in a frame after the recorded ones, which are delivered first:
      // frames are processed in order, so a message complete before a bad frame was received.
      const rc = core.wsDecode(0, data.length - pos, this.maxFrame, this.options, this.state);
      // Everything is copied out of wasm memory before the sink runs: it may use the core itself.
      const table = core.table;
      const count = table[WsFrame.RECORD_COUNT];
      const input = core.bytes;
      const base = core.inputPtr;
      for (let i = 0; i < count; i++) {
        const at = WsFrame.RECORDS + i * WsFrame.RECORD_WORDS;
        const record = (bits[i] = table[at]);
        const offset = base + table[at + 1];
        const length = table[at + 2];
        lengths[i] = record & RECORD_FRAME_START ? table[at + 3] : NONE;
        if (lengths[i] !== NONE && !(record & RECORD_FRAME_END)) this.startAssembly(record & 0xff, lengths[i], length);
        if (this.assembly === null) pieces[i] = length ? input.slice(offset, offset + length) : null;
        else {
          const assembly = this.makeRoom(length);
          assembly.set(input.subarray(offset, offset + length), this.assembled);
          this.assembled += length;
          // Nothing of the frame goes on until all of it is here; then all of it at once.
          pieces[i] = record & RECORD_FRAME_END ? assembly : null;
          if (record & RECORD_FRAME_END) this.assembly = null;
        }
      }
      for (let i = 0; i < count; i++) {
        if (lengths[i] !== NONE) this.sink.frameStart(bits[i] & 0xff, lengths[i]);
        const piece = pieces[i];
        pieces[i] = null; // the sink keeps it, not the decoder
        if (piece) this.sink.payload(piece);
        if (bits[i] & RECORD_FRAME_END) this.sink.frameEnd();
      }
      if (rc < 0) throw frameError(rc);
      pos += rc;
      // A full set of records: more frames may follow in this read. Otherwise what is left is a
      // header cut short.
      if (count < WsFrame.MAX_RECORDS || pos === data.length) break;
    }
    if (pos < data.length) this.held = data.slice(pos);
  }

  /**
   * A frame that goes on past this read: a binary one is put together (its length is within
   * maxFrame, checked in wasm). Text stays in pieces, each checked as UTF-8 when it comes.
   */
  private startAssembly(first: number, length: number, firstPiece: number): void {
    if ((first & 0x0f) !== Opcode.BINARY) return;
    this.assemblyLength = length;
    this.assembled = 0;
    this.assembly = this.allocate(Math.min(length, Math.max(2 * firstPiece, MIN_ASSEMBLY)));
  }

  /** The assembly, grown (doubling, at most to the frame's length) to take `more` bytes. */
  private makeRoom(more: number): Uint8Array {
    const assembly = this.assembly!;
    const needed = this.assembled + more;
    if (needed <= assembly.length) return assembly;
    const grown = this.allocate(Math.min(this.assemblyLength, Math.max(needed, 2 * assembly.length)));
    grown.set(assembly.subarray(0, this.assembled));
    return (this.assembly = grown);
  }

  private allocate(size: number): Uint8Array {
    return this.memory?.allocate ? this.memory.allocate(size) : new Uint8Array(size);
  }
}

function frameError(rc: number): WebSocketError {
  const code = WS_FRAME_ERROR_CODES[-rc] as WebSocketErrorCode | undefined;
  if (!code) return new WebSocketError('ERR_WS_RESERVED_BITS', `unknown frame error ${rc}`);
  return new WebSocketError(
    code,
    FRAME_ERROR_MESSAGES[code],
    code === 'ERR_WS_TOO_BIG' ? CloseCode.MESSAGE_TOO_BIG : CloseCode.PROTOCOL_ERROR,
  );
}

/** What each wasm error number means, with its RFC 6455 section (the decoder returns numbers only). */
const FRAME_ERROR_MESSAGES: Record<string, string> = {
  ERR_WS_RESERVED_OPCODE: 'a frame with a reserved opcode (§5.2)',
  ERR_WS_RESERVED_BITS: 'a frame with RSV bits no extension defines (§5.2)',
  ERR_WS_UNMASKED: 'an unmasked client frame (§5.1)',
  ERR_WS_CONTROL_TOO_LONG: 'a control frame over 125 bytes (§5.5)',
  ERR_WS_CONTROL_FRAGMENTED: 'a fragmented control frame (§5.5)',
  ERR_WS_TOO_BIG: 'a frame over the payload limit',
  ERR_WS_NON_MINIMAL_LENGTH: 'a payload length not in its shortest form, or over 2^63 (§5.2)',
  ERR_WS_UNEXPECTED_CONTINUATION: 'a continuation frame with no message to continue (§5.4)',
  ERR_WS_EXPECTED_CONTINUATION: 'a new message before the fragmented one ended (§5.4)',
};
