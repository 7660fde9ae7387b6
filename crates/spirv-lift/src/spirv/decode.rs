//! The instruction decoder: SPIR-V words into [`Inst`]s.
//!
//! Most instructions of a module (ids, literals, strings, constants, loads and stores,
//! branches, switches) are decoded here directly from the grammar's operand list, with a
//! dense opcode table and a dense per-id literal-width table; those whose operands are
//! each one word, from a shape of the opcode made once ([`Shape`]), without walking the
//! grammar. An instruction this decoder
//! does not read itself (one with a decoration, execution mode, image or loop operand, an
//! `OpSpecConstantOp`, an enumerant it does not know, or anything malformed) goes to
//! rspirv's parser on its own: those operands do not depend on other instructions, so
//! the result, or the error, is the one rspirv gives when it parses the whole module.
//! [`decode_reference`] is that whole-module parse; a test and a fuzz target check that
//! both agree (`spirv::decode_instructions`).

use super::{Header, IdTable, Inst, Location, Op, Operand, SpvId, op_name_of};
use crate::error::{Error, ErrorKind};
use rspirv::grammar::{Instruction as Grammar, OperandKind as K, OperandQuantifier as Q};
use std::sync::OnceLock;

/// How a constant literal of a tracked type is read (`rspirv`'s type tracker).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    /// Not an integer or float type known to the tracker: one word.
    Unknown,
    /// One word (8-, 16- and 32-bit integers; 16- and 32-bit floats).
    One,
    /// Two words (64 bits).
    Two,
    /// A width the decoder does not read: an error.
    Unsupported,
}

/// Literal widths by id: the type ids of `OpTypeInt`/`OpTypeFloat` and every value of
/// such a type, as rspirv tracks them.
#[derive(Clone, Debug)]
pub(super) struct Widths {
    /// Ids below the bound.
    dense: IdTable<Width>,
    /// Ids at or above it (an error later, but tracked as rspirv does).
    sparse: foldhash::HashMap<u32, Width>,
    /// Ids whose width a literal was read with (a constant's type, a switch's selector)
    /// before it was known, with the word of the first such instruction.
    read_unknown: foldhash::HashMap<u32, usize>,
    /// The first of those whose width became known later: (id, word of the reader).
    pub(super) late: Option<(u32, usize)>,
}

impl Widths {
    pub(super) fn new(header: Header) -> Self {
        Widths {
            dense: header.id_table(Width::Unknown),
            sparse: Default::default(),
            read_unknown: Default::default(),
            late: None,
        }
    }
    fn get(&self, id: u32) -> Width {
        match self.dense.get(SpvId(id)) {
            Some(w) => *w,
            None => self.sparse.get(&id).copied().unwrap_or(Width::Unknown),
        }
    }
    fn set(&mut self, id: u32, w: Width) {
        // Empty on valid input: no lookup per value then.
        if self.late.is_none()
            && !self.read_unknown.is_empty()
            && let Some(&word) = self.read_unknown.get(&id)
        {
            self.late = Some((id, word));
        }
        match self.dense.get_mut(SpvId(id)) {
            Some(slot) => *slot = w,
            None => {
                self.sparse.insert(id, w);
            }
        }
    }
    /// Whether a literal was read without knowing its width (or before it was known):
    /// what a run of instructions decoded apart from the ones before it may have read
    /// otherwise.
    pub(super) fn read_unknown(&self) -> bool {
        !self.read_unknown.is_empty() || self.late.is_some()
    }

    /// Takes from `other` the widths of the ids it knows and this one does not: `other`
    /// started as a copy of this one and went on with instructions this one did not
    /// decode, which defined ids none here defines.
    pub(super) fn take_new(&mut self, other: &Widths) {
        self.dense.fill_from(&other.dense);
        for (&id, &w) in &other.sparse {
            self.sparse.entry(id).or_insert(w);
        }
    }

    /// Notes a literal of `inst` (at word `at`) read without knowing its width: decoded
    /// again later, with the width known, it would read differently.
    fn note_reads(&mut self, inst: &Inst, at: usize) {
        let id = match inst.op {
            Op::Constant | Op::SpecConstant => inst.result_type().map(|t| t.0),
            Op::Switch => match inst.operands.first() {
                Some(Operand::IdRef(sel)) => Some(*sel),
                _ => None,
            },
            _ => None,
        };
        if let Some(id) = id
            && self.get(id) == Width::Unknown
        {
            self.read_unknown.entry(id).or_insert(at);
        }
    }

    /// [`Widths::track`] for an instruction read in place (not a type: [`scan_one`]).
    fn track_scan(&mut self, scan: &Scan<'_>) {
        if let (Some(rid), Some(t)) = (scan.result_id(), scan.result_type()) {
            let w = self.get(t.0);
            if w != Width::Unknown {
                self.set(rid.0, w);
            }
        }
    }

    /// Records what rspirv's `TypeTracker::track` records for `inst`.
    fn track(&mut self, inst: &Inst) {
        let Some(rid) = inst.result_id() else { return };
        let bits = |i: usize| match inst.operands.get(i) {
            Some(Operand::LiteralBit32(b)) => Some(*b),
            _ => None,
        };
        let width = match inst.op {
            Op::TypeInt => match (bits(0), bits(1)) {
                (Some(8 | 16 | 32), Some(_)) => Width::One,
                (Some(64), Some(_)) => Width::Two,
                (Some(_), Some(_)) => Width::Unsupported,
                _ => return,
            },
            Op::TypeFloat => match bits(0) {
                Some(16 | 32) => Width::One,
                Some(64) => Width::Two,
                Some(_) => Width::Unsupported,
                None => return,
            },
            op if op.is_type() => return,
            _ => match inst.result_type().map(|t| self.get(t.0)) {
                Some(w) if w != Width::Unknown => w,
                _ => return,
            },
        };
        self.set(rid.0, width);
    }
}

