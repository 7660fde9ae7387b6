//! Memory Model Relaxation Annotations: tags, tag sets, and their algebra.
//!
//! A tag is a `prefix:suffix` pair; an operation carries a set of them (`!mmra`). The
//! optimizer-visible semantics is one relation, [`compatible`]: two sets are compatible
//! when, for every prefix present in either, the other set has no tag with that prefix
//! or the two share a tag with it. Operations with incompatible sets are not ordered by
//! happens-before. [`prefix_union`] combines the sets of two operations merged into one.
//! This module is usable on its own; it knows nothing about SPIR-V or the printer.
//!
//! ```
//! use spirv_lift::mmra::{compatible, Tag, TagSet};
//! let store = TagSet::from_tags([Tag::new("sync-as", "1"), Tag::new("vulkan", "nonprivate")]);
//! let release = TagSet::from_tags([Tag::new("sync-as", "0"), Tag::new("vulkan", "nonprivate")]);
//! assert!(!compatible(&store, &release)); // seed example 1: not ordered
//! ```

use std::borrow::Cow;
use std::fmt;

/// One tag: a prefix and a suffix (`sync-as:3` is `Tag::new("sync-as", "3")`). The
/// halves are borrowed when they are static text, as the translator's tags are (it makes
/// one set per memory access).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tag {
    /// The prefix, e.g. `vulkan`.
    pub prefix: Cow<'static, str>,
    /// The suffix, e.g. `nonprivate`.
    pub suffix: Cow<'static, str>,
}

impl Tag {
    /// A tag from its two halves.
    pub fn new(prefix: impl Into<String>, suffix: impl Into<String>) -> Tag {
        Tag {
            prefix: Cow::Owned(prefix.into()),
            suffix: Cow::Owned(suffix.into()),
        }
    }

    /// A tag from two static texts, borrowed (no allocation).
    pub const fn from_static(prefix: &'static str, suffix: &'static str) -> Tag {
        Tag {
            prefix: Cow::Borrowed(prefix),
            suffix: Cow::Borrowed(suffix),
        }
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.prefix, self.suffix)
    }
}

/// A set of tags, kept sorted and free of duplicates (so equal sets compare equal and
/// print identically). The empty set is what an operation without `!mmra` has.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TagSet {
    tags: Vec<Tag>,
}

impl TagSet {
    /// The empty set.
    pub fn new() -> TagSet {
        TagSet::default()
    }

    /// A set from any tags (sorted and deduplicated here).
    pub fn from_tags(tags: impl IntoIterator<Item = Tag>) -> TagSet {
        let mut tags: Vec<Tag> = tags.into_iter().collect();
        tags.sort_unstable();
        tags.dedup();
        TagSet { tags }
    }

    /// Adds a tag, keeping the set sorted.
    pub fn insert(&mut self, tag: Tag) {
        if let Err(at) = self.tags.binary_search(&tag) {
            self.tags.insert(at, tag);
        }
    }

    /// Whether the set has no tags.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }

    /// Number of tags.
    pub fn len(&self) -> usize {
        self.tags.len()
    }

    /// The tags in order.
    pub fn iter(&self) -> impl Iterator<Item = &Tag> {
        self.tags.iter()
    }

    /// Whether the set holds this tag.
    pub fn contains(&self, tag: &Tag) -> bool {
        self.tags.binary_search(tag).is_ok()
    }

    /// Whether the set holds a tag with this prefix.
    pub fn has_prefix(&self, prefix: &str) -> bool {
        self.tags.iter().any(|t| t.prefix == prefix)
    }
}

impl fmt::Display for TagSet {
    /// `{sync-as:3, vulkan:nonprivate}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, t) in self.tags.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{t}")?;
        }
        f.write_str("}")
    }
}

