//! The values of the module's constants, evaluated once at load in SPIR-V terms and read
//! by the checks and the lowering alike ([`Constants`]).
//!
//! [`Constants::read`] runs before the input checks and finds where each constant (and
//! module-level variable) is declared; every value but a folded one is read from its
//! instruction when asked for ([`ConstView`]), so the resource limits can read array
//! lengths already. [`Constants::fold`] runs after the checks, which bound every
//! constant's size, and folds each `OpSpecConstantOp` in module order: the integer and
//! logical operations SPIR-V allows there (lane by lane on vectors), conversions,
//! `OpSelect`, `OpCompositeExtract`, `OpCompositeInsert` and `OpVectorShuffle`. Set
//! specialization constants are already in the words (`spec::patch`), so the values
//! are those the module is translated with.
//!
//! An operand must be a constant declared before its user, as the lowering, which
//! walks the same instructions in the same order, requires.

use std::borrow::Cow;

use foldhash::HashMap;

use super::types::{SpvTy, SpvTypeId, Types};
use super::{Inst, Op, Operand, SpvId, limits};
use crate::error::Error;

/// The value of a module-level constant.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ConstValue {
    /// An integer or a boolean (1 true, 0 false); bits above the type's width are zero.
    Int(u64),
    /// A floating-point scalar, as its bit pattern (also `OpConstantNull` of a float).
    Float(u64),
    /// `OpConstantNull` of any type but a floating-point scalar: zero, null or
    /// `zeroinitializer` (an integer reading of it is 0).
    Null,
    /// `OpUndef`.
    Undef,
    /// An undefined lane of a folded `OpVectorShuffle` (component `0xFFFFFFFF`).
    Poison,
    /// The value of the constant with this id (what `OpSelect` picks, what
    /// `OpCompositeExtract` finds, a constituent of a declared composite).
    Same(SpvId),
    /// A composite declared by `OpConstantComposite`, `OpSpecConstantComposite` or
    /// `OpConstantCompositeReplicateEXT`: its constituents are that instruction's
    /// operands. The number is the instruction's position among the module-level
    /// instructions.
    Declared(u32),
    /// A composite computed by folding.
    Folded(Box<Folded>),
    /// A module-level `OpVariable`: a value, but not a constant.
    Variable,
    /// An `OpSpecConstantOp` computing an address from a module-level variable (an
    /// access chain, a pointer cast or conversion): the lowering writes it as an LLVM
    /// constant expression, read from the instruction.
    Address,
    /// An `OpSpecConstantOp` whose value only the implementation knows: the length of
    /// a cooperative matrix, or an operation on such a value. The lowering computes it
    /// in each function that uses it.
    Runtime,
}

/// A composite computed by folding: its type and its elements. A lane computed by an
/// operation (`Int`, `Poison`) has the element type of the vector `ty`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Folded {
    pub ty: SpvTypeId,
    pub elems: Vec<ConstValue>,
}

/// The module's constants (and module-level variables), by id. Only what cannot be read
/// back from the instruction is stored: where each one is declared (8 bytes a constant) and
/// the folded value of each `OpSpecConstantOp`. [`ConstView`] answers for a value.
#[derive(Clone, Debug, Default)]
pub(crate) struct Constants {
    /// (id, position among the module-level instructions) of every constant and
    /// module-level variable, sorted by id.
    index: Vec<(SpvId, u32)>,
    /// The value, or the error folding gave, of each `OpSpecConstantOp` folded so far.
    folded: HashMap<SpvId, Result<ConstValue, Box<Error>>>,
}

impl Constants {
    /// Finds the constants and module-level variables among `globals` (the module-level
    /// instructions, in order). Their values are read on demand, but for
    /// `OpSpecConstantOp`, which [`Constants::fold`] computes.
    pub(crate) fn read(globals: &[Inst]) -> Constants {
        let mut index: Vec<(SpvId, u32)> = globals
            .iter()
            .enumerate()
            .filter(|(_, inst)| is_value(inst.op) && inst.result_type().is_some())
            .filter_map(|(at, inst)| Some((inst.result_id()?, at as u32)))
            .collect();
        index.sort_unstable();
        index.shrink_to_fit();
        Constants {
            index,
            folded: HashMap::default(),
        }
    }

    /// Folds every `OpSpecConstantOp` of `globals`, in order (after the input checks:
    /// sizes are bounded).
    pub(crate) fn fold(&mut self, globals: &[Inst], types: &Types) {
        for (at, inst) in globals.iter().enumerate() {
            if inst.op != Op::SpecConstantOp {
                continue;
            }
            let (Some(id), Some(ty)) = (inst.result_id(), inst.result_type()) else {
                continue;
            };
            let value = Fold {
                c: ConstView {
                    c: self,
                    globals,
                    types,
                },
                inst,
                at: at as u32,
            }
            .spec_op(ty);
            self.folded.insert(id, value.map_err(Box::new));
        }
    }

    /// The position of constant `id` among the module-level instructions.
    fn at(&self, id: SpvId) -> Option<u32> {
        let i = self.index.binary_search_by_key(&id, |&(i, _)| i).ok()?;
        self.index.get(i).map(|&(_, at)| at)
    }
}

