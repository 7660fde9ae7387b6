//! Reading SPIR-V: the only part of spirv-lift that knows rspirv.
//!
//! [`load`] decodes a module (the decoder in `decode.rs`, which hands the instructions it
//! does not read itself to rspirv's parser), keeps every instruction's word offset, sorts the
//! instructions into the module's logical sections, and runs the input checks of
//! [`check`]. After `load` succeeds, every id the module uses is defined exactly once,
//! every block is terminated, every branch, merge and continue target is a block of
//! the same function, definitions dominate their uses, operand types agree with what
//! each instruction lowers to, and the module is within the resource limits of
//! [`limits`] (so no later pass allocates, prints or recurses without bound).

pub mod asm;
pub mod check;
mod decode;
mod dominance;
mod inst;
pub mod limits;
mod values;

pub use inst::{Inst, Operand};

use crate::error::{Error, ErrorKind, Location};
pub use spirv::Op;

/// SPIR-V magic number.
pub const MAGIC: u32 = 0x0723_0203;
/// The largest id bound accepted (`spirv-val`'s default limit, 4194303): per-id tables
/// are dense, so the bound decides their size.
pub const MAX_ID_BOUND: u32 = 0x3F_FFFF;

/// The module header.
#[derive(Clone, Copy, Debug)]
pub struct Header {
    /// (major, minor).
    pub version: (u8, u8),
    /// Generator magic.
    pub generator: u32,
    /// Id bound.
    pub bound: u32,
}

/// A basic block: its label and its instructions, the terminator last.
#[derive(Clone, Debug)]
pub struct BasicBlock {
    /// The `OpLabel`.
    pub label: Inst,
    /// The instructions after the label, ending with the terminator.
    pub insts: Vec<Inst>,
}

impl BasicBlock {
    /// The block's label id.
    pub fn id(&self) -> u32 {
        self.label.result_id.unwrap_or(0)
    }
    /// The terminator (the structure pass guarantees there is one).
    pub fn terminator(&self) -> Option<&Inst> {
        self.insts.last()
    }
    /// The merge instruction (`OpSelectionMerge` / `OpLoopMerge`) before the terminator, if any.
    pub fn merge(&self) -> Option<&Inst> {
        let n = self.insts.len();
        if n >= 2 {
            let m = &self.insts[n - 2];
            if matches!(m.op, Op::SelectionMerge | Op::LoopMerge) {
                return Some(m);
            }
        }
        None
    }
}

/// A function: its `OpFunction`, parameters and blocks (first block is the entry).
#[derive(Clone, Debug)]
pub struct Function {
    /// The `OpFunction` instruction.
    pub def: Inst,
    /// `OpFunctionParameter`s.
    pub params: Vec<Inst>,
    /// Blocks in module order; empty for a declaration.
    pub blocks: Vec<BasicBlock>,
}

impl Function {
    /// The function's result id.
    pub fn id(&self) -> u32 {
        self.def.result_id.unwrap_or(0)
    }
}

/// A decoded module, sorted into its logical sections.
#[derive(Clone, Debug)]
pub struct Module {
    /// Header fields.
    pub header: Header,
    /// `OpCapability`, `OpExtension`, `OpExtInstImport`, `OpMemoryModel`, `OpEntryPoint`,
    /// `OpExecutionMode(Id)`, debug and annotation instructions, in order.
    pub preamble: Vec<Inst>,
    /// Types, constants, global variables and undefs, in order.
    pub globals: Vec<Inst>,
    /// Functions in order.
    pub functions: Vec<Function>,
}

impl Module {
    /// The `OpMemoryModel` instruction, if present.
    pub fn memory_model_inst(&self) -> Option<&Inst> {
        self.preamble.iter().find(|i| i.op == Op::MemoryModel)
    }
}

/// Converts bytes of either endianness into host words, checking the magic number.
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<u32>, Error> {
    if !bytes.len().is_multiple_of(4) {
        return Err(Error::new(ErrorKind::NotWordAligned(bytes.len())));
    }
    if bytes.len() < 20 {
        return Err(Error::new(ErrorKind::TruncatedHeader(bytes.len() / 4)));
    }
    check_module_size(bytes.len() / 4)?;
    let le = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let big = le.swap_bytes() == MAGIC;
    if le != MAGIC && !big {
        return Err(Error::at(ErrorKind::BadMagic(le), word_loc(0)));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| {
            let a = [c[0], c[1], c[2], c[3]];
            if big {
                u32::from_be_bytes(a)
            } else {
                u32::from_le_bytes(a)
            }
        })
        .collect())
}

