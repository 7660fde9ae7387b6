//! Arithmetic, bit operations, comparisons, conversions, composites and matrices, and
//! the dispatch of everything that is not control flow or memory.

use super::SpvTy;
use super::func::FnCtx;
use crate::error::Error;
use crate::llvm::{BinOp, CastOp, Const, FPred, IPred, InstKind, Type, TypeId, Value};
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

/// Converts an f64 to IEEE half bits (round to nearest even).
pub fn f64_to_half_bits(v: f64) -> u64 {
    let f = v as f32;
    let b = f.to_bits();
    let sign = (b >> 16) & 0x8000;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    let h = if exp == 0xff {
        0x7c00 | if man != 0 { 0x200 } else { 0 }
    } else {
        let e = exp - 127 + 15;
        if e >= 0x1f {
            0x7c00
        } else if e <= 0 {
            if e < -10 {
                0
            } else {
                let m = man | 0x80_0000;
                let shift = (14 - e) as u32;
                let half = m >> shift;
                let rem = m & ((1 << shift) - 1);
                let mid = 1 << (shift - 1);
                half + u32::from(rem > mid || (rem == mid && half & 1 == 1))
            }
        } else {
            let half = ((e as u32) << 10) | (man >> 13);
            let rem = man & 0x1fff;
            half + u32::from(rem > 0x1000 || (rem == 0x1000 && half & 1 == 1))
        }
    };
    u64::from(sign | h)
}

