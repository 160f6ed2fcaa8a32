//! Differential test of the field-line scanner against httparse (the reader it replaced on the
//! strict path): mutated heads, every prefix of each, requests and responses. Same verdict, same
//! length, same record; the one allowed difference is that the scanner refuses a bare LF at once
//! (InvalidNewline) where httparse waits for the rest of the head or reports a later fault.

use wirespeed_wasm::http1::head::{self, slot, FieldReader, HeadOptions, OPT_RESPONSE};
use wirespeed_wasm::http1::ParseError;
use wirespeed_wasm::RESULT_WORDS;

const REQUESTS: &[&[u8]] = &[
    b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
    b"GET /docs/getting-started HTTP/1.1\r\nHost: www.example.com\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36\r\nAccept: text/html,application/xhtml+xml;q=0.9\r\nCookie: a=1; b=2\r\n\r\n",
    b"\r\nPOST /upload HTTP/1.1\r\nContent-Length: 5\r\nX-Empty:\r\nX-Spaces:   padded value \t \r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n\r\nhello",
    b"PUT /x HTTP/1.0\r\nTransfer-Encoding: chunked\r\nX-Obs-Text: caf\xe9 \xff\r\n\r\n",
    b"OPTIONS * HTTP/1.1\r\nExpect: 100-continue\r\nA: b\r\nA: c\r\n\r\n",
];

const RESPONSES: &[&[u8]] = &[
    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\nhello world!",
    b"HTTP/1.1 204\r\nDate: Tue, 24 Nov 2026 10:00:00 GMT\r\n\r\n",
    b"HTTP/1.0 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
];

/// Bytes that sit on the borders of the classes the scanner tests.
const INTERESTING: &[u8] = &[
    b'\r', b'\n', 0, b' ', b'\t', b':', 0x7f, 0x80, 0xff, 0x1f, b'"', b'@', b'(', b'a', b'Z', b'~',
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len());
        let byte = INTERESTING[rng.below(INTERESTING.len())];
        match rng.below(3) {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    bytes
}

fn parse(
    reader: FieldReader,
    bytes: &[u8],
    flags: u32,
) -> (Result<Option<usize>, ParseError>, Vec<u32>) {
    let opts = HeadOptions {
        max_headers: 4,
        max_head_bytes: 16384,
        max_target_bytes: 8192,
        flags,
    };
    let mut out = vec![0; RESULT_WORDS];
    let result = head::parse_with(reader, bytes, &opts, &mut out);
    if let Ok(Some(_)) = result {
        out.truncate(slot::FIELDS + 4 * out[slot::FIELD_COUNT] as usize);
    } else {
        out.clear();
    }
    (result, out)
}

fn has_bare_lf(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\n' && (i == 0 || bytes[i - 1] != b'\r'))
}

fn compare(bytes: &[u8], flags: u32) {
    let (scanned, scanned_out) = parse(FieldReader::Scanner, bytes, flags);
    let (reference, reference_out) = parse(FieldReader::Httparse, bytes, flags);
    if scanned == reference {
        assert_eq!(
            scanned_out,
            reference_out,
            "records of {:?}",
            String::from_utf8_lossy(bytes)
        );
        return;
    }
    let refused_early = scanned == Err(ParseError::InvalidNewline)
        && has_bare_lf(bytes)
        && !matches!(reference, Ok(Some(_)));
    assert!(
        refused_early,
        "scanner {scanned:?}, httparse {reference:?} on {:?}",
        String::from_utf8_lossy(bytes)
    );
}

#[test]
fn the_scanner_reads_field_lines_as_httparse_does() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut agreed = 0;
    for (seeds, flags) in [(REQUESTS, 0), (RESPONSES, OPT_RESPONSE)] {
        for seed in seeds {
            for round in 0..300 {
                let bytes = if round == 0 {
                    seed.to_vec()
                } else {
                    mutate(&mut rng, seed)
                };
                for end in 0..=bytes.len() {
                    compare(&bytes[..end], flags);
                    agreed += 1;
                }
            }
        }
    }
    assert!(agreed > 100_000, "{agreed} inputs compared");
}

#[test]
fn the_scanner_counts_whole_lines_against_the_limit() {
    let five = b"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n";
    assert_eq!(
        parse(FieldReader::Scanner, five, 0).0,
        Err(ParseError::TooManyHeaders)
    );
    // A fault in the fifth line is reported before the limit, as httparse does.
    let faulty = b"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE\x01: 5\r\n\r\n";
    assert_eq!(
        parse(FieldReader::Scanner, faulty, 0).0,
        Err(ParseError::InvalidHeader)
    );
    assert_eq!(
        parse(FieldReader::Httparse, faulty, 0).0,
        Err(ParseError::InvalidHeader)
    );
}
