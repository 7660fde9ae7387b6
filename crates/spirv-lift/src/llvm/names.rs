//! Deterministic, unique, printable names.

use std::borrow::Cow;

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

/// `hint` made a plain identifier (borrowed when it is one already).
fn sanitize(hint: &str) -> Cow<'_, str> {
    let plain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_');
    if hint.bytes().all(plain) && hint.bytes().next().is_some_and(|b| !b.is_ascii_digit()) {
        return Cow::Borrowed(hint);
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
    Cow::Owned(s)
}

impl Namer {
    /// A unique name derived from `hint`: the sanitized hint, or it with `.N` appended
    /// (`N` counting on from the last suffix this base was given).
    pub fn unique(&mut self, hint: &str) -> String {
        let base = sanitize(hint);
        let base_n = match self.insert(&base) {
            Ok(_) => return base.into_owned(),
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
/// by a key instead of the text (a function of a million values would otherwise keep a
/// second copy of every name; the names themselves are in the function's locals and
/// blocks).
///
/// What the lowering calls a value or block without an `OpName` — `_N` and `bbN`, N its
/// id — is keyed by N, and a function's ids are numbered consecutively: such a name is one
/// bit in a window of ids ([`Numbered`]), an eighth of a byte per id instead of the 9 bytes
/// of a hash-set slot. Any other name is keyed by a 64-bit hash of its text. Two
/// different names with the same hash only make the later one take the next `.N` suffix:
/// names stay unique, and the hash is fixed, so the output is the same on every run.
#[derive(Clone, Debug, Default)]
pub struct LocalNamer {
    /// `_N` and `bbN` names, one bit per N, while N is in the windows' reach.
    values: Numbered,
    blocks: Numbered,
    /// Every other name's key, and numbered names outside the windows.
    taken: std::collections::HashSet<u64, LocalKeys>,
    /// Whether `taken` holds a numbered key (then a numbered name is looked up there
    /// too: it may have been given before its window reached it).
    numbered_in_set: bool,
    /// The last suffix given to each base that needed one.
    suffixes: std::collections::HashMap<u64, u32, LocalKeys>,
}

impl LocalNamer {
    /// A unique name derived from `hint`: as [`Namer::unique`] (the first of `base`,
    /// `base.1`, `base.2`, … not taken, continuing from the last suffix `base` was given;
    /// the same names in the same order).
    pub fn unique<'h>(&mut self, hint: &'h str) -> Cow<'h, str> {
        let base = sanitize(hint);
        let base_key = local_key(&base);
        if self.insert(base_key) {
            return base;
        }
        let mut candidate = String::with_capacity(base.len() + 4);
        loop {
            let n = self.suffixes.entry(base_key).or_insert(0);
            *n += 1;
            // `{base}.{n}`, without `format!` (temporaries share a few hints).
            candidate.clear();
            candidate.push_str(&base);
            candidate.push('.');
            // Writing to a String cannot fail.
            let _ = super::print::num(&mut candidate, u64::from(*n));
            if self.insert(local_key(&candidate)) {
                return Cow::Owned(candidate);
            }
        }
    }

    /// Takes `_N` if it is free (what [`LocalNamer::unique`] gives for the hint `_N` then,
    /// without writing the hint): whether it was. A taken `_N` is left to `unique`, which
    /// gives it a suffix.
    pub fn take_numbered(&mut self, n: u32) -> bool {
        // `local_key` reads at most 9 digits as a number.
        n <= 999_999_999 && self.insert(NUMBERED | u64::from(n))
    }

    /// [`take_numbered`](Self::take_numbered) for the block name `bbN`.
    pub fn take_numbered_block(&mut self, n: u32) -> bool {
        n <= 999_999_999 && self.insert(NUMBERED | BLOCK | u64::from(n))
    }

    /// Marks a name given before as taken (to rebuild a namer from the names it gave:
    /// the next names are the same, as a base's suffixes were all taken up to the last).
    pub fn take(&mut self, name: &str) {
        self.insert(local_key(name));
    }

    /// Takes a key: whether it was free.
    fn insert(&mut self, key: u64) -> bool {
        if key & NUMBERED != 0 {
            let window = if key & BLOCK != 0 {
                &mut self.blocks
            } else {
                &mut self.values
            };
            let n = (key & 0xFFFF_FFFF) as u32;
            if window.reaches(n) {
                if self.numbered_in_set && self.taken.contains(&key) {
                    return false;
                }
                return window.insert(n);
            }
            self.numbered_in_set = true;
        }
        self.taken.insert(key)
    }

    /// The number of names taken (by key).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.values.count + self.blocks.count + self.taken.len()
    }
}

/// A set of numbers as bits in a window `[base, base + 64 × words)` that starts at the
/// first number taken and grows upward while it stays within 64 bits per number taken
/// (plus 64 Ki bits): a function's ids cost an eighth of a byte each, and scattered
/// numbers never make the window larger than 8 bytes per number (they go to the namer's
/// hash set instead).
#[derive(Clone, Debug, Default)]
struct Numbered {
    base: u32,
    bits: Vec<u64>,
    count: usize,
}

impl Numbered {
    /// Whether `n` is in the window, growing it (or placing it first) if allowed.
    fn reaches(&mut self, n: u32) -> bool {
        if self.bits.is_empty() {
            self.base = n & !63;
        }
        if n < self.base {
            return false;
        }
        let word = ((n - self.base) / 64) as usize;
        if word < self.bits.len() {
            return true;
        }
        let allowed = self.count + 1024;
        if word >= allowed {
            return false;
        }
        let len = (word + 1).max(self.bits.len() * 2).min(allowed);
        self.bits.resize(len, 0);
        true
    }

