//! Deterministic, unique, printable names.

use foldhash::HashMap;

/// Hands out unique names within one namespace.
#[derive(Clone, Debug, Default)]
pub struct Namer {
    taken: Taken<String>,
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
    /// A unique name derived from `hint`: the sanitized hint, or it with `.N` appended.
    pub fn unique(&mut self, hint: &str) -> String {
        self.taken.unique(hint, str::to_string)
    }

    /// A unique name `prefix.hint`.
    pub fn unique_in(&mut self, prefix: &str, hint: &str) -> String {
        self.unique(&format!("{prefix}.{hint}"))
    }

    /// Whether a name is taken.
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.taken.contains(name)
    }
}

/// Hands out names unique within one function: [`Namer::unique`]'s names, remembered
/// by a 64-bit hash instead of the text (a function of a million values would otherwise
/// keep a second copy of every name; the names themselves are in the function's
/// locals and blocks). Two different names with the same hash only make the later one
/// take the next `.N` suffix: names stay unique, and the hash is fixed, so the output is
/// the same on every run.
#[derive(Clone, Debug, Default)]
pub struct LocalNamer {
    taken: Taken<u64>,
}

impl LocalNamer {
    /// As [`Namer::unique`] (the same names in the same order).
    pub fn unique(&mut self, hint: &str) -> String {
        self.taken.unique(hint, name_hash)
    }

    /// Room for `n` more names without growing.
    pub fn reserve(&mut self, n: usize) {
        self.taken.taken.reserve(n);
    }
}

fn name_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0x5350_4952_565f_4c49).hash_one(name)
}

/// The names given, by key (the text, or its hash), and the last suffix given to each
/// base that needed one.
#[derive(Clone, Debug, Default)]
struct Taken<K> {
    taken: foldhash::HashSet<K>,
    suffixes: HashMap<K, u32>,
}

impl<K: std::hash::Hash + Eq + Clone> Taken<K> {
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
