//! A decoded operand: what rspirv's `dr::Operand` holds, in 16 bytes instead of 32.
//!
//! The variants and their Debug forms are rspirv's (error messages print operands), but
//! a string literal is a thin pointer, so an operand is a tag and one 64-bit payload and
//! a function body's operands take half the memory. rspirv's parser still decodes the
//! instructions the fast decoder hands it ([`Operand::from`] converts its operands).

/// A string literal behind one pointer (most operands are ids and small literals).
pub type Str = Box<String>;

/// One operand of a decoded instruction, after its result type and id.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[allow(clippy::upper_case_acronyms, clippy::box_collection)]
pub enum Operand {
    ImageOperands(::spirv::ImageOperands),
    FPFastMathMode(::spirv::FPFastMathMode),
    SelectionControl(::spirv::SelectionControl),
    LoopControl(::spirv::LoopControl),
    FunctionControl(::spirv::FunctionControl),
    MemorySemantics(::spirv::MemorySemantics),
    MemoryAccess(::spirv::MemoryAccess),
    KernelProfilingInfo(::spirv::KernelProfilingInfo),
    RayFlags(::spirv::RayFlags),
    FragmentShadingRate(::spirv::FragmentShadingRate),
    RawAccessChainOperands(::spirv::RawAccessChainOperands),
    SourceLanguage(::spirv::SourceLanguage),
    ExecutionModel(::spirv::ExecutionModel),
    AddressingModel(::spirv::AddressingModel),
    MemoryModel(::spirv::MemoryModel),
    ExecutionMode(::spirv::ExecutionMode),
    StorageClass(::spirv::StorageClass),
    Dim(::spirv::Dim),
    SamplerAddressingMode(::spirv::SamplerAddressingMode),
    SamplerFilterMode(::spirv::SamplerFilterMode),
    ImageFormat(::spirv::ImageFormat),
    ImageChannelOrder(::spirv::ImageChannelOrder),
    ImageChannelDataType(::spirv::ImageChannelDataType),
    FPRoundingMode(::spirv::FPRoundingMode),
    FPDenormMode(::spirv::FPDenormMode),
    QuantizationModes(::spirv::QuantizationModes),
    FPOperationMode(::spirv::FPOperationMode),
    OverflowModes(::spirv::OverflowModes),
    LinkageType(::spirv::LinkageType),
    AccessQualifier(::spirv::AccessQualifier),
    HostAccessQualifier(::spirv::HostAccessQualifier),
    FunctionParameterAttribute(::spirv::FunctionParameterAttribute),
    Decoration(::spirv::Decoration),
    BuiltIn(::spirv::BuiltIn),
    Scope(::spirv::Scope),
    GroupOperation(::spirv::GroupOperation),
    KernelEnqueueFlags(::spirv::KernelEnqueueFlags),
    Capability(::spirv::Capability),
    RayQueryIntersection(::spirv::RayQueryIntersection),
    RayQueryCommittedIntersectionType(::spirv::RayQueryCommittedIntersectionType),
    RayQueryCandidateIntersectionType(::spirv::RayQueryCandidateIntersectionType),
    PackedVectorFormat(::spirv::PackedVectorFormat),
    CooperativeMatrixOperands(::spirv::CooperativeMatrixOperands),
    CooperativeMatrixLayout(::spirv::CooperativeMatrixLayout),
    CooperativeMatrixUse(::spirv::CooperativeMatrixUse),
    CooperativeMatrixReduce(::spirv::CooperativeMatrixReduce),
    TensorClampMode(::spirv::TensorClampMode),
    TensorAddressingOperands(::spirv::TensorAddressingOperands),
    InitializationModeQualifier(::spirv::InitializationModeQualifier),
    LoadCacheControl(::spirv::LoadCacheControl),
    StoreCacheControl(::spirv::StoreCacheControl),
    NamedMaximumNumberOfRegisters(::spirv::NamedMaximumNumberOfRegisters),
    MatrixMultiplyAccumulateOperands(::spirv::MatrixMultiplyAccumulateOperands),
    FPEncoding(::spirv::FPEncoding),
    CooperativeVectorMatrixLayout(::spirv::CooperativeVectorMatrixLayout),
    ComponentType(::spirv::ComponentType),
    TensorOperands(::spirv::TensorOperands),
    IdMemorySemantics(u32),
    IdScope(u32),
    IdRef(u32),
    LiteralBit32(u32),
    LiteralBit64(u64),
    LiteralExtInstInteger(u32),
    LiteralSpecConstantOpInteger(::spirv::Op),
    LiteralString(Str),
}

