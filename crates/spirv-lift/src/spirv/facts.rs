//! Facts about a module, gathered once when it is loaded and read by the checks and the
//! lowering alike: whether it is an OpenCL kernel module, what each extended-instruction
//! import is ([`ModuleFacts`]); per function, its calls, the module-level variables it
//! uses, whether it holds a convergent operation and its CFG analyses ([`Facts`]).

use super::{Inst, Op, Operand, SpvId};
use crate::analysis::FunctionAnalyses;

/// What an extended-instruction-set import refers to (by its name, classified once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtSet {
    /// `GLSL.std.450`.
    Glsl,
    /// `OpenCL.std`.
    OpenCl,
    /// `SPV_AMD_shader_trinary_minmax`.
    AmdTrinaryMinMax,
    /// `SPV_AMD_gcn_shader`.
    AmdGcnShader,
    /// `SPV_AMD_shader_ballot` (operations across the subgroup: convergent).
    AmdShaderBallot,
    /// `SPV_AMD_shader_explicit_vertex_parameter`.
    AmdExplicitVertexParameter,
    /// `NonSemantic.*`, `*DebugInfo.100`, `DebugInfo`: not checked, dropped.
    NonSemantic,
    /// Another name containing `DebugInfo`: its instructions' operands are not checked
    /// (they need not be ids), but the lowering does not know the set.
    OtherDebugInfo,
    /// Anything else.
    Unknown,
}

impl ExtSet {
    /// The kind of the set an `OpExtInstImport` names.
    pub fn of(name: &str) -> ExtSet {
        match name {
            "GLSL.std.450" => ExtSet::Glsl,
            "OpenCL.std" => ExtSet::OpenCl,
            "SPV_AMD_shader_trinary_minmax" => ExtSet::AmdTrinaryMinMax,
            "SPV_AMD_gcn_shader" => ExtSet::AmdGcnShader,
            "SPV_AMD_shader_ballot" => ExtSet::AmdShaderBallot,
            "SPV_AMD_shader_explicit_vertex_parameter" => ExtSet::AmdExplicitVertexParameter,
            n if n.starts_with("NonSemantic.")
                || n.ends_with("DebugInfo.100")
                || n == "DebugInfo" =>
            {
                ExtSet::NonSemantic
            }
            n if n.contains("DebugInfo") => ExtSet::OtherDebugInfo,
            _ => ExtSet::Unknown,
        }
    }

    /// The import name and rspirv's instruction table of a set whose instructions are
    /// lowered (`None` for the sets that are dropped or unknown).
    pub(crate) fn table(
        self,
    ) -> Option<(
        &'static str,
        &'static rspirv::grammar::InstructionTable<rspirv::grammar::ExtInstOp>,
    )> {
        use rspirv::grammar as g;
        Some(match self {
            ExtSet::Glsl => ("GLSL.std.450", &g::GLSL_STD_450_INSTRUCTION_TABLE),
            ExtSet::OpenCl => ("OpenCL.std", &g::OPENCL_STD_100_INSTRUCTION_TABLE),
            ExtSet::AmdTrinaryMinMax => (
                "SPV_AMD_shader_trinary_minmax",
                &g::SPV_AMD_SHADER_TRINARY_MINMAX_INSTRUCTION_TABLE,
            ),
            ExtSet::AmdGcnShader => (
                "SPV_AMD_gcn_shader",
                &g::SPV_AMD_GCN_SHADER_INSTRUCTION_TABLE,
            ),
            ExtSet::AmdShaderBallot => (
                "SPV_AMD_shader_ballot",
                &g::SPV_AMD_SHADER_BALLOT_INSTRUCTION_TABLE,
            ),
            ExtSet::AmdExplicitVertexParameter => (
                "SPV_AMD_shader_explicit_vertex_parameter",
                &g::SPV_AMD_SHADER_EXPLICIT_VERTEX_PARAMETER_INSTRUCTION_TABLE,
            ),
            ExtSet::NonSemantic | ExtSet::OtherDebugInfo | ExtSet::Unknown => return None,
        })
    }

    /// Whether the set's instructions are left out of the input checks (debug
    /// information and non-semantic instructions, whose operands are not all ids).
    pub fn unchecked(self) -> bool {
        match self {
            ExtSet::NonSemantic | ExtSet::OtherDebugInfo => true,
            ExtSet::Glsl
            | ExtSet::OpenCl
            | ExtSet::AmdTrinaryMinMax
            | ExtSet::AmdGcnShader
            | ExtSet::AmdShaderBallot
            | ExtSet::AmdExplicitVertexParameter
            | ExtSet::Unknown => false,
        }
    }
}

/// Facts about the module as a whole, read from its preamble once at load.
#[derive(Clone, Debug, Default)]
pub(crate) struct ModuleFacts {
    /// The module declares the `Kernel` capability: the checks let it pass scopes and
    /// semantics as runtime values.
    pub kernel_capability: bool,
    /// The module declares the `Shader` capability: shaders may not recurse.
    pub shader_capability: bool,
    /// The module uses the OpenCL memory model.
    pub opencl_memory_model: bool,
    /// The extended-instruction imports, (result id, kind), sorted by id.
    pub ext_sets: Vec<(SpvId, ExtSet)>,
}

