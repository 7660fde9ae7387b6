//! The input-check pass: turns malformed modules into typed errors before lowering.
//!
//! Checked here: every id is below the bound and defined once; every id used is defined;
//! every result type is a type; every branch, merge and continue target and every `OpPhi`
//! parent is a block of the same function; every scope and memory-semantics operand is
//! the id of a constant. Then, in order: `values` (operand and result types of
//! loads, stores, atomics, conversions, arithmetic, calls, images, extended instructions,
//! constant composites; alignments), [`super::limits`] (types defined before use, so no
//! cycles; the resource limits; no recursion in shaders) and `dominance` (SSA
//! dominance, no branch to the entry block).

use super::{Inst, Module, Op};
use crate::error::{Error, ErrorKind};

/// Runs the checks; the first problem found is returned.
pub fn check(module: &Module) -> Result<(), Error> {
    let bound = module.header.bound;
    // Where each id is defined: index into a flat list of defining instructions.
    let mut def_op: Vec<Option<Op>> = vec![None; bound as usize];
    let mut define = |inst: &Inst| -> Result<(), Error> {
        if let Some(id) = inst.result_id {
            let slot = def_op
                .get_mut(id as usize)
                .filter(|_| id != 0)
                .ok_or_else(|| Error::at(ErrorKind::IdOutOfBound { id, bound }, inst.location()))?;
            if slot.is_some() {
                return Err(Error::at(ErrorKind::RedefinedId(id), inst.location()));
            }
            *slot = Some(inst.op);
        }
        Ok(())
    };
    for inst in all_insts(module) {
        define(inst)?;
    }
    // Kernels may pass scopes and semantics as runtime values (spirv-val accepts it);
    // shaders must use constants.
    let kernel = module.preamble.iter().any(|i| {
        i.op == Op::Capability
            && matches!(
                i.operands.first(),
                Some(super::Operand::Capability(::spirv::Capability::Kernel))
            )
    });
    // Debug-information and non-semantic instructions are dropped; their operands are not
    // all ids, and are not checked.
    let dropped_sets: Vec<u32> = module
        .preamble
        .iter()
        .filter(|i| i.op == Op::ExtInstImport)
        .filter(|i| {
            i.string(0)
                .is_ok_and(|n| n.starts_with("NonSemantic.") || n.contains("DebugInfo"))
        })
        .filter_map(|i| i.result_id)
        .collect();
    for inst in all_insts(module) {
        if matches!(inst.op, Op::Name | Op::MemberName) {
            continue;
        }
        if inst.op == Op::ExtInst && inst.id(0).is_ok_and(|s| dropped_sets.contains(&s)) {
            continue;
        }
        for id in inst.used_ids() {
            let defined = def_op.get(id as usize).is_some_and(|d| d.is_some());
            if !defined {
                return Err(Error::at(ErrorKind::UndefinedId(id), inst.location()));
            }
        }
        if let Some(t) = inst.result_type
            && !def_op
                .get(t as usize)
                .copied()
                .flatten()
                .is_some_and(super::is_type_op)
        {
            return Err(inst.invalid(format!("result type %{t} is not a type")));
        }
        for (i, operand) in inst.operands.iter().enumerate() {
            if let super::Operand::IdScope(id) | super::Operand::IdMemorySemantics(id) = operand {
                let op = def_op.get(*id as usize).copied().flatten();
                if !kernel
                    && !matches!(
                        op,
                        Some(
                            Op::Constant | Op::SpecConstant | Op::SpecConstantOp | Op::ConstantNull
                        )
                    )
                {
                    return Err(inst.err(format!(
                        "operand {i} (%{id}) must be the id of an integer constant, not {}",
                        op.map_or("undefined", |o| super::op_name_of(o as u32).unwrap_or("?"))
                    )));
                }
            }
        }
    }
    for func in &module.functions {
        check_function(func)?;
    }
    super::values::check(module)?;
    super::limits::check(module)?;
    super::dominance::check(&module.functions)
}

pub(super) fn all_insts(module: &Module) -> impl Iterator<Item = &Inst> {
    module
        .preamble
        .iter()
        .chain(module.globals.iter())
        .chain(module.functions.iter().flat_map(|f| {
            std::iter::once(&f.def).chain(f.params.iter()).chain(
                f.blocks
                    .iter()
                    .flat_map(|b| std::iter::once(&b.label).chain(b.insts.iter())),
            )
        }))
}

fn check_function(func: &super::Function) -> Result<(), Error> {
    // A set sized by the function, not the id bound: a module of many small functions
    // with a large bound must not cost bound × functions.
    let blocks: foldhash::HashSet<u32> = func.blocks.iter().map(|b| b.id()).collect();
    let in_func = |id: u32| blocks.contains(&id);
    for b in &func.blocks {
        for inst in &b.insts {
            let targets: Vec<(usize, &str)> = match inst.op {
                Op::Branch => vec![(0, "branch target")],
                Op::BranchConditional => vec![(1, "true target"), (2, "false target")],
                Op::Switch => {
                    let mut t = vec![(1, "default target")];
                    // Pairs of (literal(s), label): labels are the IdRef operands after 1.
                    for (i, o) in inst.operands.iter().enumerate().skip(2) {
                        if matches!(o, super::Operand::IdRef(_)) {
                            t.push((i, "case target"));
                        }
                    }
                    t
                }
                Op::SelectionMerge => vec![(0, "merge block")],
                Op::LoopMerge => vec![(0, "merge block"), (1, "continue target")],
                Op::Phi => (1..inst.operands.len())
                    .step_by(2)
                    .map(|i| (i, "phi parent"))
                    .collect(),
                _ => continue,
            };
            for (i, what) in targets {
                let id = inst.id(i)?;
                if !in_func(id) {
                    return Err(Error::at(
                        ErrorKind::InvalidModule(format!(
                            "{what} %{id} is not a block of this function"
                        )),
                        inst.location(),
                    ));
                }
            }
            if matches!(inst.op, Op::SelectionMerge | Op::LoopMerge)
                && b.merge().map(|m| m.word) != Some(inst.word)
            {
                return Err(inst
                    .invalid("merge instruction must immediately precede the block's terminator"));
            }
        }
    }
    Ok(())
}
