//! Field-value helpers shared by the head and trailer parsers: comma-separated lists of tokens
//! (RFC 9110 §5.6.1), tokens (§5.6.2) and the line-ending check that httparse leaves to us.

pub use crate::token::{is_tchar, is_token};

fn trim_ows(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// The non-empty elements of a `#list` field value, trimmed of optional whitespace.
pub fn list_elements(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    value
        .split(|&b| b == b',')
        .map(trim_ows)
        .filter(|e| !e.is_empty())
}

/// True when the list value contains `token`, compared case-insensitively.
pub fn list_contains(value: &[u8], token: &[u8]) -> bool {
    list_elements(value).any(|e| e.eq_ignore_ascii_case(token))
}

/// True when the byte at `at` (after optional trailing whitespace that httparse trimmed from the
/// value) starts a CRLF: httparse accepts a bare LF as a line ending, RFC 9112 §2.2 does not.
pub fn ends_with_crlf(buf: &[u8], mut at: usize) -> bool {
    while at < buf.len() && (buf[at] == b' ' || buf[at] == b'\t') {
        at += 1;
    }
    buf.get(at) == Some(&b'\r')
}

/// Byte offset of `part` (a sub-slice of `buf`) from the start of `buf`.
pub fn offset_in(buf: &[u8], part: &[u8]) -> usize {
    part.as_ptr() as usize - buf.as_ptr() as usize
}

/// Parses a Content-Length value: 1*DIGIT, at most 2^53-1 so that JavaScript holds it exactly.
pub fn parse_content_length(value: &[u8]) -> Option<u64> {
    const MAX_SAFE: u64 = (1 << 53) - 1;
    if value.is_empty() || value.len() > 16 {
        return None;
    }
    let mut n: u64 = 0;
    for &b in value {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u64::from(b - b'0');
    }
    (n <= MAX_SAFE).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists() {
        let v: Vec<&[u8]> = list_elements(b" a ,, b\t,c ").collect();
        assert_eq!(v, vec![&b"a"[..], b"b", b"c"]);
        assert!(list_contains(b"Keep-Alive, Upgrade", b"upgrade"));
        assert!(!list_contains(b"upgrades", b"upgrade"));
    }

    #[test]
    fn content_length() {
        assert_eq!(parse_content_length(b"0"), Some(0));
        assert_eq!(
            parse_content_length(b"9007199254740991"),
            Some(9007199254740991)
        );
        assert_eq!(parse_content_length(b"9007199254740992"), None);
        assert_eq!(parse_content_length(b"99999999999999999999"), None);
        for bad in [&b""[..], b"+5", b"-1", b"1,2", b"1 2", b"0x10", b"5 "] {
            assert_eq!(parse_content_length(bad), None, "{:?}", bad);
        }
    }
}
