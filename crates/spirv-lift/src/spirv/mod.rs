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

mod annotations;
pub mod asm;
pub(crate) mod cfg;
pub mod check;
mod consts;
mod decode;
mod facts;
pub(crate) mod ids;
mod inst;
pub(crate) mod opclass;
mod operand;
mod types;

pub(crate) use annotations::{Deco, Decorations, Names};
pub(crate) use check::BodyChecks;
pub use check::limits;
#[cfg(test)]
pub(crate) use consts::Folded;
pub(crate) use consts::{
    ConstValue, ConstView, Constants, f64_to_bfloat_bits, f64_to_half_bits, is_constant_op,
};
pub use facts::ExtSet;
pub(crate) use facts::{Facts, KEEP_ANALYSES, ModuleFacts};
pub(crate) use ids::{DefOps, IdMap, IdSet, IdTable, SpvId};
pub use inst::{Inst, Operand};
pub(crate) use types::Types;
pub use types::{SpvTy, SpvTypeId};

use crate::error::{Error, ErrorKind, Location};
use crate::progress::{Progress, ReadHint};
pub use spirv::Op;
use thin_vec::ThinVec;

/// SPIR-V magic number.
pub const MAGIC: u32 = 0x0723_0203;
/// The largest id bound accepted (`spirv-val`'s default limit, 4194303). Per-id tables
/// are dense only when the bound is small next to the module ([`ids`]), so a large bound
/// in a small module costs no memory.
pub const MAX_ID_BOUND: u32 = 0x3F_FFFF;

/// The module header.
#[derive(Clone, Copy, Debug)]
pub struct Header {
    /// (major, minor).
    pub version: (u8, u8),
    /// Id bound.
    pub bound: u32,
    /// Whether per-id tables are vectors (ids dense in the module) or hash maps (a bound
    /// far above what the module's size can define): [`ids::dense`].
    pub(crate) dense_ids: bool,
}

impl Header {
    /// A table with an entry per id below the bound, each `empty` at first.
    pub(crate) fn id_table<T: Clone>(&self, empty: T) -> IdTable<T> {
        IdTable::new(self.bound, self.dense_ids, empty)
    }

    /// An empty set of ids below the bound (bits when the ids are dense).
    pub(crate) fn id_set(&self) -> IdSet {
        IdSet::new(self.bound, self.dense_ids)
    }
}

/// A basic block: its label and its instructions, the terminator last.
#[derive(Clone, Debug)]
pub struct BasicBlock {
    /// The `OpLabel`'s result id.
    id: SpvId,
    /// The `OpLabel`'s word offset.
    word: u32,
    /// The instructions after the label, ending with the terminator.
    pub insts: ThinVec<Inst>,
}

impl BasicBlock {
    /// A block of `OpLabel` `label` (which has no operands), with room for `size`
    /// instructions.
    pub(crate) fn new(label: &Inst, size: usize) -> BasicBlock {
        BasicBlock {
            id: label.result_id().unwrap_or_default(),
            word: label.word(),
            insts: ThinVec::with_capacity(size),
        }
    }

    /// The block's label id.
    pub fn id(&self) -> SpvId {
        self.id
    }

    /// The `OpLabel` (kept as its id and word offset: a function holds one per block).
    pub fn label(&self) -> Inst {
        Inst::new(Op::Label, self.word, None, Some(self.id), Box::new([]))
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

/// An `OpFunctionParameter`, kept as its result id, result type and word offset: 12
/// bytes, where an [`Inst`] takes 32 (a module of many small functions holds every
/// function's parameters until the function is lowered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    id: SpvId,
    ty: SpvTypeId,
    word: u32,
}

impl Param {
    /// The parameter of an `OpFunctionParameter` (`None` without a result id and type,
    /// which the grammar gives it).
    fn of(inst: &Inst) -> Option<Param> {
        Some(Param {
            id: inst.result_id()?,
            ty: inst.result_type()?,
            word: inst.word(),
        })
    }
    /// The result id.
    pub fn id(&self) -> SpvId {
        self.id
    }
    /// The type.
    pub fn ty(&self) -> SpvTypeId {
        self.ty
    }
    /// The `OpFunctionParameter` (for the checks that read instructions, and errors
    /// located at it).
    pub fn inst(&self) -> Inst {
        let op = Op::FunctionParameter;
        Inst::new(op, self.word, Some(self.ty), Some(self.id), Box::new([]))
    }
}

/// A function: its `OpFunction`, parameters and blocks (first block is the entry).
#[derive(Clone, Debug)]
pub struct Function {
    /// The `OpFunction` instruction.
    pub def: Inst,
    /// `OpFunctionParameter`s.
    pub params: ThinVec<Param>,
    /// Blocks in module order; empty for a declaration, and for a definition whose
    /// body a streaming load did not keep (see [`Function::has_body`]).
    pub blocks: ThinVec<BasicBlock>,
    /// Word offsets of `OpFunction` and of `OpFunctionEnd` + 1 (where a body is decoded
    /// again from).
    pub(crate) span: (u32, u32),
    /// Blocks of a body that was checked but not kept (decoded again when needed).
    pub(crate) dropped_blocks: u32,
    /// Blocks whose instructions before the terminator (and merge) are not decoded: each
    /// is decoded when it is used, through a [`BodyDecoder`] ([`Function::for_each_inst`]),
    /// so a body is never held decoded whole beside its lowering. In block order.
    pub(crate) deferred: ThinVec<Deferred>,
}

/// The instructions of block `block` not decoded with the function: `count` instructions
/// from word `word` on, the ones before `blocks[block].insts`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deferred {
    pub block: u32,
    pub word: u32,
    pub count: u32,
}

/// Which instructions of a body decoded again for lowering are deferred
/// ([`Function::deferred`]): decoded while their block is lowered, so that the lowering
/// holds only what each block keeps decoded beside what it builds. A block with nothing
/// to defer keeps all of its instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Defer {
    /// Those before each block's terminator (and merge instruction): the function's CFG
    /// is built from the terminators kept.
    BeforeTerminators,
    /// Also the terminator of a block without a merge instruction (a block with one keeps
    /// both: the structured constructs are read from them). For a function whose CFG and
    /// dominator tree the checks kept, so that none is built again from terminators.
    AllButMerges,
}

