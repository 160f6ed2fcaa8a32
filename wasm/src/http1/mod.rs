//! HTTP/1.1 message parsing (RFC 9112) on top of `httparse`: the head with its framing semantics,
//! and the chunked transfer coding. Everything here is safe Rust over byte slices; the ABI layer in
//! `lib.rs` is the only code that knows about wasm memory.
#![forbid(unsafe_code)]

pub mod chunked;
pub mod error;
pub mod field_lines;
pub mod fields;
pub mod head;

pub use error::ParseError;
