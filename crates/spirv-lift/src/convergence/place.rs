//! Placing convergence control tokens into a lowered function.
//!
//! The lowering decides, per block, which region owns the block's convergent operations
//! ([`Owner`]): the function entry, a loop, or an anchor (irreducible control flow).
//! [`place`] then inserts `llvm.experimental.convergence.entry` at the top of the entry
//! block, one `llvm.experimental.convergence.loop` after the phis of each loop header whose
//! loop (or a nested loop) owns a convergent call, an `anchor` in each anchored block that
//! holds one, and gives every convergent call a `"convergencectrl"` bundle with its
//! owner's token. Cost is linear in the function's instructions.

use crate::llvm::{BlockId, FuncId, Inst, InstKind, LocalId, Module, Type, Value};

/// Which region's token the convergent calls of a block use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The function's `entry` token.
    Entry,
    /// The token of loop `i` of [`Regions::loops`].
    Loop(u32),
    /// An `anchor` placed in the block itself (irreducible control flow).
    Anchor,
}

/// A loop that may get a `loop` intrinsic.
#[derive(Clone, Copy, Debug)]
pub struct LoopRegion {
    /// The loop header (where the intrinsic goes).
    pub header: BlockId,
    /// The enclosing loop, whose token the intrinsic uses; `None` means `entry`.
    pub parent: Option<u32>,
}

/// The region structure of one function.
#[derive(Clone, Debug, Default)]
pub struct Regions {
    /// Owner of each block, indexed by `BlockId`.
    pub owner: Vec<Owner>,
    /// Loops (in any order; each names its parent).
    pub loops: Vec<LoopRegion>,
}

impl Regions {
    /// Every block owned by the entry token (functions without loops, wrappers).
    pub fn flat(blocks: usize) -> Regions {
        Regions {
            owner: vec![Owner::Entry; blocks],
            loops: Vec::new(),
        }
    }
}

/// Whether a call instruction calls a convergent function (other than the convergence
/// intrinsics themselves).
pub fn is_convergent_call(m: &Module, inst: &Inst) -> bool {
    match &inst.kind {
        InstKind::Call(call) => match call.callee {
            Value::Func(id) => {
                let f = m.func(id);
                f.is_convergent() && !f.name.starts_with("llvm.experimental.convergence.")
            }
            _ => false,
        },
        _ => false,
    }
}

/// The declaration of `llvm.experimental.convergence.<which>` (`name`, given whole: no
/// `format!` per function).
fn intrinsic(m: &mut Module, name: &str) -> FuncId {
    debug_assert!(name.starts_with("llvm.experimental.convergence."));
    let token = m.ty(Type::Token);
    // The three intrinsics have fixed signatures; the name cannot be taken otherwise.
    m.declare(name, token, &[], crate::llvm::CallConv::C, &[])
        .unwrap_or_default()
}

fn token_call(
    callee: FuncId,
    ret: crate::llvm::TypeId,
    result: LocalId,
    parent: Option<LocalId>,
) -> Inst {
    Inst::new(
        Some(result),
        InstKind::Call(Box::new(crate::llvm::Call {
            cc: crate::llvm::CallConv::C,
            ret,
            callee: Value::Func(callee),
            args: Box::new([]),
            convergent: false,
            convergence: parent.map(Value::Local),
        })),
    )
}

/// Inserts `inst` right after the phis at the top of `block`.
fn insert_after_phis(block: &mut crate::llvm::Block, inst: Inst) {
    let at = block
        .insts
        .iter()
        .take_while(|i| matches!(i.kind, InstKind::Phi { .. }))
        .count();
    block.insts.insert(at, inst);
}

/// Marks loop `l` and its ancestors as needing a `loop` intrinsic.
fn mark_needed(needed: &mut [bool], loops: &[LoopRegion], mut l: u32) {
    while let Some(slot) = needed.get_mut(l as usize) {
        if *slot {
            break;
        }
        *slot = true;
        match loops.get(l as usize).and_then(|r| r.parent) {
            Some(p) => l = p,
            None => break,
        }
    }
}