fn word_loc(word: usize) -> Location {
    Location {
        word: Some(word),
        opcode: None,
        result_id: None,
    }
}

fn check_module_size(words: usize) -> Result<(), Error> {
    if words > limits::MAX_MODULE_WORDS {
        return Err(Error::new(ErrorKind::LimitExceeded(format!(
            "module is {words} words, more than the limit of {}",
            limits::MAX_MODULE_WORDS
        ))));
    }
    Ok(())
}

/// Decodes, sorts and checks a module given as host-endian words.
pub fn load(words: &[u32]) -> Result<Module, Error> {
    let header = read_header(words)?;
    check_module_size(words.len())?;
    let offsets = instruction_offsets(words)?;
    // Instructions are filed as they are decoded (no second copy of the module); a
    // decoding error anywhere still comes before a structure error.
    let bound = header.bound;
    let mut sections = Sections::new(header);
    let mut structure: Result<(), Error> = Ok(());
    decode::decode_each(words, &offsets, bound, |inst| {
        if structure.is_ok() {
            structure = sections.push(inst);
        }
    })?;
    structure?;
    let mut module = sections.finish()?;
    fix_ext_inst_literals(&mut module);
    check::check(&module)?;
    Ok(module)
}

/// Decodes a module's instructions without sorting or checking them: with this crate's
/// decoder, or with `reference` with rspirv's parser alone. Both give the same
/// instructions or the same error (a test and the `decode_differential` fuzz target
/// check it).
#[doc(hidden)]
pub fn decode_instructions(words: &[u32], reference: bool) -> Result<Vec<Inst>, Error> {
    let header = read_header(words)?;
    check_module_size(words.len())?;
    let offsets = instruction_offsets(words)?;
    if reference {
        decode::decode_reference(words, &offsets)
    } else {
        decode::decode(words, &offsets, header.bound)
    }
}

fn read_header(words: &[u32]) -> Result<Header, Error> {
    if words.len() < 5 {
        return Err(Error::new(ErrorKind::TruncatedHeader(words.len())));
    }
    if words[0] != MAGIC {
        return Err(Error::at(ErrorKind::BadMagic(words[0]), word_loc(0)));
    }
    let v = words[1];
    let (major, minor) = (((v >> 16) & 0xff) as u8, ((v >> 8) & 0xff) as u8);
    if v & 0xff00_00ff != 0 {
        return Err(Error::at(
            ErrorKind::InvalidStructure(format!(
                "version word {v:#010x} has nonzero reserved bytes"
            )),
            word_loc(1),
        ));
    }
    if major != 1 || minor > 6 {
        return Err(Error::at(
            ErrorKind::UnsupportedVersion { major, minor },
            word_loc(1),
        ));
    }
    let bound = words[3];
    if bound == 0 || bound > MAX_ID_BOUND {
        return Err(Error::at(ErrorKind::BadIdBound(bound), word_loc(3)));
    }
    Ok(Header {
        version: (major, minor),
        generator: words[2],
        bound,
    })
}

/// Word offsets of every instruction, checking that word counts tile the module.
fn instruction_offsets(words: &[u32]) -> Result<Vec<usize>, Error> {
    let mut offsets = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = words[at] >> 16;
        if count == 0 {
            return Err(Error::at(ErrorKind::ZeroWordCount, word_loc(at)));
        }
        if at + count as usize > words.len() {
            let loc = Location {
                word: Some(at),
                opcode: op_name_of(words[at] & 0xffff),
                result_id: None,
            };
            return Err(Error::at(ErrorKind::Truncated { count }, loc));
        }
        if offsets.len() == limits::MAX_INSTRUCTIONS {
            let loc = Location {
                word: Some(at),
                opcode: op_name_of(words[at] & 0xffff),
                result_id: None,
            };
            return Err(Error::at(
                ErrorKind::LimitExceeded(format!(
                    "module has more than {} instructions",
                    limits::MAX_INSTRUCTIONS
                )),
                loc,
            ));
        }
        screen_spec_constant_op(words, at, count)?;
        offsets.push(at);
        at += count as usize;
    }
    Ok(offsets)
}

