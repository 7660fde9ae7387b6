//! Constants, specialization constants (at their set values or defaults) and module-level
//! undefs.
//!
//! `OpSpecConstantOp` is folded here for the integer, logical and composite operations
//! SPIR-V allows in it, using the specialization constants' values: those set by
//! [`Options::spec_constant`](crate::Options::spec_constant), else the defaults.

use super::{Ctx, SpvTy};
use crate::error::Error;
use crate::llvm::{Const, ConstId, Type, TypeId, Value};
use crate::spec::Literal;
use crate::spirv::{Inst, Op, Operand};

impl Ctx<'_> {
    /// Lowers a module-level constant, specialization constant, `OpUndef` or
    /// `OpConstantSampler`.
    pub(super) fn lower_constant(&mut self, inst: &Inst) -> Result<(), Error> {
        match inst.op {
            Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                let t = self.llty(inst.rty()?)?;
                let v = match self.spec_values.get(inst.rid()?) {
                    Some(Literal::Bool(b)) => b,
                    _ => matches!(inst.op, Op::ConstantTrue | Op::SpecConstantTrue),
                };
                let c = self.m.constant(Const::Int(t, u128::from(v)));
                self.def_const(inst, c)
            }
            Op::Constant | Op::SpecConstant => {
                let c = self.scalar_constant(inst)?;
                self.def_const(inst, c)
            }
            Op::ConstantComposite
            | Op::SpecConstantComposite
            | Op::ConstantCompositeReplicateEXT => {
                let t = self.llty(inst.rty()?)?;
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
                let c = self.m.constant(Const::Aggregate(t, elems));
                self.def_const(inst, c)
            }
            Op::ConstantNull => {
                let t = self.llty(inst.rty()?)?;
                let c = self.null_of(t);
                self.def_const(inst, c)
            }
            Op::Undef => {
                let t = self.llty(inst.rty()?)?;
                let c = self.m.constant(Const::Undef(t));
                self.def_const(inst, c)
            }
            Op::SpecConstantOp => {
                let c = self.fold_spec_op(inst)?;
                self.def_const(inst, c)
            }
            Op::ConstantSampler => {
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
                Ok(())
            }
            _ => Err(inst.unsupported()),
        }
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

    fn const_of(&self, inst: &Inst, id: u32) -> Result<ConstId, Error> {
        match self.global_value(id).map(|v| v.v) {
            Some(Value::Const(c)) => Ok(c),
            _ => Err(inst.err(format!("%{id} is not a constant"))),
        }
    }

    /// Number of constituents of a composite type.
    pub fn composite_len(&self, ty: u32) -> Result<u64, Error> {
        Ok(match self.spv_ty(ty)? {
            SpvTy::Vector { n, .. } | SpvTy::Matrix { n, .. } => u64::from(*n),
            SpvTy::Array { .. } => self.array_len(ty)?,
            SpvTy::Struct { members } => members.len() as u64,
            _ => 0,
        })
    }

    fn scalar_constant(&mut self, inst: &Inst) -> Result<ConstId, Error> {
        let ty = inst.rty()?;
        let t = self.llty(ty)?;
        let set = match inst.op {
            Op::SpecConstant => self.spec_values.get(inst.rid()?),
            _ => None,
        };
        let bits: u64 = match (set, inst.operand(0)?) {
            (Some(Literal::Word(v)), _) => u64::from(v),
            (Some(Literal::DoubleWord(v)), _) => v,
            (_, Operand::LiteralBit32(v)) => u64::from(*v),
            (_, Operand::LiteralBit64(v)) => *v,
            (_, other) => {
                return Err(inst.err(format!("constant value {other:?} is not a number")));
            }
        };
        Ok(match self.spv_ty(ty)? {
            SpvTy::Int { .. } => self.int_const(t, bits),
            SpvTy::Float { .. } => self.m.constant(Const::Float(t, bits)),
            _ => return Err(inst.err("OpConstant of a non-scalar type")),
        })
    }

    /// The integer behind a constant id with its width, for folding.
    fn fold_int(&self, inst: &Inst, id: u32) -> Result<(u64, u32), Error> {
        let vi = self
            .global_value(id)
            .ok_or_else(|| inst.err(format!("%{id} is not a constant")))?;
        let width = self.scalar_width(vi.spv_ty)?;
        let v = self
            .const_int(id)
            .ok_or_else(|| inst.unsupported_form(format!("cannot fold %{id}")))?;
        Ok((v, width))
    }

    /// An integer or logical `OpSpecConstantOp` on vectors, lane by lane (`t` the result
    /// vector type, `elem` its lane type).
    fn fold_componentwise(
        &mut self,
        inst: &Inst,
        op: Op,
        ids: &[u32],
        t: TypeId,
        elem: TypeId,
    ) -> Result<ConstId, Error> {
        let a = self.const_elements(inst, ids.first().copied())?;
        let unary = matches!(op, Op::SNegate | Op::Not | Op::LogicalNot);
        let b = if unary {
            Vec::new()
        } else {
            self.const_elements(inst, ids.get(1).copied())?
        };
        let mut lanes = Vec::with_capacity(a.len());
        for (i, &x) in a.iter().enumerate() {
            let (x, w) = self.lane_int(inst, x)?;
            let r = match op {
                Op::SNegate => x.wrapping_neg(),
                Op::Not => !x,
                Op::LogicalNot => u64::from(x & 1 == 0),
                _ => {
                    let y = b
                        .get(i)
                        .ok_or_else(|| inst.err("operands of different lengths"))?;
                    let (y, _) = self.lane_int(inst, *y)?;
                    fold_binary(op, x, y, w).ok_or_else(|| {
                        inst.unsupported_form(format!("OpSpecConstantOp {op:?} cannot be folded"))
                    })?
                }
            };
            lanes.push(self.int_const(elem, r));
        }
        Ok(self.m.constant(Const::Aggregate(t, lanes)))
    }

    /// An integer lane of a constant vector: its value and width.
    fn lane_int(&self, inst: &Inst, c: ConstId) -> Result<(u64, u32), Error> {
        match self.m.const_of_id(c) {
            Const::Int(t, v) => match self.m.type_of_id(*t) {
                Type::Int(w) => Ok((*v as u64, *w)),
                _ => Err(inst.unsupported_form("cannot fold a lane of this constant")),
            },
            _ => Err(inst.unsupported_form("cannot fold a lane of this constant")),
        }
    }

    /// The elements of the constant composite `id` (an error for another constant).
    fn const_elements(&self, inst: &Inst, id: Option<u32>) -> Result<Vec<ConstId>, Error> {
        let c = self.const_of(inst, id.ok_or_else(|| inst.err("missing operand"))?)?;
        match self.m.const_of_id(c) {
            Const::Aggregate(_, elems) => Ok(elems.clone()),
            _ => {
                Err(inst
                    .unsupported_form("cannot fold an OpSpecConstantOp of this composite constant"))
            }
        }
    }

    /// `composite` with the element at `path` replaced by `object` (`OpCompositeInsert`).
    fn insert_const(
        &mut self,
        inst: &Inst,
        composite: ConstId,
        path: &[u32],
        object: ConstId,
    ) -> Result<ConstId, Error> {
        let Some((&first, rest)) = path.split_first() else {
            return Ok(object);
        };
        let (t, mut elems) = match self.m.const_of_id(composite) {
            Const::Aggregate(t, elems) => (*t, elems.clone()),
            _ => {
                return Err(inst.unsupported_form("cannot fold CompositeInsert into this constant"));
            }
        };
        let slot = elems
            .get_mut(first as usize)
            .ok_or_else(|| inst.err("index out of range"))?;
        *slot = self.insert_const(inst, *slot, rest, object)?;
        Ok(self.m.constant(Const::Aggregate(t, elems)))
    }

    fn fold_spec_op(&mut self, inst: &Inst) -> Result<ConstId, Error> {
        let Operand::LiteralSpecConstantOpInteger(op) = inst.operand(0)? else {
            return Err(inst.err("missing OpSpecConstantOp opcode"));
        };
        let op = *op;
        let rty = inst.rty()?;
        let t = self.llty(rty)?;
        let ids = inst.ids_from(1).or_else(|_| {
            // Composite ops carry literal indices after the ids.
            Ok::<Vec<u32>, Error>(
                inst.operands[1..]
                    .iter()
                    .filter_map(|o| {
                        if let Operand::IdRef(i) = o {
                            Some(*i)
                        } else {
                            None
                        }
                    })
                    .collect(),
            )
        })?;
        let lits: Vec<u32> = inst.operands[1..]
            .iter()
            .filter_map(|o| {
                if let Operand::LiteralBit32(v) = o {
                    Some(*v)
                } else {
                    None
                }
            })
            .collect();
        if let Type::Vector(_, elem) = *self.m.type_of_id(t)
            && (matches!(op, Op::SNegate | Op::Not | Op::LogicalNot)
                || fold_binary(op, 0, 1, 32).is_some())
        {
            return self.fold_componentwise(inst, op, &ids, t, elem);
        }
        let scalar = |cx: &Self, i: usize| -> Result<(u64, u32), Error> {
            let id = *ids.get(i).ok_or_else(|| inst.err("missing operand"))?;
            cx.fold_int(inst, id)
        };
        let result: u64 = match op {
            Op::CompositeExtract => {
                let mut c = self.const_of(
                    inst,
                    *ids.first().ok_or_else(|| inst.err("missing composite"))?,
                )?;
                for l in &lits {
                    c = match self.m.const_of_id(c) {
                        Const::Aggregate(_, e) => *e
                            .get(*l as usize)
                            .ok_or_else(|| inst.err("index out of range"))?,
                        _ => {
                            return Err(inst.unsupported_form(
                                "cannot fold CompositeExtract of this constant",
                            ));
                        }
                    };
                }
                return Ok(c);
            }
            Op::VectorShuffle => {
                let first = self.const_elements(inst, ids.first().copied())?;
                let second = self.const_elements(inst, ids.get(1).copied())?;
                let Type::Vector(_, elem) = *self.m.type_of_id(t) else {
                    return Err(inst.err("OpVectorShuffle of a non-vector type"));
                };
                let picked = lits
                    .iter()
                    .map(|&k| match k {
                        // An undefined component.
                        0xFFFF_FFFF => Ok(self.m.constant(Const::Poison(elem))),
                        k => first
                            .iter()
                            .chain(&second)
                            .nth(k as usize)
                            .copied()
                            .ok_or_else(|| inst.err(format!("component {k} out of range"))),
                    })
                    .collect::<Result<Vec<_>, Error>>()?;
                return Ok(self.m.constant(Const::Aggregate(t, picked)));
            }
            Op::CompositeInsert => {
                let object = self.const_of(
                    inst,
                    *ids.first().ok_or_else(|| inst.err("missing object"))?,
                )?;
                let composite = self.const_of(
                    inst,
                    *ids.get(1).ok_or_else(|| inst.err("missing composite"))?,
                )?;
                return self.insert_const(inst, composite, &lits, object);
            }
            Op::Select => {
                let (c, _) = scalar(self, 0)?;
                let pick = if c & 1 == 1 { ids.get(1) } else { ids.get(2) };
                return self.const_of(inst, *pick.ok_or_else(|| inst.err("missing operand"))?);
            }
            Op::FConvert => {
                let id = *ids.first().ok_or_else(|| inst.err("missing operand"))?;
                let src = self.const_of(inst, id)?;
                let v = match self.m.const_of_id(src).clone() {
                    Const::Float(st, bits) => match self.m.type_of_id(st) {
                        Type::Half => half_to_f64(bits as u16),
                        Type::Float => f64::from(f32::from_bits(bits as u32)),
                        _ => f64::from_bits(bits),
                    },
                    _ => return Err(inst.unsupported_form("FConvert of a non-float constant")),
                };
                let bits = match self.m.type_of_id(t) {
                    Type::Half => crate::spec::f64_to_half_bits(v),
                    Type::Float => u64::from((v as f32).to_bits()),
                    Type::Double => v.to_bits(),
                    _ => return Err(inst.unsupported_form("FConvert to a non-float type")),
                };
                return Ok(self.m.constant(Const::Float(t, bits)));
            }
            Op::UConvert | Op::SConvert => {
                let (a, w) = scalar(self, 0)?;
                if op == Op::SConvert {
                    sext(a, w) as u64
                } else {
                    a
                }
            }
            Op::SNegate => scalar(self, 0)?.0.wrapping_neg(),
            Op::Not => !scalar(self, 0)?.0,
            Op::LogicalNot => u64::from(scalar(self, 0)?.0 & 1 == 0),
            _ => {
                let (a, w) = scalar(self, 0)?;
                let (b, _) = scalar(self, 1)?;
                fold_binary(op, a, b, w).ok_or_else(|| {
                    inst.unsupported_form(format!("OpSpecConstantOp {op:?} cannot be folded"))
                })?
            }
        };
        match self.m.type_of_id(t) {
            Type::Int(_) => Ok(self.int_const(t, result)),
            _ => {
                Err(inst.unsupported_form(format!("OpSpecConstantOp {op:?} on a non-scalar type")))
            }
        }
    }
}

