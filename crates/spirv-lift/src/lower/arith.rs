//! Arithmetic, bit and relational instructions: integer and float arithmetic (integer
//! division made safe on the host), negation, remainders with the divisor's sign, carries
//! and extended products, shifts, bit counts, logical and / or / not; comparisons, float
//! class tests, `OpAny` / `OpAll`.

use super::func::FnCtx;
use crate::error::Error;
use crate::llvm::{BinOp, CastOp, FPred, IPred, InstKind, Type, TypeId, Value};
use crate::spirv::{Inst, Op};

fn binop(op: Op) -> Option<BinOp> {
    Some(match op {
        Op::IAdd => BinOp::Add,
        Op::ISub => BinOp::Sub,
        Op::IMul => BinOp::Mul,
        Op::UDiv => BinOp::UDiv,
        Op::SDiv => BinOp::SDiv,
        Op::UMod => BinOp::URem,
        Op::SRem => BinOp::SRem,
        Op::FAdd => BinOp::FAdd,
        Op::FSub => BinOp::FSub,
        Op::FMul => BinOp::FMul,
        Op::FDiv => BinOp::FDiv,
        Op::FRem => BinOp::FRem,
        Op::BitwiseAnd | Op::LogicalAnd => BinOp::And,
        Op::BitwiseOr | Op::LogicalOr => BinOp::Or,
        Op::BitwiseXor => BinOp::Xor,
        _ => return None,
    })
}

fn shift(op: Op) -> Option<BinOp> {
    Some(match op {
        Op::ShiftLeftLogical => BinOp::Shl,
        Op::ShiftRightLogical => BinOp::LShr,
        Op::ShiftRightArithmetic => BinOp::AShr,
        _ => return None,
    })
}

fn ipred(op: Op) -> Option<IPred> {
    Some(match op {
        Op::IEqual | Op::LogicalEqual => IPred::Eq,
        Op::INotEqual | Op::LogicalNotEqual => IPred::Ne,
        Op::UGreaterThan => IPred::Ugt,
        Op::SGreaterThan => IPred::Sgt,
        Op::UGreaterThanEqual => IPred::Uge,
        Op::SGreaterThanEqual => IPred::Sge,
        Op::ULessThan => IPred::Ult,
        Op::SLessThan => IPred::Slt,
        Op::ULessThanEqual => IPred::Ule,
        Op::SLessThanEqual => IPred::Sle,
        _ => return None,
    })
}

fn fpred(op: Op) -> Option<FPred> {
    Some(match op {
        Op::FOrdEqual => FPred::Oeq,
        Op::FUnordEqual => FPred::Ueq,
        Op::FOrdNotEqual => FPred::One,
        Op::FUnordNotEqual => FPred::Une,
        Op::FOrdLessThan => FPred::Olt,
        Op::FUnordLessThan => FPred::Ult,
        Op::FOrdGreaterThan => FPred::Ogt,
        Op::FUnordGreaterThan => FPred::Ugt,
        Op::FOrdLessThanEqual => FPred::Ole,
        Op::FUnordLessThanEqual => FPred::Ule,
        Op::FOrdGreaterThanEqual => FPred::Oge,
        Op::FUnordGreaterThanEqual => FPred::Uge,
        Op::Ordered => FPred::Ord,
        Op::Unordered => FPred::Uno,
        Op::LessOrGreater => FPred::One,
        _ => return None,
    })
}

/// `llvm.is.fpclass` test masks.
fn fpclass_mask(op: Op) -> Option<u64> {
    Some(match op {
        Op::IsNan => 0x3,
        Op::IsInf => 0x204,
        Op::IsFinite => 0x1f8,
        Op::IsNormal => 0x108,
        _ => return None,
    })
}

