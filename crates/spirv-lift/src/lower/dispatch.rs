//! The dispatch: which handler lowers each instruction, in a function body
//! ([`FnCtx::lower_inst`]) and at module level ([`Ctx::lower_global_inst`]).
//!
//! [`opclass::class`] sorts every opcode into one class (explicit lists, written once for
//! the checks and the lowering); this `match` names the one handler of each class. A
//! profile's differences (amdgcn, host, `--spirv-backend-workarounds`) are decided inside
//! the handlers, never by the order of a chain. A new opcode goes into its class in
//! `spirv/opclass.rs` and into the `match` of that class's handler.

use super::Ctx;
use super::func::FnCtx;
use crate::error::Error;
use crate::spirv::opclass::{self, OpClass};
use crate::spirv::{Inst, Op};

impl FnCtx<'_, '_> {
    /// Lowers one instruction of a function body.
    pub(super) fn lower_inst(&mut self, inst: &Inst) -> Result<(), Error> {
        let Some(class) = opclass::class(inst.op) else {
            return Err(inst.unsupported());
        };
        // A cooperative matrix has no LLVM arithmetic: its instructions are calls
        // (`coop.rs`), whichever class they belong to.
        if self.computes_on_coop_matrix(inst) {
            return self.lower_generic_builtin(inst);
        }
        match class {
            OpClass::NoCode => Ok(()),
            OpClass::Control => self.lower_control(inst),
            OpClass::Copy => self.lower_copy(inst),
            OpClass::ExtInst => self.lower_ext_inst(inst),
            OpClass::Memory => self.lower_memory(inst),
            OpClass::Atomic(kind) => self.lower_atomic(inst, kind),
            OpClass::Barrier => self.lower_barrier(inst),
            OpClass::Arithmetic => self.lower_arithmetic(inst),
            OpClass::Relational => self.lower_relational(inst),
            OpClass::Conversion => self.lower_conversion(inst),
            OpClass::Composite => self.lower_composite(inst),
            OpClass::Matrix => self.lower_matrix(inst),
            OpClass::Hint => self.lower_hint(inst),
            OpClass::Convergent => self.lower_convergent(inst),
            OpClass::Builtin => match inst.op {
                Op::CooperativeMatrixLengthKHR | Op::CooperativeMatrixLengthNV => {
                    self.coop_matrix_length(inst)
                }
                _ => self.lower_generic_builtin(inst),
            },
        }
    }

    /// A convergent operation: on amdgcn, a subgroup operation with a wave intrinsic
    /// (`wave.rs`); otherwise, and for the rest, a convergent `__spirv_*` builtin call.
    fn lower_convergent(&mut self, inst: &Inst) -> Result<(), Error> {
        if self.lower_amdgcn_subgroup(inst)? {
            return Ok(());
        }
        match inst.op {
            Op::CooperativeMatrixLoadKHR
            | Op::CooperativeMatrixStoreKHR
            | Op::CooperativeMatrixLoadNV
            | Op::CooperativeMatrixStoreNV => self.coop_matrix_memory(inst),
            _ => self.lower_generic_builtin(inst),
        }
    }
}

impl Ctx<'_> {
    /// Lowers one module-level instruction: a type (`types.rs`), a constant
    /// (`consts.rs`), a global variable (`globals.rs`).
    pub(crate) fn lower_global_inst(&mut self, inst: &Inst) -> Result<(), Error> {
        match inst.op {
            op if crate::spirv::is_type_op(op) => self.lower_type(inst),
            op if crate::spirv::is_constant_op(op) => self.lower_constant(inst),
            Op::Variable => self.lower_global_variable(inst),
            Op::Line | Op::NoLine | Op::Nop => Ok(()),
            Op::ExtInst => {
                let set = inst.id(0)?;
                match self.spv.module_facts.ext_set(set) {
                    Some(super::ExtSet::NonSemantic) => Ok(()),
                    _ => Err(inst.unsupported_form("module-level OpExtInst of a semantic set")),
                }
            }
            _ => Err(inst.unsupported()),
        }
    }
}