/// Per opcode number: the first grammar entry with that number (what rspirv's
/// `lookup_opcode` finds) and whether this decoder reads it; and the opcodes this decoder
/// reads whose operands are each one word, their [`Shape`].
struct Table {
    entries: Vec<Option<(&'static Grammar<'static>, bool)>>,
    shapes: Vec<Option<Shape>>,
}

/// An operand of one word, as [`fast`] reads its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    Id,
    Scope,
    Semantics,
    Literal,
    ExtInst,
}

impl Word {
    fn of(kind: K) -> Option<Word> {
        Some(match kind {
            K::IdRef => Word::Id,
            K::IdScope => Word::Scope,
            K::IdMemorySemantics => Word::Semantics,
            K::LiteralInteger | K::LiteralFloat => Word::Literal,
            K::LiteralExtInstInteger => Word::ExtInst,
            _ => return None,
        })
    }

    fn operand(self, w: u32) -> Operand {
        match self {
            Word::Id => Operand::IdRef(w),
            Word::Scope => Operand::IdScope(w),
            Word::Semantics => Operand::IdMemorySemantics(w),
            Word::Literal => Operand::LiteralBit32(w),
            Word::ExtInst => Operand::LiteralExtInstInteger(w),
        }
    }
}

/// What comes after an opcode's fixed operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tail {
    /// Nothing.
    None,
    /// An optional operand (and maybe more): only its absence is read by shape.
    Optional,
    /// Any number of one-word operands of one kind.
    Many(Word),
    /// Any number of pairs of ids (`OpPhi`).
    Pairs,
    /// Optional memory operands (`OpLoad`, `OpStore`): read by shape when absent, or when
    /// only `Aligned` among them takes a parameter.
    Memory,
}

/// The words of memory operands whose mask is `mask`, if only `Aligned` among its bits
/// takes a parameter (`Volatile`, `Aligned`, `Nontemporal`: what compilers write).
fn memory_words(mask: u32) -> Option<usize> {
    use ::spirv::MemoryAccess as M;
    let m = M::from_bits(mask)?;
    (M::VOLATILE | M::ALIGNED | M::NONTEMPORAL)
        .contains(m)
        .then(|| 1 + usize::from(m.contains(M::ALIGNED)))
}

/// The most fixed operands a [`Shape`] has (`OpAtomicCompareExchange` has six).
const SHAPE_FIXED: usize = 6;

/// An opcode whose operands, after its result type and id, are a few of one word each
/// ([`Word`]), then maybe a [`Tail`]. An instruction of such an opcode whose word count
/// fits is decoded from the shape, one operand per word, without walking the grammar: the
/// same operands [`fast`] reads (most instructions of a function body: arithmetic,
/// loads and stores with no memory operands or only `Volatile`, `Aligned` and
/// `Nontemporal`, access chains, calls, branches, phis, extended instructions, atomics
/// and barriers). Any other word count goes to [`fast`], which reads an optional operand
/// or reports the error. On the 3,000-kernel module this is 2.7 % fewer instructions for
/// the whole translation (callgrind, 1,813 M -> 1,765 M with one thread).
#[derive(Clone, Copy, Debug)]
struct Shape {
    has_type: bool,
    has_id: bool,
    fixed: [Word; SHAPE_FIXED],
    n: u8,
    tail: Tail,
}

impl Shape {
    fn of(g: &Grammar<'_>) -> Option<Shape> {
        let mut ops = g.operands.iter().peekable();
        let has_type = ops
            .next_if(|o| o.kind == K::IdResultType && o.quantifier == Q::One)
            .is_some();
        let has_id = ops
            .next_if(|o| o.kind == K::IdResult && o.quantifier == Q::One)
            .is_some();
        let mut shape = Shape {
            has_type,
            has_id,
            fixed: [Word::Id; SHAPE_FIXED],
            n: 0,
            tail: Tail::None,
        };
        while let Some(o) = ops.next() {
            match o.quantifier {
                Q::One => {
                    let slot = shape.fixed.get_mut(usize::from(shape.n))?;
                    *slot = Word::of(o.kind)?;
                    shape.n += 1;
                }
                // `fast` stops at an optional operand with no words left, whatever follows.
                Q::ZeroOrOne => {
                    shape.tail = match o.kind {
                        K::MemoryAccess if ops.peek().is_none() => Tail::Memory,
                        _ => Tail::Optional,
                    };
                    break;
                }
                Q::ZeroOrMore => {
                    shape.tail = match o.kind {
                        K::PairIdRefIdRef => Tail::Pairs,
                        kind => Tail::Many(Word::of(kind)?),
                    };
                    if ops.peek().is_some() {
                        return None;
                    }
                }
            }
        }
        Some(shape)
    }

    /// The words of the result type and id.
    fn head(&self) -> usize {
        usize::from(self.has_type) + usize::from(self.has_id)
    }

    /// Whether `words`, an instruction's words after the first, fit the shape.
    fn fits(&self, words: &[u32]) -> bool {
        let head = self.head();
        let n = usize::from(self.n);
        let Some(rest) = words.len().checked_sub(head + n) else {
            return false;
        };
        match self.tail {
            Tail::None | Tail::Optional => rest == 0,
            Tail::Many(_) => true,
            Tail::Pairs => rest % 2 == 0,
            Tail::Memory => rest == 0 || Some(rest) == memory_words(words[head + n]),
        }
    }

    /// The kind of operand `i` (after the result type and id) of an instruction that
    /// fits: `None` for a word that is not an operand of its own (a memory operand).
    fn kind(&self, i: usize) -> Option<Word> {
        let n = usize::from(self.n);
        if i < n {
            return Some(self.fixed[i]);
        }
        match self.tail {
            Tail::Many(w) => Some(w),
            Tail::Pairs => Some(Word::Id),
            Tail::None | Tail::Optional | Tail::Memory => None,
        }
    }

