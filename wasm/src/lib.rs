//! # wirespeed-wasm: the flat ABI
//!
//! Every export takes and returns plain numbers; no call allocates JavaScript objects. Bytes go in
//! through one input buffer in linear memory and results come out as u32 words in one result
//! table, both read and written by the TypeScript side through typed-array views (`src/wasm/`).
//!
//! ```text
//! input_buffer(capacity) -> ptr     grow the input buffer if needed; JS copies bytes to ptr
//! result_table() -> ptr             the u32 result table (RESULT_WORDS words, never moves)
//! parse_head(start, end, max_headers, max_head_bytes, max_target_bytes, options) -> i32
//!     > 0  the head at input[start..end] is complete and this many bytes long; the record is in
//!          the table (layout: http1::head::slot), offsets relative to `start`
//!     = 0  incomplete: call again with more bytes
//!     < 0  -ParseError, or ABI_MISUSE when start..end is outside the input buffer
//! decode_chunked(start, end, max_extension_bytes, max_trailer_bytes, options) -> i32
//!     the state (http1::chunked::slot) is read from and written back to the table;
//!     >= 0 bytes consumed from input[start..end], spans/trailers (absolute offsets) in the table
//!     < 0  -ParseError
//!
//! hpack_decoder_new(max_table_size, max_list_size, max_fields) -> handle (> 0)
//! hpack_encoder_new(max_table_size, huffman: 0 auto | 1 always | 2 never) -> handle (> 0)
//! hpack_free(handle)
//! hpack_set_table_limit(handle, limit) -> i32     an acknowledged SETTINGS_HEADER_TABLE_SIZE
//! hpack_decode(handle, len) -> i32                the block is input[0..len]
//!     >= 0 field count; table[HPACK_ARENA_PTR, HPACK_ARENA_LEN, HPACK_FIELDS_PTR] locate the
//!          output: 6 u32 words per field (hpack::decoder::FIELD_WORDS): literal fields as
//!          offsets into the arena, indexed ones as a static index or a dynamic entry id;
//!          table[HPACK_OLDEST_ID] is the oldest live entry id
//!     < 0  -HpackError; the decoder must not be used again (its table may be half-updated)
//! hpack_table_dump(handle) -> i32                 the dynamic table (newest first) as fields,
//!          like hpack_decode; table[HPACK_TABLE_SIZE] is its §4.1 size
//! hpack_encode(handle, count) -> i32              fields are input bytes (name, value, name,
//!          value, ...) with table[3i..3i+3] = (name len, value len, flags); returns the block's
//!          length, the block at table[HPACK_OUTPUT_PTR]; or HPACK_INVALID_FIELD, nothing encoded
//!          and the table untouched, when a field breaks RFC 9113 §8.2.1 (the first such field's
//!          index at table[HPACK_BAD_FIELD]). After a block: the positions of the fields added
//!          to the dynamic table, in order, are HPACK_INSERTED_COUNT u32 words at
//!          table[HPACK_FIELDS_PTR]; their ids run up to table[HPACK_NEXT_ID] - 1, and ids
//!          below table[HPACK_OLDEST_ID] were evicted (the JS side mirrors the table with it)
//! ```
//!
//! This module is the only one that is not `#![forbid(unsafe_code)]`: `#[wasm_bindgen]` expands
//! to unsafe glue. It holds no `unsafe` of its own. The buffers are owned by thread-locals (wasm
//! is single-threaded here); JS writes into the input buffer only between calls, while no Rust
//! reference to it is alive.

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;

pub mod hpack;
pub mod http1;
pub mod scan;
pub mod token;
pub mod websocket;

use hpack::decoder::{DecodedBlock, FIELD_WORDS};
use hpack::encoder::{valid_field, HuffmanMode};
use hpack::{Decoder, Encoder};
use http1::chunked::{self, ChunkedLimits};
use http1::head::{self, HeadOptions, MAX_HEADERS_LIMIT};
use websocket::frame::{self as ws_frame, FrameLimits};

/// Words in the result table: big enough for a head with MAX_HEADERS_LIMIT fields and for a
/// chunked record with its spans and trailers.
pub const RESULT_WORDS: usize = head::slot::FIELDS + 4 * MAX_HEADERS_LIMIT;
const _: () = assert!(chunked::slot::TRAILERS + 4 * chunked::MAX_TRAILERS <= RESULT_WORDS);
const _: () = assert!(
    ws_frame::slot::RECORDS + ws_frame::RECORD_WORDS * ws_frame::MAX_RECORDS <= RESULT_WORDS
);

