//! Function bodies: block order, value bookkeeping, phis, terminators and calls.
//!
//! Blocks are lowered in reverse post-order of the CFG, so every definition that
//! dominates a use is lowered before it (SPIR-V blocks may come in any order). `OpPhi`
//! nodes are created empty and filled once every block is lowered, with one incoming
//! entry per CFG edge (LLVM counts a switch's duplicate edges). Blocks unreachable from
//! the entry are dead and are not emitted.

use super::{Ctx, ValInfo};
use crate::analysis::{FunctionAnalyses, Node};
use crate::convergence::place::Regions;
use crate::error::Error;
use crate::llvm::{self, BlockId, Inst as LInst, InstKind, LocalId, TypeId, Value};
use crate::mmra::TagSet;
use crate::spirv::SpvId;
use crate::spirv::SpvTypeId;
use crate::spirv::{BodyDecoder, Function, Inst, Op, Operand};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// Per-function lowering state.
pub(crate) struct FnCtx<'c, 'a> {
    pub cx: &'c mut Ctx<'a>,
    pub f: llvm::Function,
    /// The SPIR-V function id.
    pub spv_id: SpvId,
    /// The LLVM block of each SPIR-V block (by number, module order; [`NO_BLOCK`] for
    /// an unreachable one). A label's number is in `cx.funcs` while the body is lowered.
    blocks: Vec<u32>,
    /// The block being filled.
    pub cur: BlockId,
    /// The number of the SPIR-V block being filled.
    cur_node: u32,
    /// Phis to fill, in block order.
    phis: Vec<PendingPhi>,
    /// The pairs of the phis to fill, one after the other.
    phi_pairs: Vec<PhiPair>,
    /// Allocas introduced by the lowering, placed at the top of the entry block.
    pub entry_allocas: Vec<LInst>,
    /// The first type error found while emitting the current instruction.
    type_error: Option<String>,
    /// Pointers whose memory is not laid out as their pointee type's default (access
    /// chains into laid-out aggregates; `layout.rs`).
    pub ptr_shapes: HashMap<SpvId, super::layout::ShapeId>,
}

/// An `OpPhi` created empty, to be filled once every block is lowered.
struct PendingPhi {
    /// The instruction's word offset and result id (for errors at it).
    word: u32,
    id: SpvId,
    l: LocalId,
    /// The number of the SPIR-V block (its LLVM block is `FnCtx::blocks[node]`).
    node: u32,
    /// Index in the LLVM block.
    at: u32,
    /// Its pairs: `phi_pairs[start..end]`.
    start: u32,
    end: u32,
}

/// A pair of an `OpPhi`: the value, the parent's label and the parent's block number
/// ([`NO_BLOCK`] if the label is not a block of the function).
struct PhiPair {
    v: SpvId,
    parent: SpvId,
    node: u32,
}

impl PendingPhi {
    /// The `OpPhi`, without its operands.
    fn head(&self) -> Inst {
        Inst::new(Op::Phi, self.word, None, Some(self.id), Box::new([]))
    }
}

/// "Unreachable" in [`FnCtx::blocks`].
const NO_BLOCK: u32 = u32::MAX;

/// A block this long gets room for a few instructions more than its own.
const LONG_BLOCK: usize = 4096;