/// Decodes deferred instructions again from the module's words.
pub(crate) struct BodyDecoder<'a> {
    bodies: &'a Bodies,
    words: &'a [u32],
}

impl<'a> BodyDecoder<'a> {
    /// Shows the deferred instructions `d` to `f` one at a time, in order, as the first
    /// decoding of the module read them.
    pub(crate) fn each(
        &self,
        d: Deferred,
        mut f: impl FnMut(Inst) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.each_or_phi(d, |inst| match inst {
            Ok(inst) => f(inst),
            Err(phi) => f(decode::decode_one(
                self.words,
                phi.word as usize,
                &self.bodies.widths,
            )?),
        })
    }

    /// As [`BodyDecoder::each`], but an `OpPhi` comes as its words ([`PhiWords`]), not
    /// decoded: its pairs are read from them, never held as a million operands.
    pub(crate) fn each_or_phi(
        &self,
        d: Deferred,
        mut f: impl FnMut(Result<Inst, PhiWords<'a>>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut at = d.word as usize;
        for _ in 0..d.count {
            let len = instruction_len(self.words, at)?;
            let words = &self.words[at..at + len];
            if words[0] & 0xFFFF == Op::Phi as u32 && len >= 3 {
                f(Err(PhiWords {
                    word: at as u32,
                    result_type: SpvTypeId(words[1]),
                    result_id: SpvId(words[2]),
                    pairs: &words[3..],
                }))?;
            } else {
                let mut inst = decode::decode_one(self.words, at, &self.bodies.widths)?;
                fix_ext_inst_literal(&self.bodies.opencl_sets, &mut inst);
                f(Ok(inst))?;
            }
            at += len;
        }
        Ok(())
    }
}

/// An `OpPhi` as its words: where it is, its result type and id, and its operands (value
/// and parent ids, one after the other; every operand of an `OpPhi` is an id).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PhiWords<'a> {
    pub word: u32,
    pub result_type: SpvTypeId,
    pub result_id: SpvId,
    pub pairs: &'a [u32],
}

impl PhiWords<'_> {
    /// The `OpPhi` without its operands (for its location, result type and id).
    pub(crate) fn head(&self) -> Inst {
        Inst::new(
            Op::Phi,
            self.word,
            Some(self.result_type),
            Some(self.result_id),
            Box::new([]),
        )
    }
}

impl Function {
    /// The function's result id.
    pub fn id(&self) -> SpvId {
        self.def.result_id().unwrap_or_default()
    }

    /// How many instructions of the kept body have a result id (to size per-value tables;
    /// each deferred instruction counts as one, but for the terminator of a block deferred
    /// whole).
    pub fn result_count(&self) -> usize {
        let insts = self.blocks.iter().flat_map(|b| &b.insts);
        let deferred: usize = self
            .deferred
            .iter()
            .map(|d| {
                let whole = self
                    .blocks
                    .get(d.block as usize)
                    .is_some_and(|b| b.insts.is_empty());
                d.count as usize - usize::from(whole)
            })
            .sum();
        insts.filter(|i| i.result_id().is_some()).count() + deferred
    }

    /// The deferred instructions of block `b`, if any.
    pub(crate) fn deferred_of(&self, b: usize) -> Option<Deferred> {
        let i = self
            .deferred
            .binary_search_by_key(&b, |d| d.block as usize)
            .ok()?;
        Some(self.deferred[i])
    }

    /// Shows every instruction of the body to `f`, in order, decoding deferred ones with
    /// `dec` (an error if there are some and no decoder).
    pub(crate) fn for_each_inst(
        &self,
        dec: Option<&BodyDecoder<'_>>,
        mut f: impl FnMut(&Inst),
    ) -> Result<(), Error> {
        for (b, block) in self.blocks.iter().enumerate() {
            if let Some(d) = self.deferred_of(b) {
                let dec = dec.ok_or_else(|| not_kept(b))?;
                dec.each(d, |inst| {
                    f(&inst);
                    Ok(())
                })?;
            }
            block.insts.iter().for_each(&mut f);
        }
        Ok(())
    }

    /// How many instructions block `b` has, deferred ones included.
    pub(crate) fn block_len(&self, b: usize) -> usize {
        let deferred = self.deferred_of(b).map_or(0, |d| d.count as usize);
        deferred + self.blocks.get(b).map_or(0, |blk| blk.insts.len())
    }

    /// Whether the function has a body (kept in `blocks` or not).
    pub fn has_body(&self) -> bool {
        !self.blocks.is_empty() || self.dropped_blocks > 0
    }
}

/// What is needed to decode a dropped function body again (where each body is, its
/// [`Function::span`], is in the function).
#[derive(Clone, Debug)]
pub(crate) struct Bodies {
    /// Literal widths of every id (as the first decoding left them).
    widths: decode::Widths,
    /// The `OpenCL.std` imports (whose instructions' literals are fixed up).
    opencl_sets: Vec<SpvId>,
}

/// A decoded module, sorted into its logical sections.
#[derive(Clone, Debug)]
pub struct Module {
    /// Header fields.
    pub header: Header,
    /// `OpCapability`, `OpExtension`, `OpExtInstImport`, `OpMemoryModel`, `OpEntryPoint`,
    /// `OpExecutionMode(Id)`, debug and annotation instructions, in order; not `OpName`
    /// nor `OpDecorate`/`OpDecorateId`/`OpDecorateString` (in `names`, `decorations`).
    pub preamble: Vec<Inst>,
    /// `OpName`s by target (not in the preamble).
    pub(crate) names: Names,
    /// `OpDecorate`, `OpDecorateId`, `OpDecorateString` by target (not in the preamble).
    pub(crate) decorations: Decorations,
    /// Types, constants, global variables and undefs, in order.
    pub globals: Vec<Inst>,
    /// Functions in order.
    pub functions: Vec<Function>,
    /// What defines each id (the opcode), for ids below the bound; taken by the checks of
    /// the bodies (`BodyChecks::new`), empty after them.
    pub(crate) def_op: DefOps,
    /// Gathered by the load pass (the CFG analyses by the checks).
    pub(crate) facts: Facts,
    /// Read from the preamble at load.
    pub(crate) module_facts: ModuleFacts,
    /// The type declarations, read at load (shared with the checks of the bodies, which
    /// may run on a thread of their own).
    pub(crate) types: std::sync::Arc<Types>,
    /// Where the constants are, and the folded values of `OpSpecConstantOp`, found at
    /// load ([`Module::consts`] reads the values).
    pub(crate) constants: Constants,
    /// Set by a streaming load, whose function bodies are decoded again on demand.
    pub(crate) bodies: Option<std::sync::Arc<Bodies>>,
}

