//! Calls: LLVM intrinsics, and SPIR-V-friendly builtins (`__spirv_<Op>`, Itanium-mangled)
//! for instructions LLVM has no equivalent for: group and subgroup operations,
//! derivatives, image operations and the rest.

use super::SpvTy;
use super::func::FnCtx;
use super::mangle::{MTy, mangle};
use crate::error::Error;
use crate::llvm::{CallConv, FnAttr, InstKind, Type, TypeId, Value};
use crate::mmra::TagSet;
use crate::spirv::SpvId;
use crate::spirv::SpvTypeId;
use crate::spirv::{Inst, Op, Operand};

/// Whether an `llvm.amdgcn.*` intrinsic we emit is convergent (LLVM declares these
/// `IntrConvergent`; a convergent function's calls to them need convergence tokens).
fn is_convergent_amdgcn_intrinsic(base: &str) -> bool {
    matches!(
        base,
        "amdgcn.s.barrier"
            | "amdgcn.wave.barrier"
            | "amdgcn.ballot"
            | "amdgcn.readfirstlane"
            | "amdgcn.readlane"
            | "amdgcn.ds.bpermute"
            | "amdgcn.wave.reduce.umin"
            | "amdgcn.wave.reduce.umax"
    )
}

/// The LLVM intrinsic name suffix for an overload type (`i32`, `f32`, `v4f32`, `p1`).
pub fn type_suffix(m: &crate::llvm::Module, t: TypeId) -> String {
    match m.type_of_id(t) {
        Type::Int(n) => format!("i{n}"),
        Type::Half => "f16".into(),
        Type::BFloat => "bf16".into(),
        Type::Float => "f32".into(),
        Type::Double => "f64".into(),
        Type::Ptr(a) => format!("p{a}"),
        Type::Vector(n, e) => format!("v{n}{}", type_suffix(m, *e)),
        // As LLVM mangles them (`Intrinsic::getName`).
        Type::Named(i) => format!("s_{}s", m.struct_name(*i)),
        Type::Target(name, tys, ints) => {
            let mut s = format!("t{name}");
            for t in tys {
                s.push('_');
                s.push_str(&type_suffix(m, *t));
            }
            for i in ints {
                s.push_str(&format!("_{i}"));
            }
            s.push('t');
            s
        }
        _ => "x".into(),
    }
}

impl FnCtx<'_, '_> {
    /// Calls `llvm.<base>.<overloads…>` with `args`, returning a value of type `ret`.
    pub fn intrinsic(
        &mut self,
        base: &str,
        overloads: &[TypeId],
        ret: TypeId,
        args: Vec<Value>,
    ) -> Result<Value, Error> {
        self.intrinsic_with(base, overloads, ret, args, None)
    }

    /// [`intrinsic`](Self::intrinsic), the call carrying the MMRA tags `tags`.
    pub fn intrinsic_tagged(
        &mut self,
        base: &str,
        overloads: &[TypeId],
        ret: TypeId,
        args: Vec<Value>,
        tags: &TagSet,
    ) -> Result<Value, Error> {
        self.intrinsic_with(base, overloads, ret, args, Some(tags))
    }

    fn intrinsic_with(
        &mut self,
        base: &str,
        overloads: &[TypeId],
        ret: TypeId,
        args: Vec<Value>,
        tags: Option<&TagSet>,
    ) -> Result<Value, Error> {
        let mut name = format!("llvm.{base}");
        for t in overloads {
            name.push('.');
            name.push_str(&type_suffix(&self.cx.m, *t));
        }
        let params: Vec<TypeId> = args.iter().map(|a| self.ll_type_of(*a)).collect();
        let attrs: &[FnAttr] = if is_convergent_amdgcn_intrinsic(base) {
            &[FnAttr::Convergent]
        } else {
            &[]
        };
        let fid = self
            .cx
            .m
            .declare(&name, ret, &params, CallConv::C, attrs)
            .ok_or_else(|| {
                crate::error::invalid(format!("intrinsic {name} declared with two signatures"))
            })?;
        let kind = InstKind::Call(Box::new(crate::llvm::Call {
            cc: CallConv::C,
            ret,
            callee: Value::Func(fid),
            args: args.into(),
            convergent: false,
            convergence: None,
        }));
        if self.cx.m.type_of_id(ret) == &Type::Void {
            self.emit_void_maybe_tagged(kind, tags);
            Ok(Value::Const(self.cx.null_of(ret)))
        } else {
            Ok(self.emit_maybe_tagged("t", ret, kind, tags))
        }
    }