impl ModuleFacts {
    /// Reads the facts from the preamble.
    pub(crate) fn read(preamble: &[Inst]) -> ModuleFacts {
        let mut facts = ModuleFacts::default();
        for inst in preamble {
            match inst.op {
                Op::Capability => match inst.operands.first() {
                    Some(Operand::Capability(::spirv::Capability::Kernel)) => {
                        facts.kernel_capability = true;
                    }
                    Some(Operand::Capability(::spirv::Capability::Shader)) => {
                        facts.shader_capability = true;
                    }
                    _ => {}
                },
                Op::MemoryModel => {
                    if let Some(Operand::MemoryModel(::spirv::MemoryModel::OpenCL)) =
                        inst.operands.get(1)
                    {
                        facts.opencl_memory_model = true;
                    }
                }
                Op::ExtInstImport => {
                    if let (Some(id), Ok(name)) = (inst.result_id(), inst.string(0)) {
                        facts.ext_sets.push((id, ExtSet::of(name)));
                    }
                }
                _ => {}
            }
        }
        facts.ext_sets.sort_unstable_by_key(|(id, _)| *id);
        facts
    }

    /// Whether this is an OpenCL (kernel) module: the `Kernel` capability or the OpenCL
    /// memory model. The lowering reads it for calling conventions, the signedness of
    /// builtin arguments and explicit layouts.
    pub(crate) fn is_kernel(&self) -> bool {
        self.kernel_capability || self.opencl_memory_model
    }

    /// The kind of the extended-instruction import `id`, if it is one.
    pub(crate) fn ext_set(&self, id: SpvId) -> Option<ExtSet> {
        self.ext_sets
            .binary_search_by_key(&id, |(i, _)| *i)
            .ok()
            .and_then(|i| self.ext_sets.get(i))
            .map(|(_, k)| *k)
    }

    /// The imports of one kind.
    pub(crate) fn ext_sets_of(&self, kind: ExtSet) -> impl Iterator<Item = SpvId> + '_ {
        self.ext_sets
            .iter()
            .filter(move |(_, k)| *k == kind)
            .map(|(i, _)| *i)
    }
}

/// Facts about the function bodies that lowering needs before it lowers any body,
/// gathered by the load pass, which reads every body instruction anyway (`FactsBuilder`
/// in `spirv/mod.rs`); the checks add the CFG analyses they keep.
#[derive(Clone, Debug, Default)]
pub(crate) struct Facts {
    /// Per function (module order): the ids its `OpFunctionCall`s call, in order.
    pub calls: IdLists,
    /// Per function: the module-level variables its body uses (sorted, no repeats).
    pub global_vars: IdLists,
    /// Per function: whether its body has an instruction `is_convergent` says is one.
    pub convergent_op: Vec<bool>,
    /// Per function with a body of [`KEEP_ANALYSES`] blocks or more: its CFG analyses,
    /// computed for the dominance check and taken by the lowering (which computes them
    /// again for a smaller function: cheap, and a module of many small functions does not
    /// hold an analysis per function).
    pub analyses: Vec<Option<Box<FunctionAnalyses>>>,
}

/// A list of ids per function, all in one buffer (a module of many functions would
/// otherwise hold a vector per function, most of them short).
#[derive(Clone, Debug, Default)]
pub(crate) struct IdLists {
    /// Where each list ends in `ids`.
    ends: Vec<u32>,
    ids: Vec<SpvId>,
}

impl IdLists {
    /// Adds an id to the list being built (the one after the ended lists).
    pub fn push(&mut self, id: SpvId) {
        self.ids.push(id);
    }

    /// Ends the lists before number `i`: the list being built, and empty ones up to `i`.
    pub fn end_before(&mut self, i: usize) {
        while self.ends.len() < i {
            self.ends.push(self.ids.len() as u32);
        }
    }

    /// The ids of list `i` (none past the ended lists).
    pub fn get(&self, i: usize) -> &[SpvId] {
        let Some(&end) = self.ends.get(i) else {
            return &[];
        };
        let start = i.checked_sub(1).map_or(0, |p| self.ends[p]);
        &self.ids[start as usize..end as usize]
    }

    /// Appends the first `n` lists of `other` as lists `first`, `first + 1`, …: the lists
    /// here before `first` are ended first (the one being built among them).
    pub fn append(&mut self, first: usize, other: &IdLists, n: usize) {
        self.end_before(first);
        for i in 0..n {
            self.ids.extend_from_slice(other.get(i));
            self.end_before(first + i + 1);
        }
    }

    /// The ids of every list.
    pub fn all(&self) -> &[SpvId] {
        &self.ids
    }
}

/// The smallest function (in blocks) whose CFG analyses [`Facts`] keeps.
pub const KEEP_ANALYSES: usize = 16;
