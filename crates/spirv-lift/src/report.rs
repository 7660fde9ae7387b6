//! `--report mmra`: what the annotations relaxed.
//!
//! For each synchronizing operation (fence or ordered atomic) of each function, the
//! report lists the memory accesses that can execute before it and after it (by CFG
//! reachability; in a loop an access can be both) whose tag sets are incompatible with
//! the operation's — the accesses its tags leave unordered. Accesses are named by the
//! variable they reach (through `getelementptr` chains), so the names are the source's.

use crate::llvm::{Function, Inst, InstKind, MdId, MdOperand, Module, Ordering, Value};
use crate::lower::named_tags;
use crate::mmra::{Tag, TagSet, compatible};
use foldhash::{HashMap, HashMapExt};
use std::fmt::Write;

/// The tag set an `!mmra` node stands for (empty for `None`).
pub(crate) fn tags_of(m: &Module, md: Option<MdId>) -> TagSet {
    let Some(md) = md else { return TagSet::new() };
    let as_tag = |ops: &[MdOperand]| match ops {
        [MdOperand::Str(p), MdOperand::Str(s)] => Some(Tag::new(p.clone(), s.clone())),
        _ => None,
    };
    let ops = m.md_operands(md);
    if let Some(t) = as_tag(ops) {
        return TagSet::from_tags([t]);
    }
    TagSet::from_tags(ops.iter().filter_map(|o| match o {
        MdOperand::Node(n) => as_tag(m.md_operands(*n)),
        _ => None,
    }))
}

fn is_sync(inst: &Inst) -> bool {
    match &inst.kind {
        InstKind::Fence { .. } => true,
        InstKind::Load {
            atomic: Some((o, _)),
            ..
        }
        | InstKind::Store {
            atomic: Some((o, _)),
            ..
        } => *o != Ordering::Monotonic,
        InstKind::AtomicRmw { ord, .. } => *ord != Ordering::Monotonic,
        InstKind::CmpXchg(x) => x.success != Ordering::Monotonic,
        _ => false,
    }
}

/// The pointer an access goes through, if `inst` accesses memory.
fn access_ptr(inst: &Inst) -> Option<Option<Value>> {
    match &inst.kind {
        InstKind::Load { ptr, .. } | InstKind::Store { ptr, .. } => Some(Some(*ptr)),
        InstKind::AtomicRmw { ptr, .. } => Some(Some(*ptr)),
        InstKind::CmpXchg(x) => Some(Some(x.ptr)),
        InstKind::Call { .. } if inst.mmra().is_some() => Some(None),
        _ => None,
    }
}

/// The variable a pointer reaches through `getelementptr`s, and whether it is a
/// function-local variable (an `alloca`: private to the invocation).
fn root_name(m: &Module, f: &Function, defs: &HashMap<u32, &Inst>, mut v: Value) -> (String, bool) {
    for _ in 0..64 {
        match v {
            Value::Global(g) => return (format!("@{}", m.globals[g.index()].name), false),
            Value::Local(l) => match defs.get(&l.0).map(|i| &i.kind) {
                Some(InstKind::Gep { ptr, .. }) => v = *ptr,
                Some(InstKind::Cast { v: inner, .. }) => v = *inner,
                Some(InstKind::Alloca { .. }) => {
                    return (format!("%{}", f.local_name(l)), true);
                }
                _ => return (format!("%{}", f.local_name(l)), false),
            },
            _ => break,
        }
    }
    ("?".into(), false)
}

fn describe(inst: &Inst) -> &'static str {
    match &inst.kind {
        InstKind::Load {
            atomic: Some(_), ..
        } => "atomic load",
        InstKind::Load { .. } => "load",
        InstKind::Store {
            atomic: Some(_), ..
        } => "atomic store",
        InstKind::Store { .. } => "store",
        InstKind::AtomicRmw { .. } => "atomicrmw",
        InstKind::CmpXchg { .. } => "cmpxchg",
        InstKind::Fence { .. } => "fence",
        InstKind::Call { .. } => "call",
        _ => "instruction",
    }
}

/// Writes the report for a whole module: what can be seen across invocations
/// (accesses to function-local variables left out; [`mmra_report_all`] keeps them).
pub fn mmra_report(m: &Module) -> String {
    report(m, false)
}

/// [`mmra_report`] with the accesses to function-local variables too (`--all`).
pub fn mmra_report_all(m: &Module) -> String {
    report(m, true)
}

fn report(m: &Module, all: bool) -> String {
    let mut out = String::new();
    for f in m.functions.iter().filter(|f| !f.is_declaration()) {
        report_function(m, f, all, &mut out);
    }
    if out.is_empty() {
        out.push_str("no synchronizing operations\n");
    }
    out
}

