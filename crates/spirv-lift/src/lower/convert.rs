//! Conversions: between integer and float types (saturating where decorated
//! `SaturatedConversion`), integer and float widths, pointers and integers, address
//! spaces, bit patterns (`OpBitcast`), and `OpQuantizeToF16`.

use super::func::FnCtx;
use crate::error::Error;
use crate::llvm::{CastOp, FPred, InstKind, Type, TypeId, Value};
use crate::spirv::{Inst, Op};

impl FnCtx<'_, '_> {
    /// Lowers a conversion ([`OpClass::Conversion`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_conversion(&mut self, inst: &Inst) -> Result<(), Error> {
        let op = inst.op;
        let simple = match op {
            Op::ConvertFToU => Some(CastOp::FPToUI),
            Op::ConvertFToS => Some(CastOp::FPToSI),
            Op::ConvertSToF => Some(CastOp::SIToFP),
            Op::ConvertUToF => Some(CastOp::UIToFP),
            Op::ConvertPtrToU => Some(CastOp::PtrToInt),
            Op::ConvertUToPtr => Some(CastOp::IntToPtr),
            Op::PtrCastToGeneric | Op::GenericCastToPtr => Some(CastOp::AddrSpaceCast),
            _ => None,
        };
        let to = match inst.result_type() {
            Some(t) => self.cx.llty(t)?,
            None => return Err(inst.unsupported()),
        };
        // `SaturatedConversion` (OpenCL's `convert_<T>_sat`): out-of-range values clamp to
        // the result type's range instead of wrapping.
        let saturated = self
            .cx
            .has_deco(inst.rid()?, ::spirv::Decoration::SaturatedConversion);
        if saturated && matches!(op, Op::ConvertFToU | Op::ConvertFToS) {
            let v = self.conversion_operand(inst)?;
            let from = self.ll_type_of(v);
            let base = if op == Op::ConvertFToS {
                "fptosi.sat"
            } else {
                "fptoui.sat"
            };
            let r = self.intrinsic(base, &[to, from], to, vec![v])?;
            self.define(inst, r)?;
            return Ok(());
        }
        if let Some(c) = simple {
            let v = self.conversion_operand(inst)?;
            self.emit_result(inst, InstKind::Cast { op: c, v, to })?;
            return Ok(());
        }
        match op {
            Op::UConvert | Op::SConvert => {
                let v = self.val(inst.id(0)?)?;
                let v = if saturated {
                    self.clamp_to_width(v, to, op == Op::SConvert)?
                } else {
                    v
                };
                let r = self.resize_int(v, to, op == Op::SConvert);
                self.define(inst, r)?;
            }
            Op::FConvert => {
                let v = self.val(inst.id(0)?)?;
                let from = self.ll_type_of(v);
                let fb = self.elem_bits(from);
                let tb = self.elem_bits(to);
                if fb == tb {
                    self.define(inst, v)?;
                } else {
                    let c = if tb < fb {
                        CastOp::FPTrunc
                    } else {
                        CastOp::FPExt
                    };
                    self.emit_result(inst, InstKind::Cast { op: c, v, to })?;
                }
            }
            Op::QuantizeToF16 => {
                let v = self.val(inst.id(0)?)?;
                let h = self.cx.m.ty(Type::Half);
                let ht = match self.lanes(to) {
                    Some(n) => self.cx.m.ty(Type::Vector(n, h)),
                    None => h,
                };
                let t = self.emit(
                    "t",
                    ht,
                    InstKind::Cast {
                        op: CastOp::FPTrunc,
                        v,
                        to: ht,
                    },
                );
                let e = self.emit(
                    "t",
                    to,
                    InstKind::Cast {
                        op: CastOp::FPExt,
                        v: t,
                        to,
                    },
                );
                // "Too small to represent as a normalized 16-bit floating-point value":
                // ±0, so half subnormals are flushed (fptrunc alone keeps them). The
                // test is on the rounded value: one that rounds up to the smallest
                // normal stays. NaN fails the comparison and stays NaN.
                let mag = self.intrinsic("fabs", &[to], to, vec![e])?;
                let min_normal = self.fconst(to, 6.103_515_625e-5);
                let tiny = self.cmp_f(FPred::Olt, mag, min_normal);
                let zero = self.fconst(to, 0.0);
                let signed_zero = self.intrinsic("copysign", &[to], to, vec![zero, e])?;
                self.emit_result(
                    inst,
                    InstKind::Select {
                        c: tiny,
                        a: signed_zero,
                        b: e,
                    },
                )?;
            }
            Op::Bitcast => self.bitcast(inst, to)?,
            _ => return Err(inst.unsupported()),
        }
        Ok(())
    }

    fn bitcast(&mut self, inst: &Inst, to: TypeId) -> Result<(), Error> {
        let v = self.val(inst.id(0)?)?;
        let from = self.ll_type_of(v);
        if from == to {
            return self.define(inst, v);
        }
        let (fp, tp) = (
            matches!(self.cx.m.type_of_id(from), Type::Ptr(_)),
            matches!(self.cx.m.type_of_id(to), Type::Ptr(_)),
        );
        let ptr_bits = if self.cx.addressing == ::spirv::AddressingModel::Physical32 {
            32
        } else {
            64
        };
        match (fp, tp) {
            (true, true) => {
                self.emit_result(
                    inst,
                    InstKind::Cast {
                        op: CastOp::AddrSpaceCast,
                        v,
                        to,
                    },
                )?;
            }
            (true, false) => {
                let it = self.cx.m.ty(Type::Int(ptr_bits));
                let i = self.emit(
                    "t",
                    it,
                    InstKind::Cast {
                        op: CastOp::PtrToInt,
                        v,
                        to: it,
                    },
                );
                if it == to {
                    self.define(inst, i)?;
                } else {
                    self.emit_result(
                        inst,
                        InstKind::Cast {
                            op: CastOp::BitCast,
                            v: i,
                            to,
                        },
                    )?;
                }
            }
            (false, true) => {
                let it = self.cx.m.ty(Type::Int(ptr_bits));
                let i = if it == from {
                    v
                } else {
                    self.emit(
                        "t",
                        it,
                        InstKind::Cast {
                            op: CastOp::BitCast,
                            v,
                            to: it,
                        },
                    )
                };
                self.emit_result(
                    inst,
                    InstKind::Cast {
                        op: CastOp::IntToPtr,
                        v: i,
                        to,
                    },
                )?;
            }
            (false, false) => {
                self.emit_result(
                    inst,
                    InstKind::Cast {
                        op: CastOp::BitCast,
                        v,
                        to,
                    },
                )?;
            }
        }
        Ok(())
    }

    /// Clamps integer `v` to the range of `to`'s (narrower) element width, signed or
    /// unsigned, at `v`'s own width; `v` unchanged when `to` is not narrower.
    fn clamp_to_width(&mut self, v: Value, to: TypeId, signed: bool) -> Result<Value, Error> {
        let from = self.ll_type_of(v);
        let bits = |s: &mut Self, t: TypeId| {
            let e = s.elem_of(t);
            s.cx.m.type_of_id(e).scalar_bits().unwrap_or(0)
        };
        let (fb, tb) = (bits(self, from), bits(self, to));
        if tb >= fb || tb == 0 {
            return Ok(v);
        }
        if signed {
            let lo = self.iconst(from, -(1i64 << (tb - 1)));
            let hi = self.iconst(from, (1i64 << (tb - 1)) - 1);
            let v = self.intrinsic("smax", &[from], from, vec![v, lo])?;
            self.intrinsic("smin", &[from], from, vec![v, hi])
        } else {
            let hi = self.iconst(from, ((1u64 << tb) - 1) as i64);
            self.intrinsic("umin", &[from], from, vec![v, hi])
        }
    }
}