impl Module {
    /// The values of the module's constants.
    pub(crate) fn consts(&self) -> ConstView<'_> {
        ConstView {
            c: &self.constants,
            globals: &self.globals,
            types: &self.types,
        }
    }

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
#[cfg(any(test, feature = "fuzzing"))]
pub fn load(words: &[u32]) -> Result<Module, Error> {
    let (mut module, checks) = load_with(words, false, Default::default(), None)?;
    check::check_bodies(&mut module, checks, words)?;
    Ok(module)
}

/// As [`load`], but without keeping the function bodies: each is decoded again for the
/// checks and again for lowering ([`BodySource::take`]), so the decoded form of the
/// whole module is never in memory at once (it is about seven times the input).
pub(crate) fn load_streaming(words: &[u32]) -> Result<Module, Error> {
    let (mut module, checks) = load_streaming_unchecked(words, Default::default(), None)?;
    check::check_bodies(&mut module, checks, words)?;
    Ok(module)
}

/// As [`load_streaming`], with the module-level checks only: the bodies are checked by
/// the [`BodyChecks`] returned, one at a time, each before it is lowered (on a thread
/// of its own beside the lowering: `Options::threads`). The facts lowering needs before
/// any body are gathered by the load itself.
/// `read` is told how far the load has read `words`. With `split`, a module whose
/// functions are at least that many words (say [`SPLIT_WORDS`]) has its last functions
/// decoded on a second thread beside the first ones (the result is the same).
pub(crate) fn load_streaming_unchecked(
    words: &[u32],
    read: ReadHint<'_>,
    split: Option<usize>,
) -> Result<(Module, BodyChecks), Error> {
    load_with(words, true, read, split)
}