impl FnCtx<'_, '_, '_> {
    /// The element type of a vector type, or the type itself.
    pub fn elem_of(&self, t: TypeId) -> TypeId {
        match self.cx.m.type_of_id(t) {
            Type::Vector(_, e) => *e,
            _ => t,
        }
    }

    /// Lane count of a vector type (None for scalars).
    pub fn lanes(&self, t: TypeId) -> Option<u32> {
        match self.cx.m.type_of_id(t) {
            Type::Vector(n, _) => Some(*n),
            _ => None,
        }
    }

    /// A constant of type `t` (scalar or splatted vector) from a scalar constant builder.
    fn splat_const(&mut self, t: TypeId, scalar: Const) -> Value {
        let c = self.cx.m.constant(scalar);
        match self.lanes(t) {
            Some(n) => Value::Const(self.cx.m.constant(Const::Aggregate(t, vec![c; n as usize]))),
            None => Value::Const(c),
        }
    }

    /// A float constant of type `t` (or its element type, splatted).
    pub fn fconst(&mut self, t: TypeId, v: f64) -> Value {
        let e = self.elem_of(t);
        let bits = match self.cx.m.type_of_id(e) {
            Type::Half => f64_to_half_bits(v),
            Type::Float => u64::from((v as f32).to_bits()),
            _ => v.to_bits(),
        };
        self.splat_const(t, Const::Float(e, bits))
    }

    /// An integer constant of type `t` (or its element type, splatted).
    pub fn iconst(&mut self, t: TypeId, v: i64) -> Value {
        let e = self.elem_of(t);
        let c = self.cx.int_const(e, v as u64);
        let c = self.cx.m.const_of_id(c).clone();
        self.splat_const(t, c)
    }

    /// An `i1` constant.
    pub fn bool_const(&mut self, b: bool) -> Value {
        let i1 = self.cx.m.ty(Type::Int(1));
        Value::Const(self.cx.m.constant(Const::Int(i1, u128::from(b))))
    }

    /// Emits a binary operation; the result has `a`'s type.
    pub fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let t = self.ll_type_of(a);
        self.emit(
            "t",
            t,
            InstKind::Bin {
                op,
                flags: "",
                a,
                b,
            },
        )
    }

    /// Emits a comparison producing `i1` or `<N x i1>`.
    pub fn cmp_i(&mut self, pred: IPred, a: Value, b: Value) -> Value {
        let t = self.bool_like(self.ll_type_of(a));
        self.emit("t", t, InstKind::ICmp { pred, a, b })
    }

    /// Emits a float comparison producing `i1` or `<N x i1>`.
    pub fn cmp_f(&mut self, pred: FPred, a: Value, b: Value) -> Value {
        let t = self.bool_like(self.ll_type_of(a));
        self.emit("t", t, InstKind::FCmp { pred, a, b })
    }

    /// `i1` or `<N x i1>` matching the shape of `t`.
    pub fn bool_like(&mut self, t: TypeId) -> TypeId {
        let i1 = self.cx.m.ty(Type::Int(1));
        match self.lanes(t) {
            Some(n) => self.cx.m.ty(Type::Vector(n, i1)),
            None => i1,
        }
    }

    /// Emits a select.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.ll_type_of(a);
        self.emit("t", t, InstKind::Select { c, a, b })
    }

    /// Broadcasts a scalar to a vector type (identity for scalar types).
    pub fn splat(&mut self, vty: TypeId, s: Value) -> Value {
        let Some(n) = self.lanes(vty) else { return s };
        let poison = Value::Const(self.cx.m.constant(Const::Poison(vty)));
        let zero = self.cx.i32_val(0);
        let v = self.emit(
            "t",
            vty,
            InstKind::InsertElement {
                v: poison,
                elt: s,
                idx: zero,
            },
        );
        self.emit(
            "t",
            vty,
            InstKind::Shuffle {
                a: v,
                b: poison,
                mask: vec![Some(0); n as usize],
            },
        )
    }

    /// Extracts lane `i` of a vector.
    pub fn lane(&mut self, v: Value, i: u32) -> Value {
        let e = self.elem_of(self.ll_type_of(v));
        let idx = self.cx.i32_val(u64::from(i));
        self.emit("t", e, InstKind::ExtractElement { v, idx })
    }

    /// `a · b` for float vectors (left-to-right sum of products), `a * b` for scalars.
    pub fn dot(&mut self, a: Value, b: Value) -> Value {
        let t = self.ll_type_of(a);
        let prod = self.bin(BinOp::FMul, a, b);
        let Some(n) = self.lanes(t) else { return prod };
        let mut acc = self.lane(prod, 0);
        for i in 1..n {
            let x = self.lane(prod, i);
            acc = self.bin(BinOp::FAdd, acc, x);
        }
        acc
    }

    /// Integer resize: zext/sext/trunc to `to`, identity when equal.
    pub fn resize_int(&mut self, v: Value, to: TypeId, signed: bool) -> Value {
        let from = self.ll_type_of(v);
        if from == to {
            return v;
        }
        let fb = self
            .cx
            .m
            .type_of_id(self.elem_of(from))
            .scalar_bits()
            .unwrap_or(0);
        let tb = self
            .cx
            .m
            .type_of_id(self.elem_of(to))
            .scalar_bits()
            .unwrap_or(0);
        let op = if tb < fb {
            CastOp::Trunc
        } else if signed {
            CastOp::SExt
        } else {
            CastOp::ZExt
        };
        self.emit("t", to, InstKind::Cast { op, v, to })
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

    /// Dispatches everything that is not control flow or an extended instruction.
    pub fn lower_other(&mut self, inst: &Inst) -> Result<(), Error> {
        if self.lower_memory(inst)? {
            return Ok(());
        }
        let op = inst.op;
        if op == Op::ArrayLength && self.cx.opts.target == crate::Target::Host {
            return self.host_array_length(inst);
        }
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
                ""
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
        if self.lower_conversion(inst)?
            || self.lower_composite(inst)?
            || self.lower_misc_arith(inst)?
        {
            return Ok(());
        }
        if self.lower_amdgcn_subgroup(inst)? {
            return Ok(());
        }
        if is_builtin_op(op) {
            return self.lower_generic_builtin(inst);
        }
        Err(inst.unsupported())
    }

    /// `nsw`/`nuw` from NoSignedWrap / NoUnsignedWrap decorations.
    fn wrap_flags(&self, inst: &Inst) -> Result<&'static str, Error> {
        if !matches!(
            inst.op,
            Op::IAdd | Op::ISub | Op::IMul | Op::ShiftLeftLogical
        ) {
            return Ok("");
        }
        let id = inst.rid()?;
        let nsw = self.cx.has_deco(id, ::spirv::Decoration::NoSignedWrap);
        let nuw = self.cx.has_deco(id, ::spirv::Decoration::NoUnsignedWrap);
        Ok(match (nuw, nsw) {
            (true, true) => "nuw nsw ",
            (true, false) => "nuw ",
            (false, true) => "nsw ",
            (false, false) => "",
        })
    }

    fn lower_conversion(&mut self, inst: &Inst) -> Result<bool, Error> {
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
        let to = match inst.result_type {
            Some(t) => self.cx.llty(t)?,
            None => return Ok(false),
        };
        // `SaturatedConversion` (OpenCL's `convert_<T>_sat`): out-of-range values clamp to
        // the result type's range instead of wrapping.
        let saturated = self
            .cx
            .has_deco(inst.rid()?, ::spirv::Decoration::SaturatedConversion);
        if saturated && matches!(op, Op::ConvertFToU | Op::ConvertFToS) {
            let v = self.val(inst.id(0)?)?;
            let from = self.ll_type_of(v);
            let base = if op == Op::ConvertFToS {
                "fptosi.sat"
            } else {
                "fptoui.sat"
            };
            let r = self.intrinsic(base, &[to, from], to, vec![v])?;
            self.define(inst, r)?;
            return Ok(true);
        }
        if let Some(c) = simple {
            let v = self.val(inst.id(0)?)?;
            self.emit_result(inst, InstKind::Cast { op: c, v, to })?;
            return Ok(true);
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
                let fb = self
                    .cx
                    .m
                    .type_of_id(self.elem_of(from))
                    .scalar_bits()
                    .unwrap_or(0);
                let tb = self
                    .cx
                    .m
                    .type_of_id(self.elem_of(to))
                    .scalar_bits()
                    .unwrap_or(0);
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
            _ => return Ok(false),
        }
        Ok(true)
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

    /// Element values of a composite constituent list, flattened to scalars for vectors.
    fn vector_elements(&mut self, ids: &[u32]) -> Result<Vec<Value>, Error> {
        let mut out = Vec::new();
        for &id in ids {
            let v = self.val(id)?;
            match self.lanes(self.ll_type_of(v)) {
                Some(n) => {
                    for i in 0..n {
                        out.push(self.lane(v, i));
                    }
                }
                None => out.push(v),
            }
        }
        Ok(out)
    }

    /// Builds a vector of type `t` from scalars.
    fn build_vector(&mut self, t: TypeId, elems: &[Value], hint: &str) -> Value {
        let mut v = Value::Const(self.cx.m.constant(Const::Poison(t)));
        let n = elems.len();
        for (i, e) in elems.iter().enumerate() {
            let idx = self.cx.i32_val(i as u64);
            let name = if i + 1 == n { hint } else { "t" };
            v = self.emit(name, t, InstKind::InsertElement { v, elt: *e, idx });
        }
        v
    }

    fn lower_composite(&mut self, inst: &Inst) -> Result<bool, Error> {
        let Some(rty) = inst.result_type else {
            return Ok(false);
        };
        match inst.op {
            Op::CompositeConstruct | Op::CompositeConstructReplicateEXT => {
                let t = self.cx.llty(rty)?;
                let mut ids = inst.ids_from(0)?;
                if inst.op == Op::CompositeConstructReplicateEXT {
                    let n = self.cx.composite_len(rty)?;
                    let first = *ids.first().ok_or_else(|| inst.err("missing constituent"))?;
                    ids = vec![first; n as usize];
                }
                let hint = self.cx.hint(inst.rid()?);
                let v = if self.lanes(t).is_some() {
                    let elems = self.vector_elements(&ids)?;
                    self.build_vector(t, &elems, &hint)
                } else {
                    let mut v = Value::Const(self.cx.m.constant(Const::Poison(t)));
                    let n = ids.len();
                    for (i, id) in ids.iter().enumerate() {
                        let e = self.val(*id)?;
                        let name = if i + 1 == n { hint.as_str() } else { "t" };
                        v = self.emit(
                            name,
                            t,
                            InstKind::InsertValue {
                                v,
                                elt: e,
                                idx: vec![i as u32],
                            },
                        );
                    }
                    v
                };
                self.define(inst, v)?;
            }
            Op::CompositeExtract => {
                let c = inst.id(0)?;
                let lits = (1..inst.operands.len())
                    .map(|i| inst.lit(i))
                    .collect::<Result<Vec<_>, _>>()?;
                let v = self.extract_path(self.val(c)?, self.vty(c)?, &lits, inst)?;
                self.define(inst, v)?;
            }
            Op::CompositeInsert => {
                let obj = self.val(inst.id(0)?)?;
                let c = inst.id(1)?;
                let lits = (2..inst.operands.len())
                    .map(|i| inst.lit(i))
                    .collect::<Result<Vec<_>, _>>()?;
                let v = self.insert_path(self.val(c)?, self.vty(c)?, obj, &lits, inst)?;
                self.define(inst, v)?;
            }
            Op::VectorExtractDynamic => {
                let (v, idx) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                self.emit_result(inst, InstKind::ExtractElement { v, idx })?;
            }
            Op::VectorInsertDynamic => {
                let (v, elt, idx) = (
                    self.val(inst.id(0)?)?,
                    self.val(inst.id(1)?)?,
                    self.val(inst.id(2)?)?,
                );
                self.emit_result(inst, InstKind::InsertElement { v, elt, idx })?;
            }
            Op::VectorShuffle => self.shuffle(inst)?,
            Op::Select => {
                let (c, a, b) = (
                    self.val(inst.id(0)?)?,
                    self.val(inst.id(1)?)?,
                    self.val(inst.id(2)?)?,
                );
                self.emit_result(inst, InstKind::Select { c, a, b })?;
            }
            Op::Transpose => {
                let m = self.val(inst.id(0)?)?;
                // The result has `res_cols` columns of `res_len` lanes; the source has
                // `res_len` columns. Result column i = source row i.
                let (res_cols, res_len) = self.matrix_shape(inst.rty()?)?;
                let t = self.cx.llty(rty)?;
                let col_t = self.cx.llty(self.matrix_col(rty)?)?;
                let mut out = Value::Const(self.cx.m.constant(Const::Poison(t)));
                let src_cols: Vec<Value> = (0..res_len)
                    .map(|j| {
                        let st = self.matrix_col(self.vty(inst.id(0)?)?)?;
                        let st = self.cx.llty(st)?;
                        Ok(self.emit("t", st, InstKind::ExtractValue { v: m, idx: vec![j] }))
                    })
                    .collect::<Result<_, Error>>()?;
                for i in 0..res_cols {
                    let elems: Vec<Value> = src_cols.iter().map(|c| self.lane(*c, i)).collect();
                    let col = self.build_vector(col_t, &elems, "t");
                    out = self.emit(
                        "t",
                        t,
                        InstKind::InsertValue {
                            v: out,
                            elt: col,
                            idx: vec![i],
                        },
                    );
                }
                self.define(inst, out)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// (columns, rows-per-column) of a matrix type: returns (n_cols, col_len).
    fn matrix_shape(&self, ty: u32) -> Result<(u32, u32), Error> {
        match self.cx.spv_ty(ty)?.clone() {
            SpvTy::Matrix { col, n } => match self.cx.spv_ty(col)? {
                SpvTy::Vector { n: r, .. } => Ok((n, *r)),
                _ => Err(crate::error::invalid("matrix column is not a vector")),
            },
            _ => Err(crate::error::invalid(format!("%{ty} is not a matrix type"))),
        }
    }

    fn matrix_col(&self, ty: u32) -> Result<u32, Error> {
        match self.cx.spv_ty(ty)? {
            SpvTy::Matrix { col, .. } => Ok(*col),
            _ => Err(crate::error::invalid(format!("%{ty} is not a matrix type"))),
        }
    }

    fn extract_path(
        &mut self,
        mut v: Value,
        mut ty: u32,
        lits: &[u32],
        inst: &Inst,
    ) -> Result<Value, Error> {
        let mut agg: Vec<u32> = Vec::new();
        let mut agg_ty = ty;
        for (k, &l) in lits.iter().enumerate() {
            match self.cx.spv_ty(ty)?.clone() {
                SpvTy::Vector { elem, .. } => {
                    if !agg.is_empty() {
                        let t = self.cx.llty(agg_ty)?;
                        v = self.emit(
                            "t",
                            t,
                            InstKind::ExtractValue {
                                v,
                                idx: std::mem::take(&mut agg),
                            },
                        );
                    }
                    if k + 1 != lits.len() {
                        return Err(inst.err("index past a vector element"));
                    }
                    let e = self.cx.llty(elem)?;
                    let idx = self.cx.i32_val(u64::from(l));
                    let hint = self.cx.hint(inst.rid()?);
                    return Ok(self.emit(&hint, e, InstKind::ExtractElement { v, idx }));
                }
                SpvTy::Struct { members } => {
                    ty = *members
                        .get(l as usize)
                        .ok_or_else(|| inst.err("member index out of range"))?;
                }
                SpvTy::Array { elem, .. } | SpvTy::RuntimeArray { elem } => ty = elem,
                SpvTy::Matrix { col, .. } => ty = col,
                other => return Err(inst.err(format!("cannot index into {other:?}"))),
            }
            agg.push(l);
            agg_ty = ty;
        }
        if agg.is_empty() {
            return Ok(v);
        }
        let t = self.cx.llty(agg_ty)?;
        let hint = self.cx.hint(inst.rid()?);
        Ok(self.emit(&hint, t, InstKind::ExtractValue { v, idx: agg }))
    }

    fn insert_path(
        &mut self,
        c: Value,
        ty: u32,
        obj: Value,
        lits: &[u32],
        inst: &Inst,
    ) -> Result<Value, Error> {
        let ct = self.cx.llty(ty)?;
        let hint = self.cx.hint(inst.rid()?);
        if lits.is_empty() {
            return Ok(obj);
        }
        // Find where a vector is entered, if anywhere.
        let mut cur = ty;
        for (k, &l) in lits.iter().enumerate() {
            match self.cx.spv_ty(cur)?.clone() {
                SpvTy::Vector { .. } => {
                    let idx = self.cx.i32_val(u64::from(lits[k]));
                    if k == 0 {
                        return Ok(self.emit(
                            &hint,
                            ct,
                            InstKind::InsertElement {
                                v: c,
                                elt: obj,
                                idx,
                            },
                        ));
                    }
                    let vt = self.cx.llty(cur)?;
                    let prefix = lits[..k].to_vec();
                    let vec = self.emit(
                        "t",
                        vt,
                        InstKind::ExtractValue {
                            v: c,
                            idx: prefix.clone(),
                        },
                    );
                    let vec2 = self.emit(
                        "t",
                        vt,
                        InstKind::InsertElement {
                            v: vec,
                            elt: obj,
                            idx,
                        },
                    );
                    return Ok(self.emit(
                        &hint,
                        ct,
                        InstKind::InsertValue {
                            v: c,
                            elt: vec2,
                            idx: prefix,
                        },
                    ));
                }
                SpvTy::Struct { members } => {
                    cur = *members
                        .get(l as usize)
                        .ok_or_else(|| inst.err("member index out of range"))?;
                }
                SpvTy::Array { elem, .. } | SpvTy::RuntimeArray { elem } => cur = elem,
                SpvTy::Matrix { col, .. } => cur = col,
                other => return Err(inst.err(format!("cannot index into {other:?}"))),
            }
        }
        Ok(self.emit(
            &hint,
            ct,
            InstKind::InsertValue {
                v: c,
                elt: obj,
                idx: lits.to_vec(),
            },
        ))
    }

    fn shuffle(&mut self, inst: &Inst) -> Result<(), Error> {
        let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
        let (ta, tb) = (self.ll_type_of(a), self.ll_type_of(b));
        let n1 = self.lanes(ta).unwrap_or(1);
        let comps = (2..inst.operands.len())
            .map(|i| inst.lit(i))
            .collect::<Result<Vec<_>, _>>()?;
        if ta == tb {
            let mask = comps
                .iter()
                .map(|&c| (c != u32::MAX).then_some(c))
                .collect();
            self.emit_result(inst, InstKind::Shuffle { a, b, mask })?;
            return Ok(());
        }
        // Operands of different lengths: build the result lane by lane.
        let t = self.cx.llty(inst.rty()?)?;
        let e = self.elem_of(t);
        let mut elems = Vec::with_capacity(comps.len());
        for c in comps {
            let v = if c == u32::MAX {
                Value::Const(self.cx.m.constant(Const::Poison(e)))
            } else if c < n1 {
                self.lane(a, c)
            } else {
                self.lane(b, c - n1)
            };
            elems.push(v);
        }
        let hint = self.cx.hint(inst.rid()?);
        let v = self.build_vector(t, &elems, &hint);
        self.define(inst, v)
    }

    fn lower_misc_arith(&mut self, inst: &Inst) -> Result<bool, Error> {
        let Some(rty) = inst.result_type else {
            return Ok(false);
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
                        flags: "",
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
                        flags: "",
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
                        flags: "",
                        a,
                        b: m,
                    },
                )?;
            }
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
            Op::FMod => {
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
                let a = self.val(inst.id(0)?)?;
                let at = self.ll_type_of(a);
                let m = self.cx.i32_val(0x3c);
                let r = self.intrinsic("is.fpclass", &[at], t, vec![a, m])?;
                self.define(inst, r)?;
            }
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
                let lo = self.emit("t", at, InstKind::ExtractValue { v: r, idx: vec![0] });
                let o = self.emit("t", bt, InstKind::ExtractValue { v: r, idx: vec![1] });
                let hi = self.resize_int(o, at, false);
                self.struct_pair(inst, t, lo, hi)?;
            }
            Op::UMulExtended | Op::SMulExtended => {
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
                let wide = match self.lanes(at) {
                    Some(n) => self.cx.m.ty(Type::Vector(n, wide_e)),
                    None => wide_e,
                };
                let wa = self.resize_int(a, wide, signed);
                let wb = self.resize_int(b, wide, signed);
                let p = self.bin(BinOp::Mul, wa, wb);
                let lo = self.resize_int(p, at, false);
                let sh = self.iconst(wide, i64::from(bits));
                let h = self.bin(if signed { BinOp::AShr } else { BinOp::LShr }, p, sh);
                let hi = self.resize_int(h, at, false);
                self.struct_pair(inst, t, lo, hi)?;
            }
            Op::VectorTimesScalar => {
                let (v, s) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let sv = self.splat(t, s);
                self.emit_result(
                    inst,
                    InstKind::Bin {
                        op: BinOp::FMul,
                        flags: "",
                        a: v,
                        b: sv,
                    },
                )?;
            }
            Op::Dot => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let r = self.dot(a, b);
                self.define(inst, r)?;
            }
            Op::MatrixTimesScalar
            | Op::MatrixTimesVector
            | Op::VectorTimesMatrix
            | Op::MatrixTimesMatrix
            | Op::OuterProduct => self.matrix_op(inst, t)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn struct_pair(&mut self, inst: &Inst, t: TypeId, a: Value, b: Value) -> Result<(), Error> {
        let p = Value::Const(self.cx.m.constant(Const::Poison(t)));
        let s = self.emit(
            "t",
            t,
            InstKind::InsertValue {
                v: p,
                elt: a,
                idx: vec![0],
            },
        );
        self.emit_result(
            inst,
            InstKind::InsertValue {
                v: s,
                elt: b,
                idx: vec![1],
            },
        )?;
        Ok(())
    }

    /// Columns of a matrix value.
    fn columns(&mut self, m: Value, mty: u32) -> Result<Vec<Value>, Error> {
        let (n, _) = self.matrix_shape(mty)?;
        let ct = self.cx.llty(self.matrix_col(mty)?)?;
        Ok((0..n)
            .map(|i| self.emit("t", ct, InstKind::ExtractValue { v: m, idx: vec![i] }))
            .collect())
    }

    fn build_matrix(&mut self, inst: &Inst, t: TypeId, cols: Vec<Value>) -> Result<(), Error> {
        let mut out = Value::Const(self.cx.m.constant(Const::Poison(t)));
        let n = cols.len();
        let hint = self.cx.hint(inst.rid()?);
        for (i, c) in cols.into_iter().enumerate() {
            let name = if i + 1 == n { hint.as_str() } else { "t" };
            out = self.emit(
                name,
                t,
                InstKind::InsertValue {
                    v: out,
                    elt: c,
                    idx: vec![i as u32],
                },
            );
        }
        self.define(inst, out)
    }

    /// `m * v` as the sum of columns scaled by v's lanes.
    fn mat_vec(&mut self, cols: &[Value], v: Value) -> Value {
        let mut acc: Option<Value> = None;
        for (i, c) in cols.iter().enumerate() {
            let ct = self.ll_type_of(*c);
            let s = self.lane(v, i as u32);
            let sv = self.splat(ct, s);
            let p = self.bin(BinOp::FMul, *c, sv);
            acc = Some(match acc {
                None => p,
                Some(a) => self.bin(BinOp::FAdd, a, p),
            });
        }
        acc.unwrap_or(v)
    }

    fn matrix_op(&mut self, inst: &Inst, t: TypeId) -> Result<(), Error> {
        let a_id = inst.id(0)?;
        let b_id = inst.id(1)?;
        let (a, b) = (self.val(a_id)?, self.val(b_id)?);
        match inst.op {
            Op::MatrixTimesScalar => {
                let cols = self.columns(a, self.vty(a_id)?)?;
                let mut out = Vec::with_capacity(cols.len());
                for c in cols {
                    let ct = self.ll_type_of(c);
                    let s = self.splat(ct, b);
                    out.push(self.bin(BinOp::FMul, c, s));
                }
                self.build_matrix(inst, t, out)
            }
            Op::MatrixTimesVector => {
                let cols = self.columns(a, self.vty(a_id)?)?;
                let r = self.mat_vec(&cols, b);
                self.define(inst, r)
            }
            Op::VectorTimesMatrix => {
                let cols = self.columns(b, self.vty(b_id)?)?;
                let elems: Vec<Value> = cols.iter().map(|c| self.dot(a, *c)).collect();
                let hint = self.cx.hint(inst.rid()?);
                let r = self.build_vector(t, &elems, &hint);
                self.define(inst, r)
            }
            Op::MatrixTimesMatrix => {
                let lcols = self.columns(a, self.vty(a_id)?)?;
                let rcols = self.columns(b, self.vty(b_id)?)?;
                let out: Vec<Value> = rcols.iter().map(|rc| self.mat_vec(&lcols, *rc)).collect();
                self.build_matrix(inst, t, out)
            }
            _ => {
                // OuterProduct: column j = a * b[j].
                let n = self.lanes(self.ll_type_of(b)).unwrap_or(1);
                let at = self.ll_type_of(a);
                let mut out = Vec::with_capacity(n as usize);
                for j in 0..n {
                    let s = self.lane(b, j);
                    let sv = self.splat(at, s);
                    out.push(self.bin(BinOp::FMul, a, sv));
                }
                self.build_matrix(inst, t, out)
            }
        }
    }
}