    /// Sets `n`'s bit (in the window): whether it was clear.
    fn insert(&mut self, n: u32) -> bool {
        let off = n - self.base;
        let (word, bit) = ((off / 64) as usize, 1u64 << (off % 64));
        let free = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        self.count += usize::from(free);
        free
    }
}

/// Marks a [`LocalNamer`] key that is the number N of a name `_N` or `bbN`.
const NUMBERED: u64 = 1 << 63;
/// With [`NUMBERED`]: the name is `bbN`.
const BLOCK: u64 = 1 << 62;

/// A [`LocalNamer`] key: N with [`NUMBERED`] for `_N`, and also [`BLOCK`] for `bbN` (N
/// written as Rust prints a `u32`: no sign, no leading zero, at most 9 digits), else a
/// 64-bit hash of the text without the [`NUMBERED`] bit. Distinct names share a key only
/// as two hashes can, which the namer tolerates (see [`LocalNamer`]).
fn local_key(name: &str) -> u64 {
    let numbered = |digits: &str| {
        (!digits.is_empty()
            && digits.len() <= 9
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0')))
        .then(|| {
            // At most 9 digits: the value fits in a u32.
            digits
                .bytes()
                .fold(0u64, |n, b| n * 10 + u64::from(b - b'0'))
        })
    };
    if let Some(n) = name.strip_prefix('_').and_then(numbered) {
        return NUMBERED | n;
    }
    if let Some(n) = name.strip_prefix("bb").and_then(numbered) {
        return NUMBERED | BLOCK | n;
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

#[cfg(test)]
mod tests {
    #[test]
    fn numbered_names_are_the_ones_unique_gives() {
        use super::LocalNamer;
        let ids = [
            5u32,
            7,
            5,
            1_000_000_000,
            999_999_999,
            7,
            0,
            64,
            65,
            70_000,
            5,
        ];
        let (mut fast, mut slow) = (LocalNamer::default(), LocalNamer::default());
        // Values `_N` and blocks `bbN` in one namer, as a function's are; names given
        // through `unique` in between (a hint that is also a number's name).
        for (k, &n) in ids.iter().enumerate() {
            let mut kinds = [
                (
                    "_",
                    LocalNamer::take_numbered as fn(&mut LocalNamer, u32) -> bool,
                ),
                ("bb", LocalNamer::take_numbered_block),
            ];
            // Either kind first: neither takes the other's name.
            if k % 2 == 1 {
                kinds.reverse();
            }
            for (prefix, take) in kinds {
                let want = slow.unique(&format!("{prefix}{n}")).into_owned();
                let have = if take(&mut fast, n) {
                    format!("{prefix}{n}")
                } else {
                    fast.unique(&format!("{prefix}{n}")).into_owned()
                };
                assert_eq!(have, want, "{prefix}{n}");
                if k % 3 == 0 {
                    let hint = format!("{prefix}{}", n + 1);
                    assert_eq!(fast.unique(&hint), slow.unique(&hint));
                }
            }
        }
    }

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
        .map(|h| n.unique(h).into_owned())
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
        assert_eq!(local_key("bb5"), NUMBERED | BLOCK | 5);
        for text in [
            "_05",
            "_",
            "_5a",
            "_1234567890",
            "5",
            "x",
            "bb",
            "bb05",
            "bb_5",
            "b5",
        ] {
            assert_eq!(local_key(text) & NUMBERED, 0, "{text}");
        }
    }

    /// A function of a million `_N` values, in order and out of order, gets each name once
    /// and keeps every key in the table (the number hasher places keys, it does not merge
    /// them).
    #[test]
    fn a_million_numbered_names_are_all_distinct() {
        let mut n = LocalNamer::default();
        for i in (0..1u32 << 20)
            .rev()
            .step_by(2)
            .chain((0..1u32 << 20).step_by(2))
        {
            assert_eq!(n.unique(&format!("_{i}")), format!("_{i}"));
        }
        assert_eq!(n.len(), 1 << 20);
        assert_eq!(n.unique("_7"), "_7.1");
    }

    /// A numbered name given while out of its window's reach (below the first number, or
    /// far above) is in the hash set, and is still taken once the window reaches it; a
    /// window never grows past 64 bits per number taken (plus 64 Ki bits), however far
    /// apart the numbers are.
    #[test]
    fn numbered_names_out_of_the_window_stay_taken() {
        let mut n = LocalNamer::default();
        assert_eq!(n.unique("_1000"), "_1000");
        assert_eq!(n.unique("_5"), "_5");
        assert_eq!(n.unique("_5"), "_5.1");
        assert_eq!(n.unique("bb5"), "bb5");
        assert_eq!(n.unique("bb5"), "bb5.1");
        let far = 1000 + 64 * 2000;
        assert_eq!(n.unique(&format!("_{far}")), format!("_{far}"));
        assert!(n.values.bits.len() <= 1025, "{}", n.values.bits.len());
        // Fill the window up to `far`: it grows to reach it, and `_far` stays taken.
        for i in 1001..far {
            n.take(&format!("_{i}"));
        }
        assert!(n.values.reaches(far));
        assert_eq!(n.unique(&format!("_{far}")), format!("_{far}.1"));
        // Scattered numbers: the window stays small, the names unique.
        let mut s = LocalNamer::default();
        for i in 0..1000u32 {
            let id = i * 1_000_000;
            assert_eq!(s.unique(&format!("_{id}")), format!("_{id}"));
        }
        assert!(s.values.bits.len() <= 2048);
        assert_eq!(s.unique("_7000000"), "_7000000.1");
        assert_eq!(s.len(), 1001);
    }
}