/// Rejects an `OpSpecConstantOp` whose operation is not one the specification allows
/// there, before rspirv sees it: rspirv's decoder panics on operations whose operands
/// include a context-dependent literal or another `OpSpecConstantOp` (`OpConstant`,
/// `OpSwitch`, `OpSpecConstantOp` itself).
fn screen_spec_constant_op(words: &[u32], at: usize, count: u32) -> Result<(), Error> {
    if words[at] & 0xffff != Op::SpecConstantOp as u32 || count < 4 {
        return Ok(());
    }
    let inner = words[at + 3];
    let allowed = rspirv::grammar::INSTRUCTION_TABLE
        .lookup_opcode(inner)
        .is_some_and(|g| SPEC_CONSTANT_OPS.contains(&g.opcode));
    if allowed {
        return Ok(());
    }
    let loc = Location {
        word: Some(at),
        opcode: Some("SpecConstantOp"),
        result_id: words.get(at + 2).copied(),
    };
    let name = op_name_of(inner).map_or_else(|| format!("opcode {inner}"), |n| format!("Op{n}"));
    Err(Error::at(
        ErrorKind::InvalidOperand(format!("{name} is not allowed in OpSpecConstantOp")),
        loc,
    ))
}

/// The operations `OpSpecConstantOp` may perform (SPIR-V 1.6 §3.52.11, shader and
/// kernel lists).
const SPEC_CONSTANT_OPS: &[Op] = &[
    Op::SConvert,
    Op::UConvert,
    Op::FConvert,
    Op::SNegate,
    Op::Not,
    Op::IAdd,
    Op::ISub,
    Op::IMul,
    Op::UDiv,
    Op::SDiv,
    Op::UMod,
    Op::SRem,
    Op::SMod,
    Op::ShiftRightLogical,
    Op::ShiftRightArithmetic,
    Op::ShiftLeftLogical,
    Op::BitwiseOr,
    Op::BitwiseXor,
    Op::BitwiseAnd,
    Op::VectorShuffle,
    Op::CompositeExtract,
    Op::CompositeInsert,
    Op::LogicalOr,
    Op::LogicalAnd,
    Op::LogicalNot,
    Op::LogicalEqual,
    Op::LogicalNotEqual,
    Op::Select,
    Op::IEqual,
    Op::INotEqual,
    Op::ULessThan,
    Op::SLessThan,
    Op::UGreaterThan,
    Op::SGreaterThan,
    Op::ULessThanEqual,
    Op::SLessThanEqual,
    Op::UGreaterThanEqual,
    Op::SGreaterThanEqual,
    Op::QuantizeToF16,
    Op::ConvertFToS,
    Op::ConvertSToF,
    Op::ConvertFToU,
    Op::ConvertUToF,
    Op::ConvertPtrToU,
    Op::ConvertUToPtr,
    Op::GenericCastToPtr,
    Op::PtrCastToGeneric,
    Op::Bitcast,
    Op::FNegate,
    Op::FAdd,
    Op::FSub,
    Op::FMul,
    Op::FDiv,
    Op::FRem,
    Op::FMod,
    Op::AccessChain,
    Op::InBoundsAccessChain,
    Op::PtrAccessChain,
    Op::InBoundsPtrAccessChain,
];

/// Every opcode the grammar knows.
pub fn known_ops() -> impl Iterator<Item = Op> {
    decode::known_ops()
}

/// The `Op…` name of an opcode number, if the grammar knows it.
pub fn op_name_of(opcode: u32) -> Option<&'static str> {
    rspirv::grammar::INSTRUCTION_TABLE
        .lookup_opcode(opcode)
        .map(|g| g.opname)
}

/// How many instructions follow the 5-word header (stopping at a zero or overlong word
/// count, which `load` rejects anyway).
pub fn instruction_count(words: &[u32]) -> usize {
    let mut i = 5;
    let mut n = 0;
    while let Some(w) = words.get(i) {
        let len = (w >> 16) as usize;
        if len == 0 || i + len > words.len() {
            break;
        }
        i += len;
        n += 1;
    }
    n
}