    /// The instruction of opcode `op` at word `at` whose words after the first are
    /// `words`, if their count fits the shape.
    fn decode(&self, op: Op, words: &[u32], at: usize) -> Option<Inst> {
        if !self.fits(words) {
            return None;
        }
        let head = self.head();
        let n = usize::from(self.n);
        let result_type = self.has_type.then(|| super::SpvTypeId(words[0]));
        let result_id = self.has_id.then(|| SpvId(words[head - 1]));
        let many = match self.tail {
            Tail::Many(w) => w,
            _ => Word::Id,
        };
        let operands = words[head..].iter().enumerate().map(|(i, &w)| {
            if self.tail == Tail::Memory && i >= n {
                return match i - n {
                    // Known bits: `memory_words` read them.
                    0 => Operand::MemoryAccess(::spirv::MemoryAccess::from_bits_retain(w)),
                    _ => Operand::LiteralBit32(w),
                };
            }
            let kind = self.fixed.get(i).filter(|_| i < n).copied().unwrap_or(many);
            kind.operand(w)
        });
        Some(Inst::new(
            op,
            at as u32,
            result_type,
            result_id,
            operands.collect(),
        ))
    }
}

/// A function-body instruction read in place, by its opcode's [`Shape`], without
/// building an [`Inst`]: what the load pass needs of most body instructions (their
/// result id, the ids they use, their first operand), which the checks and the lowering
/// decode again anyway. Exactly the instruction [`decode_one`] would decode there.
#[derive(Clone, Copy)]
pub(super) struct Scan<'a> {
    pub(super) op: Op,
    /// The word offset of the instruction (of its first word).
    pub(super) at: usize,
    shape: &'static Shape,
    /// The words after the first.
    words: &'a [u32],
}

impl Scan<'_> {
    pub(super) fn result_type(&self) -> Option<super::SpvTypeId> {
        self.shape.has_type.then(|| super::SpvTypeId(self.words[0]))
    }

    pub(super) fn result_id(&self) -> Option<SpvId> {
        (self.shape.has_id).then(|| SpvId(self.words[usize::from(self.shape.has_type)]))
    }

    /// Operand 0 (after the result type and id), if it is an id ([`Inst::id`]`(0)`).
    pub(super) fn first_id(&self) -> Option<SpvId> {
        match self.shape.kind(0)? {
            Word::Id | Word::Scope | Word::Semantics => {
                self.words.get(self.shape.head()).map(|&w| SpvId(w))
            }
            Word::Literal | Word::ExtInst => None,
        }
    }

    /// The result type and every id operand, in order ([`Inst::used_ids`]).
    pub(super) fn used_ids(&self) -> impl Iterator<Item = SpvId> + '_ {
        let head = self.shape.head();
        let operands = self.words[head..].iter().enumerate();
        self.result_type().map(SpvId::from).into_iter().chain(
            operands
                .filter(|&(i, _)| {
                    matches!(
                        self.shape.kind(i),
                        Some(Word::Id | Word::Scope | Word::Semantics)
                    )
                })
                .map(|(_, &w)| SpvId(w)),
        )
    }

    /// Where the instruction is, as [`Inst::location`] says.
    pub(super) fn location(&self) -> Location {
        Location {
            word: Some(self.at),
            opcode: Some(op_name(self.op)),
            result_id: self.result_id().map(u32::from),
        }
    }
}

/// The instruction at word `at` as a [`Scan`], if it has a shape that its words fit and
/// it is not a type (whose widths [`Widths::track`] reads from its operands).
fn scan_one(words: &[u32], at: usize) -> Option<Scan<'_>> {
    let first = *words.get(at)?;
    let count = (first >> 16) as usize;
    let body = words.get(at + 1..at + count)?;
    let number = (first & 0xffff) as usize;
    let table = table();
    let shape = table.shapes.get(number)?.as_ref()?;
    let (g, _) = table.entries[number]?;
    (!g.opcode.is_type() && shape.fits(body)).then_some(Scan {
        op: g.opcode,
        at,
        shape,
        words: body,
    })
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut entries: Vec<Option<(&'static Grammar<'static>, bool)>> = Vec::new();
        let mut shapes = Vec::new();
        for g in rspirv::grammar::INSTRUCTION_TABLE.iter() {
            let n = g.opcode as usize;
            if entries.len() <= n {
                entries.resize(n + 1, None);
                shapes.resize(n + 1, None);
            }
            if entries[n].is_none() {
                let fast = g.operands.iter().all(|o| fast_kind(o.kind))
                    || matches!(g.opcode, Op::Constant | Op::SpecConstant | Op::Switch);
                entries[n] = Some((g, fast));
                shapes[n] = Shape::of(g).filter(|_| fast);
            }
        }
        Table { entries, shapes }
    })
}

/// The opcode numbered `n` (`Op::from_u32`, a long `match`, as a lookup in the decoder's
/// opcode table).
pub(crate) fn op_of(n: u32) -> Option<Op> {
    table()
        .entries
        .get(n as usize)
        .copied()
        .flatten()
        .map(|(g, _)| g.opcode)
}

/// One past the highest opcode number the grammar knows.
pub(crate) fn known_op_numbers() -> u32 {
    table().entries.len() as u32
}

/// The grammar's name of `op` (without `Op`), from the decoder's opcode table.
pub(crate) fn op_name(op: Op) -> &'static str {
    table()
        .entries
        .get(op as usize)
        .copied()
        .flatten()
        .map_or("Unknown", |(g, _)| g.opname)
}

/// An enumerant operand read with the `spirv` crate's `from_u32` (value enums) or
/// `from_bits` (masks); a value it does not know goes to rspirv.
macro_rules! enumerant {
    ($r:expr, $kind:ident, $read:ident) => {
        Operand::$kind(::spirv::$kind::$read($r.word()?).ok_or(Miss::Delegate)?)
    };
}

/// Every opcode the grammar knows (the first entry of each number).
#[cfg(test)]
pub(crate) fn known_ops() -> impl Iterator<Item = Op> {
    table().entries.iter().flatten().map(|(g, _)| g.opcode)
}

