//! One decoded instruction with its word offset, and fallible operand accessors.

pub use super::operand::Operand;
use crate::error::{Error, ErrorKind, Location};
use spirv::Op;

use super::{SpvId, SpvTypeId};

/// A decoded instruction and where it sits in the module: 32 bytes (the word offset, and
/// whether there is a result type and a result id, share a word; read them with
/// [`Inst::word`], [`Inst::result_type`] and [`Inst::result_id`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// The opcode.
    pub op: Op,
    /// Word offset of the instruction's first word (below 2^30: a module has at most
    /// 2^24 words), with [`HAS_TYPE`] and [`HAS_ID`].
    at: u32,
    /// Result type id, if `at` has [`HAS_TYPE`].
    result_type: u32,
    /// Result id, if `at` has [`HAS_ID`].
    result_id: u32,
    /// Operands after the result type and id (a boxed slice).
    pub operands: Box<[Operand]>,
}

/// In [`Inst::at`]: the instruction has a result type.
const HAS_TYPE: u32 = 1 << 31;
/// In [`Inst::at`]: the instruction has a result id.
const HAS_ID: u32 = 1 << 30;
/// In [`Inst::at`]: the word offset.
const WORD: u32 = HAS_ID - 1;

impl Inst {
    /// An instruction at word `word` (an offset from 2^30 on, which no module accepted
    /// reaches, is kept as 2^30 - 1).
    pub(crate) fn new(
        op: Op,
        word: u32,
        result_type: Option<SpvTypeId>,
        result_id: Option<SpvId>,
        operands: Box<[Operand]>,
    ) -> Inst {
        let mut at = word.min(WORD);
        if result_type.is_some() {
            at |= HAS_TYPE;
        }
        if result_id.is_some() {
            at |= HAS_ID;
        }
        Inst {
            op,
            at,
            result_type: result_type.map_or(0, |t| t.0),
            result_id: result_id.map_or(0, |i| i.0),
            operands,
        }
    }

    pub(crate) fn from_dr(inst: rspirv::dr::Instruction, word: usize) -> Inst {
        Inst::new(
            inst.class.opcode,
            u32::try_from(word).unwrap_or(u32::MAX),
            inst.result_type.map(SpvTypeId),
            inst.result_id.map(SpvId),
            inst.operands.into_iter().map(Operand::from).collect(),
        )
    }

    /// Word offset of the instruction's first word.
    pub fn word(&self) -> u32 {
        self.at & WORD
    }

    /// The result type id, if the instruction has one.
    pub fn result_type(&self) -> Option<SpvTypeId> {
        (self.at & HAS_TYPE != 0).then_some(SpvTypeId(self.result_type))
    }

    /// The result id, if the instruction has one.
    pub fn result_id(&self) -> Option<SpvId> {
        (self.at & HAS_ID != 0).then_some(SpvId(self.result_id))
    }

