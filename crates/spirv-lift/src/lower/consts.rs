//! Constants, specialization constants (at their set values or defaults) and module-level
//! undefs, as LLVM constants.
//!
//! Their values are computed in SPIR-V terms at load (`spirv::Constants`, which also folds
//! `OpSpecConstantOp`); this file only gives each value its LLVM form.

use super::{Ctx, SpvTy, SpvTypeId};
use crate::error::Error;
use crate::llvm::{Const, ConstId, Type, Value};
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
        let spv = self.spv;
        let Some(value) = spv.consts().of(inst) else {
            inst.rid()?;
            return Err(inst.unsupported());
        };
        let value = value?;
        let c = match value.as_ref() {
            ConstValue::Declared(_) => self.declared_composite(inst, t)?,
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
        Ok(self.m.constant(Const::Aggregate(t, elems)))
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
                self.m.constant(Const::Aggregate(ft, elems))
            }
            ConstValue::Declared(_) | ConstValue::Variable => {
                return Err(inst.err("not a constant value"));
            }
        })
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
            _ => Err(inst.err(format!("%{id} is not a constant"))),
        }
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