/// Operand kinds this decoder reads itself.
fn fast_kind(kind: K) -> bool {
    matches!(
        kind,
        K::IdResultType
            | K::IdResult
            | K::IdRef
            | K::IdScope
            | K::IdMemorySemantics
            | K::LiteralInteger
            | K::LiteralFloat
            | K::LiteralString
            | K::LiteralExtInstInteger
            | K::PairIdRefIdRef
            | K::PairIdRefLiteralInteger
            | K::StorageClass
            | K::FunctionControl
            | K::SelectionControl
            | K::MemoryAccess
            | K::GroupOperation
            | K::Capability
            | K::SourceLanguage
            | K::AddressingModel
            | K::MemoryModel
            | K::ExecutionModel
            | K::Decoration
            | K::LoopControl
            | K::LiteralSpecConstantOpInteger
    )
}

/// Whether this decoder reads an `OpSpecConstantOp` of operation `g`: one with a result
/// type and id, whose other operands are ids and literal integers (every operation SPIR-V
/// allows there). Others go to rspirv.
fn spec_op_read_here(g: &Grammar<'_>) -> bool {
    let kinds = |i: usize| g.operands.get(i).map(|o| o.kind);
    kinds(0) == Some(K::IdResultType)
        && kinds(1) == Some(K::IdResult)
        && g.operands[2..]
            .iter()
            .all(|o| matches!(o.kind, K::IdRef | K::LiteralInteger))
}

/// Whether operation `g` has an optional or repeated operand, which rspirv's parser
/// reads exactly once inside `OpSpecConstantOp` (so it refuses an `OpVectorShuffle` of
/// two components, an `OpCompositeExtract` with two indices, an access chain without
/// indices, all valid SPIR-V). This decoder reads them by their quantifiers, and
/// [`decode_reference`] decodes them with rspirv as the operation itself.
fn spec_op_quantified(g: &Grammar<'_>) -> bool {
    g.operands.iter().any(|o| o.quantifier != Q::One)
}

/// `OpSpecConstantOp`'s operation (its opcode operand) and that operation's operands,
/// read by its grammar; an operation not read here goes to rspirv.
fn spec_constant_op(r: &mut Reader<'_>, out: &mut Vec<Operand>) -> Result<(), Miss> {
    let number = r.word()?;
    let entry = table().entries.get(number as usize).copied().flatten();
    let Some((g, _)) = entry.filter(|(g, _)| spec_op_read_here(g)) else {
        return Err(Miss::Delegate);
    };
    // A missing operand: rspirv's message where it reads the operation itself.
    let missing = if spec_op_quantified(g) {
        OPERAND_EXPECTED
    } else {
        LIMIT_REACHED
    };
    out.push(Operand::LiteralSpecConstantOpInteger(g.opcode));
    let operands = g.operands.iter();
    for lo in operands.filter(|o| !matches!(o.kind, K::IdResultType | K::IdResult)) {
        loop {
            if !r.more() {
                if lo.quantifier == Q::One {
                    return Err(Miss::Error(missing));
                }
                break;
            }
            let w = r.word()?;
            out.push(if lo.kind == K::IdRef {
                Operand::IdRef(w)
            } else {
                Operand::LiteralBit32(w)
            });
            if lo.quantifier != Q::ZeroOrMore {
                break;
            }
        }
    }
    Ok(())
}

/// A decoration's operands as rspirv reads them, for the decorations read here (the
/// others go to rspirv).
fn decoration_params(r: &mut Reader<'_>, d: u32, out: &mut Vec<Operand>) -> Result<(), Miss> {
    use ::spirv::Decoration as D;
    let d = D::from_u32(d).ok_or(Miss::Delegate)?;
    match d {
        D::RelaxedPrecision
        | D::Block
        | D::BufferBlock
        | D::RowMajor
        | D::ColMajor
        | D::GLSLShared
        | D::GLSLPacked
        | D::CPacked
        | D::NoPerspective
        | D::Flat
        | D::Patch
        | D::Centroid
        | D::Sample
        | D::Invariant
        | D::Restrict
        | D::Aliased
        | D::Volatile
        | D::Constant
        | D::Coherent
        | D::NonWritable
        | D::NonReadable
        | D::Uniform
        | D::SaturatedConversion
        | D::NoContraction
        | D::NoSignedWrap
        | D::NoUnsignedWrap
        | D::NonUniform
        | D::RestrictPointer
        | D::AliasedPointer => {}
        D::SpecId
        | D::ArrayStride
        | D::MatrixStride
        | D::Stream
        | D::Location
        | D::Component
        | D::Index
        | D::Binding
        | D::DescriptorSet
        | D::Offset
        | D::XfbBuffer
        | D::XfbStride
        | D::InputAttachmentIndex
        | D::Alignment
        | D::MaxByteOffset => out.push(Operand::LiteralBit32(r.word()?)),
        D::BuiltIn => out.push(enumerant!(r, BuiltIn, from_u32)),
        D::FuncParamAttr => out.push(enumerant!(r, FunctionParameterAttribute, from_u32)),
        D::FPRoundingMode => out.push(enumerant!(r, FPRoundingMode, from_u32)),
        D::FPFastMathMode => out.push(enumerant!(r, FPFastMathMode, from_bits)),
        D::LinkageAttributes => {
            out.push(Operand::LiteralString(Box::new(r.string()?)));
            out.push(enumerant!(r, LinkageType, from_u32));
        }
        _ => return Err(Miss::Delegate),
    }
    Ok(())
}

/// Why the fast path gave up on an instruction.
enum Miss {
    /// rspirv gives the same answer for this instruction on its own.
    Delegate,
    /// An error that needs the module's context (a constant's or switch's literal).
    Error(&'static str),
}

/// Reads one instruction's operands (`words` excludes the first word).
struct Reader<'w> {
    words: &'w [u32],
    at: usize,
}

