//! Native tests of the HPACK codec: RFC examples that need no corpus file, round trips, limits,
//! and a seeded random fuzz over malformed blocks (never a panic). The conformance suites that read
//! tests/hpack/corpus (vendored) run over the wasm build in tests/hpack/*.test.ts.

use std::collections::HashMap;

use wirespeed_wasm::hpack::decoder::{
    decode_integer, DecodedBlock, FIELD_DYNAMIC, FIELD_INSERTED, FIELD_NEVER_INDEXED, FIELD_STATIC,
};
use wirespeed_wasm::hpack::encoder::{encode_integer, valid_field, HuffmanMode, FIELD_SENSITIVE};
use wirespeed_wasm::hpack::rfc7541::STATIC_TABLE;
use wirespeed_wasm::hpack::{Decoder, Encoder, HpackError};

/// Reads decoded records as the JS side does: static fields from the static table, dynamic ones
/// from the strings kept per entry id when the entry was inserted.
#[derive(Default)]
struct Resolver {
    entries: HashMap<u32, (String, String)>,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into()
}

impl Resolver {
    fn fields(&mut self, block: &DecodedBlock) -> Vec<(String, String, u32)> {
        (0..block.len())
            .map(|i| {
                let w = block.words(i);
                let (name, value) = if w[4] & FIELD_STATIC != 0 {
                    let (n, v) = STATIC_TABLE[w[0] as usize - 1];
                    (text(n), text(v))
                } else if w[4] & FIELD_DYNAMIC != 0 {
                    self.entries[&w[0]].clone()
                } else {
                    let (n, v) = block.literal(i);
                    (text(n), text(v))
                };
                if w[4] & FIELD_INSERTED != 0 {
                    self.entries.insert(w[5], (name.clone(), value.clone()));
                }
                (name, value, w[4] & FIELD_NEVER_INDEXED)
            })
            .collect()
    }
}

#[test]
fn integers_rfc_c1() {
    // C.1.1: 10 with a 5-bit prefix; C.1.2: 1337 with a 5-bit prefix; C.1.3: 42 with 8 bits.
    for (value, prefix, wire) in [
        (10, 5, vec![0x0a]),
        (1337, 5, vec![0x1f, 0x9a, 0x0a]),
        (42, 8, vec![0x2a]),
    ] {
        let mut out = Vec::new();
        encode_integer(&mut out, 0, prefix, value);
        assert_eq!(out, wire);
        assert_eq!(decode_integer(&wire, &mut 0, prefix), Ok(value));
    }
    assert_eq!(
        decode_integer(&[0x1f, 0xff, 0xff, 0xff, 0xff, 0x0f], &mut 0, 5),
        Err(HpackError::IntegerOverflow)
    );
    assert_eq!(
        decode_integer(&[0x1f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], &mut 0, 5),
        Err(HpackError::IntegerOverflow)
    );
    assert_eq!(
        decode_integer(&[0x1f, 0x9a], &mut 0, 5),
        Err(HpackError::Truncated)
    );
}

#[test]
fn fields_rfc9113_8_2_1() {
    for name in [
        &b"content-type"[..],
        b":path",
        b"x-a_b.c~d!#$%&'*+^`|",
        b"0",
    ] {
        assert!(
            valid_field(name, b"any value\x7f\x80\xff"),
            "{}",
            text(name)
        );
    }
    for name in [
        &b""[..],
        b":",
        b"::path",
        b"Content-Type",
        b"x a",
        b"x:a",
        b"x\x80",
        b"x\"",
        b"x/y",
        b"(x)",
    ] {
        assert!(!valid_field(name, b"v"), "{}", text(name));
    }
    for value in [&b"a\rb"[..], b"a\nb", b"a\0b", b"\r", b"abc\n"] {
        assert!(!valid_field(b"x-a", value), "{:?}", value);
    }
    // Every position of a forbidden byte, in and past the eight-byte steps, among bytes that look alike.
    for len in 1..40 {
        for at in 0..len {
            for bad in [0u8, b'\r', b'\n'] {
                let mut value = vec![b'\x0e'; len];
                value[at] = bad;
                assert!(!valid_field(b"x-a", &value), "{bad} at {at} of {len}");
            }
        }
        // Bytes one away from the forbidden ones (and 0x80/0xff, borrow-prone) are fine anywhere.
        let near: Vec<u8> = (0..len)
            .map(|i| [1u8, 9, 11, 12, 14, 0x80, 0xff, 0x8d][i % 8])
            .collect();
        assert!(valid_field(b"x-a", &near), "{near:?}");
    }
    assert!(valid_field(b"x-a", b""));
    assert!(valid_field(b"x-a", b"\t tab and space are allowed inside"));
}

