//! The input-check pass: turns malformed modules into typed errors before lowering.
//!
//! That every id is below the bound and defined once is checked while the module is
//! decoded (`Sections`). Checked here: every id used is defined; every result type is a
//! type; every branch, merge and continue target and every `OpPhi` parent is a block of
//! the same function; every scope and memory-semantics operand is the id of a constant;
//! `values` (operand and result types of loads, stores, atomics, conversions,
//! arithmetic, calls, images, extended instructions, constant composites; alignments),
//! [`limits`] (types defined before use, so no cycles; the resource limits; no
//! recursion in shaders) and `dominance` (SSA dominance, no branch to the entry block).
//! The module-level instructions are checked first, then each function body in module
//! order (all of the checks on one body before the next body, so a streaming load needs
//! only one body in memory), then the call graph.

mod dominance;
pub mod limits;
mod values;

use super::{Facts, Function, IdTable, Inst, Module, Op, SpvId};
use crate::error::{Error, ErrorKind};
use std::borrow::Cow;

/// Runs the checks, one function body at a time (a body a streaming load did not keep is
/// decoded again from `words`, checked and dropped), and gathers the [`Facts`] lowering
/// needs. The module-level checks come first; ids were found defined once and below the
/// bound when the module was loaded.
pub(crate) fn check_module(module: &Module, words: &[u32]) -> Result<Facts, Error> {
    let def_op = &module.def_op;
    // Kernels may pass scopes and semantics as runtime values (spirv-val accepts it);
    // shaders must use constants.
    let kernel = module.module_facts.kernel_capability;
    // Debug-information and non-semantic instructions are dropped; their operands are not
    // all ids, and are not checked.
    let dropped_sets: Vec<SpvId> = module
        .module_facts
        .ext_sets
        .iter()
        .filter(|(_, kind)| kind.unchecked())
        .map(|(id, _)| *id)
        .collect();
    let uses = Uses {
        def_op,
        kernel,
        dropped_sets: &dropped_sets,
    };
    // The preamble, its decorations (filed by target, not kept as instructions: each is
    // checked as the instruction it was, and of several errors the first in the module is
    // reported), then the rest of the module-level instructions.
    let mut header = header_insts(module);
    header
        .by_ref()
        .take(module.preamble.len())
        .try_for_each(|i| uses.check(i, &mut |_| {}))?;
    module
        .decorations
        .check(|d| uses.check(&d.to_inst(), &mut |_| {}))?;
    header.try_for_each(|i| uses.check(i, &mut |_| {}))?;
    let mut values = values::ValueChecker::new(module)?;
    let mut limits = limits::LimitChecker::new(module)?;
    let global_var = {
        let mut v = module.header.id_set();
        for inst in module.globals.iter().filter(|i| i.op == Op::Variable) {
            if let Some(id) = inst.result_id() {
                v.insert(id);
            }
        }
        v
    };
    // The ids defined outside function bodies: a function may use these and its own.
    let module_level = {
        let mut m = module.header.id_set();
        let defs = module.preamble.iter().chain(&module.globals);
        for id in defs
            .chain(module.functions.iter().map(|f| &f.def))
            .filter_map(Inst::result_id)
        {
            m.insert(id);
        }
        m
    };
    let n = module.functions.len();
    let mut facts = Facts {
        calls: Default::default(),
        global_vars: Default::default(),
        convergent_op: vec![false; n],
        analyses: vec![None; n],
    };
    // Functions with a body, and their return types.
    let mut defined = foldhash::HashMap::default();
    for i in 0..n {
        facts.calls.end_before(i);
        facts.global_vars.end_before(i);
        let func: Cow<Function> = if module.bodies.is_some() && module.functions[i].has_body() {
            Cow::Owned(module.decode_function(i, words)?)
        } else {
            Cow::Borrowed(&module.functions[i])
        };
        if func.blocks.is_empty() {
            continue;
        }
        if let Some(id) = func.def.result_id() {
            defined.insert(id, func.def.result_type());
        }
        // Ids used, and the facts lowering needs, in one pass over the body.
        let mut vars = Vec::new();
        let mut note_use = |id: SpvId| {
            if global_var.contains(id) {
                vars.push(id);
            }
        };
        for b in &func.blocks {
            uses.check(&b.label(), &mut note_use)?;
            for inst in &b.insts {
                uses.check(inst, &mut note_use)?;
                if inst.op == Op::FunctionCall
                    && let Ok(callee) = inst.id(0)
                {
                    facts.calls.push(callee);
                }
                if super::opclass::is_convergent(inst.op)
                    || (inst.op == Op::ExtInst
                        && inst.id(0).ok().and_then(|s| module.module_facts.ext_set(s))
                            == Some(super::ExtSet::AmdShaderBallot))
                {
                    facts.convergent_op[i] = true;
                }
            }
        }
        vars.sort_unstable();
        vars.dedup();
        vars.iter().for_each(|&v| facts.global_vars.push(v));
        check_function(&func)?;
        values.function(&func)?;
        limits.function(i, &func)?;
        let analyses = dominance::check_function(&func, &module_level)?;
        if func.blocks.len() >= super::KEEP_ANALYSES {
            facts.analyses[i] = Some(Box::new(analyses));
        }
    }
    facts.calls.end_before(n);
    facts.global_vars.end_before(n);
    // An entry point is a function with a body (a declaration cannot carry what makes
    // it an entry point: LLVM refuses `declare amdgpu_kernel … !reqd_work_group_size`)
    // that returns void (as `spirv-val` requires; LLVM refuses a kernel calling
    // convention on a function returning a value).
    for inst in module.preamble.iter().filter(|i| i.op == Op::EntryPoint) {
        let func = inst.id(1)?;
        let name = || inst.string(2).unwrap_or_default();
        let Some(&ret) = defined.get(&func) else {
            return Err(inst.invalid(format!(
                "entry point '{}' names %{func}, not a function with a body",
                name()
            )));
        };
        if !ret.is_some_and(|t| matches!(module.types.get(t), Some(super::SpvTy::Void))) {
            return Err(inst.invalid(format!(
                "entry point '{}' names %{func}, whose return type is not void",
                name()
            )));
        }
    }
    limits.finish(module)?;
    Ok(facts)
}

