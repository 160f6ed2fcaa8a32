// The flat ABI of the wasm module, mirrored from wasm/src (lib.rs, http1/head.rs, http1/chunked.rs,
// http1/error.rs, websocket/frame.rs, websocket/error.rs). tests/wasm/abi.test.ts checks every number here against the Rust source.

/** The raw exports of the module (wasm/src/lib.rs). */
export interface WasmExports {
  readonly memory: WebAssembly.Memory;
  input_buffer(capacity: number): number;
  result_table(): number;
  parse_head(
    start: number,
    end: number,
    maxHeaders: number,
    maxHeadBytes: number,
    maxTargetBytes: number,
    options: number,
  ): number;
  decode_chunked(
    start: number,
    end: number,
    maxExtensionBytes: number,
    maxTrailerBytes: number,
    options: number,
  ): number;
  hpack_decoder_new(maxTableSize: number, maxListSize: number, maxFields: number): number;
  hpack_encoder_new(maxTableSize: number, huffman: number): number;
  hpack_free(handle: number): void;
  hpack_set_table_limit(handle: number, limit: number): number;
  hpack_decode(handle: number, len: number): number;
  hpack_table_dump(handle: number): number;
  hpack_encode(handle: number, count: number): number;
  ws_decode(start: number, end: number, maxFrame: number, options: number): number;
  ws_accept(len: number): number;
}

/** The input buffer's size at start (lib.rs `INPUT`); it grows on demand. */
export const INITIAL_INPUT_BYTES = 64 * 1024;
/** Words in the result table (lib.rs RESULT_WORDS). */
export const RESULT_WORDS = 10 + 4 * 1024;
/** The most fields a head may have, whatever maxHeaders says. */
export const MAX_HEADERS_LIMIT = 1024;
/** Returned for a range outside the input buffer or a dead handle. */
export const ABI_MISUSE = -1000;

/** Head record word offsets (http1::head::slot). */
export const Head = {
  FLAGS: 0,
  VERSION_MINOR: 1,
  BODY: 2,
  LENGTH_LO: 3,
  LENGTH_HI: 4,
  A_OFF: 5,
  A_LEN: 6,
  B_OFF: 7,
  B_LEN: 8,
  FIELD_COUNT: 9,
  FIELDS: 10,
} as const;

/** Head flag: the connection persists after this message. */
export const FLAG_KEEP_ALIVE = 1;
/** Head flag: the message switches protocols. */
export const FLAG_UPGRADE = 2;
/** Head flag: `Expect: 100-continue`. */
export const FLAG_EXPECT_CONTINUE = 4;
/** Head flag: every byte of the head is ASCII. */
export const FLAG_ASCII = 8;

/** Body framing: none. */
export const BODY_NONE = 0;
/** Body framing: Content-Length. */
export const BODY_LENGTH = 1;
/** Body framing: chunked. */
export const BODY_CHUNKED = 2;
/** Body framing: until the connection closes (responses). */
export const BODY_UNTIL_CLOSE = 3;

/** Parse option: the message is a response. */
export const OPT_RESPONSE = 1;
/** Parse option: the response answers a HEAD. */
export const OPT_REQUEST_HEAD = 2;
/** Parse option: the response answers a CONNECT. */
export const OPT_REQUEST_CONNECT = 4;
/** Parse option: accept LF without CR. */
export const OPT_ALLOW_BARE_LF = 8;
/** Parse option: accept obsolete line folding. */
export const OPT_ALLOW_OBS_FOLD = 16;
/** Parse option: report FLAG_ASCII. */
export const OPT_REPORT_ASCII = 32;

/** Chunked record word offsets (http1::chunked::slot). */
export const Chunked = {
  PHASE: 0,
  SIZE_LO: 1,
  SIZE_HI: 2,
  EXT_BYTES: 3,
  SPAN_COUNT: 4,
  TRAILER_COUNT: 5,
  SPANS: 8,
  TRAILERS: 8 + 2 * 64,
} as const;

/** The most trailer fields a chunked body may end with (http1::chunked::MAX_TRAILERS; more: ERR_TOO_MANY_HEADERS). */
export const MAX_TRAILERS = 64;

/** Chunked phase: inside chunk data. */
export const PHASE_DATA = 11;
/** Chunked phase: at the CR after chunk data. */
export const PHASE_DATA_CR = 12;
/** Chunked phase: the body and its trailers are complete. */
export const PHASE_DONE = 15;

