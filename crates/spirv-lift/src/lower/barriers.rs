//! Barriers (SPEC §4.2): `OpMemoryBarrier` is one fence; `OpControlBarrier` is a release
//! fence, the execution barrier (`__spirv_ControlBarrier`, or on amdgcn
//! `llvm.amdgcn.s.barrier` / `wave.barrier`), then an acquire fence. Fences carry their
//! semantics' `sync-as` tags.

use super::func::FnCtx;
use super::semantics::{ordering, sync_scope};
use super::types::addrspace;
use crate::Target;
use crate::error::Error;
use crate::llvm::{InstKind, Ordering, SyncScope, Type};
use crate::spirv::opclass::BarrierOperands;
use crate::spirv::{Inst, Op};
use ::spirv::Scope;

impl FnCtx<'_, '_> {
    /// Lowers a barrier ([`OpClass::Barrier`](crate::spirv::opclass::OpClass)).
    pub(super) fn lower_barrier(&mut self, inst: &Inst) -> Result<(), Error> {
        match inst.op {
            Op::MemoryBarrier => self.memory_barrier(inst),
            Op::ControlBarrier => self.control_barrier(inst),
            _ => Err(inst.unsupported()),
        }
    }

    /// `OpMemoryBarrier`: one fence, none when the semantics order nothing.
    fn memory_barrier(&mut self, inst: &Inst) -> Result<(), Error> {
        let ops = BarrierOperands::read(inst)?;
        let (scope, widened) = self.scope_operand(inst, ops.memory);
        let sem = self.semantics_operand(inst, ops.semantics);
        let ord = if widened {
            Some(Ordering::SeqCst)
        } else {
            ordering(sem)
        };
        if let Some(ord) = ord {
            let scope = sync_scope(scope, self.cx.opts.target);
            self.fence(ord, scope, sem);
        }
        Ok(())
    }

    /// Emits a fence with the tags of its semantics.
    fn fence(&mut self, ord: Ordering, scope: SyncScope, sem: u32) {
        let tags = self.cx.sync_tags(sem, true);
        self.emit_void_tagged(InstKind::Fence { ord, scope }, &tags);
    }

    fn control_barrier(&mut self, inst: &Inst) -> Result<(), Error> {
        let ops = BarrierOperands::read(inst)?;
        let execution = ops.execution.ok_or_else(|| inst.err("missing operand 0"))?;
        let (exec, _) = self.scope_operand(inst, execution);
        let (mem, widened) = self.scope_operand(inst, ops.memory);
        let sem = self.semantics_operand(inst, ops.semantics);
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
            self.fence(Ordering::Release, scope, sem);
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

    /// `OpEmitMeshTasksEXT` (a terminator of task shaders): it is also an
    /// `OpControlBarrier` with Workgroup scopes and WorkgroupMemory | AcquireRelease
    /// semantics, and nothing after it has an effect. So: a release fence at workgroup
    /// scope (tagged for workgroup memory and the task payload, which the mesh shaders
    /// read), the convergent call `__spirv_EmitMeshTasksEXT(x, y, z[, payload])`, then
    /// `unreachable`.
    pub(super) fn emit_mesh_tasks(&mut self, inst: &Inst) -> Result<(), Error> {
        use ::spirv::MemorySemantics as M;
        let sem = (M::WORKGROUP_MEMORY | M::ACQUIRE_RELEASE).bits();
        let scope = sync_scope(Scope::Workgroup as u32, self.cx.opts.target);
        let mut tags = self.cx.sync_tags(sem, true);
        if let Ok(a) = addrspace(
            ::spirv::StorageClass::TaskPayloadWorkgroupEXT,
            self.cx.opts.target,
        ) {
            tags.insert(super::tags::space_tag(a));
        }
        self.emit_void_tagged(
            InstKind::Fence {
                ord: Ordering::Release,
                scope,
            },
            &tags,
        );
        self.lower_generic_builtin(inst)?;
        self.emit_void(InstKind::Unreachable);
        Ok(())
    }
}