/// Lowers one function body into its (already declared) LLVM function.
/// `analyses` are the function's CFG analyses from the input checks (computed here when
/// they are missing or do not fit the body). The body is consumed as it is lowered:
/// each instruction is freed once lowered (phis are kept until they are filled), and a
/// long block's instructions are decoded one at a time with `dec` (`Function::deferred`),
/// so a long function is not held twice, as SPIR-V and as LLVM.
pub(crate) fn lower_function(
    cx: &mut Ctx<'_>,
    mut func: Function,
    dec: Option<&BodyDecoder<'_>>,
    analyses: Option<FunctionAnalyses>,
) -> Result<Regions, Error> {
    let spv_id = func.id();
    let fid = cx
        .funcs
        .get(spv_id)
        .ok_or_else(|| func.def.invalid("function was not declared"))?;
    let analyses = match analyses {
        Some(a) if a.cfg.num_blocks() == func.blocks.len() => a,
        _ => crate::spirv::cfg::analyses(&func)?,
    };
    let merges = crate::spirv::cfg::merge_infos(&func);
    let cfg = &analyses.cfg;
    let mut f = cx.m.take_function(fid);
    let reachable = (0..func.blocks.len())
        .filter(|&i| cfg.is_reachable(Node(i as u32)))
        .count();
    f.reserve_blocks(reachable);
    // Most instructions give one LLVM instruction and result: sized once, so that the
    // vectors of a long function or block do not grow by doubling. Names are mostly
    // `_<id>` and `bb<id>`: that much text.
    let results = func.result_count();
    let id_digits = cx.spv.header.bound.checked_ilog10().unwrap_or(0) as usize + 1;
    f.reserve_locals(
        results,
        results * (id_digits + 1) + reachable * (id_digits + 2),
    );
    let mut blocks = Vec::with_capacity(func.blocks.len());
    cx.funcs.set_labels(|| {
        func.blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.id(), i as u32))
    });
    for (i, b) in func.blocks.iter().enumerate() {
        let id = b.id();
        if cfg.is_reachable(Node(i as u32)) {
            // A block without a name is `bb<id>`, written without a hint text.
            let block = match cx.names.get(id) {
                Some(name) => f.new_block(name),
                None => f.new_numbered_block(id.0),
            };
            blocks.push(block.0);
        } else {
            blocks.push(NO_BLOCK);
        }
    }
    let mut fx = FnCtx {
        cx,
        f,
        spv_id,
        blocks,
        cur: BlockId(0),
        cur_node: 0,
        type_error: None,
        phis: Vec::new(),
        phi_pairs: Vec::new(),
        entry_allocas: Vec::new(),
        ptr_shapes: HashMap::new(),
    };
    if !fx.cx.const_samplers.is_empty() {
        fx.materialize_samplers(&func, dec)?;
    }
    if !fx.cx.coop_constants.is_empty() {
        fx.materialize_coop_constants(&func, dec)?;
    }
    if !fx.cx.runtime_constants.is_empty() {
        fx.materialize_runtime_constants(&func, dec)?;
    }
    for (var, vi) in fx.cx.resource_values(spv_id) {
        fx.cx.values.set(var, vi)?;
    }
    if !fx.cx.amd_builtins.is_empty() {
        fx.materialize_amdgcn_builtins(&func, dec)?;
    }
    if !fx.cx.buffer_handles.is_empty() {
        fx.materialize_buffer_handles(&func, dec)?;
    }
    for &b in cfg.rpo() {
        let len = func.block_len(b.index());
        let block = &mut func.blocks[b.index()];
        fx.cur = BlockId(fx.blocks[b.index()]);
        fx.cur_node = b.0;
        let insts = std::mem::take(&mut block.insts);
        // Room for what comes after lowering in a long block too (the entry block's
        // allocas, a convergence token): a full vector of millions of instructions would
        // be copied into one twice its size.
        let slack = if len >= LONG_BLOCK { 8 } else { 0 };
        fx.f.blocks[fx.cur.index()].insts.reserve_exact(len + slack);
        // A block's instructions before its terminator (and merge) are decoded one at a
        // time here (`Function::deferred`): the body is never held whole as SPIR-V beside
        // LLVM.
        if let Some(d) = func.deferred_of(b.index()) {
            let dec =
                dec.ok_or_else(|| crate::error::invalid("a deferred block without its words"))?;
            dec.each_or_phi(d, |inst| match inst {
                Ok(inst) => fx.lower_one(&inst),
                Err(phi) => fx.lower_one_with(&phi.head(), |fx, head| {
                    let pairs = phi.pairs.chunks(2).map(|p| match p {
                        &[v, parent] => Some((v, parent)),
                        _ => None,
                    });
                    fx.lower_phi(head, pairs)
                }),
            })?;
        }
        for inst in insts {
            fx.lower_one(&inst)?;
        }
    }
    // The SPIR-V body is not needed any more (the phis' parents are block numbers).
    fx.cx.funcs.clear_labels();
    drop(func);
    fx.fill_phis(cfg)?;
    let allocas = std::mem::take(&mut fx.entry_allocas);
    if let Some(entry) = fx.f.blocks.first_mut() {
        entry.insts.splice(0..0, allocas);
    }
    let to_llvm: Vec<Option<BlockId>> = std::mem::take(&mut fx.blocks)
        .into_iter()
        .map(|b| (b != NO_BLOCK).then_some(BlockId(b)))
        .collect();
    let regions = crate::convergence::regions::compute(
        &analyses,
        &merges,
        fx.cx.kernel,
        &to_llvm,
        fx.f.blocks.len(),
    );
    let FnCtx { cx, f, .. } = fx;
    cx.m.put_function(fid, f);
    Ok(regions)
}