impl FnCtx<'_, '_> {
    /// Lowers an arithmetic or bit instruction ([`OpClass::Arithmetic`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_arithmetic(&mut self, inst: &Inst) -> Result<(), Error> {
        let op = inst.op;
        if let Some(b) = binop(op) {
            let (a, c) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
            let c = self.host_safe_divisor(b, a, c);
            let flags = self.wrap_flags(inst)?;
            self.emit_result(
                inst,
                InstKind::Bin {
                    op: b,
                    flags,
                    a,
                    b: c,
                },
            )?;
            return Ok(());
        }
        if let Some(b) = shift(op) {
            let a = self.val(inst.id(0)?)?;
            let s = self.val(inst.id(1)?)?;
            let t = self.ll_type_of(a);
            let s = self.resize_int(s, t, false);
            let flags = if op == Op::ShiftLeftLogical {
                self.wrap_flags(inst)?
            } else {
                crate::llvm::WrapFlags::None
            };
            self.emit_result(
                inst,
                InstKind::Bin {
                    op: b,
                    flags,
                    a,
                    b: s,
                },
            )?;
            return Ok(());
        }
        let Some(rty) = inst.result_type() else {
            return Err(inst.unsupported());
        };
        let t = self.cx.llty(rty)?;
        match inst.op {
            Op::SNegate => {
                let a = self.val(inst.id(0)?)?;
                let z = self.iconst(t, 0);
                self.emit_result(
                    inst,
                    InstKind::Bin {
                        op: BinOp::Sub,
                        flags: crate::llvm::WrapFlags::None,
                        a: z,
                        b: a,
                    },
                )?;
            }
            Op::FNegate => {
                let a = self.val(inst.id(0)?)?;
                self.emit_result(inst, InstKind::FNeg { a })?;
            }
            Op::Not => {
                let a = self.val(inst.id(0)?)?;
                let m = self.iconst(t, -1);
                self.emit_result(
                    inst,
                    InstKind::Bin {
                        op: BinOp::Xor,
                        flags: crate::llvm::WrapFlags::None,
                        a,
                        b: m,
                    },
                )?;
            }
            Op::LogicalNot => {
                let a = self.val(inst.id(0)?)?;
                let m = self.iconst(t, 1);
                self.emit_result(
                    inst,
                    InstKind::Bin {
                        op: BinOp::Xor,
                        flags: crate::llvm::WrapFlags::None,
                        a,
                        b: m,
                    },
                )?;
            }
            Op::SMod | Op::FMod => self.remainder(inst, t)?,
            Op::BitReverse => {
                let a = self.val(inst.id(0)?)?;
                let r = self.intrinsic("bitreverse", &[t], t, vec![a])?;
                self.define(inst, r)?;
            }
            Op::BitCount => {
                let a = self.val(inst.id(0)?)?;
                let at = self.ll_type_of(a);
                let c = self.intrinsic("ctpop", &[at], at, vec![a])?;
                let r = self.resize_int(c, t, false);
                self.define(inst, r)?;
            }
            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => {
                self.extended(inst, t)?;
            }
            _ => return Err(inst.unsupported()),
        }
        Ok(())
    }

    /// `OpSMod` / `OpFMod`: the remainder with the sign of the divisor.
    fn remainder(&mut self, inst: &Inst, t: TypeId) -> Result<(), Error> {
        match inst.op {
            Op::SMod => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let b = self.host_safe_divisor(BinOp::SRem, a, b);
                let r = self.bin(BinOp::SRem, a, b);
                let z = self.iconst(t, 0);
                let nz = self.cmp_i(IPred::Ne, r, z);
                let x = self.bin(BinOp::Xor, r, b);
                let neg = self.cmp_i(IPred::Slt, x, z);
                let fix = self.bin(BinOp::And, nz, neg);
                let adj = self.bin(BinOp::Add, r, b);
                self.emit_result(
                    inst,
                    InstKind::Select {
                        c: fix,
                        a: adj,
                        b: r,
                    },
                )?;
            }
            _ => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let r = self.bin(BinOp::FRem, a, b);
                let z = self.fconst(t, 0.0);
                let nz = self.cmp_f(FPred::One, r, z);
                let rn = self.cmp_f(FPred::Olt, r, z);
                let bn = self.cmp_f(FPred::Olt, b, z);
                let diff = self.bin(BinOp::Xor, rn, bn);
                let fix = self.bin(BinOp::And, nz, diff);
                let adj = self.bin(BinOp::FAdd, r, b);
                self.emit_result(
                    inst,
                    InstKind::Select {
                        c: fix,
                        a: adj,
                        b: r,
                    },
                )?;
            }
        }
        Ok(())
    }

    /// `OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`, `OpSMulExtended`: two-member
    /// structs of the low result and the carry, borrow or high half.
    fn extended(&mut self, inst: &Inst, t: TypeId) -> Result<(), Error> {
        match inst.op {
            Op::IAddCarry | Op::ISubBorrow => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let at = self.ll_type_of(a);
                let bt = self.bool_like(at);
                let pair = self.cx.m.ty(Type::Struct(vec![at, bt]));
                let name = if inst.op == Op::IAddCarry {
                    "uadd.with.overflow"
                } else {
                    "usub.with.overflow"
                };
                let r = self.intrinsic(name, &[at], pair, vec![a, b])?;
                let lo = self.extract(at, r, 0);
                let o = self.extract(bt, r, 1);
                let hi = self.resize_int(o, at, false);
                self.struct_pair(inst, t, lo, hi)?;
            }
            _ => {
                let signed = inst.op == Op::SMulExtended;
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let at = self.ll_type_of(a);
                let bits = self
                    .cx
                    .m
                    .type_of_id(self.elem_of(at))
                    .scalar_bits()
                    .unwrap_or(32);
                let wide_e = self.cx.m.ty(Type::Int(bits * 2));
                let wide = self.with_elem(at, wide_e);
                let wa = self.resize_int(a, wide, signed);
                let wb = self.resize_int(b, wide, signed);
                let p = self.bin(BinOp::Mul, wa, wb);
                let lo = self.resize_int(p, at, false);
                let sh = self.iconst(wide, i64::from(bits));
                let h = self.bin(if signed { BinOp::AShr } else { BinOp::LShr }, p, sh);
                let hi = self.resize_int(h, at, false);
                self.struct_pair(inst, t, lo, hi)?;
            }
        }
        Ok(())
    }

    /// Lowers a comparison, float class test, `OpAny` or `OpAll`
    /// ([`OpClass::Relational`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_relational(&mut self, inst: &Inst) -> Result<(), Error> {
        let op = inst.op;
        if let Some(pred) = ipred(op) {
            let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
            self.emit_result(inst, InstKind::ICmp { pred, a, b })?;
            return Ok(());
        }
        if let Some(pred) = fpred(op) {
            let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
            self.emit_result(inst, InstKind::FCmp { pred, a, b })?;
            return Ok(());
        }
        if let Some(mask) = fpclass_mask(op) {
            let a = self.val(inst.id(0)?)?;
            let t = self.ll_type_of(a);
            let rt = self.cx.llty(inst.rty()?)?;
            let m = self.cx.i32_val(mask);
            let r = self.intrinsic("is.fpclass", &[t], rt, vec![a, m])?;
            return self.define(inst, r);
        }
        let Some(rty) = inst.result_type() else {
            return Err(inst.unsupported());
        };
        let t = self.cx.llty(rty)?;
        match inst.op {
            Op::Any | Op::All => {
                let a = self.val(inst.id(0)?)?;
                let at = self.ll_type_of(a);
                let base = if inst.op == Op::Any {
                    "vector.reduce.or"
                } else {
                    "vector.reduce.and"
                };
                let r = if self.lanes(at).is_some() {
                    self.intrinsic(base, &[at], t, vec![a])?
                } else {
                    a
                };
                self.define(inst, r)?;
            }
            Op::SignBitSet => {
                // The sign bit itself, whatever the value: a NaN with its sign bit set
                // counts (no `llvm.is.fpclass` mask says so: its NaN classes ignore
                // the sign). Bitcast to the integer of the same width, then `< 0`.
                let a = self.val(inst.id(0)?)?;
                let at = self.ll_type_of(a);
                let e = self.elem_of(at);
                let bits =
                    self.cx.m.type_of_id(e).scalar_bits().ok_or_else(|| {
                        inst.unsupported_form("OpSignBitSet of a non-float operand")
                    })?;
                let ie = self.cx.m.ty(Type::Int(bits));
                let it = self.with_elem(at, ie);
                let i = self.emit(
                    "t",
                    it,
                    InstKind::Cast {
                        op: CastOp::BitCast,
                        v: a,
                        to: it,
                    },
                );
                let zero = self.iconst(it, 0);
                self.emit_result(
                    inst,
                    InstKind::ICmp {
                        pred: IPred::Slt,
                        a: i,
                        b: zero,
                    },
                )?;
            }
            _ => return Err(inst.unsupported()),
        }
        Ok(())
    }

    /// On the host, the divisor of an integer division or remainder with 0 replaced by 1
    /// (and, when signed, -1 by 1 where the dividend is the minimum): SPIR-V leaves the
    /// result undefined, but the CPU's divide instruction traps, and a Vulkan shader's
    /// undefined behaviour must not end the process (the CTS's crash_test/divbyzero).
    /// Other profiles and other operations get `b` back.
    fn host_safe_divisor(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let signed = match op {
            BinOp::SDiv | BinOp::SRem => true,
            BinOp::UDiv | BinOp::URem => false,
            _ => return b,
        };
        if self.cx.opts.target != crate::Target::Host || matches!(b, Value::Const(_)) {
            return b;
        }
        let t = self.ll_type_of(b);
        let zero = self.iconst(t, 0);
        let one = self.iconst(t, 1);
        let is_zero = self.cmp_i(IPred::Eq, b, zero);
        let mut bad = is_zero;
        if signed {
            let bits = {
                let e = self.elem_of(t);
                self.cx.m.type_of_id(e).scalar_bits().unwrap_or(32)
            };
            let min = self.iconst(t, i64::MIN >> (64 - bits));
            let minus_one = self.iconst(t, -1);
            let a_min = self.cmp_i(IPred::Eq, a, min);
            let b_m1 = self.cmp_i(IPred::Eq, b, minus_one);
            let overflow = self.bin(BinOp::And, a_min, b_m1);
            bad = self.bin(BinOp::Or, is_zero, overflow);
        }
        self.select(bad, one, b)
    }

    /// `nsw`/`nuw` from NoSignedWrap / NoUnsignedWrap decorations.
    fn wrap_flags(&self, inst: &Inst) -> Result<crate::llvm::WrapFlags, Error> {
        use crate::llvm::WrapFlags;
        if !matches!(
            inst.op,
            Op::IAdd | Op::ISub | Op::IMul | Op::ShiftLeftLogical
        ) {
            return Ok(WrapFlags::None);
        }
        let id = inst.rid()?;
        let nsw = self.cx.has_deco(id, ::spirv::Decoration::NoSignedWrap);
        let nuw = self.cx.has_deco(id, ::spirv::Decoration::NoUnsignedWrap);
        Ok(match (nuw, nsw) {
            (true, true) => WrapFlags::NuwNsw,
            (true, false) => WrapFlags::Nuw,
            (false, true) => WrapFlags::Nsw,
            (false, false) => WrapFlags::None,
        })
    }
}
