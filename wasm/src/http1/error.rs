//! Stable parse error codes. The numbers cross the ABI (as negative return values); the TypeScript
//! side maps each to the string code of `HttpParseError` (src/http1/errors.ts mirrors this list).

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum ParseError {
    /// The method is not an RFC 9110 §9.1 token.
    InvalidMethod = 1,
    /// The request-target has a byte outside RFC 3986 (controls, space, non-ASCII).
    InvalidTarget = 2,
    /// The HTTP-version is not `HTTP/DIGIT.DIGIT` (RFC 9112 §2.3).
    InvalidVersion = 3,
    /// A well-formed version other than HTTP/1.0 or HTTP/1.1 (answered with 505).
    UnsupportedVersion = 4,
    /// A field line is malformed: bad name, bad value byte, space before the colon, obs-fold.
    InvalidHeader = 5,
    /// A line ends in a bare LF or a bare CR (RFC 9112 §2.2).
    InvalidNewline = 6,
    /// More field lines than the configured maximum.
    TooManyHeaders = 7,
    /// The head (or trailer section) is larger than the configured maximum.
    HeaderTooLarge = 8,
    /// The request-target is longer than the configured maximum (answered with 414).
    UriTooLong = 9,
    /// Content-Length is not 1*DIGIT, differs between lines, or overflows 2^53-1.
    InvalidContentLength = 10,
    /// Both Content-Length and Transfer-Encoding (RFC 9112 §6.3, request smuggling).
    ClTeConflict = 11,
    /// Transfer-Encoding is malformed, chunked is not last (requests) or appears twice, or is
    /// sent by an HTTP/1.0 client (RFC 9112 §6.1).
    InvalidTransferEncoding = 12,
    /// A transfer coding other than chunked in a request (answered with 501).
    UnsupportedTransferEncoding = 13,
    /// The status code is not three digits in 100..=999.
    InvalidStatus = 14,
    /// A chunk size that is not hex, is empty, or overflows 2^53-1.
    InvalidChunkSize = 15,
    /// A chunk extension that breaks RFC 9112 §7.1.1 syntax.
    InvalidChunkExtension = 16,
    /// A chunk extension longer than the configured maximum.
    ChunkExtensionTooLarge = 17,
    /// Chunk data not followed by CRLF.
    InvalidChunkData = 18,
    /// A malformed trailer section.
    InvalidTrailer = 19,
}

impl ParseError {
    pub fn code(self) -> i32 {
        -(self as i32)
    }
}
