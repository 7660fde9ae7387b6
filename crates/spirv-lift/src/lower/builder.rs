//! IR-building helpers the instruction handlers share: constants of a type (splatted
//! over vectors), binary operations, comparisons, selects, lanes and splats, integer
//! resizing, vectors and two-member structs built element by element.

use super::func::FnCtx;
use crate::error::Error;
use crate::llvm::{BinOp, CastOp, Const, FPred, IPred, InstKind, Type, TypeId, Value};
use crate::spirv::Inst;

impl FnCtx<'_, '_> {
    /// `extractvalue` of field or element `i` of `v`, of type `ty`.
    pub(super) fn extract(&mut self, ty: TypeId, v: Value, i: u32) -> Value {
        self.emit(
            "t",
            ty,
            InstKind::ExtractValue {
                v,
                idx: Box::new([i]),
            },
        )
    }

    /// The width in bits of a scalar type or of a vector's elements (0 for others).
    pub fn elem_bits(&self, t: TypeId) -> u32 {
        self.cx
            .m
            .type_of_id(self.elem_of(t))
            .scalar_bits()
            .unwrap_or(0)
    }

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
            Some(n) => Value::Const(self.cx.m.constant(Const::Aggregate(
                t,
                thin_vec::ThinVec::from(vec![c; n as usize]),
            ))),
            None => Value::Const(c),
        }
    }

    /// A float constant of type `t` (or its element type, splatted).
    pub fn fconst(&mut self, t: TypeId, v: f64) -> Value {
        let e = self.elem_of(t);
        let bits = match self.cx.m.type_of_id(e) {
            Type::Half => crate::spirv::f64_to_half_bits(v),
            Type::BFloat => crate::spirv::f64_to_bfloat_bits(v),
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
        Value::Const(self.cx.m.constant(Const::Int(i1, u64::from(b))))
    }

    /// Emits a binary operation; the result has `a`'s type.
    pub fn bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let t = self.ll_type_of(a);
        self.emit(
            "t",
            t,
            InstKind::Bin {
                op,
                flags: crate::llvm::WrapFlags::None,
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
        self.with_elem(t, i1)
    }

    /// The type with `t`'s lanes (none for a scalar) and element type `e`.
    pub fn with_elem(&mut self, t: TypeId, e: TypeId) -> TypeId {
        match self.lanes(t) {
            Some(n) => self.cx.m.ty(Type::Vector(n, e)),
            None => e,
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
            InstKind::Shuffle(Box::new(crate::llvm::ShuffleInst {
                a: v,
                b: poison,
                mask: vec![Some(0); n as usize],
            })),
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
        let fb = self.elem_bits(from);
        let tb = self.elem_bits(to);
        let op = if tb < fb {
            CastOp::Trunc
        } else if signed {
            CastOp::SExt
        } else {
            CastOp::ZExt
        };
        self.emit("t", to, InstKind::Cast { op, v, to })
    }

    /// Builds a vector of type `t` from scalars.
    pub fn build_vector(&mut self, t: TypeId, elems: &[Value], hint: &str) -> Value {
        let mut v = Value::Const(self.cx.m.constant(Const::Poison(t)));
        let n = elems.len();
        for (i, e) in elems.iter().enumerate() {
            let idx = self.cx.i32_val(i as u64);
            let name = if i + 1 == n { hint } else { "t" };
            v = self.emit(name, t, InstKind::InsertElement { v, elt: *e, idx });
        }
        v
    }

    pub fn struct_pair(&mut self, inst: &Inst, t: TypeId, a: Value, b: Value) -> Result<(), Error> {
        let p = Value::Const(self.cx.m.constant(Const::Poison(t)));
        let s = self.emit(
            "t",
            t,
            InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                v: p,
                elt: a,
                idx: vec![0],
            })),
        );
        self.emit_result(
            inst,
            InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                v: s,
                elt: b,
                idx: vec![1],
            })),
        )?;
        Ok(())
    }
}
