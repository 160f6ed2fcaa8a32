//! The encoder (RFC 7541 §6): full match → indexed, name match → literal with the name's index,
//! incremental indexing by default, never-indexed for credentials, Huffman when it is shorter, and
//! the dynamic table size updates §4.2 requires after the peer's limit changes.

use std::sync::OnceLock;

use super::huffman;
use super::rfc7541::STATIC_TABLE;
use super::table::{entry_size, fnv1a, same_bytes, DynamicTable, STATIC_LEN};
use crate::token::is_tchar;

/// Per-field flag from the caller: never index this field (§6.2.3), e.g. a secret it knows of.
pub const FIELD_SENSITIVE: u32 = 1;

/// The default SETTINGS_HEADER_TABLE_SIZE, which both ends start from (RFC 9113 §6.5.2).
pub const DEFAULT_TABLE_SIZE: usize = 4096;

/// Cookies shorter than this are never indexed: short values are guessable through the
/// compression ratio (CRIME-style, §7.1.3), and indexing them saves little.
const SHORT_COOKIE: usize = 20;

#[derive(Copy, Clone, PartialEq, Eq)]
pub enum HuffmanMode {
    /// Huffman-code a string when that is shorter.
    Auto,
    Always,
    Never,
}

pub struct Encoder {
    table: DynamicTable,
    /// The size this encoder wants; the table never grows past the peer's limit either.
    preferred_size: usize,
    huffman: HuffmanMode,
    /// Size updates owed at the start of the next block: the smallest since the last block, then
    /// the final one (§4.2).
    pending: Option<(usize, usize)>,
}

/// Open-addressed table of the static names: slot → (first static index, entries with that name).
/// Same-name entries are adjacent in the static table. 128 slots for 52 names keeps probes short.
const NAME_SLOTS: usize = 128;

fn static_names() -> &'static [(u8, u8); NAME_SLOTS] {
    static NAMES: OnceLock<[(u8, u8); NAME_SLOTS]> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut slots = [(0u8, 0u8); NAME_SLOTS];
        let mut i = 0;
        while i < STATIC_TABLE.len() {
            let name = STATIC_TABLE[i].0;
            let count = STATIC_TABLE[i..]
                .iter()
                .take_while(|(n, _)| *n == name)
                .count();
            let mut slot = fnv1a(name) as usize % NAME_SLOTS;
            while slots[slot].0 != 0 {
                slot = (slot + 1) % NAME_SLOTS;
            }
            slots[slot] = ((i + 1) as u8, count as u8);
            i += count;
        }
        slots
    })
}

/// (first static index, count) of the entries named `name`.
fn static_name(name: &[u8], hash: u32) -> Option<(usize, usize)> {
    let slots = static_names();
    let mut slot = hash as usize % NAME_SLOTS;
    loop {
        let (first, count) = slots[slot];
        if first == 0 {
            return None;
        }
        if same_bytes(STATIC_TABLE[first as usize - 1].0, name) {
            return Some((first as usize, count as usize));
        }
        slot = (slot + 1) % NAME_SLOTS;
    }
}

/// The bytes of an HTTP/2 field name after any ':': lowercase `tchar` (RFC 9113 §8.2.1).
const NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = is_tchar(b as u8) && !(b as u8).is_ascii_uppercase();
        b += 1;
    }
    table
};

/// Eight copies of a byte, and the high bit of each of eight bytes (SWAR masks).
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether one of the eight bytes of `word` is zero (exact: borrows only follow a zero byte).
fn has_zero_byte(word: u64) -> bool {
    word.wrapping_sub(ONES) & !word & HIGHS != 0
}