impl<'c, 'a> FnCtx<'c, 'a> {
    /// Lowers one instruction of the current block; a type error or an invalid constant
    /// it made is an error at it.
    fn lower_one(&mut self, inst: &Inst) -> Result<(), Error> {
        self.lower_one_with(inst, Self::lower_inst)
    }

    /// As [`FnCtx::lower_one`], with `lower` lowering the instruction.
    fn lower_one_with(
        &mut self,
        inst: &Inst,
        lower: impl FnOnce(&mut Self, &Inst) -> Result<(), Error>,
    ) -> Result<(), Error> {
        lower(self, inst).map_err(|e| e.or_at(&inst.location()))?;
        if let Some(msg) = self.type_error.take() {
            return Err(inst.invalid(format!("{msg}: the operand and result types disagree")));
        }
        if let Some(msg) = self.cx.m.take_invalid_const() {
            return Err(inst.invalid(msg));
        }
        Ok(())
    }

    /// The lowered value of an id (constant, global, or a local of this function).
    pub fn val(&self, id: SpvId) -> Result<Value, Error> {
        self.info(id).map(|i| i.v)
    }

    /// Value and SPIR-V type of an id.
    pub fn info(&self, id: SpvId) -> Result<ValInfo, Error> {
        match self.cx.values.get(id) {
            // (A local is this function's: the checks refuse an id of another function.
            // One out of this function's range is refused all the same, never indexed.)
            Some(vi) if !matches!(vi.v, Value::Local(l) if l.index() >= self.f.locals.len()) => {
                Ok(vi)
            }
            _ => Err(crate::error::invalid(format!(
                "%{id} is used where it is not defined (its definition must dominate this use)"
            ))),
        }
    }

    /// The SPIR-V type id of a value id.
    pub fn vty(&self, id: SpvId) -> Result<SpvTypeId, Error> {
        self.info(id).map(|i| i.spv_ty)
    }

    /// The module-scope ids in `keep` that the function's instructions use, in order.
    pub fn used_ids_where(
        func: &Function,
        dec: Option<&BodyDecoder<'_>>,
        keep: impl Fn(SpvId) -> bool,
    ) -> Result<std::collections::BTreeSet<SpvId>, Error> {
        let mut used = std::collections::BTreeSet::new();
        func.for_each_inst(dec, |inst| {
            used.extend(inst.used_ids().filter(|&id| keep(id)))
        })?;
        Ok(used)
    }

    /// Gives module-scope variable `id` (of SPIR-V pointer type `ptr_ty`) the value `v`
    /// in this function: for variables computed per function instead of being globals.
    pub fn define_variable(&mut self, id: SpvId, ptr_ty: SpvTypeId, v: Value) -> Result<(), Error> {
        let var = Inst::new(
            ::spirv::Op::Variable,
            0,
            Some(ptr_ty),
            Some(id),
            Box::new([]),
        );
        self.define(&var, v)
    }

