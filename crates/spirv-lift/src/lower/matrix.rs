//! Vector and matrix products and `OpTranspose`. A matrix value is an LLVM array of its
//! column vectors; products are built column by column from lanes, splats and sums.

use super::SpvTy;
use super::func::FnCtx;
use crate::error::Error;
use crate::llvm::{BinOp, Const, InstKind, Type, TypeId, Value};
use crate::spirv::SpvTypeId;
use crate::spirv::{Inst, Op, Operand};

impl FnCtx<'_, '_> {
    /// Lowers a vector or matrix product or `OpTranspose`
    /// ([`OpClass::Matrix`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_matrix(&mut self, inst: &Inst) -> Result<(), Error> {
        let Some(rty) = inst.result_type() else {
            return Err(inst.unsupported());
        };
        let t = self.cx.llty(rty)?;
        match inst.op {
            Op::VectorTimesScalar => {
                let (v, s) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let sv = self.splat(t, s);
                self.emit_result(
                    inst,
                    InstKind::Bin {
                        op: BinOp::FMul,
                        flags: crate::llvm::WrapFlags::None,
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
            Op::SDot | Op::UDot | Op::SUDot | Op::SDotAccSat | Op::UDotAccSat | Op::SUDotAccSat => {
                self.integer_dot(inst, t)?;
            }
            Op::MatrixTimesScalar
            | Op::MatrixTimesVector
            | Op::VectorTimesMatrix
            | Op::MatrixTimesMatrix
            | Op::OuterProduct => self.matrix_op(inst, t)?,
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
                        Ok(self.extract(st, m, j))
                    })
                    .collect::<Result<_, Error>>()?;
                for i in 0..res_cols {
                    let elems: Vec<Value> = src_cols.iter().map(|c| self.lane(*c, i)).collect();
                    let col = self.build_vector(col_t, &elems, "t");
                    out = self.emit(
                        "t",
                        t,
                        InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                            v: out,
                            elt: col,
                            idx: vec![i],
                        })),
                    );
                }
                self.define(inst, out)?;
            }
            _ => return Err(inst.unsupported()),
        }
        Ok(())
    }

    /// The integer dot products (`SPV_KHR_integer_dot_product`): the components are
    /// extended to the result's width (sign-extended for `SDot`, zero-extended for
    /// `UDot`, the first operand's sign- and the second's zero-extended for `SUDot`),
    /// multiplied and summed in that width, which gives the low bits of the exact result
    /// as the specification asks. The `AccSat` forms then add the accumulator with
    /// saturation, signed (`S`, `SU`) or unsigned (`U`). A 32-bit scalar operand with
    /// `PackedVectorFormat4x8Bit` holds four 8-bit components, the first in its low byte.
    fn integer_dot(&mut self, inst: &Inst, t: TypeId) -> Result<(), Error> {
        let (signed1, signed2) = match inst.op {
            Op::SDot | Op::SDotAccSat => (true, true),
            Op::UDot | Op::UDotAccSat => (false, false),
            _ => (true, false),
        };
        let Type::Int(width) = *self.cx.m.type_of_id(t) else {
            return Err(inst.invalid("an integer dot product's result type must be an integer"));
        };
        let packed = inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::PackedVectorFormat(_)));
        let a = self.dot_components(inst, 0, packed)?;
        let b = self.dot_components(inst, 1, packed)?;
        let (ta, tb) = (self.ll_type_of(a), self.ll_type_of(b));
        let (lanes, elem_bits) = match (self.cx.m.type_of_id(ta), self.cx.m.type_of_id(tb)) {
            (Type::Vector(n, e), Type::Vector(m, f)) if n == m && e == f => {
                (*n, self.elem_bits(ta))
            }
            _ => {
                return Err(
                    inst.invalid("an integer dot product's two operands must have the same type")
                );
            }
        };
        if elem_bits > width {
            return Err(inst.invalid(format!(
                "an integer dot product's result ({width} bits) is narrower than its \
                 components ({elem_bits} bits)"
            )));
        }
        let wide = self.cx.m.ty(Type::Vector(lanes, t));
        let a = self.resize_int(a, wide, signed1);
        let b = self.resize_int(b, wide, signed2);
        let products = self.bin(BinOp::Mul, a, b);
        let mut r = self.intrinsic("vector.reduce.add", &[wide], t, vec![products])?;
        if matches!(inst.op, Op::SDotAccSat | Op::UDotAccSat | Op::SUDotAccSat) {
            let acc = self.val(inst.id(2)?)?;
            let add = if signed1 { "sadd.sat" } else { "uadd.sat" };
            r = self.intrinsic(add, &[t], t, vec![r, acc])?;
        }
        self.define(inst, r)
    }

    /// Operand `i` of an integer dot product as a vector of its components: the value
    /// itself for an integer vector, four `i8` lanes from a packed 32-bit integer.
    fn dot_components(&mut self, inst: &Inst, i: usize, packed: bool) -> Result<Value, Error> {
        let v = self.val(inst.id(i)?)?;
        let ty = self.ll_type_of(v);
        match self.cx.m.type_of_id(ty) {
            Type::Vector(_, e) if matches!(self.cx.m.type_of_id(*e), Type::Int(_)) => Ok(v),
            Type::Int(32) if packed => {
                let i8t = self.cx.m.ty(Type::Int(8));
                let lanes: Vec<Value> = (0..4u64)
                    .map(|k| {
                        let shifted = if k == 0 {
                            v
                        } else {
                            let by = Value::Const(self.cx.int_const(ty, 8 * k));
                            self.bin(BinOp::LShr, v, by)
                        };
                        self.resize_int(shifted, i8t, false)
                    })
                    .collect();
                let v4 = self.cx.m.ty(Type::Vector(4, i8t));
                Ok(self.build_vector(v4, &lanes, "t"))
            }
            _ => Err(inst.invalid(format!(
                "integer dot product operand {i} is neither an integer vector nor a 32-bit \
                 integer with PackedVectorFormat4x8Bit"
            ))),
        }
    }

    /// `OpExpectKHR` (`llvm.expect`: the value, with the expected value as a hint) and
    /// `OpAssumeTrueKHR` (`llvm.assume`: the condition holds, or the behavior is
    /// undefined, as in SPIR-V).
    pub(super) fn lower_hint(&mut self, inst: &Inst) -> Result<(), Error> {
        match inst.op {
            Op::ExpectKHR => {
                let (v, e) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let t = self.ll_type_of(v);
                let r = self.intrinsic("expect", &[t], t, vec![v, e])?;
                self.define(inst, r)
            }
            Op::AssumeTrueKHR => {
                let c = self.val(inst.id(0)?)?;
                let void = self.cx.m.ty(Type::Void);
                self.intrinsic("assume", &[], void, vec![c])?;
                Ok(())
            }
            _ => Err(inst.unsupported()),
        }
    }

    /// (columns, rows-per-column) of a matrix type: returns (n_cols, col_len).
    fn matrix_shape(&self, ty: SpvTypeId) -> Result<(u32, u32), Error> {
        match self.cx.spv_ty(ty)?.clone() {
            SpvTy::Matrix { col, n } => match self.cx.spv_ty(col)? {
                SpvTy::Vector { n: r, .. } => Ok((n, *r)),
                _ => Err(crate::error::invalid("matrix column is not a vector")),
            },
            _ => Err(crate::error::invalid(format!("%{ty} is not a matrix type"))),
        }
    }

    fn matrix_col(&self, ty: SpvTypeId) -> Result<SpvTypeId, Error> {
        match self.cx.spv_ty(ty)? {
            SpvTy::Matrix { col, .. } => Ok(*col),
            _ => Err(crate::error::invalid(format!("%{ty} is not a matrix type"))),
        }
    }

    /// Columns of a matrix value.
    fn columns(&mut self, m: Value, mty: SpvTypeId) -> Result<Vec<Value>, Error> {
        let (n, _) = self.matrix_shape(mty)?;
        let ct = self.cx.llty(self.matrix_col(mty)?)?;
        Ok((0..n).map(|i| self.extract(ct, m, i)).collect())
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
                InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                    v: out,
                    elt: c,
                    idx: vec![i as u32],
                })),
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