/// Whether `value` holds NUL, CR or LF, eight bytes at a step (1 ns a byte one at a time).
fn has_forbidden_byte(value: &[u8]) -> bool {
    let mut words = value.chunks_exact(8);
    for chunk in &mut words {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks_exact(8)"));
        if has_zero_byte(word)
            || has_zero_byte(word ^ (ONES * b'\r' as u64))
            || has_zero_byte(word ^ (ONES * b'\n' as u64))
        {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|&b| matches!(b, 0 | b'\r' | b'\n'))
}

/// RFC 9113 §8.2.1: a field name is a lowercase token (a pseudo-header's after its ':'), and a
/// value holds no NUL, CR or LF. A field that is not valid must not be sent.
pub fn valid_field(name: &[u8], value: &[u8]) -> bool {
    let token = name.strip_prefix(b":").unwrap_or(name);
    !token.is_empty() && token.iter().all(|&b| NAME_BYTES[b as usize]) && !has_forbidden_byte(value)
}

/// §5.1: `value` with an N-bit prefix, the first octet's high bits being `flags`.
pub fn encode_integer(out: &mut Vec<u8>, flags: u8, prefix_bits: u32, value: usize) {
    let mask = (1usize << prefix_bits) - 1;
    if value < mask {
        out.push(flags | value as u8);
        return;
    }
    out.push(flags | mask as u8);
    let mut rest = value - mask;
    while rest >= 128 {
        out.push((rest % 128) as u8 | 0x80);
        rest /= 128;
    }
    out.push(rest as u8);
}

impl Encoder {
    pub fn new(max_table_size: usize, huffman: HuffmanMode) -> Self {
        let size = max_table_size.min(DEFAULT_TABLE_SIZE);
        Encoder {
            table: DynamicTable::new(size),
            preferred_size: max_table_size,
            huffman,
            // The decoder starts at 4096: announce a smaller table in the first block.
            pending: (size != DEFAULT_TABLE_SIZE).then_some((size, size)),
        }
    }

    pub fn table(&self) -> &DynamicTable {
        &self.table
    }

    /// Applies the peer's SETTINGS_HEADER_TABLE_SIZE.
    pub fn set_table_limit(&mut self, limit: usize) {
        let size = limit.min(self.preferred_size);
        if size == self.table.max_size() && self.pending.is_none() {
            return;
        }
        let smallest = self.pending.map_or(size, |(min, _)| min.min(size));
        self.pending = Some((smallest.min(self.table.max_size()), size));
        self.table.set_max_size(size);
    }

    /// Appends one header block for `fields` of (name, value, flags), and the positions in
    /// `fields` of those added to the dynamic table to `inserted`, in the order they were added
    /// (their ids are consecutive, ending at the table's `next_id() - 1`).
    pub fn encode<'a>(
        &mut self,
        fields: impl IntoIterator<Item = (&'a [u8], &'a [u8], u32)>,
        out: &mut Vec<u8>,
        inserted: &mut Vec<u32>,
    ) {
        if let Some((smallest, last)) = self.pending.take() {
            if smallest < last {
                encode_integer(out, 0x20, 5, smallest);
            }
            encode_integer(out, 0x20, 5, last);
        }
        for (i, (name, value, flags)) in fields.into_iter().enumerate() {
            if self.encode_field(name, value, flags, out) {
                inserted.push(i as u32);
            }
        }
    }

    /// Returns whether the field was added to the dynamic table.
    fn encode_field(&mut self, name: &[u8], value: &[u8], flags: u32, out: &mut Vec<u8>) -> bool {
        let sensitive = flags & FIELD_SENSITIVE != 0
            || name == b"authorization"
            || name == b"proxy-authorization"
            || (name == b"cookie" && value.len() < SHORT_COOKIE);
        let (full, name_index) = self.find(name, value);
        if let (Some(index), false) = (full, sensitive) {
            encode_integer(out, 0x80, 7, index);
            return false;
        }
        let (first, prefix, index_it) = if sensitive {
            (0x10, 4, false)
        } else if entry_size(name, value) * 4 > self.table.max_size() * 3 {
            // An entry this large would flush most of the table for one use.
            (0x00, 4, false)
        } else {
            (0x40, 6, true)
        };
        match name_index {
            Some(index) => encode_integer(out, first, prefix, index),
            None => {
                out.push(first);
                self.encode_string(name, out);
            }
        }
        self.encode_string(value, out);
        index_it && self.table.insert(name, value).is_some()
    }

    /// (index of an entry equal to name and value, index of an entry with that name).
    fn find(&self, name: &[u8], value: &[u8]) -> (Option<usize>, Option<usize>) {
        let name_hash = fnv1a(name);
        let mut name_index = None;
        if let Some((first, count)) = static_name(name, name_hash) {
            name_index = Some(first);
            for index in first..first + count {
                if same_bytes(STATIC_TABLE[index - 1].1, value) {
                    return (Some(index), name_index);
                }
            }
        }
        if self.table.is_empty() {
            return (None, name_index);
        }
        for (i, e) in self.table.iter().enumerate() {
            if e.name_hash == name_hash && same_bytes(e.name(), name) {
                let index = STATIC_LEN + 1 + i;
                if same_bytes(e.value(), value) {
                    return (Some(index), name_index.or(Some(index)));
                }
                name_index = name_index.or(Some(index));
            }
        }
        (None, name_index)
    }

    fn encode_string(&self, bytes: &[u8], out: &mut Vec<u8>) {
        let coded_len = match self.huffman {
            HuffmanMode::Never => usize::MAX,
            _ => huffman::encoded_len(bytes),
        };
        if self.huffman == HuffmanMode::Always || coded_len < bytes.len() {
            encode_integer(out, 0x80, 7, coded_len);
            huffman::encode(bytes, out);
        } else {
            encode_integer(out, 0x00, 7, bytes.len());
            out.extend_from_slice(bytes);
        }
    }
}
