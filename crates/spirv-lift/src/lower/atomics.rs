//! Atomics (SPEC §4.1): `load atomic` / `store atomic` (orderings clamped where LLVM
//! requires it), `atomicrmw`, `cmpxchg`, the flag instructions; each tagged with its
//! semantics' `sync-as` tags (or a relaxed atomic's `vulkan:nonprivate`). With
//! `--spirv-backend-workarounds`, atomic loads, stores and flag clears are builtin calls.

use super::func::FnCtx;
use super::semantics::{ordering, sync_scope};
use crate::error::Error;
use crate::llvm::{InstKind, Ordering, RmwOp, SyncScope, Type, Value};
use crate::mmra::TagSet;
use crate::spirv::Inst;
use crate::spirv::opclass::{Atomic, AtomicOperands, Rmw};

/// The `Volatile` bit of memory semantics: the atomic becomes a `volatile` one.
const VOLATILE: u32 = 0x8000;

/// How an atomic synchronizes: its scope, its ordering, its tags, and whether its
/// semantics say `Volatile`.
struct Sync {
    scope: SyncScope,
    ord: Ordering,
    tags: TagSet,
    volatile: bool,
}

impl FnCtx<'_, '_> {
    /// Lowers an atomic instruction ([`OpClass::Atomic`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_atomic(&mut self, inst: &Inst, kind: Atomic) -> Result<(), Error> {
        let ops = AtomicOperands::read(inst, kind)?;
        match kind {
            Atomic::Load | Atomic::Store | Atomic::FlagClear if self.cx.backend_workarounds() => {
                // LLVM 22's SPIR-V backend drops the atomicity of `load/store atomic`; its
                // builtin forms keep scope and semantics exactly.
                let sync = self.atomic_sync(inst, &ops);
                self.lower_generic_builtin_tagged(inst, Some(&sync.tags))?;
                Ok(())
            }
            Atomic::Load => self.atomic_load(inst, &ops),
            Atomic::Store => self.atomic_store(inst, &ops),
            Atomic::Rmw(rmw) => self.atomic_rmw(inst, &ops, rmw),
            Atomic::CompareExchange => self.atomic_compare_exchange(inst, &ops),
            Atomic::FlagTestAndSet => self.atomic_flag_test_and_set(inst, &ops),
            Atomic::FlagClear => self.atomic_flag_clear(inst, &ops),
        }
    }

    /// `OpAtomicLoad`: `load atomic`; a release ordering is clamped away.
    fn atomic_load(&mut self, inst: &Inst, ops: &AtomicOperands) -> Result<(), Error> {
        let Sync {
            scope,
            ord,
            mut tags,
            volatile,
        } = self.atomic_sync(inst, ops);
        let ord = match ord {
            Ordering::AcqRel => Ordering::Acquire,
            Ordering::Release => Ordering::Monotonic,
            o => o,
        };
        if ord == Ordering::Monotonic {
            // Clamped to relaxed: it orders nothing, so it gets a relaxed atomic's tags.
            tags = self.atomic_tags(Ordering::Monotonic, 0);
        }
        let ty = self.cx.llty(inst.rty()?)?;
        let ptr = self.val(ops.pointer)?;
        let align = Some(self.natural_align(ty));
        self.emit_result_tagged(
            inst,
            InstKind::Load {
                ty,
                ptr,
                align,
                volatile,
                atomic: Some((ord, scope)),
            },
            &tags,
        )?;
        Ok(())
    }

    /// The scope, ordering and tags of an atomic store (`OpAtomicStore`,
    /// `OpAtomicFlagClear`): a store cannot acquire, so acquire is clamped away, and a
    /// store clamped to relaxed orders nothing and gets a relaxed atomic's tags.
    fn store_sync(&mut self, inst: &Inst, ops: &AtomicOperands) -> Sync {
        let mut sync = self.atomic_sync(inst, ops);
        sync.ord = match sync.ord {
            Ordering::AcqRel => Ordering::Release,
            Ordering::Acquire => Ordering::Monotonic,
            o => o,
        };
        if sync.ord == Ordering::Monotonic {
            sync.tags = self.atomic_tags(Ordering::Monotonic, 0);
        }
        sync
    }

    /// `OpAtomicStore`: `store atomic`; an acquire ordering is clamped away.
    fn atomic_store(&mut self, inst: &Inst, ops: &AtomicOperands) -> Result<(), Error> {
        let sync = self.store_sync(inst, ops);
        let value = ops.value.ok_or_else(|| inst.err("missing operand 3"))?;
        let (ptr, val) = (self.val(ops.pointer)?, self.val(value)?);
        let align = Some(self.natural_align(self.ll_type_of(val)));
        self.emit_void_tagged(
            InstKind::Store {
                val,
                ptr,
                align,
                volatile: sync.volatile,
                atomic: Some((sync.ord, sync.scope)),
            },
            &sync.tags,
        );
        Ok(())
    }

    /// `OpAtomicCompareExchange[Weak]`: `cmpxchg` (strong), its first member the result; the
    /// failure ordering is the Unequal semantics', clamped.
    fn atomic_compare_exchange(&mut self, inst: &Inst, ops: &AtomicOperands) -> Result<(), Error> {
        let Sync {
            scope,
            ord: success,
            tags: equal_tags,
            volatile,
        } = self.atomic_sync(inst, ops);
        let unequal = ops.unequal.ok_or_else(|| inst.err("missing operand 3"))?;
        let unequal = self.semantics_operand(inst, unequal);
        // Volatile when either semantics says so (the memory model asks for both).
        let volatile = volatile || unequal & VOLATILE != 0;
        let unequal_ord = ordering(unequal).unwrap_or(Ordering::Monotonic);
        let unequal_tags = self.atomic_tags(unequal_ord, unequal);
        let tags = TagSet::from_tags(equal_tags.iter().chain(unequal_tags.iter()).cloned());
        let failure = match ordering(unequal).unwrap_or(Ordering::Monotonic) {
            Ordering::Release => Ordering::Monotonic,
            Ordering::AcqRel => Ordering::Acquire,
            o => o,
        };
        let ptr = self.val(ops.pointer)?;
        let (new, cmp) = match (ops.value, ops.comparator) {
            (Some(v), Some(c)) => (self.val(v)?, self.val(c)?),
            _ => return Err(inst.err("missing operand 4")),
        };
        let ty = self.cx.llty(inst.rty()?)?;
        let align = self.natural_align(ty);
        let i1 = self.cx.m.ty(Type::Int(1));
        let pair = self.cx.m.ty(Type::Struct(vec![ty, i1]));
        let r = self.emit_tagged(
            "cx",
            pair,
            InstKind::CmpXchg(Box::new(crate::llvm::CmpXchgInst {
                ptr,
                cmp,
                new,
                success,
                failure,
                scope,
                weak: false,
                align,
                volatile,
            })),
            &tags,
        );
        self.emit_result(
            inst,
            InstKind::ExtractValue {
                v: r,
                idx: Box::new([0]),
            },
        )?;
        Ok(())
    }

    /// `OpAtomicFlagTestAndSet`: an exchange of 1 into the `i32` flag, compared with 0.
    fn atomic_flag_test_and_set(&mut self, inst: &Inst, ops: &AtomicOperands) -> Result<(), Error> {
        let sync = self.atomic_sync(inst, ops);
        let ptr = self.val(ops.pointer)?;
        let i32t = self.cx.m.ty(Type::Int(32));
        let one = self.cx.i32_val(1);
        let old = self.emit_tagged(
            "t",
            i32t,
            InstKind::AtomicRmw {
                op: RmwOp::Xchg,
                ptr,
                val: one,
                ord: sync.ord,
                scope: sync.scope,
                align: 4,
                volatile: sync.volatile,
            },
            &sync.tags,
        );
        let zero = self.cx.i32_val(0);
        self.emit_result(
            inst,
            InstKind::ICmp {
                pred: crate::llvm::IPred::Ne,
                a: old,
                b: zero,
            },
        )?;
        Ok(())
    }

    /// `OpAtomicFlagClear`: a `store atomic` of 0 into the `i32` flag.
    fn atomic_flag_clear(&mut self, inst: &Inst, ops: &AtomicOperands) -> Result<(), Error> {
        let sync = self.store_sync(inst, ops);
        let ptr = self.val(ops.pointer)?;
        let zero = self.cx.i32_val(0);
        self.emit_void_tagged(
            InstKind::Store {
                val: zero,
                ptr,
                align: Some(4),
                volatile: sync.volatile,
                atomic: Some((sync.ord, sync.scope)),
            },
            &sync.tags,
        );
        Ok(())
    }

    /// A read-modify-write: `atomicrmw` (increments and decrements add or subtract 1).
    fn atomic_rmw(&mut self, inst: &Inst, ops: &AtomicOperands, rmw: Rmw) -> Result<(), Error> {
        let sync = self.atomic_sync(inst, ops);
        let value = || ops.value.ok_or_else(|| inst.err("missing operand 3"));
        let ptr = self.val(ops.pointer)?;
        let ty = self.cx.llty(inst.rty()?)?;
        let (op, val) = match rmw {
            Rmw::IIncrement => (RmwOp::Add, Value::Const(self.cx.int_const(ty, 1))),
            Rmw::IDecrement => (RmwOp::Sub, Value::Const(self.cx.int_const(ty, 1))),
            Rmw::Exchange => (RmwOp::Xchg, self.val(value()?)?),
            Rmw::IAdd => (RmwOp::Add, self.val(value()?)?),
            Rmw::ISub => (RmwOp::Sub, self.val(value()?)?),
            Rmw::SMin => (RmwOp::Min, self.val(value()?)?),
            Rmw::UMin => (RmwOp::UMin, self.val(value()?)?),
            Rmw::SMax => (RmwOp::Max, self.val(value()?)?),
            Rmw::UMax => (RmwOp::UMax, self.val(value()?)?),
            Rmw::And => (RmwOp::And, self.val(value()?)?),
            Rmw::Or => (RmwOp::Or, self.val(value()?)?),
            Rmw::Xor => (RmwOp::Xor, self.val(value()?)?),
            Rmw::FAdd => (RmwOp::FAdd, self.val(value()?)?),
            Rmw::FMin => (RmwOp::FMin, self.val(value()?)?),
            Rmw::FMax => (RmwOp::FMax, self.val(value()?)?),
        };
        let align = self.natural_align(ty);
        self.emit_result_tagged(
            inst,
            InstKind::AtomicRmw {
                op,
                ptr,
                val,
                ord: sync.ord,
                scope: sync.scope,
                align,
                volatile: sync.volatile,
            },
            &sync.tags,
        )?;
        Ok(())
    }

    /// Scope and ordering of an atomic; also the atomic's tags, which go on the
    /// instruction it becomes.
    fn atomic_sync(&mut self, inst: &Inst, ops: &AtomicOperands) -> Sync {
        let (scope, widened) = self.scope_operand(inst, ops.scope);
        let sem = self.semantics_operand(inst, ops.semantics);
        let ord = if widened {
            Ordering::SeqCst
        } else {
            ordering(sem).unwrap_or(Ordering::Monotonic)
        };
        let tags = self.atomic_tags(ord, sem);
        Sync {
            scope: sync_scope(scope, self.cx.opts.target),
            ord,
            tags,
            volatile: sem & VOLATILE != 0,
        }
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
}