#[test]
fn rustsec_2023_0085_block_does_not_panic() {
    let mut decoder = Decoder::new(4096, 65536, 128);
    assert_eq!(
        decoder.decode(&[0x3f], &mut DecodedBlock::default()),
        Err(HpackError::Truncated)
    );
}

#[test]
fn roundtrip_with_indexing_and_sensitive_fields() {
    for mode in [HuffmanMode::Auto, HuffmanMode::Always, HuffmanMode::Never] {
        let mut encoder = Encoder::new(4096, mode);
        let mut decoder = Decoder::new(4096, 65536, 128);
        let mut resolver = Resolver::default();
        let list: Vec<(&[u8], &[u8], u32)> = vec![
            (b":method", b"GET", 0),
            (b":path", b"/index.html", 0),
            (b"custom-key", b"custom-value", 0),
            (b"authorization", b"Bearer secret", 0),
            (b"cookie", b"a=1", 0),
            (b"x-secret", b"shh", FIELD_SENSITIVE),
        ];
        for round in 0..3 {
            let mut wire = Vec::new();
            encoder.encode(list.iter().copied(), &mut wire, &mut Vec::new());
            let mut block = DecodedBlock::default();
            decoder.decode(&wire, &mut block).unwrap();
            let got = resolver.fields(&block);
            assert_eq!(got.len(), list.len());
            for ((n, v, f), (en, ev, ef)) in got.iter().zip(&list) {
                assert_eq!((n.as_bytes(), v.as_bytes()), (*en, *ev));
                let never = *ef == FIELD_SENSITIVE || *en == b"authorization" || *en == b"cookie";
                assert_eq!(*f & FIELD_NEVER_INDEXED != 0, never, "{n}");
            }
            if round > 0 {
                // Indexed from the second block on: 1 byte per indexable field.
                assert!(wire.len() < 40, "round {round}: {} bytes", wire.len());
            }
        }
    }
}

#[test]
fn table_accounting_and_size_updates() {
    let mut encoder = Encoder::new(4096, HuffmanMode::Never);
    let mut decoder = Decoder::new(4096, 65536, 128);
    let mut block = DecodedBlock::default();
    let mut wire = Vec::new();
    encoder.encode(
        [(&b"custom-key"[..], &b"custom-header"[..], 0)],
        &mut wire,
        &mut Vec::new(),
    );
    decoder.decode(&wire, &mut block).unwrap();
    assert_eq!(decoder.table().size(), 10 + 13 + 32);
    // The peer lowers its limit: the encoder must start its next block with a size update.
    encoder.set_table_limit(0);
    decoder.set_table_limit(0);
    wire.clear();
    encoder.encode([(&b"a"[..], &b"b"[..], 0)], &mut wire, &mut Vec::new());
    assert_eq!(wire[0], 0x20);
    decoder.decode(&wire, &mut block).unwrap();
    assert_eq!(decoder.table().size(), 0);
    // A decoder whose limit dropped refuses a block without the update.
    let mut strict = Decoder::new(4096, 65536, 128);
    strict.set_table_limit(100);
    assert_eq!(
        strict.decode(&[0x82], &mut block),
        Err(HpackError::TableSizeUpdateMissing)
    );
    // Above the limit, and after a field, size updates are errors.
    assert_eq!(
        Decoder::new(4096, 65536, 128).decode(&[0x3f, 0xe2, 0x1f], &mut block),
        Err(HpackError::TableSizeTooLarge)
    );
    assert_eq!(
        Decoder::new(4096, 65536, 128).decode(&[0x82, 0x20], &mut block),
        Err(HpackError::TableSizeUpdateMisplaced)
    );
}

