//! Instructions.

use super::{BlockId, ConstId, LocalId, MdId, TypeId, Value};
use std::fmt;

/// Integer and float binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// Cast operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FPTrunc,
    FPExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    PtrToInt,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
}

/// Integer comparison predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum IPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

/// Float comparison predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum FPred {
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
}

/// `atomicrmw` operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum RmwOp {
    Xchg,
    Add,
    Sub,
    And,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
    FAdd,
    FMax,
    FMin,
}

/// Atomic orderings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Ordering {
    Monotonic,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

/// Synchronization scope: `System` is printed as nothing, the others as
/// `syncscope("name")` (one byte in an instruction, not a string).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum SyncScope {
    System,
    SingleThread,
    Subgroup,
    Wavefront,
    Workgroup,
    Device,
    Agent,
}

impl SyncScope {
    /// The `syncscope` name; `None` for the system scope.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            SyncScope::System => return None,
            SyncScope::SingleThread => "singlethread",
            SyncScope::Subgroup => "subgroup",
            SyncScope::Wavefront => "wavefront",
            SyncScope::Workgroup => "workgroup",
            SyncScope::Device => "device",
            SyncScope::Agent => "agent",
        })
    }
}

/// One instruction: an optional result, what it does, and attached metadata. The result
/// and the `!mmra` node are kept as `u32`s with [`NONE`] for "none", so that an
/// instruction is 40 bytes (a long function holds millions of them).
#[derive(Clone, Debug)]
pub struct Inst {
    /// The operation.
    pub kind: InstKind,
    result: u32,
    mmra: u32,
}

/// The "none" of [`Inst`]'s result and metadata fields (no function has 2^32 - 1 locals:
/// a module has at most 2^24 words).
const NONE: u32 = u32::MAX;

impl Inst {
    /// An instruction without metadata.
    pub fn new(result: Option<LocalId>, kind: InstKind) -> Inst {
        Inst {
            kind,
            result: result.map_or(NONE, |l| l.0),
            mmra: NONE,
        }
    }

    /// The result value, if the instruction produces one.
    pub fn result(&self) -> Option<LocalId> {
        (self.result != NONE).then_some(LocalId(self.result))
    }

    /// The `!mmra` attachment.
    pub fn mmra(&self) -> Option<MdId> {
        (self.mmra != NONE).then_some(MdId(self.mmra))
    }

    /// Attaches (or removes) `!mmra` metadata.
    pub fn set_mmra(&mut self, md: Option<MdId>) {
        self.mmra = md.map_or(NONE, |m| m.0);
    }
}

/// `nuw`/`nsw`/`exact` on a binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub enum WrapFlags {
    #[default]
    None,
    Nuw,
    Nsw,
    NuwNsw,
    Exact,
}

impl WrapFlags {
    /// The keywords as printed before the type, each followed by a space.
    pub fn as_str(self) -> &'static str {
        match self {
            WrapFlags::None => "",
            WrapFlags::Nuw => "nuw ",
            WrapFlags::Nsw => "nsw ",
            WrapFlags::NuwNsw => "nuw nsw ",
            WrapFlags::Exact => "exact ",
        }
    }
}

/// A `shufflevector` (boxed in [`InstKind`]: rare, and larger than the common kinds).
#[derive(Clone, Debug)]
pub struct ShuffleInst {
    pub a: Value,
    pub b: Value,
    /// Lanes; `None` is `poison`.
    pub mask: Vec<Option<u32>>,
}

/// An `insertvalue` (boxed in [`InstKind`]).
#[derive(Clone, Debug)]
pub struct InsertValueInst {
    pub v: Value,
    pub elt: Value,
    pub idx: Vec<u32>,
}

/// A `cmpxchg` (boxed in [`InstKind`]).
#[derive(Clone, Debug)]
pub struct CmpXchgInst {
    pub ptr: Value,
    pub cmp: Value,
    pub new: Value,
    pub success: Ordering,
    pub failure: Ordering,
    pub scope: SyncScope,
    pub weak: bool,
    pub align: u32,
    pub volatile: bool,
}

/// A `call`.
#[derive(Clone, Debug)]
pub struct Call {
    /// Calling convention.
    pub cc: super::CallConv,
    /// Return type.
    pub ret: TypeId,
    /// The function called.
    pub callee: Value,
    /// Arguments (exactly sized: a function may make millions of calls).
    pub args: Box<[Value]>,
    /// The call-site attribute `convergent`.
    pub convergent: bool,
    /// Operand bundle `"convergencectrl"(token %t)`.
    pub convergence: Option<Value>,
}

