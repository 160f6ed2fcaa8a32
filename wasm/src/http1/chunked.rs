//! The chunked transfer coding (RFC 9112 §7.1) as a resumable state machine. The state lives with
//! the caller (three numbers), so one wasm instance serves any number of connections and input may
//! arrive one byte at a time. Each call reports the data spans it found and, at the end, the
//! trailer fields; it never copies body bytes.

use httparse::{Header, Status, EMPTY_HEADER};

use super::fields::{ends_with_crlf, is_tchar, offset_in};
use super::head::write_fields;
use super::ParseError;

/// Word offsets of the chunked record (input state on entry, output state on return).
pub mod slot {
    pub const PHASE: usize = 0;
    /// Remaining data bytes of the current chunk (or the chunk size while reading it).
    pub const SIZE_LO: usize = 1;
    pub const SIZE_HI: usize = 2;
    /// Chunk-extension bytes seen on the current chunk line.
    pub const EXT_BYTES: usize = 3;
    pub const SPAN_COUNT: usize = 4;
    pub const TRAILER_COUNT: usize = 5;
    /// SPAN_COUNT records of (offset, length) into the input buffer.
    pub const SPANS: usize = 8;
    /// TRAILER_COUNT records of (name_off, name_len, value_off, value_len).
    pub const TRAILERS: usize = SPANS + 2 * super::MAX_SPANS;
}

pub const MAX_SPANS: usize = 64;
pub const MAX_TRAILERS: usize = 64;

pub mod phase {
    pub const SIZE_START: u32 = 0;
    pub const SIZE: u32 = 1;
    pub const EXT_BWS: u32 = 2;
    pub const EXT_NAME_START: u32 = 3;
    pub const EXT_NAME: u32 = 4;
    pub const EXT_AFTER_NAME: u32 = 5;
    pub const EXT_VALUE_START: u32 = 6;
    pub const EXT_VALUE: u32 = 7;
    pub const EXT_QUOTED: u32 = 8;
    pub const EXT_QUOTED_ESCAPE: u32 = 9;
    pub const SIZE_LF: u32 = 10;
    pub const DATA: u32 = 11;
    pub const DATA_CR: u32 = 12;
    pub const DATA_LF: u32 = 13;
    pub const TRAILERS: u32 = 14;
    pub const DONE: u32 = 15;
    /// Whitespace after the size: only BWS and then ";" may follow (RFC 9112 §7.1.1).
    pub const SIZE_BWS: u32 = 16;
}

pub struct ChunkedLimits {
    pub max_extension_bytes: u32,
    pub max_trailer_bytes: usize,
    pub allow_bare_lf: bool,
}

const MAX_SIZE: u64 = (1 << 53) - 1;
/// The most hex digits a chunk size may have, leading zeros included. The grammar allows any
/// number of zeros (`1*HEXDIG`), but they count against no limit: without a bound a client could
/// send zeros forever, a body that never grows and never ends (Go bounds the whole chunk line at
/// 4 KiB). 16 digits is a 64-bit size written out in full; 2^53 needs 14.
const MAX_SIZE_DIGITS: u32 = 16;

fn hex(b: u8) -> Option<u64> {
    (b as char).to_digit(16).map(u64::from)
}

fn is_qdtext(b: u8) -> bool {
    matches!(b, b'\t' | b' ' | 0x21 | 0x23..=0x5b | 0x5d..=0x7e | 0x80..=0xff)
}