/// Instructions lowered to `__spirv_<Op>` builtin calls.
pub fn is_builtin_op(op: Op) -> bool {
    if crate::spirv::opclass::is_convergent(op) {
        return true;
    }
    let name = format!("{op:?}");
    name.starts_with("Image")
        || matches!(
            op,
            Op::SampledImage
                | Op::ArrayLength
                | Op::BitFieldInsert
                | Op::BitFieldSExtract
                | Op::BitFieldUExtract
                | Op::SatConvertSToU
                | Op::SatConvertUToS
                | Op::GenericCastToPtrExplicit
                | Op::GenericPtrMemSemantics
                | Op::IsHelperInvocationEXT
                | Op::DemoteToHelperInvocation
                | Op::EmitVertex
                | Op::EndPrimitive
                | Op::EmitStreamVertex
                | Op::EndStreamPrimitive
                | Op::ReadClockKHR
                | Op::BeginInvocationInterlockEXT
                | Op::EndInvocationInterlockEXT
                | Op::SetMeshOutputsEXT
                | Op::ConvertFToBF16INTEL
                | Op::ConvertBF16ToFINTEL
                | Op::GetDefaultQueue
                | Op::BuildNDRange
                | Op::RetainEvent
                | Op::ReleaseEvent
                | Op::CreateUserEvent
                | Op::IsValidEvent
                | Op::SetUserEventStatus
                | Op::CaptureEventProfilingInfo
                | Op::GetKernelWorkGroupSize
                | Op::GetKernelPreferredWorkGroupSizeMultiple
        )
}
