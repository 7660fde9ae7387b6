//! Composites: construction, extraction and insertion along literal paths, dynamic
//! vector lanes, vector shuffles, `OpSelect`; and the copies (`OpCopyObject`,
//! `OpCopyLogical` between logically identical aggregates, `OpUndef`).

use super::SpvTy;
use super::func::FnCtx;
use crate::error::Error;
use crate::llvm::{self, Const, InstKind, Value};
use crate::spirv::{Inst, Op};
use crate::spirv::{SpvId, SpvTypeId};

impl FnCtx<'_, '_> {
    /// Lowers `OpUndef`, `OpCopyObject` and `OpCopyLogical`
    /// ([`OpClass::Copy`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_copy(&mut self, inst: &Inst) -> Result<(), Error> {
        match inst.op {
            Op::Undef => {
                let t = self.cx.llty(inst.rty()?)?;
                let c = self.cx.m.constant(llvm::Const::Undef(t));
                self.define(inst, Value::Const(c))
            }
            Op::CopyObject => {
                let src = inst.id(0)?;
                if let Some(s) = self.ptr_shapes.get(&src).copied() {
                    self.ptr_shapes.insert(inst.rid()?, s);
                }
                let v = self.val(src)?;
                self.define(inst, v)
            }
            Op::CopyLogical => {
                let src = inst.id(0)?;
                let v = self.val(src)?;
                let r = self.copy_logical(v, self.vty(src)?, inst.rty()?)?;
                self.define(inst, r)
            }
            _ => Err(inst.unsupported()),
        }
    }

    /// Rebuilds a value of one aggregate type as the logically identical other type.
    fn copy_logical(&mut self, v: Value, from: SpvTypeId, to: SpvTypeId) -> Result<Value, Error> {
        let to_ll = self.cx.llty(to)?;
        if self.ll_type_of(v) == to_ll {
            return Ok(v);
        }
        let (fm, tm) = match (self.cx.spv_ty(from)?.clone(), self.cx.spv_ty(to)?.clone()) {
            (super::SpvTy::Struct { members: a }, super::SpvTy::Struct { members: b }) => (a, b),
            (super::SpvTy::Array { elem: a, .. }, super::SpvTy::Array { elem: b, .. }) => {
                let len = self.cx.array_len(from)?;
                (vec![a; len as usize], vec![b; len as usize])
            }
            _ => {
                return Err(crate::error::invalid(
                    "OpCopyLogical between types of different shape",
                ));
            }
        };
        if fm.len() != tm.len() || fm.len() > 1 << 16 {
            return Err(crate::error::invalid(
                "OpCopyLogical between types of different shape",
            ));
        }
        let mut out = Value::Const(self.cx.m.constant(llvm::Const::Poison(to_ll)));
        for (i, (a, b)) in fm.iter().zip(&tm).enumerate() {
            let at = self.cx.llty(*a)?;
            let e = self.emit(
                "t",
                at,
                InstKind::ExtractValue {
                    v,
                    idx: vec![i as u32].into(),
                },
            );
            let e = self.copy_logical(e, *a, *b)?;
            out = self.emit(
                "t",
                to_ll,
                InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                    v: out,
                    elt: e,
                    idx: vec![i as u32],
                })),
            );
        }
        Ok(out)
    }

    /// Lowers a composite instruction or `OpSelect`
    /// ([`OpClass::Composite`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_composite(&mut self, inst: &Inst) -> Result<(), Error> {
        let Some(rty) = inst.result_type() else {
            return Err(inst.unsupported());
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
                            InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                                v,
                                elt: e,
                                idx: vec![i as u32],
                            })),
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
                self.join_ptr_shapes(inst, &[inst.id(1)?, inst.id(2)?])?;
                let (c, a, b) = (
                    self.val(inst.id(0)?)?,
                    self.val(inst.id(1)?)?,
                    self.val(inst.id(2)?)?,
                );
                self.emit_result(inst, InstKind::Select { c, a, b })?;
            }
            _ => return Err(inst.unsupported()),
        }
        Ok(())
    }

    /// Element values of a composite constituent list, flattened to scalars for vectors.
    fn vector_elements(&mut self, ids: &[SpvId]) -> Result<Vec<Value>, Error> {
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

    fn extract_path(
        &mut self,
        mut v: Value,
        mut ty: SpvTypeId,
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
                                idx: std::mem::take(&mut agg).into(),
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
        Ok(self.emit(&hint, t, InstKind::ExtractValue { v, idx: agg.into() }))
    }

    fn insert_path(
        &mut self,
        c: Value,
        ty: SpvTypeId,
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
                            idx: prefix.clone().into(),
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
                        InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                            v: c,
                            elt: vec2,
                            idx: prefix,
                        })),
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
            InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                v: c,
                elt: obj,
                idx: lits.to_vec(),
            })),
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
            self.emit_result(
                inst,
                InstKind::Shuffle(Box::new(crate::llvm::ShuffleInst { a, b, mask })),
            )?;
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
}