/// Whether `op` declares a module-level constant (one list for the checks, this table
/// and the lowering's dispatch), `OpUndef` and `OpConstantSampler` included.
pub(crate) fn is_constant_op(op: Op) -> bool {
    matches!(
        op,
        Op::ConstantTrue
            | Op::ConstantFalse
            | Op::SpecConstantTrue
            | Op::SpecConstantFalse
            | Op::Constant
            | Op::SpecConstant
            | Op::ConstantComposite
            | Op::SpecConstantComposite
            | Op::ConstantCompositeReplicateEXT
            | Op::ConstantNull
            | Op::Undef
            | Op::SpecConstantOp
            | Op::ConstantSampler
    )
}

/// Whether `op` declares a module-level value this table keeps: a constant with a value
/// (not a sampler) or a variable.
fn is_value(op: Op) -> bool {
    (is_constant_op(op) && op != Op::ConstantSampler) || op == Op::Variable
}

/// The module's constants read with the instructions and types they were found among
/// ([`Module::consts`](super::Module::consts)).
#[derive(Clone, Copy)]
pub(crate) struct ConstView<'m> {
    pub(crate) c: &'m Constants,
    pub(crate) globals: &'m [Inst],
    pub(crate) types: &'m Types,
}

impl<'m> ConstView<'m> {
    /// The value of constant `id` and its position, or the error computing it gave;
    /// `None` for an id that is no constant or variable, or an `OpSpecConstantOp` not
    /// folded yet.
    fn value(&self, id: SpvId) -> Option<(Result<Cow<'m, ConstValue>, Error>, u32)> {
        let at = self.c.at(id)?;
        let inst = self.globals.get(at as usize)?;
        let ty = inst.result_type()?;
        let value = match inst.op {
            Op::ConstantTrue | Op::SpecConstantTrue => Ok(Cow::Owned(ConstValue::Int(1))),
            Op::ConstantFalse | Op::SpecConstantFalse => Ok(Cow::Owned(ConstValue::Int(0))),
            Op::Constant | Op::SpecConstant => scalar(inst, ty, self.types).map(Cow::Owned),
            Op::ConstantComposite
            | Op::SpecConstantComposite
            | Op::ConstantCompositeReplicateEXT => Ok(Cow::Owned(ConstValue::Declared(at))),
            Op::ConstantNull => Ok(Cow::Owned(match self.types.get(ty) {
                Some(SpvTy::Float { .. }) => ConstValue::Float(0),
                _ => ConstValue::Null,
            })),
            Op::Undef => Ok(Cow::Owned(ConstValue::Undef)),
            Op::Variable => Ok(Cow::Owned(ConstValue::Variable)),
            Op::SpecConstantOp => match self.c.folded.get(&id)? {
                Ok(v) => Ok(Cow::Borrowed(v)),
                Err(e) => Err((**e).clone()),
            },
            _ => return None,
        };
        Some((value, at))
    }

    /// The type of the constant declared at position `at`.
    fn ty_at(&self, at: u32) -> Option<SpvTypeId> {
        self.globals.get(at as usize)?.result_type()
    }