impl Reader<'_> {
    fn more(&self) -> bool {
        self.at < self.words.len()
    }
    fn word(&mut self) -> Result<u32, Miss> {
        let w = self.words.get(self.at).copied().ok_or(Miss::Delegate)?;
        self.at += 1;
        Ok(w)
    }
    /// A word of a constant's or switch's literal: running out is an error here, since
    /// rspirv alone would not know the literal's width.
    fn literal_word(&mut self) -> Result<u32, Miss> {
        self.word().map_err(|_| Miss::Error(LIMIT_REACHED))
    }
    fn literal(&mut self, width: Width) -> Result<Operand, Miss> {
        Ok(match width {
            Width::Unknown | Width::One => Operand::LiteralBit32(self.literal_word()?),
            Width::Two => {
                let low = u64::from(self.literal_word()?);
                let high = u64::from(self.literal_word()?);
                Operand::LiteralBit64((high << 32) | low)
            }
            Width::Unsupported => return Err(Miss::Error(TYPE_UNSUPPORTED)),
        })
    }
    fn string(&mut self) -> Result<String, Miss> {
        let rest = &self.words[self.at..];
        let mut bytes = Vec::new();
        for (i, w) in rest.iter().enumerate() {
            let b = w.to_le_bytes();
            if let Some(n) = b.iter().position(|&c| c == 0) {
                bytes.extend_from_slice(&b[..n]);
                self.at += i + 1;
                return String::from_utf8(bytes).map_err(|_| Miss::Delegate);
            }
            bytes.extend_from_slice(&b);
        }
        Err(Miss::Delegate)
    }
}

/// rspirv's messages (as `decode_message` words them) for the errors found here.
const LIMIT_REACHED: &str = "an operand runs past the instruction's word count";
const OPERAND_EXPECTED: &str = "the instruction has fewer operands than its opcode needs";
const OPERAND_EXCEEDED: &str = "the instruction has more words than its operands use";
const TYPE_UNSUPPORTED: &str = "a literal's type has a width the decoder does not read";

fn fast(
    g: &'static Grammar<'static>,
    words: &[u32],
    widths: &Widths,
    word: usize,
) -> Result<Inst, Miss> {
    let mut r = Reader { words, at: 0 };
    let mut result_type = None;
    let mut result_id = None;
    // One operand per word at most, after the result type and id (exact for ids and
    // 32-bit literals, which most operands are).
    let results = g.operands.iter().take(2);
    let results = results.filter(|o| matches!(o.kind, K::IdResultType | K::IdResult));
    let mut operands = Vec::with_capacity(words.len().saturating_sub(results.count()));
    let mut li = 0;
    while let Some(lo) = g.operands.get(li) {
        if !r.more() {
            match lo.quantifier {
                Q::One => return Err(Miss::Error(OPERAND_EXPECTED)),
                Q::ZeroOrOne | Q::ZeroOrMore => break,
            }
        }
        match lo.kind {
            K::IdResultType => result_type = Some(r.word()?),
            K::IdResult => result_id = Some(r.word()?),
            K::IdRef => operands.push(Operand::IdRef(r.word()?)),
            K::IdScope => operands.push(Operand::IdScope(r.word()?)),
            K::IdMemorySemantics => operands.push(Operand::IdMemorySemantics(r.word()?)),
            K::LiteralInteger | K::LiteralFloat => operands.push(Operand::LiteralBit32(r.word()?)),
            K::LiteralExtInstInteger => operands.push(Operand::LiteralExtInstInteger(r.word()?)),
            K::LiteralString => operands.push(Operand::LiteralString(Box::new(r.string()?))),
            K::PairIdRefIdRef => {
                operands.push(Operand::IdRef(r.word()?));
                operands.push(Operand::IdRef(r.word()?));
            }
            K::PairIdRefLiteralInteger => {
                operands.push(Operand::IdRef(r.word()?));
                operands.push(Operand::LiteralBit32(r.word()?));
            }
            K::LiteralContextDependentNumber => {
                let width = result_type.map_or(Width::Unknown, |t| widths.get(t));
                operands.push(r.literal(width)?);
            }
            K::PairLiteralIntegerIdRef => {
                let width = match operands.first() {
                    Some(Operand::IdRef(sel)) => widths.get(*sel),
                    _ => Width::Unknown,
                };
                operands.push(r.literal(width)?);
                operands.push(Operand::IdRef(r.literal_word()?));
            }
            K::MemoryAccess => {
                let m = ::spirv::MemoryAccess::from_bits(r.word()?).ok_or(Miss::Delegate)?;
                operands.push(Operand::MemoryAccess(m));
                use ::spirv::MemoryAccess as M;
                if m.contains(M::ALIGNED) {
                    operands.push(Operand::LiteralBit32(r.word()?));
                }
                if m.contains(M::MAKE_POINTER_AVAILABLE) {
                    operands.push(Operand::IdScope(r.word()?));
                }
                if m.contains(M::MAKE_POINTER_VISIBLE) {
                    operands.push(Operand::IdScope(r.word()?));
                }
                if m.contains(M::ALIAS_SCOPE_INTEL_MASK) {
                    operands.push(Operand::IdRef(r.word()?));
                }
                if m.contains(M::NO_ALIAS_INTEL_MASK) {
                    operands.push(Operand::IdRef(r.word()?));
                }
            }
            K::Decoration => {
                let d = r.word()?;
                let decoration = ::spirv::Decoration::from_u32(d).ok_or(Miss::Delegate)?;
                operands.push(Operand::Decoration(decoration));
                decoration_params(&mut r, d, &mut operands)?;
            }
            K::LiteralSpecConstantOpInteger => spec_constant_op(&mut r, &mut operands)?,
            K::LoopControl => {
                use ::spirv::LoopControl as L;
                let l = L::from_bits(r.word()?).ok_or(Miss::Delegate)?;
                // Unroll, DontUnroll and DependencyInfinite take no operands; the
                // others go to rspirv.
                if !(L::UNROLL | L::DONT_UNROLL | L::DEPENDENCY_INFINITE).contains(l) {
                    return Err(Miss::Delegate);
                }
                operands.push(Operand::LoopControl(l));
            }
            K::StorageClass => operands.push(enumerant!(r, StorageClass, from_u32)),
            K::FunctionControl => operands.push(enumerant!(r, FunctionControl, from_bits)),
            K::SelectionControl => operands.push(enumerant!(r, SelectionControl, from_bits)),
            K::GroupOperation => operands.push(enumerant!(r, GroupOperation, from_u32)),
            K::Capability => operands.push(enumerant!(r, Capability, from_u32)),
            K::SourceLanguage => operands.push(enumerant!(r, SourceLanguage, from_u32)),
            K::AddressingModel => operands.push(enumerant!(r, AddressingModel, from_u32)),
            K::MemoryModel => operands.push(enumerant!(r, MemoryModel, from_u32)),
            K::ExecutionModel => operands.push(enumerant!(r, ExecutionModel, from_u32)),
            _ => return Err(Miss::Delegate),
        }
        if lo.quantifier != Q::ZeroOrMore {
            li += 1;
        }
    }
    if r.more() {
        return Err(Miss::Error(OPERAND_EXCEEDED));
    }
    Ok(Inst::new(
        g.opcode,
        word as u32,
        result_type.map(super::SpvTypeId),
        result_id.map(SpvId),
        operands.into_boxed_slice(),
    ))
}

