//! Access chains and loads and stores through explicitly laid-out memory: each SPIR-V
//! index mapped through the [`Shape`]s that `layout.rs` computes (members to fields,
//! wrapper indices after strided elements, row-major columns as strided pointers), and
//! whole laid-out aggregates loaded and stored member by member.

use super::SpvTy;
use super::func::FnCtx;
use super::layout::{Shape, ShapeId, ShapeKind};
use crate::error::Error;
use crate::llvm::{Const, InstKind, Type, TypeId, Value};
use crate::spirv::SpvId;
use crate::spirv::{Inst, Op};
use ::spirv::Decoration;

/// One `getelementptr` of an access chain: source type, indices and, per index,
/// whether it is a zero structure index and the memory type it selects (for the
/// backend workarounds).
struct Segment {
    src: TypeId,
    indices: Vec<Value>,
    zero_struct: Vec<bool>,
    selected: Vec<TypeId>,
}

impl Segment {
    fn new(src: TypeId, first: Value) -> Self {
        Segment {
            src,
            indices: vec![first],
            zero_struct: vec![false],
            selected: vec![src],
        }
    }

    fn push(&mut self, idx: Value, zero_struct: bool, selected: TypeId) {
        self.indices.push(idx);
        self.zero_struct.push(zero_struct);
        self.selected.push(selected);
    }
}

