//! The indexing tables (RFC 7541 §2.3): the static table, then the dynamic table (newest first),
//! with §4.1 size accounting and §4.4 eviction.

use std::collections::VecDeque;

use super::rfc7541::STATIC_TABLE;

pub const STATIC_LEN: usize = STATIC_TABLE.len();

/// §4.1: an entry's size is its name and value lengths plus 32.
pub const ENTRY_OVERHEAD: usize = 32;

pub fn entry_size(name: &[u8], value: &[u8]) -> usize {
    name.len() + value.len() + ENTRY_OVERHEAD
}

/// FNV-1a: a fast hash for short header names (lookups compare name hashes first).
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in bytes {
        hash = (hash ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    hash
}

/// Byte-slice equality eight bytes at a time: slice `==` lowers to compiler-builtins' `memcmp`,
/// which walks wasm memory one byte at a time.
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (a_words, a_rest) = a.split_at(a.len() & !7);
    let (b_words, b_rest) = b.split_at(a_words.len());
    a_words
        .chunks_exact(8)
        .zip(b_words.chunks_exact(8))
        .all(|(x, y)| {
            u64::from_le_bytes(x.try_into().unwrap()) == u64::from_le_bytes(y.try_into().unwrap())
        })
        && a_rest.iter().zip(b_rest).all(|(x, y)| x == y)
}

pub struct Entry {
    /// The name, then the value: one allocation per entry (two cost a first block ~5% more).
    bytes: Box<[u8]>,
    name_len: usize,
    pub name_hash: u32,
    /// Insertion number: entries are told apart by it across evictions (the JS side caches the
    /// strings of live entries by id).
    pub id: u32,
}

impl Entry {
    pub fn name(&self) -> &[u8] {
        &self.bytes[..self.name_len]
    }

    pub fn value(&self) -> &[u8] {
        &self.bytes[self.name_len..]
    }
}

pub struct DynamicTable {
    /// Newest first, as HPACK numbers them.
    entries: VecDeque<Entry>,
    size: usize,
    max_size: usize,
    next_id: u32,
}

impl DynamicTable {
    pub fn new(max_size: usize) -> Self {
        DynamicTable {
            entries: VecDeque::new(),
            size: 0,
            max_size,
            next_id: 0,
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn max_size(&self) -> usize {
        self.max_size
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entry `i` of the dynamic table (0 = newest).
    pub fn get(&self, i: usize) -> Option<&Entry> {
        self.entries.get(i)
    }

    /// Entry by HPACK index (1-based over static then dynamic): name, value, and the dynamic
    /// entry's id (None for the static table).
    pub fn lookup(&self, index: usize) -> Option<(&[u8], &[u8], Option<u32>)> {
        match index {
            0 => None,
            1..=STATIC_LEN => {
                let (name, value) = STATIC_TABLE[index - 1];
                Some((name, value, None))
            }
            _ => self
                .get(index - STATIC_LEN - 1)
                .map(|e| (e.name(), e.value(), Some(e.id))),
        }
    }

    /// The id of the oldest entry still in the table (ids below it were evicted).
    pub fn oldest_id(&self) -> u32 {
        self.entries.back().map_or(self.next_id, |e| e.id)
    }

    /// The id the next entry will get.
    pub fn next_id(&self) -> u32 {
        self.next_id
    }

    /// §4.3 / §4.4: evicts from the end until the new entry fits; an entry larger than the whole
    /// table empties it and is not added. Returns the new entry's id.
    pub fn insert(&mut self, name: &[u8], value: &[u8]) -> Option<u32> {
        let size = entry_size(name, value);
        if size > self.max_size {
            self.entries.clear();
            self.size = 0;
            return None;
        }
        self.evict_to(self.max_size - size);
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        self.entries.push_front(Entry {
            bytes: [name, value].concat().into_boxed_slice(),
            name_len: name.len(),
            name_hash: fnv1a(name),
            id,
        });
        self.size += size;
        Some(id)
    }

    /// §4.3: a new maximum size evicts entries until the table fits.
    pub fn set_max_size(&mut self, max_size: usize) {
        self.max_size = max_size;
        self.evict_to(max_size);
    }

    fn evict_to(&mut self, limit: usize) {
        while self.size > limit {
            let e = self.entries.pop_back().expect("size > 0 implies an entry");
            self.size -= e.bytes.len() + ENTRY_OVERHEAD;
        }
    }

    /// Iterates the entries newest first (dynamic index 0..).
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter()
    }
}
