//! Memory: variables, loads, stores, copies, atomics and barriers (access chains and the
//! member-by-member forms of laid-out memory are in `layout.rs`).
//!
//! Orderings (SPEC §4.1): Acquire → `acquire`, Release → `release`, AcquireRelease →
//! `acq_rel`, SequentiallyConsistent → `seq_cst`, none → `monotonic` for atomics; clamped
//! only where LLVM requires it. Barriers (SPEC §4.2): `OpMemoryBarrier` is one fence;
//! `OpControlBarrier` is a release fence, the execution barrier, then an acquire fence.

use super::SpvTy;
use super::func::FnCtx;
use crate::Target;
use crate::error::Error;
use crate::llvm::{CastOp, InstKind, Ordering, RmwOp, SyncScope, Type, TypeId, Value};
use crate::mmra::TagSet;
use crate::spirv::{Inst, Op, Operand};
use ::spirv::{MemoryAccess, MemorySemantics, Scope};

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

/// Reads the (up to two) memory operands of a copy: target's, then source's. With one,
/// it applies to both.
fn copy_accesses(inst: &Inst, i: usize) -> (Access, Access) {
    let first = memory_access(inst, i);
    let params = match inst.operands.get(i) {
        Some(Operand::MemoryAccess(m)) => [
            MemoryAccess::ALIGNED,
            MemoryAccess::MAKE_POINTER_AVAILABLE,
            MemoryAccess::MAKE_POINTER_VISIBLE,
        ]
        .iter()
        .filter(|b| m.contains(**b))
        .count(),
        _ => return (first, first),
    };
    match inst.operands.get(i + 1 + params) {
        Some(Operand::MemoryAccess(_)) => (first, memory_access(inst, i + 1 + params)),
        _ => (first, first),
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
            a.align = Some(*v).filter(|v| v.is_power_of_two());
        }
    }
    a
}

/// The LLVM ordering for memory semantics.
pub fn ordering(sem: u32) -> Option<Ordering> {
    let s = MemorySemantics::from_bits_truncate(sem);
    if s.contains(MemorySemantics::SEQUENTIALLY_CONSISTENT) {
        Some(Ordering::SeqCst)
    } else if s.contains(MemorySemantics::ACQUIRE_RELEASE)
        || (s.contains(MemorySemantics::ACQUIRE) && s.contains(MemorySemantics::RELEASE))
    {
        Some(Ordering::AcqRel)
    } else if s.contains(MemorySemantics::ACQUIRE) {
        Some(Ordering::Acquire)
    } else if s.contains(MemorySemantics::RELEASE) {
        Some(Ordering::Release)
    } else {
        None
    }
}

/// The `syncscope` for a SPIR-V scope in a profile.
pub fn sync_scope(scope: u32, target: Target) -> SyncScope {
    let s = Scope::from_u32(scope);
    SyncScope(match (s, target) {
        (Some(Scope::Invocation), _) => Some("singlethread"),
        (Some(Scope::Subgroup), Target::Generic | Target::Host) => Some("subgroup"),
        (Some(Scope::Subgroup), Target::Amdgcn) => Some("wavefront"),
        (Some(Scope::Workgroup), _) => Some("workgroup"),
        (Some(Scope::Device | Scope::QueueFamily), Target::Generic | Target::Host) => {
            Some("device")
        }
        (Some(Scope::Device | Scope::QueueFamily), Target::Amdgcn) => Some("agent"),
        _ => None,
    })
}