impl FnCtx<'_, '_> {
    /// The operand of a conversion. A float-to-integer conversion decorated
    /// `FPRoundingMode` (OpenCL's `convert_<T>_rte/_rtp/_rtn`) first rounds its operand
    /// by that mode (`llvm.roundeven`, `ceil`, `floor`; RTZ is the conversion's own), so
    /// the truncating `fptoui`/`fptosi` then gives the mode's result.
    pub(crate) fn conversion_operand(&mut self, inst: &crate::spirv::Inst) -> Result<Value, Error> {
        let v = self.val(inst.id(0)?)?;
        if !matches!(inst.op, ::spirv::Op::ConvertFToU | ::spirv::Op::ConvertFToS) {
            return Ok(v);
        }
        let mode = self
            .cx
            .decos(inst.rid()?)
            .iter()
            .find(|d| d.kind == ::spirv::Decoration::FPRoundingMode)
            .and_then(|d| match d.operands.first() {
                Some(crate::spirv::Operand::FPRoundingMode(m)) => Some(*m),
                _ => None,
            });
        let rounding = match mode {
            Some(::spirv::FPRoundingMode::RTE) => "roundeven",
            Some(::spirv::FPRoundingMode::RTP) => "ceil",
            Some(::spirv::FPRoundingMode::RTN) => "floor",
            _ => return Ok(v),
        };
        let t = self.ll_type_of(v);
        self.intrinsic(rounding, &[t], t, vec![v])
    }
}
