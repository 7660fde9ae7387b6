//! Memory: variables, loads, stores, copies, pointer comparisons and differences (access
//! chains and the member-by-member forms of laid-out memory are in `layout.rs`; atomics
//! in `atomics.rs`, barriers in `barriers.rs`).

use super::SpvTy;
use super::func::FnCtx;
use crate::error::Error;
use crate::llvm::{CastOp, InstKind, Type, TypeId, Value};
use crate::mmra::TagSet;
use crate::spirv::SpvId;
use crate::spirv::SpvTypeId;
use crate::spirv::{Inst, Op, Operand};
use ::spirv::MemoryAccess;

/// What a memory operand says about one access.
#[derive(Clone, Copy, Debug, Default)]
pub struct Access {
    /// `Volatile`.
    pub volatile: bool,
    /// `Aligned` literal.
    pub align: Option<u32>,
    /// `NonPrivatePointer`.
    pub nonprivate: bool,
}

impl Access {
    /// The access of one part of a split aggregate access: `Aligned` holds for a part that
    /// starts where the whole does, and says nothing of the others (a `vec3` at offset 4 of
    /// a struct loaded `Aligned 16` is 4-aligned): they take their own alignment.
    pub(crate) fn part(&self, first: bool) -> Access {
        Access {
            align: if first { self.align } else { None },
            ..*self
        }
    }
}

/// Reads the (up to two) memory operands of a copy: target's, then source's. With one,
/// it applies to both. The source's mask is the next memory-access operand after the
/// target's: the target's parameters (`Aligned`'s literal, the scopes of
/// `MakePointerAvailable` and `MakePointerVisible`, the alias lists of `AliasScopeINTEL`
/// and `NoAliasINTEL`) are never one.
fn copy_accesses(inst: &Inst, i: usize) -> (Access, Access) {
    let first = memory_access(inst, i);
    if !matches!(inst.operands.get(i), Some(Operand::MemoryAccess(_))) {
        return (first, first);
    }
    let second = (i + 1..inst.operands.len())
        .find(|&j| matches!(inst.operands[j], Operand::MemoryAccess(_)));
    match second {
        Some(j) => (first, memory_access(inst, j)),
        None => (first, first),
    }
}

/// The LLVM alignment of an access with the memory operand `Aligned v`: the access's
/// address is a multiple of `v`, so of the largest power of two dividing `v` (`v` itself
/// when it is one, which is what producers write); `Aligned 0`, which `spirv-val`
/// accepts, promises nothing: `align 1`.
fn access_align(v: u32) -> u32 {
    match v & v.wrapping_neg() {
        0 => 1,
        p => p,
    }
}

/// Reads the memory-operand mask at `i` and its parameters.
fn memory_access(inst: &Inst, i: usize) -> Access {
    let mut a = Access::default();
    if let Some(Operand::MemoryAccess(m)) = inst.operands.get(i) {
        a.volatile = m.contains(MemoryAccess::VOLATILE);
        a.nonprivate = m.contains(MemoryAccess::NON_PRIVATE_POINTER);
        if m.contains(MemoryAccess::ALIGNED)
            && let Some(Operand::LiteralBit32(v)) = inst.operands.get(i + 1)
        {
            a.align = Some(access_align(*v));
        }
    }
    a
}

