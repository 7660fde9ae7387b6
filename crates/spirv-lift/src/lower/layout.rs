//! Explicit layouts: where `Offset`, `ArrayStride`, `MatrixStride` and `RowMajor` put
//! data in memory, as LLVM types whose data layout agrees with them on any target.
//!
//! A SPIR-V type has one LLVM *value* type (`types.rs`: structs as `{ … }`, matrices as
//! arrays of column vectors) and, where it is explicitly laid out, a *memory* type that
//! pointers to it address, described by a [`Shape`]:
//!
//! - a struct with `Offset`s is a packed struct `%Name.layout = type <{ … }>` with each
//!   member at its offset and `[N x i8]` padding between members;
//! - an array with an `ArrayStride` larger than its element is an array of
//!   `<{ elem, [pad x i8] }>` wrappers (an access chain adds a `0` index after the
//!   element index);
//! - a vector inside a layout is `[N x T]`, so that it occupies exactly `N` elements (an
//!   LLVM `<3 x float>` occupies 16 bytes), and is still loaded and stored as `<N x T>`;
//! - a matrix member is laid out by its `MatrixStride`: column-major as an array of
//!   (wrapped) columns, row-major as an array of (wrapped) rows; a pointer to a column of
//!   a row-major matrix is a [`ShapeKind::Strided`] pointer to its first element.
//!
//! Packed structs have alignment 1 and every member type's allocation size is exactly its
//! size, so the offsets do not depend on the data layout string. Access chains, and loads
//! and stores of a whole laid-out aggregate (member by member; scalars and vectors load
//! directly), are in `access.rs`. Kernel (OpenCL) modules keep C layout: no shapes are
//! built.
//!
//! With the workarounds for LLVM 22's SPIR-V backend ([`Ctx::backend_workarounds`]) the
//! memory form is written for that backend's data layout instead, because the backend
//! turns memory types into SPIR-V types and Vulkan's block rules want vectors there: a
//! vector inside a layout is `<N x T>` wherever the backend's allocation size for it (the
//! next power of two of its size: 16 bytes for a `vec3` of 32-bit elements) fits before
//! the next member or element ([`Ctx::backend_vector`]), and `[N x T]` otherwise.

use super::{Ctx, SpvTy, SpvTypeId};
use crate::error::Error;
use crate::llvm::{Const, Type, TypeId};
use ::spirv::Decoration;
use foldhash::{HashMap, HashSet};

/// Index of a [`Shape`] in [`Layouts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ShapeId(u32);

/// How the memory behind a pointer is laid out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Shape {
    pub kind: ShapeKind,
    /// The SPIR-V type whose memory this is.
    pub spv: SpvTypeId,
    /// The LLVM type of the memory (a `getelementptr` source type).
    pub mem: TypeId,
    /// The LLVM type of a value loaded from it.
    pub val: TypeId,
    /// Size in bytes, where it does not depend on the data layout.
    pub size: Option<u64>,
    /// How many loads a whole load of it takes (saturating).
    pub leaves: u64,
}

/// The kinds of [`Shape`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ShapeKind {
    /// Memory holds the value type as LLVM lays it out (nothing explicit below).
    Plain,
    /// A vector inside a layout: `[N x T]` in memory (`<N x T>` where
    /// [`Ctx::backend_vector`] says so), `<N x T>` as a value.
    Vector,
    /// Member `k` is LLVM field `fields[k].0` with shape `fields[k].1`.
    Struct { fields: Vec<(u32, ShapeId)> },
    /// Elements (array elements or matrix columns) at a stride; a wrapped element is
    /// field 0 of `<{ elem, [pad x i8] }>`.
    Array {
        elem: ShapeId,
        len: u64,
        wrapped: bool,
    },
    /// A row-major matrix: `rows` rows of `cols` elements, rows at the matrix stride.
    /// `column` is the shape of a pointer to one column.
    RowMajor {
        cols: u32,
        wrapped: bool,
        column: ShapeId,
    },
    /// A column of a row-major matrix: `n` elements, each a matrix stride apart; or a
    /// bool vector in memory (`[N x i1]`, a byte per lane, not wrapped: LLVM packs
    /// `<N x i1>` into bits, where a lane has no address).
    Strided { n: u32, wrapped: bool },
}

