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

use super::{DefOps, Function, Inst, Module, Op, SpvId};
use crate::error::{Error, ErrorKind};
use std::borrow::Cow;

/// Runs the checks of the bodies after the module-level ones ([`BodyChecks::new`]): each
/// function body in module order (a body a streaming load did not keep is decoded again
/// from `words`, checked and dropped), then the call graph; keeps in `module.facts` the
/// CFG analyses lowering takes.
pub(crate) fn check_bodies(
    module: &mut Module,
    mut checks: BodyChecks,
    words: &[u32],
) -> Result<(), Error> {
    for i in 0..module.functions.len() {
        let func: Cow<Function> = if module.bodies.is_some() && module.functions[i].has_body() {
            Cow::Owned(module.decode_function(i, words)?)
        } else {
            Cow::Borrowed(&module.functions[i])
        };
        if let Some(analyses) = checks.function(&func)? {
            module.facts.analyses[i] = Some(analyses);
        }
    }
    checks.finish(words)
}

/// The checks of the function bodies, made by [`BodyChecks::new`] once the module-level
/// checks pass: [`BodyChecks::function`] checks one body, in module order, and
/// [`BodyChecks::finish`] what needs them all (entry points, the call graph). It owns
/// what it reads, so that the bodies can be checked on a thread of their own while the
/// lowering runs (`Options::threads`): the lowering takes each body only once it passed.
pub(crate) struct BodyChecks {
    /// What defines each id (taken out of the module).
    def_op: DefOps,
    /// Kernels may pass scopes and semantics as runtime values (spirv-val accepts it);
    /// shaders must use constants.
    kernel: bool,
    /// Debug-information and non-semantic imports: their instructions are dropped, and
    /// their operands (not all ids) are not checked.
    dropped_sets: Vec<SpvId>,
    /// The ids defined outside function bodies: a function may use these and its own.
    module_level: super::IdSet,
    values: values::ValueChecker,
    limits: limits::LimitChecker,
    /// The functions entry points name: whether each has a body, and its return type
    /// (only these: a module of 300,000 functions held every one here).
    defined: foldhash::HashMap<SpvId, Option<Option<super::SpvTypeId>>>,
    /// The function and word offset of each of the module's `OpEntryPoint`s, checked
    /// once every body is (decoded again from the words for an error: a module of
    /// thousands of kernels would keep a copy of each instruction and its name).
    entry_points: Vec<(SpvId, u32)>,
    types: std::sync::Arc<super::Types>,
    /// Every function's id, in module order.
    function_ids: Vec<SpvId>,
    /// The index of the next function to check.
    next: usize,
}

impl BodyChecks {
    /// Runs the module-level checks (ids were found defined once and below the bound when
    /// the module was loaded) and takes what the checks of the bodies need, `def_op`
    /// among it, out of the module.
    pub(crate) fn new(module: &mut Module) -> Result<BodyChecks, Error> {
        let kernel = module.module_facts.kernel_capability;
        let dropped_sets: Vec<SpvId> = module
            .module_facts
            .ext_sets
            .iter()
            .filter(|(_, kind)| kind.unchecked())
            .map(|(id, _)| *id)
            .collect();
        let uses = Uses {
            def_op: &module.def_op,
            kernel,
            dropped_sets: &dropped_sets,
        };
        // The preamble, its decorations (filed by target, not kept as instructions: each
        // is checked as the instruction it was, and of several errors the first in the
        // module is reported), then the rest of the module-level instructions.
        let mut header = header_insts(module);
        header
            .by_ref()
            .take(module.preamble.len())
            .try_for_each(|i| uses.check(&i))?;
        module.decorations.check(|d| uses.check_deco(d))?;
        header.try_for_each(|i| uses.check(&i))?;
        drop(header);
        let values = values::ValueChecker::new(module)?;
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
        let limits = limits::LimitChecker::new(module, module.module_facts.shader_capability)?;
        let entry_points: Vec<(SpvId, u32)> = (module.preamble.iter())
            .filter(|i| i.op == Op::EntryPoint)
            .map(|i| Ok((i.id(1)?, i.word())))
            .collect::<Result<_, Error>>()?;
        Ok(BodyChecks {
            def_op: std::mem::replace(&mut module.def_op, DefOps::new(0, true)),
            kernel,
            dropped_sets,
            module_level,
            values,
            limits,
            defined: entry_points.iter().map(|&(f, _)| (f, None)).collect(),
            entry_points,
            types: module.types.clone(),
            function_ids: module.functions.iter().map(Function::id).collect(),
            next: 0,
        })
    }

    /// Checks the next function (module order) with its whole body decoded; returns its
    /// CFG analyses if lowering is to take them (a body of [`super::KEEP_ANALYSES`]
    /// blocks or more: they wait until the body is lowered).
    pub(crate) fn function(
        &mut self,
        func: &Function,
    ) -> Result<Option<Box<crate::analysis::FunctionAnalyses>>, Error> {
        let analyses = self.function_analyses(func)?;
        Ok(analyses
            .filter(|_| func.blocks.len() >= super::KEEP_ANALYSES)
            .map(Box::new))
    }