/// Returned when a caller passes a range outside the input buffer or a dead handle: a JS bug.
pub const ABI_MISUSE: i32 = -1000;

/// Result table words of the HPACK calls.
pub const HPACK_ARENA_PTR: usize = 0;
pub const HPACK_ARENA_LEN: usize = 1;
pub const HPACK_FIELDS_PTR: usize = 2;
pub const HPACK_TABLE_SIZE: usize = 3;
/// After hpack_decode: the id of the oldest live dynamic entry (the caller may forget older ids).
pub const HPACK_OLDEST_ID: usize = 4;
pub const HPACK_OUTPUT_PTR: usize = 0;
/// After hpack_encode: how many fields were added to the dynamic table.
pub const HPACK_INSERTED_COUNT: usize = 1;
/// After hpack_encode: the id the next dynamic entry will get.
pub const HPACK_NEXT_ID: usize = 5;
/// After hpack_encode returned HPACK_INVALID_FIELD: the index of the first invalid field.
pub const HPACK_BAD_FIELD: usize = 0;
/// hpack_encode's answer to a field with an upper-case or non-token name, or NUL, CR or LF in its value.
pub const HPACK_INVALID_FIELD: i32 = -2;
/// Most fields one hpack_encode call takes (3 descriptor words each).
pub const HPACK_MAX_ENCODE_FIELDS: usize = RESULT_WORDS / 3;

enum Codec {
    Decoder(Decoder),
    Encoder(Encoder),
}

thread_local! {
    static INPUT: RefCell<Vec<u8>> = RefCell::new(vec![0; 64 * 1024]);
    static RESULT: RefCell<Box<[u32]>> = RefCell::new(vec![0; RESULT_WORDS].into_boxed_slice());
    /// HPACK codecs by handle - 1; freed slots are reused.
    static CODECS: RefCell<CodecSlots> = const { RefCell::new(CodecSlots { slots: Vec::new(), free: Vec::new() }) };
    /// The last decoded block (arena + field words), or the last encoded block (in its arena).
    static HPACK_OUT: RefCell<DecodedBlock> = RefCell::new(DecodedBlock::default());
}

/// The live codecs, and a stack of the free slots: making and freeing a codec is O(1) however
/// many are alive (a scan for a free slot cost 18-29 µs with 20,000 codecs alive).
struct CodecSlots {
    slots: Vec<Option<Codec>>,
    free: Vec<u32>,
}

fn add_codec(codec: Codec) -> u32 {
    CODECS.with_borrow_mut(|codecs| {
        let slot = match codecs.free.pop() {
            Some(slot) => slot as usize,
            None => {
                codecs.slots.push(None);
                codecs.slots.len() - 1
            }
        };
        codecs.slots[slot] = Some(codec);
        slot as u32 + 1
    })
}

fn with_codec<R>(handle: u32, f: impl FnOnce(&mut Codec) -> R) -> Option<R> {
    CODECS.with_borrow_mut(|codecs| {
        let slot = (handle as usize).checked_sub(1)?;
        codecs.slots.get_mut(slot)?.as_mut().map(f)
    })
}

/// Publishes a decoded block's location in the result table; returns its field count.
fn publish(block: &DecodedBlock) -> i32 {
    RESULT.with_borrow_mut(|table| {
        table[HPACK_ARENA_PTR] = block.arena.as_ptr() as u32;
        table[HPACK_ARENA_LEN] = block.arena.len() as u32;
        table[HPACK_FIELDS_PTR] = block.fields.as_ptr() as u32;
    });
    (block.fields.len() / FIELD_WORDS) as i32
}

#[wasm_bindgen]
pub fn hpack_decoder_new(max_table_size: u32, max_list_size: u32, max_fields: u32) -> u32 {
    add_codec(Codec::Decoder(Decoder::new(
        max_table_size as usize,
        max_list_size as usize,
        max_fields as usize,
    )))
}

#[wasm_bindgen]
pub fn hpack_encoder_new(max_table_size: u32, huffman: u32) -> u32 {
    let mode = match huffman {
        1 => HuffmanMode::Always,
        2 => HuffmanMode::Never,
        _ => HuffmanMode::Auto,
    };
    add_codec(Codec::Encoder(Encoder::new(max_table_size as usize, mode)))
}