/// The opcode number of an `Op…` name (`"OpLoopMerge"` → 246), if the grammar knows it.
pub fn opcode_of_name(name: &str) -> Option<u32> {
    let name = name.strip_prefix("Op").unwrap_or(name);
    rspirv::grammar::INSTRUCTION_TABLE
        .iter()
        .find(|g| g.opname == name)
        .map(|g| g.opcode as u32)
}

fn is_terminator(op: Op) -> bool {
    matches!(
        op,
        Op::Branch
            | Op::BranchConditional
            | Op::Switch
            | Op::Return
            | Op::ReturnValue
            | Op::Kill
            | Op::Unreachable
            | Op::TerminateInvocation
            | Op::IgnoreIntersectionKHR
            | Op::TerminateRayKHR
            | Op::EmitMeshTasksEXT
    )
}

fn structure_err(inst: &Inst, msg: impl Into<String>) -> Error {
    Error::at(ErrorKind::InvalidStructure(msg.into()), inst.location())
}

/// Sorts instructions into preamble, globals and functions as they are decoded; checks
/// block structure.
struct Sections {
    module: Module,
    func: Option<Function>,
    block: Option<BasicBlock>,
}

impl Sections {
    fn new(header: Header) -> Self {
        Sections {
            module: Module {
                header,
                preamble: Vec::new(),
                globals: Vec::new(),
                functions: Vec::new(),
            },
            func: None,
            block: None,
        }
    }

    /// Files the next instruction.
    fn push(&mut self, inst: Inst) -> Result<(), Error> {
        match inst.op {
            Op::Function => {
                if self.func.is_some() {
                    return Err(structure_err(&inst, "OpFunction inside a function"));
                }
                self.func = Some(Function {
                    def: inst,
                    params: Vec::new(),
                    blocks: Vec::new(),
                });
            }
            Op::FunctionParameter => match self.func.as_mut() {
                Some(f) if f.blocks.is_empty() && self.block.is_none() => f.params.push(inst),
                _ => {
                    return Err(structure_err(
                        &inst,
                        "OpFunctionParameter outside a function header",
                    ));
                }
            },
            Op::Label => {
                if self.func.is_none() {
                    return Err(structure_err(&inst, "OpLabel outside a function"));
                }
                if let Some(b) = &self.block {
                    return Err(structure_err(
                        &inst,
                        format!("block %{} has no terminator before this label", b.id()),
                    ));
                }
                self.block = Some(BasicBlock {
                    label: inst,
                    insts: Vec::new(),
                });
            }
            Op::FunctionEnd => {
                if let Some(b) = &self.block {
                    return Err(structure_err(
                        &inst,
                        format!("block %{} has no terminator before OpFunctionEnd", b.id()),
                    ));
                }
                match self.func.take() {
                    Some(f) => self.module.functions.push(f),
                    None => return Err(structure_err(&inst, "OpFunctionEnd outside a function")),
                }
            }
            _ if self.func.is_some() => {
                // OpLine/OpNoLine may appear between functions' headers and blocks.
                let Some(b) = self.block.as_mut() else {
                    if matches!(inst.op, Op::Line | Op::NoLine | Op::ExtInst) {
                        return Ok(());
                    }
                    return Err(structure_err(&inst, "instruction outside a block"));
                };
                let term = is_terminator(inst.op);
                b.insts.push(inst);
                if term && let (Some(f), Some(b)) = (self.func.as_mut(), self.block.take()) {
                    f.blocks.push(b);
                }
            }
            _ => {
                if is_preamble(inst.op) {
                    if !self.module.globals.is_empty() && !matches!(inst.op, Op::Line | Op::NoLine)
                    {
                        // Preamble after types is malformed but harmless; keep it (spirv-val
                        // reports layout errors, we only need the facts).
                    }
                    self.module.preamble.push(inst);
                } else if !self.module.functions.is_empty()
                    && !matches!(inst.op, Op::Line | Op::NoLine)
                {
                    return Err(structure_err(
                        &inst,
                        "module-level instruction after the first function",
                    ));
                } else {
                    self.module.globals.push(inst);
                }
            }
        }
        Ok(())
    }

