//! Opcode classes: which kind of instruction each opcode is, written down once, as
//! explicit lists, for the checks and the lowering alike.
//!
//! [`class`] sorts the opcodes that may appear in a function body into the classes the
//! lowering dispatches on (`lower/dispatch.rs`): the SPIR-V specification's instruction
//! classes (§3.52), split where the lowering treats them differently. [`is_convergent`]
//! is SPEC §5's list of convergent operations, read by the checks (which gather the
//! functions that contain one) and by the lowering (which declares their calls
//! `convergent`). [`Atomic`] names each atomic instruction's kind.
//!
//! A new opcode goes into exactly one arm of [`class`] (a second arm is an unreachable-
//! pattern warning, which the build refuses), then into the handler of its class.

use super::{Inst, Op, SpvId};
use crate::error::Error;

/// The class of an instruction in a function body: which handler lowers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpClass {
    /// No code: `OpNop`, debug lines, merge declarations, lifetime hints.
    NoCode,
    /// `OpPhi`, branches, returns, `OpKill` / `OpTerminateInvocation` and the ray-tracing
    /// terminators `OpIgnoreIntersectionKHR` / `OpTerminateRayKHR`, `OpFunctionCall`.
    Control,
    /// `OpUndef`, `OpCopyObject`, `OpCopyLogical`: values that need no computation.
    Copy,
    /// `OpExtInst`.
    ExtInst,
    /// Variables, loads, stores, copies, access chains, pointer comparisons and
    /// differences, `OpArrayLength`.
    Memory,
    /// Atomic instructions.
    Atomic(Atomic),
    /// `OpMemoryBarrier`, `OpControlBarrier`.
    Barrier,
    /// Integer and float arithmetic, bit operations, logical and / or / not.
    Arithmetic,
    /// Comparisons, float class tests, `OpAny` / `OpAll`.
    Relational,
    /// Numeric, pointer and bit-pattern conversions.
    Conversion,
    /// Composite construction, extraction and insertion, vector shuffles, `OpSelect`.
    Composite,
    /// Vector and matrix products (the integer dot products included), `OpTranspose`.
    Matrix,
    /// `OpExpectKHR`, `OpAssumeTrueKHR`: hints to the optimizer (`llvm.expect`,
    /// `llvm.assume`).
    Hint,
    /// Convergent operations other than `OpControlBarrier` (SPEC §5): group and subgroup
    /// operations, derivatives, implicit-LOD image sampling, cooperative matrices, the
    /// ray-tracing shader calls; calls of `__spirv_*` builtins (on amdgcn, some subgroup
    /// operations are wave intrinsics).
    Convergent,
    /// Other instructions lowered to calls of `__spirv_*` builtins: images, bit-field
    /// operations, saturating conversions, geometry and device-side enqueue, and the rest.
    Builtin,
}

/// The kind of an atomic instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Atomic {
    /// `OpAtomicLoad`.
    Load,
    /// `OpAtomicStore`.
    Store,
    /// A read-modify-write.
    Rmw(Rmw),
    /// `OpAtomicCompareExchange`, `OpAtomicCompareExchangeWeak`.
    CompareExchange,
    /// `OpAtomicFlagTestAndSet`.
    FlagTestAndSet,
    /// `OpAtomicFlagClear`.
    FlagClear,
}

/// The operands of an atomic instruction by name, in SPIR-V's order for its kind: the
/// one place that knows where each sits, read by the checks and the lowering alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AtomicOperands {
    /// `Pointer`.
    pub pointer: SpvId,
    /// `Memory` (scope).
    pub scope: SpvId,
    /// `Semantics` (`Equal` for a compare-exchange).
    pub semantics: SpvId,
    /// `Unequal` (compare-exchange only).
    pub unequal: Option<SpvId>,
    /// `Value` (stores, exchanges, compare-exchanges, the arithmetic read-modify-writes).
    pub value: Option<SpvId>,
    /// `Comparator` (compare-exchange only).
    pub comparator: Option<SpvId>,
}

impl AtomicOperands {
    /// The operands of `inst`, an atomic of kind `kind`.
    pub(crate) fn read(inst: &Inst, kind: Atomic) -> Result<AtomicOperands, Error> {
        let (pointer, scope, semantics) = (inst.id(0)?, inst.id(1)?, inst.id(2)?);
        let mut ops = AtomicOperands {
            pointer,
            scope,
            semantics,
            unequal: None,
            value: None,
            comparator: None,
        };
        match kind {
            Atomic::Load | Atomic::FlagTestAndSet | Atomic::FlagClear => {}
            Atomic::Rmw(Rmw::IIncrement | Rmw::IDecrement) => {}
            Atomic::Store | Atomic::Rmw(_) => ops.value = Some(inst.id(3)?),
            Atomic::CompareExchange => {
                ops.unequal = Some(inst.id(3)?);
                ops.value = Some(inst.id(4)?);
                ops.comparator = Some(inst.id(5)?);
            }
        }
        Ok(ops)
    }

    /// The value operands (`Value`, then `Comparator`), which have the pointee's type.
    pub(crate) fn values(&self) -> impl Iterator<Item = SpvId> {
        self.value.into_iter().chain(self.comparator)
    }
}

/// The operands of `OpControlBarrier` (`Execution`, `Memory`, `Semantics`) and
/// `OpMemoryBarrier` (`Memory`, `Semantics`), by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BarrierOperands {
    /// `Execution` scope (`OpControlBarrier` only).
    pub execution: Option<SpvId>,
    /// `Memory` scope.
    pub memory: SpvId,
    /// `Semantics`.
    pub semantics: SpvId,
}