    /// The value the constant `inst` declares, as the lowering reads it: the value or the
    /// error computing it gave. `None` for an instruction this table does not know.
    pub(crate) fn of(&self, inst: &Inst) -> Option<Result<Cow<'m, ConstValue>, Error>> {
        let (value, at) = self.value(inst.result_id()?)?;
        (self.globals.get(at as usize)?.op == inst.op).then_some(value)
    }

    /// The integer value of constant `id` (scopes, semantics, indices, array lengths): an
    /// integer or boolean constant's, 0 for a null that is not a float, `None` otherwise.
    pub(crate) fn int(&self, id: SpvId) -> Option<u64> {
        match self.resolve(id)?.0.as_ref() {
            ConstValue::Int(v) => Some(*v),
            ConstValue::Null => Some(0),
            _ => None,
        }
    }

    /// The integer value of element `i` of the composite constant `id`, as
    /// [`ConstView::int`] reads a scalar.
    pub(crate) fn element_int(&self, id: SpvId, i: usize) -> Option<u64> {
        match self.resolve(id)?.0.as_ref() {
            ConstValue::Declared(at) => {
                let decl = self.globals.get(*at as usize)?;
                let i = if decl.op == Op::ConstantCompositeReplicateEXT {
                    0
                } else {
                    i
                };
                self.int(decl.id(i).ok()?)
            }
            ConstValue::Folded(f) => match f.elems.get(i)? {
                ConstValue::Int(v) => Some(*v),
                ConstValue::Same(c) => self.int(*c),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value behind `id`, through `Same`, with the position of the constant that
    /// holds it. A `Same` names a constant declared before the one holding it (see
    /// `Fold::elements`), so the walk ends; it is bounded by the table's size all the
    /// same.
    fn resolve(&self, mut id: SpvId) -> Option<(Cow<'m, ConstValue>, u32)> {
        for _ in 0..=self.c.index.len() {
            let (v, at) = self.value(id)?;
            let v = v.ok()?;
            match v.as_ref() {
                ConstValue::Same(next) => id = *next,
                _ => return Some((v, at)),
            }
        }
        None
    }
}

/// The value of `OpConstant` or `OpSpecConstant` of type `ty`.
fn scalar(inst: &Inst, ty: SpvTypeId, types: &Types) -> Result<ConstValue, Error> {
    let bits: u64 = match inst.operand(0)? {
        Operand::LiteralBit32(v) => u64::from(*v),
        Operand::LiteralBit64(v) => *v,
        other => return Err(inst.err(format!("constant value {other:?} is not a number"))),
    };
    match types.get(ty) {
        Some(&SpvTy::Int { width, .. }) => Ok(ConstValue::Int(mask(bits, width))),
        Some(SpvTy::Float { .. }) => Ok(ConstValue::Float(bits)),
        _ => Err(inst.err("OpConstant of a non-scalar type")),
    }
}

/// The folding of one `OpSpecConstantOp` (`inst`, at position `at`).
struct Fold<'a> {
    c: ConstView<'a>,
    inst: &'a Inst,
    at: u32,
}

impl Fold<'_> {
    fn spec_op(&self, rty: SpvTypeId) -> Result<ConstValue, Error> {
        let inst = self.inst;
        let Operand::LiteralSpecConstantOpInteger(op) = inst.operand(0)? else {
            return Err(inst.err("missing OpSpecConstantOp opcode"));
        };
        let op = *op;
        // The operation's ids, then (composite operations) its literal indices.
        let ids: Vec<SpvId> = inst.operands[1..]
            .iter()
            .filter_map(|o| match o {
                Operand::IdRef(i) | Operand::IdScope(i) | Operand::IdMemorySemantics(i) => {
                    Some(SpvId(*i))
                }
                _ => None,
            })
            .collect();
        let lits: Vec<u32> = inst.operands[1..]
            .iter()
            .filter_map(|o| match o {
                Operand::LiteralBit32(v) => Some(*v),
                _ => None,
            })
            .collect();
        let runtime =
            |id: &SpvId| matches!(self.before(*id), Some((Ok(v), _)) if *v == ConstValue::Runtime);
        if matches!(
            op,
            Op::CooperativeMatrixLengthKHR | Op::CooperativeMatrixLengthNV
        ) || ids.iter().any(runtime)
        {
            return Ok(ConstValue::Runtime);
        }
        if let Some(&base) = ids.first()
            && self.is_address_of(op, base, rty)
        {
            return Ok(ConstValue::Address);
        }
        let unary = matches!(op, Op::SNegate | Op::Not | Op::LogicalNot);
        if let Some(&SpvTy::Vector { elem, .. }) = self.c.types.get(rty)
            && (unary || fold_binary(op, 0, 1, 32).is_some())
        {
            return self.componentwise(op, &ids, rty, elem);
        }
        let id = |i: usize, what: &str| {
            ids.get(i)
                .copied()
                .ok_or_else(|| inst.err(format!("missing {what}")))
        };
        let result: u64 = match op {
            Op::CompositeExtract => return self.extract(id(0, "composite")?, &lits),
            Op::VectorShuffle => return self.shuffle(&ids, &lits, rty),
            Op::CompositeInsert => {
                let object = self.constant(id(0, "object")?)?;
                let composite = self.constant(id(1, "composite")?)?;
                return self.insert(composite, &lits, object);
            }
            Op::Select => {
                let cond = id(0, "condition")?;
                if let Some(ty) = self.c.value(cond).and_then(|(_, at)| self.c.ty_at(at))
                    && let Some(SpvTy::Vector { .. }) = self.c.types.get(ty)
                {
                    return self.select_lanes(&ids, rty);
                }
                let (c, _) = self.scalar(cond)?;
                let pick = if c & 1 == 1 { ids.get(1) } else { ids.get(2) };
                return self.constant(*pick.ok_or_else(|| inst.err("missing operand"))?);
            }
            Op::QuantizeToF16 => return self.quantize(id(0, "operand")?, rty),
            Op::Bitcast => return self.bitcast(id(0, "operand")?, rty),
            Op::FConvert => return self.fconvert(id(0, "operand")?, rty),
            Op::UConvert | Op::SConvert => {
                let (a, w) = self.scalar(id(0, "operand")?)?;
                if op == Op::SConvert {
                    sext(a, w) as u64
                } else {
                    a
                }
            }
            Op::SNegate => self.scalar(id(0, "operand")?)?.0.wrapping_neg(),
            Op::Not => !self.scalar(id(0, "operand")?)?.0,
            Op::LogicalNot => u64::from(self.scalar(id(0, "operand")?)?.0 & 1 == 0),
            _ => {
                let (a, w) = self.scalar(id(0, "operand")?)?;
                let (b, _) = self.scalar(id(1, "operand")?)?;
                fold_binary(op, a, b, w).ok_or_else(|| {
                    inst.unsupported_form(format!("OpSpecConstantOp {op:?} cannot be folded"))
                })?
            }
        };
        match self.c.types.get(rty) {
            Some(&SpvTy::Int { width, .. }) => Ok(ConstValue::Int(mask(result, width))),
            Some(SpvTy::Bool) => Ok(ConstValue::Int(mask(result, 1))),
            _ => {
                Err(inst.unsupported_form(format!("OpSpecConstantOp {op:?} on a non-scalar type")))
            }
        }
    }

    /// Whether `op` on `base` computes an address the lowering writes as a constant
    /// expression: an access chain or pointer cast of a module-level variable (or of such
    /// an address), its conversion to an integer, an integer's to a pointer.
    fn is_address_of(&self, op: Op, base: SpvId, rty: SpvTypeId) -> bool {
        let Some((Ok(v), at)) = self.before(base) else {
            return false;
        };
        let address = matches!(*v, ConstValue::Variable | ConstValue::Address);
        let pointer = |t: Option<SpvTypeId>| {
            matches!(
                t.and_then(|t| self.c.types.get(t)),
                Some(SpvTy::Pointer { .. })
            )
        };
        match op {
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain
            | Op::PtrCastToGeneric
            | Op::GenericCastToPtr
            | Op::ConvertPtrToU => address,
            Op::Bitcast => address && pointer(Some(rty)) && pointer(self.c.ty_at(at)),
            Op::ConvertUToPtr => address || matches!(*v, ConstValue::Int(_) | ConstValue::Null),
            _ => false,
        }
    }

    /// The value of `id` if it is declared before this instruction.
    fn before(&self, id: SpvId) -> Option<(Result<Cow<'_, ConstValue>, Error>, u32)> {
        self.c.value(id).filter(|&(_, at)| at < self.at)
    }

    /// `id` as an operand that must be a constant declared before.
    fn constant(&self, id: SpvId) -> Result<ConstValue, Error> {
        match self.before(id) {
            Some((Ok(v), _)) if *v != ConstValue::Variable => Ok(ConstValue::Same(id)),
            _ => Err(self.inst.err(format!("%{id} is not a constant"))),
        }
    }

    /// A scalar operand: its integer value and its type's width (a vector's lane width;
    /// 0 for a type that is not a number).
    fn scalar(&self, id: SpvId) -> Result<(u64, u32), Error> {
        let inst = self.inst;
        let (value, at) = self
            .before(id)
            .ok_or_else(|| inst.err(format!("%{id} is not a constant")))?;
        let width = self
            .c
            .ty_at(at)
            .map_or(0, |t| scalar_width(self.c.types, t));
        let v = match value.as_deref() {
            Ok(ConstValue::Variable) => None,
            _ => self.c.int(id),
        };
        let v = v.ok_or_else(|| inst.unsupported_form(format!("cannot fold %{id}")))?;
        Ok((v, width))
    }

    /// `v` (of type `ty` unless it is `Same`) with the type of what it is.
    fn resolve<'v>(
        &'v self,
        v: &'v ConstValue,
        ty: Option<SpvTypeId>,
    ) -> (Cow<'v, ConstValue>, Option<SpvTypeId>) {
        match v {
            ConstValue::Same(id) => match self.c.resolve(*id) {
                Some((v, at)) => (v, self.c.ty_at(at)),
                None => (Cow::Borrowed(v), None),
            },
            v => (Cow::Borrowed(v), ty),
        }
    }

    /// The elements of a composite value (`None` when it is not a composite), with their
    /// element type when that is one for all.
    fn elements(&self, v: &ConstValue) -> Option<(Vec<ConstValue>, SpvTypeId)> {
        let (v, ty) = self.resolve(v, None);
        match v.as_ref() {
            ConstValue::Declared(at) => {
                let decl = self.c.globals.get(*at as usize)?;
                let ids = decl.ids_from(0).ok()?;
                // Constituents are constants declared before the composite (the lowering
                // refuses it otherwise): a `Same` never names a later constant, so no chain
                // of them is a cycle.
                let before =
                    |id: &SpvId| self.c.value(*id).is_some_and(|(v, a)| a < *at && v.is_ok());
                if !ids.iter().all(before) {
                    return None;
                }
                let mut elems: Vec<ConstValue> = ids.into_iter().map(ConstValue::Same).collect();
                if decl.op == Op::ConstantCompositeReplicateEXT {
                    let n = self.composite_len(ty?);
                    let first = elems.first()?.clone();
                    // The checks bound a replicated composite's size.
                    if n > limits::MAX_COMPOSITE_ELEMENTS {
                        return None;
                    }
                    elems = vec![first; n as usize];
                }
                Some((elems, ty?))
            }
            ConstValue::Folded(f) => Some((f.elems.clone(), f.ty)),
            _ => None,
        }
    }

    /// The number of constituents of a composite type.
    fn composite_len(&self, ty: SpvTypeId) -> u64 {
        match self.c.types.get(ty) {
            Some(SpvTy::Vector { n, .. } | SpvTy::Matrix { n, .. }) => u64::from(*n),
            Some(SpvTy::Array { length, .. }) => self.c.int(*length).unwrap_or(0),
            Some(SpvTy::Struct { members }) => members.len() as u64,
            _ => 0,
        }
    }

    /// The elements of the constant composite `id`, for a lane-by-lane operation.
    fn composite_elements(
        &self,
        id: Option<&SpvId>,
    ) -> Result<(Vec<ConstValue>, SpvTypeId), Error> {
        let inst = self.inst;
        let v = self.constant(*id.ok_or_else(|| inst.err("missing operand"))?)?;
        self.elements(&v).ok_or_else(|| {
            inst.unsupported_form("cannot fold an OpSpecConstantOp of this composite constant")
        })
    }

    /// An integer lane of a vector of type `vty`: its value and width.
    fn lane_int(&self, v: &ConstValue, vty: SpvTypeId) -> Result<(u64, u32), Error> {
        let (v, ty) = self.resolve(v, self.c.types.element(vty, 0));
        let width = match ty.and_then(|t| self.c.types.get(t)) {
            Some(&SpvTy::Int { width, .. }) => Some(width),
            Some(SpvTy::Bool) => Some(1),
            _ => None,
        };
        match (v.as_ref(), width) {
            (ConstValue::Int(x), Some(w)) => Ok((*x, w)),
            (ConstValue::Null, Some(w)) => Ok((0, w)),
            _ => Err(self
                .inst
                .unsupported_form("cannot fold a lane of this constant")),
        }
    }

    /// An integer or logical operation on vectors, lane by lane (`rty` the result vector
    /// type, `elem` its lane type).
    fn componentwise(
        &self,
        op: Op,
        ids: &[SpvId],
        rty: SpvTypeId,
        elem: SpvTypeId,
    ) -> Result<ConstValue, Error> {
        let inst = self.inst;
        let (a, aty) = self.composite_elements(ids.first())?;
        let unary = matches!(op, Op::SNegate | Op::Not | Op::LogicalNot);
        let (b, bty) = if unary {
            (Vec::new(), aty)
        } else {
            self.composite_elements(ids.get(1))?
        };
        let lane_width = scalar_width(self.c.types, elem);
        let mut lanes = Vec::with_capacity(a.len());
        for (i, x) in a.iter().enumerate() {
            let (x, w) = self.lane_int(x, aty)?;
            let r = match op {
                Op::SNegate => x.wrapping_neg(),
                Op::Not => !x,
                Op::LogicalNot => u64::from(x & 1 == 0),
                _ => {
                    let y = b
                        .get(i)
                        .ok_or_else(|| inst.err("operands of different lengths"))?;
                    let (y, _) = self.lane_int(y, bty)?;
                    fold_binary(op, x, y, w).ok_or_else(|| {
                        inst.unsupported_form(format!("OpSpecConstantOp {op:?} cannot be folded"))
                    })?
                }
            };
            lanes.push(ConstValue::Int(mask(r, lane_width)));
        }
        Ok(ConstValue::Folded(Box::new(Folded {
            ty: rty,
            elems: lanes,
        })))
    }

    /// `OpCompositeExtract` of the constant `id` at the path `lits`.
    fn extract(&self, id: SpvId, lits: &[u32]) -> Result<ConstValue, Error> {
        let inst = self.inst;
        let mut c = self.constant(id)?;
        for &l in lits {
            let (v, _) = self.resolve(&c, None);
            c = match v.as_ref() {
                ConstValue::Declared(_) | ConstValue::Folded(_) => {
                    let (elems, _) = self.elements(&c).ok_or_else(|| {
                        inst.unsupported_form("cannot fold CompositeExtract of this constant")
                    })?;
                    elems
                        .into_iter()
                        .nth(l as usize)
                        .ok_or_else(|| inst.err("index out of range"))?
                }
                _ => {
                    return Err(
                        inst.unsupported_form("cannot fold CompositeExtract of this constant")
                    );
                }
            };
        }
        Ok(c)
    }

    /// `OpVectorShuffle` of the constants `ids[0]` and `ids[1]` into type `rty`.
    fn shuffle(&self, ids: &[SpvId], lits: &[u32], rty: SpvTypeId) -> Result<ConstValue, Error> {
        let inst = self.inst;
        let (first, _) = self.composite_elements(ids.first())?;
        let (second, _) = self.composite_elements(ids.get(1))?;
        if !matches!(self.c.types.get(rty), Some(SpvTy::Vector { .. })) {
            return Err(inst.err("OpVectorShuffle of a non-vector type"));
        }
        let picked = lits
            .iter()
            .map(|&k| match k {
                // An undefined component.
                0xFFFF_FFFF => Ok(ConstValue::Poison),
                k => first
                    .iter()
                    .chain(&second)
                    .nth(k as usize)
                    .cloned()
                    .ok_or_else(|| inst.err(format!("component {k} out of range"))),
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(ConstValue::Folded(Box::new(Folded {
            ty: rty,
            elems: picked,
        })))
    }

    /// `composite` with the element at `path` replaced by `object` (`OpCompositeInsert`),
    /// level by level without recursion.
    fn insert(
        &self,
        composite: ConstValue,
        path: &[u32],
        object: ConstValue,
    ) -> Result<ConstValue, Error> {
        let inst = self.inst;
        let mut levels: Vec<(SpvTypeId, Vec<ConstValue>, usize)> = Vec::with_capacity(path.len());
        let mut at = composite;
        for &l in path {
            let (elems, ty) = self.elements(&at).ok_or_else(|| {
                inst.unsupported_form("cannot fold CompositeInsert into this constant")
            })?;
            let next = elems
                .get(l as usize)
                .cloned()
                .ok_or_else(|| inst.err("index out of range"))?;
            levels.push((ty, elems, l as usize));
            at = next;
        }
        let mut value = object;
        while let Some((ty, mut elems, l)) = levels.pop() {
            elems[l] = value;
            value = ConstValue::Folded(Box::new(Folded { ty, elems }));
        }
        Ok(value)
    }

    /// `OpSelect` with a vector condition: lane `i` from the first object where lane `i`
    /// of the condition is true, from the second where it is false.
    fn select_lanes(&self, ids: &[SpvId], rty: SpvTypeId) -> Result<ConstValue, Error> {
        let inst = self.inst;
        let (cond, cty) = self.composite_elements(ids.first())?;
        let (a, _) = self.composite_elements(ids.get(1))?;
        let (b, _) = self.composite_elements(ids.get(2))?;
        if a.len() != cond.len() || b.len() != cond.len() {
            return Err(inst.err("operands of different lengths"));
        }
        let mut lanes = Vec::with_capacity(cond.len());
        for ((c, x), y) in cond.iter().zip(a).zip(b) {
            let (c, _) = self.lane_int(c, cty)?;
            lanes.push(if c & 1 == 1 { x } else { y });
        }
        Ok(ConstValue::Folded(Box::new(Folded {
            ty: rty,
            elems: lanes,
        })))
    }

    /// A 32-bit float constant's value (`Float` or a null), for the float operations.
    fn f32_of(&self, v: &ConstValue, ty: Option<SpvTypeId>) -> Result<f32, Error> {
        let (v, ty) = self.resolve(v, ty);
        let is_f32 = matches!(
            ty.and_then(|t| self.c.types.get(t)),
            Some(SpvTy::Float {
                width: 32,
                encoded: false
            })
        );
        match v.as_ref() {
            ConstValue::Float(bits) if is_f32 => Ok(f32::from_bits(*bits as u32)),
            ConstValue::Null if is_f32 => Ok(0.0),
            _ => Err(self
                .inst
                .unsupported_form("cannot fold QuantizeToF16 of this constant")),
        }
    }

    /// `OpQuantizeToF16` of the constant `id` (a 32-bit float or a vector of them), as
    /// the lowering computes it at run time: rounded to the nearest half (ties to
    /// even), a value too small for a normal half becomes ±0, infinities and NaNs stay.
    fn quantize(&self, id: SpvId, rty: SpvTypeId) -> Result<ConstValue, Error> {
        let q = |x: f32| -> ConstValue {
            let h = f64_to_half_bits(f64::from(x)) as u16;
            let h = if h & 0x7c00 == 0 { h & 0x8000 } else { h };
            ConstValue::Float(u64::from((half_to_f64(h) as f32).to_bits()))
        };
        match self.c.types.get(rty) {
            Some(&SpvTy::Vector { elem, .. }) => {
                let (lanes, _) = self.composite_elements(Some(&id))?;
                let elems = lanes
                    .iter()
                    .map(|l| self.f32_of(l, Some(elem)).map(q))
                    .collect::<Result<Vec<_>, Error>>()?;
                Ok(ConstValue::Folded(Box::new(Folded { ty: rty, elems })))
            }
            _ => {
                let v = self.constant(id)?;
                Ok(q(self.f32_of(&v, None)?))
            }
        }
    }

    /// `OpBitcast` of a scalar constant to a scalar type of the same width: the bit
    /// pattern kept, read as the new type.
    fn bitcast(&self, id: SpvId, rty: SpvTypeId) -> Result<ConstValue, Error> {
        let inst = self.inst;
        let src = self.constant(id)?;
        let (v, ty) = self.resolve(&src, None);
        let from = ty.and_then(|t| self.c.types.get(t));
        let bits = match (v.as_ref(), from) {
            (
                ConstValue::Int(b) | ConstValue::Float(b),
                Some(SpvTy::Int { .. } | SpvTy::Float { .. }),
            ) => *b,
            (ConstValue::Null, Some(SpvTy::Int { .. } | SpvTy::Float { .. })) => 0,
            _ => return Err(inst.unsupported_form("cannot fold Bitcast of this constant")),
        };
        let width = |t: Option<&SpvTy>| match t {
            Some(SpvTy::Int { width, .. } | SpvTy::Float { width, .. }) => Some(*width),
            _ => None,
        };
        let to = self.c.types.get(rty);
        if width(from) != width(to) || width(to).is_none() {
            return Err(inst.unsupported_form("cannot fold Bitcast to this type"));
        }
        Ok(match to {
            Some(SpvTy::Float { .. }) => ConstValue::Float(bits),
            _ => ConstValue::Int(bits),
        })
    }

    /// `OpFConvert` of the constant `id` to type `rty`.
    fn fconvert(&self, id: SpvId, rty: SpvTypeId) -> Result<ConstValue, Error> {
        let inst = self.inst;
        let src = self.constant(id)?;
        let (v, ty) = self.resolve(&src, None);
        let v = match (v.as_ref(), ty.and_then(|t| self.c.types.get(t))) {
            (&ConstValue::Float(bits), t) => match t {
                Some(SpvTy::Float {
                    width: 16,
                    encoded: false,
                }) => half_to_f64(bits as u16),
                Some(SpvTy::Float {
                    width: 16,
                    encoded: true,
                }) => f64::from(f32::from_bits((bits as u32) << 16)),
                Some(SpvTy::Float {
                    width: 32,
                    encoded: false,
                }) => f64::from(f32::from_bits(bits as u32)),
                Some(SpvTy::Float {
                    width: 64,
                    encoded: false,
                }) => f64::from_bits(bits),
                _ => return Err(inst.unsupported_form("FConvert of a float of this type")),
            },
            _ => return Err(inst.unsupported_form("FConvert of a non-float constant")),
        };
        let bits = match self.c.types.get(rty) {
            Some(SpvTy::Float {
                width: 16,
                encoded: false,
            }) => f64_to_half_bits(v),
            Some(SpvTy::Float {
                width: 32,
                encoded: false,
            }) => u64::from((v as f32).to_bits()),
            Some(SpvTy::Float {
                width: 64,
                encoded: false,
            }) => v.to_bits(),
            _ => return Err(inst.unsupported_form("FConvert to a non-float type")),
        };
        Ok(ConstValue::Float(bits))
    }
}

/// The width of a scalar type or of a vector's lanes (1 for a boolean, 0 for a type that
/// is not a number).
fn scalar_width(types: &Types, ty: SpvTypeId) -> u32 {
    let scalar = match types.get(ty) {
        Some(SpvTy::Vector { elem, .. }) => *elem,
        _ => ty,
    };
    match types.get(scalar) {
        Some(SpvTy::Int { width, .. } | SpvTy::Float { width, .. }) => *width,
        Some(SpvTy::Bool) => 1,
        _ => 0,
    }
}

/// `v`'s low `w` bits (all of them from 64 up).
fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 { v } else { v & ((1u64 << w) - 1) }
}

