//! HPACK (RFC 7541): header compression for HTTP/2, written for wirespeed because the `hpack`
//! crate panics on malformed input (RUSTSEC-2023-0085) and decodes Huffman bit by bit. One concept
//! per file, like hyperium/h2's hpack module. Every malformed input is an `HpackError`, never a
//! panic: this module forbids unsafe code, and tests/hpack fuzzes it through the wasm ABI
//! (codec.test.ts) and checks it against the RFC's examples and the vendored corpus.
#![forbid(unsafe_code)]

pub mod decoder;
pub mod encoder;
pub mod huffman;
pub mod rfc7541;
pub mod table;

pub use decoder::Decoder;
pub use encoder::Encoder;

/// Why a header block was refused. The numbers cross the ABI (negated); src/hpack mirrors them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum HpackError {
    /// The block ends inside a representation (§5.1, §5.2).
    Truncated = 1,
    /// An integer does not fit 32 bits (§5.1).
    IntegerOverflow = 2,
    /// Index 0, or past the end of the static and dynamic tables (§2.3.3).
    InvalidIndex = 3,
    /// Huffman padding longer than 7 bits or not all ones (§5.2).
    HuffmanPadding = 4,
    /// An encoded EOS symbol (§5.2).
    HuffmanEos = 5,
    /// A dynamic table size update above the limit set by SETTINGS_HEADER_TABLE_SIZE (§6.3).
    TableSizeTooLarge = 6,
    /// A dynamic table size update after a field representation (§4.2).
    TableSizeUpdateMisplaced = 7,
    /// The limit went down and the block did not start with a size update (§4.2).
    TableSizeUpdateMissing = 8,
    /// The decoded list is over the maximum header list size (§4.1 accounting).
    HeaderListTooLarge = 9,
    /// More decoded fields than allowed.
    TooManyFields = 10,
}

impl HpackError {
    pub fn code(self) -> i32 {
        -(self as i32)
    }
}
