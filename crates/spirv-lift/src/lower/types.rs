//! SPIR-V types → LLVM types.
//!
//! Scalars map directly (`OpTypeBool` → `i1`, signedness is dropped); vectors to
//! `<N x T>`; matrices to arrays of column vectors; runtime arrays to `[0 x T]`; structs
//! to identified struct types named after their `OpName`; pointers to opaque
//! `ptr addrspace(N)` with N from the profile's storage-class table ([`addrspace`]);
//! images, samplers and other opaque types to `target("spirv.…")` types — in the generic
//! profile only: the amdgcn profile refuses them (see [`opaque_type_error`]).

use super::Ctx;
use crate::Target;
use crate::error::Error;
use crate::llvm::{Type, TypeId};
use crate::spirv::{Inst, Op, Operand};
use ::spirv::StorageClass;

/// The structure of a SPIR-V type, kept for semantics the LLVM type does not carry.
/// Fields are the `OpType…` operands under their SPIR-V names (ids of other types).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum SpvTy {
    /// `OpTypeVoid`.
    Void,
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt`.
    Int { width: u32, signed: bool },
    /// `OpTypeFloat`.
    Float { width: u32 },
    /// `OpTypeVector`.
    Vector { elem: u32, n: u32 },
    /// `OpTypeMatrix` (column type, column count).
    Matrix { col: u32, n: u32 },
    /// `OpTypeArray`.
    Array { elem: u32, len: u64 },
    /// `OpTypeRuntimeArray`.
    RuntimeArray { elem: u32 },
    /// `OpTypeStruct`.
    Struct { members: Vec<u32> },
    /// `OpTypePointer` (or a forward-declared pointer).
    Pointer { sc: StorageClass, pointee: u32 },
    /// `OpTypeFunction`.
    Function { ret: u32, params: Vec<u32> },
    /// `OpTypeImage`.
    Image { sampled: u32, params: Vec<u32> },
    /// `OpTypeSampledImage`.
    SampledImage { image: u32 },
    /// Other opaque types (sampler, event, …), by target type name.
    Opaque(&'static str),
}

/// A lowered type.
#[derive(Clone, Debug)]
pub struct TypeInfo {
    /// SPIR-V structure.
    pub spv: SpvTy,
    /// LLVM type.
    pub llvm: TypeId,
}

/// Lowered types by SPIR-V id. Few ids are types, so the per-id table holds 4-byte
/// indices into a list rather than a `TypeInfo` each.
#[derive(Clone, Debug)]
pub(crate) struct TypeTable {
    slot: crate::spirv::IdTable<u32>,
    infos: Vec<TypeInfo>,
}

impl TypeTable {
    const NONE: u32 = u32::MAX;

    /// An empty table for the ids of a module with this header.
    pub(crate) fn new(header: crate::spirv::Header) -> Self {
        TypeTable {
            slot: header.id_table(Self::NONE),
            infos: Vec::new(),
        }
    }

    /// The type with id `id`, if lowered.
    pub(crate) fn get(&self, id: u32) -> Option<&TypeInfo> {
        let i = *self.slot.get(id as usize)?;
        self.infos.get(i as usize)
    }

    /// Records (or replaces) the type with id `id`; false when `id` is out of bound.
    pub(crate) fn set(&mut self, id: u32, info: TypeInfo) -> bool {
        let Some(slot) = self.slot.get_mut(id as usize) else {
            return false;
        };
        if let Some(old) = self.infos.get_mut(*slot as usize) {
            *old = info;
        } else {
            *slot = self.infos.len() as u32;
            self.infos.push(info);
        }
        true
    }
}

/// The LLVM address space of a storage class in the given profile.
pub fn addrspace(sc: StorageClass, target: Target) -> Result<u32, Error> {
    use StorageClass as S;
    let unsupported = || {
        Error::new(crate::error::ErrorKind::UnsupportedForm(format!(
            "storage class {sc:?} is not supported"
        )))
    };
    Ok(match target {
        // The host keeps the generic numbering: its backends treat every address space
        // as the one flat space, and the `sync-as` tags stay the generic profile's.
        Target::Generic | Target::Host => match sc {
            S::Function => 0,
            S::CrossWorkgroup => 1,
            S::UniformConstant => 2,
            S::Workgroup => 3,
            S::Generic => 4,
            S::DeviceOnlyALTERA => 5,
            S::HostOnlyALTERA => 6,
            S::Input => 7,
            S::Output => 8,
            S::CodeSectionINTEL => 9,
            S::Private => 10,
            S::StorageBuffer => 11,
            S::Uniform => 12,
            S::PushConstant => 13,
            // Classes LLVM's SPIR-V backend has no number for: our own, documented range.
            S::Image => 20,
            S::AtomicCounter => 21,
            S::PhysicalStorageBuffer => 22,
            S::TaskPayloadWorkgroupEXT => 23,
            S::CallableDataKHR => 24,
            S::IncomingCallableDataKHR => 25,
            S::RayPayloadKHR => 26,
            S::HitAttributeKHR => 27,
            S::IncomingRayPayloadKHR => 28,
            S::ShaderRecordBufferKHR => 29,
            _ => return Err(unsupported()),
        },
        Target::Amdgcn => match sc {
            S::Function | S::Private | S::Input | S::Output => 5,
            S::CrossWorkgroup
            | S::StorageBuffer
            | S::Uniform
            | S::PhysicalStorageBuffer
            | S::Image
            | S::AtomicCounter => 1,
            S::Workgroup | S::TaskPayloadWorkgroupEXT => 3,
            S::UniformConstant | S::PushConstant => 4,
            S::Generic => 0,
            _ => return Err(unsupported()),
        },
    })
}

/// The error for an opaque SPIR-V type under `--target amdgcn`.
///
/// The generic profile writes these types as `target("spirv.…")` types, which only LLVM's
/// SPIR-V backend understands: the AMDGPU backend cannot pass one as a kernel argument
/// ("unable to allocate function argument") nor lower the `__spirv_*` image, sampler,
/// event and queue builtins that use them. So the amdgcn profile refuses the module at the
/// type's declaration, which precedes every variable, parameter and instruction of the
/// type.
///
/// The host profile refuses them the same way: the runtime has no images, samplers,
/// events or queues.
fn opaque_type_error(inst: &Inst, target: Target) -> Error {
    let what = match inst.op {
        Op::TypeImage => "images",
        Op::TypeSampledImage => "sampled images",
        Op::TypeSampler => "samplers",
        Op::TypeEvent | Op::TypeDeviceEvent => "events",
        Op::TypeReserveId => "pipe reservation ids",
        Op::TypeQueue => "device-side enqueue queues",
        _ => "opaque types",
    };
    let (flag, why) = if target == Target::Host {
        ("host", "the host runtime has none")
    } else {
        ("amdgcn", "no AMDGPU form for this opaque type")
    };
    inst.unsupported_form(format!(
        "--target {flag} does not lower {what} ({why}); translate with --target generic"
    ))
}

/// The name of an LLVM address space in the profile whose triple is `triple` (the
/// storage class it stands for on `generic`, the AMDGPU name on `amdgcn`), for reports:
/// `sync-as:3 (workgroup)`.
pub fn addrspace_name(space: u32, triple: &str) -> Option<&'static str> {
    if triple.starts_with("amdgcn") {
        return Some(match space {
            0 => "flat",
            1 => "global",
            3 => "local",
            4 => "constant",
            5 => "private",
            _ => return None,
        });
    }
    Some(match space {
        0 => "function",
        1 => "cross-workgroup",
        2 => "uniform-constant",
        3 => "workgroup",
        4 => "generic",
        5 => "device-only",
        6 => "host-only",
        7 => "input",
        8 => "output",
        9 => "code-section",
        10 => "private",
        11 => "storage-buffer",
        12 => "uniform",
        13 => "push-constant",
        20 => "image",
        21 => "atomic-counter",
        22 => "physical-storage-buffer",
        23 => "task-payload-workgroup",
        24 => "callable-data",
        25 => "incoming-callable-data",
        26 => "ray-payload",
        27 => "hit-attribute",
        28 => "incoming-ray-payload",
        29 => "shader-record-buffer",
        _ => return None,
    })
}

/// A tag set as the reports print it: each `sync-as:<N>` followed by its space's name.
pub fn named_tags(tags: &crate::mmra::TagSet, triple: &str) -> String {
    let mut out = String::from("{");
    for (i, t) in tags.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&t.to_string());
        if let Some(name) = sync_as_name(t, triple) {
            out.push_str(" (");
            out.push_str(name);
            out.push(')');
        }
    }
    out.push('}');
    out
}

/// The address-space name of a `sync-as:<N>` tag.
pub fn sync_as_name(t: &crate::mmra::Tag, triple: &str) -> Option<&'static str> {
    if t.prefix != "sync-as" {
        return None;
    }
    addrspace_name(t.suffix.parse().ok()?, triple)
}

impl Ctx<'_> {
    fn set_type(&mut self, inst: &Inst, spv: SpvTy, llvm: TypeId) -> Result<(), Error> {
        let id = inst.rid()?;
        if !self.types.set(id, TypeInfo { spv, llvm }) {
            return Err(inst.err("id out of bound"));
        }
        Ok(())
    }

    /// The constant integer operand `i` (an array length), as u64.
    fn length_operand(&mut self, inst: &Inst, i: usize) -> Result<u64, Error> {
        let id = inst.id(i)?;
        if self.follows_spec_default(id) {
            self.warn(
                inst,
                format!("array length %{id} is a specialization constant: using its default"),
            );
        }
        let len = self
            .const_int(id)
            .ok_or_else(|| inst.err(format!("array length %{id} is not an integer constant")))?;
        if self.spec_is_set(id) {
            // A set value must still make a valid length (the input checks saw the default
            // unless the words were specialized).
            let negative = match self.global_value(id).map(|v| v.spv_ty) {
                Some(t) => match self.spv_ty(t)? {
                    SpvTy::Int {
                        width,
                        signed: true,
                    } => width.checked_sub(1).is_some_and(|top| len >> top & 1 == 1),
                    _ => false,
                },
                None => false,
            };
            if len == 0 || negative {
                return Err(inst.invalid(format!(
                    "array length %{id} is not positive with the specialization constants set"
                )));
            }
        }
        Ok(len)
    }

    /// Lowers one `OpType…` instruction.
    pub(crate) fn lower_type(&mut self, inst: &Inst) -> Result<(), Error> {
        let (spv, llvm) = match inst.op {
            Op::TypeVoid => (SpvTy::Void, self.m.ty(Type::Void)),
            Op::TypeBool => (SpvTy::Bool, self.m.ty(Type::Int(1))),
            Op::TypeInt => {
                let width = inst.lit(0)?;
                if !matches!(width, 8 | 16 | 32 | 64) {
                    return Err(
                        inst.unsupported_form(format!("{width}-bit integers are not supported"))
                    );
                }
                (
                    SpvTy::Int {
                        width,
                        signed: inst.lit(1)? != 0,
                    },
                    self.m.ty(Type::Int(width)),
                )
            }
            Op::TypeFloat => {
                let width = inst.lit(0)?;
                let bf16 = matches!(inst.operands.get(1), Some(Operand::FPEncoding(_)));
                let t = match (width, bf16) {
                    (16, false) => Type::Half,
                    (16, true) => Type::BFloat,
                    (32, false) => Type::Float,
                    (64, false) => Type::Double,
                    _ => {
                        return Err(inst.unsupported_form(format!(
                            "{width}-bit float encoding is not supported"
                        )));
                    }
                };
                (SpvTy::Float { width }, self.m.ty(t))
            }
            Op::TypeVector => {
                let elem = inst.id(0)?;
                let n = inst.lit(1)?;
                let e = self.llty(elem)?;
                (SpvTy::Vector { elem, n }, self.m.ty(Type::Vector(n, e)))
            }
            Op::TypeMatrix => {
                let col = inst.id(0)?;
                let n = inst.lit(1)?;
                let c = self.llty(col)?;
                (
                    SpvTy::Matrix { col, n },
                    self.m.ty(Type::Array(u64::from(n), c)),
                )
            }
            Op::TypeArray => {
                let elem = inst.id(0)?;
                let len = self.length_operand(inst, 1)?;
                let e = self.llty(elem)?;
                (SpvTy::Array { elem, len }, self.m.ty(Type::Array(len, e)))
            }
            Op::TypeRuntimeArray => {
                let elem = inst.id(0)?;
                let e = self.llty(elem)?;
                (SpvTy::RuntimeArray { elem }, self.m.ty(Type::Array(0, e)))
            }
            Op::TypeStruct => {
                let members = inst.ids_from(0)?;
                let fields = members
                    .iter()
                    .map(|m| self.llty(*m))
                    .collect::<Result<Vec<_>, _>>()?;
                let id = inst.rid()?;
                let hint = self
                    .names
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| format!("_{id}"));
                let t = self.m.new_struct(&hint);
                self.m.set_struct_body(t, fields);
                (SpvTy::Struct { members }, t)
            }
            Op::TypePointer => {
                let sc = inst.storage_class(0)?;
                let pointee = inst.id(1)?;
                let a = addrspace(sc, self.opts.target).map_err(|e| e.or_at(&inst.location()))?;
                (SpvTy::Pointer { sc, pointee }, self.m.ty(Type::Ptr(a)))
            }
            Op::TypeUntypedPointerKHR => return Err(inst.unsupported()),
            Op::TypeForwardPointer => {
                // Declare the pointer now (structs may use it before its OpTypePointer);
                // with opaque pointers only the address space matters.
                let id = inst.id(0)?;
                let sc = inst.storage_class(1)?;
                let a = addrspace(sc, self.opts.target).map_err(|e| e.or_at(&inst.location()))?;
                let llvm = self.m.ty(Type::Ptr(a));
                if self.types.get(id).is_none() {
                    let info = TypeInfo {
                        spv: SpvTy::Pointer { sc, pointee: id },
                        llvm,
                    };
                    if !self.types.set(id, info) {
                        return Err(inst.err("id out of bound"));
                    }
                }
                return Ok(());
            }
            Op::TypeFunction => {
                let ret = inst.id(0)?;
                let params = inst.ids_from(1)?;
                // Function types are only needed structurally; no LLVM type is printed for them.
                (SpvTy::Function { ret, params }, self.m.ty(Type::Void))
            }
            Op::TypeImage
            | Op::TypeSampledImage
            | Op::TypeSampler
            | Op::TypeEvent
            | Op::TypeDeviceEvent
            | Op::TypeReserveId
            | Op::TypeQueue
                if matches!(self.opts.target, Target::Amdgcn | Target::Host) =>
            {
                return Err(opaque_type_error(inst, self.opts.target));
            }
            Op::TypeImage => self.image_type(inst)?,
            Op::TypeSampledImage => {
                let image = inst.id(0)?;
                let (tys, ints) = match self.m.type_of_id(self.llty(image)?) {
                    Type::Target(_, t, i) => (t.clone(), i.clone()),
                    _ => return Err(inst.err("OpTypeSampledImage of a non-image type")),
                };
                (
                    SpvTy::SampledImage { image },
                    self.m
                        .ty(Type::Target("spirv.SampledImage".into(), tys, ints)),
                )
            }
            Op::TypeSampler => self.opaque("spirv.Sampler"),
            Op::TypeEvent => self.opaque("spirv.Event"),
            Op::TypeDeviceEvent => self.opaque("spirv.DeviceEvent"),
            Op::TypeReserveId => self.opaque("spirv.ReserveId"),
            Op::TypeQueue => self.opaque("spirv.Queue"),
            _ => return Err(inst.unsupported()),
        };
        let laid_out = matches!(
            spv,
            SpvTy::Struct { .. } | SpvTy::Array { .. } | SpvTy::RuntimeArray { .. }
        );
        self.set_type(inst, spv, llvm)?;
        if laid_out {
            self.compute_layout(inst.rid()?)
                .map_err(|e| e.or_at(&inst.location()))?;
        }
        Ok(())
    }

    fn opaque(&mut self, name: &'static str) -> (SpvTy, TypeId) {
        (
            SpvTy::Opaque(name),
            self.m.ty(Type::Target(name.into(), Vec::new(), Vec::new())),
        )
    }

    /// `target("spirv.Image", SampledType, Dim, Depth, Arrayed, MS, Sampled, Format[, Access])`.
    fn image_type(&mut self, inst: &Inst) -> Result<(SpvTy, TypeId), Error> {
        let sampled = inst.id(0)?;
        let sampled_ll = self.llty(sampled)?;
        let mut ints = Vec::with_capacity(7);
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
            ints.push(v);
        }
        let t = self.m.ty(Type::Target(
            "spirv.Image".into(),
            vec![sampled_ll],
            ints.clone(),
        ));
        Ok((
            SpvTy::Image {
                sampled,
                params: ints,
            },
            t,
        ))
    }

    /// The scalar SPIR-V type id of a scalar or vector type.
    pub fn scalar_of(&self, ty: u32) -> Result<u32, Error> {
        match self.spv_ty(ty)? {
            SpvTy::Vector { elem, .. } => Ok(*elem),
            _ => Ok(ty),
        }
    }

    /// Width in bits of a scalar or vector element type.
    pub fn scalar_width(&self, ty: u32) -> Result<u32, Error> {
        Ok(match self.spv_ty(self.scalar_of(ty)?)? {
            SpvTy::Int { width, .. } | SpvTy::Float { width } => *width,
            SpvTy::Bool => 1,
            _ => 0,
        })
    }
}