impl BarrierOperands {
    /// The operands of `inst`, an `OpControlBarrier` or an `OpMemoryBarrier`.
    pub(crate) fn read(inst: &Inst) -> Result<BarrierOperands, Error> {
        Ok(match inst.op {
            Op::ControlBarrier => BarrierOperands {
                execution: Some(inst.id(0)?),
                memory: inst.id(1)?,
                semantics: inst.id(2)?,
            },
            _ => BarrierOperands {
                execution: None,
                memory: inst.id(0)?,
                semantics: inst.id(1)?,
            },
        })
    }
}

impl Atomic {
    /// Whether the instruction's result and value operands have the pointer's pointee
    /// type (the flag instructions work on an `i32` flag and return a `bool`).
    pub(crate) fn typed_by_pointee(self) -> bool {
        match self {
            Atomic::Load | Atomic::Store | Atomic::Rmw(_) | Atomic::CompareExchange => true,
            Atomic::FlagTestAndSet | Atomic::FlagClear => false,
        }
    }
}

/// The operation of an atomic read-modify-write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rmw {
    /// `OpAtomicExchange`.
    Exchange,
    /// `OpAtomicIAdd`.
    IAdd,
    /// `OpAtomicISub`.
    ISub,
    /// `OpAtomicSMin`.
    SMin,
    /// `OpAtomicUMin`.
    UMin,
    /// `OpAtomicSMax`.
    SMax,
    /// `OpAtomicUMax`.
    UMax,
    /// `OpAtomicAnd`.
    And,
    /// `OpAtomicOr`.
    Or,
    /// `OpAtomicXor`.
    Xor,
    /// `OpAtomicFAddEXT`.
    FAdd,
    /// `OpAtomicFMinEXT`.
    FMin,
    /// `OpAtomicFMaxEXT`.
    FMax,
    /// `OpAtomicIIncrement` (an add of 1).
    IIncrement,
    /// `OpAtomicIDecrement` (a subtraction of 1).
    IDecrement,
}

/// The kind of an atomic instruction, `None` for other opcodes.
pub(crate) fn atomic(op: Op) -> Option<Atomic> {
    Some(match op {
        Op::AtomicLoad => Atomic::Load,
        Op::AtomicStore => Atomic::Store,
        Op::AtomicExchange => Atomic::Rmw(Rmw::Exchange),
        Op::AtomicIAdd => Atomic::Rmw(Rmw::IAdd),
        Op::AtomicISub => Atomic::Rmw(Rmw::ISub),
        Op::AtomicSMin => Atomic::Rmw(Rmw::SMin),
        Op::AtomicUMin => Atomic::Rmw(Rmw::UMin),
        Op::AtomicSMax => Atomic::Rmw(Rmw::SMax),
        Op::AtomicUMax => Atomic::Rmw(Rmw::UMax),
        Op::AtomicAnd => Atomic::Rmw(Rmw::And),
        Op::AtomicOr => Atomic::Rmw(Rmw::Or),
        Op::AtomicXor => Atomic::Rmw(Rmw::Xor),
        Op::AtomicFAddEXT => Atomic::Rmw(Rmw::FAdd),
        Op::AtomicFMinEXT => Atomic::Rmw(Rmw::FMin),
        Op::AtomicFMaxEXT => Atomic::Rmw(Rmw::FMax),
        Op::AtomicIIncrement => Atomic::Rmw(Rmw::IIncrement),
        Op::AtomicIDecrement => Atomic::Rmw(Rmw::IDecrement),
        Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => Atomic::CompareExchange,
        Op::AtomicFlagTestAndSet => Atomic::FlagTestAndSet,
        Op::AtomicFlagClear => Atomic::FlagClear,
        _ => return None,
    })
}

/// Whether calls lowered from this opcode are convergent (SPEC §5's list).
pub(crate) fn is_convergent(op: Op) -> bool {
    // `OpEmitMeshTasksEXT` is a terminator (class Control) that is also a workgroup
    // control barrier.
    op == Op::ControlBarrier || op == Op::EmitMeshTasksEXT || class(op) == Some(OpClass::Convergent)
}

/// The class of an opcode in a function body; `None` for opcodes that are not translated
/// (or that cannot appear in a body).
pub(crate) fn class(op: Op) -> Option<OpClass> {
    /// Every opcode number's class, made once ([`class_of`]: a long `match` asked for
    /// most body instructions several times).
    static CLASSES: std::sync::OnceLock<Vec<Option<OpClass>>> = std::sync::OnceLock::new();
    let classes = CLASSES.get_or_init(|| {
        let known = super::decode::known_op_numbers();
        (0..known)
            .map(|n| super::decode::op_of(n).and_then(class_of))
            .collect()
    });
    match classes.get(op as usize) {
        Some(&c) => c,
        None => class_of(op),
    }
}