/// Decodes every instruction (`offsets` from `instruction_offsets`).
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn decode(words: &[u32], offsets: &[u32], header: Header) -> Result<Vec<Inst>, Error> {
    let mut insts = Vec::with_capacity(offsets.len());
    decode_each(words, offsets, header, Default::default(), |inst| {
        insts.push(inst)
    })?;
    Ok(insts)
}

/// Decodes the instructions at `offsets` in order, handing each to `each`; stops at the
/// first malformed one. `progress` is told how far the words were read.
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn decode_each(
    words: &[u32],
    offsets: &[u32],
    header: Header,
    mut progress: crate::progress::Progress<'_>,
    mut each: impl FnMut(Inst),
) -> Result<Widths, Error> {
    let mut widths = Widths::new(header);
    decode_with(words, offsets, &mut widths, &mut progress, |inst| {
        each(inst);
        true
    })?;
    Ok(widths)
}

/// As [`decode_each`], from the literal widths known so far (`widths`, which it updates):
/// a run of a module's instructions, the ones before it decoded with `widths` too. Stops
/// early, with `Ok(false)`, when `each` returns false.
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn decode_with(
    words: &[u32],
    offsets: &[u32],
    widths: &mut Widths,
    progress: &mut crate::progress::Progress<'_>,
    mut each: impl FnMut(Inst) -> bool,
) -> Result<bool, Error> {
    for at in offsets.iter().map(|&o| o as usize) {
        progress.read_upto(at);
        let inst = decode_one(words, at, widths)?;
        widths.note_reads(&inst, at);
        widths.track(&inst);
        if !each(inst) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// What [`read_with`] hands over: an instruction read in place, or decoded.
pub(super) enum Read<'a> {
    Scanned(Scan<'a>),
    Decoded(Inst),
}

/// What [`read_with`] does after handing over an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    Next,
    Stop,
    /// (For a [`Read::Scanned`] one.) Decode it and hand it over again, as
    /// [`Read::Decoded`]; nothing was done with it.
    Decode,
}

/// As [`decode_with`], handing over each instruction that has a shape its words fit as
/// a [`Scan`] first: only when `each` answers [`Flow::Decode`] is it decoded.
pub(super) fn read_with(
    words: &[u32],
    offsets: &[u32],
    widths: &mut Widths,
    progress: &mut crate::progress::Progress<'_>,
    mut each: impl FnMut(Read<'_>) -> Flow,
) -> Result<bool, Error> {
    for at in offsets.iter().map(|&o| o as usize) {
        progress.read_upto(at);
        if let Some(scan) = scan_one(words, at) {
            match each(Read::Scanned(scan)) {
                Flow::Next => {
                    widths.track_scan(&scan);
                    continue;
                }
                Flow::Stop => return Ok(false),
                Flow::Decode => {}
            }
        }
        let inst = decode_one(words, at, widths)?;
        widths.note_reads(&inst, at);
        widths.track(&inst);
        if each(Read::Decoded(inst)) != Flow::Next {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Decodes the instruction at word `at`, with the literal widths known so far.
pub(super) fn decode_one(words: &[u32], at: usize, widths: &Widths) -> Result<Inst, Error> {
    let (first, body) = words_at(words, at)?;
    let count = body.len() + 1;
    let table = table();
    let number = (first & 0xffff) as usize;
    let entry = table.entries.get(number).copied().flatten();
    match entry {
        Some((g, true)) => match table.shapes[number].and_then(|s| s.decode(g.opcode, body, at)) {
            Some(inst) => Ok(inst),
            None => match fast(g, body, widths, at) {
                Ok(inst) => Ok(inst),
                Err(Miss::Delegate) => alone(words, at, count),
                Err(Miss::Error(msg)) => {
                    Err(decode_error(words, at, ErrorKind::Decode(msg.into())))
                }
            },
        },
        _ => alone(words, at, count),
    }
}

/// The first word of the instruction at word `at`, and its other words.
fn words_at(words: &[u32], at: usize) -> Result<(u32, &[u32]), Error> {
    let first = words.get(at).copied().unwrap_or(0);
    let count = (first >> 16) as usize;
    // The load found every word count valid; an instruction decoded again can still find
    // another (a mapped input file truncated meanwhile reads as zeros:
    // `src/cli/mapped.rs`).
    match words.get(at + 1..at + count) {
        Some(body) => Ok((first, body)),
        None => {
            let kind = match count {
                0 => ErrorKind::ZeroWordCount,
                _ => ErrorKind::Truncated { count: first >> 16 },
            };
            let loc = Location {
                word: Some(at),
                opcode: None,
                result_id: None,
            };
            Err(Error::at(kind, loc))
        }
    }
}

/// Decodes the instruction at word `at` again, alone (with rspirv, as a module of its
/// own), for an error found once the load's instructions are gone: for an instruction
/// whose literals all have a width of their own (not `OpConstant`'s or `OpSwitch`'s).
pub(super) fn decode_alone(words: &[u32], at: usize) -> Result<Inst, Error> {
    let (_, body) = words_at(words, at)?;
    alone(words, at, body.len() + 1)
}

fn decode_error(words: &[u32], at: usize, kind: ErrorKind) -> Error {
    let loc = Location {
        word: Some(at),
        opcode: op_name_of(words[at] & 0xffff),
        result_id: None,
    };
    Error::at(kind, loc)
}

/// Decodes the instruction at `at` with rspirv, as a module of its own.
fn alone(words: &[u32], at: usize, count: usize) -> Result<Inst, Error> {
    let mut module = Vec::with_capacity(5 + count);
    module.extend_from_slice(&words[..5]);
    module.extend_from_slice(&words[at..at + count]);
    match rspirv_parse(&module, &[at]) {
        Ok(mut insts) => insts.pop().ok_or_else(|| {
            decode_error(
                words,
                at,
                ErrorKind::Decode("rspirv returned no instruction".into()),
            )
        }),
        Err((_, kind)) => Err(decode_error(words, at, kind)),
    }
}

/// Decodes a whole module with rspirv's parser alone (the reference for [`decode`];
/// `offsets` from `instruction_offsets`).
#[cfg(any(test, feature = "fuzzing"))]
pub(super) fn decode_reference(words: &[u32], offsets: &[usize]) -> Result<Vec<Inst>, Error> {
    reference(words, offsets).map_err(|(idx, kind)| {
        let at = offsets.get(idx).copied().unwrap_or(words.len());
        let loc = Location {
            word: Some(at),
            opcode: words.get(at).and_then(|w| op_name_of(w & 0xffff)),
            result_id: None,
        };
        Error::at(kind, loc)
    })
}

struct Collector<'a> {
    offsets: &'a [usize],
    insts: Vec<Inst>,
}

impl rspirv::binary::Consumer for Collector<'_> {
    fn initialize(&mut self) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }
    fn finalize(&mut self) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }
    fn consume_header(&mut self, _: rspirv::dr::ModuleHeader) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }
    fn consume_instruction(
        &mut self,
        inst: rspirv::dr::Instruction,
    ) -> rspirv::binary::ParseAction {
        let word = self.offsets.get(self.insts.len()).copied().unwrap_or(0);
        self.insts.push(Inst::from_dr(inst, word));
        rspirv::binary::ParseAction::Continue
    }
}