#[test]
fn bombs_fail_fast() {
    // One 4 KB entry, then thousands of 1-byte references to it.
    let mut encoder = Encoder::new(8192, HuffmanMode::Never);
    let big = vec![b'x'; 3000];
    let mut first = Vec::new();
    encoder.encode([(&b"x-big"[..], &big[..], 0)], &mut first, &mut Vec::new());
    let mut bomb = first.clone();
    bomb.extend(std::iter::repeat_n(0xbe, 10_000)); // index 62: the newest dynamic entry
    let mut decoder = Decoder::new(4096, 65536, 100_000);
    let mut block = DecodedBlock::default();
    assert_eq!(
        decoder.decode(&bomb, &mut block),
        Err(HpackError::HeaderListTooLarge)
    );
    assert!(
        block.arena.len() <= 65536,
        "stopped before the limit: {} bytes",
        block.arena.len()
    );
    // Millions of empty fields through a static reference (index 1, ":authority" with no value).
    let empties = vec![0x81u8; 1_000_000];
    let mut decoder = Decoder::new(4096, 1 << 30, 1000);
    assert_eq!(
        decoder.decode(&empties, &mut block),
        Err(HpackError::TooManyFields)
    );
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random and mutated blocks must give Ok or an HpackError, never a panic (a trap in wasm).
/// `WIRESPEED_FUZZ_ITERS` runs it longer (CI runs the default).
#[test]
fn fuzz_decoder_never_panics() {
    let iters: usize = std::env::var("WIRESPEED_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000);
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut encoder = Encoder::new(4096, HuffmanMode::Auto);
    let mut block = DecodedBlock::default();
    let mut decoder = Decoder::new(4096, 16 * 1024, 256);
    let (mut ok, mut err) = (0, 0);
    for i in 0..iters {
        let mut input = Vec::new();
        if i % 2 == 0 {
            let len = (rng.next() % 64) as usize;
            input.extend((0..len).map(|_| rng.next() as u8));
        } else {
            let name = format!("x-{}", rng.next() % 50);
            let value = format!("{}", rng.next());
            encoder.encode(
                [(name.as_bytes(), value.as_bytes(), 0)],
                &mut input,
                &mut Vec::new(),
            );
            if !input.is_empty() {
                let at = (rng.next() as usize) % input.len();
                input[at] ^= rng.next() as u8;
            }
        }
        match decoder.decode(&input, &mut block) {
            Ok(()) => ok += 1,
            Err(_) => {
                err += 1;
                // A connection that saw an error is gone (COMPRESSION_ERROR): start a new one.
                decoder = Decoder::new(4096, 16 * 1024, 256);
                encoder = Encoder::new(4096, HuffmanMode::Auto);
            }
        }
    }
    assert!(ok > iters / 20 && err > iters / 20, "ok {ok}, err {err}");
}

#[test]
fn encode_reports_the_fields_it_added_to_the_table() {
    let mut encoder = Encoder::new(4096, HuffmanMode::Auto);
    let mut wire = Vec::new();
    let mut inserted = Vec::new();
    let fields: [(&[u8], &[u8], u32); 5] = [
        (b"x-a", b"1", 0),
        (b":method", b"GET", 0),
        (b"authorization", b"secret", 0),
        (b"x-b", b"2", FIELD_SENSITIVE),
        (b"x-c", b"3", 0),
    ];
    encoder.encode(fields, &mut wire, &mut inserted);
    // Static full matches and never-indexed fields are not added.
    assert_eq!(inserted, [0, 4]);
    assert_eq!(encoder.table().next_id(), 2);
    assert_eq!(encoder.table().oldest_id(), 0);
    // The same block again adds nothing: every field is a full match or never indexed.
    inserted.clear();
    encoder.encode(fields, &mut wire, &mut inserted);
    assert!(inserted.is_empty());
    // An entry that would flush most of the table is sent literally, not added (no id is spent).
    let big = vec![b'v'; 5000];
    let mut small = Encoder::new(4096, HuffmanMode::Never);
    small.encode([(&b"x-a"[..], &b"1"[..], 0)], &mut wire, &mut inserted);
    inserted.clear();
    small.encode([(&b"x-big"[..], &big[..], 0)], &mut wire, &mut inserted);
    assert!(inserted.is_empty());
    assert_eq!(small.table().next_id(), 1);
}
