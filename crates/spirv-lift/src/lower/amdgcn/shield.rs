//! Atomics kept out of LLVM's AMDGPU atomic optimizer in functions with convergence
//! tokens ([`shield_atomics`]).

use crate::llvm::{
    CallConv, CastOp, Const, FuncId, Inst as LInst, InstKind, Module, RmwOp, Type, Value,
};

/// Whether LLVM's AMDGPU atomic optimizer may rewrite an `atomicrmw` of this operation
/// (`AMDGPUAtomicOptimizerImpl::visitAtomicRMWInst` handles every operation but `xchg`).
fn optimizer_handles(op: RmwOp) -> bool {
    match op {
        RmwOp::Xchg => false,
        RmwOp::Add
        | RmwOp::Sub
        | RmwOp::And
        | RmwOp::Or
        | RmwOp::Xor
        | RmwOp::Max
        | RmwOp::Min
        | RmwOp::UMax
        | RmwOp::UMin
        | RmwOp::FAdd
        | RmwOp::FMax
        | RmwOp::FMin => true,
    }
}

/// The comment printed above a function whose atomics [`shield_atomics`] changed.
const SHIELD_COMMENT: &str = "atomics: each pointer LLVM's AMDGPU atomic optimizer could take \
     goes through a select on a lane-dependent condition, so the optimizer leaves it alone: \
     its uncontrolled ballots and lane reads cannot be mixed with this function's convergence \
     tokens";

/// Keeps the atomics of a function with convergence tokens out of LLVM's AMDGPU atomic
/// optimizer.
///
/// That `llc` pass (`AMDGPUAtomicOptimizer.cpp`, on by default from `-O1`) rewrites an
/// `atomicrmw` other than `xchg` on global (1) or local (3) memory whose pointer its
/// uniformity analysis finds uniform into one atomic per wave, built from
/// `llvm.amdgcn.ballot` / `readlane` / DPP calls without `"convergencectrl"` bundles. The
/// IR verifier rejects uncontrolled convergent calls in a function that uses tokens
/// ("Cannot mix controlled and uncontrolled convergence in the same function"), so `llc`
/// fails on such a function. The pass skips an atomic whose pointer is divergent, so right
/// before each such atomic its pointer goes through
/// `select i1 (trunc (llvm.amdgcn.mbcnt.lo(-1, 0))), ptr %p, ptr %p`: the same pointer,
/// divergent to the analysis. Nothing before the pass in `llc`'s pipeline simplifies the
/// select, and instruction selection folds it (the three instructions sit in the atomic's
/// block, so nothing of them is left), so the code is what
/// `-amdgpu-atomic-optimizer-strategy=None` gives, with the tokens kept. (`opt` folds the
/// select: README "AMDGPU profile".)
///
/// Not covered: an `alwaysinline` function (SPIR-V `Inline` control) called from a
/// function with tokens. `llc`'s always-inliner runs before the pass and simplifies the
/// instructions it copies, so a select of two equal values would not survive it; such an
/// atomic reaches the pass in the caller with a uniform pointer.
///
/// Call after the function's tokens are placed; it does nothing to a function without
/// `"convergencectrl"` bundles or without such an atomic.
pub(crate) fn shield_atomics(m: &mut Module, fid: FuncId) {
    let f = m.func(fid);
    let controlled = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| matches!(&i.kind, InstKind::Call(call) if call.convergence.is_some()));
    if !controlled {
        return;
    }
    let shielded = |i: &LInst| match i.kind {
        InstKind::AtomicRmw { op, ptr, .. } => {
            optimizer_handles(op) && matches!(m.type_of_id(m.value_type(f, ptr)), Type::Ptr(1 | 3))
        }
        _ => false,
    };
    let marks: Vec<Vec<bool>> = f
        .blocks
        .iter()
        .map(|b| b.insts.iter().map(shielded).collect())
        .collect();
    if !marks.iter().flatten().any(|m| *m) {
        return;
    }
    let i1 = m.ty(Type::Int(1));
    let i32t = m.ty(Type::Int(32));
    // Only this pass and the built-in lowering declare it, with this signature.
    let Some(mbcnt) = m.declare(
        "llvm.amdgcn.mbcnt.lo",
        i32t,
        &[i32t, i32t],
        CallConv::C,
        &[],
    ) else {
        return;
    };
    let all_lanes = Value::Const(m.constant(Const::Int(i32t, u64::from(u32::MAX))));
    let zero = Value::Const(m.constant(Const::Int(i32t, 0)));
    let mut f = m.take_function(fid);
    let mut blocks = std::mem::take(&mut f.blocks);
    for (block, marks) in blocks.iter_mut().zip(&marks) {
        let insts = std::mem::take(&mut block.insts);
        block.insts.reserve(insts.len());
        for (mut inst, shield) in insts.into_iter().zip(marks) {
            if let (true, InstKind::AtomicRmw { ptr, .. }) = (*shield, &mut inst.kind) {
                let lane = f.new_local("atomic.lane", i32t);
                let odd = f.new_local("atomic.lane.odd", i1);
                let opaque = f.new_local("atomic.ptr", m.value_type(&f, *ptr));
                let call = InstKind::Call(Box::new(crate::llvm::Call {
                    cc: CallConv::C,
                    ret: i32t,
                    callee: Value::Func(mbcnt),
                    args: vec![all_lanes, zero].into(),
                    convergent: false,
                    convergence: None,
                }));
                let trunc = InstKind::Cast {
                    op: CastOp::Trunc,
                    v: Value::Local(lane),
                    to: i1,
                };
                let select = InstKind::Select {
                    c: Value::Local(odd),
                    a: *ptr,
                    b: *ptr,
                };
                block.insts.extend([
                    LInst::new(Some(lane), call),
                    LInst::new(Some(odd), trunc),
                    LInst::new(Some(opaque), select),
                ]);
                *ptr = Value::Local(opaque);
            }
            block.insts.push(inst);
        }
    }
    f.blocks = blocks;
    f.comments.push(SHIELD_COMMENT.into());
    m.put_function(fid, f);
}