/// rspirv's parse; an error comes with the index of the failing instruction.
///
/// rspirv reads each operand of an `OpSpecConstantOp`'s operation once, whatever its
/// quantifier (see [`spec_op_quantified`]). Such instructions are parsed as an
/// `OpSpecConstantComposite` of the same words (so the rest of the module parses as it
/// would), then replaced by rspirv's parse of their operation as an instruction of its
/// own, which reads the quantifiers right.
#[cfg(any(test, feature = "fuzzing"))]
fn reference(words: &[u32], offsets: &[usize]) -> Result<Vec<Inst>, (usize, ErrorKind)> {
    let quantified: Vec<usize> = (0..offsets.len())
        .filter(|&i| {
            let at = offsets[i];
            let count = (words[at] >> 16) as usize;
            words[at] & 0xffff == Op::SpecConstantOp as u32
                && count >= 4
                && table()
                    .entries
                    .get(words[at + 3] as usize)
                    .copied()
                    .flatten()
                    .is_some_and(|(g, _)| spec_op_read_here(g) && spec_op_quantified(g))
        })
        .collect();
    if quantified.is_empty() {
        return rspirv_parse(words, offsets);
    }
    let mut patched = words.to_vec();
    for &i in &quantified {
        let at = offsets[i];
        patched[at] = (words[at] & 0xffff_0000) | Op::SpecConstantComposite as u32;
    }
    let parsed = rspirv_parse(&patched, offsets);
    let first_error = parsed.as_ref().err().map_or(usize::MAX, |(j, _)| *j);
    let mut repaired = Vec::with_capacity(quantified.len());
    for &i in quantified.iter().take_while(|&&i| i < first_error) {
        let inst = spec_op_alone(words, offsets[i]).map_err(|kind| (i, kind))?;
        repaired.push((i, inst));
    }
    let mut insts = parsed?;
    for (i, inst) in repaired {
        insts[i] = inst;
    }
    Ok(insts)
}

/// rspirv's parse of the `OpSpecConstantOp` at `at` as its operation: an instruction of
/// that opcode with the same result type, result id and operands.
#[cfg(any(test, feature = "fuzzing"))]
fn spec_op_alone(words: &[u32], at: usize) -> Result<Inst, ErrorKind> {
    let count = (words[at] >> 16) as usize;
    let mut module = Vec::with_capacity(5 + count - 1);
    module.extend_from_slice(&words[..5]);
    module.push(((count as u32 - 1) << 16) | words[at + 3]);
    module.extend_from_slice(&words[at + 1..at + 3]);
    module.extend_from_slice(&words[at + 4..at + count]);
    let mut parsed = rspirv_parse(&module, &[5]).map_err(|(_, kind)| kind)?;
    let op = parsed
        .pop()
        .ok_or_else(|| ErrorKind::Decode(OPERAND_EXPECTED.into()))?;
    let (result_type, result_id) = (op.result_type(), op.result_id());
    let mut operands = Vec::with_capacity(op.operands.len() + 1);
    operands.push(Operand::LiteralSpecConstantOpInteger(op.op));
    operands.extend(op.operands);
    Ok(Inst::new(
        Op::SpecConstantOp,
        at as u32,
        result_type,
        result_id,
        operands.into_boxed_slice(),
    ))
}

/// rspirv's parse of `words` as it is.
fn rspirv_parse(words: &[u32], offsets: &[usize]) -> Result<Vec<Inst>, (usize, ErrorKind)> {
    let mut collector = Collector {
        offsets,
        insts: Vec::with_capacity(offsets.len()),
    };
    let result = rspirv::binary::parse_words(words, &mut collector);
    match result {
        Ok(()) => Ok(collector.insts),
        Err(state) => {
            // The failing instruction is the one after the last consumed.
            let kind = match state {
                rspirv::binary::ParseState::OpcodeUnknown(_, _, op) => {
                    ErrorKind::UnknownOpcode(u32::from(op))
                }
                other => ErrorKind::Decode(decode_message(&other)),
            };
            Err((collector.insts.len(), kind))
        }
    }
}