    /// Records the value of an instruction's result.
    pub fn define(&mut self, inst: &Inst, v: Value) -> Result<(), Error> {
        let id = inst.rid()?;
        let spv_ty = inst.rty()?;
        if let Value::Local(l) = v {
            // A value built by a helper under a temporary name takes the result's name.
            if self.f.local_name(l).starts_with("t")
                && self
                    .f
                    .local_name(l)
                    .trim_start_matches('t')
                    .trim_start_matches('.')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            {
                super::rename_id_local(&self.cx.names, &mut self.f, l, id);
            }
        }
        let vi = ValInfo {
            v,
            spv_ty,
            local: true,
        };
        if !self.cx.values.set(id, vi)? {
            return Err(inst.err("result id out of bound"));
        }
        Ok(())
    }

    /// Appends an instruction producing a value of type `ty`, named after `hint`.
    pub fn emit(&mut self, hint: &str, ty: TypeId, kind: InstKind) -> Value {
        let l = self.f.new_local(hint, ty);
        self.push(LInst::new(Some(l), kind));
        Value::Local(l)
    }

    /// [`emit`](Self::emit) with the MMRA tags `tags` attached (`!mmra`).
    pub fn emit_tagged(&mut self, hint: &str, ty: TypeId, kind: InstKind, tags: &TagSet) -> Value {
        self.emit_maybe_tagged(hint, ty, kind, Some(tags))
    }

    /// [`emit`](Self::emit), tagged when `tags` is given.
    pub fn emit_maybe_tagged(
        &mut self,
        hint: &str,
        ty: TypeId,
        kind: InstKind,
        tags: Option<&TagSet>,
    ) -> Value {
        let l = self.f.new_local(hint, ty);
        self.push_tagged(LInst::new(Some(l), kind), tags);
        Value::Local(l)
    }

    /// The local holding the value of SPIR-V id `id`, named as [`Ctx::hint`] names it
    /// (its `OpName`, else `_<id>`, written without making the hint text first).
    fn value_local(&mut self, id: SpvId, ty: TypeId) -> LocalId {
        super::id_local(&self.cx.names, &mut self.f, id, ty)
    }

    /// [`emit_maybe_tagged`](Self::emit_maybe_tagged) of the value of SPIR-V id `id`
    /// (named by [`FnCtx::value_local`]).
    pub fn emit_for(
        &mut self,
        id: SpvId,
        ty: TypeId,
        kind: InstKind,
        tags: Option<&TagSet>,
    ) -> Value {
        let l = self.value_local(id, ty);
        self.push_tagged(LInst::new(Some(l), kind), tags);
        Value::Local(l)
    }

    /// [`emit_void`](Self::emit_void), tagged when `tags` is given.
    pub fn emit_void_maybe_tagged(&mut self, kind: InstKind, tags: Option<&TagSet>) {
        self.push_tagged(LInst::new(None, kind), tags);
    }

    /// Appends `inst` with the MMRA tags `tags` attached, when given.
    fn push_tagged(&mut self, mut inst: LInst, tags: Option<&TagSet>) {
        if let Some(tags) = tags {
            inst.set_mmra(self.cx.mmra_node(tags));
        }
        self.push(inst);
    }

    /// Appends a built instruction to the current block, type-checking it first.
    fn push(&mut self, inst: LInst) {
        if self.type_error.is_none()
            && let Err(e) = llvm::typecheck::check_inst(&self.cx.m, &self.f, &inst)
        {
            self.type_error = Some(e);
        }
        self.f.blocks[self.cur.index()].insts.push(inst);
    }

    /// Appends an instruction without a result.
    pub fn emit_void(&mut self, kind: InstKind) {
        self.push(LInst::new(None, kind));
    }

    /// [`emit_void`](Self::emit_void) with the MMRA tags `tags` attached.
    pub fn emit_void_tagged(&mut self, kind: InstKind, tags: &TagSet) {
        self.push_tagged(LInst::new(None, kind), Some(tags));
    }

    /// Appends an instruction for a SPIR-V result and defines the result as its value.
    pub fn emit_result(&mut self, inst: &Inst, kind: InstKind) -> Result<Value, Error> {
        self.emit_result_with(inst, kind, None)
    }

