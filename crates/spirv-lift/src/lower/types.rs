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
use crate::spirv::SpvId;
use crate::spirv::{Inst, Op, Types};
use ::spirv::StorageClass;

pub use crate::spirv::{SpvTy, SpvTypeId};

/// A lowered type: what the lowering adds to the module's declaration of it
/// ([`crate::spirv::Types`] holds its structure).
#[derive(Clone, Copy, Debug)]
pub struct TypeInfo {
    /// LLVM type.
    pub llvm: TypeId,
    /// An array's length, with the specialization constants set (0 for other types).
    pub len: u64,
}

/// Lowered types, by the index of their declaration in the module's [`Types`] (so the
/// lowering keeps no per-id table of its own).
#[derive(Clone, Debug)]
pub(crate) struct TypeTable {
    infos: Vec<Option<TypeInfo>>,
}

impl TypeTable {
    /// An empty table for the declarations of `types`.
    pub(crate) fn new(types: &Types) -> Self {
        TypeTable {
            infos: vec![None; types.len()],
        }
    }

    /// The type with id `id`, if lowered.
    pub(crate) fn get(&self, types: &Types, id: SpvTypeId) -> Option<&TypeInfo> {
        self.get_at(types.index(id)?)
    }

    /// The type whose declaration has index `index` in [`Types`], if lowered.
    pub(crate) fn get_at(&self, index: usize) -> Option<&TypeInfo> {
        self.infos.get(index)?.as_ref()
    }

