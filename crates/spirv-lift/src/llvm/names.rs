//! Deterministic, unique, printable names.

use foldhash::HashMap;

/// Hands out unique names within one namespace.
#[derive(Clone, Debug, Default)]
pub struct Namer {
    taken: HashMap<String, u32>,
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
        let base = sanitize(hint);
        if let std::collections::hash_map::Entry::Vacant(e) = self.taken.entry(base.clone()) {
            e.insert(0);
            return base;
        }
        loop {
            let n = {
                let c = self.taken.get_mut(&base).map(|c| {
                    *c += 1;
                    *c
                });
                c.unwrap_or(1)
            };
            let candidate = format!("{base}.{n}");
            if !self.taken.contains_key(&candidate) {
                self.taken.insert(candidate.clone(), 0);
                return candidate;
            }
        }
    }

    /// A unique name `prefix.hint`.
    pub fn unique_in(&mut self, prefix: &str, hint: &str) -> String {
        self.unique(&format!("{prefix}.{hint}"))
    }

    /// Whether a name is taken.
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains_key(name)
    }
}