/// Loads `words` (keeping the bodies unless `streaming`) and runs the module-level checks;
/// the checks of the bodies are returned, still to run.
fn load_with(
    words: &[u32],
    streaming: bool,
    read: ReadHint<'_>,
    split: Option<usize>,
) -> Result<(Module, BodyChecks), Error> {
    let header = read_header(words)?;
    // The words are read three times, in order: for the offsets, to count what is
    // reserved, and to decode them.
    let offsets = offsets_told(words, read.reader())?;
    // Instructions are filed as they are decoded (no second copy of the module); a
    // decoding error anywhere still comes before a structure error, and that before an
    // id defined twice or out of bound.
    let mut sections = Sections::new(header, streaming, true);
    sections.facts = Some(FactsBuilder::new(header));
    sections.reserve(words, &offsets, read.reader());
    let mut structure: Result<(), Error> = Ok(());
    let mut widths = decode::Widths::new(header);
    let mut progress = read.reader();
    // A body instruction with a shape is filed as it lies in the words (`Sections::scan`),
    // not decoded: the checks and the lowering decode it again.
    fn file(
        structure: &mut Result<(), Error>,
        sections: &mut Sections,
        read: decode::Read<'_>,
    ) -> decode::Flow {
        match read {
            decode::Read::Scanned(scan) => {
                if structure.is_ok() && !sections.scan(&scan) {
                    return decode::Flow::Decode;
                }
            }
            decode::Read::Decoded(inst) => {
                if structure.is_ok() {
                    *structure = sections.push(inst);
                }
            }
        }
        decode::Flow::Next
    }
    // With a second thread, the functions after `split` are decoded on it while this one
    // decodes the ones before; what it gathered is taken if it found nothing amiss, else
    // this thread decodes them again as if alone (`load_tail`).
    let split = split
        .filter(|_| streaming)
        .and_then(|least| split_point(words, &offsets, least));
    let mut rest = &offsets[..];
    if let Some((first_function, split)) = split {
        let ahead = &offsets[..first_function];
        decode::read_with(words, ahead, &mut widths, &mut progress, |i| {
            file(&mut structure, &mut sections, i)
        })?;
        let (head, tail) = (&offsets[first_function..split], &offsets[split..]);
        rest = tail;
        let stop = std::sync::atomic::AtomicBool::new(false);
        let seed = (widths.clone(), sections.tail_facts());
        let loaded = std::thread::scope(|scope| {
            let stop = &stop;
            let spawned = std::thread::Builder::new()
                .name("spirv-lift load".into())
                .spawn_scoped(scope, move || {
                    let at = tail.first().map_or(0, |&w| w as usize);
                    load_tail(words, tail, header, seed, read.reader_at(at), stop)
                });
            let head = decode::read_with(words, head, &mut widths, &mut progress, |i| {
                file(&mut structure, &mut sections, i)
            });
            // A decoding error here is the load's: the other thread need not go on.
            stop.store(head.is_err(), std::sync::atomic::Ordering::Relaxed);
            let tail = match spawned {
                Ok(thread) => match thread.join() {
                    Ok(tail) => tail,
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                Err(_) => None,
            };
            head.map(|_| tail)
        })?;
        if let Some(tail) = loaded
            && structure.is_ok()
            && sections.take_tail(tail, &mut widths)
        {
            rest = &[];
        }
    }
    decode::read_with(words, rest, &mut widths, &mut progress, |i| {
        file(&mut structure, &mut sections, i)
    })?;
    structure?;
    // A literal read before its width was known (a constant whose type, or a switch whose
    // selector, is defined after it: never valid) would read otherwise when a body is
    // decoded again; refused here, whichever way the module is loaded.
    if let Some((id, at)) = widths.late {
        return Err(Error::at(
            ErrorKind::InvalidModule(format!(
                "the width of this literal depends on %{id}, which is defined after it"
            )),
            Location {
                word: Some(at),
                opcode: op_name_of(words[at] & 0xffff),
                result_id: None,
            },
        ));
    }
    let mut module = sections.finish()?;
    module.module_facts = ModuleFacts::read(&module.preamble);
    module.types = std::sync::Arc::new(Types::read(header, &module.globals));
    module.constants = Constants::read(&module.globals);
    let sets: Vec<SpvId> = module.module_facts.ext_sets_of(ExtSet::OpenCl).collect();
    // (Kept bodies had their OpenCL literals fixed as they were filed.)
    if streaming {
        module.bodies = Some(std::sync::Arc::new(Bodies {
            widths,
            opencl_sets: sets,
        }));
    }
    drop(offsets);
    let checks = BodyChecks::new(&mut module)?;
    // The module-level checks bounded every constant's size: `OpSpecConstantOp` can be
    // folded now.
    module.constants.fold(&module.globals, &module.types);
    Ok((module, checks))
}

/// The fewest words of functions (128 KiB) worth loading on a second thread (about half
/// of the module is decoded there).
pub(crate) const SPLIT_WORDS: usize = 1 << 15;

/// Where a module's load splits between two threads: the index in `offsets` of its first
/// `OpFunction`, and of the first `OpFunction` from the middle of the words after it on
/// (both threads start on the functions when the part before them is loaded), or of the
/// last function if it holds the middle; `None` if the functions are fewer than `least`
/// words, or only one.
fn split_point(words: &[u32], offsets: &[u32], least: usize) -> Option<(usize, usize)> {
    let is_function =
        |&at: &u32| words.get(at as usize).map(|w| w & 0xffff) == Some(Op::Function as u32);
    let first = offsets.iter().position(is_function)?;
    let start = offsets[first] as usize;
    if words.len() - start < least {
        return None;
    }
    let middle = (start + (words.len() - start).div_ceil(2)) as u32;
    let from = first + 1 + offsets[first + 1..].partition_point(|&at| at < middle);
    // Else the last function is the second part: larger than the first, but each part
    // still takes less time than both.
    let split = match offsets[from..].iter().position(is_function) {
        Some(i) => from + i,
        None => first + 1 + offsets[first + 1..from].iter().rposition(is_function)?,
    };
    Some((first, split))
}

#[cfg(test)]
thread_local! {
    /// How many loads on this thread took what [`load_tail`] gathered (the tests' proof
    /// that a module was loaded in two parts, not again in one).
    pub(crate) static TAILS_TAKEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// What the load of a module's last functions gathered on a thread of its own
/// ([`load_tail`]).
struct Tail {
    sections: Sections,
    widths: decode::Widths,
}

/// Decodes and files the functions at `offsets` (the module's last ones, from an
/// `OpFunction`) apart from the ones before them, from what the load knew when the first
/// function started (`seed`: the literal widths, the facts' module-level part). `None`
/// whenever the load of the whole module in order could have gone otherwise there: an
/// error of any kind (found again when those words are decoded in order), an instruction
/// between functions, a result id 0, a literal read without its width, or `stop` set.
fn load_tail(
    words: &[u32],
    offsets: &[u32],
    header: Header,
    seed: (decode::Widths, FactsBuilder),
    mut progress: Progress<'_>,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<Tail> {
    let (mut widths, facts) = seed;
    let mut sections = Sections::new(header, true, true);
    sections.facts = Some(facts);
    let filed = decode::read_with(words, offsets, &mut widths, &mut progress, |read| {
        let go_on = match read {
            _ if stop.load(std::sync::atomic::Ordering::Relaxed) => false,
            decode::Read::Scanned(scan) => {
                if scan.result_id() == Some(SpvId(0)) {
                    false
                } else if !sections.scan(&scan) {
                    return decode::Flow::Decode;
                } else {
                    sections.define_error.is_none()
                }
            }
            decode::Read::Decoded(inst) => {
                (sections.func.is_some() || inst.op == Op::Function)
                    && inst.result_id() != Some(SpvId(0))
                    && sections.push(inst).is_ok()
                    && sections.define_error.is_none()
            }
        };
        match go_on {
            true => decode::Flow::Next,
            false => decode::Flow::Stop,
        }
    });
    let whole = filed == Ok(true) && sections.func.is_none() && !widths.read_unknown();
    whole.then_some(Tail { sections, widths })
}

impl Module {
    /// Decodes function `i` again (header and body) from `words`, after a streaming load.
    pub(crate) fn decode_function(&self, i: usize, words: &[u32]) -> Result<Function, Error> {
        let f = self.functions.get(i).ok_or_else(|| not_kept(i))?;
        let bodies = self.bodies.as_ref().ok_or_else(|| not_kept(i))?;
        decode_function(self.header, bodies, f.span, words, None)
    }

    /// Takes what lowering needs out of the module: the functions, and what decodes their
    /// bodies again after a streaming load.
    pub(crate) fn take_functions(&mut self) -> BodySource {
        BodySource {
            header: self.header,
            functions: std::mem::take(&mut self.functions),
            bodies: self.bodies.take(),
        }
    }

    /// What decodes each body again after a streaming load, for the checks of the bodies
    /// on a thread of their own (`BodyChecks`): owns what it reads.
    pub(crate) fn body_reader(&self) -> BodyReader {
        BodyReader {
            header: self.header,
            bodies: self.bodies.clone(),
            spans: (self.functions.iter())
                .map(|f| f.has_body().then_some(f.span))
                .collect(),
        }
    }
}

/// Decodes the bodies of a streaming load again, whole, apart from the module
/// ([`Module::body_reader`]).
pub(crate) struct BodyReader {
    header: Header,
    bodies: Option<std::sync::Arc<Bodies>>,
    /// Where each function's body is ([`Function::span`]), `None` for a declaration: 12
    /// bytes a function, not a copy of each `OpFunction`.
    spans: Vec<Option<(u32, u32)>>,
}

impl BodyReader {
    /// The number of functions.
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// Where function `i`'s body ends (the word after its `OpFunctionEnd`), if it has one.
    pub(crate) fn end(&self, i: usize) -> Option<usize> {
        self.spans.get(i).copied().flatten().map(|s| s.1 as usize)
    }

    /// Function `i` decoded whole from `words` (the module's), or `None` if it has no
    /// body.
    pub(crate) fn decode(&self, i: usize, words: &[u32]) -> Result<Option<Function>, Error> {
        let Some(span) = *self.spans.get(i).ok_or_else(|| not_kept(i))? else {
            return Ok(None);
        };
        let bodies = self.bodies.as_ref().ok_or_else(|| not_kept(i))?;
        decode_function(self.header, bodies, span, words, None).map(Some)
    }
}

/// A module's functions, with their bodies kept or to be decoded again.
pub(crate) struct BodySource {
    header: Header,
    /// The functions (headers; bodies too unless the load was a streaming one).
    pub functions: Vec<Function>,
    bodies: Option<std::sync::Arc<Bodies>>,
}

impl BodySource {
    /// Function `i` with its body, which is taken out with the parameters and the
    /// `OpFunction`'s operands (the function keeps its id, result type and span: a module
    /// of many functions does not hold every header to the end). Decoded again (after a
    /// streaming load), its blocks' instructions are deferred as `defer` says
    /// ([`Function::deferred`]; [`BodySource::decoder`] decodes them).
    pub(crate) fn take(
        &mut self,
        i: usize,
        words: &[u32],
        defer: Defer,
    ) -> Result<Function, Error> {
        let f = self.functions.get_mut(i).ok_or_else(|| not_kept(i))?;
        let taken = match &self.bodies {
            Some(bodies) if f.blocks.is_empty() && f.dropped_blocks > 0 => {
                decode_function(self.header, bodies, f.span, words, Some(defer))?
            }
            _ => Function {
                def: f.def.clone(),
                params: std::mem::take(&mut f.params),
                blocks: std::mem::take(&mut f.blocks),
                span: f.span,
                dropped_blocks: 0,
                deferred: ThinVec::new(),
            },
        };
        f.params = ThinVec::new();
        f.def.operands = Box::new([]);
        Ok(taken)
    }

    /// Empties function `i`'s header as [`BodySource::take`] does, for a body taken from
    /// elsewhere (the one the checks decoded).
    pub(crate) fn release(&mut self, i: usize) -> Result<(), Error> {
        let f = self.functions.get_mut(i).ok_or_else(|| not_kept(i))?;
        f.params = ThinVec::new();
        f.def.operands = Box::new([]);
        Ok(())
    }

    /// What decodes deferred instructions (after a streaming load).
    pub(crate) fn decoder<'a>(&'a self, words: &'a [u32]) -> Option<BodyDecoder<'a>> {
        self.bodies
            .as_ref()
            .map(|bodies| BodyDecoder { bodies, words })
    }
}

pub(crate) fn not_kept(i: usize) -> Error {
    Error::new(ErrorKind::InvalidStructure(format!(
        "the body of function {i} was not kept"
    )))
}

/// The word count of the instruction at word `at`, checked to be an instruction that fits
/// in `words` (which must be the words the module was loaded from).
fn instruction_len(words: &[u32], at: usize) -> Result<usize, Error> {
    match words.get(at).map(|w| (w >> 16) as usize) {
        Some(len) if len > 0 && at + len <= words.len() => Ok(len),
        _ => Err(Error::new(ErrorKind::InvalidStructure(
            "the words of a function body were not given".into(),
        ))),
    }
}

/// Decodes a function (header and body) again from `words`, where its
/// [`Function::span`] says; with `defer`, the instructions it says are not decoded
/// ([`Function::deferred`]).
fn decode_function(
    header: Header,
    bodies: &Bodies,
    span: (u32, u32),
    words: &[u32],
    defer: Option<Defer>,
) -> Result<Function, Error> {
    let (start, end) = (span.0 as usize, span.1 as usize);
    let mut sections = Sections::new(header, false, false);
    // Block sizes first (one pass over the opcodes), so that no block's vector grows: a
    // block's instructions up to its terminator (what follows the terminator before the
    // next label is not the block's: `Sections::push` drops an `OpLine`, `OpNoLine` or
    // `OpExtInst` there and refuses anything else).
    // With them, whether each block's terminator follows a merge instruction.
    let mut open = false;
    let mut merged = Vec::new();
    let mut prev = 0;
    let mut at = start;
    while at < end {
        let len = instruction_len(words, at)?;
        let op = words[at] & 0xFFFF;
        at += len;
        if op == Op::Label as u32 {
            sections.block_sizes.push(0);
            merged.push(false);
            open = true;
        } else if open
            && op != Op::FunctionEnd as u32
            && let (Some(size), Some(m)) = (sections.block_sizes.last_mut(), merged.last_mut())
        {
            *size += 1;
            if decode::op_of(op).is_some_and(is_terminator) {
                open = false;
                *m = prev == Op::SelectionMerge as u32 || prev == Op::LoopMerge as u32;
            }
        }
        prev = op;
    }
    // A deferred block keeps its terminator, and the merge instruction before it if
    // there is one.
    let mut deferred = ThinVec::new();
    // Instructions still to skip (deferred) after a label.
    let mut skip = 0;
    let mut close_after_skip = false;
    let mut block = 0u32;
    let mut next = start;
    while next < end {
        let at = next;
        next += instruction_len(words, at)?;
        if words[at] & 0xFFFF == Op::Label as u32 {
            let size = sections
                .block_sizes
                .get(block as usize)
                .copied()
                .unwrap_or(0);
            // What the block keeps decoded: merge and terminator, the terminator, or
            // nothing.
            let tail = match defer {
                _ if merged.get(block as usize) == Some(&true) => 2,
                Some(Defer::AllButMerges) => 0,
                _ => 1,
            };
            if defer.is_some() && size > tail {
                skip = size - tail;
                // A block deferred whole (terminator included) is ended after it.
                close_after_skip = tail == 0;
                deferred.push(Deferred {
                    block,
                    word: next as u32,
                    count: skip,
                });
                sections.block_sizes[block as usize] = tail;
            }
            block += 1;
        } else if skip > 0 {
            skip -= 1;
            if skip == 0 && close_after_skip {
                sections.close_block();
                close_after_skip = false;
            }
            continue;
        }
        sections.push(decode::decode_one(words, at, &bodies.widths)?)?;
    }
    let missing = || {
        Error::new(ErrorKind::InvalidStructure(
            "function body not found".into(),
        ))
    };
    let mut func = sections.module.functions.pop().ok_or_else(missing)?;
    fix_ext_inst_literals(&bodies.opencl_sets, &mut func);
    func.deferred = deferred;
    Ok(func)
}

/// Decodes a module's instructions without sorting or checking them: with this crate's
/// decoder, or with `reference` with rspirv's parser alone. Both give the same
/// instructions or the same error (a test and the `decode_differential` fuzz target
/// check it).
#[cfg(any(test, feature = "fuzzing"))]
pub fn decode_instructions(words: &[u32], reference: bool) -> Result<Vec<Inst>, Error> {
    let header = read_header(words)?;
    let offsets = instruction_offsets(words)?;
    if reference {
        let offsets: Vec<usize> = offsets.iter().map(|&o| o as usize).collect();
        decode::decode_reference(words, &offsets)
    } else {
        decode::decode(words, &offsets, header)
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
        bound,
        dense_ids: ids::dense(bound, words.len()),
    })
}

/// Word offsets of every instruction, checking that word counts tile the module (4 bytes
/// each: a module accepted has at most 2^24 words).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn instruction_offsets(words: &[u32]) -> Result<Vec<u32>, Error> {
    offsets_told(words, Default::default())
}