    /// The mangling type of a SPIR-V type.
    pub fn mty(&self, ty: SpvTypeId) -> Result<MTy, Error> {
        let signed_default = self.cx.kernel;
        Ok(match self.cx.spv_ty(ty)?.clone() {
            SpvTy::Void => MTy::Void,
            SpvTy::Bool => MTy::Bool,
            SpvTy::Int { width, signed } => int_mty(width, signed || signed_default),
            SpvTy::Float { width: 16, .. } => MTy::Half,
            SpvTy::Float { width: 64, .. } => MTy::Double,
            SpvTy::Float { .. } => MTy::Float,
            SpvTy::Vector { elem, n } => MTy::Vector(n, Box::new(self.mty(elem)?)),
            SpvTy::Pointer { sc, pointee } => {
                let a = super::types::addrspace(sc, crate::Target::Generic)?;
                let inner = if self.cx.type_info(pointee).is_ok() {
                    self.mty(pointee)?
                } else {
                    MTy::Named(format!("_{pointee}"))
                };
                // OpenCL's private address space is the Function storage class (0).
                MTy::Pointer {
                    addrspace: a,
                    pointee: Box::new(inner),
                    is_const: false,
                }
            }
            SpvTy::Struct { .. } => MTy::Named(self.struct_mangle_name(ty)),
            SpvTy::Image { sampled, params } => MTy::Named(format!(
                "__spirv_Image__{}_{}",
                self.scalar_name(sampled)?,
                join(&params)
            )),
            SpvTy::SampledImage { image } => {
                let SpvTy::Image { sampled, params } = self.cx.spv_ty(image)?.clone() else {
                    return Ok(MTy::Named("__spirv_SampledImage".into()));
                };
                MTy::Named(format!(
                    "__spirv_SampledImage__{}_{}",
                    self.scalar_name(sampled)?,
                    join(&params)
                ))
            }
            SpvTy::Opaque(name) => MTy::Named(name.replace('.', "_").replace("spirv_", "__spirv_")),
            SpvTy::Pipe { access } => MTy::Named(format!("__spirv_Pipe__{access}")),
            SpvTy::OpaqueStruct => MTy::Named(self.struct_mangle_name(ty)),
            // `__spirv_CooperativeMatrixKHR__float32_3_16_16_2`: the parameters as lowered.
            SpvTy::CoopMatrix { elem, .. } => {
                let ints = match self.cx.m.type_of_id(self.cx.llty(ty)?) {
                    Type::Target(name, _, ints) => {
                        format!(
                            "{}__{}_{}",
                            name.replace("spirv.", "__spirv_"),
                            self.scalar_name(elem)?,
                            join(ints)
                        )
                    }
                    _ => format!("__spirv_type_{ty}"),
                };
                MTy::Named(ints)
            }
            SpvTy::Matrix { .. }
            | SpvTy::Array { .. }
            | SpvTy::RuntimeArray { .. }
            | SpvTy::Function { .. } => MTy::Named(format!("__spirv_type_{ty}")),
        })
    }

    fn struct_mangle_name(&self, ty: SpvTypeId) -> String {
        match self.cx.names.get(SpvId::from(ty)) {
            Some(n) if crate::llvm::is_plain_identifier(n) => n.to_string(),
            _ => format!("struct_{ty}"),
        }
    }

    fn scalar_name(&self, ty: SpvTypeId) -> Result<String, Error> {
        Ok(match self.cx.spv_ty(ty)? {
            SpvTy::Void => "void".into(),
            SpvTy::Int { width, signed } => format!("{}int{width}", if *signed { "" } else { "u" }),
            SpvTy::Float { width, .. } => format!("float{width}"),
            _ => "other".into(),
        })
    }