/// [`class`], worked out.
fn class_of(op: Op) -> Option<OpClass> {
    if let Some(a) = atomic(op) {
        return Some(OpClass::Atomic(a));
    }
    Some(match op {
        Op::Nop
        | Op::Line
        | Op::NoLine
        | Op::SelectionMerge
        | Op::LoopMerge
        | Op::LifetimeStart
        | Op::LifetimeStop
        // SPV_INTEL_unstructured_loop_controls: a loop-unrolling hint, like OpLoopMerge's.
        | Op::LoopControlINTEL => OpClass::NoCode,
        Op::Phi
        | Op::Branch
        | Op::BranchConditional
        | Op::Switch
        | Op::Return
        | Op::ReturnValue
        | Op::Unreachable
        | Op::Kill
        | Op::TerminateInvocation
        | Op::IgnoreIntersectionKHR
        | Op::TerminateRayKHR
        | Op::EmitMeshTasksEXT
        | Op::FunctionCall => OpClass::Control,
        Op::Undef | Op::CopyObject | Op::CopyLogical => OpClass::Copy,
        Op::ExtInst => OpClass::ExtInst,
        Op::Variable
        | Op::Load
        | Op::Store
        | Op::CopyMemory
        | Op::CopyMemorySized
        | Op::AccessChain
        | Op::InBoundsAccessChain
        | Op::PtrAccessChain
        | Op::InBoundsPtrAccessChain
        | Op::PtrEqual
        | Op::PtrNotEqual
        | Op::PtrDiff
        | Op::ArrayLength => OpClass::Memory,
        Op::MemoryBarrier | Op::ControlBarrier => OpClass::Barrier,
        Op::IAdd
        | Op::ISub
        | Op::IMul
        | Op::UDiv
        | Op::SDiv
        | Op::UMod
        | Op::SRem
        | Op::SMod
        | Op::FAdd
        | Op::FSub
        | Op::FMul
        | Op::FDiv
        | Op::FRem
        | Op::FMod
        | Op::SNegate
        | Op::FNegate
        | Op::IAddCarry
        | Op::ISubBorrow
        | Op::UMulExtended
        | Op::SMulExtended
        | Op::BitwiseAnd
        | Op::BitwiseOr
        | Op::BitwiseXor
        | Op::Not
        | Op::ShiftLeftLogical
        | Op::ShiftRightLogical
        | Op::ShiftRightArithmetic
        | Op::BitReverse
        | Op::BitCount
        | Op::LogicalAnd
        | Op::LogicalOr
        | Op::LogicalNot => OpClass::Arithmetic,
        Op::IEqual
        | Op::INotEqual
        | Op::LogicalEqual
        | Op::LogicalNotEqual
        | Op::UGreaterThan
        | Op::SGreaterThan
        | Op::UGreaterThanEqual
        | Op::SGreaterThanEqual
        | Op::ULessThan
        | Op::SLessThan
        | Op::ULessThanEqual
        | Op::SLessThanEqual
        | Op::FOrdEqual
        | Op::FUnordEqual
        | Op::FOrdNotEqual
        | Op::FUnordNotEqual
        | Op::FOrdLessThan
        | Op::FUnordLessThan
        | Op::FOrdGreaterThan
        | Op::FUnordGreaterThan
        | Op::FOrdLessThanEqual
        | Op::FUnordLessThanEqual
        | Op::FOrdGreaterThanEqual
        | Op::FUnordGreaterThanEqual
        | Op::Ordered
        | Op::Unordered
        | Op::LessOrGreater
        | Op::IsNan
        | Op::IsInf
        | Op::IsFinite
        | Op::IsNormal
        | Op::SignBitSet
        | Op::Any
        | Op::All => OpClass::Relational,
        Op::ConvertFToU
        | Op::ConvertFToS
        | Op::ConvertSToF
        | Op::ConvertUToF
        | Op::UConvert
        | Op::SConvert
        | Op::FConvert
        | Op::QuantizeToF16
        | Op::ConvertPtrToU
        | Op::ConvertUToPtr
        | Op::PtrCastToGeneric
        | Op::GenericCastToPtr
        | Op::Bitcast => OpClass::Conversion,
        Op::CompositeConstruct
        | Op::CompositeConstructReplicateEXT
        | Op::CompositeExtract
        | Op::CompositeInsert
        | Op::VectorExtractDynamic
        | Op::VectorInsertDynamic
        | Op::VectorShuffle
        | Op::Select => OpClass::Composite,
        Op::VectorTimesScalar
        | Op::Dot
        | Op::MatrixTimesScalar
        | Op::MatrixTimesVector
        | Op::VectorTimesMatrix
        | Op::MatrixTimesMatrix
        | Op::OuterProduct
        | Op::Transpose
        | Op::SDot
        | Op::UDot
        | Op::SUDot
        | Op::SDotAccSat
        | Op::UDotAccSat
        | Op::SUDotAccSat => OpClass::Matrix,
        Op::ExpectKHR | Op::AssumeTrueKHR => OpClass::Hint,
        Op::ImageSampleImplicitLod
        | Op::ImageSampleDrefImplicitLod
        | Op::ImageSampleProjImplicitLod
        | Op::ImageSampleProjDrefImplicitLod
        | Op::ImageQueryLod
        | Op::DPdx
        | Op::DPdy
        | Op::Fwidth
        | Op::DPdxFine
        | Op::DPdyFine
        | Op::FwidthFine
        | Op::DPdxCoarse
        | Op::DPdyCoarse
        | Op::FwidthCoarse
        | Op::GroupAsyncCopy
        | Op::GroupWaitEvents
        | Op::GroupAll
        | Op::GroupAny
        | Op::GroupBroadcast
        | Op::GroupIAdd
        | Op::GroupFAdd
        | Op::GroupFMin
        | Op::GroupUMin
        | Op::GroupSMin
        | Op::GroupFMax
        | Op::GroupUMax
        | Op::GroupSMax
        | Op::GroupReserveReadPipePackets
        | Op::GroupReserveWritePipePackets
        | Op::GroupCommitReadPipe
        | Op::GroupCommitWritePipe
        | Op::ImageSparseSampleImplicitLod
        | Op::ImageSparseSampleDrefImplicitLod
        | Op::ImageSparseSampleProjImplicitLod
        | Op::ImageSparseSampleProjDrefImplicitLod
        | Op::GroupNonUniformElect
        | Op::GroupNonUniformAll
        | Op::GroupNonUniformAny
        | Op::GroupNonUniformAllEqual
        | Op::GroupNonUniformBroadcast
        | Op::GroupNonUniformBroadcastFirst
        | Op::GroupNonUniformBallot
        | Op::GroupNonUniformInverseBallot
        | Op::GroupNonUniformBallotBitExtract
        | Op::GroupNonUniformBallotBitCount
        | Op::GroupNonUniformBallotFindLSB
        | Op::GroupNonUniformBallotFindMSB
        | Op::GroupNonUniformShuffle
        | Op::GroupNonUniformShuffleXor
        | Op::GroupNonUniformShuffleUp
        | Op::GroupNonUniformShuffleDown
        | Op::GroupNonUniformIAdd
        | Op::GroupNonUniformFAdd
        | Op::GroupNonUniformIMul
        | Op::GroupNonUniformFMul
        | Op::GroupNonUniformSMin
        | Op::GroupNonUniformUMin
        | Op::GroupNonUniformFMin
        | Op::GroupNonUniformSMax
        | Op::GroupNonUniformUMax
        | Op::GroupNonUniformFMax
        | Op::GroupNonUniformBitwiseAnd
        | Op::GroupNonUniformBitwiseOr
        | Op::GroupNonUniformBitwiseXor
        | Op::GroupNonUniformLogicalAnd
        | Op::GroupNonUniformLogicalOr
        | Op::GroupNonUniformLogicalXor
        | Op::GroupNonUniformQuadBroadcast
        | Op::GroupNonUniformQuadSwap
        | Op::SubgroupBallotKHR
        | Op::SubgroupFirstInvocationKHR
        | Op::SubgroupAllKHR
        | Op::SubgroupAnyKHR
        | Op::SubgroupAllEqualKHR
        | Op::GroupNonUniformRotateKHR
        | Op::SubgroupReadInvocationKHR
        | Op::CooperativeMatrixLoadKHR
        | Op::CooperativeMatrixStoreKHR
        | Op::CooperativeMatrixMulAddKHR
        | Op::GroupIAddNonUniformAMD
        | Op::GroupFAddNonUniformAMD
        | Op::GroupFMinNonUniformAMD
        | Op::GroupUMinNonUniformAMD
        | Op::GroupSMinNonUniformAMD
        | Op::GroupFMaxNonUniformAMD
        | Op::GroupUMaxNonUniformAMD
        | Op::GroupSMaxNonUniformAMD
        | Op::GroupNonUniformQuadAllKHR
        | Op::GroupNonUniformQuadAnyKHR
        | Op::CooperativeMatrixConvertNV
        | Op::GroupNonUniformPartitionEXT
        | Op::CooperativeMatrixLoadNV
        | Op::CooperativeMatrixStoreNV
        | Op::CooperativeMatrixMulAddNV
        | Op::CooperativeMatrixReduceNV
        | Op::CooperativeMatrixLoadTensorNV
        | Op::CooperativeMatrixStoreTensorNV
        | Op::CooperativeMatrixPerElementOpNV
        | Op::CooperativeMatrixTransposeNV
        | Op::SubgroupShuffleINTEL
        | Op::SubgroupShuffleDownINTEL
        | Op::SubgroupShuffleUpINTEL
        | Op::SubgroupShuffleXorINTEL
        | Op::SubgroupBlockReadINTEL
        | Op::SubgroupBlockWriteINTEL
        | Op::SubgroupImageBlockReadINTEL
        | Op::SubgroupImageBlockWriteINTEL
        | Op::SubgroupImageMediaBlockReadINTEL
        | Op::SubgroupImageMediaBlockWriteINTEL
        | Op::SubgroupBlockPrefetchINTEL
        | Op::Subgroup2DBlockLoadINTEL
        | Op::Subgroup2DBlockLoadTransformINTEL
        | Op::Subgroup2DBlockLoadTransposeINTEL
        | Op::Subgroup2DBlockPrefetchINTEL
        | Op::Subgroup2DBlockStoreINTEL
        | Op::SubgroupMatrixMultiplyAccumulateINTEL
        | Op::GroupIMulKHR
        | Op::GroupFMulKHR
        | Op::GroupBitwiseAndKHR
        | Op::GroupBitwiseOrKHR
        | Op::GroupBitwiseXorKHR
        | Op::GroupLogicalAndKHR
        | Op::GroupLogicalOrKHR
        | Op::GroupLogicalXorKHR => OpClass::Convergent,
        // The Intel AVC motion-estimation instructions (SPV_INTEL_device_side_avc_motion_estimation).
        Op::SubgroupAvcMceGetDefaultInterBaseMultiReferencePenaltyINTEL
        | Op::SubgroupAvcMceSetInterBaseMultiReferencePenaltyINTEL
        | Op::SubgroupAvcMceGetDefaultInterShapePenaltyINTEL
        | Op::SubgroupAvcMceSetInterShapePenaltyINTEL
        | Op::SubgroupAvcMceGetDefaultInterDirectionPenaltyINTEL
        | Op::SubgroupAvcMceSetInterDirectionPenaltyINTEL
        | Op::SubgroupAvcMceGetDefaultIntraLumaShapePenaltyINTEL
        | Op::SubgroupAvcMceGetDefaultInterMotionVectorCostTableINTEL
        | Op::SubgroupAvcMceGetDefaultHighPenaltyCostTableINTEL
        | Op::SubgroupAvcMceGetDefaultMediumPenaltyCostTableINTEL
        | Op::SubgroupAvcMceGetDefaultLowPenaltyCostTableINTEL
        | Op::SubgroupAvcMceSetMotionVectorCostFunctionINTEL
        | Op::SubgroupAvcMceGetDefaultIntraLumaModePenaltyINTEL
        | Op::SubgroupAvcMceGetDefaultNonDcLumaIntraPenaltyINTEL
        | Op::SubgroupAvcMceGetDefaultIntraChromaModeBasePenaltyINTEL
        | Op::SubgroupAvcMceSetAcOnlyHaarINTEL
        | Op::SubgroupAvcMceSetSourceInterlacedFieldPolarityINTEL
        | Op::SubgroupAvcMceSetSingleReferenceInterlacedFieldPolarityINTEL
        | Op::SubgroupAvcMceSetDualReferenceInterlacedFieldPolaritiesINTEL
        | Op::SubgroupAvcMceConvertToImePayloadINTEL
        | Op::SubgroupAvcMceConvertToImeResultINTEL
        | Op::SubgroupAvcMceConvertToRefPayloadINTEL
        | Op::SubgroupAvcMceConvertToRefResultINTEL
        | Op::SubgroupAvcMceConvertToSicPayloadINTEL
        | Op::SubgroupAvcMceConvertToSicResultINTEL
        | Op::SubgroupAvcMceGetMotionVectorsINTEL
        | Op::SubgroupAvcMceGetInterDistortionsINTEL
        | Op::SubgroupAvcMceGetBestInterDistortionsINTEL
        | Op::SubgroupAvcMceGetInterMajorShapeINTEL
        | Op::SubgroupAvcMceGetInterMinorShapeINTEL
        | Op::SubgroupAvcMceGetInterDirectionsINTEL
        | Op::SubgroupAvcMceGetInterMotionVectorCountINTEL
        | Op::SubgroupAvcMceGetInterReferenceIdsINTEL
        | Op::SubgroupAvcMceGetInterReferenceInterlacedFieldPolaritiesINTEL
        | Op::SubgroupAvcImeInitializeINTEL
        | Op::SubgroupAvcImeSetSingleReferenceINTEL
        | Op::SubgroupAvcImeSetDualReferenceINTEL
        | Op::SubgroupAvcImeRefWindowSizeINTEL
        | Op::SubgroupAvcImeAdjustRefOffsetINTEL
        | Op::SubgroupAvcImeConvertToMcePayloadINTEL
        | Op::SubgroupAvcImeSetMaxMotionVectorCountINTEL
        | Op::SubgroupAvcImeSetUnidirectionalMixDisableINTEL
        | Op::SubgroupAvcImeSetEarlySearchTerminationThresholdINTEL
        | Op::SubgroupAvcImeSetWeightedSadINTEL
        | Op::SubgroupAvcImeEvaluateWithSingleReferenceINTEL
        | Op::SubgroupAvcImeEvaluateWithDualReferenceINTEL
        | Op::SubgroupAvcImeEvaluateWithSingleReferenceStreaminINTEL
        | Op::SubgroupAvcImeEvaluateWithDualReferenceStreaminINTEL
        | Op::SubgroupAvcImeEvaluateWithSingleReferenceStreamoutINTEL
        | Op::SubgroupAvcImeEvaluateWithDualReferenceStreamoutINTEL
        | Op::SubgroupAvcImeEvaluateWithSingleReferenceStreaminoutINTEL
        | Op::SubgroupAvcImeEvaluateWithDualReferenceStreaminoutINTEL
        | Op::SubgroupAvcImeConvertToMceResultINTEL
        | Op::SubgroupAvcImeGetSingleReferenceStreaminINTEL
        | Op::SubgroupAvcImeGetDualReferenceStreaminINTEL
        | Op::SubgroupAvcImeStripSingleReferenceStreamoutINTEL
        | Op::SubgroupAvcImeStripDualReferenceStreamoutINTEL
        | Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeMotionVectorsINTEL
        | Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortionsINTEL
        | Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeReferenceIdsINTEL
        | Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeMotionVectorsINTEL
        | Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeDistortionsINTEL
        | Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeReferenceIdsINTEL
        | Op::SubgroupAvcImeGetBorderReachedINTEL
        | Op::SubgroupAvcImeGetTruncatedSearchIndicationINTEL
        | Op::SubgroupAvcImeGetUnidirectionalEarlySearchTerminationINTEL
        | Op::SubgroupAvcImeGetWeightingPatternMinimumMotionVectorINTEL
        | Op::SubgroupAvcImeGetWeightingPatternMinimumDistortionINTEL
        | Op::SubgroupAvcFmeInitializeINTEL
        | Op::SubgroupAvcBmeInitializeINTEL
        | Op::SubgroupAvcRefConvertToMcePayloadINTEL
        | Op::SubgroupAvcRefSetBidirectionalMixDisableINTEL
        | Op::SubgroupAvcRefSetBilinearFilterEnableINTEL
        | Op::SubgroupAvcRefEvaluateWithSingleReferenceINTEL
        | Op::SubgroupAvcRefEvaluateWithDualReferenceINTEL
        | Op::SubgroupAvcRefEvaluateWithMultiReferenceINTEL
        | Op::SubgroupAvcRefEvaluateWithMultiReferenceInterlacedINTEL
        | Op::SubgroupAvcRefConvertToMceResultINTEL
        | Op::SubgroupAvcSicInitializeINTEL
        | Op::SubgroupAvcSicConfigureSkcINTEL
        | Op::SubgroupAvcSicConfigureIpeLumaINTEL
        | Op::SubgroupAvcSicConfigureIpeLumaChromaINTEL
        | Op::SubgroupAvcSicGetMotionVectorMaskINTEL
        | Op::SubgroupAvcSicConvertToMcePayloadINTEL
        | Op::SubgroupAvcSicSetIntraLumaShapePenaltyINTEL
        | Op::SubgroupAvcSicSetIntraLumaModeCostFunctionINTEL
        | Op::SubgroupAvcSicSetIntraChromaModeCostFunctionINTEL
        | Op::SubgroupAvcSicSetBilinearFilterEnableINTEL
        | Op::SubgroupAvcSicSetSkcForwardTransformEnableINTEL
        | Op::SubgroupAvcSicSetBlockBasedRawSkipSadINTEL
        | Op::SubgroupAvcSicEvaluateIpeINTEL
        | Op::SubgroupAvcSicEvaluateWithSingleReferenceINTEL
        | Op::SubgroupAvcSicEvaluateWithDualReferenceINTEL
        | Op::SubgroupAvcSicEvaluateWithMultiReferenceINTEL
        | Op::SubgroupAvcSicEvaluateWithMultiReferenceInterlacedINTEL
        | Op::SubgroupAvcSicConvertToMceResultINTEL
        | Op::SubgroupAvcSicGetIpeLumaShapeINTEL
        | Op::SubgroupAvcSicGetBestIpeLumaDistortionINTEL
        | Op::SubgroupAvcSicGetBestIpeChromaDistortionINTEL
        | Op::SubgroupAvcSicGetPackedIpeLumaModesINTEL
        | Op::SubgroupAvcSicGetIpeChromaModeINTEL
        | Op::SubgroupAvcSicGetPackedSkcLumaCountThresholdINTEL
        | Op::SubgroupAvcSicGetPackedSkcLumaSumThresholdINTEL
        | Op::SubgroupAvcSicGetInterRawSadsINTEL
        // Shader calls (SPV_KHR_ray_tracing, SPV_NV_ray_tracing): the invocations that
        // reach one together may be regrouped across it ("invocation repacking"), so
        // it must not be made to depend on more control flow than it has.
        | Op::TraceRayKHR
        | Op::TraceNV
        | Op::TraceMotionNV
        | Op::TraceRayMotionNV
        | Op::ExecuteCallableKHR
        | Op::ExecuteCallableNV
        | Op::ReportIntersectionKHR
        // Hit objects (SPV_NV_shader_invocation_reorder, SPV_EXT_shader_invocation_reorder):
        // tracing a ray into one and executing its shader are shader calls; reordering
        // regroups the invocations on purpose.
        | Op::HitObjectExecuteShaderEXT
        | Op::HitObjectExecuteShaderNV
        | Op::HitObjectReorderExecuteShaderEXT
        | Op::HitObjectTraceMotionReorderExecuteEXT
        | Op::HitObjectTraceRayEXT
        | Op::HitObjectTraceRayMotionEXT
        | Op::HitObjectTraceRayMotionNV
        | Op::HitObjectTraceRayNV
        | Op::HitObjectTraceReorderExecuteEXT
        | Op::ReorderThreadWithHintNV
        | Op::ReorderThreadWithHitObjectNV
        | Op::ReorderThreadWithHintEXT
        | Op::ReorderThreadWithHitObjectEXT
        // Mesh shaders (SPV_EXT_mesh_shader): the workgroup's first invocation's operands
        // count, and every invocation executes it once in uniform control flow.
        | Op::SetMeshOutputsEXT => OpClass::Convergent,
        Op::ImageTexelPointer
        | Op::ImageSampleExplicitLod
        | Op::ImageSampleDrefExplicitLod
        | Op::ImageSampleProjExplicitLod
        | Op::ImageSampleProjDrefExplicitLod
        | Op::ImageFetch
        | Op::ImageGather
        | Op::ImageDrefGather
        | Op::ImageRead
        | Op::ImageWrite
        | Op::Image
        | Op::ImageQueryFormat
        | Op::ImageQueryOrder
        | Op::ImageQuerySizeLod
        | Op::ImageQuerySize
        | Op::ImageQueryLevels
        | Op::ImageQuerySamples
        | Op::ImageSparseSampleExplicitLod
        | Op::ImageSparseSampleDrefExplicitLod
        | Op::ImageSparseSampleProjExplicitLod
        | Op::ImageSparseSampleProjDrefExplicitLod
        | Op::ImageSparseFetch
        | Op::ImageSparseGather
        | Op::ImageSparseDrefGather
        | Op::ImageSparseTexelsResident
        | Op::ImageSparseRead
        | Op::ImageSampleWeightedQCOM
        | Op::ImageBoxFilterQCOM
        | Op::ImageBlockMatchSSDQCOM
        | Op::ImageBlockMatchSADQCOM
        | Op::ImageBlockMatchWindowSSDQCOM
        | Op::ImageBlockMatchWindowSADQCOM
        | Op::ImageBlockMatchGatherSSDQCOM
        | Op::ImageBlockMatchGatherSADQCOM
        | Op::ImageSampleFootprintNV => OpClass::Builtin,
        Op::SampledImage
        | Op::BitFieldInsert
        | Op::BitFieldSExtract
        | Op::BitFieldUExtract
        | Op::SatConvertSToU
        | Op::SatConvertUToS
        | Op::GenericCastToPtrExplicit
        | Op::GenericPtrMemSemantics
        | Op::IsHelperInvocationEXT
        | Op::DemoteToHelperInvocation
        | Op::EmitVertex
        | Op::EndPrimitive
        | Op::EmitStreamVertex
        | Op::EndStreamPrimitive
        | Op::ReadClockKHR
        | Op::BeginInvocationInterlockEXT
        | Op::EndInvocationInterlockEXT
        | Op::ConvertFToBF16INTEL
        | Op::ConvertBF16ToFINTEL
        | Op::GetDefaultQueue
        | Op::BuildNDRange
        | Op::RetainEvent
        | Op::ReleaseEvent
        | Op::CreateUserEvent
        | Op::IsValidEvent
        | Op::SetUserEventStatus
        | Op::CaptureEventProfilingInfo
        | Op::GetKernelWorkGroupSize
        | Op::GetKernelPreferredWorkGroupSizeMultiple
        | Op::IgnoreIntersectionNV
        | Op::TerminateRayNV
        | Op::ConvertUToAccelerationStructureKHR
        // Ray queries (SPV_KHR_ray_query), the rest of the hit-object operations,
        // SPV_AMD_shader_fragment_mask, SPV_NV_mesh_shader's index packing, OpenCL pipes.
        | Op::CommitReadPipe
        | Op::CommitWritePipe
        | Op::CreatePipeFromPipeStorage
        | Op::FragmentFetchAMD
        | Op::FragmentMaskFetchAMD
        | Op::GetMaxPipePackets
        | Op::GetNumPipePackets
        | Op::HitObjectGetAttributesEXT
        | Op::HitObjectGetAttributesNV
        | Op::HitObjectGetClusterIdNV
        | Op::HitObjectGetCurrentTimeEXT
        | Op::HitObjectGetCurrentTimeNV
        | Op::HitObjectGetGeometryIndexEXT
        | Op::HitObjectGetGeometryIndexNV
        | Op::HitObjectGetHitKindEXT
        | Op::HitObjectGetHitKindNV
        | Op::HitObjectGetInstanceCustomIndexEXT
        | Op::HitObjectGetInstanceCustomIndexNV
        | Op::HitObjectGetInstanceIdEXT
        | Op::HitObjectGetInstanceIdNV
        | Op::HitObjectGetIntersectionTriangleVertexPositionsEXT
        | Op::HitObjectGetLSSPositionsNV
        | Op::HitObjectGetLSSRadiiNV
        | Op::HitObjectGetObjectRayDirectionEXT
        | Op::HitObjectGetObjectRayDirectionNV
        | Op::HitObjectGetObjectRayOriginEXT
        | Op::HitObjectGetObjectRayOriginNV
        | Op::HitObjectGetObjectToWorldEXT
        | Op::HitObjectGetObjectToWorldNV
        | Op::HitObjectGetPrimitiveIndexEXT
        | Op::HitObjectGetPrimitiveIndexNV
        | Op::HitObjectGetRayFlagsEXT
        | Op::HitObjectGetRayTMaxEXT
        | Op::HitObjectGetRayTMaxNV
        | Op::HitObjectGetRayTMinEXT
        | Op::HitObjectGetRayTMinNV
        | Op::HitObjectGetShaderBindingTableRecordIndexEXT
        | Op::HitObjectGetShaderBindingTableRecordIndexNV
        | Op::HitObjectGetShaderRecordBufferHandleEXT
        | Op::HitObjectGetShaderRecordBufferHandleNV
        | Op::HitObjectGetSpherePositionNV
        | Op::HitObjectGetSphereRadiusNV
        | Op::HitObjectGetWorldRayDirectionEXT
        | Op::HitObjectGetWorldRayDirectionNV
        | Op::HitObjectGetWorldRayOriginEXT
        | Op::HitObjectGetWorldRayOriginNV
        | Op::HitObjectGetWorldToObjectEXT
        | Op::HitObjectGetWorldToObjectNV
        | Op::HitObjectIsEmptyEXT
        | Op::HitObjectIsEmptyNV
        | Op::HitObjectIsHitEXT
        | Op::HitObjectIsHitNV
        | Op::HitObjectIsLSSHitNV
        | Op::HitObjectIsMissEXT
        | Op::HitObjectIsMissNV
        | Op::HitObjectIsSphereHitNV
        | Op::HitObjectRecordEmptyEXT
        | Op::HitObjectRecordEmptyNV
        | Op::HitObjectRecordFromQueryEXT
        | Op::HitObjectRecordHitMotionNV
        | Op::HitObjectRecordHitNV
        | Op::HitObjectRecordHitWithIndexMotionNV
        | Op::HitObjectRecordHitWithIndexNV
        | Op::HitObjectRecordMissEXT
        | Op::HitObjectRecordMissMotionEXT
        | Op::HitObjectRecordMissMotionNV
        | Op::HitObjectRecordMissNV
        | Op::HitObjectSetShaderBindingTableRecordIndexEXT
        | Op::IsValidReserveId
        | Op::RayQueryConfirmIntersectionKHR
        | Op::RayQueryGenerateIntersectionKHR
        | Op::RayQueryGetIntersectionBarycentricsKHR
        | Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR
        | Op::RayQueryGetIntersectionClusterIdNV
        | Op::RayQueryGetIntersectionFrontFaceKHR
        | Op::RayQueryGetIntersectionGeometryIndexKHR
        | Op::RayQueryGetIntersectionInstanceCustomIndexKHR
        | Op::RayQueryGetIntersectionInstanceIdKHR
        | Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR
        | Op::RayQueryGetIntersectionLSSHitValueNV
        | Op::RayQueryGetIntersectionLSSPositionsNV
        | Op::RayQueryGetIntersectionLSSRadiiNV
        | Op::RayQueryGetIntersectionObjectRayDirectionKHR
        | Op::RayQueryGetIntersectionObjectRayOriginKHR
        | Op::RayQueryGetIntersectionObjectToWorldKHR
        | Op::RayQueryGetIntersectionPrimitiveIndexKHR
        | Op::RayQueryGetIntersectionSpherePositionNV
        | Op::RayQueryGetIntersectionSphereRadiusNV
        | Op::RayQueryGetIntersectionTKHR
        | Op::RayQueryGetIntersectionTriangleVertexPositionsKHR
        | Op::RayQueryGetIntersectionTypeKHR
        | Op::RayQueryGetIntersectionWorldToObjectKHR
        | Op::RayQueryGetRayFlagsKHR
        | Op::RayQueryGetRayTMinKHR
        | Op::RayQueryGetWorldRayDirectionKHR
        | Op::RayQueryGetWorldRayOriginKHR
        | Op::RayQueryInitializeKHR
        | Op::RayQueryIsLSSHitNV
        | Op::RayQueryIsSphereHitNV
        | Op::RayQueryProceedKHR
        | Op::RayQueryTerminateKHR
        | Op::ReadPipe
        | Op::ReserveReadPipePackets
        | Op::ReserveWritePipePackets
        | Op::ReservedReadPipe
        | Op::ReservedWritePipe
        | Op::WritePackedPrimitiveIndices4x8NV
        | Op::WritePipe
        // A property of the type: what the implementation stores per invocation.
        | Op::CooperativeMatrixLengthKHR
        | Op::CooperativeMatrixLengthNV => OpClass::Builtin,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table `class` reads is `class_of` for every opcode.
    #[test]
    fn class_table_is_the_match() {
        let mut n = 0;
        for op in crate::spirv::decode::known_ops() {
            assert_eq!(class(op), class_of(op), "{op:?}");
            n += usize::from(class(op).is_some());
        }
        assert!(n > 300, "{n} opcodes have a class");
    }

    /// The rule the lists replace, by the opcode's name (SPEC §5's list as it was first
    /// written): kept as an oracle, so that a new opcode of one of these families in the
    /// `spirv` crate fails here until it is sorted into a class.
    fn convergent_by_name(op: Op) -> bool {
        let name = format!("{op:?}");
        op == Op::ControlBarrier
            || name.starts_with("GroupNonUniform")
            || (name.starts_with("Group")
                && !name.starts_with("GroupDecorate")
                && !name.starts_with("GroupMemberDecorate"))
            || name.starts_with("Subgroup")
            || name.starts_with("DPd")
            || name.starts_with("Fwidth")
            || (name.starts_with("Image") && name.contains("ImplicitLod"))
            || op == Op::ImageQueryLod
            || (name.starts_with("CooperativeMatrix")
                && !name.starts_with("CooperativeMatrixLength"))
            || is_shader_call(op)
    }

    /// The shader calls of the ray-tracing extensions, the invocation reordering and
    /// the mesh-shader workgroup operations, by name.
    fn is_shader_call(op: Op) -> bool {
        let name = format!("{op:?}");
        name.starts_with("Trace")
            || name.starts_with("ExecuteCallable")
            || name.starts_with("ReportIntersection")
            || (name.starts_with("HitObject")
                && (name.contains("Trace") || name.contains("Execute")))
            || name.starts_with("ReorderThread")
            || name.starts_with("SetMeshOutputs")
            || name.starts_with("EmitMeshTasks")
    }

    #[test]
    fn convergent_list_matches_the_names() {
        for op in crate::spirv::known_ops() {
            assert_eq!(is_convergent(op), convergent_by_name(op), "{op:?}");
        }
    }

    #[test]
    fn every_image_instruction_is_a_builtin_call() {
        for op in crate::spirv::known_ops() {
            if format!("{op:?}").starts_with("Image") {
                assert!(
                    matches!(class(op), Some(OpClass::Builtin | OpClass::Convergent)),
                    "{op:?}"
                );
            }
        }
    }

    #[test]
    fn atomics_are_their_own_class() {
        for op in crate::spirv::known_ops() {
            let named = format!("{op:?}").starts_with("Atomic");
            assert_eq!(atomic(op).is_some(), named, "{op:?}");
            assert_eq!(
                matches!(class(op), Some(OpClass::Atomic(_))),
                named,
                "{op:?}"
            );
        }
    }
}
