//! The module's types, read once from its `OpType…` declarations when it is loaded and
//! read by the checks (`check/values.rs`) and the lowering (`lower/types.rs`) alike.
//!
//! [`SpvTy`] is a declaration's structure under its SPIR-V names: the ids of the types it
//! is built from, its literals. What each consumer derives from it stays with the
//! consumer: the value checks a type's shape (scalar kind and lane count), the lowering
//! its LLVM type and explicit layout. Whether the declarations are well-formed (defined
//! before use, vector sizes, nesting and size limits) is `check/limits.rs`'s to say; this
//! table takes them as written, so it can be built before any check runs.

use super::{Header, IdMap, Inst, Op, Operand, SpvId};
use crate::error::Error;
use ::spirv::StorageClass;

/// The result id of a SPIR-V type declaration (`OpType…`): what an instruction's result
/// type and a type operand name. A type of its own, so that a value's id cannot be passed
/// where a type is meant (the compiler refuses it). Printed as its number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SpvTypeId(pub u32);

impl SpvTypeId {
    /// The id as an index into per-id tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl From<SpvTypeId> for u32 {
    /// The id as a number, for tables of any id (names, decorations).
    fn from(t: SpvTypeId) -> u32 {
        t.0
    }
}

impl std::fmt::Display for SpvTypeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The structure of a SPIR-V type. Fields are the `OpType…` operands under their SPIR-V
/// names (ids of other types).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum SpvTy {
    /// `OpTypeVoid`.
    Void,
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt`.
    Int { width: u32, signed: bool },
    /// `OpTypeFloat`; `encoded` when it names an encoding (`BFloat16KHR`, …).
    Float { width: u32, encoded: bool },
    /// `OpTypeVector`.
    Vector { elem: SpvTypeId, n: u32 },
    /// `OpTypeMatrix` (column type, column count).
    Matrix { col: SpvTypeId, n: u32 },
    /// `OpTypeArray`: `length` is the id of the constant giving the length (the lowering
    /// reads its value, which a specialization constant may set).
    Array { elem: SpvTypeId, length: SpvId },
    /// `OpTypeRuntimeArray`.
    RuntimeArray { elem: SpvTypeId },
    /// `OpTypeStruct`.
    Struct { members: Vec<SpvTypeId> },
    /// `OpTypePointer`, or a pointer declared by `OpTypeForwardPointer` alone (whose
    /// pointee is then its own id).
    Pointer {
        sc: StorageClass,
        pointee: SpvTypeId,
    },
    /// `OpTypeFunction`.
    Function {
        ret: SpvTypeId,
        params: Vec<SpvTypeId>,
    },
    /// `OpTypeImage`: the sampled type, then Dim, Depth, Arrayed, MS, Sampled, Image
    /// Format and the optional access qualifier as numbers.
    Image {
        sampled: SpvTypeId,
        params: Vec<u32>,
    },
    /// `OpTypeSampledImage`.
    SampledImage { image: SpvTypeId },
    /// Other opaque types (sampler, event, …), by target type name.
    Opaque(&'static str),
    /// `OpTypePipe`: its access qualifier (0 read, 1 write, 2 read-write).
    Pipe { access: u32 },
    /// `OpTypeOpaque`: a named type without a body, only ever a pointee.
    OpaqueStruct,
    /// `OpTypeCooperativeMatrixKHR` (with `usage`) or `…NV` (without): the component
    /// type, then the ids of the constants giving the scope, rows, columns and use.
    CoopMatrix {
        elem: SpvTypeId,
        scope: SpvId,
        rows: SpvId,
        cols: SpvId,
        usage: Option<SpvId>,
    },
}

/// One declaration: its structure (or why it could not be read) and its position among
/// the module-level instructions.
#[derive(Clone, Debug)]
struct Decl {
    ty: Result<SpvTy, Error>,
    op: Op,
    at: u32,
}

/// The module's types by id. Few ids are types, and compilers declare them together: the
/// map from id to declaration covers the range of type ids only ([`IdMap`]), with 4-byte
/// indices into a list of declarations.
#[derive(Clone, Debug)]
pub(crate) struct Types {
    slot: IdMap<u32>,
    decls: Vec<Decl>,
}

impl Types {
    const NONE: u32 = u32::MAX;

    /// A table of no types (before the module's are read).
    pub(crate) fn empty() -> Types {
        Types {
            slot: IdMap::new(0, 0, 0, Self::NONE),
            decls: Vec::new(),
        }
    }

    /// Reads every type declaration among `globals` (the module-level instructions, in
    /// order).
    pub(crate) fn read(header: Header, globals: &[Inst]) -> Types {
        // The declaration of each type id below the bound, then the map over their range.
        let mut decls = Vec::new();
        let mut index: foldhash::HashMap<SpvTypeId, u32> = Default::default();
        for (at, inst) in globals.iter().enumerate() {
            let id = if inst.op == Op::TypeForwardPointer {
                match inst.type_id(0) {
                    Ok(id) => id,
                    Err(_) => continue,
                }
            } else {
                match inst.result_id() {
                    Some(id) => id.as_type(),
                    None => continue,
                }
            };
            let Some(ty) = read_decl(inst) else { continue };
            if id.0 >= header.bound
                || (inst.op == Op::TypeForwardPointer && index.contains_key(&id))
            {
                continue;
            }
            let decl = Decl {
                ty,
                op: inst.op,
                at: at as u32,
            };
            match index.get(&id) {
                Some(&i) => decls[i as usize] = decl,
                None => {
                    index.insert(id, decls.len() as u32);
                    decls.push(decl);
                }
            }
        }
        let keys = || index.iter().map(|(&id, &i)| (SpvId::from(id), i));
        Types {
            slot: IdMap::from_keys(keys, Self::NONE),
            decls,
        }
    }

    fn decl(&self, id: SpvTypeId) -> Option<&Decl> {
        let i = self.slot.get(id.into())?;
        self.decls.get(i as usize)
    }

    /// How many declarations the table holds.
    pub(crate) fn len(&self) -> usize {
        self.decls.len()
    }

    /// The index (below [`Types::len`]) of the declaration of type `id`: one per id,
    /// whether its pointer was forward-declared or not.
    pub(crate) fn index(&self, id: SpvTypeId) -> Option<usize> {
        self.slot.get(id.into()).map(|i| i as usize)
    }

    /// The declaration at `index` (see [`Types::index`]), if it could be read.
    pub(crate) fn at(&self, index: usize) -> Option<&SpvTy> {
        self.decls.get(index).and_then(|d| d.ty.as_ref().ok())
    }

    /// The type with id `id`, if its declaration could be read.
    pub(crate) fn get(&self, id: SpvTypeId) -> Option<&SpvTy> {
        self.decl(id).and_then(|d| d.ty.as_ref().ok())
    }

    /// What the declaration `inst` declares, as the lowering reads it: the structure, or
    /// the error that reading its operands gave. `None` for a declaration this table does
    /// not know.
    pub(crate) fn of(&self, inst: &Inst) -> Option<Result<&SpvTy, Error>> {
        let d = self.decl(inst.result_id()?.as_type())?;
        (d.op == inst.op).then(|| d.ty.as_ref().map_err(Clone::clone))
    }

    /// The type of element `i` of composite type `ty` (vectors, matrices and arrays
    /// repeat one type; a struct's member `i`).
    pub(crate) fn element(&self, ty: SpvTypeId, i: usize) -> Option<SpvTypeId> {
        match self.get(ty)? {
            SpvTy::Vector { elem, .. }
            | SpvTy::Array { elem, .. }
            | SpvTy::RuntimeArray { elem }
            | SpvTy::Matrix { col: elem, .. } => Some(*elem),
            SpvTy::Struct { members } => members.get(i).copied(),
            _ => None,
        }
    }

    /// Whether type `id` is declared before type `user` (by their positions among the
    /// module-level instructions): what a declaration may refer to.
    pub(crate) fn declared_before(&self, id: SpvTypeId, user: SpvTypeId) -> bool {
        match (self.decl(id), self.decl(user)) {
            (Some(a), Some(b)) => a.at < b.at,
            _ => false,
        }
    }
}

/// The structure `inst` declares, `None` when it declares no type this table knows
/// (`OpTypeUntypedPointerKHR`, the tensor and cooperative-vector types: the lowering
/// refuses them), or the error its operands give.
fn read_decl(inst: &Inst) -> Option<Result<SpvTy, Error>> {
    decl(inst).transpose()
}

/// [`read_decl`] as a `Result`: operands are read in order, so the first bad one is the
/// one reported.
fn decl(inst: &Inst) -> Result<Option<SpvTy>, Error> {
    Ok(Some(match inst.op {
        Op::TypeVoid => SpvTy::Void,
        Op::TypeBool => SpvTy::Bool,
        Op::TypeInt => SpvTy::Int {
            width: inst.lit(0)?,
            signed: inst.lit(1)? != 0,
        },
        Op::TypeFloat => SpvTy::Float {
            width: inst.lit(0)?,
            encoded: matches!(inst.operands.get(1), Some(Operand::FPEncoding(_))),
        },
        Op::TypeVector => SpvTy::Vector {
            elem: inst.type_id(0)?,
            n: inst.lit(1)?,
        },
        Op::TypeMatrix => SpvTy::Matrix {
            col: inst.type_id(0)?,
            n: inst.lit(1)?,
        },
        Op::TypeArray => SpvTy::Array {
            elem: inst.type_id(0)?,
            length: inst.id(1)?,
        },
        Op::TypeRuntimeArray => SpvTy::RuntimeArray {
            elem: inst.type_id(0)?,
        },
        Op::TypeStruct => SpvTy::Struct {
            members: inst.type_ids_from(0)?,
        },
        Op::TypePointer => SpvTy::Pointer {
            sc: inst.storage_class(0)?,
            pointee: inst.type_id(1)?,
        },
        Op::TypeForwardPointer => SpvTy::Pointer {
            sc: inst.storage_class(1)?,
            pointee: inst.type_id(0)?,
        },
        Op::TypeFunction => SpvTy::Function {
            ret: inst.type_id(0)?,
            params: inst.type_ids_from(1)?,
        },
        Op::TypeImage => image(inst)?,
        Op::TypeSampledImage => SpvTy::SampledImage {
            image: inst.type_id(0)?,
        },
        Op::TypeSampler => SpvTy::Opaque("spirv.Sampler"),
        Op::TypeEvent => SpvTy::Opaque("spirv.Event"),
        Op::TypeDeviceEvent => SpvTy::Opaque("spirv.DeviceEvent"),
        Op::TypeReserveId => SpvTy::Opaque("spirv.ReserveId"),
        Op::TypeQueue => SpvTy::Opaque("spirv.Queue"),
        Op::TypeAccelerationStructureKHR => SpvTy::Opaque("spirv.AccelerationStructureKHR"),
        Op::TypeRayQueryKHR => SpvTy::Opaque("spirv.RayQueryKHR"),
        Op::TypeOpaque => SpvTy::OpaqueStruct,
        Op::TypeHitObjectNV => SpvTy::Opaque("spirv.HitObjectNV"),
        Op::TypeHitObjectEXT => SpvTy::Opaque("spirv.HitObjectEXT"),
        Op::TypePipeStorage => SpvTy::Opaque("spirv.PipeStorage"),
        Op::TypeCooperativeMatrixKHR | Op::TypeCooperativeMatrixNV => SpvTy::CoopMatrix {
            elem: inst.type_id(0)?,
            scope: inst.id(1)?,
            rows: inst.id(2)?,
            cols: inst.id(3)?,
            usage: if inst.op == Op::TypeCooperativeMatrixKHR {
                Some(inst.id(4)?)
            } else {
                None
            },
        },
        Op::TypePipe => SpvTy::Pipe {
            access: match inst.operand(0)? {
                Operand::AccessQualifier(a) => *a as u32,
                other => {
                    return Err(inst.err(format!(
                        "operand 0 is {other:?}, expected an access qualifier"
                    )));
                }
            },
        },
        _ => return Ok(None),
    }))
}

/// `OpTypeImage`'s operands after the sampled type, as numbers.
fn image(inst: &Inst) -> Result<SpvTy, Error> {
    let sampled = inst.type_id(0)?;
    let mut params = Vec::with_capacity(7);
    for (i, op) in inst.operands.iter().enumerate().skip(1) {
        let v = match op {
            Operand::Dim(d) => *d as u32,
            Operand::LiteralBit32(v) => *v,
            Operand::ImageFormat(f) => *f as u32,
            Operand::AccessQualifier(a) => *a as u32,
            other => {
                return Err(inst.err(format!(
                    "operand {i} is {other:?}, unexpected in OpTypeImage"
                )));
            }
        };
        params.push(v);
    }
    Ok(SpvTy::Image { sampled, params })
}