    /// Calls builtin `name` (mangled from `args`' types) with a result of SPIR-V type
    /// `result` (`None` for void). Convergent builtins are declared `convergent`.
    pub fn call_builtin(
        &mut self,
        inst: &Inst,
        name: &str,
        args: &[(Value, MTy)],
        result: Option<SpvTypeId>,
        convergent: bool,
    ) -> Result<Option<Value>, Error> {
        self.call_builtin_with(inst, name, args, result, convergent, None)
    }

    /// [`call_builtin`](Self::call_builtin), the call carrying the MMRA tags `tags` when
    /// given.
    pub fn call_builtin_with(
        &mut self,
        inst: &Inst,
        name: &str,
        args: &[(Value, MTy)],
        result: Option<SpvTypeId>,
        convergent: bool,
        tags: Option<&TagSet>,
    ) -> Result<Option<Value>, Error> {
        let mtys: Vec<MTy> = args.iter().map(|(_, m)| m.clone()).collect();
        let ret = match result {
            Some(t) => self.cx.llty(t)?,
            None => self.cx.m.ty(Type::Void),
        };
        let params: Vec<TypeId> = args.iter().map(|(v, _)| self.ll_type_of(*v)).collect();
        let attrs: &[FnAttr] = if convergent {
            &[FnAttr::Convergent, FnAttr::NoUnwind]
        } else {
            &[FnAttr::NoUnwind]
        };
        let cc = self.cx.func_cc();
        let mut mangled = mangle(name, &mtys);
        let mut fid = self.cx.m.declare(&mangled, ret, &params, cc, attrs);
        if fid.is_none() {
            // The same operands with another result type: add the result type to the name.
            let rname = match result {
                Some(t) => format!("{name}_R{}", self.ret_suffix(t)?),
                None => format!("{name}_Rvoid"),
            };
            mangled = mangle(&rname, &mtys);
            fid = self.cx.m.declare(&mangled, ret, &params, cc, attrs);
        }
        let fid = fid.ok_or_else(|| {
            inst.invalid(format!("builtin {mangled} declared with two signatures"))
        })?;
        let kind = InstKind::Call(Box::new(crate::llvm::Call {
            cc,
            ret,
            callee: Value::Func(fid),
            args: args.iter().map(|(v, _)| *v).collect(),
            convergent: false,
            convergence: None,
        }));
        match (result, inst.result_id()) {
            (None, _) => {
                self.emit_void_maybe_tagged(kind, tags);
                Ok(None)
            }
            (Some(t), Some(rid)) if inst.result_type() == Some(t) => {
                let v = self.emit_for(rid, ret, kind, tags);
                self.define(inst, v)?;
                Ok(Some(v))
            }
            (Some(_), _) => Ok(Some(self.emit_maybe_tagged("t", ret, kind, tags))),
        }
    }

    /// `_R` name suffix for a result type (`float4`, `uint`, …).
    fn ret_suffix(&self, t: SpvTypeId) -> Result<String, Error> {
        Ok(match self.cx.spv_ty(t)?.clone() {
            SpvTy::Vector { elem, n } => format!("{}{n}", self.ret_suffix(elem)?),
            SpvTy::Int { width: 8, signed } => if signed { "char" } else { "uchar" }.into(),
            SpvTy::Int { width: 16, signed } => if signed { "short" } else { "ushort" }.into(),
            SpvTy::Int { width: 64, signed } => if signed { "long" } else { "ulong" }.into(),
            SpvTy::Int { signed, .. } => if signed { "int" } else { "uint" }.into(),
            SpvTy::Float { width: 16, .. } => "half".into(),
            SpvTy::Float { width: 64, .. } => "double".into(),
            SpvTy::Float { .. } => "float".into(),
            SpvTy::Bool => "bool".into(),
            SpvTy::CoopMatrix { .. } => match self.mty(t)? {
                MTy::Named(name) => name,
                _ => format!("T{t}"),
            },
            _ => format!("T{t}"),
        })
    }

    /// An argument for a builtin from an id operand: its value and mangling type.
    pub fn arg(&self, id: SpvId) -> Result<(Value, MTy), Error> {
        let vi = self.info(id)?;
        Ok((vi.v, self.mty(vi.spv_ty)?))
    }

    /// An `i32` constant argument.
    pub fn i32_arg(&mut self, v: u64) -> (Value, MTy) {
        (self.cx.i32_val(v), MTy::Int)
    }

