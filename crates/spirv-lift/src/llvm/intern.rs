//! Interning tables that hold each value once: the values in a vector (their index is
//! their id) and a hash index of ids, not a second copy of every value as a map key
//! (constants, metadata nodes and types were stored twice).

use std::hash::{BuildHasher, Hash};

use hashbrown::HashTable;

/// Values by id, each value once.
#[derive(Clone, Debug)]
pub(crate) struct Interner<T> {
    items: Vec<T>,
    index: HashTable<u32>,
    state: foldhash::fast::RandomState,
}

impl<T> Default for Interner<T> {
    fn default() -> Self {
        Interner {
            items: Vec::new(),
            index: HashTable::new(),
            state: Default::default(),
        }
    }
}

impl<T: Hash + Eq> Interner<T> {
    /// The id of `value`, if it was interned.
    pub(crate) fn get(&self, value: &T) -> Option<u32> {
        let hash = self.state.hash_one(value);
        let items = &self.items;
        self.index
            .find(hash, |&i| items[i as usize] == *value)
            .copied()
    }

    /// Adds a value that is not interned yet (check with [`Interner::get`]); its id.
    pub(crate) fn push_new(&mut self, value: T) -> u32 {
        let hash = self.state.hash_one(&value);
        let id = u32::try_from(self.items.len()).expect("fewer than 2^32 interned values");
        self.items.push(value);
        let Interner {
            items,
            index,
            state,
        } = self;
        index.insert_unique(hash, id, |&i| state.hash_one(&items[i as usize]));
        id
    }

    /// The value of an id.
    pub(crate) fn value(&self, id: usize) -> &T {
        &self.items[id]
    }

    /// All values, in the order of their ids.
    pub(crate) fn values(&self) -> &[T] {
        &self.items
    }
}

/// Strings by id, each once: all in one text, found through a hash index of ids (a
/// `String` per string would cost its own allocation and 24 bytes more).
#[derive(Clone, Debug, Default)]
pub(crate) struct StrInterner {
    text: String,
    /// Where each string is in `text`.
    spans: Vec<(u32, u32)>,
    index: HashTable<u32>,
    state: foldhash::fast::RandomState,
}

impl StrInterner {
    /// The id of `s`, if it was interned.
    pub(crate) fn get(&self, s: &str) -> Option<u32> {
        let hash = self.state.hash_one(s);
        self.index.find(hash, |&i| self.value(i) == s).copied()
    }

    /// Adds a string that is not interned yet (check with [`StrInterner::get`]); its id.
    pub(crate) fn push_new(&mut self, s: &str) -> u32 {
        let id = u32::try_from(self.spans.len()).expect("fewer than 2^32 interned strings");
        let fits = |x: usize| u32::try_from(x).expect("interned text shorter than 4 GiB");
        let start = fits(self.text.len());
        self.text.push_str(s);
        self.spans.push((start, fits(self.text.len())));
        let hash = self.state.hash_one(s);
        let StrInterner {
            text,
            spans,
            index,
            state,
        } = self;
        index.insert_unique(hash, id, |&i| {
            let (a, b) = spans[i as usize];
            state.hash_one(&text[a as usize..b as usize])
        });
        id
    }

    /// The string of an id.
    pub(crate) fn value(&self, id: u32) -> &str {
        let (a, b) = self.spans[id as usize];
        &self.text[a as usize..b as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::{Interner, StrInterner};

    #[test]
    fn each_string_gets_one_id_in_order() {
        let mut t = StrInterner::default();
        let mut ids = Vec::new();
        for w in ["a", "bc", "a", "", "bc", "d"] {
            let id = match t.get(w) {
                Some(id) => id,
                None => t.push_new(w),
            };
            ids.push(id);
        }
        assert_eq!(ids, [0, 1, 0, 2, 1, 3]);
        assert_eq!([t.value(1), t.value(2), t.value(3)], ["bc", "", "d"]);
        assert_eq!(t.get("b"), None);
    }

    #[test]
    fn each_value_gets_one_id_in_order() {
        let mut t = Interner::default();
        let words = ["a", "b", "a", "c", "b"];
        let mut ids = Vec::new();
        for w in words {
            let id = match t.get(&w.to_string()) {
                Some(id) => id,
                None => t.push_new(w.to_string()),
            };
            ids.push(id);
        }
        assert_eq!(ids, [0, 1, 0, 2, 1]);
        assert_eq!(t.values(), ["a", "b", "c"]);
        assert_eq!(t.value(2), "c");
        assert_eq!(t.get(&"d".to_string()), None);
        // Many values: the index grows and still finds each.
        for i in 0..10_000u32 {
            assert_eq!(t.push_new(format!("v{i}")), i + 3);
        }
        for i in (0..10_000u32).step_by(97) {
            assert_eq!(t.get(&format!("v{i}")), Some(i + 3));
        }
    }
}