#[wasm_bindgen]
pub fn hpack_free(handle: u32) {
    CODECS.with_borrow_mut(|codecs| {
        let Some(index) = handle.checked_sub(1) else {
            return;
        };
        // A slot goes on the free stack once, however often its handle is freed.
        if let Some(slot @ Some(_)) = codecs.slots.get_mut(index as usize) {
            *slot = None;
            codecs.free.push(index);
        }
    });
}

#[wasm_bindgen]
pub fn hpack_set_table_limit(handle: u32, limit: u32) -> i32 {
    with_codec(handle, |codec| match codec {
        Codec::Decoder(d) => d.set_table_limit(limit as usize),
        Codec::Encoder(e) => e.set_table_limit(limit as usize),
    })
    .map_or(ABI_MISUSE, |()| 0)
}

#[wasm_bindgen]
pub fn hpack_decode(handle: u32, len: u32) -> i32 {
    INPUT.with_borrow(|input| {
        let Some(src) = input.get(..len as usize) else {
            return ABI_MISUSE;
        };
        HPACK_OUT.with_borrow_mut(|out| {
            let decoded = with_codec(handle, |codec| match codec {
                Codec::Decoder(d) => Some(d.decode(src, out)),
                Codec::Encoder(_) => None,
            });
            match decoded.flatten() {
                Some(Ok(())) => {
                    let oldest = with_codec(handle, |codec| match codec {
                        Codec::Decoder(d) => d.table().oldest_id(),
                        Codec::Encoder(e) => e.table().oldest_id(),
                    });
                    RESULT.with_borrow_mut(|t| t[HPACK_OLDEST_ID] = oldest.unwrap_or(0));
                    publish(out)
                }
                Some(Err(e)) => e.code(),
                None => ABI_MISUSE,
            }
        })
    })
}

#[wasm_bindgen]
pub fn hpack_table_dump(handle: u32) -> i32 {
    HPACK_OUT.with_borrow_mut(|out| {
        out.arena.clear();
        out.fields.clear();
        let size = with_codec(handle, |codec| {
            let table = match codec {
                Codec::Decoder(d) => d.table(),
                Codec::Encoder(e) => e.table(),
            };
            for e in table.iter() {
                let name_off = out.arena.len() as u32;
                out.arena.extend_from_slice(e.name());
                let value_off = out.arena.len() as u32;
                out.arena.extend_from_slice(e.value());
                out.fields.extend_from_slice(&[
                    name_off,
                    e.name().len() as u32,
                    value_off,
                    e.value().len() as u32,
                    0,
                    0,
                ]);
            }
            table.size() as u32
        });
        match size {
            Some(size) => {
                RESULT.with_borrow_mut(|t| t[HPACK_TABLE_SIZE] = size);
                publish(out)
            }
            None => ABI_MISUSE,
        }
    })
}

#[wasm_bindgen]
pub fn hpack_encode(handle: u32, count: u32) -> i32 {
    let count = count as usize;
    if count > HPACK_MAX_ENCODE_FIELDS {
        return ABI_MISUSE;
    }
    INPUT.with_borrow(|input| {
        RESULT.with_borrow_mut(|table| {
            HPACK_OUT.with_borrow_mut(|out| {
                // Slice the fields out of the input by their lengths; refuse lengths past the end.
                // Validate the descriptors once, then slice the fields out lazily (no allocation).
                let descriptors = &table[..3 * count];
                let total = descriptors.chunks_exact(3).try_fold(0usize, |at, d| {
                    at.checked_add(d[0] as usize)?.checked_add(d[1] as usize)
                });
                if total.is_none_or(|total| total > input.len()) {
                    return ABI_MISUSE;
                }
                let fields = descriptors.chunks_exact(3).scan(0usize, |at, d| {
                    let (name_end, value_end) =
                        (*at + d[0] as usize, *at + d[0] as usize + d[1] as usize);
                    let field = (&input[*at..name_end], &input[name_end..value_end], d[2]);
                    *at = value_end;
                    Some(field)
                });
                // Every field is checked before any is encoded: a bad one leaves the table as it was.
                if let Some(bad) = fields.clone().position(|(n, v, _)| !valid_field(n, v)) {
                    table[HPACK_BAD_FIELD] = bad as u32;
                    return HPACK_INVALID_FIELD;
                }
                out.arena.clear();
                out.fields.clear();
                let ids = with_codec(handle, |codec| match codec {
                    Codec::Encoder(e) => {
                        e.encode(fields, &mut out.arena, &mut out.fields);
                        Some((e.table().oldest_id(), e.table().next_id()))
                    }
                    Codec::Decoder(_) => None,
                });
                let Some((oldest, next)) = ids.flatten() else {
                    return ABI_MISUSE;
                };
                table[HPACK_OUTPUT_PTR] = out.arena.as_ptr() as u32;
                table[HPACK_INSERTED_COUNT] = out.fields.len() as u32;
                table[HPACK_FIELDS_PTR] = out.fields.as_ptr() as u32;
                table[HPACK_OLDEST_ID] = oldest;
                table[HPACK_NEXT_ID] = next;
                out.arena.len() as i32
            })
        })
    })
}

