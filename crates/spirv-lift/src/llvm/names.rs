//! Deterministic, unique, printable names.

use super::intern::StrInterner;

/// Hands out unique names within one namespace (the module's globals and functions).
/// Every name given is interned once (a module of many functions would otherwise keep a
/// `String` per name here as well as in the function).
#[derive(Clone, Debug, Default)]
pub struct Namer {
    /// The names given, numbered in order.
    names: StrInterner,
    /// The last suffix given to each base (by its name number) that needed one.
    suffixes: foldhash::HashMap<u32, u32>,
}

/// Whether `s` can be printed after `%`/`@` without quotes and is not all digits.
pub fn is_plain_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || matches!(c, '-' | '$' | '.' | '_') => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_'))
}

fn sanitize(hint: &str) -> String {
    let plain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_');
    if hint.bytes().all(plain) && hint.bytes().next().is_some_and(|b| !b.is_ascii_digit()) {
        return hint.to_string();
    }
    let mut s: String = hint
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        s.push('v');
    } else if s.as_bytes()[0].is_ascii_digit() {
        s.insert(0, '_');
    }
    s
}

impl Namer {
    /// A unique name derived from `hint`: the sanitized hint, or it with `.N` appended
    /// (`N` counting on from the last suffix this base was given).
    pub fn unique(&mut self, hint: &str) -> String {
        let base = sanitize(hint);
        let base_n = match self.insert(&base) {
            Ok(_) => return base,
            Err(n) => n,
        };
        loop {
            let n = self.suffixes.entry(base_n).or_insert(0);
            *n += 1;
            let candidate = format!("{base}.{n}");
            if self.insert(&candidate).is_ok() {
                return candidate;
            }
        }
    }

    /// Takes `name`: its number, or `Err` with the number it has if it was taken.
    fn insert(&mut self, name: &str) -> Result<u32, u32> {
        match self.names.get(name) {
            Some(n) => Err(n),
            None => Ok(self.names.push_new(name)),
        }
    }

    /// A unique name `prefix.hint`.
    pub fn unique_in(&mut self, prefix: &str, hint: &str) -> String {
        self.unique(&format!("{prefix}.{hint}"))
    }

    /// Whether a name is taken.
    pub fn is_taken(&self, name: &str) -> bool {
        self.names.get(name).is_some()
    }
}

/// Hands out names unique within one function: [`Namer::unique`]'s names, remembered
/// by a 64-bit hash instead of the text (a function of a million values would otherwise
/// keep a second copy of every name; the names themselves are in the function's
/// locals and blocks). Two different names with the same hash only make the later one
/// take the next `.N` suffix: names stay unique, and the hash is fixed, so the output is
/// the same on every run.
///
/// A name `_N` (what the lowering calls a value without an `OpName`, N its id) is keyed by
/// N itself rather than a hash of its text, and the table places such keys in the order
/// of N ([`LocalKeys`]): a function's values are numbered consecutively, so inserting
/// them touches the table in order instead of at random (a function of 3 million values
/// spent 16 % of its translation in cache misses here).
#[derive(Clone, Debug, Default)]
pub struct LocalNamer {
    taken: Taken<u64, LocalKeys>,
}

impl LocalNamer {
    /// As [`Namer::unique`] (the same names in the same order).
    pub fn unique(&mut self, hint: &str) -> String {
        self.taken.unique(hint, local_key)
    }

    /// Marks a name given before as taken (to rebuild a namer from the names it gave:
    /// the next names are the same, as a base's suffixes were all taken up to the last).
    pub fn take(&mut self, name: &str) {
        self.taken.taken.insert(local_key(name));
    }

    /// Room for `n` more names without growing.
    pub fn reserve(&mut self, n: usize) {
        self.taken.taken.reserve(n);
    }
}

/// Marks a [`LocalNamer`] key that is the number N of a name `_N`.
const NUMBERED: u64 = 1 << 63;

/// A [`LocalNamer`] key: N with [`NUMBERED`] for `_N` (N written as Rust prints a `u32`:
/// no sign, no leading zero), else a 64-bit hash of the text without that bit. Distinct
/// names share a key only as two hashes can, which the namer tolerates (see
/// [`LocalNamer`]).
fn local_key(name: &str) -> u64 {
    if let Some(digits) = name.strip_prefix('_')
        && !digits.is_empty()
        && digits.len() <= 9
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
    {
        // At most 9 digits: the value fits in a u32.
        let n = digits
            .bytes()
            .fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
        return NUMBERED | n;
    }
    name_hash(name) & !NUMBERED
}

fn name_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0x5350_4952_565f_4c49).hash_one(name)
}