/// As [`instruction_offsets`], telling `progress` how far the words were read.
fn offsets_told(words: &[u32], mut progress: Progress<'_>) -> Result<Vec<u32>, Error> {
    check_module_size(words.len())?;
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
        // Below 2^24: the size was checked.
        offsets.push(at as u32);
        at += count as usize;
        progress.read_upto(at);
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
/// kernel lists, and the extensions' additions).
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
    // SPV_KHR_cooperative_matrix and SPV_NV_cooperative_matrix add these.
    Op::CooperativeMatrixLengthKHR,
    Op::CooperativeMatrixLengthNV,
];

/// Every opcode the grammar knows (the opcode-class tests walk them).
#[cfg(test)]
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

impl crate::error::Location {
    /// The number of [`opcode`](Self::opcode) (`LoopMerge` → 246), if the location has one.
    ///
    /// ```
    /// let loc = spirv_lift::Location { opcode: Some("LoopMerge"), ..Default::default() };
    /// assert_eq!(loc.opcode_number(), Some(246));
    /// ```
    pub fn opcode_number(&self) -> Option<u32> {
        self.opcode.and_then(opcode_of_name)
    }
}

/// The opcode number of an `Op…` name (`"OpLoopMerge"` → 246), if the grammar knows it.
fn opcode_of_name(name: &str) -> Option<u32> {
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
    /// Drop function bodies once filed (a streaming load).
    drop_bodies: bool,
    /// Record what defines each id in `module.def_op`.
    define: bool,
    /// The first id defined twice or out of bound.
    define_error: Option<Error>,
    /// When known in advance, the number of instructions after each block's label (so
    /// each block's vector is allocated once, at its size), in order.
    block_sizes: Vec<u32>,
    /// Blocks started so far.
    blocks_started: usize,
    /// The load pass gathers the facts lowering needs before any body ([`Facts`]).
    facts: Option<FactsBuilder>,
}

