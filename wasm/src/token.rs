//! Tokens (RFC 9110 §5.6.2), shared by the HTTP/1.1 parser and the HPACK encoder.

/// RFC 9110 §5.6.2 `tchar`.
pub const fn is_tchar(b: u8) -> bool {
    matches!(b,
        b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' |
        b'!' | b'#' | b'$' | b'%' | b'&' | b'\'' | b'*' | b'+' |
        b'-' | b'.' | b'^' | b'_' | b'`' | b'|' | b'~')
}

/// RFC 9110 §5.6.2 `token`: one or more `tchar`.
pub fn is_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&b| is_tchar(b))
}