    /// Records (or replaces: a forward-declared pointer, then its `OpTypePointer`) the
    /// type with id `id`; false when `id` declares no type.
    pub(crate) fn set(&mut self, types: &Types, id: SpvTypeId, info: TypeInfo) -> bool {
        match types.index(id).and_then(|i| self.infos.get_mut(i)) {
            Some(slot) => {
                *slot = Some(info);
                true
            }
            None => false,
        }
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
            S::HitObjectAttributeNV | S::HitObjectAttributeEXT => 30,
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
        Op::TypeAccelerationStructureKHR => "acceleration structures",
        Op::TypeRayQueryKHR => "ray queries",
        Op::TypeHitObjectNV | Op::TypeHitObjectEXT => "hit objects",
        Op::TypePipe | Op::TypePipeStorage => "pipes",
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
    /// The value of the constant `id` giving an array's length.
    fn array_length(&mut self, inst: &Inst, id: SpvId) -> Result<u64, Error> {
        if self.follows_spec_default(id) {
            self.warn(
                inst,
                format!("array length %{id} is a specialization constant: using its default"),
            );
        }
        if self.is_computed_per_function(id) {
            return Err(inst.unsupported_form(format!(
                "array length %{id} is computed from the length of a cooperative matrix, \
                 which only the implementation knows"
            )));
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

    /// `target("spirv.CooperativeMatrixKHR", component, scope, rows, columns, use)`, as
    /// LLVM's SPIR-V backend reads it (the NV form has no use), for the declaration
    /// `inst` of `decl`.
    fn coop_matrix_type(&mut self, inst: &Inst, decl: &SpvTy) -> Result<TypeId, Error> {
        let &SpvTy::CoopMatrix {
            elem,
            scope,
            rows,
            cols,
            usage,
        } = decl
        else {
            return Err(inst.err("not a cooperative-matrix type"));
        };
        let e = self.llty(elem)?;
        let mut ints = Vec::with_capacity(4);
        let params = [
            (scope, "scope"),
            (rows, "row count"),
            (cols, "column count"),
        ];
        for (id, what) in params.into_iter().chain(usage.map(|u| (u, "use"))) {
            ints.push(self.type_parameter(inst, id, what)?);
        }
        let name = if usage.is_some() {
            "spirv.CooperativeMatrixKHR"
        } else {
            "spirv.CooperativeMatrixNV"
        };
        Ok(self.m.ty(Type::Target(name.into(), vec![e], ints)))
    }

    /// The value of the constant `id` that a type declaration takes as a parameter (a
    /// cooperative matrix's scope, rows, columns and use): an integer that fits 32 bits;
    /// a specialization constant's default, with a warning, when no value was set.
    fn type_parameter(&mut self, inst: &Inst, id: SpvId, what: &str) -> Result<u32, Error> {
        if self.follows_spec_default(id) {
            self.warn(
                inst,
                format!("{what} %{id} is a specialization constant: using its default"),
            );
        }
        let v = self
            .const_int(id)
            .ok_or_else(|| inst.invalid(format!("{what} %{id} is not an integer constant")))?;
        u32::try_from(v)
            .map_err(|_| inst.invalid(format!("{what} %{id} is {v}, more than 32 bits")))
    }

    /// Lowers one `OpType…` instruction: gives the module's declaration of the type
    /// ([`crate::spirv::Types`]) its LLVM type.
    pub(crate) fn lower_type(&mut self, inst: &Inst) -> Result<(), Error> {
        if inst.op == Op::TypeForwardPointer {
            return self.forward_pointer(inst);
        }
        let spv = self.spv;
        let Some(decl) = spv.types.of(inst) else {
            return Err(inst.unsupported());
        };
        let decl = decl?;
        // Every type written as `target("spirv.…")` exists only for LLVM's SPIR-V backend.
        if matches!(
            decl,
            SpvTy::Image { .. }
                | SpvTy::SampledImage { .. }
                | SpvTy::Opaque(_)
                | SpvTy::Pipe { .. }
                | SpvTy::CoopMatrix { .. }
        ) && matches!(self.opts.target, Target::Amdgcn | Target::Host)
        {
            return Err(opaque_type_error(inst, self.opts.target));
        }
        let mut len = 0;
        let llvm = match decl {
            SpvTy::Void => self.m.ty(Type::Void),
            SpvTy::Bool => self.m.ty(Type::Int(1)),
            &SpvTy::Int { width, .. } => {
                if !matches!(width, 8 | 16 | 32 | 64) {
                    return Err(
                        inst.unsupported_form(format!("{width}-bit integers are not supported"))
                    );
                }
                self.m.ty(Type::Int(width))
            }
            &SpvTy::Float { width, encoded } => {
                let t = match (width, encoded) {
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
                self.m.ty(t)
            }
            &SpvTy::Vector { elem, n } => {
                let e = self.llty(elem)?;
                self.m.ty(Type::Vector(n, e))
            }
            &SpvTy::Matrix { col, n } => {
                let c = self.llty(col)?;
                self.m.ty(Type::Array(u64::from(n), c))
            }
            &SpvTy::Array { elem, length } => {
                len = self.array_length(inst, length)?;
                let e = self.sized_part(inst, elem, "element type")?;
                self.m.ty(Type::Array(len, e))
            }
            &SpvTy::RuntimeArray { elem } => {
                let e = self.sized_part(inst, elem, "element type")?;
                self.m.ty(Type::Array(0, e))
            }
            SpvTy::Struct { members } => {
                let fields = members
                    .iter()
                    .map(|m| self.sized_part(inst, *m, "member type"))
                    .collect::<Result<Vec<_>, _>>()?;
                let id = inst.rid()?;
                let hint = self
                    .names
                    .get(id)
                    .map_or_else(|| format!("_{id}"), str::to_string);
                let t = self.m.new_struct(&hint);
                self.m.set_struct_body(t, fields);
                t
            }
            &SpvTy::Pointer { sc, .. } => {
                let a = addrspace(sc, self.opts.target).map_err(|e| e.or_at(&inst.location()))?;
                self.m.ty(Type::Ptr(a))
            }
            // Function types are only needed structurally; no LLVM type is printed for them.
            SpvTy::Function { .. } => self.m.ty(Type::Void),
            SpvTy::Image { sampled, params } => {
                let sampled = self.llty(*sampled)?;
                self.m.ty(Type::Target(
                    "spirv.Image".into(),
                    vec![sampled],
                    params.clone(),
                ))
            }
            &SpvTy::SampledImage { image } => {
                let (tys, ints) = match self.m.type_of_id(self.llty(image)?) {
                    Type::Target(_, t, i) => (t.clone(), i.clone()),
                    _ => return Err(inst.err("OpTypeSampledImage of a non-image type")),
                };
                self.m
                    .ty(Type::Target("spirv.SampledImage".into(), tys, ints))
            }
            SpvTy::Opaque(name) => self
                .m
                .ty(Type::Target((*name).into(), Vec::new(), Vec::new())),
            // Named after the type's literal name (`OpName` of the id if it has none).
            SpvTy::OpaqueStruct => {
                let hint = match inst.string(0) {
                    Ok(s) if !s.is_empty() => s.to_string(),
                    _ => {
                        let id = inst.rid()?;
                        self.names
                            .get(id)
                            .map_or_else(|| format!("_{id}"), str::to_string)
                    }
                };
                self.m.new_opaque_struct(&hint)
            }
            &SpvTy::Pipe { access } => {
                self.m
                    .ty(Type::Target("spirv.Pipe".into(), Vec::new(), vec![access]))
            }
            SpvTy::CoopMatrix { .. } => self.coop_matrix_type(inst, decl)?,
        };
        let id = inst.rid()?.as_type();
        if !self.types.set(&spv.types, id, TypeInfo { llvm, len }) {
            return Err(inst.err("id out of bound"));
        }
        if matches!(
            decl,
            SpvTy::Struct { .. }
                | SpvTy::Array { .. }
                | SpvTy::RuntimeArray { .. }
                | SpvTy::Vector { .. }
        ) {
            self.compute_layout(id)
                .map_err(|e| e.or_at(&inst.location()))?;
        }
        Ok(())
    }

    /// The LLVM type of an aggregate's member or element type `t`, refused when it is an
    /// `OpTypeOpaque` (an LLVM `type opaque`, whose size is unknown: LLVM lets it only be
    /// pointed to, and an aggregate holding it could be neither laid out, addressed nor
    /// loaded). An aggregate holding such an aggregate was refused with it.
    fn sized_part(&mut self, inst: &Inst, t: SpvTypeId, what: &str) -> Result<TypeId, Error> {
        let llvm = self.llty(t)?;
        if self.m.is_opaque_struct(llvm) {
            return Err(inst.unsupported_form(format!(
                "{what} %{t} is an OpTypeOpaque, of unknown size: LLVM can only point to one"
            )));
        }
        Ok(llvm)
    }

    /// `OpTypeForwardPointer`: declares the pointer now (structs may use it before its
    /// `OpTypePointer`); with opaque pointers only the address space matters.
    fn forward_pointer(&mut self, inst: &Inst) -> Result<(), Error> {
        let id = inst.type_id(0)?;
        let sc = inst.storage_class(1)?;
        let a = addrspace(sc, self.opts.target).map_err(|e| e.or_at(&inst.location()))?;
        let llvm = self.m.ty(Type::Ptr(a));
        let types = &self.spv.types;
        if self.types.get(types, id).is_none()
            && !self.types.set(types, id, TypeInfo { llvm, len: 0 })
        {
            return Err(inst.err("id out of bound"));
        }
        Ok(())
    }

    /// The scalar SPIR-V type id of a scalar or vector type.
    pub fn scalar_of(&self, ty: SpvTypeId) -> Result<SpvTypeId, Error> {
        match self.spv_ty(ty)? {
            SpvTy::Vector { elem, .. } => Ok(*elem),
            _ => Ok(ty),
        }
    }
}