/// Gathers [`Facts`] (calls, module-level variables used, convergent operations) while
/// the load pass files each body instruction, so that neither the checks nor the
/// lowering need a body decoded for them, and the lowering can start before the checks
/// of the bodies end (`Options::threads`).
#[derive(Clone)]
struct FactsBuilder {
    facts: Facts,
    /// The module-level `OpVariable`s (all of them once the first function starts).
    global_vars: IdSet,
    /// The extended-instruction imports, read when the first function starts (none may
    /// follow it): `OpenCL.std` ones (whose literals are fixed up) and
    /// `SPV_AMD_shader_ballot` ones (whose instructions are convergent).
    opencl_sets: Vec<SpvId>,
    ballot_sets: Vec<SpvId>,
    /// The module-level variables the current function uses so far.
    vars: Vec<SpvId>,
    /// A function was started.
    started: bool,
}

impl FactsBuilder {
    fn new(header: Header) -> Self {
        FactsBuilder {
            facts: Facts::default(),
            global_vars: header.id_set(),
            opencl_sets: Vec::new(),
            ballot_sets: Vec::new(),
            vars: Vec::new(),
            started: false,
        }
    }

    /// The module-level part is read (`preamble`): done when the first function starts.
    fn start_module(&mut self, preamble: &[Inst]) {
        self.started = true;
        let m = ModuleFacts::read(preamble);
        self.opencl_sets = m.ext_sets_of(ExtSet::OpenCl).collect();
        self.ballot_sets = m.ext_sets_of(ExtSet::AmdShaderBallot).collect();
    }

    /// Appends the facts of `n` functions gathered by `other` (from the same module-level
    /// part) as functions `first`, `first + 1`, …
    fn append(&mut self, first: usize, mut other: FactsBuilder, n: usize) {
        other.facts.calls.end_before(n);
        other.facts.global_vars.end_before(n);
        let f = &mut self.facts;
        f.calls.append(first, &other.facts.calls, n);
        f.global_vars.append(first, &other.facts.global_vars, n);
        // One entry per function started, and every function started here and there ended.
        debug_assert_eq!(
            (f.convergent_op.len(), other.facts.convergent_op.len()),
            (first, n)
        );
        f.convergent_op.extend(other.facts.convergent_op);
    }

    /// Function number `index` starts.
    fn start_function(&mut self, index: usize, preamble: &[Inst]) {
        if !self.started {
            self.start_module(preamble);
        }
        self.facts.calls.end_before(index);
        self.facts.global_vars.end_before(index);
        self.facts.convergent_op.push(false);
    }

    /// An instruction of the current function's blocks (its OpenCL literals fixed up).
    fn body(&mut self, op: Op, first_id: Option<SpvId>, used: impl Iterator<Item = SpvId>) {
        if op == Op::FunctionCall
            && let Some(callee) = first_id
        {
            self.facts.calls.push(callee);
        }
        let convergent = opclass::is_convergent(op)
            || (op == Op::ExtInst && first_id.is_some_and(|s| self.ballot_sets.contains(&s)));
        if convergent && let Some(c) = self.facts.convergent_op.last_mut() {
            *c = true;
        }
        for id in used {
            if self.global_vars.contains(id) {
                self.vars.push(id);
            }
        }
    }

    /// The current function ends.
    fn end_function(&mut self) {
        self.vars.sort_unstable();
        self.vars.dedup();
        self.vars
            .iter()
            .for_each(|&v| self.facts.global_vars.push(v));
        self.vars.clear();
    }

    /// The facts of a module of `n` functions.
    fn finish(mut self, n: usize) -> Facts {
        self.facts.calls.end_before(n);
        self.facts.global_vars.end_before(n);
        self.facts.convergent_op.resize(n, false);
        self.facts.analyses = vec![None; n];
        self.facts
    }
}