/// The shapes of a module, interned by index.
#[derive(Default)]
pub(crate) struct Layouts {
    shapes: Vec<Shape>,
    /// The id of each shape in `shapes`.
    ids: HashMap<Shape, ShapeId>,
    /// Default shape of each type id whose memory differs from its value type.
    laid: HashMap<SpvTypeId, ShapeId>,
    /// Plain shape of each type id asked for.
    plain: HashMap<SpvTypeId, ShapeId>,
    /// `OpMemberDecorate` literals used for layouts: (struct, member, decoration).
    member_lits: HashMap<(SpvTypeId, u32, u32), u32>,
    /// (struct, member) pairs decorated `RowMajor`.
    row_major: HashSet<(SpvTypeId, u32)>,
    /// Shape of each array type inside a layout, by its matrix context: an array's
    /// shape is its element's, so without this every level of `[N x [M x …]]` would
    /// lay out all the levels below it again (cost quadratic in nesting depth).
    arrays: HashMap<(SpvTypeId, MatrixCtx), ShapeId>,
    /// `(plain size, plain alignment)` of each array type asked for, for the same
    /// reason.
    plain_arrays: HashMap<SpvTypeId, (Option<u64>, Option<u64>)>,
}

impl Layouts {
    /// The shape behind an id.
    pub fn get(&self, s: ShapeId) -> &Shape {
        &self.shapes[s.0 as usize]
    }

    /// Whether a value loads and stores directly through a pointer of this shape.
    pub fn is_direct(&self, s: ShapeId) -> bool {
        let sh = self.get(s);
        matches!(sh.kind, ShapeKind::Plain | ShapeKind::Vector) || sh.mem == sh.val
    }

    /// Records an `OpMemberDecorate` that layouts use.
    pub fn member_decoration(
        &mut self,
        st: SpvTypeId,
        member: u32,
        d: Decoration,
        lit: Option<u32>,
    ) {
        match (d, lit) {
            (Decoration::Offset | Decoration::MatrixStride, Some(v)) => {
                self.member_lits.insert((st, member, d as u32), v);
            }
            (Decoration::RowMajor, _) => {
                self.row_major.insert((st, member));
            }
            _ => {}
        }
    }

    pub(crate) fn member_lit(&self, st: SpvTypeId, member: u32, d: Decoration) -> Option<u32> {
        self.member_lits.get(&(st, member, d as u32)).copied()
    }

    /// Interns a shape: equal shapes (their parts interned first) get one id, so that
    /// pointers into memory laid out alike have the same shape (members of one type
    /// with the same decorations, at different offsets).
    fn add(&mut self, s: Shape) -> ShapeId {
        if let Some(&id) = self.ids.get(&s) {
            return id;
        }
        let id = ShapeId(self.shapes.len() as u32);
        self.ids.insert(s.clone(), id);
        self.shapes.push(s);
        id
    }
}

/// The layout context of a matrix: its member's `MatrixStride` and `RowMajor`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct MatrixCtx {
    stride: Option<u32>,
    row_major: bool,
}