impl FnCtx<'_, '_> {
    /// `OpAccessChain` and its variants: a `getelementptr` over the memory type of the
    /// base pointer, with each SPIR-V index mapped through the layout (member to field,
    /// wrapper indices after strided elements); a column of a row-major matrix starts a
    /// second `getelementptr` over the column's strided type.
    pub(crate) fn access_chain(&mut self, inst: &Inst) -> Result<(), Error> {
        let base = inst.id(0)?;
        let ptr_chain = matches!(inst.op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
        let inbounds = matches!(
            inst.op,
            Op::AccessChain | Op::InBoundsAccessChain | Op::InBoundsPtrAccessChain
        );
        let ids = inst.ids_from(1)?;
        let mut shape = self.ptr_shape(base)?;
        let mut p = self.val(base)?;
        let mut segments = Vec::new();
        let mut rest = ids.as_slice();
        let mem = self.cx.layouts.get(shape).mem;
        let mut seg = match (ptr_chain, ids.first()) {
            (false, _) | (true, None) => Segment::new(mem, self.cx.i32_val(0)),
            (true, Some(&first)) => {
                rest = &ids[1..];
                let first = self.val(first)?;
                let stride = self
                    .ptr_array_stride(base)
                    .filter(|s| Some(*s) != self.cx.layouts.get(shape).size);
                match stride {
                    Some(s) => {
                        let i8t = self.cx.m.ty(Type::Int(8));
                        let bytes = self.cx.m.ty(Type::Array(s, i8t));
                        segments.push(Segment::new(bytes, first));
                        Segment::new(mem, self.cx.i32_val(0))
                    }
                    None => Segment::new(mem, first),
                }
            }
        };
        if ids.is_empty() {
            self.ptr_shapes.insert(inst.rid()?, shape);
            return self.define(inst, p);
        }
        for (k, &idx) in rest.iter().enumerate() {
            let sh = self.cx.layouts.get(shape).clone();
            let (next, zero) = match &sh.kind {
                ShapeKind::Plain => match self.cx.spv_ty(sh.spv)?.clone() {
                    // An element of a cooperative matrix has no address LLVM can compute:
                    // the pointer to the matrix, then `__spirv_AccessChain`.
                    SpvTy::CoopMatrix { .. } if k + 1 == rest.len() => {
                        segments.push(seg);
                        return self.coop_element(inst, segments, p, inbounds, sh.spv, idx);
                    }
                    SpvTy::Struct { members } => {
                        let k = self.struct_index(inst, idx)?;
                        let m = *members
                            .get(k as usize)
                            .ok_or_else(|| inst.err(format!("struct index {k} out of range")))?;
                        let v = self.cx.i32_val(u64::from(k));
                        seg.indices.push(v);
                        (self.cx.plain_shape(m)?, k == 0)
                    }
                    SpvTy::Array { elem, .. }
                    | SpvTy::RuntimeArray { elem }
                    | SpvTy::Vector { elem, .. }
                    | SpvTy::Matrix { col: elem, .. } => {
                        seg.indices.push(self.val(idx)?);
                        (self.cx.plain_shape(elem)?, false)
                    }
                    other => return Err(inst.err(format!("cannot index into {other:?}"))),
                },
                ShapeKind::Vector => {
                    seg.indices.push(self.val(idx)?);
                    let e = self.cx.scalar_of(sh.spv)?;
                    (self.cx.plain_shape(e)?, false)
                }
                ShapeKind::Struct { fields } => {
                    let k = self.struct_index(inst, idx)?;
                    let (f, s) = *fields
                        .get(k as usize)
                        .ok_or_else(|| inst.err(format!("struct index {k} out of range")))?;
                    let v = self.cx.i32_val(u64::from(f));
                    seg.indices.push(v);
                    (s, f == 0)
                }
                ShapeKind::Array { elem, wrapped, .. } => {
                    let i = self.val(idx)?;
                    (*elem, self.push_element(&mut seg, sh.mem, i, *wrapped))
                }
                ShapeKind::RowMajor {
                    wrapped, column, ..
                } => {
                    // The column's first element: row 0, then the column index.
                    let zero = self.cx.i32_val(0);
                    let row = self.wrapper_of(sh.mem);
                    seg.push(zero, false, row);
                    let mut row_arr = row;
                    if *wrapped {
                        row_arr = self
                            .cx
                            .m
                            .struct_fields(row)
                            .and_then(|f| f.first().copied())
                            .unwrap_or(row);
                        seg.push(zero, true, row_arr);
                    }
                    let e = self.cx.layouts.get(*column).mem;
                    let scalar = self.wrapper_of(row_arr);
                    seg.push(self.val(idx)?, false, scalar);
                    segments.push(std::mem::replace(&mut seg, Segment::new(e, zero)));
                    shape = *column;
                    continue;
                }
                ShapeKind::Strided { wrapped, .. } => {
                    let i = self.val(idx)?;
                    let zero = self.push_element(&mut seg, sh.mem, i, *wrapped);
                    let e = self.cx.scalar_of(sh.spv)?;
                    (self.cx.plain_shape(e)?, zero)
                }
            };
            shape = next;
            seg.zero_struct.push(zero);
            let m = self.cx.layouts.get(shape).mem;
            seg.selected.push(m);
        }
        segments.push(seg);
        let last = segments.len() - 1;
        for (i, seg) in segments.into_iter().enumerate() {
            p = self.emit_segment(seg, p, inbounds, (i == last).then_some(inst))?;
        }
        let SpvTy::Pointer {
            pointee: result_pointee,
            ..
        } = *self.cx.spv_ty(inst.rty()?)?
        else {
            return Err(inst.err("access chain result is not a pointer"));
        };
        if self.cx.shape(result_pointee)? != shape {
            self.ptr_shapes.insert(inst.rid()?, shape);
        }
        Ok(())
    }

    /// The end of an access chain whose last index selects an element of a cooperative
    /// matrix (of SPIR-V type `matrix`): the `getelementptr`s of `segments` to the matrix
    /// (none when the base is the matrix), then `__spirv_AccessChain(matrix, index)`.
    fn coop_element(
        &mut self,
        inst: &Inst,
        segments: Vec<Segment>,
        mut p: Value,
        inbounds: bool,
        matrix: crate::spirv::SpvTypeId,
        idx: SpvId,
    ) -> Result<(), Error> {
        for seg in segments {
            let trivial = seg.indices.len() == 1 && seg.indices[0] == self.cx.i32_val(0);
            if !trivial {
                p = self.emit_segment(seg, p, inbounds, None)?;
            }
        }
        let addrspace = match self.cx.m.type_of_id(self.ll_type_of(p)) {
            Type::Ptr(a) => *a,
            _ => return Err(inst.err("access chain base is not a pointer")),
        };
        let ptr = (
            p,
            super::mangle::MTy::Pointer {
                addrspace,
                pointee: Box::new(self.mty(matrix)?),
                is_const: false,
            },
        );
        let index = self.arg(idx)?;
        self.call_builtin(
            inst,
            "__spirv_AccessChain",
            &[ptr, index],
            inst.result_type(),
            false,
        )?;
        Ok(())
    }

    /// Pushes an element index into an array-like memory type `mem` and, when its
    /// elements are wrapped, the wrapper's field index 0 (whose flags the caller pushes);
    /// returns whether the last index pushed is that zero structure index.
    fn push_element(&mut self, seg: &mut Segment, mem: TypeId, i: Value, wrapped: bool) -> bool {
        seg.indices.push(i);
        if wrapped {
            let wrapper = self.wrapper_of(mem);
            seg.zero_struct.push(false);
            seg.selected.push(wrapper);
            let zero = self.cx.i32_val(0);
            seg.indices.push(zero);
        }
        wrapped
    }

    /// A constant struct index.
    fn struct_index(&self, inst: &Inst, idx: SpvId) -> Result<u32, Error> {
        self.cx
            .const_int(idx)
            .and_then(|k| u32::try_from(k).ok())
            .ok_or_else(|| inst.err(format!("struct index %{idx} is not a constant")))
    }

    /// The element type of an array type (the wrapper of a strided element).
    fn wrapper_of(&self, arr: TypeId) -> TypeId {
        match self.cx.m.type_of_id(arr) {
            Type::Array(_, e) => *e,
            _ => arr,
        }
    }

    /// Emits one segment's `getelementptr` (named after `result` when it is the last),
    /// split where LLVM 22's SPIR-V backend needs it.
    fn emit_segment(
        &mut self,
        seg: Segment,
        p: Value,
        inbounds: bool,
        result: Option<&Inst>,
    ) -> Result<Value, Error> {
        let Segment {
            mut src,
            mut indices,
            mut zero_struct,
            selected,
        } = seg;
        let (mut p, mut start) = (p, 0);
        if self.cx.backend_workarounds() && self.cx.kernel {
            // LLVM 22's SPIR-V backend writes a zero structure index as OpConstantNull,
            // which spirv-val rejects. Field 0 is at offset 0, so a trailing zero index
            // can go, and an inner one starts a new `getelementptr` on the field type.
            while indices.len() > 1 && zero_struct.last() == Some(&true) {
                indices.pop();
                zero_struct.pop();
            }
            while let Some(j) = (start + 1..indices.len()).find(|&j| zero_struct[j]) {
                let pty = self.ll_type_of(p);
                p = self.emit(
                    "t",
                    pty,
                    InstKind::Gep {
                        inbounds,
                        src,
                        ptr: p,
                        indices: indices[start..j].to_vec().into(),
                    },
                );
                src = selected[j];
                start = j;
            }
        }
        indices.drain(..start);
        let kind = InstKind::Gep {
            inbounds,
            src,
            ptr: p,
            indices: indices.into(),
        };
        match result {
            Some(inst) => self.emit_result(inst, kind),
            None => {
                let pty = self.ll_type_of(p);
                Ok(self.emit("t", pty, kind))
            }
        }
    }

    /// The alignment to state for a direct access through a pointer of this shape.
    pub(crate) fn layout_align(&self, s: ShapeId) -> Option<u32> {
        let sh = self.cx.layouts.get(s);
        match sh.kind {
            ShapeKind::Vector => self.scalar_align(sh.val),
            _ => None,
        }
    }

    /// The `ArrayStride` of a shader pointer's type: the element size of its pointer
    /// arithmetic (`OpPtrAccessChain`'s Element, `OpPtrDiff`), which may exceed the
    /// pointee's size. Kernels have no layouts: `None` there.
    pub(crate) fn ptr_array_stride(&self, ptr: SpvId) -> Option<u64> {
        if self.cx.kernel {
            return None;
        }
        let ty = self.vty(ptr).ok()?;
        self.cx.deco_lit(ty, Decoration::ArrayStride).map(u64::from)
    }

    /// A pointer chosen among `ids` (`OpSelect`) points to memory laid out as theirs: it
    /// takes their shape when they agree, and is refused when they do not (one result
    /// cannot be read two ways).
    pub(crate) fn join_ptr_shapes(&mut self, inst: &Inst, ids: &[SpvId]) -> Result<(), Error> {
        if self.ptr_shapes.is_empty() {
            return Ok(());
        }
        let first = self.ptr_shapes.get(&ids[0]).copied();
        for &id in &ids[1..] {
            self.check_ptr_shape(inst, id, first)?;
        }
        if let Some(s) = first {
            self.ptr_shapes.insert(inst.rid()?, s);
        }
        Ok(())
    }

    /// Refuses a pointer `id` going where a pointer laid out as `want` is expected
    /// (`None`: as its type says), as one of the values of an `OpSelect` or `OpPhi`,
    /// unless both layouts put every byte in the same place.
    pub(crate) fn check_ptr_shape(
        &mut self,
        inst: &Inst,
        id: SpvId,
        want: Option<ShapeId>,
    ) -> Result<(), Error> {
        let have = self.ptr_shapes.get(&id).copied();
        if have == want {
            return Ok(());
        }
        let default = self.cx.shape(self.pointee(id)?)?;
        let (have, want) = (have.unwrap_or(default), want.unwrap_or(default));
        let (a, b) = (self.cx.layouts.get(have).mem, self.cx.layouts.get(want).mem);
        if !self.same_bytes(a, b) {
            return Err(mixed_layouts(inst));
        }
        Ok(())
    }

    /// Refuses a pointer `id` into memory laid out otherwise than its type says (a
    /// row-major matrix, columns or elements at a stride of their own) where it leaves
    /// what this function knows of it: a call's argument, a stored or returned value
    /// (the callee, or whoever loads it, reads the memory by its type).
    pub(crate) fn keep_ptr_shape_local(&mut self, inst: &Inst, id: SpvId) -> Result<(), Error> {
        if !self.ptr_shapes.contains_key(&id) {
            return Ok(());
        }
        self.check_ptr_shape(inst, id, None).map_err(|_| {
            inst.unsupported_form(format!(
                "%{id} points into memory laid out otherwise than its type says (by the \
                 decorations of the block it is in), and would be read by its type where \
                 it goes"
            ))
        })
    }

    /// Whether two memory types put the same bytes at the same offsets: equal, or arrays
    /// of such, or `[N x T]` and `<N x T>` of a scalar `T` with N a power of two (the
    /// vector then has no tail padding: a laid-out column of a `vec2` or `vec4`).
    fn same_bytes(&self, a: TypeId, b: TypeId) -> bool {
        if a == b {
            return true;
        }
        let m = &self.cx.m;
        match (m.type_of_id(a), m.type_of_id(b)) {
            (Type::Array(n, x), Type::Array(k, y)) => n == k && self.same_bytes(*x, *y),
            (Type::Array(n, x), Type::Vector(k, y)) | (Type::Vector(k, y), Type::Array(n, x)) => {
                *n == u64::from(*k)
                    && x == y
                    && n.is_power_of_two()
                    && m.type_of_id(*x).scalar_bits().is_some()
            }
            _ => false,
        }
    }

    /// The shape of the memory a pointer value points to.
    pub(crate) fn ptr_shape(&mut self, ptr: SpvId) -> Result<ShapeId, Error> {
        if let Some(s) = self.ptr_shapes.get(&ptr) {
            return Ok(*s);
        }
        let pointee = self.pointee(ptr)?;
        self.cx.shape(pointee)
    }

    /// A `getelementptr inbounds` with constant `i32` indices.
    fn gep_const(&mut self, src: TypeId, ptr: Value, idx: &[u64]) -> Value {
        let indices = idx.iter().map(|i| self.cx.i32_val(*i)).collect();
        let pty = self.ll_type_of(ptr);
        self.emit(
            "t",
            pty,
            InstKind::Gep {
                inbounds: true,
                src,
                ptr,
                indices,
            },
        )
    }

    /// Loads a whole value through a pointer of shape `s`, member by member where the
    /// memory is laid out; each load gets `tags`.
    pub(crate) fn load_shaped(
        &mut self,
        p: Value,
        s: ShapeId,
        a: &super::memory::Access,
        tags: &crate::mmra::TagSet,
    ) -> Result<Value, Error> {
        let sh = self.cx.layouts.get(s).clone();
        let mut out = Value::Const(self.cx.m.constant(Const::Poison(sh.val)));
        if self.cx.layouts.is_direct(s) {
            let align = a.align.or_else(|| self.layout_align(s));
            let v = self.emit_tagged(
                "t",
                sh.val,
                InstKind::Load {
                    ty: sh.val,
                    ptr: p,
                    align,
                    volatile: a.volatile,
                    atomic: None,
                },
                tags,
            );
            return Ok(v);
        }
        check_unrolled(sh.leaves)?;
        let lanes = matches!(sh.kind, ShapeKind::Strided { .. });
        for (q, part, i, first) in self.parts(p, &sh)? {
            let v = self.load_shaped(q, part, &a.part(first), tags)?;
            out = if lanes {
                let idx = self.cx.i32_val(u64::from(i));
                self.emit(
                    "t",
                    sh.val,
                    InstKind::InsertElement {
                        v: out,
                        elt: v,
                        idx,
                    },
                )
            } else {
                self.insert_value(out, v, i, sh.val)
            };
        }
        Ok(out)
    }

    /// Stores a whole value through a pointer of shape `s` (the mirror of
    /// [`FnCtx::load_shaped`]).
    pub(crate) fn store_shaped(
        &mut self,
        p: Value,
        s: ShapeId,
        v: Value,
        a: &super::memory::Access,
        tags: &crate::mmra::TagSet,
    ) -> Result<(), Error> {
        let sh = self.cx.layouts.get(s).clone();
        if self.cx.layouts.is_direct(s) {
            let align = a.align.or_else(|| self.layout_align(s));
            self.emit_void_tagged(
                InstKind::Store {
                    val: v,
                    ptr: p,
                    align,
                    volatile: a.volatile,
                    atomic: None,
                },
                tags,
            );
            return Ok(());
        }
        check_unrolled(sh.leaves)?;
        let lanes = matches!(sh.kind, ShapeKind::Strided { .. });
        for (q, part, i, first) in self.parts(p, &sh)? {
            let m = if lanes {
                self.lane(v, i)
            } else {
                let t = self.cx.layouts.get(part).val;
                self.extract_value(v, i, t)
            };
            self.store_shaped(q, part, m, &a.part(first), tags)?;
        }
        Ok(())
    }

    /// The parts a whole access of laid-out memory splits into: a pointer to each, its
    /// shape, its index in the value (a vector lane for a strided column, else an
    /// aggregate index) and whether it starts where the whole does (only such a part
    /// keeps the whole's `Aligned`).
    fn parts(&mut self, p: Value, sh: &Shape) -> Result<Vec<(Value, ShapeId, u32, bool)>, Error> {
        let mut out = Vec::new();
        match &sh.kind {
            ShapeKind::Plain | ShapeKind::Vector => {}
            ShapeKind::Struct { fields } => {
                for (k, (f, fs)) in fields.iter().enumerate() {
                    let q = self.gep_const(sh.mem, p, &[0, u64::from(*f)]);
                    out.push((q, *fs, k as u32, *f == 0));
                }
            }
            ShapeKind::Array { elem, len, wrapped } => {
                for i in 0..*len {
                    let q = self.element_ptr(sh.mem, p, i, *wrapped);
                    out.push((q, *elem, i as u32, i == 0));
                }
            }
            ShapeKind::RowMajor {
                cols,
                wrapped,
                column,
            } => {
                for c in 0..*cols {
                    let q = self.column_ptr(sh.mem, p, c, *wrapped);
                    out.push((q, *column, c, c == 0));
                }
            }
            ShapeKind::Strided { n, wrapped } => {
                let scalar = self.cx.scalar_of(sh.spv)?;
                let e = self.cx.plain_shape(scalar)?;
                for r in 0..*n {
                    let q = self.element_ptr(sh.mem, p, u64::from(r), *wrapped);
                    out.push((q, e, r, r == 0));
                }
            }
        }
        Ok(out)
    }

    /// The alignment to state for a vector access inside a layout: its element's size
    /// (LLVM would otherwise assume the vector's own, larger alignment).
    fn scalar_align(&self, val: TypeId) -> Option<u32> {
        match self.cx.m.type_of_id(val) {
            Type::Vector(_, e) => self
                .cx
                .m
                .type_of_id(*e)
                .scalar_bits()
                .map(|b| (b / 8).max(1)),
            _ => None,
        }
    }

    /// Element `i` of an array-like memory type (through its wrapper).
    fn element_ptr(&mut self, mem: TypeId, p: Value, i: u64, wrapped: bool) -> Value {
        if wrapped {
            self.gep_const(mem, p, &[0, i, 0])
        } else {
            self.gep_const(mem, p, &[0, i])
        }
    }

    /// Column `c` of a row-major matrix: its element in row 0.
    fn column_ptr(&mut self, mem: TypeId, p: Value, c: u32, wrapped: bool) -> Value {
        if wrapped {
            self.gep_const(mem, p, &[0, 0, 0, u64::from(c)])
        } else {
            self.gep_const(mem, p, &[0, 0, u64::from(c)])
        }
    }

    fn insert_value(&mut self, agg: Value, elt: Value, i: u32, ty: TypeId) -> Value {
        self.emit(
            "t",
            ty,
            InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                v: agg,
                elt,
                idx: vec![i],
            })),
        )
    }

    fn extract_value(&mut self, agg: Value, i: u32, ty: TypeId) -> Value {
        self.emit(
            "t",
            ty,
            InstKind::ExtractValue {
                v: agg,
                idx: vec![i].into(),
            },
        )
    }
}

/// Whole-aggregate loads and stores of laid-out memory are unrolled; this bounds the
/// code one of them produces.
fn check_unrolled(leaves: u64) -> Result<(), Error> {
    if leaves > 1 << 16 {
        return Err(crate::error::unsupported(format!(
            "a load or store of a whole laid-out aggregate of {leaves} scalars and vectors (at most 65536)"
        )));
    }
    Ok(())
}

/// The error for a pointer chosen among pointers into memory laid out differently.
fn mixed_layouts(inst: &Inst) -> Error {
    inst.unsupported_form(
        "a pointer chosen among pointers into memory laid out differently (by the \
         decorations of the blocks they point into)",
    )
}