/// Ensures the input buffer holds at least `capacity` bytes and returns its address. The address
/// changes when the buffer grows (and memory.buffer may be replaced): re-create views after.
#[wasm_bindgen]
pub fn input_buffer(capacity: u32) -> u32 {
    INPUT.with_borrow_mut(|input| {
        let capacity = capacity as usize;
        if input.len() < capacity {
            input.resize(capacity.checked_next_power_of_two().unwrap_or(capacity), 0);
        }
        input.as_ptr() as u32
    })
}

/// Address of the result table (RESULT_WORDS u32 words). It never moves.
#[wasm_bindgen]
pub fn result_table() -> u32 {
    RESULT.with_borrow(|table| table.as_ptr() as u32)
}

/// Parses one HTTP/1.x head (request, or response with option bit 1) from input[start..end].
#[wasm_bindgen]
pub fn parse_head(
    start: u32,
    end: u32,
    max_headers: u32,
    max_head_bytes: u32,
    max_target_bytes: u32,
    options: u32,
) -> i32 {
    let opts = HeadOptions {
        max_headers: max_headers as usize,
        max_head_bytes: max_head_bytes as usize,
        max_target_bytes: max_target_bytes as usize,
        flags: options,
    };
    INPUT.with_borrow(|input| {
        RESULT.with_borrow_mut(|out| {
            let Some(buf) = input.get(start as usize..end as usize) else {
                return ABI_MISUSE;
            };
            match head::parse(buf, &opts, out) {
                Ok(Some(n)) => n as i32,
                Ok(None) => 0,
                Err(e) => e.code(),
            }
        })
    })
}

/// Decodes chunked framing from input[start..end], resuming from the state in the table.
#[wasm_bindgen]
pub fn decode_chunked(
    start: u32,
    end: u32,
    max_extension_bytes: u32,
    max_trailer_bytes: u32,
    options: u32,
) -> i32 {
    let limits = ChunkedLimits {
        max_extension_bytes,
        max_trailer_bytes: max_trailer_bytes as usize,
        allow_bare_lf: options & head::OPT_ALLOW_BARE_LF != 0,
    };
    INPUT.with_borrow(|input| {
        RESULT.with_borrow_mut(|state| {
            let Some(buf) = input.get(..end as usize) else {
                return ABI_MISUSE;
            };
            match chunked::decode(buf, start as usize, &limits, state) {
                Ok(n) => n as i32,
                Err(e) => e.code(),
            }
        })
    })
}

/// Reads client WebSocket frames from input[start..end], resuming from the state in the table. A
/// negative result (an error) still leaves the records of the frames before the faulty one.
#[wasm_bindgen]
pub fn ws_decode(start: u32, end: u32, max_frame: u32, options: u32) -> i32 {
    let limits = FrameLimits { max_frame, options };
    INPUT.with_borrow_mut(|input| {
        RESULT.with_borrow_mut(|table| {
            let Some(buf) = input.get_mut(start as usize..end as usize) else {
                return ABI_MISUSE;
            };
            match ws_frame::decode(buf, &limits, table) {
                Ok(n) => n as i32,
                Err(e) => e.code(),
            }
        })
    })
}

/// The WebSocket handshake's accept digest for the key in input[0..len] (base64 is the caller's).
#[wasm_bindgen]
pub fn ws_accept(len: u32) -> i32 {
    INPUT.with_borrow(|input| {
        RESULT.with_borrow_mut(|table| {
            let Some(key) = input.get(..len as usize) else {
                return ABI_MISUSE;
            };
            let digest = websocket::accept::accept_digest(key);
            for (word, bytes) in table.iter_mut().zip(digest.chunks_exact(4)) {
                *word = u32::from_le_bytes(bytes.try_into().expect("4 bytes"));
            }
            digest.len() as i32
        })
    })
}