impl Ctx<'_> {
    /// The shape of memory holding a `ty` where nothing says otherwise (a variable, a
    /// pointer of type `ptr to ty`).
    pub(crate) fn shape(&mut self, ty: SpvTypeId) -> Result<ShapeId, Error> {
        match self.layouts.laid.get(&ty) {
            Some(s) => Ok(*s),
            None => self.plain_shape(ty),
        }
    }

    /// The LLVM memory type of a `ty` (the value type unless `ty` is laid out).
    pub(crate) fn mem_ty(&mut self, ty: SpvTypeId) -> Result<TypeId, Error> {
        let s = self.shape(ty)?;
        Ok(self.layouts.get(s).mem)
    }

    pub(crate) fn plain_shape(&mut self, ty: SpvTypeId) -> Result<ShapeId, Error> {
        if let Some(s) = self.layouts.plain.get(&ty) {
            return Ok(*s);
        }
        let llvm = self.llty(ty)?;
        let size = self.plain_size(ty);
        let s = self.layouts.add(Shape {
            kind: ShapeKind::Plain,
            spv: ty,
            mem: llvm,
            val: llvm,
            size,
            leaves: 1,
        });
        self.layouts.plain.insert(ty, s);
        Ok(s)
    }

    /// The size of a scalar, pointer or array of them (other sizes depend on the data
    /// layout).
    fn plain_size(&mut self, ty: SpvTypeId) -> Option<u64> {
        self.plain_metrics(ty).0
    }

    /// The alignment every data layout gives a scalar, pointer or array of them: at most
    /// the scalar's size, so an offset that is a multiple of the size is aligned.
    fn plain_align(&mut self, ty: SpvTypeId) -> Option<u64> {
        self.plain_metrics(ty).1
    }

    /// [`Ctx::plain_size`] and [`Ctx::plain_align`] of a type, an array's remembered.
    fn plain_metrics(&mut self, ty: SpvTypeId) -> (Option<u64>, Option<u64>) {
        let (elem, len) = match self.spv_ty(ty) {
            Ok(SpvTy::Int { width, .. } | SpvTy::Float { width, .. }) => {
                let size = Some(u64::from(*width / 8));
                return (size, size);
            }
            Ok(SpvTy::Pointer { .. }) => {
                let size = Some(if self.addressing == ::spirv::AddressingModel::Physical32 {
                    4
                } else {
                    8
                });
                return (size, size);
            }
            Ok(SpvTy::Array { elem, .. }) => (*elem, Some(self.array_len(ty).ok())),
            Ok(SpvTy::RuntimeArray { elem }) => (*elem, None),
            _ => return (None, None),
        };
        if let Some(&known) = self.layouts.plain_arrays.get(&ty) {
            return known;
        }
        let (elem_size, align) = self.plain_metrics(elem);
        // A run-time array has no size; an array's is its element's times its length.
        let size = len.and_then(|len| elem_size?.checked_mul(len?));
        self.layouts.plain_arrays.insert(ty, (size, align));
        (size, align)
    }

    /// Computes and records the default shape of a struct or array type just lowered,
    /// when it is explicitly laid out (called in module order, so that every named
    /// layout struct exists before any function is printed).
    pub(crate) fn compute_layout(&mut self, ty: SpvTypeId) -> Result<(), Error> {
        // Kernels have no explicit layouts; their bool vectors are byte per lane in
        // memory all the same. Of shaders' vectors only bool vectors have a memory form
        // of their own outside a layout.
        let vector = matches!(self.spv_ty(ty)?, SpvTy::Vector { .. });
        if (self.kernel || vector) && !self.holds_bool_vector(ty)? {
            return Ok(());
        }
        let s = self.layout_shape(ty, MatrixCtx::default())?;
        if !matches!(self.layouts.get(s).kind, ShapeKind::Plain) {
            self.layouts.laid.insert(ty, s);
        }
        Ok(())
    }

    /// Whether a type is a bool vector, or an array or struct whose memory form holds one
    /// (its element or members were lowered before it: their default shapes say).
    fn holds_bool_vector(&self, ty: SpvTypeId) -> Result<bool, Error> {
        let laid = |t: &SpvTypeId| self.layouts.laid.contains_key(t);
        Ok(match self.spv_ty(ty)? {
            SpvTy::Vector { elem, .. } => matches!(self.spv_ty(*elem)?, SpvTy::Bool),
            SpvTy::Array { elem, .. } | SpvTy::RuntimeArray { elem } => laid(elem),
            SpvTy::Struct { members } => members.iter().any(laid),
            _ => false,
        })
    }

    /// The shape of a bool vector in memory: `[N x i1]`, one byte per lane (a lane of
    /// `<N x i1>` in memory is a bit: `getelementptr` cannot address it).
    fn bool_vector_shape(&mut self, ty: SpvTypeId, n: u32) -> Result<ShapeId, Error> {
        let i1 = self.m.ty(Type::Int(1));
        let mem = self.m.ty(Type::Array(u64::from(n), i1));
        let val = self.llty(ty)?;
        Ok(self.layouts.add(Shape {
            kind: ShapeKind::Strided { n, wrapped: false },
            spv: ty,
            mem,
            val,
            size: Some(u64::from(n)),
            leaves: u64::from(n),
        }))
    }

    /// The shape of a `ty` inside an explicit layout.
    fn layout_shape(&mut self, ty: SpvTypeId, mctx: MatrixCtx) -> Result<ShapeId, Error> {
        match self.spv_ty(ty)?.clone() {
            SpvTy::Vector { elem, n } if matches!(self.spv_ty(elem)?, SpvTy::Bool) => {
                self.bool_vector_shape(ty, n)
            }
            SpvTy::Vector { elem, n } => {
                let e = self.llty(elem)?;
                let size = self.plain_size(elem).map(|s| s * u64::from(n));
                let mem = self.m.ty(Type::Array(u64::from(n), e));
                let val = self.llty(ty)?;
                Ok(self.layouts.add(Shape {
                    kind: ShapeKind::Vector,
                    spv: ty,
                    mem,
                    val,
                    size,
                    leaves: 1,
                }))
            }
            SpvTy::Matrix { col, n } => self.matrix_shape(ty, col, n, mctx),
            SpvTy::Array { elem, .. } | SpvTy::RuntimeArray { elem } => {
                if let Some(&s) = self.layouts.arrays.get(&(ty, mctx)) {
                    return Ok(s);
                }
                // A run-time array's shape has length 0.
                let len = match self.spv_ty(ty)? {
                    SpvTy::Array { .. } => self.array_len(ty)?,
                    _ => 0,
                };
                let s = self.array_shape(ty, elem, len, mctx)?;
                self.layouts.arrays.insert((ty, mctx), s);
                Ok(s)
            }
            SpvTy::Struct { members } => match self.layouts.laid.get(&ty) {
                Some(s) => Ok(*s),
                None => self.struct_shape(ty, &members),
            },
            _ => self.plain_shape(ty),
        }
    }

    /// A vector shape in the memory form of LLVM 22's SPIR-V backend (workarounds only):
    /// `<N x T>` in memory when the backend's allocation size for it fits in `room` (the
    /// bytes before the next member or element; `None` when unknown, where only a vector
    /// whose allocation size is its size fits). Any other shape is returned as it is.
    fn backend_vector(&mut self, s: ShapeId, room: Option<u64>) -> ShapeId {
        let sh = self.layouts.get(s);
        if !self.backend_workarounds() || !matches!(sh.kind, ShapeKind::Vector) {
            return s;
        }
        let Some(size) = sh.size else {
            return s;
        };
        // The backend's data layout aligns `<3 x T>` to the next power of two (v24:32,
        // v48:64, v96:128, v192:256) and the others to their size.
        let alloc = size.next_power_of_two();
        if !room.map_or(alloc == size, |room| alloc <= room) {
            return s;
        }
        let mut vector = sh.clone();
        vector.mem = vector.val;
        vector.size = Some(alloc);
        self.layouts.add(vector)
    }

    fn array_shape(
        &mut self,
        ty: SpvTypeId,
        elem: SpvTypeId,
        len: u64,
        mctx: MatrixCtx,
    ) -> Result<ShapeId, Error> {
        let e = self.layout_shape(elem, mctx)?;
        let stride = self.deco_lit(ty, Decoration::ArrayStride).map(u64::from);
        let e = self.backend_vector(e, stride);
        let es = self.layouts.get(e).clone();
        let plain_elem = matches!(es.kind, ShapeKind::Plain);
        // An element with no layout of its own and a size the data layout decides (a
        // struct without Offsets) is not in explicitly laid-out memory in a valid module.
        if plain_elem && (stride.is_none() || stride == es.size || es.size.is_none()) {
            return self.plain_shape(ty);
        }
        let (mem_elem, wrapped, size) = self.strided_elem(&es, stride, ty)?;
        let mem = self.m.ty(Type::Array(len, mem_elem));
        let val = self.llty(ty)?;
        Ok(self.layouts.add(Shape {
            kind: ShapeKind::Array {
                elem: e,
                len,
                wrapped,
            },
            spv: ty,
            mem,
            val,
            size: size.and_then(|s| s.checked_mul(len)),
            leaves: es.leaves.saturating_mul(len),
        }))
    }

    /// The memory type of one element placed `stride` bytes after the previous one:
    /// the element itself, or `<{ elem, [pad x i8] }>`. Returns it with whether it is
    /// wrapped and the stride.
    fn strided_elem(
        &mut self,
        es: &Shape,
        stride: Option<u64>,
        ty: SpvTypeId,
    ) -> Result<(TypeId, bool, Option<u64>), Error> {
        let Some(stride) = stride else {
            return Ok((es.mem, false, es.size));
        };
        let size = es.size.ok_or_else(|| {
            crate::error::unsupported(format!(
                "%{ty}: stride {stride} over an element whose size depends on the data layout"
            ))
        })?;
        if stride == size {
            return Ok((es.mem, false, Some(stride)));
        }
        if stride < size {
            return Err(crate::error::invalid(format!(
                "%{ty}: stride {stride} is smaller than its {size}-byte element"
            )));
        }
        let i8t = self.m.ty(Type::Int(8));
        let pad = self.m.ty(Type::Array(stride - size, i8t));
        Ok((
            self.m.ty(Type::Packed(vec![es.mem, pad])),
            true,
            Some(stride),
        ))
    }

    fn matrix_shape(
        &mut self,
        ty: SpvTypeId,
        col: SpvTypeId,
        n: u32,
        mctx: MatrixCtx,
    ) -> Result<ShapeId, Error> {
        let SpvTy::Vector { elem, n: rows } = *self.spv_ty(col)? else {
            return Err(crate::error::invalid(format!(
                "%{ty}: matrix column is not a vector"
            )));
        };
        let val = self.llty(ty)?;
        let esize = self.plain_size(elem);
        if !mctx.row_major {
            let c = self.layout_shape(col, MatrixCtx::default())?;
            let c = self.backend_vector(c, mctx.stride.map(u64::from));
            let cs = self.layouts.get(c).clone();
            let (mem_col, wrapped, size) =
                self.strided_elem(&cs, mctx.stride.map(u64::from), ty)?;
            let mem = self.m.ty(Type::Array(u64::from(n), mem_col));
            return Ok(self.layouts.add(Shape {
                kind: ShapeKind::Array {
                    elem: c,
                    len: u64::from(n),
                    wrapped,
                },
                spv: ty,
                mem,
                val,
                size: size.map(|s| s * u64::from(n)),
                leaves: u64::from(n),
            }));
        }
        // Row-major: `rows` rows of `n` elements each.
        let e = self.llty(elem)?;
        let esize = esize.ok_or_else(|| {
            crate::error::unsupported(format!("%{ty}: row-major matrix of a sizeless type"))
        })?;
        let row = Shape {
            kind: ShapeKind::Vector,
            spv: col,
            mem: self.m.ty(Type::Array(u64::from(n), e)),
            val: e,
            size: Some(esize * u64::from(n)),
            leaves: 1,
        };
        let (mem_row, wrapped, size) = self.strided_elem(&row, mctx.stride.map(u64::from), ty)?;
        let mem = self.m.ty(Type::Array(u64::from(rows), mem_row));
        // A column: element r is one row stride after element r - 1.
        let scalar = Shape {
            kind: ShapeKind::Vector,
            spv: elem,
            mem: e,
            val: e,
            size: Some(esize),
            leaves: 1,
        };
        let col_stride = size.unwrap_or(esize * u64::from(n));
        let (mem_elem, col_wrapped, _) = self.strided_elem(&scalar, Some(col_stride), ty)?;
        let col_val = self.llty(col)?;
        let column = self.layouts.add(Shape {
            kind: ShapeKind::Strided {
                n: rows,
                wrapped: col_wrapped,
            },
            spv: col,
            mem: self.m.ty(Type::Array(u64::from(rows), mem_elem)),
            val: col_val,
            size: None,
            leaves: u64::from(rows),
        });
        Ok(self.layouts.add(Shape {
            kind: ShapeKind::RowMajor {
                cols: n,
                wrapped,
                column,
            },
            spv: ty,
            mem,
            val,
            size: size.map(|s| s * u64::from(rows)),
            leaves: u64::from(rows).saturating_mul(u64::from(n)),
        }))
    }

    /// A struct without `Offset`s: LLVM's own layout of its members' memory forms, which
    /// are their value types unless a member holds a bool vector (then it is a literal
    /// struct of those forms, member `k` field `k`).
    fn natural_struct_shape(
        &mut self,
        ty: SpvTypeId,
        members: &[SpvTypeId],
    ) -> Result<ShapeId, Error> {
        let shapes = members
            .iter()
            .map(|&m| self.shape(m))
            .collect::<Result<Vec<_>, _>>()?;
        if shapes
            .iter()
            .all(|&s| matches!(self.layouts.get(s).kind, ShapeKind::Plain))
        {
            return self.plain_shape(ty);
        }
        let mems = shapes.iter().map(|&s| self.layouts.get(s).mem).collect();
        let mem = self.m.ty(Type::Struct(mems));
        let val = self.llty(ty)?;
        let leaves = shapes
            .iter()
            .fold(0u64, |n, &s| n.saturating_add(self.layouts.get(s).leaves));
        Ok(self.layouts.add(Shape {
            kind: ShapeKind::Struct {
                fields: shapes
                    .into_iter()
                    .enumerate()
                    .map(|(k, s)| (k as u32, s))
                    .collect(),
            },
            spv: ty,
            mem,
            val,
            size: None,
            leaves,
        }))
    }

    fn struct_shape(&mut self, ty: SpvTypeId, members: &[SpvTypeId]) -> Result<ShapeId, Error> {
        let offsets: Vec<Option<u32>> = (0..members.len() as u32)
            .map(|k| self.layouts.member_lit(ty, k, Decoration::Offset))
            .collect();
        if offsets.iter().all(Option::is_none) {
            return self.natural_struct_shape(ty, members);
        }
        // Offsets on some members only: not a block layout (spirv-val requires them on
        // every member of a laid-out struct), so LLVM's own layout.
        if offsets.iter().any(Option::is_none) {
            return self.plain_shape(ty);
        }
        let mut order: Vec<(u64, usize)> = offsets
            .iter()
            .enumerate()
            .filter_map(|(k, o)| o.map(|o| (u64::from(o), k)))
            .collect();
        order.sort_unstable();
        let i8t = self.m.ty(Type::Int(8));
        let mut fields = Vec::with_capacity(members.len() * 2);
        let mut map = vec![(0u32, ShapeId(0)); members.len()];
        let mut cursor = 0u64;
        for (i, &(offset, k)) in order.iter().enumerate() {
            if offset < cursor {
                return Err(crate::error::invalid(format!(
                    "%{ty}: member {k} at offset {offset} overlaps the member before it (which ends at {cursor})"
                )));
            }
            if offset > cursor {
                fields.push(self.m.ty(Type::Array(offset - cursor, i8t)));
                cursor = offset;
            }
            let mctx = MatrixCtx {
                stride: self
                    .layouts
                    .member_lit(ty, k as u32, Decoration::MatrixStride),
                row_major: self.layouts.row_major.contains(&(ty, k as u32)),
            };
            let s = self.layout_shape(members[k], mctx)?;
            let room = order.get(i + 1).map(|&(next, _)| next - offset);
            let s = self.backend_vector(s, room);
            let shape = self.layouts.get(s);
            map[k] = (fields.len() as u32, s);
            fields.push(shape.mem);
            match shape.size {
                Some(size) => cursor += size,
                // Only the last member may have a size the data layout decides; a struct
                // with one in the middle is not a valid block layout: LLVM's own layout.
                None if i + 1 == order.len() => {}
                None => return self.plain_shape(ty),
            }
        }
        let leaves = map.iter().fold(0u64, |n, (_, s)| {
            n.saturating_add(self.layouts.get(*s).leaves)
        });
        let last_sized = order
            .last()
            .is_none_or(|&(_, k)| self.layouts.get(map[k].1).size.is_some());
        let val = self.llty(ty)?;
        // Members of plain scalars (or arrays of them) in order, without padding, each at
        // a multiple of its size, and a size that is a multiple of the largest member's:
        // every data layout places them the same way and adds no tail padding (a scalar's
        // ABI alignment is a power of two no larger than its size), so the value type
        // serves as the memory type and loads stay whole. `{ u64, u32 }` is 12 bytes in
        // SPIR-V but 16 in LLVM wherever i64 is 8-aligned (the SPIR-V backend, x86-64,
        // amdgcn): laid out as a packed struct instead.
        let mut largest = 1;
        let mut natural = fields.len() == members.len();
        for (i, &(offset, k)) in order.iter().enumerate() {
            if !natural {
                break;
            }
            natural = i == k
                && matches!(self.layouts.get(map[k].1).kind, ShapeKind::Plain)
                && self.plain_align(members[k]).is_some_and(|a| {
                    largest = largest.max(a);
                    a > 0 && offset % a == 0
                });
        }
        let natural = natural && (!last_sized || cursor.is_multiple_of(largest));
        let mem = if natural {
            val
        } else {
            let hint = format!("{}.layout", self.hint(ty));
            let mem = self.m.new_struct_with(&hint, true);
            self.m.set_struct_body(mem, fields);
            mem
        };
        Ok(self.layouts.add(Shape {
            kind: ShapeKind::Struct { fields: map },
            spv: ty,
            mem,
            val,
            size: last_sized.then_some(cursor),
            leaves,
        }))
    }

    /// A constant of a type's value form converted to the memory form of `shape`
    /// (initializers of laid-out variables).
    pub(crate) fn const_to_mem(
        &mut self,
        c: crate::llvm::ConstId,
        shape: ShapeId,
    ) -> Result<crate::llvm::ConstId, Error> {
        let sh = self.layouts.get(shape).clone();
        if matches!(sh.kind, ShapeKind::Plain) {
            return Ok(c);
        }
        let elems = match self.m.const_of_id(c).clone() {
            Const::Aggregate(_, e) => e,
            Const::Zero(_) | Const::Null(_) => return Ok(self.m.constant(Const::Zero(sh.mem))),
            Const::Undef(_) => return Ok(self.m.constant(Const::Undef(sh.mem))),
            Const::Poison(_) => return Ok(self.m.constant(Const::Poison(sh.mem))),
            _ => {
                return Err(crate::error::unsupported(
                    "initializer of a laid-out variable",
                ));
            }
        };
        let parts: Vec<(usize, ShapeId)> = match &sh.kind {
            ShapeKind::Struct { fields } => fields.iter().map(|(f, s)| (*f as usize, *s)).collect(),
            ShapeKind::Array { elem, .. } => (0..elems.len()).map(|i| (i, *elem)).collect(),
            // A vector in a layout, or a bool vector: an array of its lanes.
            ShapeKind::Vector | ShapeKind::Strided { wrapped: false, .. } => {
                return Ok(self.m.constant(Const::Aggregate(sh.mem, elems)));
            }
            _ => {
                return Err(crate::error::unsupported(
                    "initializer of a row-major matrix",
                ));
            }
        };
        let field_tys: Vec<TypeId> = match self.m.type_of_id(sh.mem).clone() {
            Type::Array(_, e) => vec![e; elems.len()],
            _ => self
                .m
                .struct_fields(sh.mem)
                .map(<[_]>::to_vec)
                .unwrap_or_default(),
        };
        let mut out: Vec<crate::llvm::ConstId> = field_tys
            .iter()
            .map(|t| self.m.constant(Const::Zero(*t)))
            .collect();
        for (k, (slot, s)) in parts.into_iter().enumerate() {
            let e = *elems
                .get(k)
                .ok_or_else(|| crate::error::invalid("short initializer"))?;
            let mut v = self.const_to_mem(e, s)?;
            if let (ShapeKind::Array { wrapped: true, .. }, Some(w)) =
                (&sh.kind, field_tys.get(slot))
            {
                let w = *w;
                let pad = self.m.struct_fields(w).and_then(|f| f.get(1).copied());
                if let Some(pad) = pad {
                    let z = self.m.constant(Const::Zero(pad));
                    v = self
                        .m
                        .constant(Const::Aggregate(w, thin_vec::thin_vec![v, z]));
                }
            }
            if let Some(o) = out.get_mut(slot) {
                *o = v;
            }
        }
        Ok(self.m.constant(Const::Aggregate(sh.mem, out.into())))
    }
}