impl FnCtx<'_, '_> {
    /// Lowers a memory instruction ([`OpClass::Memory`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_memory(&mut self, inst: &Inst) -> Result<(), Error> {
        match inst.op {
            Op::Variable => self.variable(inst),
            Op::Load => self.load(inst),
            Op::Store => self.store(inst),
            Op::CopyMemory => self.copy_memory(inst),
            Op::CopyMemorySized => self.copy_memory_sized(inst),
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain => self.access_chain(inst),
            Op::PtrEqual | Op::PtrNotEqual => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let pred = if inst.op == Op::PtrEqual {
                    crate::llvm::IPred::Eq
                } else {
                    crate::llvm::IPred::Ne
                };
                self.emit_result(inst, InstKind::ICmp { pred, a, b })?;
                Ok(())
            }
            Op::PtrDiff => self.ptr_diff(inst),
            Op::ArrayLength if self.cx.opts.target == crate::Target::Host => {
                self.host_array_length(inst)
            }
            Op::ArrayLength => self.lower_generic_builtin(inst),
            _ => Err(inst.unsupported()),
        }
    }

    /// `OpLoad`: one load, or member by member from laid-out memory (`layout.rs`).
    fn load(&mut self, inst: &Inst) -> Result<(), Error> {
        let ptr = inst.id(0)?;
        let a = memory_access(inst, 1);
        let p = self.val(ptr)?;
        let shape = self.ptr_shape(ptr)?;
        let tags = self.access_tags(p, a.nonprivate);
        if !self.cx.layouts.is_direct(shape) {
            // A laid-out aggregate: member by member (layout.rs).
            let v = self.load_shaped(p, shape, &a, &tags)?;
            return self.define(inst, v);
        }
        let ty = self.cx.llty(inst.rty()?)?;
        let align = a.align.or_else(|| self.layout_align(shape));
        self.emit_result_tagged(
            inst,
            InstKind::Load {
                ty,
                ptr: p,
                align,
                volatile: a.volatile,
                atomic: None,
            },
            &tags,
        )?;
        Ok(())
    }

    /// `OpStore`.
    fn store(&mut self, inst: &Inst) -> Result<(), Error> {
        let ptr = inst.id(0)?;
        self.keep_ptr_shape_local(inst, inst.id(1)?)?;
        let a = memory_access(inst, 2);
        let (p, v) = (self.val(ptr)?, self.val(inst.id(1)?)?);
        let shape = self.ptr_shape(ptr)?;
        let tags = self.access_tags(p, a.nonprivate);
        self.store_shaped(p, shape, v, &a, &tags)?;
        Ok(())
    }

    /// `OpCopyMemory`: a load and a store, or through the value when either side is laid out.
    fn copy_memory(&mut self, inst: &Inst) -> Result<(), Error> {
        let (dst, src) = (inst.id(0)?, inst.id(1)?);
        let (a, b) = copy_accesses(inst, 2);
        let (dshape, sshape) = (self.ptr_shape(dst)?, self.ptr_shape(src)?);
        let (d, s) = (self.val(dst)?, self.val(src)?);
        let vk = self.copy_vulkan_tags(a, b);
        if !(self.cx.layouts.is_direct(dshape) && self.cx.layouts.is_direct(sshape)) {
            // Through the value: the two sides may be laid out differently.
            let load_tags = TagSet::from_tags(vk.iter().cloned().chain(self.space_tag(s)));
            let v = self.load_shaped(s, sshape, &b, &load_tags)?;
            let store_tags = TagSet::from_tags(vk.into_iter().chain(self.space_tag(d)));
            self.store_shaped(d, dshape, v, &a, &store_tags)?;
            return Ok(());
        }
        let ty = self.cx.layouts.get(sshape).mem;
        let load_tags = TagSet::from_tags(vk.iter().cloned().chain(self.space_tag(s)));
        let v = self.emit_tagged(
            "copy",
            ty,
            InstKind::Load {
                ty,
                ptr: s,
                align: b.align.or_else(|| self.layout_align(sshape)),
                volatile: b.volatile,
                atomic: None,
            },
            &load_tags,
        );
        let store_tags = TagSet::from_tags(vk.iter().cloned().chain(self.space_tag(d)));
        self.emit_void_tagged(
            InstKind::Store {
                val: v,
                ptr: d,
                align: a.align.or_else(|| self.layout_align(dshape)),
                volatile: a.volatile,
                atomic: None,
            },
            &store_tags,
        );
        Ok(())
    }

    /// `OpCopyMemorySized`: `llvm.memcpy`.
    fn copy_memory_sized(&mut self, inst: &Inst) -> Result<(), Error> {
        let (d, s, n) = (
            self.val(inst.id(0)?)?,
            self.val(inst.id(1)?)?,
            self.val(inst.id(2)?)?,
        );
        let (a, b) = copy_accesses(inst, 3);
        let vol = self.bool_const(a.volatile || b.volatile);
        let tys = [self.ll_type_of(d), self.ll_type_of(s), self.ll_type_of(n)];
        let void = self.cx.m.ty(Type::Void);
        let vk = self.copy_vulkan_tags(a, b);
        let tags = TagSet::from_tags(
            vk.into_iter()
                .chain(self.space_tag(s))
                .chain(self.space_tag(d)),
        );
        self.intrinsic_tagged("memcpy", &tys, void, vec![d, s, n, vol], &tags)?;
        Ok(())
    }

    /// `OpPtrDiff`: the byte difference divided by the element size, the step of
    /// `OpPtrAccessChain` on the same pointer type (its `ArrayStride` when it has one).
    fn ptr_diff(&mut self, inst: &Inst) -> Result<(), Error> {
        let rty = self.cx.llty(inst.rty()?)?;
        let stride = self.ptr_array_stride(inst.id(0)?);
        let elem = self.cx.mem_ty(self.pointee(inst.id(0)?)?)?;
        let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
        let ai = self.emit(
            "t",
            rty,
            InstKind::Cast {
                op: CastOp::PtrToInt,
                v: a,
                to: rty,
            },
        );
        let bi = self.emit(
            "t",
            rty,
            InstKind::Cast {
                op: CastOp::PtrToInt,
                v: b,
                to: rty,
            },
        );
        let d = self.emit(
            "t",
            rty,
            InstKind::Bin {
                op: crate::llvm::BinOp::Sub,
                flags: crate::llvm::WrapFlags::None,
                a: ai,
                b: bi,
            },
        );
        let size = match stride {
            Some(stride) => Value::Const(self.cx.int_const(rty, stride)),
            None => {
                // The element size, computed with the null-GEP idiom.
                let pty = self.ll_type_of(a);
                let null = Value::Const(self.cx.m.constant(crate::llvm::Const::Null(pty)));
                let one = Value::Const(self.cx.int_const(rty, 1));
                let end = self.emit(
                    "t",
                    pty,
                    InstKind::Gep {
                        inbounds: false,
                        src: elem,
                        ptr: null,
                        indices: vec![one].into(),
                    },
                );
                self.emit(
                    "t",
                    rty,
                    InstKind::Cast {
                        op: CastOp::PtrToInt,
                        v: end,
                        to: rty,
                    },
                )
            }
        };
        self.emit_result(
            inst,
            InstKind::Bin {
                op: crate::llvm::BinOp::SDiv,
                flags: crate::llvm::WrapFlags::Exact,
                a: d,
                b: size,
            },
        )?;
        Ok(())
    }

    /// Natural alignment of a scalar type in bytes.
    pub(super) fn natural_align(&self, t: TypeId) -> u32 {
        match self.cx.m.type_of_id(t) {
            Type::Ptr(_) => {
                if self.cx.addressing == ::spirv::AddressingModel::Physical32 {
                    4
                } else {
                    8
                }
            }
            ty => ty.scalar_bits().map_or(4, |b| (b / 8).max(1)),
        }
    }

    /// The pointee SPIR-V type of a pointer value id.
    pub fn pointee(&self, ptr: SpvId) -> Result<SpvTypeId, Error> {
        match self.cx.spv_ty(self.vty(ptr)?)? {
            SpvTy::Pointer { pointee, .. } => Ok(*pointee),
            _ => Err(crate::error::invalid(format!("%{ptr} is not a pointer"))),
        }
    }

    /// The `vulkan:` tags of a copy: its operands' tag, or both when they disagree.
    fn copy_vulkan_tags(&self, a: Access, b: Access) -> Vec<crate::mmra::Tag> {
        let mut v: Vec<_> = self.cx.vulkan_tag(a.nonprivate).into_iter().collect();
        v.extend(self.cx.vulkan_tag(b.nonprivate));
        v
    }

    fn variable(&mut self, inst: &Inst) -> Result<(), Error> {
        let SpvTy::Pointer { sc, pointee } = self.cx.spv_ty(inst.rty()?)?.clone() else {
            return Err(inst.err("OpVariable's type is not a pointer"));
        };
        if sc != ::spirv::StorageClass::Function {
            return Err(
                inst.unsupported_form(format!("function-scope variable in storage class {sc:?}"))
            );
        }
        let shape = self.cx.shape(pointee)?;
        // A variable of type void (`spirv-val` accepts one that is never loaded or
        // stored; SPIRV-Cross's tests have `%retvar` of it) or of an `OpTypeOpaque` still
        // needs an address: one byte.
        let mut ty = self.cx.m.variable_type(self.cx.layouts.get(shape).mem);
        if self.cx.opts.target == crate::Target::Amdgcn
            && let Type::Array(n, e) = *self.cx.m.type_of_id(ty)
            && *self.cx.m.type_of_id(e) == Type::Int(1)
        {
            // A bool vector's lanes (`[N x i1]`, a byte each) are allocated as `[N x i8]`,
            // the same bytes: llc-19's AMDGPU alloca promotion turns an `[N x i1]`
            // alloca into `<N x i1>` and emits invalid `bitcast`s between `i1` and it.
            let i8t = self.cx.m.ty(Type::Int(8));
            ty = self.cx.m.ty(Type::Array(n, i8t));
        }
        let addrspace = super::types::addrspace(sc, self.cx.opts.target)?;
        let align = self
            .cx
            .deco_lit(inst.rid()?, ::spirv::Decoration::Alignment);
        let p = self.emit_result(
            inst,
            InstKind::Alloca {
                ty,
                addrspace,
                align,
            },
        )?;
        if let Some(init) = inst.optional_id(1) {
            let v = self.val(init)?;
            let tags = self.access_tags(p, false);
            let access = Access {
                align,
                ..Access::default()
            };
            self.store_shaped(p, shape, v, &access, &tags)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy(operands: Vec<Operand>) -> Inst {
        Inst::new(Op::CopyMemory, 0, None, None, operands.into_boxed_slice())
    }

    #[test]
    fn a_copys_second_memory_operand_is_the_sources_whatever_the_first_one_holds() {
        use MemoryAccess as M;
        let (dst, src) = (Operand::IdRef(1), Operand::IdRef(2));
        // Target: Aligned 16 with an alias-scope list (an id); source: Aligned 4.
        let inst = copy(vec![
            dst.clone(),
            src.clone(),
            Operand::MemoryAccess(M::ALIGNED | M::ALIAS_SCOPE_INTEL_MASK),
            Operand::LiteralBit32(16),
            Operand::IdRef(9),
            Operand::MemoryAccess(M::ALIGNED | M::VOLATILE),
            Operand::LiteralBit32(4),
        ]);
        let (a, b) = copy_accesses(&inst, 2);
        assert_eq!((a.align, a.volatile), (Some(16), false));
        assert_eq!((b.align, b.volatile), (Some(4), true));
        // NoAlias and both scopes on the target.
        let inst = copy(vec![
            dst.clone(),
            src.clone(),
            Operand::MemoryAccess(
                M::ALIGNED
                    | M::MAKE_POINTER_AVAILABLE
                    | M::NON_PRIVATE_POINTER
                    | M::NO_ALIAS_INTEL_MASK,
            ),
            Operand::LiteralBit32(8),
            Operand::IdScope(3),
            Operand::IdRef(9),
            Operand::MemoryAccess(M::ALIGNED),
            Operand::LiteralBit32(2),
        ]);
        let (a, b) = copy_accesses(&inst, 2);
        assert_eq!((a.align, a.nonprivate), (Some(8), true));
        assert_eq!((b.align, b.nonprivate), (Some(2), false));
        // One memory operand: it applies to both sides.
        let inst = copy(vec![
            dst,
            src,
            Operand::MemoryAccess(M::ALIGNED),
            Operand::LiteralBit32(4),
        ]);
        let (a, b) = copy_accesses(&inst, 2);
        assert_eq!((a.align, b.align), (Some(4), Some(4)));
    }
}