    /// [`emit_result`](Self::emit_result) with the MMRA tags `tags` attached.
    pub fn emit_result_tagged(
        &mut self,
        inst: &Inst,
        kind: InstKind,
        tags: &TagSet,
    ) -> Result<Value, Error> {
        self.emit_result_with(inst, kind, Some(tags))
    }

    fn emit_result_with(
        &mut self,
        inst: &Inst,
        kind: InstKind,
        tags: Option<&TagSet>,
    ) -> Result<Value, Error> {
        let ty = self.cx.llty(inst.rty()?)?;
        let v = self.emit_for(inst.rid()?, ty, kind, tags);
        self.define(inst, v)?;
        Ok(v)
    }

    /// The LLVM type of a value.
    pub fn ll_type_of(&self, v: Value) -> TypeId {
        self.cx.m.value_type(&self.f, v)
    }

    fn block_of(&self, label: SpvId) -> Result<BlockId, Error> {
        self.cx
            .funcs
            .label(label)
            .and_then(|n| self.blocks.get(n as usize))
            .filter(|&&b| b != NO_BLOCK)
            .map(|&b| BlockId(b))
            .ok_or_else(|| crate::error::invalid(format!("%{label} is not a reachable block")))
    }

    /// Lowers `OpPhi` (filled once every block is lowered), a terminator or
    /// `OpFunctionCall` ([`OpClass::Control`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_control(&mut self, inst: &Inst) -> Result<(), Error> {
        match inst.op {
            Op::Phi => {
                let pairs = inst.operands.chunks(2).map(|p| match p {
                    [Operand::IdRef(v), Operand::IdRef(parent)] => Some((*v, *parent)),
                    _ => None,
                });
                self.lower_phi(inst, pairs)
            }
            Op::Branch => {
                let dest = self.block_of(inst.id(0)?)?;
                self.emit_void(InstKind::Br { dest });
                Ok(())
            }
            Op::BranchConditional => {
                let c = self.val(inst.id(0)?)?;
                let t = self.block_of(inst.id(1)?)?;
                let f = self.block_of(inst.id(2)?)?;
                self.emit_void(InstKind::CondBr { c, t, f });
                Ok(())
            }
            Op::Switch => self.lower_switch(inst),
            Op::Return => {
                self.emit_void(InstKind::Ret { val: None });
                Ok(())
            }
            Op::ReturnValue => {
                self.keep_ptr_shape_local(inst, inst.id(0)?)?;
                let v = self.val(inst.id(0)?)?;
                self.emit_void(InstKind::Ret { val: Some(v) });
                Ok(())
            }
            Op::Unreachable => {
                self.emit_void(InstKind::Unreachable);
                Ok(())
            }
            // Terminators that end the invocation's work here (in ray-tracing stages, the
            // intersection is ignored or the ray's traversal ends).
            Op::Kill
            | Op::TerminateInvocation
            | Op::IgnoreIntersectionKHR
            | Op::TerminateRayKHR => {
                // `__spirv_<Op>`, as every builtin call is named (builtins.rs).
                let name = format!("__spirv_{}", inst.opname());
                self.call_builtin(inst, &name, &[], None, false)?;
                self.emit_void(InstKind::Unreachable);
                Ok(())
            }
            Op::EmitMeshTasksEXT => self.emit_mesh_tasks(inst),
            Op::FunctionCall => self.lower_call(inst),
            _ => Err(inst.unsupported()),
        }
    }

    /// Lowers an `OpPhi` given its (value, parent) pairs (`None` for a malformed pair):
    /// an empty phi now, filled once every block is lowered.
    fn lower_phi(
        &mut self,
        inst: &Inst,
        pairs: impl Iterator<Item = Option<(u32, u32)>>,
    ) -> Result<(), Error> {
        let ty = self.cx.llty(inst.rty()?)?;
        let l = self.value_local(inst.rid()?, ty);
        self.f.blocks[self.cur.index()].insts.push(LInst::new(
            Some(l),
            InstKind::Phi {
                ty,
                incoming: Vec::new(),
            },
        ));
        let at = self.f.blocks[self.cur.index()].insts.len() - 1;
        let start = self.phi_pairs.len() as u32;
        for pair in pairs {
            let Some((v, parent)) = pair else {
                return Err(inst.err("malformed OpPhi operands"));
            };
            let parent = SpvId(parent);
            let node = self.cx.funcs.label(parent).unwrap_or(NO_BLOCK);
            self.phi_pairs.push(PhiPair {
                v: SpvId(v),
                parent,
                node,
            });
        }
        // A phi of pointers into laid-out memory takes the shape of its values that are
        // defined already (the checks in `fill_phis` hold the others to it).
        if !self.ptr_shapes.is_empty()
            && let Some(s) = self.phi_pairs[start as usize..]
                .iter()
                .find_map(|p| self.ptr_shapes.get(&p.v).copied())
        {
            self.ptr_shapes.insert(inst.rid()?, s);
        }
        self.phis.push(PendingPhi {
            word: inst.word(),
            id: inst.rid()?,
            l,
            node: self.cur_node,
            at: at as u32,
            start,
            end: self.phi_pairs.len() as u32,
        });
        self.define(inst, Value::Local(l))
    }

    /// Calls `__spirv_ConstantSampler` at the top of the entry block for each
    /// `OpConstantSampler` this function uses.
    fn materialize_samplers(
        &mut self,
        func: &Function,
        dec: Option<&BodyDecoder<'_>>,
    ) -> Result<(), Error> {
        let used = Self::used_ids_where(func, dec, |id| self.cx.const_samplers.contains_key(&id))?;
        for id in used {
            let Some(&(a, n, f)) = self.cx.const_samplers.get(&id) else {
                continue;
            };
            let ty = self.cx.spv_globals_type(id)?;
            let args = [
                self.i32_arg(u64::from(a)),
                self.i32_arg(u64::from(n)),
                self.i32_arg(u64::from(f)),
            ];
            let fake = Inst::new(Op::ConstantSampler, 0, Some(ty), Some(id), Box::new([]));
            self.call_builtin(&fake, "__spirv_ConstantSampler", &args, Some(ty), false)?;
        }
        Ok(())
    }

    fn lower_switch(&mut self, inst: &Inst) -> Result<(), Error> {
        let sel = inst.id(0)?;
        let v = self.val(sel)?;
        let ty = self.ll_type_of(v);
        let default = self.block_of(inst.id(1)?)?;
        let mut cases = Vec::new();
        let mut seen = HashSet::new();
        let mut i = 2;
        while i + 1 < inst.operands.len() + 1 && i < inst.operands.len() {
            let lit = match inst.operand(i)? {
                Operand::LiteralBit32(x) => u64::from(*x),
                Operand::LiteralBit64(x) => *x,
                other => return Err(inst.err(format!("switch literal is {other:?}"))),
            };
            let label = inst.id(i + 1)?;
            // The case is the literal's low bits, as many as the selector has: two
            // literals equal there (high bits spirv-val refuses, 0x100 and 0 for an 8-bit
            // selector) are one case twice, which LLVM refuses.
            let bits = self.elem_bits(ty);
            let value = if bits >= 64 {
                lit
            } else {
                lit & ((1u64 << bits) - 1)
            };
            if !seen.insert(value) {
                return Err(inst.invalid(format!(
                    "duplicate case value {value} (literal {lit}) for the {bits}-bit selector"
                )));
            }
            let c = self.cx.int_const(ty, lit);
            cases.push((c, self.block_of(label)?));
            i += 2;
        }
        self.emit_void(InstKind::Switch {
            v,
            default,
            cases: cases.into(),
        });
        Ok(())
    }

    fn lower_call(&mut self, inst: &Inst) -> Result<(), Error> {
        let callee = inst.id(0)?;
        let fid = self
            .cx
            .funcs
            .get(callee)
            .ok_or_else(|| inst.err(format!("callee %{callee} is not a function")))?;
        let arg_ids = inst.ids_from(1)?;
        for &a in &arg_ids {
            self.keep_ptr_shape_local(inst, a)?;
        }
        let mut args = arg_ids
            .into_iter()
            .map(|a| self.val(a))
            .collect::<Result<Vec<_>, _>>()?;
        // Resource arguments (amdgcn Vulkan ABI, abi.rs): the callee's needs are a subset
        // of the caller's.
        for &r in self.cx.resources.needs_of(callee) {
            let l = self.cx.resources.param(self.spv_id, r).ok_or_else(|| {
                inst.invalid("a resource the callee uses is not available in the caller")
            })?;
            args.push(Value::Local(l));
        }
        let callee_f = self.cx.m.func(fid);
        if callee_f.params.len() != args.len() {
            return Err(inst.invalid("argument count differs from the callee's parameters"));
        }
        let (cc, ret) = (callee_f.cc, callee_f.ret);
        let kind = InstKind::Call(Box::new(crate::llvm::Call {
            cc,
            ret,
            callee: Value::Func(fid),
            args: args.into(),
            convergent: false,
            convergence: None,
        }));
        if self.cx.m.find_type(&llvm::Type::Void) == Some(ret) {
            self.emit_void(kind);
            Ok(())
        } else {
            self.emit_result(inst, kind).map(|_| ())
        }
    }

    /// Fills the phis with one incoming entry per CFG edge from a reachable block.
    fn fill_phis(&mut self, cfg: &crate::analysis::Cfg) -> Result<(), Error> {
        let phis = std::mem::take(&mut self.phis);
        let pairs = std::mem::take(&mut self.phi_pairs);
        // How many edges come into a block from reachable blocks (the phis of a block
        // are next to each other: counted once per block).
        let mut counted: Option<(u32, u32)> = None;
        for p in phis {
            let inst = &p.head();
            let node = Node(p.node);
            let preds = cfg.preds(node);
            let preds_total = match counted {
                Some((n, c)) if n == p.node => c,
                _ => {
                    let c = preds.iter().filter(|&&q| cfg.is_reachable(q)).count() as u32;
                    counted = Some((p.node, c));
                    c
                }
            };
            // One entry per predecessor (anything else is refused below): sized once.
            let mut incoming = Vec::with_capacity(preds_total as usize);
            let mut covered = 0;
            for &PhiPair {
                v,
                parent,
                node: pn,
            } in &pairs[p.start as usize..p.end as usize]
            {
                let Some(&pb) = self.blocks.get(pn as usize).filter(|&&b| b != NO_BLOCK) else {
                    continue;
                };
                let n = cfg.edge_count(Node(pn), node) as u32;
                if n == 0 {
                    return Err(inst.invalid(format!(
                        "phi parent %{parent} is not a predecessor of this block"
                    )));
                }
                let val = self.val(v).map_err(|e| e.or_at(&inst.location()))?;
                for _ in 0..n {
                    incoming.push((val, BlockId(pb)));
                }
                covered += n;
            }
            if covered != preds_total {
                return Err(inst.invalid("phi does not have one entry per predecessor"));
            }
            if !self.ptr_shapes.is_empty() {
                let want = self.ptr_shapes.get(&p.id).copied();
                for pair in &pairs[p.start as usize..p.end as usize] {
                    self.check_ptr_shape(inst, pair.v, want)?;
                }
            }
            let phi_ty = self.f.local_ty(p.l);
            if incoming
                .iter()
                .any(|(v, _)| self.cx.m.value_type(&self.f, *v) != phi_ty)
            {
                return Err(inst.invalid("an incoming value's type differs from the phi's type"));
            }
            let block = self.blocks[p.node as usize] as usize;
            let insts = &mut self.f.blocks[block].insts;
            if let Some(ph) = insts
                .get_mut(p.at as usize)
                .filter(|i| i.result() == Some(p.l))
                && let InstKind::Phi { incoming: inc, .. } = &mut ph.kind
            {
                *inc = incoming;
            }
        }
        Ok(())
    }
}