impl Sections {
    fn new(header: Header, drop_bodies: bool, define: bool) -> Self {
        Sections {
            module: Module {
                header,
                preamble: Vec::new(),
                names: Names::default(),
                decorations: Decorations::default(),
                globals: Vec::new(),
                functions: Vec::new(),
                def_op: if define {
                    DefOps::new(header.bound, header.dense_ids)
                } else {
                    DefOps::new(0, true)
                },
                facts: Facts::default(),
                module_facts: ModuleFacts::default(),
                types: std::sync::Arc::new(Types::empty()),
                constants: Constants::default(),
                bodies: None,
            },
            func: None,
            block: None,
            drop_bodies,
            define,
            define_error: None,
            block_sizes: Vec::new(),
            blocks_started: 0,
            facts: None,
        }
    }

    /// Sizes the module's instruction vectors from the opcodes (a pass over the words),
    /// so that the preamble and globals of a large module are not grown by doubling.
    fn reserve(&mut self, words: &[u32], offsets: &[u32], mut progress: Progress<'_>) {
        let (mut preamble, mut globals, mut functions) = (0, 0, 0);
        let (mut names, mut decorations) = (0, 0);
        let mut in_function = false;
        for &at in offsets {
            progress.read_upto(at as usize);
            let Some(op) = words
                .get(at as usize)
                .and_then(|w| decode::op_of(w & 0xFFFF))
            else {
                continue;
            };
            match op {
                Op::Function => (in_function, functions) = (true, functions + 1),
                Op::FunctionEnd => in_function = false,
                _ if in_function => {}
                Op::Name => names += 1,
                _ if annotations::is_decoration(op) => decorations += 1,
                _ if is_preamble(op) => preamble += 1,
                _ => globals += 1,
            }
        }
        let m = &mut self.module;
        m.preamble.reserve_exact(preamble);
        m.names.reserve(names);
        m.decorations.reserve(decorations);
        m.globals.reserve_exact(globals);
        m.functions.reserve_exact(functions);
    }

    /// Ends the open block without its terminator (deferred with the rest of it).
    fn close_block(&mut self) {
        if let (Some(f), Some(b)) = (self.func.as_mut(), self.block.take()) {
            f.blocks.push(b);
        }
    }

    /// The facts' builder for the module's last functions loaded apart ([`load_tail`]):
    /// this one, started on the module-level part (called when the first function starts,
    /// before any is filed here).
    fn tail_facts(&mut self) -> FactsBuilder {
        let header = self.module.header;
        let facts = self.facts.get_or_insert_with(|| FactsBuilder::new(header));
        if !facts.started {
            facts.start_module(&self.module.preamble);
        }
        facts.clone()
    }

    /// Takes what [`load_tail`] gathered from the functions after the ones filed here, as
    /// if filed here in order; `widths` are this load's. False, with nothing taken, when
    /// that could differ: a function left open here, a literal read here without its
    /// width, an id defined twice here (which may have changed a module-level id's
    /// literal width, which the other part decoded with), or an id both define.
    fn take_tail(&mut self, tail: Tail, widths: &mut decode::Widths) -> bool {
        let Tail {
            sections: tail,
            widths: tail_widths,
        } = tail;
        if self.func.is_some()
            || self.block.is_some()
            || self.define_error.is_some()
            || widths.read_unknown()
        {
            return false;
        }
        if !self.module.def_op.take_disjoint(&tail.module.def_op) {
            return false;
        }
        widths.take_new(&tail_widths);
        let first = self.module.functions.len();
        let n = tail.module.functions.len();
        if let (Some(facts), Some(theirs)) = (self.facts.as_mut(), tail.facts) {
            facts.append(first, theirs, n);
        }
        self.module.functions.extend(tail.module.functions);
        #[cfg(test)]
        TAILS_TAKEN.with(|n| n.set(n.get() + 1));
        true
    }

    /// Records what defines `id` (the result of an `op` at `location`), or the first id
    /// defined twice or out of bound.
    fn define(&mut self, op: Op, id: Option<SpvId>, location: impl FnOnce() -> Location) {
        if self.define
            && self.define_error.is_none()
            && let Some(id) = id
        {
            let bound = self.module.header.bound;
            let defined = (id != SpvId(0))
                .then(|| self.module.def_op.define(id, op))
                .flatten();
            match defined {
                None => {
                    let id = id.0;
                    let e = Error::at(ErrorKind::IdOutOfBound { id, bound }, location());
                    self.define_error = Some(e);
                }
                Some(false) => {
                    self.define_error = Some(Error::at(ErrorKind::RedefinedId(id.0), location()));
                }
                Some(true) => {}
            }
        }
    }

    /// Files a body instruction read in place (a streaming load, which keeps no body) as
    /// [`Sections::push`] would file it decoded, if it is one it files that way: one
    /// inside a block, neither a label nor a function's start or end, nor an
    /// `OpenCL.std` instruction (whose literals are fixed up). False if it must be decoded
    /// and pushed instead: nothing was done with it then.
    fn scan(&mut self, scan: &decode::Scan<'_>) -> bool {
        let filed_in_place = self.drop_bodies
            && self.block.is_some()
            && self.func.is_some()
            && !matches!(
                scan.op,
                Op::Function | Op::FunctionParameter | Op::Label | Op::FunctionEnd
            );
        let Some(facts) = self.facts.as_ref().filter(|_| filed_in_place) else {
            return false;
        };
        if scan.op == Op::ExtInst
            && !facts.opencl_sets.is_empty()
            && scan
                .first_id()
                .is_some_and(|s| facts.opencl_sets.contains(&s))
        {
            return false;
        }
        self.define(scan.op, scan.result_id(), || scan.location());
        if let Some(facts) = self.facts.as_mut() {
            facts.body(scan.op, scan.first_id(), scan.used_ids());
        }
        if is_terminator(scan.op) {
            self.block = None;
            if let Some(f) = self.func.as_mut() {
                f.dropped_blocks += 1;
            }
        }
        true
    }

