//! What must survive a round trip (the comparisons behind `spirv-lift conform`).
//!
//! - [`sync`]: the barriers and atomics of a SPIR-V binary and the normalization under
//!   which a module and its trip through spirv-lift and LLVM's SPIR-V backend agree.
//! - [`compare_annotations`]: the `!mmra` tag set and `"convergencectrl"` bundle of every
//!   instruction, between spirv-lift's output and LLVM's re-print of it (`llvm-as |
//!   llvm-dis`), both read with [`crate::document`].
//! - [`effects::written_globals`]: the externally visible variables a module writes (the
//!   `effects` check: the same set before and after `opt -O2`).
//! - [`reader_fixpoint`]: reading spirv-lift's output and printing the reading gives the
//!   same text.
//!
//! The command itself (external tools, threads, the table) is in the binary.

pub mod effects;
pub mod sync;

use crate::document::{self, Document, Tag};
use std::collections::{BTreeMap, BTreeSet};

/// What the annotation check compares for one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    /// The opcode (to report, and to catch a misaligned comparison).
    pub opcode: String,
    /// The resolved `!mmra` tag set (`None`: no attachment).
    pub mmra: Option<BTreeSet<Tag>>,
    /// The `"convergencectrl"` bundle inputs (`None`: no such bundle).
    pub convergence: Option<Vec<(String, String)>>,
}

/// Per function (by name), the annotations of its instructions in order.
///
/// # Errors
/// A message when an `!mmra` attachment does not resolve to a tag set.
pub fn annotations(doc: &Document) -> Result<BTreeMap<String, Vec<Annotation>>, String> {
    let mut out = BTreeMap::new();
    for f in doc.functions() {
        let mut list = Vec::new();
        for inst in f.insts() {
            let mmra = match inst.attachment("mmra") {
                Some(node) => Some(
                    doc.mmra_tags(node)
                        .map_err(|e| format!("@{}: {e}", f.name))?,
                ),
                None => None,
            };
            let convergence = inst
                .bundles
                .iter()
                .find(|b| b.tag == "convergencectrl")
                .map(|b| b.inputs.clone());
            list.push(Annotation {
                opcode: inst.opcode.clone(),
                mmra,
                convergence,
            });
        }
        out.insert(f.name.clone(), list);
    }
    Ok(out)
}

fn show(a: &Annotation) -> String {
    let mmra = match &a.mmra {
        None => "no !mmra".to_string(),
        Some(set) => {
            let tags: Vec<String> = set.iter().map(|(p, s)| format!("{p}:{s}")).collect();
            format!("!mmra {{{}}}", tags.join(", "))
        }
    };
    let conv = match &a.convergence {
        None => "no convergencectrl".to_string(),
        Some(inputs) => {
            let i: Vec<String> = inputs.iter().map(|(t, v)| format!("{t} {v}")).collect();
            format!("convergencectrl({})", i.join(", "))
        }
    };
    format!("{} with {mmra}, {conv}", a.opcode)
}

/// Compares the annotations of `printed` (spirv-lift's output) and `reread` (LLVM's
/// re-print), matching functions by name and instructions by position. Returns one line
/// per difference (at most `limit`), empty when they agree.
///
/// # Errors
/// A message when either side's `!mmra` metadata does not resolve.
pub fn compare_annotations(
    printed: &Document,
    reread: &Document,
    limit: usize,
) -> Result<Vec<String>, String> {
    let a = annotations(printed).map_err(|e| format!("spirv-lift output: {e}"))?;
    let b = annotations(reread).map_err(|e| format!("re-read output: {e}"))?;
    let mut diffs = Vec::new();
    for (name, xs) in &a {
        let Some(ys) = b.get(name) else {
            diffs.push(format!("@{name}: missing after the round trip"));
            continue;
        };
        if xs.len() != ys.len() {
            diffs.push(format!(
                "@{name}: {} instructions printed, {} read back",
                xs.len(),
                ys.len()
            ));
            continue;
        }
        for (k, (x, y)) in xs.iter().zip(ys).enumerate() {
            if x != y {
                diffs.push(format!(
                    "@{name} instruction {}: printed {}, read back {}",
                    k + 1,
                    show(x),
                    show(y)
                ));
            }
        }
    }
    for name in b.keys().filter(|n| !a.contains_key(*n)) {
        diffs.push(format!("@{name}: appeared in the round trip"));
    }
    diffs.truncate(limit);
    Ok(diffs)
}