/// All offsets written are into `buf`. Decodes from `buf[start..]` with the state in `state`; returns the bytes consumed (counted
/// from `start`). Stops early when the span table is full, at DONE, or when the trailer section
/// is incomplete (those bytes are left unconsumed for the next call).
pub fn decode(
    buf: &[u8],
    start: usize,
    limits: &ChunkedLimits,
    state: &mut [u32],
) -> Result<usize, ParseError> {
    use phase::*;
    let mut phase = state[slot::PHASE];
    let mut size = u64::from(state[slot::SIZE_LO]) | (u64::from(state[slot::SIZE_HI]) << 32);
    let mut ext = state[slot::EXT_BYTES];
    let mut spans = 0;
    state[slot::TRAILER_COUNT] = 0;
    let mut pos = start;

    while pos < buf.len() && phase != DONE {
        if phase == DATA {
            if spans == MAX_SPANS {
                break;
            }
            let take = size.min((buf.len() - pos) as u64) as usize;
            state[slot::SPANS + 2 * spans] = pos as u32;
            state[slot::SPANS + 2 * spans + 1] = take as u32;
            spans += 1;
            pos += take;
            size -= take as u64;
            if size == 0 {
                phase = DATA_CR;
            }
            continue;
        }
        if phase == TRAILERS {
            match trailers(buf, pos, limits, state)? {
                Some(n) => {
                    pos += n;
                    phase = DONE;
                }
                None => break,
            }
            continue;
        }
        let b = buf[pos];
        pos += 1;
        let in_extension = (EXT_BWS..=EXT_QUOTED_ESCAPE).contains(&phase) || phase == SIZE_BWS;
        if in_extension && b != b'\r' && b != b'\n' {
            ext += 1;
            if ext > limits.max_extension_bytes {
                return Err(ParseError::ChunkExtensionTooLarge);
            }
        }
        phase = match (phase, b) {
            (SIZE_START, _) => {
                size = hex(b).ok_or(ParseError::InvalidChunkSize)?;
                ext = 1; // digits of the size, until an extension starts
                SIZE
            }
            (SIZE, b'\r') => SIZE_LF,
            (SIZE, b'\n') if limits.allow_bare_lf => end_of_size_line(size),
            (SIZE, b'\n') => return Err(ParseError::InvalidNewline),
            (SIZE, b';') => {
                ext = 1;
                EXT_NAME_START
            }
            // chunk-ext = *( BWS ";" ... ): whitespace after the size must lead to an extension.
            // `5 \r\n` is outside the grammar, and llhttp (strict) and node:http reject it.
            (SIZE, b' ' | b'\t') => {
                ext = 1;
                SIZE_BWS
            }
            (SIZE_BWS, b' ' | b'\t') => SIZE_BWS,
            (SIZE_BWS, b';') => EXT_NAME_START,
            (SIZE_BWS, _) => return Err(ParseError::InvalidChunkSize),
            (SIZE, _) => {
                size = size * 16 + hex(b).ok_or(ParseError::InvalidChunkSize)?;
                ext += 1;
                if size > MAX_SIZE || ext > MAX_SIZE_DIGITS {
                    return Err(ParseError::InvalidChunkSize);
                }
                SIZE
            }
            // chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] )
            (EXT_BWS, b' ' | b'\t') => EXT_BWS,
            (EXT_BWS, b';') => EXT_NAME_START,
            (EXT_NAME_START, b' ' | b'\t') => EXT_NAME_START,
            (EXT_NAME_START | EXT_NAME, _) if is_tchar(b) => EXT_NAME,
            (EXT_NAME | EXT_AFTER_NAME, b' ' | b'\t') => EXT_AFTER_NAME,
            (EXT_NAME | EXT_AFTER_NAME, b'=') => EXT_VALUE_START,
            (EXT_NAME | EXT_AFTER_NAME, b';') => EXT_NAME_START,
            (EXT_VALUE_START, b' ' | b'\t') => EXT_VALUE_START,
            (EXT_VALUE_START, b'"') => EXT_QUOTED,
            (EXT_VALUE_START | EXT_VALUE, _) if is_tchar(b) => EXT_VALUE,
            (EXT_VALUE, b' ' | b'\t') => EXT_BWS,
            (EXT_VALUE, b';') => EXT_NAME_START,
            (EXT_QUOTED, b'"') => EXT_BWS,
            (EXT_QUOTED, b'\\') => EXT_QUOTED_ESCAPE,
            (EXT_QUOTED, _) if is_qdtext(b) => EXT_QUOTED,
            (EXT_QUOTED_ESCAPE, _)
                if b == b'\t' || b == b' ' || (0x21..=0xff).contains(&b) && b != 0x7f =>
            {
                EXT_QUOTED
            }
            (EXT_BWS | EXT_NAME | EXT_AFTER_NAME | EXT_VALUE, b'\r') => SIZE_LF,
            (EXT_BWS | EXT_NAME | EXT_AFTER_NAME | EXT_VALUE, b'\n') if limits.allow_bare_lf => {
                end_of_size_line(size)
            }
            (EXT_BWS..=EXT_QUOTED_ESCAPE, b'\n') => return Err(ParseError::InvalidNewline),
            (EXT_BWS..=EXT_QUOTED_ESCAPE, _) => return Err(ParseError::InvalidChunkExtension),
            (SIZE_LF, b'\n') => end_of_size_line(size),
            (SIZE_LF, _) => return Err(ParseError::InvalidNewline),
            (DATA_CR, b'\r') => DATA_LF,
            (DATA_CR, b'\n') if limits.allow_bare_lf => SIZE_START,
            (DATA_CR, _) => return Err(ParseError::InvalidChunkData),
            (DATA_LF, b'\n') => SIZE_START,
            (DATA_LF, _) => return Err(ParseError::InvalidNewline),
            _ => return Err(ParseError::InvalidChunkData),
        };
        if phase == SIZE_START || phase == DATA || phase == TRAILERS {
            ext = 0;
        }
    }

    state[slot::PHASE] = phase;
    state[slot::SIZE_LO] = size as u32;
    state[slot::SIZE_HI] = (size >> 32) as u32;
    state[slot::EXT_BYTES] = ext;
    state[slot::SPAN_COUNT] = spans as u32;
    Ok(pos - start)
}

fn end_of_size_line(size: u64) -> u32 {
    if size == 0 {
        phase::TRAILERS
    } else {
        phase::DATA
    }
}

/// The trailer section (RFC 9112 §7.1.2): field lines and the final empty line.
fn trailers(
    buf: &[u8],
    pos: usize,
    limits: &ChunkedLimits,
    state: &mut [u32],
) -> Result<Option<usize>, ParseError> {
    let section = &buf[pos..];
    let mut headers: [Header<'_>; MAX_TRAILERS] = [EMPTY_HEADER; MAX_TRAILERS];
    match httparse::parse_headers(section, &mut headers) {
        Ok(Status::Complete((n, fields))) => {
            if n > limits.max_trailer_bytes {
                return Err(ParseError::HeaderTooLarge);
            }
            let crlf = fields
                .iter()
                .all(|h| ends_with_crlf(buf, offset_in(buf, h.value) + h.value.len()))
                && n >= 2
                && section[n - 2] == b'\r';
            if !crlf && !limits.allow_bare_lf {
                return Err(ParseError::InvalidNewline);
            }
            state[slot::TRAILER_COUNT] = fields.len() as u32;
            write_fields(buf, fields, &mut state[slot::TRAILERS..]);
            Ok(Some(n))
        }
        Ok(Status::Partial) if section.len() > limits.max_trailer_bytes => {
            Err(ParseError::HeaderTooLarge)
        }
        Ok(Status::Partial) => Ok(None),
        Err(httparse::Error::TooManyHeaders) => Err(ParseError::TooManyHeaders),
        Err(_) => Err(ParseError::InvalidTrailer),
    }
}
