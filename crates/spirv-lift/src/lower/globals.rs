//! Global variables, function declarations and entry points.
//!
//! BuiltIn variables become `__spirv_BuiltIn<Name>` globals (the name LLVM's SPIR-V
//! backend recognizes). Variables whose storage is provided from outside the module
//! (Input, Uniform, StorageBuffer, UniformConstant, PushConstant, imported ones) and
//! Output variables (read by the next stage: an optimizer must keep their stores) are
//! `external`; Workgroup and Private storage is defined here. Interface and resource
//! decorations travel as `!spirv.Decorations`. On `--target amdgcn`,
//! descriptor-backed and push-constant variables are kernel arguments instead (`abi.rs`).

use super::{Ctx, SpvTy, types::addrspace};
use crate::Target;
use crate::error::Error;
use crate::llvm::{CallConv, FnAttr, Global, Linkage, MdOperand, ParamAttr, Type, Value};
use crate::spirv::SpvId;
use crate::spirv::SpvTypeId;
use crate::spirv::{Function, Inst, Operand};
use ::spirv::{
    Decoration, ExecutionMode, ExecutionModel, FunctionControl, FunctionParameterAttribute,
    LinkageType, StorageClass,
};

impl Ctx<'_> {
    pub(crate) fn lower_global_variable(&mut self, inst: &Inst) -> Result<(), Error> {
        let id = inst.rid()?;
        let ptr_ty = inst.rty()?;
        let SpvTy::Pointer { pointee, .. } = self.spv_ty(ptr_ty)?.clone() else {
            return Err(inst.err("OpVariable's type is not a pointer"));
        };
        let sc = inst.storage_class(0)?;
        if self.workgroup_block(inst, id, ptr_ty, pointee, sc)? {
            return Ok(());
        }
        // Memory is in the explicit layout where the type has one (layout.rs).
        let shape = self.shape(pointee)?;
        // A void or `OpTypeOpaque` variable still has an address: one byte.
        let ty = self.m.variable_type(self.layouts.get(shape).mem);
        let a = addrspace(sc, self.opts.target).map_err(|e| e.or_at(&inst.location()))?;
        let init_id = inst.optional_id(1);
        let import = matches!(self.linkage_name(id), Some((_, LinkageType::Import)));
        let init = match init_id {
            Some(i) => match self.global_value(i).map(|v| v.v) {
                Some(Value::Const(c)) => Some(self.const_to_mem(c, shape)?),
                // Another variable's address.
                Some(Value::Global(g)) => {
                    let pt = self.m.ty(Type::Ptr(self.m.globals[g.index()].addrspace));
                    Some(self.m.constant(crate::llvm::Const::GlobalAddr(pt, g)))
                }
                _ => {
                    return Err(
                        inst.unsupported_form(format!("initializer %{i} is not a constant"))
                    );
                }
            },
            None if import => None,
            // Output variables are read by the next stage: declared, never defined here,
            // so that no optimization may drop a store to them or fold a load.
            None => match sc {
                StorageClass::Workgroup | StorageClass::Private | StorageClass::Function => {
                    Some(self.m.constant(crate::llvm::Const::Poison(ty)))
                }
                StorageClass::CrossWorkgroup if self.kernel => Some(self.null_of(ty)),
                _ => None,
            },
        };
        let builtin = self.builtin_of(id);
        if let (Some(b), Target::Amdgcn, StorageClass::Input) = (builtin, self.opts.target, sc) {
            // No storage on AMDGPU: computed where used (lower/amdgcn.rs).
            self.amd_builtins.insert(id, (b, ptr_ty, pointee));
            return Ok(());
        }
        let hint = match (builtin, self.linkage_name(id)) {
            (Some(b), _) => format!("__spirv_BuiltIn{b:?}"),
            (None, Some((name, _))) => name.to_string(),
            // An unnamed block variable takes its block type's name (`@Data`, not `@_30`).
            (None, None) => match self
                .names
                .get(id)
                .filter(|n| !n.is_empty())
                .or_else(|| self.names.get(SpvId::from(pointee)))
            {
                Some(n) if !n.is_empty() => n.to_string(),
                _ => self.hint(id),
            },
        };
        if builtin.is_none() && self.buffer_handle(id, ptr_ty, sc, ty, a, &hint)? {
            return Ok(());
        }
        if builtin.is_none() && self.is_resource(id, sc) {
            // A kernel argument, not a global (lower/abi.rs).
            return self.add_resource(id, ptr_ty, sc, a, ty, hint);
        }
        // On the host a built-in variable is a per-thread global that the runtime fills
        // before each invocation (`spirv_lift.set_invocation`, lower/host.rs), and a
        // Private variable is per thread, that is per invocation.
        let host = self.opts.target == Target::Host;
        let host_builtin = host && builtin.is_some() && sc == StorageClass::Input;
        let init = if host_builtin {
            Some(self.null_of(ty))
        } else {
            init
        };
        let thread_local = host_builtin || (host && sc == StorageClass::Private);
        let constant = !host_builtin
            && (matches!(sc, StorageClass::Input | StorageClass::UniformConstant)
                && builtin.is_some()
                || (sc == StorageClass::UniformConstant && init.is_some()));
        let linkage = match (self.linkage_name(id), sc) {
            (Some((_, LinkageType::Export)), _) => Linkage::External,
            (_, StorageClass::Workgroup | StorageClass::Private) => Linkage::Internal,
            _ => Linkage::External,
        };
        let align = self.deco_lit(id, Decoration::Alignment);
        let md = self
            .decorations_md(id)
            .map(|n| vec![("spirv.Decorations".to_string(), n)])
            .unwrap_or_default();
        let g = Global {
            name: String::new(),
            ty,
            addrspace: a,
            init,
            constant,
            thread_local,
            linkage,
            align,
            md,
        };
        crate::llvm::typecheck::check_global(&self.m, &g).map_err(|msg| inst.invalid(msg))?;
        let gid = self.m.add_global(&hint, g);
        if let (true, Some(b)) = (host_builtin, builtin) {
            self.host_builtins.push((gid, b, ty));
        }
        // A Private variable with an initializer starts each invocation with it, also
        // when the runtime runs several invocations on one thread.
        if let (true, StorageClass::Private, Some(c)) = (host, sc, init)
            && !matches!(self.m.const_of_id(c), crate::llvm::Const::Poison(_))
        {
            self.host_privates.push((gid, c));
        }
        // A Workgroup variable with an initializer (OpConstantNull, from
        // zero-initialized work-group memory) starts each work-group with it: the
        // runtime runs the groups one after another in the same module.
        if let (true, StorageClass::Workgroup, Some(c)) = (host, sc, init)
            && !matches!(self.m.const_of_id(c), crate::llvm::Const::Poison(_))
        {
            self.host_workgroup_inits.push((gid, c));
        }
        self.m.ty(Type::Ptr(a));
        self.set_global_value(id, Value::Global(gid), ptr_ty)
    }

    /// The interface and resource decorations of a variable as `!spirv.Decorations`
    /// (LLVM's SPIR-V backend reads this form: a node of `!{i32 <Decoration>,
    /// <literal operands as i32>...}` per decoration), so that bindings, locations,
    /// built-ins, interpolation and access qualifiers reach a consumer and llc's SPIR-V
    /// output. `None` when the variable has none of them.
    fn decorations_md(&mut self, id: SpvId) -> Option<crate::llvm::MdId> {
        use Decoration as D;
        let i32t = self.m.ty(Type::Int(32));
        let mut nodes = Vec::new();
        for crate::spirv::Deco {
            kind: d,
            operands: ops,
            ..
        } in self.decos(id).to_vec()
        {
            let carried = matches!(
                d,
                D::DescriptorSet
                    | D::Binding
                    | D::Location
                    | D::Component
                    | D::BuiltIn
                    | D::Flat
                    | D::NoPerspective
                    | D::Centroid
                    | D::Sample
                    | D::Patch
                    | D::Invariant
                    | D::Index
                    | D::InputAttachmentIndex
                    | D::NonWritable
                    | D::NonReadable
                    | D::Restrict
                    | D::Aliased
                    | D::Coherent
                    | D::Volatile
                    // Mesh-shader interfaces: which outputs are per primitive, per view.
                    | D::PerPrimitiveEXT
                    | D::PerViewNV
                    | D::PerTaskNV
                    | D::PerVertexKHR
            );
            if !carried {
                continue;
            }
            let mut node = vec![MdOperand::Int(i32t, i64::from(d as u32))];
            for op in ops.iter() {
                let v = match op {
                    Operand::LiteralBit32(v) => *v,
                    Operand::BuiltIn(b) => *b as u32,
                    _ => continue,
                };
                node.push(MdOperand::Int(i32t, i64::from(v)));
            }
            nodes.push(MdOperand::Node(self.m.md(node)));
        }
        (!nodes.is_empty()).then(|| self.m.md(nodes))
    }

    /// Creates the LLVM function (signature only) for a SPIR-V function.
    pub(crate) fn declare_function(&mut self, f: &Function) -> Result<(), Error> {
        let id = f.id();
        let fty = f.def.type_id(1)?;
        let SpvTy::Function { ret, params } = self.spv_ty(fty)?.clone() else {
            return Err(f.def.err("OpFunction's type is not a function type"));
        };
        if params.len() != f.params.len() {
            return Err(f
                .def
                .invalid("parameter count differs from the function type"));
        }
        let entry = self
            .entry_of
            .get(&id)
            .map(|&i| self.entry_points[i].clone());
        let is_kernel_entry = entry.as_ref().is_some_and(|e| {
            e.model == ExecutionModel::Kernel
                || (e.model == ExecutionModel::GLCompute && self.opts.target == Target::Amdgcn)
        });
        let called = self.called.contains(id);
        let cc = if is_kernel_entry && !called {
            match self.opts.target {
                Target::Generic => CallConv::SpirKernel,
                Target::Amdgcn => CallConv::AmdgpuKernel,
                Target::Host => CallConv::C,
            }
        } else if entry.is_some() && !called {
            CallConv::C
        } else {
            self.func_cc()
        };
        let mut name = match (&entry, self.linkage_name(id)) {
            (Some(e), _) => e.name.clone(),
            (_, Some((n, _))) => n.to_string(),
            _ => self.hint(id),
        };
        if entry.is_some() && called {
            // The entry point gets a wrapper with the entry name; the body is an ordinary function.
            name.push_str(".body");
        }
        let ret_ll = self.llty(ret)?;
        let fid = if entry.is_some() && !called && self.reserved.remove(&name) {
            self.m.add_function_reserved(&name, ret_ll, cc)
        } else {
            self.m.add_function(&name, ret_ll, cc)
        };
        let mut param_info = Vec::with_capacity(params.len());
        let mut sret_taken = false;
        for (i, (p, pty)) in f.params.iter().zip(&params).enumerate() {
            let pid = p.id();
            param_info.push((
                pid,
                *pty,
                self.llty(*pty)?,
                self.param_attrs(pid, *pty, i, cc, &mut sret_taken)?,
            ));
        }
        let lf = self.m.func_mut(fid);
        let kernel_cc = cc == CallConv::AmdgpuKernel;
        // amdgpu_kernel arguments are passed in the kernarg segment: no `byval`.
        let kept = |a: &&ParamAttr| !(kernel_cc && matches!(a, ParamAttr::ByVal(_)));
        // Exactly sized: a module of many small functions keeps every signature.
        lf.params.reserve_exact(param_info.len());
        lf.param_attrs.reserve_exact(
            (param_info.iter())
                .map(|(.., attrs)| attrs.iter().filter(kept).count())
                .sum(),
        );
        for (pid, _, t, attrs) in &param_info {
            let l = super::id_local(&self.names, lf, *pid, *t);
            lf.push_param(l, attrs.iter().filter(kept).copied());
        }
        let locals: Vec<_> = lf.params.to_vec();
        if !self.resources.list.is_empty() {
            let mut f = self.m.take_function(fid);
            self.add_resource_params(id, &mut f);
            self.m.put_function(fid, f);
        }
        let lf = self.m.func_mut(fid);
        // Every parameter is named: the body (if it comes) makes the namer again.
        lf.drop_namer();
        let inline = match f.def.operand(0) {
            Ok(Operand::FunctionControl(fc)) if fc.contains(FunctionControl::DONT_INLINE) => {
                Some(FnAttr::NoInline)
            }
            Ok(Operand::FunctionControl(fc)) if fc.contains(FunctionControl::INLINE) => {
                Some(FnAttr::AlwaysInline)
            }
            _ => None,
        };
        let convergent = self
            .convergent_fns
            .contains(id)
            .then_some(FnAttr::Convergent);
        // Exactly sized (a thin vector would otherwise take room for four): a module of
        // many functions keeps every declaration's attributes.
        lf.attrs
            .reserve_exact(usize::from(convergent.is_some()) + usize::from(inline.is_some()));
        lf.attrs.extend(convergent.into_iter().chain(inline));
        for ((pid, pty, ..), l) in param_info.iter().zip(locals) {
            let vi = super::ValInfo {
                v: Value::Local(l),
                spv_ty: *pty,
                local: true,
            };
            self.values.set(*pid, vi)?;
        }
        if let Err(msg) = crate::llvm::typecheck::check_signature(&self.m, self.m.func(fid)) {
            return Err(f.def.invalid(msg));
        }
        self.funcs.set(id, fid);
        self.set_global_value(id, Value::Func(fid), fty)
    }

    /// The LLVM attributes of parameter `index` (SPIR-V id `pid`, type `pty`) of a function
    /// with calling convention `cc`: its `FuncParamAttr` and `Restrict` decorations, each
    /// only where LLVM's verifier takes it (SPIR-V does not restrict them by type, and
    /// `spirv-val` accepts them anywhere): `zeroext`/`signext` on integers, one of them;
    /// `noalias`, `readonly`, `readnone` (not both) on pointers; `byval`/`sret` (one) on
    /// pointers to sized types, `sret` only on the first two parameters, once, and never
    /// on a kernel.
    fn param_attrs(
        &mut self,
        pid: SpvId,
        pty: SpvTypeId,
        index: usize,
        cc: CallConv,
        sret_taken: &mut bool,
    ) -> Result<Vec<ParamAttr>, Error> {
        use ParamAttr as A;
        let param_ty = self.llty(pty)?;
        let is_int = matches!(self.m.type_of_id(param_ty), Type::Int(_));
        let is_ptr = matches!(self.m.type_of_id(param_ty), Type::Ptr(_));
        let mut out: Vec<ParamAttr> = Vec::new();
        let attrs: Vec<FunctionParameterAttribute> = self
            .decos(pid)
            .iter()
            .filter_map(|d| match (d.kind, d.operands.first()) {
                (Decoration::FuncParamAttr, Some(Operand::FunctionParameterAttribute(a))) => {
                    Some(*a)
                }
                _ => None,
            })
            .collect();
        let has = |out: &[ParamAttr], f: fn(&ParamAttr) -> bool| out.iter().any(f);
        let kernel = matches!(cc, CallConv::SpirKernel | CallConv::AmdgpuKernel);
        for a in attrs {
            use FunctionParameterAttribute as P;
            match a {
                P::Zext | P::Sext
                    if is_int && !has(&out, |a| matches!(a, A::ZeroExt | A::SignExt)) =>
                {
                    out.push(if a == P::Zext { A::ZeroExt } else { A::SignExt });
                }
                P::NoAlias if is_ptr && !out.contains(&A::NoAlias) => out.push(A::NoAlias),
                P::NoWrite | P::NoReadWrite
                    if is_ptr && !has(&out, |a| matches!(a, A::ReadOnly | A::ReadNone)) =>
                {
                    out.push(if a == P::NoWrite {
                        A::ReadOnly
                    } else {
                        A::ReadNone
                    });
                }
                P::ByVal | P::Sret
                    if is_ptr && !has(&out, |a| matches!(a, A::ByVal(_) | A::Sret(_))) =>
                {
                    let sret = a == P::Sret;
                    if sret && (kernel || index > 1 || *sret_taken) {
                        continue;
                    }
                    if let SpvTy::Pointer { pointee, .. } = self.spv_ty(pty)?.clone() {
                        let t = self.llty(pointee)?;
                        let sized = !matches!(
                            self.m.type_of_id(t),
                            Type::Void | Type::Token | Type::Target(..)
                        );
                        if !sized {
                            continue;
                        }
                        out.push(if sret { A::Sret(t) } else { A::ByVal(t) });
                        *sret_taken |= sret;
                    }
                }
                _ => {}
            }
        }
        if is_ptr && self.has_deco(pid, Decoration::Restrict) && !out.contains(&A::NoAlias) {
            out.push(A::NoAlias);
        }
        Ok(out)
    }

    /// Reserves every entry point's name, so that no other function takes it first.
    pub(crate) fn reserve_entry_names(&mut self) {
        let names: Vec<String> = self.entry_points.iter().map(|e| e.name.clone()).collect();
        for n in names {
            if crate::llvm::is_plain_identifier(&n) && self.m.reserve_name(&n) {
                self.reserved.insert(n);
            }
        }
    }

    /// Adds entry-point attributes and metadata, and kernel wrappers for kernels that are
    /// also called as functions.
    pub(crate) fn finish_entry_points(&mut self) -> Result<(), Error> {
        let eps = self.entry_points.clone();
        let spec_builtin = self.workgroup_size_builtin_is_specialized();
        // Looked for once: a walk over the module-level instructions per entry point made
        // a module of 3,000 kernels quadratic.
        let set_builtin = self.set_workgroup_size_builtin();
        for ep in &eps {
            let Some(fid) = self.funcs.get(ep.func) else {
                return Err(crate::error::invalid(format!(
                    "entry point '{}' names %{}, not a function",
                    ep.name, ep.func
                )));
            };
            // On AMDGPU `reqd_work_group_size` is a promise the backend optimizes on (e.g.
            // a work-item id that is always 0); a size from specialization constants may
            // change after translation, so it makes none.
            let size = self.local_size(ep, set_builtin).filter(|_| {
                self.opts.target == Target::Generic
                    || !(spec_builtin || self.local_size_id_is_specialized(ep.func))
            });
            let fid = if self.called.contains(ep.func) {
                self.entry_wrapper(ep, fid)?
            } else {
                fid
            };
            if self.opts.target == Target::Host
                && matches!(ep.model, ExecutionModel::Kernel | ExecutionModel::GLCompute)
            {
                let fixed = self.local_size(ep, set_builtin).map(|(x, y, z)| [x, y, z]);
                self.host_entries.push((ep.name.clone(), fid, fixed));
            }
            if ep.model == ExecutionModel::Kernel
                || (ep.model == ExecutionModel::GLCompute && self.opts.target == Target::Amdgcn)
            {
                if let Some((x, y, z)) = size {
                    let i32t = self.m.ty(Type::Int(32));
                    let md = self.m.md(vec![
                        MdOperand::Int(i32t, i64::from(x)),
                        MdOperand::Int(i32t, i64::from(y)),
                        MdOperand::Int(i32t, i64::from(z)),
                    ]);
                    self.m
                        .func_mut(fid)
                        .md
                        .push(("reqd_work_group_size".into(), md));
                }
            } else if self.opts.target == Target::Generic {
                let stage = super::stage_name(ep.model);
                let f = self.m.func_mut(fid);
                f.attrs.push(FnAttr::Str("hlsl.shader", stage.to_string()));
                if let Some((x, y, z)) = size {
                    f.attrs
                        .push(FnAttr::Str("hlsl.numthreads", format!("{x},{y},{z}")));
                }
            }
        }
        Ok(())
    }

    /// A wrapper entry function calling the entry point's body function.
    fn entry_wrapper(
        &mut self,
        ep: &super::EntryPoint,
        body: crate::llvm::FuncId,
    ) -> Result<crate::llvm::FuncId, Error> {
        let cc = match (ep.model, self.opts.target) {
            (ExecutionModel::Kernel, Target::Generic) => CallConv::SpirKernel,
            (ExecutionModel::Kernel | ExecutionModel::GLCompute, Target::Amdgcn) => {
                CallConv::AmdgpuKernel
            }
            _ => CallConv::C,
        };
        // The body's SPIR-V parameters, then the resources it needs (abi.rs).
        let body_needs = self.resources.needs_of(ep.func).to_vec();
        let (ret, param_tys, body_cc) = {
            let b = self.m.func(body);
            let n = b
                .params
                .len()
                .saturating_sub(self.resources.params.get(&ep.func).map_or(0, |p| p.len()));
            (
                b.ret,
                b.params[..n]
                    .iter()
                    .map(|p| b.local_ty(*p))
                    .collect::<Vec<_>>(),
                b.cc,
            )
        };
        let w = if self.reserved.remove(&ep.name) {
            self.m.add_function_reserved(&ep.name, ret, cc)
        } else {
            self.m.add_function(&ep.name, ret, cc)
        };
        let mut f = self.m.take_function(w);
        let args: Vec<Value> = param_tys
            .iter()
            .enumerate()
            .map(|(i, t)| Value::Local(f.new_local(&format!("a{i}"), *t)))
            .collect();
        f.params = args
            .iter()
            .filter_map(|a| {
                if let Value::Local(l) = a {
                    Some(*l)
                } else {
                    None
                }
            })
            .collect();
        f.param_attrs = thin_vec::ThinVec::new();
        let mut args = args;
        let kernel = cc == CallConv::AmdgpuKernel;
        let all = kernel || self.opts.target == Target::Host;
        for i in 0..self.resources.list.len() {
            if !all && !body_needs.contains(&i) {
                continue;
            }
            let (l, attrs) = self.resource_param(i, kernel, &mut f);
            f.push_param(l, attrs);
            if body_needs.contains(&i) {
                args.push(Value::Local(l));
            }
        }
        let entry = f.new_block("entry");
        let void = self.m.find_type(&Type::Void) == Some(ret);
        let result = if void {
            None
        } else {
            Some(f.new_local("r", ret))
        };
        let call = crate::llvm::InstKind::Call(Box::new(crate::llvm::Call {
            cc: body_cc,
            ret,
            callee: Value::Func(body),
            args: args.into(),
            convergent: false,
            convergence: None,
        }));
        f.blocks[entry.index()]
            .insts
            .push(crate::llvm::Inst::new(result, call));
        let ret_inst = crate::llvm::InstKind::Ret {
            val: result.map(Value::Local),
        };
        f.blocks[entry.index()]
            .insts
            .push(crate::llvm::Inst::new(None, ret_inst));
        f.comments.push(format!(
            "entry point '{}': a wrapper, because its function is also called",
            ep.name
        ));
        let checked = crate::llvm::typecheck::check_signature(&self.m, &f);
        self.m.put_function(w, f);
        checked
            .map_err(|msg| crate::error::invalid(format!("entry point '{}': {msg}", ep.name)))?;
        Ok(w)
    }

    /// Whether the workgroup size of `func` depends on specialization constants left at
    /// their defaults through a `LocalSizeId` operand.
    fn local_size_id_is_specialized(&self, func: SpvId) -> bool {
        self.modes_of(func).iter().any(|inst| {
            matches!(
                inst.operand(1),
                Ok(Operand::ExecutionMode(ExecutionMode::LocalSizeId))
            ) && (2..5).any(|i| inst.id(i).is_ok_and(|id| self.follows_spec_default(id)))
        })
    }

    /// Whether the module has a `WorkgroupSize` built-in that is a specialization constant
    /// depending on a default (it then sets every entry point's workgroup size).
    fn workgroup_size_builtin_is_specialized(&self) -> bool {
        self.spv.globals.iter().any(|g| {
            g.result_id().is_some_and(|id| {
                self.follows_spec_default(id)
                    && self.builtin_of(id) == Some(::spirv::BuiltIn::WorkgroupSize)
            })
        })
    }

    /// The value of a `WorkgroupSize` built-in constant computed from a specialization
    /// constant whose value was set. Such a built-in takes precedence over `LocalSize` and
    /// `LocalSizeId` (SPIR-V's `WorkgroupSize` built-in), and glslang writes `LocalSize`
    /// with the defaults beside it for Vulkan 1.0–1.2, so the set value is here only.
    fn set_workgroup_size_builtin(&self) -> Option<(u32, u32, u32)> {
        let id = self.spv.globals.iter().find_map(|g| {
            g.result_id().filter(|&id| {
                self.spec_is_set(id) && self.builtin_of(id) == Some(::spirv::BuiltIn::WorkgroupSize)
            })
        })?;
        let Some(Value::Const(_)) = self.global_value(id).map(|v| v.v) else {
            return None;
        };
        let dim = |i: usize| {
            let v = self.spv.consts().element_int(id, i)?;
            u32::try_from(v).ok()
        };
        Some((dim(0)?, dim(1)?, dim(2)?))
    }

    /// The execution modes of `func`, in module order.
    fn modes_of(&self, func: SpvId) -> &[&Inst] {
        self.exec_modes.get(&func).map_or(&[], Vec::as_slice)
    }

    /// The workgroup size of an entry point from LocalSize / LocalSizeId execution modes,
    /// or from a `WorkgroupSize` built-in whose value was set by specialization
    /// (`set_builtin`, [`Ctx::set_workgroup_size_builtin`]; for the stages that have
    /// workgroups).
    fn local_size(
        &self,
        ep: &super::EntryPoint,
        set_builtin: Option<(u32, u32, u32)>,
    ) -> Option<(u32, u32, u32)> {
        use ExecutionModel as M;
        if matches!(
            ep.model,
            M::GLCompute | M::Kernel | M::TaskEXT | M::MeshEXT | M::TaskNV | M::MeshNV
        ) && let Some(size) = set_builtin
        {
            return Some(size);
        }
        for inst in self.modes_of(ep.func) {
            let Ok(Operand::ExecutionMode(mode)) = inst.operand(1) else {
                continue;
            };
            match mode {
                ExecutionMode::LocalSize => {
                    return Some((inst.lit(2).ok()?, inst.lit(3).ok()?, inst.lit(4).ok()?));
                }
                ExecutionMode::LocalSizeId => {
                    let get = |i| {
                        inst.id(i)
                            .ok()
                            .and_then(|id| self.const_int(id))
                            .map(|v| v as u32)
                    };
                    return Some((get(2)?, get(3)?, get(4)?));
                }
                _ => {}
            }
        }
        None
    }
}