    /// Lowers an instruction with no LLVM equivalent to a call of `__spirv_<OpName>`:
    /// id operands pass as values, scope/semantics ids and literals as `i32` constants.
    pub fn lower_generic_builtin(&mut self, inst: &Inst) -> Result<(), Error> {
        self.lower_generic_builtin_tagged(inst, None)
    }

    /// [`lower_generic_builtin`](Self::lower_generic_builtin), the call carrying the MMRA
    /// tags `tags` when given (an image access without them carries the image tags).
    pub fn lower_generic_builtin_tagged(
        &mut self,
        inst: &Inst,
        tags: Option<&TagSet>,
    ) -> Result<(), Error> {
        let convergent = crate::spirv::opclass::is_convergent(inst.op);
        let mut args = Vec::with_capacity(inst.operands.len());
        for op in inst.operands.iter() {
            let a = match op {
                Operand::IdRef(id) => self.arg(SpvId(*id))?,
                Operand::IdScope(id) | Operand::IdMemorySemantics(id) => {
                    let id = SpvId(*id);
                    match self.cx.const_int(id) {
                        Some(v) => self.i32_arg(v),
                        // Kernels may pass a runtime value: pass it on.
                        None => self.arg(id)?,
                    }
                }
                Operand::LiteralBit32(v) => self.i32_arg(u64::from(*v)),
                Operand::GroupOperation(g) => self.i32_arg(*g as u64),
                Operand::ImageOperands(m) => self.i32_arg(u64::from(m.bits())),
                Operand::StorageClass(s) => self.i32_arg(*s as u64),
                Operand::Scope(s) => self.i32_arg(*s as u64),
                Operand::MemoryAccess(m) => self.i32_arg(u64::from(m.bits())),
                Operand::CooperativeMatrixOperands(m) => self.i32_arg(u64::from(m.bits())),
                other => {
                    return Err(
                        inst.unsupported_form(format!("operand {other:?} in a builtin call"))
                    );
                }
            };
            args.push(a);
        }
        let name = format!("__spirv_{}", inst.opname().trim_start_matches("Op"));
        let image_tags = (tags.is_none() && is_image_access(inst.op)).then(|| {
            let texel = inst.operands.iter().any(|o| {
                matches!(o, Operand::ImageOperands(m) if m.contains(::spirv::ImageOperands::NON_PRIVATE_TEXEL))
            });
            self.image_tags(texel)
        });
        let tags = tags.or(image_tags.as_ref());
        self.call_builtin_with(inst, &name, &args, inst.result_type(), convergent, tags)?;
        Ok(())
    }
}

/// Image instructions that read or write image memory (queries do not).
pub fn is_image_access(op: Op) -> bool {
    matches!(
        op,
        Op::ImageRead
            | Op::ImageWrite
            | Op::ImageFetch
            | Op::ImageGather
            | Op::ImageDrefGather
            | Op::ImageSampleImplicitLod
            | Op::ImageSampleExplicitLod
            | Op::ImageSampleDrefImplicitLod
            | Op::ImageSampleDrefExplicitLod
            | Op::ImageSampleProjImplicitLod
            | Op::ImageSampleProjExplicitLod
            | Op::ImageSampleProjDrefImplicitLod
            | Op::ImageSampleProjDrefExplicitLod
            | Op::ImageSparseRead
            | Op::ImageSparseFetch
            | Op::ImageSparseGather
            | Op::ImageSparseDrefGather
            | Op::ImageSparseSampleImplicitLod
            | Op::ImageSparseSampleExplicitLod
            | Op::ImageSparseSampleDrefImplicitLod
            | Op::ImageSparseSampleDrefExplicitLod
    )
}

fn join(v: &[u32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("_")
}

/// The mangling type of an integer.
pub fn int_mty(width: u32, signed: bool) -> MTy {
    match (width, signed) {
        (8, true) => MTy::Char,
        (8, false) => MTy::UChar,
        (16, true) => MTy::Short,
        (16, false) => MTy::UShort,
        (64, true) => MTy::Long,
        (64, false) => MTy::ULong,
        (_, true) => MTy::Int,
        (_, false) => MTy::UInt,
    }
}
