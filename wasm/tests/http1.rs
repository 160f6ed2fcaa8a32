//! Native tests of the parsing core (the same code the wasm build runs). The behavioural suite
//! over the ABI lives in the TypeScript tests; these pin the state machines at the Rust level.

use wirespeed_wasm::http1::chunked::{self, phase, ChunkedLimits};
use wirespeed_wasm::http1::head::{self, slot, HeadOptions, BODY_CHUNKED, BODY_LENGTH};
use wirespeed_wasm::http1::ParseError;
use wirespeed_wasm::RESULT_WORDS;

fn opts(flags: u32) -> HeadOptions {
    HeadOptions {
        max_headers: 100,
        max_head_bytes: 16384,
        max_target_bytes: 8192,
        flags,
    }
}

fn request(bytes: &[u8]) -> (Result<Option<usize>, ParseError>, Vec<u32>) {
    let mut out = vec![0; RESULT_WORDS];
    let r = head::parse(bytes, &opts(0), &mut out);
    (r, out)
}

#[test]
fn simple_get() {
    let req = b"GET /a?b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello";
    let (r, out) = request(req);
    assert_eq!(r, Ok(Some(req.len() - 5)));
    assert_eq!(out[slot::BODY], BODY_LENGTH);
    assert_eq!(out[slot::LENGTH_LO], 5);
    assert_eq!(out[slot::FIELD_COUNT], 2);
    let (off, len) = (out[slot::B_OFF] as usize, out[slot::B_LEN] as usize);
    assert_eq!(&req[off..off + len], b"/a?b");
}

#[test]
fn partial_then_complete_at_every_split() {
    let req = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
    for i in 0..req.len() {
        assert_eq!(request(&req[..i]).0, Ok(None), "split at {i}");
    }
    let (r, out) = request(req);
    assert_eq!(r, Ok(Some(req.len())));
    assert_eq!(out[slot::BODY], BODY_CHUNKED);
}

#[test]
fn strict_rejections() {
    let cases: &[(&[u8], ParseError)] = &[
        (
            b"GET / HTTP/1.1\nHost: x\r\n\r\n",
            ParseError::InvalidNewline,
        ),
        (
            b"GET / HTTP/1.1\r\nHost: x\n\r\n",
            ParseError::InvalidNewline,
        ),
        (
            b"GET / HTTP/1.1\r\nHost : x\r\n\r\n",
            ParseError::InvalidHeader,
        ),
        (
            b"GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n",
            ParseError::InvalidHeader,
        ),
        (b"GET / HTTP/2.0\r\n\r\n", ParseError::UnsupportedVersion),
        (b"GET / HTXP/1.1\r\n\r\n", ParseError::InvalidVersion),
        (b"G@T / HTTP/1.1\r\n\r\n", ParseError::InvalidMethod),
        // A leading space is an empty method, not a bad target (only empty lines may come first).
        (b" GET / HTTP/1.1\r\n\r\n", ParseError::InvalidMethod),
        (b"\r\n GET / HTTP/1.1\r\n\r\n", ParseError::InvalidMethod),
        (b"GET /\x7f HTTP/1.1\r\n\r\n", ParseError::InvalidTarget),
        (b"GET /\xc3\xa9 HTTP/1.1\r\n\r\n", ParseError::InvalidTarget),
        (
            b"GET /x\\..\\admin HTTP/1.1\r\n\r\n",
            ParseError::InvalidTarget,
        ),
        (
            b"GET http://a/x\\y HTTP/1.1\r\n\r\n",
            ParseError::InvalidTarget,
        ),
        (
            b"GET /admin/delete#x HTTP/1.1\r\n\r\n",
            ParseError::InvalidTarget,
        ),
        (b"GET /q?a=#b HTTP/1.1\r\n\r\n", ParseError::InvalidTarget),
        (
            b"GET / HTTP/1.1\r\nContent-Length: +5\r\n\r\n",
            ParseError::InvalidContentLength,
        ),
        (
            b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
            ParseError::InvalidContentLength,
        ),
        (
            b"GET / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
            ParseError::ClTeConflict,
        ),
        (
            b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
            ParseError::InvalidTransferEncoding,
        ),
        (
            b"GET / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            ParseError::UnsupportedTransferEncoding,
        ),
        (
            b"GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            ParseError::InvalidTransferEncoding,
        ),
        (
            b"GET / HTTP/1.1\r\nA: \x00\r\n\r\n",
            ParseError::InvalidHeader,
        ),
    ];
    for (input, code) in cases {
        assert_eq!(
            request(input).0,
            Err(*code),
            "{}",
            String::from_utf8_lossy(input)
        );
    }
}