    /// The sorted module, once every instruction is filed.
    fn finish(self) -> Result<Module, Error> {
        if let Some(f) = self.func {
            return Err(structure_err(&f.def, "function has no OpFunctionEnd"));
        }
        let memory_models = self
            .module
            .preamble
            .iter()
            .filter(|i| i.op == Op::MemoryModel)
            .count();
        if memory_models != 1 {
            return Err(Error::new(ErrorKind::InvalidStructure(format!(
                "a module needs exactly one OpMemoryModel, this one has {memory_models}"
            ))));
        }
        Ok(self.module)
    }
}

fn is_preamble(op: Op) -> bool {
    matches!(
        op,
        Op::Capability
            | Op::Extension
            | Op::ExtInstImport
            | Op::MemoryModel
            | Op::EntryPoint
            | Op::ExecutionMode
            | Op::ExecutionModeId
            | Op::String
            | Op::SourceExtension
            | Op::Source
            | Op::SourceContinued
            | Op::Name
            | Op::MemberName
            | Op::ModuleProcessed
            | Op::Decorate
            | Op::MemberDecorate
            | Op::DecorationGroup
            | Op::GroupDecorate
            | Op::GroupMemberDecorate
            | Op::DecorateId
            | Op::DecorateString
            | Op::MemberDecorateString
            | Op::Nop
    )
}

/// rspirv decodes every operand of an extended instruction as an id; the grammar of
/// `OpenCL.std` (e.g. `vloadn`'s component count, `vstore_half_r`'s rounding mode) says
/// which are literals. Rewrites those operands so later passes see them as literals.
fn fix_ext_inst_literals(module: &mut Module) {
    use rspirv::grammar::OperandKind;
    let mut opencl_sets = Vec::new();
    for inst in &module.preamble {
        if inst.op == Op::ExtInstImport
            && let (Some(id), Ok("OpenCL.std")) = (inst.result_id, inst.string(0))
        {
            opencl_sets.push(id);
        }
    }
    if opencl_sets.is_empty() {
        return;
    }
    let blocks = module
        .functions
        .iter_mut()
        .flat_map(|f| f.blocks.iter_mut());
    for inst in blocks.flat_map(|b| b.insts.iter_mut()) {
        if inst.op != Op::ExtInst {
            continue;
        }
        let (Some(Operand::IdRef(set)), Some(Operand::LiteralExtInstInteger(num))) =
            (inst.operands.first(), inst.operands.get(1))
        else {
            continue;
        };
        if !opencl_sets.contains(set) {
            continue;
        }
        let Some(grammar) = rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE.lookup_opcode(*num)
        else {
            continue;
        };
        for (i, operand) in grammar.operands.iter().enumerate() {
            if operand.kind != OperandKind::IdRef
                && let Some(slot) = inst.operands.get_mut(i + 2)
                && let Operand::IdRef(v) = *slot
            {
                *slot = Operand::LiteralBit32(v);
            }
        }
    }
}

/// Whether an opcode declares a type (one list for the checks and the lowering).
pub fn is_type_op(op: Op) -> bool {
    matches!(
        op,
        Op::TypeVoid
            | Op::TypeBool
            | Op::TypeInt
            | Op::TypeFloat
            | Op::TypeVector
            | Op::TypeMatrix
            | Op::TypeImage
            | Op::TypeSampler
            | Op::TypeSampledImage
            | Op::TypeArray
            | Op::TypeRuntimeArray
            | Op::TypeStruct
            | Op::TypeOpaque
            | Op::TypePointer
            | Op::TypeFunction
            | Op::TypeEvent
            | Op::TypeDeviceEvent
            | Op::TypeReserveId
            | Op::TypeQueue
            | Op::TypePipe
            | Op::TypeForwardPointer
            | Op::TypePipeStorage
            | Op::TypeNamedBarrier
            | Op::TypeUntypedPointerKHR
            | Op::TypeCooperativeMatrixKHR
            | Op::TypeAccelerationStructureKHR
            | Op::TypeRayQueryKHR
    )
}
