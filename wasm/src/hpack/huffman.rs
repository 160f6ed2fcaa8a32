//! The HPACK Huffman code (RFC 7541 §5.2, Appendix B).
//!
//! Decoding is table-driven, four bits at a time (the nghttp2 design): the states are the 256
//! internal nodes of the code tree, and each (state, nibble) entry says where the walk ends, which
//! symbol (at most one: the shortest code is 5 bits) it completed, and whether stopping there is a
//! valid end of string. The table is built once from the code list.

use std::sync::OnceLock;

use super::rfc7541::HUFFMAN_CODES;
use super::HpackError;

const EOS: u16 = 256;

/// Bit length of `bytes` Huffman-coded, rounded up to whole octets.
pub fn encoded_len(bytes: &[u8]) -> usize {
    let bits: usize = bytes
        .iter()
        .map(|&b| usize::from(HUFFMAN_CODES[b as usize].1))
        .sum();
    bits.div_ceil(8)
}

/// Appends the Huffman coding of `bytes`, padded with the most significant bits of EOS (all ones).
/// (Writing four bytes per flush into room made once measured no faster on header-sized strings.)
pub fn encode(bytes: &[u8], out: &mut Vec<u8>) {
    let mut acc: u64 = 0;
    let mut bits: u32 = 0;
    for &b in bytes {
        let (code, len) = HUFFMAN_CODES[b as usize];
        acc = (acc << len) | u64::from(code);
        bits += u32::from(len);
        while bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
        acc &= (1 << bits) - 1;
    }
    if bits > 0 {
        out.push(((acc << (8 - bits)) | (0xff >> bits)) as u8);
    }
}

#[derive(Copy, Clone, Default)]
struct Step {
    next: u8,
    /// Completed symbol, or NONE.
    symbol: u16,
    /// Stopping in `next` is a valid end: the bits since the last symbol are at most 7 ones.
    accept: bool,
    /// The nibble walked into EOS (a decoding error, §5.2).
    fail: bool,
}

const NONE: u16 = u16::MAX;

