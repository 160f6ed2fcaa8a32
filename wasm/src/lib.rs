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
//! ```
//!
//! This module is the only one that is not `#![forbid(unsafe_code)]`: `#[wasm_bindgen]` expands
//! to unsafe glue. It holds no `unsafe` of its own. The buffers are owned by thread-locals (wasm
//! is single-threaded here); JS writes into the input buffer only between calls, while no Rust
//! reference to it is alive.

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;

pub mod http1;

use http1::chunked::{self, ChunkedLimits};
use http1::head::{self, HeadOptions, MAX_HEADERS_LIMIT};

/// Words in the result table: big enough for a head with MAX_HEADERS_LIMIT fields and for a
/// chunked record with its spans and trailers.
pub const RESULT_WORDS: usize = head::slot::FIELDS + 4 * MAX_HEADERS_LIMIT;
const _: () = assert!(chunked::slot::TRAILERS + 4 * chunked::MAX_TRAILERS <= RESULT_WORDS);

/// Returned when a caller passes a range outside the input buffer: a bug on the JS side.
pub const ABI_MISUSE: i32 = -1000;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = RefCell::new(vec![0; 64 * 1024]);
    static RESULT: RefCell<Box<[u32]>> = RefCell::new(vec![0; RESULT_WORDS].into_boxed_slice());
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
