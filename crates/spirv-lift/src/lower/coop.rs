//! Cooperative matrices (`SPV_KHR_cooperative_matrix`, `SPV_NV_cooperative_matrix`).
//!
//! A matrix is `target("spirv.CooperativeMatrixKHR", component, scope, rows, columns,
//! use)` (`…NV` without the use), a value LLVM can hold, load, store, select and pass but
//! not compute with. So everything that computes on one is a `__spirv_<Op>` call, as for
//! LLVM's SPIR-V backend: the load, store and multiply-add (convergent: the extensions
//! require the whole scope to execute them), the length (a property of the type), and
//! the arithmetic, conversions and composite instructions applied to a matrix (each
//! invocation's own elements: not convergent). A constant matrix
//! (`OpConstantComposite` of one component) is a `__spirv_CompositeConstruct` call at
//! the top of each function using it;
//! `OpConstantNull` is `zeroinitializer`. An element's address is
//! `__spirv_AccessChain` (`access.rs`).

use super::SpvTy;
use super::func::FnCtx;
use crate::error::Error;
use crate::spirv::opclass::{self, OpClass};
use crate::spirv::{Function, Inst, Op, Operand, SpvId, SpvTypeId};
use ::spirv::MemoryAccess;

impl FnCtx<'_, '_> {
    /// Whether `ty` is a cooperative-matrix type.
    pub(super) fn is_coop_matrix(&self, ty: SpvTypeId) -> bool {
        matches!(self.cx.spv_ty(ty), Ok(SpvTy::CoopMatrix { .. }))
    }

    /// Whether `inst` computes on a cooperative matrix with an instruction that has an
    /// LLVM equivalent only for scalars and vectors (arithmetic, conversions, composite
    /// instructions): it is then a builtin call ([`FnCtx::lower_generic_builtin`]).
    pub(super) fn computes_on_coop_matrix(&self, inst: &Inst) -> bool {
        if !self.cx.has_coop_matrices {
            return false;
        }
        match opclass::class(inst.op) {
            Some(OpClass::Arithmetic | OpClass::Conversion | OpClass::Matrix) => {
                inst.result_type().is_some_and(|t| self.is_coop_matrix(t))
            }
            Some(OpClass::Composite) => match inst.op {
                Op::CompositeConstruct | Op::CompositeInsert => {
                    inst.result_type().is_some_and(|t| self.is_coop_matrix(t))
                }
                Op::CompositeExtract => inst
                    .id(0)
                    .ok()
                    .and_then(|c| self.vty(c).ok())
                    .is_some_and(|t| self.is_coop_matrix(t)),
                _ => false,
            },
            _ => false,
        }
    }

    /// `OpCooperativeMatrixLoad…` / `…Store…`: the builtin call, carrying the MMRA tags
    /// of a plain access through its pointer (`vulkan:nonprivate` with the memory
    /// operand `NonPrivatePointer`, the pointer's `sync-as`), as a load or store would.
    pub(super) fn coop_matrix_memory(&mut self, inst: &Inst) -> Result<(), Error> {
        let ptr = inst.id(0)?;
        let nonprivate = inst.operands.iter().any(
            |o| matches!(o, Operand::MemoryAccess(m) if m.contains(MemoryAccess::NON_PRIVATE_POINTER)),
        );
        let p = self.val(ptr)?;
        let tags = self.access_tags(p, nonprivate);
        self.lower_generic_builtin_tagged(inst, Some(&tags))
    }

    /// `OpCooperativeMatrixLength…`, whose operand is a type: the builtin call takes a
    /// `poison` of that type, which names it in the signature.
    pub(super) fn coop_matrix_length(&mut self, inst: &Inst) -> Result<(), Error> {
        let ty = inst.type_id(0)?;
        if !self.is_coop_matrix(ty) {
            return Err(inst.invalid(format!("%{ty} is not a cooperative-matrix type")));
        }
        let t = self.cx.llty(ty)?;
        let poison = self.cx.m.constant(crate::llvm::Const::Poison(t));
        let arg = (crate::llvm::Value::Const(poison), self.mty(ty)?);
        let name = format!("__spirv_{}", inst.opname().trim_start_matches("Op"));
        self.call_builtin(inst, &name, &[arg], inst.result_type(), false)?;
        Ok(())
    }

    /// Computes at the top of the entry block each specialization constant known only at
    /// run time (the length of a cooperative matrix, what is computed from it) that this
    /// function uses, and those they are computed from, in module order.
    pub(super) fn materialize_runtime_constants(
        &mut self,
        func: &Function,
        dec: Option<&crate::spirv::BodyDecoder<'_>>,
    ) -> Result<(), Error> {
        let runtime = std::mem::take(&mut self.cx.runtime_constants);
        let result = self.lower_runtime_constants(func, dec, &runtime);
        self.cx.runtime_constants = runtime;
        result
    }

    fn lower_runtime_constants(
        &mut self,
        func: &Function,
        dec: Option<&crate::spirv::BodyDecoder<'_>>,
        runtime: &[Inst],
    ) -> Result<(), Error> {
        let ids: foldhash::HashSet<SpvId> = runtime.iter().filter_map(|r| r.result_id()).collect();
        let is_runtime = |id: SpvId| ids.contains(&id);
        let mut needed = Self::used_ids_where(func, dec, is_runtime)?;
        if needed.is_empty() {
            return Ok(());
        }
        // Operands come before their users: one backward pass closes the set.
        for r in runtime.iter().rev() {
            if r.result_id().is_some_and(|id| needed.contains(&id)) {
                needed.extend(r.used_ids().filter(|&id| is_runtime(id)));
            }
        }
        for r in runtime {
            if r.result_id().is_some_and(|id| needed.contains(&id)) {
                self.lower_inst(r)?;
            }
        }
        Ok(())
    }

    /// Calls `__spirv_CompositeConstruct(component)` at the top of the entry block for
    /// each constant cooperative matrix this function uses.
    pub(super) fn materialize_coop_constants(
        &mut self,
        func: &Function,
        dec: Option<&crate::spirv::BodyDecoder<'_>>,
    ) -> Result<(), Error> {
        let used = Self::used_ids_where(func, dec, |id| self.cx.coop_constants.contains_key(&id))?;
        for id in used {
            let Some(&(ty, component)) = self.cx.coop_constants.get(&id) else {
                continue;
            };
            let arg = self.arg(component)?;
            let construct = Inst::new(Op::CompositeConstruct, 0, Some(ty), Some(id), Box::new([]));
            self.call_builtin(
                &construct,
                "__spirv_CompositeConstruct",
                &[arg],
                Some(ty),
                false,
            )?;
        }
        Ok(())
    }
}

/// The one component of a constant cooperative matrix `inst` declares
/// (`OpConstantComposite`, `OpSpecConstantComposite`, `OpConstantCompositeReplicateEXT`):
/// every element has that value.
pub(super) fn coop_constant_component(inst: &Inst) -> Result<SpvId, Error> {
    match inst.ids_from(0)?.as_slice() {
        [c] => Ok(*c),
        ids => Err(inst.invalid(format!(
            "a constant cooperative matrix has one constituent, not {}",
            ids.len()
        ))),
    }
}
