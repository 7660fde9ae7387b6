//! Conversions: between integer and float types (saturating where decorated
//! `SaturatedConversion`), integer and float widths, pointers and integers, address
//! spaces, bit patterns (`OpBitcast`), and `OpQuantizeToF16`.

use super::func::FnCtx;
use crate::error::Error;
use crate::llvm::{BinOp, CastOp, FPred, IPred, InstKind, Type, TypeId, Value};
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
        let directed = match self.rounding_mode(inst)? {
            Some(m) if m != ::spirv::FPRoundingMode::RTE => Some(m),
            _ => None,
        };
        if let (Some(mode), Op::ConvertSToF | Op::ConvertUToF) = (directed, op) {
            let v = self.val(inst.id(0)?)?;
            let r = self.int_to_float_directed(mode, v, to, op == Op::ConvertSToF)?;
            return self.define(inst, r);
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
                } else if let (Some(mode), true) = (directed, tb < fb) {
                    // Narrowing in a directed mode: the result widened back is exact,
                    // and compares with the operand exactly (NaN with neither).
                    let r = self.emit(
                        "t",
                        to,
                        InstKind::Cast {
                            op: CastOp::FPTrunc,
                            v,
                            to,
                        },
                    );
                    let back = self.emit(
                        "t",
                        from,
                        InstKind::Cast {
                            op: CastOp::FPExt,
                            v: r,
                            to: from,
                        },
                    );
                    let above = self.cmp_f(FPred::Ogt, back, v);
                    let below = self.cmp_f(FPred::Olt, back, v);
                    let r = self.round_directed(mode, r, above, below);
                    self.define(inst, r)?;
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
                let ht = self.with_elem(to, h);
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
    /// A conversion's `FPRoundingMode` decoration, if it has one.
    fn rounding_mode(
        &self,
        inst: &crate::spirv::Inst,
    ) -> Result<Option<::spirv::FPRoundingMode>, Error> {
        Ok(self
            .cx
            .decos(inst.rid()?)
            .iter()
            .find(|d| d.kind == ::spirv::Decoration::FPRoundingMode)
            .and_then(|d| match d.operands.first() {
                Some(crate::spirv::Operand::FPRoundingMode(m)) => Some(*m),
                _ => None,
            }))
    }

    /// A conversion to a float type, `r` its result rounded to nearest even (LLVM's
    /// `sitofp`, `uitofp`, `fptrunc`), rounded instead as the instruction's
    /// `FPRoundingMode` says (OpenCL's `convert_float_rtz` and the like): `r` and the
    /// directed result are the same or neighbours, so `r` steps one unit in the last
    /// place (its bits plus or minus one: a float's bits order its magnitudes) when it
    /// lies on the wrong side of the exact value. `above` and `below` say whether `r` is
    /// greater or less than the exact value (both false for NaN). RTE keeps `r`.
    fn round_directed(
        &mut self,
        mode: ::spirv::FPRoundingMode,
        r: Value,
        above: Value,
        below: Value,
    ) -> Value {
        use ::spirv::FPRoundingMode as M;
        let t = self.ll_type_of(r);
        let bits = self.elem_bits(t);
        let ie = self.cx.m.ty(Type::Int(bits));
        let it = self.with_elem(t, ie);
        let m = self.emit(
            "t",
            it,
            InstKind::Cast {
                op: CastOp::BitCast,
                v: r,
                to: it,
            },
        );
        let zero = self.iconst(it, 0);
        let negative = self.cmp_i(IPred::Slt, m, zero);
        let positive = self.cmp_i(IPred::Sge, m, zero);
        // Away from zero: a larger magnitude (bits + 1); toward zero: bits - 1.
        let (away, toward) = match mode {
            M::RTZ => {
                let a = self.bin(BinOp::And, positive, above);
                let b = self.bin(BinOp::And, negative, below);
                (None, Some(self.bin(BinOp::Or, a, b)))
            }
            M::RTP => (
                Some(self.bin(BinOp::And, positive, below)),
                Some(self.bin(BinOp::And, negative, below)),
            ),
            M::RTN => (
                Some(self.bin(BinOp::And, negative, above)),
                Some(self.bin(BinOp::And, positive, above)),
            ),
            _ => return r,
        };
        let one = self.iconst(it, 1);
        let mut out = m;
        if let Some(c) = away {
            let up = self.bin(BinOp::Add, out, one);
            out = self.select(c, up, out);
        }
        if let Some(c) = toward {
            let down = self.bin(BinOp::Sub, out, one);
            out = self.select(c, down, out);
        }
        self.emit(
            "t",
            t,
            InstKind::Cast {
                op: CastOp::BitCast,
                v: out,
                to: t,
            },
        )
    }

    /// An integer-to-float conversion (`OpConvertSToF`, `OpConvertUToF`) in a directed
    /// rounding mode: `sitofp`/`uitofp`, then [`FnCtx::round_directed`]. Whether the
    /// result is above or below the integer is asked of the result converted back
    /// (saturating: a result past the integer type's range, `2^(N-1)` or `2^N` rounded
    /// up, is above every value of it).
    fn int_to_float_directed(
        &mut self,
        mode: ::spirv::FPRoundingMode,
        v: Value,
        to: TypeId,
        signed: bool,
    ) -> Result<Value, Error> {
        let from = self.ll_type_of(v);
        let (cast, sat, lt, gt) = if signed {
            (CastOp::SIToFP, "fptosi.sat", IPred::Slt, IPred::Sgt)
        } else {
            (CastOp::UIToFP, "fptoui.sat", IPred::Ult, IPred::Ugt)
        };
        let r = self.emit("t", to, InstKind::Cast { op: cast, v, to });
        let back = self.intrinsic(sat, &[from, to], from, vec![r])?;
        let n = self.elem_bits(from);
        let limit = self.fconst(to, 2f64.powi(if signed { n as i32 - 1 } else { n as i32 }));
        let past = self.cmp_f(FPred::Oge, r, limit);
        let back_above = self.cmp_i(gt, back, v);
        let above = self.bin(BinOp::Or, back_above, past);
        let below = self.cmp_i(lt, back, v);
        Ok(self.round_directed(mode, r, above, below))
    }

    /// The operand of a conversion. A float-to-integer conversion decorated
    /// `FPRoundingMode` (OpenCL's `convert_<T>_rte/_rtp/_rtn`) first rounds its operand
    /// by that mode (`llvm.roundeven`, `ceil`, `floor`; RTZ is the conversion's own), so
    /// the truncating `fptoui`/`fptosi` then gives the mode's result.
    pub(crate) fn conversion_operand(&mut self, inst: &crate::spirv::Inst) -> Result<Value, Error> {
        let v = self.val(inst.id(0)?)?;
        if !matches!(inst.op, ::spirv::Op::ConvertFToU | ::spirv::Op::ConvertFToS) {
            return Ok(v);
        }
        let rounding = match self.rounding_mode(inst)? {
            Some(::spirv::FPRoundingMode::RTE) => "roundeven",
            Some(::spirv::FPRoundingMode::RTP) => "ceil",
            Some(::spirv::FPRoundingMode::RTN) => "floor",
            _ => return Ok(v),
        };
        let t = self.ll_type_of(v);
        self.intrinsic(rounding, &[t], t, vec![v])
    }
}