/// Whether printing a reading of `text` gives `text` back; `Err` says where it does not
/// (the reader's error, or the first differing line).
///
/// # Errors
/// The reader's error (with line and column) or the first line that differs.
pub fn reader_fixpoint(text: &str) -> Result<(), String> {
    let doc = document::read(text).map_err(|e| format!("read error at {e}"))?;
    let again = doc.to_string();
    if again == text {
        return Ok(());
    }
    let mut a = text.lines();
    let mut b = again.lines();
    let mut line = 1usize;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (None, None) => return Err("the final line break differs".into()),
            (x, y) => {
                return Err(format!(
                    "line {line}: read `{}`, printed `{}`",
                    x.unwrap_or("<end>"),
                    y.unwrap_or("<end>")
                ));
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    const PRINTED: &str = "define void @f() convergent {\nbb1:\n  %t = call token @llvm.experimental.convergence.entry()\n  fence acquire, !mmra !2\n  call void @g() convergent [ \"convergencectrl\"(token %t) ]\n  ret void\n}\n\n!0 = !{!\"sync-as\", !\"3\"}\n!1 = !{!\"vulkan\", !\"private\"}\n!2 = !{!0, !1}\n";

    /// The same module as llvm-dis prints it: renumbered metadata, attribute groups,
    /// comments.
    const REREAD: &str = "; ModuleID = '<stdin>'\n\n; Function Attrs: convergent\ndefine void @f() #0 {\nbb1:\n  %t = call token @llvm.experimental.convergence.entry()\n  fence acquire, !mmra !0\n  call void @g() #1 [ \"convergencectrl\"(token %t) ]\n  ret void\n}\n\nattributes #0 = { convergent }\n\n!0 = !{!1, !2}\n!1 = !{!\"sync-as\", !\"3\"}\n!2 = !{!\"vulkan\", !\"private\"}\n";

    #[test]
    fn renumbered_metadata_compares_equal() {
        let a = document::read(PRINTED).unwrap();
        let b = document::read(REREAD).unwrap();
        assert_eq!(
            compare_annotations(&a, &b, 10).unwrap(),
            Vec::<String>::new()
        );
    }

    #[test]
    fn lost_tag_or_bundle_is_reported() {
        let a = document::read(PRINTED).unwrap();
        let lost_tag = REREAD.replace("!0 = !{!1, !2}", "!0 = !{!1}");
        let b = document::read(&lost_tag).unwrap();
        let d = compare_annotations(&a, &b, 10).unwrap();
        assert_eq!(d.len(), 1);
        assert!(d[0].contains("instruction 2"), "{d:?}");
        let lost_bundle = REREAD.replace(" [ \"convergencectrl\"(token %t) ]", "");
        let b = document::read(&lost_bundle).unwrap();
        assert_eq!(compare_annotations(&a, &b, 10).unwrap().len(), 1);
        let renamed = REREAD.replace("@f()", "@h()");
        let b = document::read(&renamed).unwrap();
        assert_eq!(compare_annotations(&a, &b, 10).unwrap().len(), 2);
    }

    #[test]
    fn fixpoint_holds_and_reports_the_line() {
        reader_fixpoint(PRINTED).unwrap();
        reader_fixpoint(REREAD).unwrap();
        let e = reader_fixpoint("!0 = !{ !1}\n").unwrap_err();
        assert!(e.contains("read error"), "{e}");
        let e = reader_fixpoint("define void @f() {\n  ret void\n}").unwrap_err();
        assert!(e.contains("line break"), "{e}");
        let e = reader_fixpoint("define void @f() {\n  call void @g() [ \"a\"(i32  1) ]\n}\n")
            .unwrap_err();
        assert!(e.contains("line 2"), "{e}");
    }
}
