//! The message head: start line + field lines parsed by httparse, then the RFC 9112 rules httparse
//! leaves to its caller: strict CRLF, target bytes, version errors, and the framing semantics of
//! Content-Length / Transfer-Encoding / Connection / Upgrade / Expect (§6, §9).
//!
//! The result is written as u32 words into `out` (layout in [`slot`]); every string is an
//! (offset, length) pair relative to the start of the message, so nothing is copied or allocated.

use core::mem::MaybeUninit;
use httparse::{Header, Status};

use super::field_lines;
use super::fields::{
    ends_with_crlf, is_token, list_contains, list_elements, offset_in, parse_content_length,
};
use super::ParseError;
use crate::scan::find_lf;

/// Upper bound of `max_headers`: the header array lives on the stack (32 B per entry).
pub const MAX_HEADERS_LIMIT: usize = 1024;

/// Word offsets of the head record.
pub mod slot {
    /// Bit set of `FLAG_*`.
    pub const FLAGS: usize = 0;
    pub const VERSION_MINOR: usize = 1;
    /// One of `BODY_*`.
    pub const BODY: usize = 2;
    /// Content-Length (when BODY is BODY_LENGTH) as two 32-bit halves.
    pub const LENGTH_LO: usize = 3;
    pub const LENGTH_HI: usize = 4;
    /// Requests: method. Responses: reason phrase.
    pub const A_OFF: usize = 5;
    pub const A_LEN: usize = 6;
    /// Requests: request-target. Responses: B_OFF holds the status code, B_LEN is 0.
    pub const B_OFF: usize = 7;
    pub const B_LEN: usize = 8;
    pub const FIELD_COUNT: usize = 9;
    /// FIELD_COUNT records of (name_off, name_len, value_off, value_len).
    pub const FIELDS: usize = 10;
}

pub const FLAG_KEEP_ALIVE: u32 = 1;
pub const FLAG_UPGRADE: u32 = 2;
pub const FLAG_EXPECT_CONTINUE: u32 = 4;
/// Set (when OPT_REPORT_ASCII asked for it) if every byte of the head is ASCII.
pub const FLAG_ASCII: u32 = 8;

pub const BODY_NONE: u32 = 0;
pub const BODY_LENGTH: u32 = 1;
pub const BODY_CHUNKED: u32 = 2;
pub const BODY_UNTIL_CLOSE: u32 = 3;

/// Option bits passed by the caller.
pub const OPT_RESPONSE: u32 = 1;
/// Responses: the request was HEAD, so there is no body whatever the fields say.
pub const OPT_REQUEST_HEAD: u32 = 2;
/// Responses: the request was CONNECT, so a 2xx response opens a tunnel.
pub const OPT_REQUEST_CONNECT: u32 = 4;
/// Lenient: accept a bare LF as a line ending (RFC 9112 §2.2 allows recipients to).
pub const OPT_ALLOW_BARE_LF: u32 = 8;
/// Lenient: accept obs-fold in responses (RFC 9112 §5.2 allows a user agent to).
pub const OPT_ALLOW_OBS_FOLD: u32 = 16;
/// Report FLAG_ASCII: callers without a byte-exact latin1 decoder use it to pick a fast one.
pub const OPT_REPORT_ASCII: u32 = 32;

pub struct HeadOptions {
    pub max_headers: usize,
    pub max_head_bytes: usize,
    pub max_target_bytes: usize,
    pub flags: u32,
}

/// Which code reads the field lines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FieldReader {
    /// [`field_lines`], 16 bytes at a time: the strict path (a quarter less wasm time per head).
    Scanner,
    /// httparse: the lenient modes, and the reference the scanner is tested against.
    Httparse,
}

/// Parses one head at the start of `buf`. `Ok(Some(n))`: complete, `n` bytes long.
/// `Ok(None)`: more bytes needed.
pub fn parse(buf: &[u8], opts: &HeadOptions, out: &mut [u32]) -> Result<Option<usize>, ParseError> {
    let reader = if opts.flags & (OPT_ALLOW_BARE_LF | OPT_ALLOW_OBS_FOLD) == 0 {
        FieldReader::Scanner
    } else {
        FieldReader::Httparse
    };
    parse_with(reader, buf, opts, out)
}