/// Inserts tokens and bundles into function `fid`. Does nothing to a function with no
/// convergent call.
pub fn place(m: &mut Module, fid: FuncId, regions: &Regions) {
    let f = m.func(fid);
    if f.is_declaration() {
        return;
    }
    // Which blocks hold convergent calls, and which loops are needed.
    let nblocks = f.blocks.len();
    let mut has_call = vec![false; nblocks];
    let mut needed = vec![false; regions.loops.len()];
    for (b, block) in f.blocks.iter().enumerate() {
        if block.insts.iter().any(|i| is_convergent_call(m, i)) {
            has_call[b] = true;
            if let Some(Owner::Loop(l)) = regions.owner.get(b).copied() {
                mark_needed(&mut needed, &regions.loops, l);
            }
        }
    }
    if !has_call.iter().any(|h| *h) {
        return;
    }
    let token_ty = m.ty(Type::Token);
    let anchored =
        (0..nblocks).any(|b| has_call[b] && regions.owner.get(b) == Some(&Owner::Anchor));
    let entry_fn = intrinsic(m, "llvm.experimental.convergence.entry");
    let loop_fn = if needed.iter().any(|n| *n) {
        intrinsic(m, "llvm.experimental.convergence.loop")
    } else {
        entry_fn
    };
    let anchor_fn = if anchored {
        intrinsic(m, "llvm.experimental.convergence.anchor")
    } else {
        entry_fn
    };
    let mut f = m.take_function(fid);
    if anchored {
        f.comments.push(
            "convergence: irreducible control flow has no loop heart; its convergent operations use \
             anchors, so the set of threads that converge there is implementation-defined"
                .into(),
        );
    }
    if !f.is_convergent() {
        f.attrs.push(crate::llvm::FnAttr::Convergent);
    }
    let entry_tok = f.new_local("ctok.entry", token_ty);
    let mut loop_tok: Vec<Option<LocalId>> = vec![None; regions.loops.len()];
    for (tok, need) in loop_tok.iter_mut().zip(&needed) {
        if *need {
            *tok = Some(f.new_local("ctok.loop", token_ty));
        }
    }
    // Insert loop intrinsics after the phis of their headers (parents first, so a parent's
    // token is created before its children use it; dominance holds by loop nesting).
    for (i, l) in regions.loops.iter().enumerate() {
        let Some(tok) = loop_tok[i] else { continue };
        let parent = l
            .parent
            .and_then(|p| loop_tok.get(p as usize).copied().flatten())
            .unwrap_or(entry_tok);
        insert_after_phis(
            &mut f.blocks[l.header.index()],
            token_call(loop_fn, token_ty, tok, Some(parent)),
        );
    }
    // Bundles, and anchors where needed.
    for (b, _) in has_call.iter().enumerate().filter(|(_, h)| **h) {
        let owner = regions.owner.get(b).copied().unwrap_or(Owner::Entry);
        let tok = match owner {
            Owner::Entry => entry_tok,
            Owner::Loop(l) => loop_tok
                .get(l as usize)
                .copied()
                .flatten()
                .unwrap_or(entry_tok),
            Owner::Anchor => {
                let a = f.new_local("ctok.anchor", token_ty);
                insert_after_phis(&mut f.blocks[b], token_call(anchor_fn, token_ty, a, None));
                a
            }
        };
        let conv: Vec<bool> = f.blocks[b]
            .insts
            .iter()
            .map(|i| is_convergent_call(m, i))
            .collect();
        for (inst, is_conv) in f.blocks[b].insts.iter_mut().zip(conv) {
            if let (true, InstKind::Call(call)) = (is_conv, &mut inst.kind) {
                call.convergence = Some(Value::Local(tok));
                call.convergent = true;
            }
        }
    }
    if let Some(entry) = f.blocks.first_mut() {
        entry
            .insts
            .insert(0, token_call(entry_fn, token_ty, entry_tok, None));
    }
    m.put_function(fid, f);
}
