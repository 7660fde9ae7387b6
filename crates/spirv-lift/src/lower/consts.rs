//! Constants, specialization constants (at their set values or defaults) and module-level
//! undefs, as LLVM constants.
//!
//! Their values are computed in SPIR-V terms at load (`spirv::Constants`, which also folds
//! `OpSpecConstantOp`); this file only gives each value its LLVM form.

use super::{Ctx, SpvTy, SpvTypeId};
use crate::error::Error;
use crate::llvm::{CastOp, Const, ConstId, Type, Value};
use crate::spirv::SpvId;
use crate::spirv::{ConstValue, Inst, Op, Operand};

impl Ctx<'_> {
    /// Lowers a module-level constant, specialization constant, `OpUndef` or
    /// `OpConstantSampler`.
    pub(super) fn lower_constant(&mut self, inst: &Inst) -> Result<(), Error> {
        if inst.op == Op::ConstantSampler {
            // Materialized as a `__spirv_ConstantSampler` call in each function using it.
            let mode = |i: usize| -> Result<u32, Error> {
                Ok(match inst.operand(i)? {
                    Operand::SamplerAddressingMode(m) => *m as u32,
                    Operand::SamplerFilterMode(m) => *m as u32,
                    Operand::LiteralBit32(v) => *v,
                    other => return Err(inst.err(format!("unexpected operand {other:?}"))),
                })
            };
            let modes = (mode(0)?, mode(1)?, mode(2)?);
            self.const_samplers.insert(inst.rid()?, modes);
            return Ok(());
        }
        let t = self.llty(inst.rty()?)?;
        if let SpvTy::CoopMatrix { .. } = self.spv_ty(inst.rty()?)?
            && inst.op != Op::ConstantNull
            && inst.op != Op::Undef
        {
            // Materialized as a `__spirv_CompositeConstruct` call in each function using it.
            let component = super::coop::coop_constant_component(inst)?;
            self.coop_constants
                .insert(inst.rid()?, (inst.rty()?, component));
            return Ok(());
        }
        let spv = self.spv;
        let Some(value) = spv.consts().of(inst) else {
            inst.rid()?;
            return Err(inst.unsupported());
        };
        let value = value?;
        if *value == ConstValue::Runtime {
            // Computed in each function that uses it (`coop.rs`), by the instruction the
            // specialization constant names.
            self.runtime_constants.push(runtime_instruction(inst)?);
            return Ok(());
        }
        let c = match value.as_ref() {
            ConstValue::Declared(_) => self.declared_composite(inst, t)?,
            ConstValue::Address => self.address_constant(inst, t)?,
            v => self.const_value(inst, t, v)?,
        };
        self.def_const(inst, c)
    }

    /// An `OpConstantComposite`, `OpSpecConstantComposite` or
    /// `OpConstantCompositeReplicateEXT` of LLVM type `t`.
    fn declared_composite(
        &mut self,
        inst: &Inst,
        t: crate::llvm::TypeId,
    ) -> Result<ConstId, Error> {
        let mut elems = Vec::with_capacity(inst.operands.len());
        for id in inst.ids_from(0)? {
            elems.push(self.const_of(inst, id)?);
        }
        if inst.op == Op::ConstantCompositeReplicateEXT {
            let n = self.composite_len(inst.rty()?)?;
            let e = elems
                .first()
                .copied()
                .ok_or_else(|| inst.err("missing constituent"))?;
            elems = vec![e; n as usize];
        }
        Ok(self.m.constant(Const::Aggregate(t, elems.into())))
    }

    /// The LLVM constant of type `t` holding `v`, a value `inst` declares or folds (the
    /// elements of a folded composite take its element types).
    fn const_value(
        &mut self,
        inst: &Inst,
        t: crate::llvm::TypeId,
        v: &ConstValue,
    ) -> Result<ConstId, Error> {
        Ok(match v {
            ConstValue::Int(x) => self.int_const(t, *x),
            ConstValue::Float(bits) => self.m.constant(Const::Float(t, *bits)),
            ConstValue::Null => self.null_of(t),
            ConstValue::Undef => self.m.constant(Const::Undef(t)),
            ConstValue::Poison => self.m.constant(Const::Poison(t)),
            ConstValue::Same(id) => self.const_of(inst, *id)?,
            ConstValue::Folded(f) => {
                let ft = self.llty(f.ty)?;
                let mut elems = Vec::with_capacity(f.elems.len());
                for (i, e) in f.elems.iter().enumerate() {
                    let et = match e {
                        ConstValue::Same(_) | ConstValue::Folded(_) => t,
                        _ => {
                            let ety =
                                self.spv.types.element(f.ty, i).ok_or_else(|| {
                                    inst.err("a folded element of a non-composite")
                                })?;
                            self.llty(ety)?
                        }
                    };
                    elems.push(self.const_value(inst, et, e)?);
                }
                self.m.constant(Const::Aggregate(ft, elems.into()))
            }
            ConstValue::Declared(_)
            | ConstValue::Variable
            | ConstValue::Runtime
            | ConstValue::Address => {
                return Err(inst.err("not a constant value"));
            }
        })
    }

    /// An `OpSpecConstantOp` computing an address ([`ConstValue::Address`]), of LLVM type
    /// `t`: an LLVM constant expression on the variable's address.
    fn address_constant(&mut self, inst: &Inst, t: crate::llvm::TypeId) -> Result<ConstId, Error> {
        let Some(Operand::LiteralSpecConstantOpInteger(op)) = inst.operands.first() else {
            return Err(inst.err("missing OpSpecConstantOp opcode"));
        };
        let op = *op;
        let ids = inst.ids_from(1)?;
        let base_id = *ids.first().ok_or_else(|| inst.err("missing operand"))?;
        let base_info = self
            .global_value(base_id)
            .ok_or_else(|| inst.err(format!("%{base_id} is not a constant")))?;
        let base = match base_info.v {
            Value::Global(g) => {
                let a = self.m.globals[g.index()].addrspace;
                let pt = self.m.ty(Type::Ptr(a));
                self.m.constant(Const::GlobalAddr(pt, g))
            }
            Value::Const(c) => c,
            _ => return Err(inst.err(format!("%{base_id} is not a constant"))),
        };
        let from = crate::llvm::const_type(self.m.const_of_id(base));
        let cast = |op| Const::Cast(op, base, t);
        let c = match op {
            Op::PtrCastToGeneric | Op::GenericCastToPtr | Op::Bitcast if from == t => {
                return Ok(base);
            }
            Op::PtrCastToGeneric | Op::GenericCastToPtr => cast(CastOp::AddrSpaceCast),
            Op::Bitcast => cast(CastOp::AddrSpaceCast),
            Op::ConvertPtrToU => cast(CastOp::PtrToInt),
            Op::ConvertUToPtr => cast(CastOp::IntToPtr),
            _ => self.address_gep(inst, op, base, base_info.spv_ty, &ids[1..])?,
        };
        Ok(self.m.constant(c))
    }

    /// The `getelementptr` constant expression of an access chain from `base` (of SPIR-V
    /// pointer type `ptr_ty`) through constant indices `ids` over memory without an
    /// explicit layout (the kernels' memory).
    fn address_gep(
        &mut self,
        inst: &Inst,
        op: Op,
        base: ConstId,
        ptr_ty: SpvTypeId,
        ids: &[SpvId],
    ) -> Result<Const, Error> {
        let SpvTy::Pointer { pointee, sc } = *self.spv_ty(ptr_ty)? else {
            return Err(inst.err("access chain base is not a pointer"));
        };
        // As for OpAccessChain: the result points into the base's storage class.
        let result_sc = match self.spv_ty(inst.rty()?)? {
            SpvTy::Pointer { sc, .. } => Some(*sc),
            _ => None,
        };
        if result_sc != Some(sc) {
            return Err(inst.invalid(format!(
                "access chain result type %{} is not a pointer in the base's storage class {sc:?}",
                inst.rty()?
            )));
        }
        let laid_out = |cx: &mut Self, t: SpvTypeId| -> Result<bool, Error> {
            let s = cx.shape(t)?;
            Ok(!matches!(
                cx.layouts.get(s).kind,
                super::layout::ShapeKind::Plain
            ))
        };
        let ptr_chain = matches!(op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
        let stride = ptr_chain
            && self
                .deco_lit(ptr_ty, ::spirv::Decoration::ArrayStride)
                .is_some();
        if laid_out(self, pointee)? || stride {
            return Err(inst.unsupported_form(
                "OpSpecConstantOp access chain into explicitly laid-out memory",
            ));
        }
        let src = self.mem_ty(pointee)?;
        let mut rest = ids;
        let mut indices = Vec::with_capacity(ids.len() + 1);
        match (ptr_chain, rest.split_first()) {
            (true, Some((&first, tail))) => {
                indices.push(self.const_of(inst, first)?);
                rest = tail;
            }
            _ => indices.push(self.int_const_i32(0)),
        }
        let mut cur = pointee;
        for &idx in rest {
            cur = match self.spv_ty(cur)?.clone() {
                SpvTy::Struct { members } => {
                    let k = self.const_int(idx).ok_or_else(|| {
                        inst.err(format!("struct index %{idx} is not a constant"))
                    })?;
                    let m = usize::try_from(k)
                        .ok()
                        .and_then(|k| members.get(k).copied())
                        .ok_or_else(|| inst.invalid(format!("struct index {k} out of range")))?;
                    indices.push(self.int_const_i32(k));
                    m
                }
                SpvTy::Array { elem, .. }
                | SpvTy::RuntimeArray { elem }
                | SpvTy::Vector { elem, .. }
                | SpvTy::Matrix { col: elem, .. } => {
                    indices.push(self.const_of(inst, idx)?);
                    elem
                }
                other => return Err(inst.invalid(format!("cannot index into {other:?}"))),
            };
            if laid_out(self, cur)? {
                return Err(inst.unsupported_form(
                    "OpSpecConstantOp access chain into explicitly laid-out memory",
                ));
            }
        }
        Ok(Const::Gep(Box::new(crate::llvm::ConstGep {
            ty: crate::llvm::const_type(self.m.const_of_id(base)),
            inbounds: matches!(op, Op::InBoundsAccessChain | Op::InBoundsPtrAccessChain),
            src,
            ptr: base,
            indices: indices.into(),
        })))
    }

    /// An `i32` constant.
    fn int_const_i32(&mut self, v: u64) -> ConstId {
        let i32t = self.m.ty(Type::Int(32));
        self.int_const(i32t, v)
    }

    fn def_const(&mut self, inst: &Inst, c: ConstId) -> Result<(), Error> {
        self.set_global_value(inst.rid()?, Value::Const(c), inst.rty()?)
    }

    /// The zero value of a type.
    pub fn null_of(&mut self, t: crate::llvm::TypeId) -> ConstId {
        let c = match self.m.type_of_id(t) {
            Type::Int(_) => Const::Int(t, 0),
            ty if ty.is_float() => Const::Float(t, 0),
            Type::Ptr(_) => Const::Null(t),
            _ => Const::Zero(t),
        };
        self.m.constant(c)
    }

    fn const_of(&self, inst: &Inst, id: SpvId) -> Result<ConstId, Error> {
        match self.global_value(id).map(|v| v.v) {
            Some(Value::Const(c)) => Ok(c),
            None if self.is_computed_per_function(id) => Err(inst.unsupported_form(format!(
                "%{id} is computed in each function that uses it (a cooperative matrix, or \
                 a value only the implementation knows), so no module-level constant can \
                 hold it"
            ))),
            _ => Err(inst.err(format!("%{id} is not a constant"))),
        }
    }

    /// Whether constant `id` has no module-level value but is computed in each function
    /// using it (`coop.rs`): a constant cooperative matrix, or a specialization constant
    /// known only at run time.
    pub(super) fn is_computed_per_function(&self, id: SpvId) -> bool {
        self.coop_constants.contains_key(&id)
            || self
                .runtime_constants
                .iter()
                .any(|r| r.result_id() == Some(id))
    }

    /// Number of constituents of a composite type.
    pub fn composite_len(&self, ty: SpvTypeId) -> Result<u64, Error> {
        Ok(match self.spv_ty(ty)? {
            SpvTy::Vector { n, .. } | SpvTy::Matrix { n, .. } => u64::from(*n),
            SpvTy::Array { .. } => self.array_len(ty)?,
            SpvTy::Struct { members } => members.len() as u64,
            _ => 0,
        })
    }
}

/// The instruction an `OpSpecConstantOp` whose value is known only at run time performs:
/// its opcode and operands, with its result.
fn runtime_instruction(inst: &Inst) -> Result<Inst, Error> {
    let Some(Operand::LiteralSpecConstantOpInteger(op)) = inst.operands.first() else {
        return Err(inst.err("missing OpSpecConstantOp opcode"));
    };
    Ok(Inst::new(
        *op,
        inst.word(),
        inst.result_type(),
        inst.result_id(),
        inst.operands[1..].into(),
    ))
}