impl From<rspirv::dr::Operand> for Operand {
    fn from(o: rspirv::dr::Operand) -> Operand {
        use rspirv::dr::Operand as R;
        match o {
            R::ImageOperands(v) => Operand::ImageOperands(v),
            R::FPFastMathMode(v) => Operand::FPFastMathMode(v),
            R::SelectionControl(v) => Operand::SelectionControl(v),
            R::LoopControl(v) => Operand::LoopControl(v),
            R::FunctionControl(v) => Operand::FunctionControl(v),
            R::MemorySemantics(v) => Operand::MemorySemantics(v),
            R::MemoryAccess(v) => Operand::MemoryAccess(v),
            R::KernelProfilingInfo(v) => Operand::KernelProfilingInfo(v),
            R::RayFlags(v) => Operand::RayFlags(v),
            R::FragmentShadingRate(v) => Operand::FragmentShadingRate(v),
            R::RawAccessChainOperands(v) => Operand::RawAccessChainOperands(v),
            R::SourceLanguage(v) => Operand::SourceLanguage(v),
            R::ExecutionModel(v) => Operand::ExecutionModel(v),
            R::AddressingModel(v) => Operand::AddressingModel(v),
            R::MemoryModel(v) => Operand::MemoryModel(v),
            R::ExecutionMode(v) => Operand::ExecutionMode(v),
            R::StorageClass(v) => Operand::StorageClass(v),
            R::Dim(v) => Operand::Dim(v),
            R::SamplerAddressingMode(v) => Operand::SamplerAddressingMode(v),
            R::SamplerFilterMode(v) => Operand::SamplerFilterMode(v),
            R::ImageFormat(v) => Operand::ImageFormat(v),
            R::ImageChannelOrder(v) => Operand::ImageChannelOrder(v),
            R::ImageChannelDataType(v) => Operand::ImageChannelDataType(v),
            R::FPRoundingMode(v) => Operand::FPRoundingMode(v),
            R::FPDenormMode(v) => Operand::FPDenormMode(v),
            R::QuantizationModes(v) => Operand::QuantizationModes(v),
            R::FPOperationMode(v) => Operand::FPOperationMode(v),
            R::OverflowModes(v) => Operand::OverflowModes(v),
            R::LinkageType(v) => Operand::LinkageType(v),
            R::AccessQualifier(v) => Operand::AccessQualifier(v),
            R::HostAccessQualifier(v) => Operand::HostAccessQualifier(v),
            R::FunctionParameterAttribute(v) => Operand::FunctionParameterAttribute(v),
            R::Decoration(v) => Operand::Decoration(v),
            R::BuiltIn(v) => Operand::BuiltIn(v),
            R::Scope(v) => Operand::Scope(v),
            R::GroupOperation(v) => Operand::GroupOperation(v),
            R::KernelEnqueueFlags(v) => Operand::KernelEnqueueFlags(v),
            R::Capability(v) => Operand::Capability(v),
            R::RayQueryIntersection(v) => Operand::RayQueryIntersection(v),
            R::RayQueryCommittedIntersectionType(v) => {
                Operand::RayQueryCommittedIntersectionType(v)
            }
            R::RayQueryCandidateIntersectionType(v) => {
                Operand::RayQueryCandidateIntersectionType(v)
            }
            R::PackedVectorFormat(v) => Operand::PackedVectorFormat(v),
            R::CooperativeMatrixOperands(v) => Operand::CooperativeMatrixOperands(v),
            R::CooperativeMatrixLayout(v) => Operand::CooperativeMatrixLayout(v),
            R::CooperativeMatrixUse(v) => Operand::CooperativeMatrixUse(v),
            R::CooperativeMatrixReduce(v) => Operand::CooperativeMatrixReduce(v),
            R::TensorClampMode(v) => Operand::TensorClampMode(v),
            R::TensorAddressingOperands(v) => Operand::TensorAddressingOperands(v),
            R::InitializationModeQualifier(v) => Operand::InitializationModeQualifier(v),
            R::LoadCacheControl(v) => Operand::LoadCacheControl(v),
            R::StoreCacheControl(v) => Operand::StoreCacheControl(v),
            R::NamedMaximumNumberOfRegisters(v) => Operand::NamedMaximumNumberOfRegisters(v),
            R::MatrixMultiplyAccumulateOperands(v) => Operand::MatrixMultiplyAccumulateOperands(v),
            R::FPEncoding(v) => Operand::FPEncoding(v),
            R::CooperativeVectorMatrixLayout(v) => Operand::CooperativeVectorMatrixLayout(v),
            R::ComponentType(v) => Operand::ComponentType(v),
            R::TensorOperands(v) => Operand::TensorOperands(v),
            R::IdMemorySemantics(v) => Operand::IdMemorySemantics(v),
            R::IdScope(v) => Operand::IdScope(v),
            R::IdRef(v) => Operand::IdRef(v),
            R::LiteralBit32(v) => Operand::LiteralBit32(v),
            R::LiteralBit64(v) => Operand::LiteralBit64(v),
            R::LiteralExtInstInteger(v) => Operand::LiteralExtInstInteger(v),
            R::LiteralSpecConstantOpInteger(v) => Operand::LiteralSpecConstantOpInteger(v),
            R::LiteralString(v) => Operand::LiteralString(Box::new(v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Operand;
    use crate::spirv::Inst;

    #[test]
    fn an_operand_is_sixteen_bytes_and_an_instruction_thirty_two() {
        assert_eq!(std::mem::size_of::<Operand>(), 16);
        assert_eq!(std::mem::size_of::<Inst>(), 32);
    }

    #[test]
    fn rspirv_operands_convert_to_the_same_variant_and_value() {
        use rspirv::dr::Operand as R;
        let cases = [
            (R::IdRef(7), Operand::IdRef(7)),
            (R::LiteralBit64(1 << 40), Operand::LiteralBit64(1 << 40)),
            (
                R::LiteralString("main".into()),
                Operand::LiteralString(Box::new("main".into())),
            ),
            (
                R::StorageClass(spirv::StorageClass::Workgroup),
                Operand::StorageClass(spirv::StorageClass::Workgroup),
            ),
            (
                R::LiteralSpecConstantOpInteger(spirv::Op::IAdd),
                Operand::LiteralSpecConstantOpInteger(spirv::Op::IAdd),
            ),
        ];
        for (r, ours) in cases {
            // Error messages print operands: the Debug form must not change.
            assert_eq!(format!("{r:?}"), format!("{ours:?}"));
            assert_eq!(Operand::from(r), ours);
        }
    }
}