/// IEEE half bits → f64.
fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let man = f64::from(h & 0x3ff);
    sign * match exp {
        0 => man * 2f64.powi(-24),
        0x1f if man == 0.0 => f64::INFINITY,
        0x1f => f64::NAN,
        e => (1.0 + man / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Folds an integer or logical binary operation of `OpSpecConstantOp` on `w`-bit operands
/// (`None`: not one of the operations SPIR-V allows there). Division by zero gives 0.
fn fold_binary(op: Op, a: u64, b: u64, w: u32) -> Option<u64> {
    let (sa, sb) = (sext(a, w), sext(b, w));
    let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let (ua, ub) = (a & mask, b & mask);
    Some(match op {
        Op::IAdd => a.wrapping_add(b),
        Op::ISub => a.wrapping_sub(b),
        Op::IMul => a.wrapping_mul(b),
        Op::UDiv => ua.checked_div(ub).unwrap_or(0),
        Op::SDiv => sa.checked_div(sb).unwrap_or(0) as u64,
        Op::UMod => ua.checked_rem(ub).unwrap_or(0),
        Op::SRem => sa.checked_rem(sb).unwrap_or(0) as u64,
        Op::SMod => {
            let r = sa.checked_rem(sb).unwrap_or(0);
            (if r != 0 && (r < 0) != (sb < 0) {
                r + sb
            } else {
                r
            }) as u64
        }
        Op::ShiftLeftLogical => ua.checked_shl(ub as u32).unwrap_or(0),
        Op::ShiftRightLogical => ua.checked_shr(ub as u32).unwrap_or(0),
        Op::ShiftRightArithmetic => sa
            .checked_shr(ub as u32)
            .unwrap_or(if sa < 0 { -1 } else { 0 }) as u64,
        Op::BitwiseAnd | Op::LogicalAnd => a & b,
        Op::BitwiseOr | Op::LogicalOr => a | b,
        Op::BitwiseXor => a ^ b,
        Op::IEqual | Op::LogicalEqual => u64::from(ua == ub),
        Op::INotEqual | Op::LogicalNotEqual => u64::from(ua != ub),
        Op::ULessThan => u64::from(ua < ub),
        Op::ULessThanEqual => u64::from(ua <= ub),
        Op::UGreaterThan => u64::from(ua > ub),
        Op::UGreaterThanEqual => u64::from(ua >= ub),
        Op::SLessThan => u64::from(sa < sb),
        Op::SLessThanEqual => u64::from(sa <= sb),
        Op::SGreaterThan => u64::from(sa > sb),
        Op::SGreaterThanEqual => u64::from(sa >= sb),
        _ => return None,
    })
}

/// `v`'s low `w` bits, sign-extended.
fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}