    /// As [`BodyChecks::function`], returning the CFG analyses of every body (`None` for
    /// a declaration): for a body lowered at once.
    pub(crate) fn function_analyses(
        &mut self,
        func: &Function,
    ) -> Result<Option<crate::analysis::FunctionAnalyses>, Error> {
        let index = self.next;
        self.next += 1;
        if func.blocks.is_empty() {
            return Ok(None);
        }
        if let Some(id) = func.def.result_id()
            && let Some(slot) = self.defined.get_mut(&id)
        {
            *slot = Some(func.def.result_type());
        }
        let uses = Uses {
            def_op: &self.def_op,
            kernel: self.kernel,
            dropped_sets: &self.dropped_sets,
        };
        for b in &func.blocks {
            uses.check(&b.label())?;
            for inst in &b.insts {
                uses.check(inst)?;
            }
        }
        check_function(func)?;
        self.values.function(func)?;
        self.limits.function(index, func)?;
        dominance::check_function(func, &self.module_level).map(Some)
    }

    /// Passes over the next function (module order), which has no body.
    pub(crate) fn declaration(&mut self) {
        self.next += 1;
    }

    /// The checks that need every body checked: each entry point is a function with a
    /// body that returns void; no recursion in shaders (read from `words`, the module's:
    /// the recursion check keeps only where each call is).
    pub(crate) fn finish(self, words: &[u32]) -> Result<(), Error> {
        // An entry point is a function with a body (a declaration cannot carry what makes
        // it an entry point: LLVM refuses `declare amdgpu_kernel … !reqd_work_group_size`)
        // that returns void (as `spirv-val` requires; LLVM refuses a kernel calling
        // convention on a function returning a value).
        for &(func, word) in &self.entry_points {
            let refused = match self.defined.get(&func) {
                Some(&Some(ret))
                    if ret
                        .is_some_and(|t| matches!(self.types.get(t), Some(super::SpvTy::Void))) =>
                {
                    continue;
                }
                Some(&Some(_)) => "whose return type is not void",
                _ => "not a function with a body",
            };
            let inst = super::decode::decode_alone(words, word as usize)?;
            let name = inst.string(2).unwrap_or_default();
            return Err(inst.invalid(format!("entry point '{name}' names %{func}, {refused}")));
        }
        self.limits.finish(&self.function_ids, words)
    }
}

/// What the per-instruction id checks need.
struct Uses<'a> {
    def_op: &'a DefOps,
    /// Kernels may pass scopes and semantics as runtime values.
    kernel: bool,
    /// Extended-instruction imports whose instructions are dropped (not checked).
    dropped_sets: &'a [SpvId],
}

impl Uses<'_> {
    /// [`Uses::check`] of the instruction a decoration was filed from, without making
    /// it when every id the decoration uses is defined and none is a scope or semantics
    /// (then the check has nothing to report: a decoration has no result type).
    fn check_deco(&self, d: &crate::spirv::annotations::Deco) -> Result<(), Error> {
        let defined = self.def_op.is_defined(d.target)
            && d.operands.iter().all(|o| match o {
                super::Operand::IdRef(id) => self.def_op.is_defined(SpvId(*id)),
                super::Operand::IdScope(_) | super::Operand::IdMemorySemantics(_) => false,
                _ => true,
            });
        if defined {
            return Ok(());
        }
        self.check(&d.to_inst())
    }

    /// Every id an instruction uses is defined (each is shown to `used`); its result
    /// type is a type; its scope and memory-semantics operands are constants (in
    /// shaders).
    fn check(&self, inst: &Inst) -> Result<(), Error> {
        let def_op = self.def_op;
        if matches!(inst.op, Op::Name | Op::MemberName) {
            return Ok(());
        }
        if inst.op == Op::ExtInst && inst.id(0).is_ok_and(|s| self.dropped_sets.contains(&s)) {
            // Not checked (not all operands are ids).
            return Ok(());
        }
        // One pass over the operands for the ids (the result type's first), noting
        // whether a scope or semantics operand is among them (checked after the result
        // type, as before: the first error stays the one reported).
        let mut scoped = false;
        let operand_ids = inst.operands.iter().filter_map(|o| match o {
            super::Operand::IdRef(id) => Some(SpvId(*id)),
            super::Operand::IdScope(id) | super::Operand::IdMemorySemantics(id) => {
                scoped = true;
                Some(SpvId(*id))
            }
            _ => None,
        });
        let used = inst.result_type().map(SpvId::from).into_iter();
        for id in used.chain(operand_ids) {
            if !def_op.is_defined(id) {
                return Err(Error::at(ErrorKind::UndefinedId(id.0), inst.location()));
            }
        }
        if let Some(t) = inst.result_type() {
            // What defines the result type, read once (a lookup in the opcode table).
            let def = def_op.get(t);
            if !def.is_some_and(super::is_type_op) {
                return Err(inst.invalid(format!("result type %{t} is not a type")));
            }
            // Only a function, a call and an extended instruction may have a void result,
            // and no instruction a function type (LLVM has no such values: `%x = call
            // void`, `load void` are rejected).
            match def {
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
        // (Kernels may pass them as run-time values.)
        if !scoped || self.kernel {
            return Ok(());
        }
        for (i, operand) in inst.operands.iter().enumerate() {
            if let super::Operand::IdScope(id) | super::Operand::IdMemorySemantics(id) = operand {
                let op = def_op.get(SpvId(*id));
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
/// `OpFunction` and parameters (made again from their [`super::Param`]s, which need no
/// allocation).
pub(super) fn header_insts(module: &Module) -> impl Iterator<Item = Cow<'_, Inst>> {
    let functions = module.functions.iter().flat_map(|f| {
        let params = f.params.iter().map(|p| Cow::Owned(p.inst()));
        std::iter::once(Cow::Borrowed(&f.def)).chain(params)
    });
    (module.preamble.iter().chain(&module.globals))
        .map(Cow::Borrowed)
        .chain(functions)
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