    /// Files the next instruction.
    fn push(&mut self, mut inst: Inst) -> Result<(), Error> {
        self.define(inst.op, inst.result_id(), || inst.location());
        match inst.op {
            Op::Function => {
                if self.func.is_some() {
                    return Err(structure_err(&inst, "OpFunction inside a function"));
                }
                if let Some(facts) = self.facts.as_mut() {
                    facts.start_function(self.module.functions.len(), &self.module.preamble);
                }
                let word = inst.word();
                self.func = Some(Function {
                    def: inst,
                    params: ThinVec::new(),
                    blocks: ThinVec::with_capacity(self.block_sizes.len()),
                    span: (word, word),
                    dropped_blocks: 0,
                    deferred: ThinVec::new(),
                });
            }
            Op::FunctionParameter => match self.func.as_mut() {
                Some(f) if !f.has_body() && self.block.is_none() => match Param::of(&inst) {
                    Some(p) => f.params.push(p),
                    None => {
                        return Err(structure_err(
                            &inst,
                            "OpFunctionParameter without a result type and id",
                        ));
                    }
                },
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
                let size = self.block_sizes.get(self.blocks_started).copied();
                self.blocks_started += 1;
                self.block = Some(BasicBlock::new(&inst, size.unwrap_or(0) as usize));
            }
            Op::FunctionEnd => {
                if let Some(b) = &self.block {
                    return Err(structure_err(
                        &inst,
                        format!("block %{} has no terminator before OpFunctionEnd", b.id()),
                    ));
                }
                match self.func.take() {
                    Some(mut f) => {
                        if let Some(facts) = self.facts.as_mut() {
                            facts.end_function();
                        }
                        // One word past OpFunctionEnd's first: the next instruction.
                        f.span.1 = inst.word() + 1;
                        f.params.shrink_to_fit();
                        self.module.functions.push(f);
                    }
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
                if let Some(facts) = self.facts.as_mut() {
                    fix_ext_inst_literal(&facts.opencl_sets, &mut inst);
                    let first_id = match inst.operands.first() {
                        Some(
                            Operand::IdRef(id)
                            | Operand::IdScope(id)
                            | Operand::IdMemorySemantics(id),
                        ) => Some(SpvId(*id)),
                        _ => None,
                    };
                    facts.body(inst.op, first_id, inst.used_ids());
                }
                let term = is_terminator(inst.op);
                if !self.drop_bodies {
                    b.insts.push(inst);
                }
                if term && let (Some(f), Some(b)) = (self.func.as_mut(), self.block.take()) {
                    if self.drop_bodies {
                        f.dropped_blocks += 1;
                    } else {
                        f.blocks.push(b);
                    }
                }
            }
            _ => {
                if is_preamble(inst.op) {
                    if !self.module.globals.is_empty() && !matches!(inst.op, Op::Line | Op::NoLine)
                    {
                        // Preamble after types is malformed but harmless; keep it (spirv-val
                        // reports layout errors, we only need the facts).
                    }
                    if inst.op == Op::ExtInstImport
                        && self.facts.as_ref().is_some_and(|f| f.started)
                    {
                        // What each import is must be known when the first body is read
                        // (SPIR-V's logical layout puts every import before the types).
                        return Err(structure_err(
                            &inst,
                            "OpExtInstImport after the first function",
                        ));
                    }
                    // Names and decorations go to their lists by target.
                    let m = &mut self.module;
                    if let Some(inst) = m.names.push(inst).and_then(|i| m.decorations.push(i)) {
                        m.preamble.push(inst);
                    }
                } else if !self.module.functions.is_empty()
                    && !matches!(inst.op, Op::Line | Op::NoLine)
                {
                    return Err(structure_err(
                        &inst,
                        "module-level instruction after the first function",
                    ));
                } else {
                    if inst.op == Op::Variable
                        && let (Some(facts), Some(id)) = (self.facts.as_mut(), inst.result_id())
                    {
                        facts.global_vars.insert(id);
                    }
                    self.module.globals.push(inst);
                }
            }
        }
        Ok(())
    }

    /// The sorted module, once every instruction is filed.
    fn finish(mut self) -> Result<Module, Error> {
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
        if let Some(e) = self.define_error {
            return Err(e);
        }
        self.module.names.finish();
        self.module.decorations.finish();
        if let Some(facts) = self.facts {
            self.module.facts = facts.finish(self.module.functions.len());
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
fn fix_ext_inst_literals(opencl_sets: &[SpvId], f: &mut Function) {
    if opencl_sets.is_empty() {
        return;
    }
    for inst in f.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
        fix_ext_inst_literal(opencl_sets, inst);
    }
}

/// [`fix_ext_inst_literals`] for one instruction.
fn fix_ext_inst_literal(opencl_sets: &[SpvId], inst: &mut Inst) {
    use rspirv::grammar::OperandKind;
    if inst.op != Op::ExtInst || opencl_sets.is_empty() {
        return;
    }
    let (Some(Operand::IdRef(set)), Some(Operand::LiteralExtInstInteger(num))) =
        (inst.operands.first(), inst.operands.get(1))
    else {
        return;
    };
    if !opencl_sets.contains(&SpvId(*set)) {
        return;
    }
    let Some(grammar) = rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE.lookup_opcode(*num)
    else {
        return;
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
            | Op::TypeTensorARM
            | Op::TypeGraphARM
            | Op::TypeNodePayloadArrayAMDX
            | Op::TypeBufferEXT
            | Op::TypeHitObjectNV
            | Op::TypeVectorIdEXT
            | Op::TypeHitObjectEXT
            | Op::TypeCooperativeMatrixNV
            | Op::TypeTensorLayoutNV
            | Op::TypeTensorViewNV
            | Op::TypeVmeImageINTEL
            | Op::TypeAvcImePayloadINTEL
            | Op::TypeAvcRefPayloadINTEL
            | Op::TypeAvcSicPayloadINTEL
            | Op::TypeAvcMcePayloadINTEL
            | Op::TypeAvcMceResultINTEL
            | Op::TypeAvcImeResultINTEL
            | Op::TypeAvcImeResultSingleReferenceStreamoutINTEL
            | Op::TypeAvcImeResultDualReferenceStreamoutINTEL
            | Op::TypeAvcImeSingleReferenceStreaminINTEL
            | Op::TypeAvcImeDualReferenceStreaminINTEL
            | Op::TypeAvcRefResultINTEL
            | Op::TypeAvcSicResultINTEL
            | Op::TypeBufferSurfaceINTEL
            | Op::TypeStructContinuedINTEL
            | Op::TypeTaskSequenceALTERA
    )
}

#[cfg(test)]
mod tests;
