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

/// A (name, value) entry, owned.
type Entry = (Box<[u8]>, Box<[u8]>);

pub struct DynamicTable {
    /// Newest first, as HPACK numbers them.
    entries: VecDeque<Entry>,
    size: usize,
    max_size: usize,
}

impl DynamicTable {
    pub fn new(max_size: usize) -> Self {
        DynamicTable {
            entries: VecDeque::new(),
            size: 0,
            max_size,
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
    pub fn get(&self, i: usize) -> Option<(&[u8], &[u8])> {
        self.entries.get(i).map(|(n, v)| (&n[..], &v[..]))
    }

    /// Entry by HPACK index (1-based over static then dynamic).
    pub fn lookup(&self, index: usize) -> Option<(&[u8], &[u8])> {
        match index {
            0 => None,
            1..=STATIC_LEN => Some(STATIC_TABLE[index - 1]),
            _ => self.get(index - STATIC_LEN - 1),
        }
    }

    /// §4.3 / §4.4: evicts from the end until the new entry fits; an entry larger than the whole
    /// table empties it and is not added.
    pub fn insert(&mut self, name: &[u8], value: &[u8]) {
        let size = entry_size(name, value);
        if size > self.max_size {
            self.entries.clear();
            self.size = 0;
            return;
        }
        self.evict_to(self.max_size - size);
        self.entries.push_front((name.into(), value.into()));
        self.size += size;
    }

    /// §4.3: a new maximum size evicts entries until the table fits.
    pub fn set_max_size(&mut self, max_size: usize) {
        self.max_size = max_size;
        self.evict_to(max_size);
    }

    fn evict_to(&mut self, limit: usize) {
        while self.size > limit {
            let (name, value) = self.entries.pop_back().expect("size > 0 implies an entry");
            self.size -= entry_size(&name, &value);
        }
    }

    /// Iterates (dynamic index 0.., name, value), newest first.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &[u8], &[u8])> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, (n, v))| (i, &n[..], &v[..]))
    }
}