/// Hashes [`local_key`]s: a text's key is a hash already and is used as it is; a number's
/// keeps the number in its low bits, so consecutive numbers land in neighbouring buckets,
/// and takes its top 7 bits (hashbrown's tag within a group) from a multiplicative mix.
#[derive(Clone, Copy, Debug, Default)]
struct LocalKeys;

impl std::hash::BuildHasher for LocalKeys {
    type Hasher = LocalKeyHasher;
    fn build_hasher(&self) -> LocalKeyHasher {
        LocalKeyHasher(0)
    }
}

#[derive(Clone, Copy, Debug)]
struct LocalKeyHasher(u64);

impl std::hash::Hasher for LocalKeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed here; any other input is still mixed in.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
    fn finish(&self) -> u64 {
        let k = self.0;
        if k & NUMBERED == 0 {
            return k;
        }
        let n = k & !NUMBERED;
        n ^ (n.wrapping_mul(0x9E37_79B9_7F4A_7C15) & (0x7F << 57))
    }
}

/// The names given, by key (the text, or its hash), and the last suffix given to each
/// base that needed one.
#[derive(Clone, Debug, Default)]
struct Taken<K, S = foldhash::fast::RandomState> {
    taken: std::collections::HashSet<K, S>,
    suffixes: std::collections::HashMap<K, u32, S>,
}

impl<K: std::hash::Hash + Eq + Clone, S: std::hash::BuildHasher> Taken<K, S> {
    /// The first of `base`, `base.1`, `base.2`, … (`base` the sanitized hint) whose key
    /// is not taken, continuing from the last suffix `base` gave.
    fn unique(&mut self, hint: &str, key: impl Fn(&str) -> K) -> String {
        let base = sanitize(hint);
        let base_key = key(&base);
        if self.taken.insert(base_key.clone()) {
            return base;
        }
        loop {
            let n = match self.suffixes.get_mut(&base_key) {
                Some(n) => {
                    *n += 1;
                    *n
                }
                None => {
                    self.suffixes.insert(base_key.clone(), 1);
                    1
                }
            };
            let candidate = format!("{base}.{n}");
            if self.taken.insert(key(&candidate)) {
                return candidate;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names `_N` are keyed by N, every other name by a hash of its text: the two kinds
    /// never take each other's place, and each name is handed out once.
    #[test]
    fn module_names_are_unique_and_suffixes_count_on() {
        let mut n = Namer::default();
        let given: Vec<String> = ["x", "x", "x.1", "x", "", "9a", "a b", "a_b", "x"]
            .iter()
            .map(|h| n.unique(h))
            .collect();
        assert_eq!(
            given,
            [
                "x", "x.1", "x.1.1", "x.2", "v", "_9a", "a_b", "a_b.1", "x.3"
            ]
        );
        for name in &given {
            assert!(n.is_taken(name), "{name}");
        }
        assert!(!n.is_taken("x.4") && !n.is_taken("y"));
        assert_eq!(n.unique_in("struct", "S"), "struct.S");
        assert_eq!(n.unique_in("struct", "S"), "struct.S.1");
    }

    #[test]
    fn numbered_and_other_names_stay_unique() {
        let mut n = LocalNamer::default();
        let given: Vec<String> = [
            "_5",
            "_5",
            "5",
            "_05",
            "_5.1",
            "x",
            "x",
            "_4294967295",
            "_0",
        ]
        .iter()
        .map(|h| n.unique(h))
        .collect();
        assert_eq!(
            given,
            [
                "_5",
                "_5.1",
                "_5.2",
                "_05",
                "_5.1.1",
                "x",
                "x.1",
                "_4294967295",
                "_0"
            ]
        );
        assert_eq!(local_key("_5"), NUMBERED | 5);
        assert_eq!(local_key("_0"), NUMBERED);
        for text in ["_05", "_", "_5a", "_1234567890", "5", "x"] {
            assert_eq!(local_key(text) & NUMBERED, 0, "{text}");
        }
    }

    /// A function of a million `_N` values, in order and out of order, gets each name once
    /// and keeps every key in the table (the number hasher places keys, it does not merge
    /// them).
    #[test]
    fn a_million_numbered_names_are_all_distinct() {
        let mut n = LocalNamer::default();
        n.reserve(1 << 20);
        for i in (0..1u32 << 20)
            .rev()
            .step_by(2)
            .chain((0..1u32 << 20).step_by(2))
        {
            assert_eq!(n.unique(&format!("_{i}")), format!("_{i}"));
        }
        assert_eq!(n.taken.taken.len(), 1 << 20);
        assert_eq!(n.unique("_7"), "_7.1");
    }
}