/// The seed's compatibility relation: for every prefix P present in either set, the
/// other set has no tag with prefix P, or the two sets share a tag with prefix P.
pub fn compatible(a: &TagSet, b: &TagSet) -> bool {
    let one_way = |x: &TagSet, y: &TagSet| {
        x.iter()
            .all(|t| y.contains(t) || !y.has_prefix(&t.prefix) || shares_prefix(x, y, &t.prefix))
    };
    one_way(a, b) && one_way(b, a)
}

fn shares_prefix(x: &TagSet, y: &TagSet, prefix: &str) -> bool {
    x.iter().any(|t| t.prefix == prefix && y.contains(t))
}

/// The prefix-wise union of the seed's "combining operations": for every prefix P present
/// in either set, no tag with P if one set has none; otherwise every tag with P from both.
///
/// This is the rule as the seed states it and as LLVM implements it
/// (`MMRAMetadata::combine`). The seed's illustrations keep only the tags common to both
/// sets; that result can drop an ordering one of the inputs had (see the tests), so the
/// stated rule is the one implemented.
pub fn prefix_union(a: &TagSet, b: &TagSet) -> TagSet {
    let keep = |t: &Tag, other: &TagSet| other.has_prefix(&t.prefix);
    TagSet::from_tags(
        a.iter()
            .filter(|t| keep(t, b))
            .chain(b.iter().filter(|t| keep(t, a)))
            .cloned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(tags: &[(&str, &str)]) -> TagSet {
        TagSet::from_tags(tags.iter().map(|(p, s)| Tag::new(*p, *s)))
    }

    #[test]
    fn seed_examples_1_to_4() {
        // 1: store sync-as:1 vulkan:nonprivate vs release sync-as:0 vulkan:nonprivate: unordered.
        assert!(!compatible(
            &set(&[("sync-as", "1"), ("vulkan", "nonprivate")]),
            &set(&[("sync-as", "0"), ("vulkan", "nonprivate")])
        ));
        // 2: same sync-as: ordering unaffected.
        assert!(compatible(
            &set(&[("sync-as", "1"), ("vulkan", "nonprivate")]),
            &set(&[("sync-as", "1"), ("vulkan", "nonprivate")])
        ));
        // 3: the release has no sync-as tag: compatible.
        assert!(compatible(
            &set(&[("sync-as", "1"), ("vulkan", "nonprivate")]),
            &set(&[("vulkan", "nonprivate")])
        ));
        // 4: sync-as:1 vs sync-as:2: unordered.
        assert!(!compatible(
            &set(&[("sync-as", "1")]),
            &set(&[("sync-as", "2")])
        ));
    }

    #[test]
    fn seed_two_thread_vulkan_example() {
        let nonprivate = set(&[("vulkan", "nonprivate")]);
        let private = set(&[("vulkan", "private")]);
        // A (nonprivate) is ordered before X; B (private) is not; same for Y with D and C.
        assert!(compatible(&nonprivate, &nonprivate));
        assert!(!compatible(&private, &nonprivate));
        // Interop: T2's acquire tagged foo:bar is compatible with untagged B and nonprivate A.
        assert!(compatible(&set(&[("foo", "bar")]), &nonprivate));
        assert!(compatible(&set(&[("foo", "bar")]), &TagSet::new()));
    }

    #[test]
    fn seed_sync_as_example() {
        let (global, local) = (set(&[("sync-as", "1")]), set(&[("sync-as", "3")]));
        // X/Y are sync-as:3: B and C (local) are ordered, A and D (global) are not.
        assert!(compatible(&local, &local));
        assert!(!compatible(&global, &local));
    }

    #[test]
    fn seed_union_examples() {
        // 1: A = foo:x foo:y bar:x, B = foo:x bar:y. The seed illustrates U = {foo:x}; its
        // rule (and LLVM) gives every foo and bar tag of both sets.
        let a = set(&[("foo", "x"), ("foo", "y"), ("bar", "x")]);
        let b = set(&[("foo", "x"), ("bar", "y")]);
        let u = prefix_union(&a, &b);
        assert_eq!(
            u,
            set(&[("foo", "x"), ("foo", "y"), ("bar", "x"), ("bar", "y")])
        );
        // The illustrated {foo:x} would unorder an op tagged foo:y, which A was ordered with.
        let c = set(&[("foo", "y")]);
        assert!(compatible(&a, &c));
        assert!(compatible(&u, &c));
        assert!(!compatible(&set(&[("foo", "x")]), &c));
        // 2: A = foo:x foo:y, B = foo:x bux:y: bux only in B is dropped.
        let u2 = prefix_union(
            &set(&[("foo", "x"), ("foo", "y")]),
            &set(&[("foo", "x"), ("bux", "y")]),
        );
        assert_eq!(u2, set(&[("foo", "x"), ("foo", "y")]));
        // 3: A empty: nothing.
        assert!(prefix_union(&TagSet::new(), &set(&[("foo", "x"), ("bar", "y")])).is_empty());
    }

    #[test]
    fn llvm_combine_cases() {
        let (foo0, foo10, bar0) = (
            set(&[("foo", "0")]),
            set(&[("foo", "0"), ("foo", "1")]),
            set(&[("bar", "0")]),
        );
        let barfoo0 = set(&[("bar", "0"), ("foo", "0")]);
        assert_eq!(prefix_union(&foo0, &foo10), foo10);
        assert!(prefix_union(&foo0, &bar0).is_empty());
        assert_eq!(prefix_union(&barfoo0, &foo0), foo0);
        assert_eq!(prefix_union(&barfoo0, &bar0), bar0);
        assert_eq!(prefix_union(&barfoo0, &foo10), foo10);
    }

    #[test]
    fn sets_are_sorted_and_deduplicated() {
        let s = set(&[
            ("vulkan", "private"),
            ("sync-as", "3"),
            ("vulkan", "private"),
        ]);
        assert_eq!(s.to_string(), "{sync-as:3, vulkan:private}");
        assert_eq!(s.len(), 2);
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        fn tagset() -> impl Strategy<Value = TagSet> {
            proptest::collection::vec((0..3u8, 0..3u8), 0..6).prop_map(|v| {
                TagSet::from_tags(
                    v.into_iter()
                        .map(|(p, s)| Tag::new(format!("p{p}"), format!("s{s}"))),
                )
            })
        }

        proptest! {
            #[test]
            fn empty_is_compatible_with_everything(a in tagset()) {
                prop_assert!(compatible(&a, &TagSet::new()));
                prop_assert!(compatible(&TagSet::new(), &a));
            }

            #[test]
            fn compatibility_is_reflexive_and_symmetric(a in tagset(), b in tagset()) {
                prop_assert!(compatible(&a, &a));
                prop_assert_eq!(compatible(&a, &b), compatible(&b, &a));
            }

            #[test]
            fn union_is_compatible_with_both_inputs(a in tagset(), b in tagset()) {
                let u = prefix_union(&a, &b);
                prop_assert!(compatible(&u, &a));
                prop_assert!(compatible(&u, &b));
            }

            #[test]
            fn union_never_unorders_what_an_input_ordered(a in tagset(), b in tagset(), c in tagset()) {
                // Merging A and B must not relax ordering with C that both had.
                if compatible(&a, &c) && compatible(&b, &c) {
                    prop_assert!(compatible(&prefix_union(&a, &b), &c));
                }
            }

            #[test]
            fn union_is_commutative_and_idempotent(a in tagset(), b in tagset()) {
                prop_assert_eq!(prefix_union(&a, &b), prefix_union(&b, &a));
                prop_assert_eq!(prefix_union(&a, &a), a.clone());
            }

            #[test]
            fn disjoint_prefixes_are_compatible(a in tagset(), b in tagset()) {
                let shared = a.iter().any(|t| b.has_prefix(&t.prefix));
                if !shared {
                    prop_assert!(compatible(&a, &b));
                }
            }
        }
    }
}