/// What the per-instruction id checks need.
struct Uses<'a> {
    def_op: &'a IdTable<Option<Op>>,
    /// Kernels may pass scopes and semantics as runtime values.
    kernel: bool,
    /// Extended-instruction imports whose instructions are dropped (not checked).
    dropped_sets: &'a [SpvId],
}

impl Uses<'_> {
    /// Every id an instruction uses is defined (each is shown to `used`); its result
    /// type is a type; its scope and memory-semantics operands are constants (in
    /// shaders).
    fn check(&self, inst: &Inst, used: &mut dyn FnMut(SpvId)) -> Result<(), Error> {
        let def_op = self.def_op;
        if matches!(inst.op, Op::Name | Op::MemberName) {
            return Ok(());
        }
        if inst.op == Op::ExtInst && inst.id(0).is_ok_and(|s| self.dropped_sets.contains(&s)) {
            // Not checked (not all operands are ids), but shown as lowering saw them.
            inst.used_ids().for_each(used);
            return Ok(());
        }
        for id in inst.used_ids() {
            let defined = def_op.get(id).is_some_and(|d| d.is_some());
            if !defined {
                return Err(Error::at(ErrorKind::UndefinedId(id.0), inst.location()));
            }
            used(id);
        }
        if let Some(t) = inst.result_type()
            && !def_op
                .get(t)
                .copied()
                .flatten()
                .is_some_and(super::is_type_op)
        {
            return Err(inst.invalid(format!("result type %{t} is not a type")));
        }
        // Only a function, a call and an extended instruction may have a void result, and
        // no instruction a function type (LLVM has no such values: `%x = call void`,
        // `load void` are rejected).
        if let Some(t) = inst.result_type() {
            match def_op.get(t).copied().flatten() {
                Some(Op::TypeVoid)
                    if !matches!(inst.op, Op::Function | Op::FunctionCall | Op::ExtInst) =>
                {
                    return Err(inst.invalid(format!("result type %{t} is void")));
                }
                Some(Op::TypeFunction) => {
                    return Err(inst.invalid(format!("result type %{t} is a function type")));
                }
                _ => {}
            }
        }
        for (i, operand) in inst.operands.iter().enumerate() {
            if let super::Operand::IdScope(id) | super::Operand::IdMemorySemantics(id) = operand {
                let op = def_op.get(SpvId(*id)).copied().flatten();
                if !self.kernel
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
        Ok(())
    }
}

/// The instructions outside function bodies: preamble, globals, and each function's
/// `OpFunction` and parameters.
pub(super) fn header_insts(module: &Module) -> impl Iterator<Item = &Inst> {
    module.preamble.iter().chain(module.globals.iter()).chain(
        module
            .functions
            .iter()
            .flat_map(|f| std::iter::once(&f.def).chain(f.params.iter())),
    )
}

fn check_function(func: &super::Function) -> Result<(), Error> {
    // A set sized by the function, not the id bound: a module of many small functions
    // with a large bound must not cost bound × functions.
    let blocks: foldhash::HashSet<SpvId> = func.blocks.iter().map(|b| b.id()).collect();
    let in_func = |id: SpvId| blocks.contains(&id);
    // Merge block -> the header whose merge instruction names it: a block merges at most
    // one construct (spirv-val: "already a merge block for another header"). Two
    // constructs ending at one block make the convergence regions taken from them overlap
    // without nesting, which LLVM's verifier refuses.
    let mut merge_of: foldhash::HashMap<SpvId, SpvId> = foldhash::HashMap::default();
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
            if matches!(inst.op, Op::SelectionMerge | Op::LoopMerge) {
                if b.merge().map(|m| m.word()) != Some(inst.word()) {
                    return Err(inst.invalid(
                        "merge instruction must immediately precede the block's terminator",
                    ));
                }
                let merge = inst.id(0)?;
                if let Some(&other) = merge_of.get(&merge) {
                    return Err(inst.invalid(format!(
                        "merge block %{merge} is already the merge block of %{other} \
                         (a block ends at most one construct)"
                    )));
                }
                merge_of.insert(merge, b.id());
            }
        }
    }
    Ok(())
}
