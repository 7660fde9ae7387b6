//! Names to numbers from the grammar tables: opcodes, extended-instruction sets,
//! enumerants and mask bits, and the extra operands an enumerant takes.

use rspirv::grammar::{ExtInstOp, InstructionTable, OperandKind as K};

/// The grammar of an `Op…` name.
pub(super) fn opcode_grammar(name: &str) -> Option<&'static rspirv::grammar::Instruction<'static>> {
    let bare = name.strip_prefix("Op")?;
    rspirv::grammar::INSTRUCTION_TABLE
        .iter()
        .find(|g| g.opname == bare)
}

/// The instruction table of an extended-instruction set, by its import name.
pub(super) fn ext_table(name: &str) -> Option<&'static InstructionTable<ExtInstOp>> {
    use rspirv::grammar as g;
    Some(match name {
        "GLSL.std.450" => &g::GLSL_STD_450_INSTRUCTION_TABLE,
        "OpenCL.std" => &g::OPENCL_STD_100_INSTRUCTION_TABLE,
        "NonSemantic.DebugPrintf" => &g::NONSEMANTIC_DEBUGPRINTF_INSTRUCTION_TABLE,
        "NonSemantic.Shader.DebugInfo.100" => {
            &g::NONSEMANTIC_SHADER_DEBUGINFO_100_INSTRUCTION_TABLE
        }
        "NonSemantic.ClspvReflection.6" => &g::NONSEMANTIC_CLSPVREFLECTION_INSTRUCTION_TABLE,
        "OpenCL.DebugInfo.100" => &g::OPENCL_DEBUGINFO_100_INSTRUCTION_TABLE,
        "DebugInfo" => &g::DEBUGINFO_INSTRUCTION_TABLE,
        "SPV_AMD_shader_ballot" => &g::SPV_AMD_SHADER_BALLOT_INSTRUCTION_TABLE,
        "SPV_AMD_shader_trinary_minmax" => &g::SPV_AMD_SHADER_TRINARY_MINMAX_INSTRUCTION_TABLE,
        "SPV_AMD_gcn_shader" => &g::SPV_AMD_GCN_SHADER_INSTRUCTION_TABLE,
        _ => return None,
    })
}

/// Whether an operand kind is a bitmask (`A|B`).
pub(super) fn is_mask(kind: K) -> bool {
    matches!(
        kind,
        K::ImageOperands
            | K::FPFastMathMode
            | K::SelectionControl
            | K::LoopControl
            | K::FunctionControl
            | K::MemorySemantics
            | K::MemoryAccess
            | K::KernelProfilingInfo
            | K::RayFlags
            | K::FragmentShadingRate
            | K::RawAccessChainOperands
            | K::CooperativeMatrixOperands
            | K::CooperativeMatrixReduce
            | K::TensorAddressingOperands
            | K::MatrixMultiplyAccumulateOperands
            | K::TensorOperands
    )
}

/// Names compared without case and underscores (`MakePointerAvailable` and the
/// `spirv` crate's `MAKE_POINTER_AVAILABLE`).
pub(super) fn same_name(text: &str, flag: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|&c| c != '_')
            .map(|c| c.to_ascii_uppercase())
            .collect()
    };
    norm(text) == norm(flag)
}

/// The bit of a bitmask flag name.
pub(super) fn mask_bit(kind: K, name: &str) -> Option<u32> {
    if ["None", "NoneKHR", "NoneINTEL"].contains(&name)
        || (kind == K::MemorySemantics && name == "Relaxed")
    {
        return Some(0);
    }
    let find = |names: &mut dyn Iterator<Item = (&'static str, u32)>| {
        let mut names: Vec<(&str, u32)> = names.collect();
        // `…KHR` aliases of core names (MakePointerAvailableKHR).
        let found = names
            .iter()
            .find(|(n, _)| same_name(name, n))
            .map(|&(_, b)| b);
        found.or_else(|| {
            let bare = name.strip_suffix("KHR")?;
            names.retain(|(n, _)| same_name(bare, n));
            names.first().map(|&(_, b)| b)
        })
    };
    macro_rules! flags {
        ($t:ty) => {
            find(&mut <$t>::all().iter_names().map(|(n, f)| (n, f.bits())))
        };
    }
    match kind {
        K::ImageOperands => flags!(spirv::ImageOperands),
        K::FPFastMathMode => flags!(spirv::FPFastMathMode),
        K::SelectionControl => flags!(spirv::SelectionControl),
        K::LoopControl => flags!(spirv::LoopControl),
        K::FunctionControl => flags!(spirv::FunctionControl),
        K::MemorySemantics => flags!(spirv::MemorySemantics),
        K::MemoryAccess => flags!(spirv::MemoryAccess),
        K::KernelProfilingInfo => flags!(spirv::KernelProfilingInfo),
        K::RayFlags => flags!(spirv::RayFlags),
        K::FragmentShadingRate => flags!(spirv::FragmentShadingRate),
        K::RawAccessChainOperands => flags!(spirv::RawAccessChainOperands),
        K::CooperativeMatrixOperands => flags!(spirv::CooperativeMatrixOperands),
        K::CooperativeMatrixReduce => flags!(spirv::CooperativeMatrixReduce),
        K::TensorAddressingOperands => flags!(spirv::TensorAddressingOperands),
        K::MatrixMultiplyAccumulateOperands => flags!(spirv::MatrixMultiplyAccumulateOperands),
        K::TensorOperands => flags!(spirv::TensorOperands),
        _ => None,
    }
}