struct Table {
    steps: Vec<[Step; 16]>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Builds the code tree, numbers its internal nodes, then walks every (node, nibble).
fn build() -> Table {
    // Child links: >= 0 internal node, < 0 leaf -(symbol + 1). -1 − 257 marks "absent".
    const ABSENT: i32 = i32::MIN;
    let mut tree: Vec<[i32; 2]> = vec![[ABSENT; 2]];
    for (symbol, &(code, len)) in HUFFMAN_CODES.iter().enumerate() {
        let mut node = 0usize;
        for i in (0..len).rev() {
            let bit = ((code >> i) & 1) as usize;
            if i == 0 {
                tree[node][bit] = -(symbol as i32 + 1);
            } else {
                if tree[node][bit] == ABSENT {
                    tree.push([ABSENT; 2]);
                    tree[node][bit] = (tree.len() - 1) as i32;
                }
                node = tree[node][bit] as usize;
            }
        }
    }
    assert_eq!(
        tree.len(),
        256,
        "a complete code over 257 symbols has 256 internal nodes"
    );

    // A node accepts as an end of string if it is reached from the root by at most 7 one-bits.
    let mut accept = vec![false; tree.len()];
    let mut node = 0usize;
    accept[0] = true;
    for _ in 0..7 {
        node = tree[node][1] as usize;
        accept[node] = true;
    }

    let steps = (0..tree.len())
        .map(|state| {
            let mut row = [Step::default(); 16];
            for (nibble, step) in row.iter_mut().enumerate() {
                let mut node = state;
                let mut symbol = NONE;
                let mut fail = false;
                for i in (0..4).rev() {
                    let child = tree[node][(nibble >> i) & 1];
                    if child >= 0 {
                        node = child as usize;
                    } else {
                        let s = (-child - 1) as u16;
                        fail |= s == EOS;
                        symbol = s;
                        node = 0;
                    }
                }
                *step = Step {
                    next: node as u8,
                    symbol,
                    accept: accept[node],
                    fail,
                };
            }
            row
        })
        .collect();
    Table { steps }
}

/// Appends the decoding of `src` to `out`. Rejects an encoded EOS, padding longer than 7 bits and
/// padding that is not all ones (§5.2).
pub fn decode(src: &[u8], out: &mut Vec<u8>) -> Result<(), HpackError> {
    let steps = &table().steps;
    let mut state = 0usize;
    let mut accept = true;
    for &byte in src {
        for nibble in [byte >> 4, byte & 0x0f] {
            let step = steps[state][nibble as usize];
            if step.fail {
                return Err(HpackError::HuffmanEos);
            }
            if step.symbol != NONE {
                out.push(step.symbol as u8);
            }
            state = step.next as usize;
            accept = step.accept;
        }
    }
    if accept {
        Ok(())
    } else {
        Err(HpackError::HuffmanPadding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The coding one bit at a time, straight from the table: the reference for `encode`.
    fn encode_bitwise(input: &[u8]) -> Vec<u8> {
        let mut bits = Vec::new();
        for &b in input {
            let (code, len) = HUFFMAN_CODES[b as usize];
            bits.extend((0..len).rev().map(|i| (code >> i) & 1 == 1));
        }
        while bits.len() % 8 != 0 {
            bits.push(true);
        }
        bits.chunks(8)
            .map(|byte| {
                byte.iter()
                    .fold(0u8, |acc, &bit| (acc << 1) | u8::from(bit))
            })
            .collect()
    }

    fn roundtrip(input: &[u8]) {
        // Appended after bytes already in the output, as a header block does.
        let mut coded = vec![0xaa, 0x55];
        encode(input, &mut coded);
        assert_eq!(&coded[..2], [0xaa, 0x55]);
        let coded = &coded[2..];
        assert_eq!(coded, encode_bitwise(input));
        assert_eq!(coded.len(), encoded_len(input));
        let mut decoded = Vec::new();
        decode(coded, &mut decoded).unwrap();
        assert_eq!(decoded, input);
    }

    #[test]
    fn every_length_and_code_width_matches_the_bitwise_coding() {
        // Lengths 0..80 of bytes with 5- to 30-bit codes, so every flush position is crossed.
        let mut seed = 0x9e37_79b9_u32;
        for length in 0..80 {
            for _ in 0..20 {
                let input: Vec<u8> = (0..length)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 17;
                        seed ^= seed << 5;
                        seed as u8
                    })
                    .collect();
                roundtrip(&input);
            }
        }
    }

    #[test]
    fn rfc_examples() {
        // RFC 7541 C.4.1: "www.example.com"
        let mut out = Vec::new();
        encode(b"www.example.com", &mut out);
        assert_eq!(
            out,
            [0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff]
        );
        roundtrip(b"no-cache");
        roundtrip(b"");
        let all: Vec<u8> = (0..=255).collect();
        roundtrip(&all);
    }

    #[test]
    fn padding_rules() {
        let mut out = Vec::new();
        // 'a' is 00011 (5 bits): 00011 + 111 padding = 0x1f.
        assert!(decode(&[0x1f], &mut out).is_ok());
        assert_eq!(out, b"a");
        // Padding with a zero bit.
        assert_eq!(
            decode(&[0x18], &mut Vec::new()),
            Err(HpackError::HuffmanPadding)
        );
        // A whole octet of padding (8 ones after the last symbol).
        assert_eq!(
            decode(&[0x1f, 0xff], &mut Vec::new()),
            Err(HpackError::HuffmanPadding)
        );
        // EOS itself (30 ones) encoded in the string.
        assert_eq!(
            decode(&[0xff, 0xff, 0xff, 0xff], &mut Vec::new()),
            Err(HpackError::HuffmanEos)
        );
    }
}