/// [`parse`] with the field lines read by `reader`.
pub fn parse_with(
    reader: FieldReader,
    buf: &[u8],
    opts: &HeadOptions,
    out: &mut [u32],
) -> Result<Option<usize>, ParseError> {
    if opts.flags & OPT_ALLOW_BARE_LF == 0 {
        check_leading_empty_lines(buf)?;
    }
    let mut storage = [const { MaybeUninit::<Header<'_>>::uninit() }; MAX_HEADERS_LIMIT];
    let headers = &mut storage[..opts.max_headers.min(MAX_HEADERS_LIMIT)];
    // The scanner takes over from httparse once the start line has ended.
    let start_line = match reader {
        FieldReader::Scanner => start_line_end(buf),
        FieldReader::Httparse => None,
    };
    let parsed = if opts.flags & OPT_RESPONSE == 0 {
        parse_request(buf, start_line, opts, headers, out)
    } else {
        parse_response(buf, start_line, opts, headers, out)
    }?;
    match parsed {
        Some(n) if n > opts.max_head_bytes => Err(ParseError::HeaderTooLarge),
        Some(n) => {
            if opts.flags & OPT_REPORT_ASCII != 0 && buf[..n].is_ascii() {
                out[slot::FLAGS] |= FLAG_ASCII;
            }
            Ok(Some(n))
        }
        None if buf.len() > opts.max_head_bytes => Err(too_large(buf, opts)),
        None => Ok(None),
    }
}

/// Empty lines before the start line must be CRLF (RFC 9112 §2.2): fail on a bare LF at once
/// rather than wait for a start line that can never be valid.
fn check_leading_empty_lines(buf: &[u8]) -> Result<(), ParseError> {
    let mut rest = buf;
    loop {
        match rest {
            [b'\r', b'\n', tail @ ..] => rest = tail,
            // A bare LF, or a CR followed by anything but LF.
            [b'\n', ..] | [b'\r', _, ..] => return Err(ParseError::InvalidNewline),
            _ => return Ok(()),
        }
    }
}

/// The position of the LF that ends the start line, once there is one. Leading empty lines (RFC 9112
/// §2.2) are skipped: on the strict path they were checked to be CRLF.
fn start_line_end(buf: &[u8]) -> Option<usize> {
    let mut from = 0;
    while buf[from..].starts_with(b"\r\n") {
        from += 2;
    }
    find_lf(&buf[from..]).map(|at| from + at)
}

/// The field lines after a start line httparse has read: by the scanner from `start_line + 1`
/// when given, else those httparse read (`complete`: the head's length). Records go to `out`.
fn read_fields(
    buf: &[u8],
    start_line: Option<usize>,
    complete: Option<usize>,
    headers: &[Header<'_>],
    opts: &HeadOptions,
    out: &mut [u32],
) -> Result<Option<(usize, usize)>, ParseError> {
    let records = &mut out[slot::FIELDS..];
    match (start_line, complete) {
        (Some(lf), _) => {
            let max = opts.max_headers.min(MAX_HEADERS_LIMIT);
            field_lines::read(buf, lf + 1, max, records)
        }
        (None, Some(len)) => {
            write_fields(buf, headers, records);
            Ok(Some((len, headers.len())))
        }
        (None, None) => Ok(None),
    }
}

/// The outcome of httparse on the start line (or, without the scanner, the whole head):
/// `Some(len)` when it read a whole head, `None` when it wants more or stopped after the start line.
fn httparse_status(status: Status<usize>) -> Option<usize> {
    match status {
        Status::Complete(n) => Some(n),
        Status::Partial => None,
    }
}

fn too_large(buf: &[u8], opts: &HeadOptions) -> ParseError {
    let request_line_open = !buf.contains(&b'\n');
    if opts.flags & OPT_RESPONSE == 0 && request_line_open {
        ParseError::UriTooLong
    } else {
        ParseError::HeaderTooLarge
    }
}

fn parse_request<'b>(
    buf: &'b [u8],
    start_line: Option<usize>,
    opts: &HeadOptions,
    headers: &mut [MaybeUninit<Header<'b>>],
    out: &mut [u32],
) -> Result<Option<usize>, ParseError> {
    let mut req = httparse::Request::new(&mut []);
    // Given the start line alone, httparse answers Partial with method, path and version filled
    // in (documented on `Request`: a partial parse fills each field it could parse).
    let parsed = match start_line {
        Some(lf) => req.parse_with_uninit_headers(&buf[..=lf], &mut []),
        None => req.parse_with_uninit_headers(buf, headers),
    };
    let complete = match parsed {
        Ok(status) => httparse_status(status),
        Err(httparse::Error::Version) => return version_error(buf, 2),
        Err(e) => return Err(request_error(e, buf)),
    };
    let Some((len, count)) = read_fields(buf, start_line, complete, req.headers, opts, out)? else {
        return Ok(None);
    };
    let (Some(method), Some(target), Some(minor)) = (req.method, req.path, req.version) else {
        return Err(ParseError::InvalidMethod);
    };
    let method = method.as_bytes();
    let target = target.as_bytes();
    // RFC 3986 §2: a backslash is no URI character. A WHATWG URL parser reads it as '/' in an
    // http(s) URL, so `/x\..\admin` would reach the app as `/admin` past a proxy that saw no dot
    // segment in it: refused (as @hono/node-server does), not normalised. RFC 9112 §3.2: a target
    // has no fragment, and a URL parser would cut one off, so `/admin/delete#x` would reach the
    // app as `/admin/delete` past a proxy rule that matched the whole path: refused too.
    if !target.is_ascii()
        || target.iter().any(|&b| b == b'\\' || b == b'#')
        || !valid_target_form(method, target)
    {
        return Err(ParseError::InvalidTarget);
    }
    if target.len() > opts.max_target_bytes {
        return Err(ParseError::UriTooLong);
    }
    let start = offset_in(buf, method);
    let line_end = offset_in(buf, target) + target.len() + " HTTP/1.1".len();
    let lines = Lines {
        start,
        line_end,
        len,
        start_line,
        count,
    };
    let framing = lines.framing(buf, opts, out, minor)?;
    let connect = method == b"CONNECT";
    let body = match framing.body_request()? {
        _ if connect => BODY_NONE,
        b => b,
    };
    let mut flags = framing.connection_flags(minor);
    if connect {
        flags |= FLAG_UPGRADE;
    }

    out[slot::A_OFF] = start as u32;
    out[slot::A_LEN] = method.len() as u32;
    out[slot::B_OFF] = offset_in(buf, target) as u32;
    out[slot::B_LEN] = target.len() as u32;
    write_common(out, flags, minor, body, framing.length, count);
    Ok(Some(len))
}

/// The reason phrase of a status line whose code ends at `code_end`, as (offset, length): from
/// after the code's space to the line's CR (or bare LF, when lenient). httparse checked its bytes.
fn reason_after_code(buf: &[u8], code_end: usize) -> (usize, usize) {
    let lf = find_lf(&buf[code_end..]).map_or(buf.len(), |at| code_end + at);
    let end = if lf > code_end && buf[lf - 1] == b'\r' {
        lf - 1
    } else {
        lf
    };
    let off = if buf.get(code_end) == Some(&b' ') {
        code_end + 1
    } else {
        code_end
    };
    (off, end.saturating_sub(off))
}

fn parse_response<'b>(
    buf: &'b [u8],
    start_line: Option<usize>,
    opts: &HeadOptions,
    headers: &mut [MaybeUninit<Header<'b>>],
    out: &mut [u32],
) -> Result<Option<usize>, ParseError> {
    let mut config = httparse::ParserConfig::default();
    config.allow_obsolete_multiline_headers_in_responses(opts.flags & OPT_ALLOW_OBS_FOLD != 0);
    let mut res = httparse::Response::new(&mut []);
    let parsed = match start_line {
        Some(lf) => config.parse_response_with_uninit_headers(&mut res, &buf[..=lf], &mut []),
        None => config.parse_response_with_uninit_headers(&mut res, buf, headers),
    };
    let complete = match parsed {
        Ok(status) => httparse_status(status),
        Err(httparse::Error::Version) => return version_error(buf, 0),
        Err(e) => return Err(response_error(e)),
    };
    let Some((len, count)) = read_fields(buf, start_line, complete, res.headers, opts, out)? else {
        return Ok(None);
    };
    let (Some(minor), Some(code), Some(reason)) = (res.version, res.code, res.reason) else {
        return Err(ParseError::InvalidStatus);
    };
    if code < 100 {
        return Err(ParseError::InvalidStatus);
    }
    let start = buf.iter().position(|&b| b == b'H').unwrap_or(0);
    // An empty reason from httparse may not point into `buf`: it gives "" both for no reason and
    // for one with obs-text, which RFC 9112 §4 allows (it hands out only text it knows is UTF-8).
    let (reason_off, reason_len) = if reason.is_empty() {
        reason_after_code(buf, start + "HTTP/1.1 200".len())
    } else {
        (offset_in(buf, reason.as_bytes()), reason.len())
    };
    let line_end = reason_off + reason_len;
    let lines = Lines {
        start,
        line_end,
        len,
        start_line,
        count,
    };
    let framing = lines.framing(buf, opts, out, minor)?;
    let tunnel = opts.flags & OPT_REQUEST_CONNECT != 0 && (200..300).contains(&code);
    let mut flags = framing.connection_flags(minor);
    let body = if opts.flags & OPT_REQUEST_HEAD != 0
        || (100..200).contains(&code)
        || code == 204
        || code == 304
        || tunnel
    {
        BODY_NONE
    } else {
        framing.body_response()?
    };
    if code == 101 || tunnel {
        flags |= FLAG_UPGRADE;
    } else {
        flags &= !FLAG_UPGRADE;
    }
    if body == BODY_UNTIL_CLOSE {
        flags &= !FLAG_KEEP_ALIVE;
    }

    out[slot::A_OFF] = reason_off as u32;
    out[slot::A_LEN] = reason_len as u32;
    out[slot::B_OFF] = u32::from(code);
    out[slot::B_LEN] = 0;
    write_common(out, flags, minor, body, framing.length, count);
    Ok(Some(len))
}

/// RFC 9112 §3.2: origin-form (`/path`), absolute-form (`scheme:...`), authority-form
/// (`host:port`, CONNECT only) or asterisk-form (`*`, OPTIONS only).
fn valid_target_form(method: &[u8], target: &[u8]) -> bool {
    if method == b"CONNECT" {
        let port = target.rsplit(|&b| b == b':').next().unwrap_or_default();
        return target.len() > port.len() + 1
            && !port.is_empty()
            && port.iter().all(u8::is_ascii_digit)
            && !target.contains(&b'/');
    }
    match target {
        [b'/', ..] => true,
        b"*" => method == b"OPTIONS",
        [first, rest @ ..] if first.is_ascii_alphabetic() => {
            let scheme_len = rest
                .iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')));
            scheme_len.is_some_and(|n| rest[n] == b':')
        }
        _ => false,
    }
}

/// The record's words besides the start line; the field records are already written.
fn write_common(out: &mut [u32], flags: u32, minor: u8, body: u32, length: u64, count: usize) {
    out[slot::FLAGS] = flags;
    out[slot::VERSION_MINOR] = u32::from(minor);
    out[slot::BODY] = body;
    out[slot::LENGTH_LO] = length as u32;
    out[slot::LENGTH_HI] = (length >> 32) as u32;
    out[slot::FIELD_COUNT] = count as u32;
}

/// Writes (name_off, name_len, value_off, value_len) per field.
pub fn write_fields(buf: &[u8], headers: &[Header<'_>], out: &mut [u32]) {
    for (h, rec) in headers.iter().zip(out.chunks_exact_mut(4)) {
        rec[0] = offset_in(buf, h.name.as_bytes()) as u32;
        rec[1] = h.name.len() as u32;
        rec[2] = offset_in(buf, h.value) as u32;
        rec[3] = h.value.len() as u32;
    }
}

/// Every line of the head ends in CRLF: the start line, each field line and the empty line. Also
/// any empty lines skipped before the start line (RFC 9112 §2.2) must be CRLF.
fn check_crlf<'a>(
    buf: &'a [u8],
    start: usize,
    line_end: usize,
    len: usize,
    mut fields: impl Iterator<Item = (&'a [u8], &'a [u8])>,
) -> Result<(), ParseError> {
    let leading_ok = buf[..start].chunks(2).all(|pair| pair == b"\r\n");
    let fields_ok =
        fields.all(|(_, value)| ends_with_crlf(buf, offset_in(buf, value) + value.len()));
    if leading_ok && fields_ok && ends_with_crlf(buf, line_end) && len >= 2 && buf[len - 2] == b'\r'
    {
        Ok(())
    } else {
        Err(ParseError::InvalidNewline)
    }
}

/// Where a parsed head's lines are: the start line from `start` to `line_end`, the whole head `len`
/// bytes, and `count` field records in the table (read by the scanner when `start_line` is set).
struct Lines {
    start: usize,
    line_end: usize,
    len: usize,
    start_line: Option<usize>,
    count: usize,
}

impl Lines {
    /// Checks the CRLF rule (strict mode), then reads the framing fields.
    fn framing(
        &self,
        buf: &[u8],
        opts: &HeadOptions,
        out: &[u32],
        minor: u8,
    ) -> Result<Framing, ParseError> {
        let records = &out[slot::FIELDS..];
        if opts.flags & OPT_ALLOW_BARE_LF == 0 {
            // The scanner refused any bare LF already; httparse accepts them.
            let unchecked = if self.start_line.is_some() {
                0
            } else {
                self.count
            };
            let fields = field_lines::pairs(buf, records, unchecked);
            check_crlf(buf, self.start, self.line_end, self.len, fields)?;
        }
        Framing::read(field_lines::pairs(buf, records, self.count), minor)
    }
}

fn request_error(e: httparse::Error, buf: &[u8]) -> ParseError {
    use httparse::Error as E;
    match e {
        E::HeaderName | E::HeaderValue => ParseError::InvalidHeader,
        E::NewLine => ParseError::InvalidNewline,
        E::TooManyHeaders => ParseError::TooManyHeaders,
        E::Version => ParseError::InvalidVersion,
        E::Token => {
            // Past the empty lines a request may start with (RFC 9112 §2.2), not past spaces: a
            // line that starts with one has an empty method.
            let first = buf.iter().position(|&b| b != b'\r' && b != b'\n');
            let line = &buf[first.unwrap_or(buf.len())..];
            let method = line.split(|&b| b == b' ').next().unwrap_or_default();
            if is_token(method) && line.len() > method.len() {
                ParseError::InvalidTarget
            } else {
                ParseError::InvalidMethod
            }
        }
        E::Status => ParseError::InvalidStatus,
    }
}

fn response_error(e: httparse::Error) -> ParseError {
    use httparse::Error as E;
    match e {
        E::HeaderName | E::HeaderValue => ParseError::InvalidHeader,
        E::NewLine => ParseError::InvalidNewline,
        E::TooManyHeaders => ParseError::TooManyHeaders,
        E::Version => ParseError::InvalidVersion,
        E::Token | E::Status => ParseError::InvalidStatus,
    }
}

/// Classifies a version httparse refused. The version is token `index` of the start line (0 in a
/// status line, 2 in a request line). `HTTP/DIGIT.DIGIT` is well-formed but not spoken: 505.
/// Anything else is malformed: 400. A well-formed prefix in an unfinished line needs more bytes, so
/// that the verdict does not depend on where the input was split.
fn version_error(buf: &[u8], index: usize) -> Result<Option<usize>, ParseError> {
    const SHAPE: &[u8; 8] = b"HTTP/0.0";
    let start = buf
        .iter()
        .position(|&b| b != b'\r' && b != b'\n')
        .unwrap_or(buf.len());
    let rest = &buf[start..];
    let line_end = rest.iter().position(|&b| b == b'\r' || b == b'\n');
    let line = &rest[..line_end.unwrap_or(rest.len())];
    let token = line.split(|&b| b == b' ').nth(index).unwrap_or_default();
    let fits = token.len() <= SHAPE.len()
        && token.iter().zip(SHAPE).all(|(&b, &s)| {
            if s == b'0' {
                b.is_ascii_digit()
            } else {
                b == s
            }
        });
    match (fits, token.len() == SHAPE.len()) {
        (true, true) => Err(ParseError::UnsupportedVersion),
        (true, false) if line_end.is_none() => Ok(None),
        _ => Err(ParseError::InvalidVersion),
    }
}

/// The framing-relevant fields of one head.
struct Framing {
    length: u64,
    has_length: bool,
    /// Transfer-Encoding seen; `chunked_last` and `other_codings` describe its codings.
    has_te: bool,
    chunked_count: u32,
    chunked_last: bool,
    other_codings: bool,
    te_malformed: bool,
    close: bool,
    keep_alive: bool,
    upgrade_token: bool,
    has_upgrade: bool,
    expect_continue: bool,
}

impl Framing {
    fn read<'a>(
        fields: impl Iterator<Item = (&'a [u8], &'a [u8])>,
        minor: u8,
    ) -> Result<Self, ParseError> {
        let mut f = Framing {
            length: 0,
            has_length: false,
            has_te: false,
            chunked_count: 0,
            chunked_last: false,
            other_codings: false,
            te_malformed: false,
            close: false,
            keep_alive: false,
            upgrade_token: false,
            has_upgrade: false,
            expect_continue: false,
        };
        for (name, value) in fields {
            match name.len() {
                14 if name.eq_ignore_ascii_case(b"content-length") => {
                    // Duplicates are refused even when equal: a smuggling vector for no benefit.
                    if f.has_length {
                        return Err(ParseError::InvalidContentLength);
                    }
                    f.length =
                        parse_content_length(value).ok_or(ParseError::InvalidContentLength)?;
                    f.has_length = true;
                }
                17 if name.eq_ignore_ascii_case(b"transfer-encoding") => f.add_codings(value),
                10 if name.eq_ignore_ascii_case(b"connection") => {
                    for token in list_elements(value) {
                        f.close |= token.eq_ignore_ascii_case(b"close");
                        f.keep_alive |= token.eq_ignore_ascii_case(b"keep-alive");
                        f.upgrade_token |= token.eq_ignore_ascii_case(b"upgrade");
                    }
                }
                7 if name.eq_ignore_ascii_case(b"upgrade") => f.has_upgrade = true,
                6 if name.eq_ignore_ascii_case(b"expect") => {
                    f.expect_continue |= list_contains(value, b"100-continue");
                }
                _ => {}
            }
        }
        if f.has_te && f.has_length {
            return Err(ParseError::ClTeConflict);
        }
        if f.has_te && (f.te_malformed || minor == 0) {
            return Err(ParseError::InvalidTransferEncoding);
        }
        Ok(f)
    }

    fn add_codings(&mut self, value: &[u8]) {
        self.has_te = true;
        let mut any = false;
        for element in list_elements(value) {
            any = true;
            let coding = element.split(|&b| b == b';').next().unwrap_or_default();
            let coding = coding.trim_ascii_end();
            if !is_token(coding) {
                self.te_malformed = true;
            }
            // A coding after chunked means chunked is no longer last.
            if self.chunked_last {
                self.other_codings = true;
            }
            self.chunked_last = coding.eq_ignore_ascii_case(b"chunked");
            if self.chunked_last {
                self.chunked_count += 1;
            } else {
                self.other_codings = true;
            }
        }
        if !any {
            self.te_malformed = true;
        }
    }

    /// RFC 9112 §6.3 for requests: chunked must be the final (and only understood) coding.
    fn body_request(&self) -> Result<u32, ParseError> {
        if self.has_te {
            if !self.chunked_last || self.chunked_count > 1 {
                return Err(ParseError::InvalidTransferEncoding);
            }
            if self.other_codings {
                return Err(ParseError::UnsupportedTransferEncoding);
            }
            return Ok(BODY_CHUNKED);
        }
        Ok(if self.has_length {
            BODY_LENGTH
        } else {
            BODY_NONE
        })
    }

    /// RFC 9112 §6.3 for responses: chunked last → chunked; other codings → read until close.
    /// Chunked twice (§7: a sender MUST NOT apply it more than once) leaves the framing in doubt:
    /// decoded once, the body is still chunked, and a client waiting for the close would hang on
    /// a server that keeps the connection. An error, as for requests (llhttp decodes it once).
    fn body_response(&self) -> Result<u32, ParseError> {
        Ok(if self.has_te {
            if self.chunked_count > 1 {
                return Err(ParseError::InvalidTransferEncoding);
            }
            if self.chunked_last {
                BODY_CHUNKED
            } else {
                BODY_UNTIL_CLOSE
            }
        } else if self.has_length {
            BODY_LENGTH
        } else {
            BODY_UNTIL_CLOSE
        })
    }

    fn connection_flags(&self, minor: u8) -> u32 {
        let keep_alive = if minor == 0 {
            self.keep_alive && !self.close
        } else {
            !self.close
        };
        let mut flags = if keep_alive { FLAG_KEEP_ALIVE } else { 0 };
        if self.has_upgrade && self.upgrade_token {
            flags |= FLAG_UPGRADE;
        }
        if self.expect_continue {
            flags |= FLAG_EXPECT_CONTINUE;
        }
        flags
    }
}