    /// The opcode's name without `Op`, for messages.
    pub fn opname(&self) -> &'static str {
        super::decode::op_name(self.op)
    }

    /// This instruction's location, for errors.
    pub fn location(&self) -> Location {
        Location {
            word: Some(self.word() as usize),
            opcode: Some(self.opname()),
            result_id: self.result_id().map(u32::from),
        }
    }

    /// An invalid-operand error at this instruction.
    pub fn err(&self, msg: impl Into<String>) -> Error {
        Error::at(ErrorKind::InvalidOperand(msg.into()), self.location())
    }

    /// An invalid-module error at this instruction.
    pub fn invalid(&self, msg: impl Into<String>) -> Error {
        Error::at(ErrorKind::InvalidModule(msg.into()), self.location())
    }

    /// An unsupported-instruction error at this instruction.
    pub fn unsupported(&self) -> Error {
        Error::at(ErrorKind::Unsupported(self.opname()), self.location())
    }

    /// An unsupported-form error at this instruction.
    pub fn unsupported_form(&self, msg: impl Into<String>) -> Error {
        Error::at(ErrorKind::UnsupportedForm(msg.into()), self.location())
    }

    /// The result id (error if missing).
    pub fn rid(&self) -> Result<SpvId, Error> {
        self.result_id()
            .ok_or_else(|| self.err("missing result id"))
    }

    /// The result type id (error if missing).
    pub fn rty(&self) -> Result<SpvTypeId, Error> {
        self.result_type()
            .ok_or_else(|| self.err("missing result type"))
    }

    /// Operand `i`, or an error naming it.
    pub fn operand(&self, i: usize) -> Result<&Operand, Error> {
        self.operands
            .get(i)
            .ok_or_else(|| self.err(format!("missing operand {i}")))
    }

    /// Operand `i` as an id (`IdRef`, `IdScope` or `IdMemorySemantics`).
    #[inline]
    pub fn id(&self, i: usize) -> Result<SpvId, Error> {
        match self.operands.get(i) {
            Some(Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id)) => {
                Ok(SpvId(*id))
            }
            _ => Err(self.not_a(i, "an id")),
        }
    }

    /// The error of [`Inst::id`] and [`Inst::lit`]: operand `i` is missing, or not
    /// `expected` (out of line: the lookups are inlined where they are made).
    #[cold]
    #[inline(never)]
    fn not_a(&self, i: usize, expected: &str) -> Error {
        match self.operand(i) {
            Ok(other) => self.err(format!("operand {i} is {other:?}, expected {expected}")),
            Err(e) => e,
        }
    }

    /// Operand `i` if it is present and an id (an optional id operand, as an
    /// `OpVariable`'s initializer).
    pub fn optional_id(&self, i: usize) -> Option<SpvId> {
        match self.operands.get(i)? {
            Operand::IdRef(id) => Some(SpvId(*id)),
            _ => None,
        }
    }

    /// Operand `i` as the id of a type (an `IdRef` the grammar says names a type).
    pub fn type_id(&self, i: usize) -> Result<SpvTypeId, Error> {
        self.id(i).map(SpvId::as_type)
    }

    /// Operand `i` as a 32-bit literal.
    #[inline]
    pub fn lit(&self, i: usize) -> Result<u32, Error> {
        match self.operands.get(i) {
            Some(Operand::LiteralBit32(v) | Operand::LiteralExtInstInteger(v)) => Ok(*v),
            _ => Err(self.not_a(i, "a literal")),
        }
    }

    /// Operand `i` as a string literal.
    pub fn string(&self, i: usize) -> Result<&str, Error> {
        match self.operand(i)? {
            Operand::LiteralString(s) => Ok(s),
            other => Err(self.err(format!("operand {i} is {other:?}, expected a string"))),
        }
    }

    /// Operand `i` as a storage class.
    pub fn storage_class(&self, i: usize) -> Result<spirv::StorageClass, Error> {
        match self.operand(i)? {
            Operand::StorageClass(s) => Ok(*s),
            other => Err(self.err(format!(
                "operand {i} is {other:?}, expected a storage class"
            ))),
        }
    }

    /// All id operands from index `from` on (error on a non-id).
    pub fn ids_from(&self, from: usize) -> Result<Vec<SpvId>, Error> {
        (from..self.operands.len()).map(|i| self.id(i)).collect()
    }

    /// Operands `from..` as the ids of types.
    pub fn type_ids_from(&self, from: usize) -> Result<Vec<SpvTypeId>, Error> {
        (from..self.operands.len())
            .map(|i| self.type_id(i))
            .collect()
    }

    /// The ids this instruction uses: result type and id-valued operands.
    pub fn used_ids(&self) -> impl Iterator<Item = SpvId> + '_ {
        self.result_type()
            .map(SpvId::from)
            .into_iter()
            .chain(self.operands.iter().filter_map(|o| match o {
                Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => {
                    Some(SpvId(*id))
                }
                _ => None,
            }))
    }
}
