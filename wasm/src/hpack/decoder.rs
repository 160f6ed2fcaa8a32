//! The decoder (RFC 7541 §3, §6): one per connection direction, holding its dynamic table.
//!
//! Output goes into a `DecodedBlock`: six u32 words per field and an arena of bytes. A field
//! taken from a table is a reference (static index, or dynamic entry id), not a copy: the caller
//! already has those strings (the JS side keeps the strings of every live entry, made once when
//! the entry was inserted); literal fields are bytes in the arena. The limits (header list size with §4.1 accounting, field count) are checked
//! per field before its bytes are copied, so a block that would expand into megabytes or into
//! millions of empty fields fails at the first field over the limit.

use super::huffman;
use super::table::{DynamicTable, ENTRY_OVERHEAD};
use super::HpackError;

/// Flags word: sent as "never indexed" (§6.2.3); an intermediary must keep it so.
pub const FIELD_NEVER_INDEXED: u32 = 1;
/// Flags word: an indexed field from the static table; word 0 is its index (1..=61).
pub const FIELD_STATIC: u32 = 2;
/// Flags word: an indexed field from the dynamic table; word 0 is the entry's id.
pub const FIELD_DYNAMIC: u32 = 4;
/// Flags word: a literal that was added to the dynamic table; word 5 is the new entry's id.
pub const FIELD_INSERTED: u32 = 8;
/// Words per decoded field: [name off | index | id, name len, value off, value len, flags, id].
/// Literal fields: offsets and lengths into the arena.
pub const FIELD_WORDS: usize = 6;

#[derive(Default)]
pub struct DecodedBlock {
    pub arena: Vec<u8>,
    pub fields: Vec<u32>,
}

impl DecodedBlock {
    pub fn len(&self) -> usize {
        self.fields.len() / FIELD_WORDS
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The six words of field `i`.
    pub fn words(&self, i: usize) -> &[u32] {
        &self.fields[i * FIELD_WORDS..(i + 1) * FIELD_WORDS]
    }

    /// Name and value bytes of a literal field `i` (in the arena).
    pub fn literal(&self, i: usize) -> (&[u8], &[u8]) {
        let w = self.words(i);
        let (no, nl, vo, vl) = (w[0] as usize, w[1] as usize, w[2] as usize, w[3] as usize);
        (&self.arena[no..no + nl], &self.arena[vo..vo + vl])
    }
}

pub struct Decoder {
    table: DynamicTable,
    /// SETTINGS_HEADER_TABLE_SIZE as acknowledged: no size update may exceed it.
    limit: usize,
    /// The limit went below the table's size: the next block must start with a size update.
    must_update: bool,
    max_list_size: usize,
    max_fields: usize,
}

/// §5.1: an integer with an N-bit prefix, at most 2^32 - 1.
pub fn decode_integer(src: &[u8], pos: &mut usize, prefix_bits: u32) -> Result<usize, HpackError> {
    let mask = (1u32 << prefix_bits) - 1;
    let first = *src.get(*pos).ok_or(HpackError::Truncated)?;
    *pos += 1;
    let mut value = u64::from(u32::from(first) & mask);
    if value < u64::from(mask) {
        return Ok(value as usize);
    }
    let mut shift = 0;
    loop {
        let byte = *src.get(*pos).ok_or(HpackError::Truncated)?;
        *pos += 1;
        value += u64::from(byte & 0x7f) << shift;
        if value > u64::from(u32::MAX) {
            return Err(HpackError::IntegerOverflow);
        }
        if byte & 0x80 == 0 {
            return Ok(value as usize);
        }
        shift += 7;
        if shift > 28 {
            return Err(HpackError::IntegerOverflow);
        }
    }
}

impl Decoder {
    pub fn new(max_table_size: usize, max_list_size: usize, max_fields: usize) -> Self {
        Decoder {
            table: DynamicTable::new(max_table_size),
            limit: max_table_size,
            must_update: false,
            max_list_size,
            max_fields,
        }
    }

    pub fn table(&self) -> &DynamicTable {
        &self.table
    }

    /// Applies an acknowledged SETTINGS_HEADER_TABLE_SIZE.
    pub fn set_table_limit(&mut self, limit: usize) {
        if limit < self.table.max_size() {
            self.must_update = true;
        }
        self.limit = limit;
    }

