//! WebSocket (RFC 6455) as the server reads it: frame headers checked and payloads unmasked in
//! place, many frames per call (`frame`), and the handshake's accept value (`accept`). Everything
//! here is safe Rust over byte slices; `lib.rs` is the only code that knows about wasm memory.
#![forbid(unsafe_code)]

pub mod accept;
pub mod error;
pub mod frame;

pub use error::FrameError;
