//! Scope and memory-semantics operands, and what they become in LLVM (SPEC §4.1):
//! Acquire → `acquire`, Release → `release`, AcquireRelease → `acq_rel`,
//! SequentiallyConsistent → `seq_cst`; SPIR-V scopes → `syncscope`s per profile. A scope
//! or semantics that is not a known constant widens (system scope, `seq_cst`).

use super::func::FnCtx;
use crate::Target;
use crate::llvm::{Ordering, SyncScope};
use crate::spirv::Inst;
use crate::spirv::SpvId;
use ::spirv::{MemorySemantics, Scope};

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
    match (s, target) {
        (Some(Scope::Invocation), _) => SyncScope::SingleThread,
        (Some(Scope::Subgroup), Target::Generic | Target::Host) => SyncScope::Subgroup,
        (Some(Scope::Subgroup), Target::Amdgcn) => SyncScope::Wavefront,
        (Some(Scope::Workgroup), _) => SyncScope::Workgroup,
        (Some(Scope::Device | Scope::QueueFamily), Target::Generic | Target::Host) => {
            SyncScope::Device
        }
        (Some(Scope::Device | Scope::QueueFamily), Target::Amdgcn) => SyncScope::Agent,
        _ => SyncScope::System,
    }
}

impl FnCtx<'_, '_> {
    /// Reads a scope operand; a non-constant one, or a specialization constant left at its
    /// default (which may change after translation), widens to system scope. A
    /// specialization constant whose value was set is a known scope.
    pub(super) fn scope_operand(&mut self, inst: &Inst, id: SpvId) -> (u32, bool) {
        if self.cx.follows_spec_default(id) {
            self.cx.warn(
                inst,
                format!("scope %{id} is a specialization constant: using system scope"),
            );
            return (Scope::CrossDevice as u32, true);
        }
        match self.cx.const_int(id) {
            Some(v) => (v as u32, false),
            None => {
                self.cx.warn(
                    inst,
                    format!("scope %{id} is not a constant: using system scope"),
                );
                (Scope::CrossDevice as u32, true)
            }
        }
    }

    /// Reads a semantics operand; a non-constant one widens to `SequentiallyConsistent`
    /// over all storage classes, a specialization constant left at its default to
    /// `SequentiallyConsistent`. A specialization constant whose value was set is known.
    pub(super) fn semantics_operand(&mut self, inst: &Inst, id: SpvId) -> u32 {
        if self.cx.follows_spec_default(id) {
            self.cx.warn(
                inst,
                format!("semantics %{id} is a specialization constant: using seq_cst"),
            );
            return 0x10;
        }
        match self.cx.const_int(id) {
            Some(v) => v as u32,
            None => {
                self.cx.warn(
                    inst,
                    format!("semantics %{id} is not a constant: using seq_cst"),
                );
                0x10 | 0x40 | 0x100 | 0x200 | 0x400 | 0x800
            }
        }
    }
}