/// IEEE half bits → f64.
fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let man = f64::from(h & 0x3ff);
    sign * match exp {
        0 => man * 2f64.powi(-24),
        0x1f if man == 0.0 => f64::INFINITY,
        0x1f => f64::NAN,
        e => (1.0 + man / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Converts an f64 to IEEE half bits, rounded once to nearest even (not through f32,
/// which would round twice: 1 + 2^-11 + 2^-40 is half 0x3C01, through f32 0x3C00). A set
/// value (`spec`), a folded `OpFConvert` to half and a half constant the lowering makes
/// round alike because all call this.
pub(crate) fn f64_to_half_bits(v: f64) -> u64 {
    f64_to_narrow_float_bits(v, 5, 10)
}

/// Converts an f64 to bfloat16 bits, rounded once to nearest even.
pub(crate) fn f64_to_bfloat_bits(v: f64) -> u64 {
    f64_to_narrow_float_bits(v, 8, 7)
}

/// Converts an f64 to the bits of a binary float of `exp_bits` exponent and `man_bits`
/// fraction bits (at most 8 and 22), rounded once to nearest even; a NaN stays a (quiet)
/// NaN with its sign, a finite value beyond the largest rounds to infinity, one below half
/// the smallest subnormal to zero.
fn f64_to_narrow_float_bits(v: f64, exp_bits: u32, man_bits: u32) -> u64 {
    let b = v.to_bits();
    let sign = (b >> 63) << (exp_bits + man_bits);
    let exp = ((b >> 52) & 0x7ff) as i64;
    let man = b & ((1u64 << 52) - 1);
    let max_exp = (1i64 << exp_bits) - 1;
    let inf = (max_exp as u64) << man_bits;
    // Drops the low `shift` bits of `m` (1..=63), rounding to nearest even.
    let round = |m: u64, shift: u32| {
        let kept = m >> shift;
        let rem = m & ((1u64 << shift) - 1);
        let mid = 1u64 << (shift - 1);
        kept + u64::from(rem > mid || (rem == mid && kept & 1 == 1))
    };
    let bits = if exp == 0x7ff {
        inf | if man != 0 { 1 << (man_bits - 1) } else { 0 }
    } else if exp == 0 {
        // Zero or an f64 subnormal: far below any narrow subnormal.
        0
    } else {
        let e = exp - 1023 + (max_exp >> 1);
        if e >= max_exp {
            inf
        } else if e <= 0 {
            // A subnormal of the narrow format: the significand with its leading one,
            // in units of the smallest subnormal (a carry makes the smallest normal).
            let shift = 52 - i64::from(man_bits) + 1 - e;
            if shift > 63 {
                0
            } else {
                round(man | (1u64 << 52), shift as u32)
            }
        } else {
            // A carry out of the fraction steps the exponent (up to infinity).
            round(((e as u64) << 52) | man, 52 - man_bits)
        }
    };
    sign | bits
}

/// Folds an integer or logical binary operation of `OpSpecConstantOp` on `w`-bit operands
/// (`None`: not one of the operations SPIR-V allows there). Division by zero gives 0.
fn fold_binary(op: Op, a: u64, b: u64, w: u32) -> Option<u64> {
    let (sa, sb) = (sext(a, w), sext(b, w));
    let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let (ua, ub) = (a & mask, b & mask);
    Some(match op {
        Op::IAdd => a.wrapping_add(b),
        Op::ISub => a.wrapping_sub(b),
        Op::IMul => a.wrapping_mul(b),
        Op::UDiv => ua.checked_div(ub).unwrap_or(0),
        Op::SDiv => sa.checked_div(sb).unwrap_or(0) as u64,
        Op::UMod => ua.checked_rem(ub).unwrap_or(0),
        Op::SRem => sa.checked_rem(sb).unwrap_or(0) as u64,
        Op::SMod => {
            let r = sa.checked_rem(sb).unwrap_or(0);
            (if r != 0 && (r < 0) != (sb < 0) {
                r + sb
            } else {
                r
            }) as u64
        }
        Op::ShiftLeftLogical => ua.checked_shl(ub as u32).unwrap_or(0),
        Op::ShiftRightLogical => ua.checked_shr(ub as u32).unwrap_or(0),
        Op::ShiftRightArithmetic => sa
            .checked_shr(ub as u32)
            .unwrap_or(if sa < 0 { -1 } else { 0 }) as u64,
        Op::BitwiseAnd | Op::LogicalAnd => a & b,
        Op::BitwiseOr | Op::LogicalOr => a | b,
        Op::BitwiseXor => a ^ b,
        Op::IEqual | Op::LogicalEqual => u64::from(ua == ub),
        Op::INotEqual | Op::LogicalNotEqual => u64::from(ua != ub),
        Op::ULessThan => u64::from(ua < ub),
        Op::ULessThanEqual => u64::from(ua <= ub),
        Op::UGreaterThan => u64::from(ua > ub),
        Op::UGreaterThanEqual => u64::from(ua >= ub),
        Op::SLessThan => u64::from(sa < sb),
        Op::SLessThanEqual => u64::from(sa <= sb),
        Op::SGreaterThan => u64::from(sa > sb),
        Op::SGreaterThanEqual => u64::from(sa >= sb),
        _ => return None,
    })
}

/// `v`'s low `w` bits, sign-extended (all 64 for a width of 0 or from 64 up).
fn sext(v: u64, w: u32) -> i64 {
    if w == 0 || w >= 64 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

#[cfg(test)]
mod tests {
    use super::{f64_to_bfloat_bits, f64_to_half_bits};

    /// The value of the non-negative narrow float with bits `k` (exponent `eb`, fraction
    /// `mb` bits), by the IEEE definition; infinity counts as the next power of two up,
    /// the value a rounding to nearest compares against.
    fn value(k: u64, eb: u32, mb: u32) -> f64 {
        let (e, f) = ((k >> mb) as i32, (k & ((1 << mb) - 1)) as f64);
        let bias = (1 << (eb - 1)) - 1;
        let unit = 2f64.powi(-(mb as i32));
        if e == 0 {
            f * unit * 2f64.powi(1 - bias)
        } else {
            (1.0 + f * unit) * 2f64.powi(e - bias)
        }
    }

    /// The nearest narrow float to `v` (ties to the even encoding), found by bisection
    /// over the encodings, which grow with the value: an oracle that shares nothing with
    /// the conversion under test.
    fn nearest(v: f64, eb: u32, mb: u32) -> u64 {
        let sign = if v.is_sign_negative() {
            1u64 << (eb + mb)
        } else {
            0
        };
        let a = v.abs();
        let inf = ((1u64 << eb) - 1) << mb;
        if a.is_infinite() {
            return sign | inf;
        }
        let (mut lo, mut hi) = (0u64, inf);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if value(mid, eb, mb) <= a {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let (dl, dh) = (a - value(lo, eb, mb), value(hi, eb, mb) - a);
        let k = if dl < dh || (dl == dh && lo & 1 == 0) {
            lo
        } else {
            hi
        };
        sign | k
    }

    #[test]
    fn narrow_floats_round_once_to_nearest_even() {
        let mut cases: Vec<f64> = vec![
            0.0,
            -0.0,
            1.0,
            f64::from_bits(0x3FF0_0200_0000_0100), // 1 + 2^-11 + 2^-44: just above a tie
            1.0 + 2f64.powi(-11) + 2f64.powi(-40),
            1.0 + 2f64.powi(-11),                    // a tie: to even (1.0)
            1.0 + 3.0 * 2f64.powi(-11),              // a tie: to even (1 + 2^-9)
            65504.0,                                 // half's largest
            65519.99,                                // rounds down to it
            65520.0,                                 // a tie with "65536": infinity
            2f64.powi(-24),                          // half's smallest subnormal
            2f64.powi(-25),                          // a tie with zero: zero
            2f64.powi(-25) * (1.0 + 2f64.powi(-30)), // just above: the smallest subnormal
            2f64.powi(-14) * (1.0 - 2f64.powi(-12)), // rounds up to the smallest normal
            f64::from_bits(1),                       // an f64 subnormal
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            3.0e38,
            3.4e38,
            1.0e-40,
            1.0e-45,
        ];
        // Random values across every exponent the two formats reach (a fixed xorshift).
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let exp = 1023 - 140 + (x >> 52) % 280;
            cases.push(f64::from_bits(
                (x & (1 << 63)) | (exp << 52) | (x & ((1 << 52) - 1)),
            ));
        }
        for v in cases {
            assert_eq!(
                f64_to_half_bits(v),
                nearest(v, 5, 10),
                "half of {v:e} ({:#x})",
                v.to_bits()
            );
            assert_eq!(
                f64_to_bfloat_bits(v),
                nearest(v, 8, 7),
                "bfloat of {v:e} ({:#x})",
                v.to_bits()
            );
        }
        // NaN stays NaN, with its sign.
        for (v, h, b) in [(f64::NAN, 0x7e00, 0x7fc0), (-f64::NAN, 0xfe00, 0xffc0)] {
            assert_eq!((f64_to_half_bits(v), f64_to_bfloat_bits(v)), (h, b));
        }
    }
}
