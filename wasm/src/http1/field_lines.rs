//! The field lines of a head (RFC 9112 §5) on the strict path, read with the vector scans of
//! [`crate::scan`]: httparse still reads the start line, and reads the fields in the lenient modes.
//!
//! It accepts what httparse followed by the CRLF check accepts, with the same error for the same
//! fault (the differential test in `tests/http1.rs` holds both to it), except that a bare LF fails
//! at once: httparse accepts it and the CRLF check refused it only once the head was complete.

use super::ParseError;
use crate::scan::{token_run, value_run};

/// Reads field lines from `buf[at..]` through the empty line, writing a (name_off, name_len,
/// value_off, value_len) record per field into `records`. `Ok(Some((len, count)))`: the head is
/// `buf[..len]` with `count` fields. `Ok(None)`: more bytes needed.
pub fn read(
    buf: &[u8],
    mut at: usize,
    max_fields: usize,
    records: &mut [u32],
) -> Result<Option<(usize, usize)>, ParseError> {
    let mut count = 0;
    loop {
        match buf.get(at) {
            None => return Ok(None),
            Some(b'\r') => {
                return match buf.get(at + 1) {
                    None => Ok(None),
                    Some(b'\n') => Ok(Some((at + 2, count))),
                    Some(_) => Err(ParseError::InvalidNewline),
                }
            }
            Some(b'\n') => return Err(ParseError::InvalidNewline),
            Some(_) => {}
        }
        let name_end = at + token_run(&buf[at..]);
        match buf.get(name_end) {
            None => return Ok(None),
            Some(b':') if name_end > at => {}
            // No name, or a byte outside tchar (a space before the colon, obs-fold).
            Some(_) => return Err(ParseError::InvalidHeader),
        }
        let mut value = name_end + 1;
        while let Some(b' ' | b'\t') = buf.get(value) {
            value += 1;
        }
        let line_end = value + value_run(&buf[value..]);
        match (buf.get(line_end), buf.get(line_end + 1)) {
            (None, _) | (Some(b'\r'), None) => return Ok(None),
            (Some(b'\r'), Some(b'\n')) => {}
            (Some(b'\n'), _) => return Err(ParseError::InvalidNewline),
            // A CR not followed by LF, or a control byte in the value.
            _ => return Err(ParseError::InvalidHeader),
        }
        // The value leaves out trailing whitespace (RFC 9112 §5.1).
        let mut value_end = line_end;
        while value_end > value && matches!(buf[value_end - 1], b' ' | b'\t') {
            value_end -= 1;
        }
        // As httparse: the limit counts whole field lines, so a fault in the line comes first.
        if count == max_fields {
            return Err(ParseError::TooManyHeaders);
        }
        let record = &mut records[4 * count..4 * count + 4];
        record[0] = at as u32;
        record[1] = (name_end - at) as u32;
        record[2] = value as u32;
        record[3] = (value_end - value) as u32;
        count += 1;
        at = line_end + 2;
    }
}

/// The (name, value) pairs of `count` records written by [`read`] (or `write_fields`).
pub fn pairs<'a>(
    buf: &'a [u8],
    records: &'a [u32],
    count: usize,
) -> impl Iterator<Item = (&'a [u8], &'a [u8])> {
    records[..4 * count].chunks_exact(4).map(move |r| {
        let (name, value) = (r[0] as usize, r[2] as usize);
        (
            &buf[name..name + r[1] as usize],
            &buf[value..value + r[3] as usize],
        )
    })
}