fn successors(inst: &Inst) -> Vec<usize> {
    match &inst.kind {
        InstKind::Br { dest } => vec![dest.index()],
        InstKind::CondBr { t, f, .. } => vec![t.index(), f.index()],
        InstKind::Switch { default, cases, .. } => std::iter::once(default.index())
            .chain(cases.iter().map(|c| c.1.index()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Blocks reachable from `start` (forward) or reaching it (backward), not counting
/// `start` itself unless a cycle returns to it.
fn reach(adj: &[Vec<usize>], start: usize) -> Vec<bool> {
    let mut seen = vec![false; adj.len()];
    let mut stack: Vec<usize> = adj.get(start).cloned().unwrap_or_default();
    while let Some(b) = stack.pop() {
        if b < seen.len() && !seen[b] {
            seen[b] = true;
            stack.extend(adj[b].iter().copied());
        }
    }
    seen
}

fn report_function(m: &Module, f: &Function, all: bool, out: &mut String) {
    let mut defs: HashMap<u32, &Inst> = HashMap::new();
    for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
        if let Some(r) = inst.result() {
            defs.insert(r.0, inst);
        }
    }
    let succ: Vec<Vec<usize>> = f
        .blocks
        .iter()
        .map(|b| b.insts.last().map(successors).unwrap_or_default())
        .collect();
    let mut pred = vec![Vec::new(); f.blocks.len()];
    for (b, ss) in succ.iter().enumerate() {
        for s in ss {
            if let Some(p) = pred.get_mut(*s) {
                p.push(b);
            }
        }
    }
    let mut header_done = false;
    for (bi, block) in f.blocks.iter().enumerate() {
        for (ii, inst) in block.insts.iter().enumerate() {
            if !is_sync(inst) {
                continue;
            }
            if !header_done {
                let _ = writeln!(out, "function @{}", f.name);
                header_done = true;
            }
            let sync_tags = tags_of(m, inst.mmra());
            let order = match &inst.kind {
                InstKind::Fence { ord, scope } => format!(" {ord}{scope}"),
                InstKind::Load {
                    atomic: Some((o, s)),
                    ..
                }
                | InstKind::Store {
                    atomic: Some((o, s)),
                    ..
                } => format!(" {o}{s}"),
                InstKind::AtomicRmw { ord, scope, .. } => format!(" {ord}{scope}"),
                InstKind::CmpXchg(x) => format!(" {}{}", x.success, x.scope),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "  {}{} in %{}: tags {}",
                describe(inst),
                order,
                f.block_name(crate::llvm::BlockId(bi as u32)),
                named_tags(&sync_tags, &m.triple)
            );
            let after_blocks = reach(&succ, bi);
            let before_blocks = reach(&pred, bi);
            for (label, blocks, same_block) in [
                ("before", &before_blocks, &block.insts[..ii]),
                ("after", &after_blocks, &block.insts[ii + 1..]),
            ] {
                let mut lines = Vec::new();
                let others = f
                    .blocks
                    .iter()
                    .enumerate()
                    .filter(|(b, _)| blocks[*b])
                    .flat_map(|(_, b)| b.insts.iter());
                for acc in same_block.iter().chain(others) {
                    let Some(ptr) = access_ptr(acc) else { continue };
                    if is_sync(acc) {
                        continue;
                    }
                    let t = tags_of(m, acc.mmra());
                    if !compatible(&t, &sync_tags) {
                        let (target, local) = ptr
                            .map(|p| root_name(m, f, &defs, p))
                            .unwrap_or_else(|| ("image".into(), false));
                        if local && !all {
                            continue;
                        }
                        let t = named_tags(&t, &m.triple);
                        lines.push(format!("      {} {} {}", describe(acc), target, t));
                    }
                }
                lines.sort();
                lines.dedup();
                let _ = writeln!(
                    out,
                    "    {label}: {} access(es) left unordered",
                    lines.len()
                );
                for l in lines {
                    let _ = writeln!(out, "{l}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Storage-buffer atomics name the StorageBuffer space (11) or no space at all.
    #[test]
    fn tags_of_storage_buffer_atomics() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shaders/atomics_buffer.comp.spv"
        );
        let bytes = std::fs::read(path).unwrap();
        let module = crate::translate_bytes(&bytes, &Default::default()).unwrap();
        let atomics: Vec<&Inst> = module
            .functions
            .iter()
            .flat_map(|f| f.blocks.iter().flat_map(|b| &b.insts))
            .filter(|i| matches!(i.kind, InstKind::AtomicRmw { .. }))
            .collect();
        assert!(!atomics.is_empty());
        for inst in atomics {
            let tags = tags_of(&module, inst.mmra());
            assert!(
                tags.iter()
                    .all(|t| t.prefix != "sync-as" || *t == Tag::new("sync-as", "11"))
            );
        }
    }
}