    /// Decodes one complete header block into `out` (cleared first).
    pub fn decode(&mut self, src: &[u8], out: &mut DecodedBlock) -> Result<(), HpackError> {
        out.arena.clear();
        out.fields.clear();
        let mut pos = 0;
        let mut list_size = 0;
        let mut in_fields = false;
        while pos < src.len() {
            let byte = src[pos];
            if byte & 0xe0 == 0x20 {
                // §6.3 Dynamic Table Size Update: 001xxxxx, only before the first field.
                if in_fields {
                    return Err(HpackError::TableSizeUpdateMisplaced);
                }
                let size = decode_integer(src, &mut pos, 5)?;
                if size > self.limit {
                    return Err(HpackError::TableSizeTooLarge);
                }
                self.table.set_max_size(size);
                self.must_update = false;
                continue;
            }
            if self.must_update {
                return Err(HpackError::TableSizeUpdateMissing);
            }
            in_fields = true;
            if out.len() >= self.max_fields {
                return Err(HpackError::TooManyFields);
            }
            let budget = self.max_list_size.saturating_sub(list_size);
            let added = if byte & 0x80 != 0 {
                // §6.1 Indexed Header Field: 1xxxxxxx
                let index = decode_integer(src, &mut pos, 7)?;
                let (name, value, id) = self.table.lookup(index).ok_or(HpackError::InvalidIndex)?;
                let size = name.len() + value.len() + ENTRY_OVERHEAD;
                if size > budget {
                    return Err(HpackError::HeaderListTooLarge);
                }
                let record = match id {
                    None => [index as u32, 0, 0, 0, FIELD_STATIC, 0],
                    Some(id) => [id, 0, 0, 0, FIELD_DYNAMIC, 0],
                };
                out.fields.extend_from_slice(&record);
                size
            } else {
                // §6.2: 01xxxxxx incremental indexing, 0000xxxx without, 0001xxxx never indexed.
                let (prefix, index_it, flags) = match byte & 0xf0 {
                    0x00 => (4, false, 0),
                    0x10 => (4, false, FIELD_NEVER_INDEXED),
                    _ => (6, true, 0),
                };
                let added = self.literal(src, &mut pos, prefix, flags, budget, out)?;
                if index_it {
                    let last = out.len() - 1;
                    let (name, value) = out.literal(last);
                    if let Some(id) = self.table.insert(name, value) {
                        let w = last * FIELD_WORDS;
                        out.fields[w + 4] |= FIELD_INSERTED;
                        out.fields[w + 5] = id;
                    }
                }
                added
            };
            list_size += added;
        }
        if self.must_update {
            return Err(HpackError::TableSizeUpdateMissing);
        }
        Ok(())
    }

    /// A literal field (§6.2): name by index or literal, then the value; returns its §4.1 size.
    fn literal(
        &self,
        src: &[u8],
        pos: &mut usize,
        prefix: u32,
        flags: u32,
        budget: usize,
        out: &mut DecodedBlock,
    ) -> Result<usize, HpackError> {
        let index = decode_integer(src, pos, prefix)?;
        let name_off = out.arena.len();
        if index == 0 {
            decode_string(
                src,
                pos,
                budget.saturating_sub(ENTRY_OVERHEAD),
                &mut out.arena,
            )?;
        } else {
            let (name, _, _) = self.table.lookup(index).ok_or(HpackError::InvalidIndex)?;
            out.arena.extend_from_slice(name);
        }
        let name_len = out.arena.len() - name_off;
        let value_budget = budget.saturating_sub(ENTRY_OVERHEAD + name_len);
        let value_off = out.arena.len();
        decode_string(src, pos, value_budget, &mut out.arena)?;
        let value_len = out.arena.len() - value_off;
        if name_len + ENTRY_OVERHEAD > budget || value_len > value_budget {
            return Err(HpackError::HeaderListTooLarge);
        }
        out.fields.extend_from_slice(&[
            name_off as u32,
            name_len as u32,
            value_off as u32,
            value_len as u32,
            flags,
            0,
        ]);
        Ok(name_len + value_len + ENTRY_OVERHEAD)
    }
}

/// §5.2: a string literal, Huffman-coded or raw, appended to `arena`. A raw string longer than
/// `budget` fails before it is copied; a Huffman one can only grow 8/5 of its (bounded) input.
fn decode_string(
    src: &[u8],
    pos: &mut usize,
    budget: usize,
    arena: &mut Vec<u8>,
) -> Result<(), HpackError> {
    let huffman_coded = src.get(*pos).ok_or(HpackError::Truncated)? & 0x80 != 0;
    let len = decode_integer(src, pos, 7)?;
    let end = pos
        .checked_add(len)
        .filter(|&end| end <= src.len())
        .ok_or(HpackError::Truncated)?;
    let bytes = &src[*pos..end];
    *pos = end;
    if huffman_coded {
        huffman::decode(bytes, arena)
    } else if len > budget {
        Err(HpackError::HeaderListTooLarge)
    } else {
        arena.extend_from_slice(bytes);
        Ok(())
    }
}