/** http1::error::ParseError, by number. */
export const PARSE_ERROR_CODES = [
  '',
  'ERR_INVALID_METHOD',
  'ERR_INVALID_TARGET',
  'ERR_INVALID_VERSION',
  'ERR_UNSUPPORTED_VERSION',
  'ERR_INVALID_HEADER',
  'ERR_INVALID_NEWLINE',
  'ERR_TOO_MANY_HEADERS',
  'ERR_HEADER_TOO_LARGE',
  'ERR_URI_TOO_LONG',
  'ERR_INVALID_CONTENT_LENGTH',
  'ERR_CL_TE_CONFLICT',
  'ERR_INVALID_TRANSFER_ENCODING',
  'ERR_UNSUPPORTED_TRANSFER_ENCODING',
  'ERR_INVALID_STATUS',
  'ERR_INVALID_CHUNK_SIZE',
  'ERR_INVALID_CHUNK_EXTENSION',
  'ERR_CHUNK_EXTENSION_TOO_LARGE',
  'ERR_INVALID_CHUNK_DATA',
  'ERR_INVALID_TRAILER',
] as const;

/** Result table words of the HPACK calls (wasm/src/lib.rs). */
export const Hpack = {
  ARENA_PTR: 0,
  ARENA_LEN: 1,
  FIELDS_PTR: 2,
  TABLE_SIZE: 3,
  OLDEST_ID: 4,
  OUTPUT_PTR: 0,
  /** After hpack_encode: how many fields went into the dynamic table (their positions at FIELDS_PTR). */
  INSERTED_COUNT: 1,
  /** After hpack_encode: the id the next dynamic entry gets. */
  NEXT_ID: 5,
  /** After hpack_encode returned INVALID_FIELD: the index of the first invalid field. */
  BAD_FIELD: 0,
  /** hpack_encode's answer to a field RFC 9113 §8.2.1 forbids (nothing encoded, table untouched). */
  INVALID_FIELD: -2,
  MAX_ENCODE_FIELDS: Math.floor(RESULT_WORDS / 3),
  FIELD_WORDS: 6,
  FIELD_NEVER_INDEXED: 1,
  FIELD_STATIC: 2,
  FIELD_DYNAMIC: 4,
  FIELD_INSERTED: 8,
  FIELD_SENSITIVE: 1,
} as const;

/** hpack::HpackError, by number. */
export const HPACK_ERROR_CODES = [
  '',
  'ERR_HPACK_TRUNCATED',
  'ERR_HPACK_INTEGER_OVERFLOW',
  'ERR_HPACK_INVALID_INDEX',
  'ERR_HPACK_HUFFMAN_PADDING',
  'ERR_HPACK_HUFFMAN_EOS',
  'ERR_HPACK_TABLE_SIZE_TOO_LARGE',
  'ERR_HPACK_TABLE_SIZE_UPDATE_MISPLACED',
  'ERR_HPACK_TABLE_SIZE_UPDATE_MISSING',
  'ERR_HPACK_HEADER_LIST_TOO_LARGE',
  'ERR_HPACK_TOO_MANY_FIELDS',
] as const;

/** WebSocket frame decoder state and records (websocket::frame::slot). */
export const WsFrame = {
  PHASE: 0,
  REMAINING: 1,
  MASK: 2,
  MASK_OFFSET: 3,
  FRAME: 4,
  FRAGMENTED: 5,
  RECORD_COUNT: 6,
  RECORDS: 8,
  RECORD_WORDS: 4,
  MAX_RECORDS: 256,
} as const;
/** The state words a connection keeps between ws_decode calls. */
export const WS_STATE_WORDS = 6;
/** WebSocket record bit: the record begins a frame. */
export const RECORD_FRAME_START = 0x100;
/** WebSocket record bit: the frame's payload ends with this record. */
export const RECORD_FRAME_END = 0x200;
/** ws_decode option: RSV1 is allowed on a message's first frame (permessage-deflate). */
export const OPT_RSV1 = 1;
/** The bytes of ws_accept's digest (SHA-1). */
export const WS_ACCEPT_BYTES = 20;

/** websocket::FrameError, by number. */
export const WS_FRAME_ERROR_CODES = [
  '',
  'ERR_WS_RESERVED_OPCODE',
  'ERR_WS_RESERVED_BITS',
  'ERR_WS_UNMASKED',
  'ERR_WS_CONTROL_TOO_LONG',
  'ERR_WS_CONTROL_FRAGMENTED',
  'ERR_WS_TOO_BIG',
  'ERR_WS_NON_MINIMAL_LENGTH',
  'ERR_WS_UNEXPECTED_CONTINUATION',
  'ERR_WS_EXPECTED_CONTINUATION',
] as const;