impl Ctx<'_> {
    /// A Block-decorated Workgroup variable of a module with
    /// `WorkgroupMemoryExplicitLayoutKHR`: every such variable is the start of the same
    /// allocation (the extension makes them alias), so they share one global, sized by
    /// [`Ctx::finish_workgroup_blocks`] to the largest block. `false` when `id` is not one.
    pub(crate) fn workgroup_block(
        &mut self,
        inst: &Inst,
        id: SpvId,
        ptr_ty: SpvTypeId,
        pointee: SpvTypeId,
        sc: StorageClass,
    ) -> Result<bool, Error> {
        let Some(shared) = self.workgroup_blocks else {
            return Ok(false);
        };
        if sc != StorageClass::Workgroup || !self.has_deco(pointee, Decoration::Block) {
            return Ok(false);
        }
        // An initializer (zero-initialized workgroup memory: `OpConstantNull`) zeroes the
        // allocation the blocks share; any other value would have to overlay the others.
        if let Some(init) = inst.optional_id(1) {
            let zero = match self.global_value(init).map(|v| v.v) {
                Some(Value::Const(c)) => self.const_is_zero(c),
                _ => false,
            };
            if !zero {
                return Err(inst.unsupported_form(
                    "a Workgroup block initialized with anything but zeros (aliased blocks \
                     of SPV_KHR_workgroup_memory_explicit_layout share one allocation)",
                ));
            }
            self.workgroup_blocks_zeroed = true;
        }
        let shape = self.shape(pointee)?;
        let size = self.layouts.get(shape).size.ok_or_else(|| {
            inst.unsupported_form(
                "a Workgroup block whose size depends on the data layout (aliased blocks \
                 of SPV_KHR_workgroup_memory_explicit_layout need explicit offsets)",
            )
        })?;
        let gid = match shared {
            Some((gid, max)) => {
                self.workgroup_blocks = Some(Some((gid, max.max(size))));
                gid
            }
            None => {
                let i8t = self.m.ty(Type::Int(8));
                let arr = self.m.ty(Type::Array(size, i8t));
                let a = super::types::addrspace(sc, self.opts.target)?;
                let init = self.m.constant(crate::llvm::Const::Poison(arr));
                let gid = self.m.add_global(
                    "workgroup.blocks",
                    Global {
                        name: String::new(),
                        ty: arr,
                        addrspace: a,
                        init: Some(init),
                        constant: false,
                        thread_local: false,
                        linkage: Linkage::Internal,
                        align: Some(16),
                        md: Vec::new(),
                    },
                );
                self.m.ty(Type::Ptr(a));
                self.workgroup_blocks = Some(Some((gid, size)));
                gid
            }
        };
        self.set_global_value(id, Value::Global(gid), ptr_ty)?;
        Ok(true)
    }

    /// Gives the shared Workgroup block allocation the size of the largest block, zeroed
    /// when a block has an initializer (on the host, again before each work-group).
    pub(crate) fn finish_workgroup_blocks(&mut self) {
        if let Some(Some((gid, max))) = self.workgroup_blocks {
            let i8t = self.m.ty(Type::Int(8));
            let arr = self.m.ty(Type::Array(max, i8t));
            let init = if self.workgroup_blocks_zeroed {
                self.m.constant(crate::llvm::Const::Zero(arr))
            } else {
                self.m.constant(crate::llvm::Const::Poison(arr))
            };
            let g = &mut self.m.globals[gid.index()];
            g.ty = arr;
            g.init = Some(init);
            if self.workgroup_blocks_zeroed && self.opts.target == Target::Host {
                self.host_workgroup_inits.push((gid, init));
            }
        }
    }

    /// Whether a constant is all zero bits (`OpConstantNull`, or a composite of zeros).
    fn const_is_zero(&self, c: crate::llvm::ConstId) -> bool {
        use crate::llvm::Const;
        match self.m.const_of_id(c) {
            Const::Int(_, 0) | Const::Float(_, 0) | Const::Null(_) | Const::Zero(_) => true,
            Const::Aggregate(_, elems) => elems.iter().all(|e| self.const_is_zero(*e)),
            _ => false,
        }
    }
}