/// rspirv's parse error as a message without its byte offsets and instruction numbers
/// (the error's location already gives the word offset).
fn decode_message(state: &rspirv::binary::ParseState) -> String {
    use rspirv::binary::{DecodeError, ParseState};
    match state {
        ParseState::OperandExpected(..) => OPERAND_EXPECTED.to_string(),
        ParseState::OperandExceeded(..) => OPERAND_EXCEEDED.to_string(),
        ParseState::OperandError(DecodeError::LimitReached(_)) => LIMIT_REACHED.to_string(),
        ParseState::OperandError(DecodeError::StreamExpected(_)) => {
            "an operand runs past the end of the module".to_string()
        }
        ParseState::TypeUnsupported(..) => TYPE_UNSUPPORTED.to_string(),
        other => strip_positions(&other.to_string()),
    }
}

/// Removes rspirv's ` at index N`, ` at offset N` and ` for instruction #N` fragments.
fn strip_positions(msg: &str) -> String {
    let mut out = msg.to_string();
    for marker in [" at index ", " at offset ", " for instruction #"] {
        while let Some(at) = out.find(marker) {
            let digits_from = at + marker.len();
            let digits = out[digits_from..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            out.replace_range(at..digits_from + digits, "");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::strip_positions;

    /// Every instruction an opcode's [`super::Shape`] decodes is the one the grammar walk
    /// ([`super::fast`]) reads from the same words: for every such opcode, every word
    /// count from none to four past its fixed operands, and words of several patterns.
    #[test]
    fn shapes_decode_what_the_grammar_walk_reads() {
        let header = super::Header {
            version: (1, 6),
            bound: 64,
            dense_ids: true,
        };
        let widths = super::Widths::new(header);
        let table = super::table();
        let (mut shaped, mut opcodes) = (0, 0);
        let mut seen = std::collections::BTreeSet::new();
        for (number, shape) in table.shapes.iter().enumerate() {
            let Some(shape) = shape else { continue };
            let Some((g, true)) = table.entries[number] else {
                panic!("opcode {number} has a shape but is not read here");
            };
            opcodes += 1;
            let most = usize::from(shape.has_type) + usize::from(shape.has_id);
            let most = most + usize::from(shape.n) + 4;
            for len in 0..=most {
                for pattern in 0..8u32 {
                    let words: Vec<u32> = (0..len as u32)
                        .map(|i| match pattern {
                            0 => 0,
                            1 => i + 1,
                            2 => 0xffff_ffff - i,
                            3 => (i + 7).wrapping_mul(0x9e37_79b9),
                            // Memory-operand masks: Aligned, Volatile|Aligned, Nontemporal,
                            // MakePointerAvailable (read by the grammar walk only).
                            4 => 2,
                            5 => 3,
                            6 => 4,
                            _ => 8,
                        })
                        .collect();
                    let Some(inst) = shape.decode(g.opcode, &words, 40) else {
                        continue;
                    };
                    shaped += 1;
                    seen.insert(g.opcode as u32);
                    match super::fast(g, &words, &widths, 40) {
                        Ok(walked) => assert_eq!(inst, walked, "{} {words:?}", g.opname),
                        Err(_) => panic!("{} {words:?}: the grammar walk refuses it", g.opname),
                    }
                    // Read in place, it says what the decoded instruction says.
                    assert!(shape.fits(&words));
                    let scan = super::Scan {
                        op: g.opcode,
                        at: 40,
                        shape,
                        words: &words,
                    };
                    let what = || format!("{} {words:?}", g.opname);
                    assert_eq!(scan.result_type(), inst.result_type(), "{}", what());
                    assert_eq!(scan.result_id(), inst.result_id(), "{}", what());
                    assert_eq!(scan.first_id(), inst.id(0).ok(), "{}", what());
                    let used: Vec<_> = scan.used_ids().collect();
                    assert_eq!(used, inst.used_ids().collect::<Vec<_>>(), "{}", what());
                    assert_eq!(scan.location(), inst.location(), "{}", what());
                }
            }
        }
        // The body instructions that matter are shaped (a table that shaped nothing
        // would pass the loop above).
        use ::spirv::Op;
        for op in [
            Op::IAdd,
            Op::Load,
            Op::Store,
            Op::AccessChain,
            Op::InBoundsPtrAccessChain,
            Op::Phi,
            Op::ExtInst,
            Op::FunctionCall,
            Op::Branch,
            Op::BranchConditional,
            Op::Return,
            Op::Label,
            Op::CompositeExtract,
            Op::AtomicIAdd,
            Op::ControlBarrier,
        ] {
            assert!(seen.contains(&(op as u32)), "{op:?} is not shaped");
        }
        // With memory operands (`OpLoad` of 5 words: type, id, pointer, Aligned, 4).
        let load = table.shapes[Op::Load as usize].expect("OpLoad is shaped");
        let aligned = load.decode(Op::Load, &[1, 2, 3, 2, 4], 40);
        assert!(aligned.is_some(), "an aligned load is shaped");
        assert!(
            opcodes > 300 && shaped > 3000,
            "{opcodes} opcodes, {shaped} shaped"
        );
    }

    #[test]
    fn opcode_lookup_is_the_spirv_crates() {
        for n in 0..=u32::from(u16::MAX) + 1 {
            assert_eq!(super::op_of(n), ::spirv::Op::from_u32(n), "{n}");
        }
    }

    #[test]
    fn decode_messages_lose_rspirv_byte_offsets() {
        assert_eq!(
            strip_positions("operand decoding error: reached word limit at index 912"),
            "operand decoding error: reached word limit"
        );
        assert_eq!(
            strip_positions("unknown opcode (7) for instruction #3 at offset 40"),
            "unknown opcode (7)"
        );
    }
}