/// How many operands follow a bitmask with bits `value` (in bit order, each bit's own).
pub(super) fn mask_params(kind: K, value: u32) -> u32 {
    let per_bit: &[(u32, u32)] = match kind {
        // Bias, Lod, Grad (2), ConstOffset, Offset, ConstOffsets, Sample, MinLod,
        // MakeTexelAvailable, MakeTexelVisible, Offsets.
        K::ImageOperands => &[
            (0x1, 1),
            (0x2, 1),
            (0x4, 2),
            (0x8, 1),
            (0x10, 1),
            (0x20, 1),
            (0x40, 1),
            (0x80, 1),
            (0x100, 1),
            (0x200, 1),
            (0x1_0000, 1),
        ],
        // Aligned, MakePointerAvailable, MakePointerVisible, AliasScopeINTELMask,
        // NoAliasINTELMask.
        K::MemoryAccess => &[(0x2, 1), (0x8, 1), (0x10, 1), (0x1_0000, 1), (0x2_0000, 1)],
        // DependencyLength, MinIterations, MaxIterations, IterationMultiple, PeelCount,
        // PartialCount, and the Altera FPGA controls that take one value.
        K::LoopControl => &[
            (0x8, 1),
            (0x10, 1),
            (0x20, 1),
            (0x40, 1),
            (0x80, 1),
            (0x100, 1),
            (0x1_0000, 1),
            (0x2_0000, 1),
            (0x8_0000, 1),
            (0x10_0000, 1),
            (0x20_0000, 1),
            (0x40_0000, 1),
            (0x100_0000, 1),
            (0x200_0000, 1),
        ],
        // TensorView, DecodeFunc.
        K::TensorAddressingOperands => &[(0x1, 1), (0x2, 1)],
        _ => &[],
    };
    per_bit
        .iter()
        .filter(|(bit, _)| value & bit != 0)
        .map(|(_, n)| n)
        .sum()
}

/// The value of a value-enumerant name (`Workgroup`, `GLCompute`, …).
pub(super) fn enum_value(kind: K, name: &str) -> Option<u32> {
    macro_rules! e {
        ($t:ty) => {
            name.parse::<$t>().ok().map(|v| v as u32)
        };
    }
    match kind {
        K::SourceLanguage => e!(spirv::SourceLanguage),
        K::ExecutionModel => e!(spirv::ExecutionModel),
        K::AddressingModel => e!(spirv::AddressingModel),
        K::MemoryModel => e!(spirv::MemoryModel),
        K::ExecutionMode => e!(spirv::ExecutionMode),
        K::StorageClass => e!(spirv::StorageClass),
        // The `spirv` crate spells `2D` as `Dim2D`.
        K::Dim => e!(spirv::Dim).or_else(|| {
            format!("Dim{name}")
                .parse::<spirv::Dim>()
                .ok()
                .map(|v| v as u32)
        }),
        K::SamplerAddressingMode => e!(spirv::SamplerAddressingMode),
        K::SamplerFilterMode => e!(spirv::SamplerFilterMode),
        K::ImageFormat => e!(spirv::ImageFormat),
        K::ImageChannelOrder => e!(spirv::ImageChannelOrder),
        K::ImageChannelDataType => e!(spirv::ImageChannelDataType),
        K::FPRoundingMode => e!(spirv::FPRoundingMode),
        K::FPDenormMode => e!(spirv::FPDenormMode),
        K::QuantizationModes => e!(spirv::QuantizationModes),
        K::FPOperationMode => e!(spirv::FPOperationMode),
        K::OverflowModes => e!(spirv::OverflowModes),
        K::LinkageType => e!(spirv::LinkageType),
        K::AccessQualifier => e!(spirv::AccessQualifier),
        K::HostAccessQualifier => e!(spirv::HostAccessQualifier),
        K::FunctionParameterAttribute => e!(spirv::FunctionParameterAttribute),
        K::Decoration => e!(spirv::Decoration),
        K::BuiltIn => e!(spirv::BuiltIn),
        K::Scope => e!(spirv::Scope),
        K::GroupOperation => e!(spirv::GroupOperation),
        K::KernelEnqueueFlags => e!(spirv::KernelEnqueueFlags),
        K::Capability => e!(spirv::Capability),
        K::RayQueryIntersection => e!(spirv::RayQueryIntersection),
        K::RayQueryCommittedIntersectionType => e!(spirv::RayQueryCommittedIntersectionType),
        K::RayQueryCandidateIntersectionType => e!(spirv::RayQueryCandidateIntersectionType),
        K::PackedVectorFormat => e!(spirv::PackedVectorFormat),
        K::CooperativeMatrixLayout => e!(spirv::CooperativeMatrixLayout),
        K::CooperativeMatrixUse => e!(spirv::CooperativeMatrixUse),
        K::TensorClampMode => e!(spirv::TensorClampMode),
        K::InitializationModeQualifier => e!(spirv::InitializationModeQualifier),
        K::LoadCacheControl => e!(spirv::LoadCacheControl),
        K::StoreCacheControl => e!(spirv::StoreCacheControl),
        K::NamedMaximumNumberOfRegisters => e!(spirv::NamedMaximumNumberOfRegisters),
        K::FPEncoding => e!(spirv::FPEncoding),
        K::CooperativeVectorMatrixLayout => e!(spirv::CooperativeVectorMatrixLayout),
        K::ComponentType => e!(spirv::ComponentType),
        _ => None,
    }
}