impl FnCtx<'_, '_, '_> {
    /// Reads a scope operand; a non-constant one, or a specialization constant left at its
    /// default (which may change after translation), widens to system scope. A
    /// specialization constant whose value was set is a known scope.
    fn scope_operand(&mut self, inst: &Inst, i: usize) -> Result<(u32, bool), Error> {
        let id = inst.id(i)?;
        if self.cx.follows_spec_default(id) {
            self.cx.warn(
                inst,
                format!("scope %{id} is a specialization constant: using system scope"),
            );
            return Ok((Scope::CrossDevice as u32, true));
        }
        match self.cx.const_int(id) {
            Some(v) => Ok((v as u32, false)),
            None => {
                self.cx.warn(
                    inst,
                    format!("scope %{id} is not a constant: using system scope"),
                );
                Ok((Scope::CrossDevice as u32, true))
            }
        }
    }

    /// Reads a semantics operand; a non-constant one widens to `SequentiallyConsistent`
    /// over all storage classes, a specialization constant left at its default to
    /// `SequentiallyConsistent`. A specialization constant whose value was set is known.
    fn semantics_operand(&mut self, inst: &Inst, i: usize) -> Result<u32, Error> {
        let id = inst.id(i)?;
        if self.cx.follows_spec_default(id) {
            self.cx.warn(
                inst,
                format!("semantics %{id} is a specialization constant: using seq_cst"),
            );
            return Ok(0x10);
        }
        match self.cx.const_int(id) {
            Some(v) => Ok(v as u32),
            None => {
                self.cx.warn(
                    inst,
                    format!("semantics %{id} is not a constant: using seq_cst"),
                );
                Ok(0x10 | 0x40 | 0x100 | 0x200 | 0x400 | 0x800)
            }
        }
    }

    /// Scope and ordering of an atomic (scope at `i`, semantics at `i + 1`); also
    /// records the atomic's tags for [`FnCtx::tag_atomic`].
    fn atomic_sync(&mut self, inst: &Inst, i: usize) -> Result<(SyncScope, Ordering), Error> {
        let (scope, widened) = self.scope_operand(inst, i)?;
        let sem = self.semantics_operand(inst, i + 1)?;
        let ord = if widened {
            Ordering::SeqCst
        } else {
            ordering(sem).unwrap_or(Ordering::Monotonic)
        };
        self.pending_atomic_tags = self.atomic_tags(ord, sem);
        Ok((sync_scope(scope, self.cx.opts.target), ord))
    }

    /// Tags of an atomic: `vulkan:nonprivate` (Vulkan memory model), plus the semantics'
    /// `sync-as` tags when it is ordered.
    fn atomic_tags(&self, ord: Ordering, sem: u32) -> TagSet {
        if ord == Ordering::Monotonic {
            TagSet::from_tags(self.cx.vulkan_tag(true))
        } else {
            self.cx.sync_tags(sem, false)
        }
    }

    /// Attaches the tags recorded by the last [`FnCtx::atomic_sync`] to the last instruction.
    fn tag_atomic(&mut self) {
        let tags = std::mem::take(&mut self.pending_atomic_tags);
        self.tag_last(&tags);
    }

    /// Emits a fence with the tags of its semantics.
    fn fence(&mut self, ord: Ordering, scope: SyncScope, sem: u32) {
        self.emit_void(InstKind::Fence { ord, scope });
        let tags = self.cx.sync_tags(sem, true);
        self.tag_last(&tags);
    }

    /// Natural alignment of a scalar type in bytes.
    fn natural_align(&self, t: TypeId) -> u32 {
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
    pub fn pointee(&self, ptr: u32) -> Result<u32, Error> {
        match self.cx.spv_ty(self.vty(ptr)?)? {
            SpvTy::Pointer { pointee, .. } => Ok(*pointee),
            _ => Err(crate::error::invalid(format!("%{ptr} is not a pointer"))),
        }
    }

    /// Lowers memory instructions; returns false if `inst` is not one.
    pub fn lower_memory(&mut self, inst: &Inst) -> Result<bool, Error> {
        match inst.op {
            Op::Variable => self.variable(inst)?,
            Op::Load => {
                let ptr = inst.id(0)?;
                let a = memory_access(inst, 1);
                let p = self.val(ptr)?;
                let shape = self.ptr_shape(ptr)?;
                let tags = self.access_tags(p, a.nonprivate);
                if !self.cx.layouts.is_direct(shape) {
                    // A laid-out aggregate: member by member (layout.rs).
                    let v = self.load_shaped(p, shape, &a, &tags)?;
                    return self.define(inst, v).map(|()| true);
                }
                let ty = self.cx.llty(inst.rty()?)?;
                let align = a.align.or_else(|| self.layout_align(shape));
                self.emit_result(
                    inst,
                    InstKind::Load {
                        ty,
                        ptr: p,
                        align,
                        volatile: a.volatile,
                        atomic: None,
                    },
                )?;
                self.tag_last(&tags);
            }
            Op::Store => {
                let ptr = inst.id(0)?;
                let a = memory_access(inst, 2);
                let (p, v) = (self.val(ptr)?, self.val(inst.id(1)?)?);
                let shape = self.ptr_shape(ptr)?;
                let tags = self.access_tags(p, a.nonprivate);
                self.store_shaped(p, shape, v, &a, &tags)?;
            }
            Op::CopyMemory => {
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
                    return Ok(true);
                }
                let ty = self.cx.layouts.get(sshape).mem;
                let v = self.emit(
                    "copy",
                    ty,
                    InstKind::Load {
                        ty,
                        ptr: s,
                        align: b.align,
                        volatile: b.volatile,
                        atomic: None,
                    },
                );
                let load_tags = TagSet::from_tags(vk.iter().cloned().chain(self.space_tag(s)));
                self.tag_last(&load_tags);
                self.emit_void(InstKind::Store {
                    val: v,
                    ptr: d,
                    align: a.align,
                    volatile: a.volatile,
                    atomic: None,
                });
                let store_tags = TagSet::from_tags(vk.iter().cloned().chain(self.space_tag(d)));
                self.tag_last(&store_tags);
            }
            Op::CopyMemorySized => {
                let (d, s, n) = (
                    self.val(inst.id(0)?)?,
                    self.val(inst.id(1)?)?,
                    self.val(inst.id(2)?)?,
                );
                let (a, b) = copy_accesses(inst, 3);
                let vol = self.bool_const(a.volatile || b.volatile);
                let tys = [self.ll_type_of(d), self.ll_type_of(s), self.ll_type_of(n)];
                let void = self.cx.m.ty(Type::Void);
                self.intrinsic("memcpy", &tys, void, vec![d, s, n, vol])?;
                let vk = self.copy_vulkan_tags(a, b);
                let tags = TagSet::from_tags(
                    vk.into_iter()
                        .chain(self.space_tag(s))
                        .chain(self.space_tag(d)),
                );
                self.tag_last(&tags);
            }
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain => self.access_chain(inst)?,
            Op::PtrEqual | Op::PtrNotEqual => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let pred = if inst.op == Op::PtrEqual {
                    crate::llvm::IPred::Eq
                } else {
                    crate::llvm::IPred::Ne
                };
                self.emit_result(inst, InstKind::ICmp { pred, a, b })?;
            }
            Op::PtrDiff => {
                let rty = self.cx.llty(inst.rty()?)?;
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
                        flags: "",
                        a: ai,
                        b: bi,
                    },
                );
                // Divide by the element size, computed with the null-GEP idiom.
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
                        indices: vec![one],
                    },
                );
                let size = self.emit(
                    "t",
                    rty,
                    InstKind::Cast {
                        op: CastOp::PtrToInt,
                        v: end,
                        to: rty,
                    },
                );
                self.emit_result(
                    inst,
                    InstKind::Bin {
                        op: crate::llvm::BinOp::SDiv,
                        flags: "exact ",
                        a: d,
                        b: size,
                    },
                )?;
            }
            Op::AtomicLoad | Op::AtomicStore | Op::AtomicFlagClear
                if self.cx.backend_workarounds() =>
            {
                // LLVM 22's SPIR-V backend drops the atomicity of `load/store atomic`; its
                // builtin forms keep scope and semantics exactly.
                self.atomic_sync(inst, 1)?;
                self.lower_generic_builtin(inst)?;
                self.tag_atomic();
            }
            Op::AtomicLoad => {
                let (scope, ord) = self.atomic_sync(inst, 1)?;
                let ord = match ord {
                    Ordering::AcqRel => Ordering::Acquire,
                    Ordering::Release => Ordering::Monotonic,
                    o => o,
                };
                if ord == Ordering::Monotonic {
                    // Clamped to relaxed: it orders nothing, so it gets a relaxed atomic's tags.
                    self.pending_atomic_tags = self.atomic_tags(Ordering::Monotonic, 0);
                }
                let ty = self.cx.llty(inst.rty()?)?;
                let ptr = self.val(inst.id(0)?)?;
                let align = Some(self.natural_align(ty));
                self.emit_result(
                    inst,
                    InstKind::Load {
                        ty,
                        ptr,
                        align,
                        volatile: false,
                        atomic: Some((ord, scope)),
                    },
                )?;
                self.tag_atomic();
            }
            Op::AtomicStore => {
                let (scope, ord) = self.atomic_sync(inst, 1)?;
                let ord = match ord {
                    Ordering::AcqRel => Ordering::Release,
                    Ordering::Acquire => Ordering::Monotonic,
                    o => o,
                };
                if ord == Ordering::Monotonic {
                    // Clamped to relaxed: it orders nothing, so it gets a relaxed atomic's tags.
                    self.pending_atomic_tags = self.atomic_tags(Ordering::Monotonic, 0);
                }
                let (ptr, val) = (self.val(inst.id(0)?)?, self.val(inst.id(3)?)?);
                let align = Some(self.natural_align(self.ll_type_of(val)));
                self.emit_void(InstKind::Store {
                    val,
                    ptr,
                    align,
                    volatile: false,
                    atomic: Some((ord, scope)),
                });
                self.tag_atomic();
            }
            Op::AtomicExchange
            | Op::AtomicIAdd
            | Op::AtomicISub
            | Op::AtomicSMin
            | Op::AtomicUMin
            | Op::AtomicSMax
            | Op::AtomicUMax
            | Op::AtomicAnd
            | Op::AtomicOr
            | Op::AtomicXor
            | Op::AtomicFAddEXT
            | Op::AtomicFMinEXT
            | Op::AtomicFMaxEXT
            | Op::AtomicIIncrement
            | Op::AtomicIDecrement => self.atomic_rmw(inst)?,
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => {
                let (scope, success) = self.atomic_sync(inst, 1)?;
                let unequal = self.semantics_operand(inst, 3)?;
                let equal_tags = std::mem::take(&mut self.pending_atomic_tags);
                let unequal_ord = ordering(unequal).unwrap_or(Ordering::Monotonic);
                let unequal_tags = self.atomic_tags(unequal_ord, unequal);
                self.pending_atomic_tags =
                    TagSet::from_tags(equal_tags.iter().chain(unequal_tags.iter()).cloned());
                let failure = match ordering(unequal).unwrap_or(Ordering::Monotonic) {
                    Ordering::Release => Ordering::Monotonic,
                    Ordering::AcqRel => Ordering::Acquire,
                    o => o,
                };
                let ptr = self.val(inst.id(0)?)?;
                let (new, cmp) = (self.val(inst.id(4)?)?, self.val(inst.id(5)?)?);
                let ty = self.cx.llty(inst.rty()?)?;
                let align = self.natural_align(ty);
                let i1 = self.cx.m.ty(Type::Int(1));
                let pair = self.cx.m.ty(Type::Struct(vec![ty, i1]));
                let r = self.emit(
                    "cx",
                    pair,
                    InstKind::CmpXchg {
                        ptr,
                        cmp,
                        new,
                        success,
                        failure,
                        scope,
                        weak: false,
                        align,
                        volatile: false,
                    },
                );
                self.tag_atomic();
                self.emit_result(inst, InstKind::ExtractValue { v: r, idx: vec![0] })?;
            }
            Op::AtomicFlagTestAndSet => {
                let (scope, ord) = self.atomic_sync(inst, 1)?;
                let ptr = self.val(inst.id(0)?)?;
                let i32t = self.cx.m.ty(Type::Int(32));
                let one = self.cx.i32_val(1);
                let old = self.emit(
                    "t",
                    i32t,
                    InstKind::AtomicRmw {
                        op: RmwOp::Xchg,
                        ptr,
                        val: one,
                        ord,
                        scope,
                        align: 4,
                        volatile: false,
                    },
                );
                self.tag_atomic();
                let zero = self.cx.i32_val(0);
                self.emit_result(
                    inst,
                    InstKind::ICmp {
                        pred: crate::llvm::IPred::Ne,
                        a: old,
                        b: zero,
                    },
                )?;
            }
            Op::AtomicFlagClear => {
                let (scope, ord) = self.atomic_sync(inst, 1)?;
                let ord = match ord {
                    Ordering::AcqRel => Ordering::Release,
                    Ordering::Acquire => Ordering::Monotonic,
                    o => o,
                };
                if ord == Ordering::Monotonic {
                    // Clamped to relaxed: it orders nothing, so it gets a relaxed atomic's tags.
                    self.pending_atomic_tags = self.atomic_tags(Ordering::Monotonic, 0);
                }
                let ptr = self.val(inst.id(0)?)?;
                let zero = self.cx.i32_val(0);
                self.emit_void(InstKind::Store {
                    val: zero,
                    ptr,
                    align: Some(4),
                    volatile: false,
                    atomic: Some((ord, scope)),
                });
                self.tag_atomic();
            }
            Op::MemoryBarrier => {
                let (scope, widened) = self.scope_operand(inst, 0)?;
                let sem = self.semantics_operand(inst, 1)?;
                let ord = if widened {
                    Some(Ordering::SeqCst)
                } else {
                    ordering(sem)
                };
                if let Some(ord) = ord {
                    let scope = sync_scope(scope, self.cx.opts.target);
                    self.fence(ord, scope, sem);
                }
            }
            Op::ControlBarrier => self.control_barrier(inst)?,
            _ => return Ok(false),
        }
        Ok(true)
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
        let ty = self.cx.layouts.get(shape).mem;
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
        if let Some(Operand::IdRef(init)) = inst.operands.get(1) {
            let v = self.val(*init)?;
            let tags = self.access_tags(p, false);
            let access = Access {
                align,
                ..Access::default()
            };
            self.store_shaped(p, shape, v, &access, &tags)?;
        }
        Ok(())
    }

    fn atomic_rmw(&mut self, inst: &Inst) -> Result<(), Error> {
        let (scope, ord) = self.atomic_sync(inst, 1)?;
        let ptr = self.val(inst.id(0)?)?;
        let ty = self.cx.llty(inst.rty()?)?;
        let (op, val) = match inst.op {
            Op::AtomicIIncrement => (RmwOp::Add, Value::Const(self.cx.int_const(ty, 1))),
            Op::AtomicIDecrement => (RmwOp::Sub, Value::Const(self.cx.int_const(ty, 1))),
            op => {
                let v = self.val(inst.id(3)?)?;
                let r = match op {
                    Op::AtomicExchange => RmwOp::Xchg,
                    Op::AtomicIAdd => RmwOp::Add,
                    Op::AtomicISub => RmwOp::Sub,
                    Op::AtomicSMin => RmwOp::Min,
                    Op::AtomicUMin => RmwOp::UMin,
                    Op::AtomicSMax => RmwOp::Max,
                    Op::AtomicUMax => RmwOp::UMax,
                    Op::AtomicAnd => RmwOp::And,
                    Op::AtomicOr => RmwOp::Or,
                    Op::AtomicXor => RmwOp::Xor,
                    Op::AtomicFAddEXT => RmwOp::FAdd,
                    Op::AtomicFMinEXT => RmwOp::FMin,
                    _ => RmwOp::FMax,
                };
                (r, v)
            }
        };
        let align = self.natural_align(ty);
        self.emit_result(
            inst,
            InstKind::AtomicRmw {
                op,
                ptr,
                val,
                ord,
                scope,
                align,
                volatile: false,
            },
        )?;
        self.tag_atomic();
        Ok(())
    }

    fn control_barrier(&mut self, inst: &Inst) -> Result<(), Error> {
        let (exec, _) = self.scope_operand(inst, 0)?;
        let (mem, widened) = self.scope_operand(inst, 1)?;
        let sem = self.semantics_operand(inst, 2)?;
        let ord = if widened {
            Some(Ordering::SeqCst)
        } else {
            ordering(sem)
        };
        let scope = sync_scope(mem, self.cx.opts.target);
        let releases = matches!(
            ord,
            Some(Ordering::Release | Ordering::AcqRel | Ordering::SeqCst)
        );
        let acquires = matches!(
            ord,
            Some(Ordering::Acquire | Ordering::AcqRel | Ordering::SeqCst)
        );
        if releases {
            self.fence(Ordering::Release, scope.clone(), sem);
        }
        match self.cx.opts.target {
            Target::Generic | Target::Host => {
                let args = [
                    self.i32_arg(u64::from(exec)),
                    self.i32_arg(u64::from(mem)),
                    self.i32_arg(0),
                ];
                self.call_builtin(inst, "__spirv_ControlBarrier", &args, None, true)?;
            }
            Target::Amdgcn => {
                let void = self.cx.m.ty(Type::Void);
                let name = if exec == Scope::Subgroup as u32 {
                    "amdgcn.wave.barrier"
                } else {
                    "amdgcn.s.barrier"
                };
                self.intrinsic(name, &[], void, Vec::new())?;
            }
        }
        if acquires {
            self.fence(Ordering::Acquire, scope, sem);
        }
        Ok(())
    }
}