/// What an instruction does. Operand types are derived from the values unless stored.
#[derive(Clone, Debug)]
#[allow(missing_docs)]
pub enum InstKind {
    Bin {
        op: BinOp,
        flags: WrapFlags,
        a: Value,
        b: Value,
    },
    FNeg {
        a: Value,
    },
    ICmp {
        pred: IPred,
        a: Value,
        b: Value,
    },
    FCmp {
        pred: FPred,
        a: Value,
        b: Value,
    },
    Select {
        c: Value,
        a: Value,
        b: Value,
    },
    Cast {
        op: CastOp,
        v: Value,
        to: TypeId,
    },
    Alloca {
        ty: TypeId,
        addrspace: u32,
        align: Option<u32>,
    },
    Load {
        ty: TypeId,
        ptr: Value,
        align: Option<u32>,
        volatile: bool,
        atomic: Option<(Ordering, SyncScope)>,
    },
    Store {
        val: Value,
        ptr: Value,
        align: Option<u32>,
        volatile: bool,
        atomic: Option<(Ordering, SyncScope)>,
    },
    Gep {
        inbounds: bool,
        src: TypeId,
        ptr: Value,
        indices: Box<[Value]>,
    },
    /// A call (boxed: the largest kind, and rarer than the others).
    Call(Box<Call>),
    Phi {
        ty: TypeId,
        incoming: Vec<(Value, BlockId)>,
    },
    ExtractElement {
        v: Value,
        idx: Value,
    },
    InsertElement {
        v: Value,
        elt: Value,
        idx: Value,
    },
    Shuffle(Box<ShuffleInst>),
    ExtractValue {
        v: Value,
        idx: Box<[u32]>,
    },
    InsertValue(Box<InsertValueInst>),
    AtomicRmw {
        op: RmwOp,
        ptr: Value,
        val: Value,
        ord: Ordering,
        scope: SyncScope,
        align: u32,
        volatile: bool,
    },
    CmpXchg(Box<CmpXchgInst>),
    Fence {
        ord: Ordering,
        scope: SyncScope,
    },
    Ret {
        val: Option<Value>,
    },
    Br {
        dest: BlockId,
    },
    CondBr {
        c: Value,
        t: BlockId,
        f: BlockId,
    },
    Switch {
        v: Value,
        default: BlockId,
        cases: Box<[(ConstId, BlockId)]>,
    },
    Unreachable,
}

impl fmt::Display for BinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl BinOp {
    /// The LLVM assembly keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::UDiv => "udiv",
            BinOp::SDiv => "sdiv",
            BinOp::URem => "urem",
            BinOp::SRem => "srem",
            BinOp::FAdd => "fadd",
            BinOp::FSub => "fsub",
            BinOp::FMul => "fmul",
            BinOp::FDiv => "fdiv",
            BinOp::FRem => "frem",
            BinOp::Shl => "shl",
            BinOp::LShr => "lshr",
            BinOp::AShr => "ashr",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
        }
    }
}

impl fmt::Display for CastOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl CastOp {
    /// The LLVM assembly keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            CastOp::Trunc => "trunc",
            CastOp::ZExt => "zext",
            CastOp::SExt => "sext",
            CastOp::FPTrunc => "fptrunc",
            CastOp::FPExt => "fpext",
            CastOp::FPToUI => "fptoui",
            CastOp::FPToSI => "fptosi",
            CastOp::UIToFP => "uitofp",
            CastOp::SIToFP => "sitofp",
            CastOp::PtrToInt => "ptrtoint",
            CastOp::IntToPtr => "inttoptr",
            CastOp::BitCast => "bitcast",
            CastOp::AddrSpaceCast => "addrspacecast",
        }
    }
}

impl fmt::Display for IPred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl IPred {
    /// The LLVM assembly keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            IPred::Eq => "eq",
            IPred::Ne => "ne",
            IPred::Ugt => "ugt",
            IPred::Uge => "uge",
            IPred::Ult => "ult",
            IPred::Ule => "ule",
            IPred::Sgt => "sgt",
            IPred::Sge => "sge",
            IPred::Slt => "slt",
            IPred::Sle => "sle",
        }
    }
}

impl fmt::Display for FPred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FPred {
    /// The LLVM assembly keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            FPred::Oeq => "oeq",
            FPred::Ogt => "ogt",
            FPred::Oge => "oge",
            FPred::Olt => "olt",
            FPred::Ole => "ole",
            FPred::One => "one",
            FPred::Ord => "ord",
            FPred::Ueq => "ueq",
            FPred::Ugt => "ugt",
            FPred::Uge => "uge",
            FPred::Ult => "ult",
            FPred::Ule => "ule",
            FPred::Une => "une",
            FPred::Uno => "uno",
        }
    }
}

impl fmt::Display for RmwOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl RmwOp {
    /// The LLVM assembly keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            RmwOp::Xchg => "xchg",
            RmwOp::Add => "add",
            RmwOp::Sub => "sub",
            RmwOp::And => "and",
            RmwOp::Or => "or",
            RmwOp::Xor => "xor",
            RmwOp::Max => "max",
            RmwOp::Min => "min",
            RmwOp::UMax => "umax",
            RmwOp::UMin => "umin",
            RmwOp::FAdd => "fadd",
            RmwOp::FMax => "fmax",
            RmwOp::FMin => "fmin",
        }
    }
}

impl fmt::Display for Ordering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Ordering {
    /// The LLVM assembly keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            Ordering::Monotonic => "monotonic",
            Ordering::Acquire => "acquire",
            Ordering::Release => "release",
            Ordering::AcqRel => "acq_rel",
            Ordering::SeqCst => "seq_cst",
        }
    }
}

impl fmt::Display for SyncScope {
    /// Prints ` syncscope("x")` (with the leading space) or nothing for system scope.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(s) => write!(f, " syncscope(\"{s}\")"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instruction_is_40_bytes_and_keeps_its_result_and_metadata() {
        assert_eq!(std::mem::size_of::<InstKind>(), 32);
        assert_eq!(std::mem::size_of::<Inst>(), 40);
        assert_eq!(std::mem::size_of::<super::super::Const>(), 16);
        assert_eq!(std::mem::size_of::<super::super::Function>(), 120);
        let mut i = Inst::new(Some(LocalId(7)), InstKind::Unreachable);
        assert_eq!(i.result(), Some(LocalId(7)));
        assert_eq!(i.mmra(), None);
        i.set_mmra(Some(MdId(0)));
        assert_eq!(i.mmra(), Some(MdId(0)));
        i.set_mmra(None);
        assert_eq!(i.mmra(), None);
        assert_eq!(Inst::new(None, InstKind::Unreachable).result(), None);
        assert_eq!(WrapFlags::NuwNsw.as_str(), "nuw nsw ");
    }
}