fn limits() -> ChunkedLimits {
    ChunkedLimits {
        max_extension_bytes: 64,
        max_trailer_bytes: 1024,
        allow_bare_lf: false,
    }
}

/// Feeds `body` to the decoder `step` bytes at a time, as the JS side does (unconsumed bytes are
/// carried over), and returns (data, trailer names).
fn decode_all(body: &[u8], step: usize) -> Result<(Vec<u8>, Vec<Vec<u8>>), ParseError> {
    let mut state = vec![0u32; RESULT_WORDS];
    let (mut data, mut names, mut pending) = (Vec::new(), Vec::new(), Vec::new());
    for piece in body.chunks(step) {
        pending.extend_from_slice(piece);
        loop {
            let n = chunked::decode(&pending, 0, &limits(), &mut state)?;
            for i in 0..state[chunked::slot::SPAN_COUNT] as usize {
                let off = state[chunked::slot::SPANS + 2 * i] as usize;
                let len = state[chunked::slot::SPANS + 2 * i + 1] as usize;
                data.extend_from_slice(&pending[off..off + len]);
            }
            for i in 0..state[chunked::slot::TRAILER_COUNT] as usize {
                let off = state[chunked::slot::TRAILERS + 4 * i] as usize;
                let len = state[chunked::slot::TRAILERS + 4 * i + 1] as usize;
                names.push(pending[off..off + len].to_vec());
            }
            pending.drain(..n);
            if n == 0 || state[chunked::slot::PHASE] == phase::DONE {
                break;
            }
        }
    }
    assert_eq!(
        state[chunked::slot::PHASE],
        phase::DONE,
        "message not complete"
    );
    Ok((data, names))
}

#[test]
fn chunked_any_split() {
    let body = b"5;a=b;c=\"d\\\"e\"\r\nhello\r\n6 ; x\r\n world\r\n0\r\nX-Sum: 1\r\n\r\n";
    for step in 1..body.len() {
        let (data, names) = decode_all(body, step).unwrap();
        assert_eq!(data, b"hello world");
        assert_eq!(names, vec![b"X-Sum".to_vec()]);
    }
}

#[test]
fn chunked_rejections() {
    let cases: &[(&[u8], ParseError)] = &[
        (b"x\r\n", ParseError::InvalidChunkSize),
        (b"\r\n", ParseError::InvalidChunkSize),
        (b"20000000000000\r\n", ParseError::InvalidChunkSize),
        (b"1\nA\r\n0\r\n\r\n", ParseError::InvalidNewline),
        (b"1\r\nA\n0\r\n\r\n", ParseError::InvalidChunkData),
        (b"1\r\nAB\r\n", ParseError::InvalidChunkData),
        (b"1;\x01\r\n", ParseError::InvalidChunkExtension),
        (b"1;=x\r\n", ParseError::InvalidChunkExtension),
        (b"0\r\nA: b\n\r\n", ParseError::InvalidNewline),
        // BWS is allowed only before ";" (RFC 9112 §7.1.1): whitespace alone after the size is not.
        (b"5 \r\nhello\r\n0\r\n\r\n", ParseError::InvalidChunkSize),
        (b"5\t\r\nhello\r\n0\r\n\r\n", ParseError::InvalidChunkSize),
        (b"5 \t \r\nhello\r\n0\r\n\r\n", ParseError::InvalidChunkSize),
        (b"5 x\r\nhello\r\n0\r\n\r\n", ParseError::InvalidChunkSize),
        (b"0 \r\n\r\n", ParseError::InvalidChunkSize),
    ];
    for (input, code) in cases {
        assert_eq!(
            decode_all(input, input.len()).err(),
            Some(*code),
            "{}",
            String::from_utf8_lossy(input)
        );
    }
    // Leading zeros are allowed, up to 16 digits in all (a 64-bit size written out); past that
    // the size line is refused, in any split, as an endless run of zeros would never end.
    let padded = b"000000000000000a;x=y\r\n0123456789\r\n0000000000000000\r\n\r\n";
    for step in 1..padded.len() {
        assert_eq!(decode_all(padded, step).unwrap().0, b"0123456789");
    }
    let too_many = format!("{}a\r\n0123456789\r\n0\r\n\r\n", "0".repeat(16));
    let endless_zero = format!("{}\r\n\r\n", "0".repeat(17));
    for input in [too_many, endless_zero] {
        for step in [1, 7, input.len()] {
            assert_eq!(
                decode_all(input.as_bytes(), step).err(),
                Some(ParseError::InvalidChunkSize),
                "{input} in steps of {step}"
            );
        }
    }
    let long = format!("1;{}\r\nA\r\n0\r\n\r\n", "a".repeat(64));
    assert_eq!(
        decode_all(long.as_bytes(), 3).err(),
        Some(ParseError::ChunkExtensionTooLarge)
    );
}
