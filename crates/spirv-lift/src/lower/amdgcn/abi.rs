//! The Vulkan compute ABI of the `amdgcn` profile: descriptor bindings and push constants
//! as kernel arguments.
//!
//! On `--target amdgcn` a variable backed by a descriptor (StorageBuffer, Uniform or
//! UniformConstant storage with `DescriptorSet` and `Binding`) or by push constants
//! (PushConstant storage) is not a global: it is a *resource*, and its value (a pointer)
//! is passed as an argument.
//!
//! - Resources are ordered by (set, binding), then push-constant blocks by result id.
//!   Variables that share a (set, binding) (aliases) share one resource.
//! - Every `amdgpu_kernel` entry function takes, after its SPIR-V parameters, one argument
//!   per resource of the module, in that order: `ptr addrspace(N)` for a binding (N is
//!   the storage class's address space: 1, or 4 for UniformConstant), and
//!   `ptr addrspace(4) byref(<block type>)` for push constants, which the backend passes
//!   by value in the kernel-argument segment.
//! - Every other function takes, after its SPIR-V parameters, one plain pointer parameter
//!   per resource it uses directly or through its callees (call-graph fixpoint), in the
//!   same order; calls pass them on.

use crate::error::{Error, ErrorKind};
use crate::llvm::{LocalId, ParamAttr, Type, TypeId, Value};
use crate::lower::Ctx;
use crate::spirv::{Function, SpvId, SpvTypeId};
use ::spirv::{Decoration, StorageClass};
use std::collections::{BTreeMap, HashMap};

/// What a resource argument stands for; the derived order is the argument order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ResourceKey {
    /// A descriptor binding.
    Binding { set: u32, binding: u32 },
    /// A push-constant block, by variable id.
    PushConstant(SpvId),
}

/// One resource argument.
#[derive(Clone, Debug)]
pub(crate) struct Resource {
    pub key: ResourceKey,
    /// Address space of the pointer.
    pub addrspace: u32,
    /// The LLVM type the pointer points to (the `byref` type of push constants).
    pub pointee: TypeId,
    /// Name hint of the argument.
    pub hint: String,
    /// The variables it backs: (variable id, SPIR-V pointer type id).
    pub vars: Vec<(SpvId, SpvTypeId)>,
}

/// The module's resources and which functions need which.
#[derive(Default)]
pub(crate) struct Resources {
    /// In argument order.
    pub list: Vec<Resource>,
    /// SPIR-V function id → indices into `list` of the resources it needs, ascending.
    pub needs: HashMap<SpvId, Vec<usize>>,
    /// SPIR-V function id → its resource parameters: (index into `list`, parameter).
    pub params: HashMap<SpvId, Vec<(usize, LocalId)>>,
}

impl Resources {
    /// The resources a (non-entry) function needs.
    pub fn needs_of(&self, func: SpvId) -> &[usize] {
        self.needs.get(&func).map_or(&[], |v| v.as_slice())
    }

    /// The parameter holding resource `r` in function `func`.
    pub fn param(&self, func: SpvId, r: usize) -> Option<LocalId> {
        self.params
            .get(&func)?
            .iter()
            .find(|(i, _)| *i == r)
            .map(|(_, l)| *l)
    }
}

impl Ctx<'_> {
    /// Whether a global variable is a resource under the active profile.
    pub(crate) fn is_resource(&self, id: SpvId, sc: StorageClass) -> bool {
        matches!(
            self.opts.target,
            crate::Target::Amdgcn | crate::Target::Host
        ) && match sc {
            StorageClass::PushConstant => true,
            StorageClass::StorageBuffer | StorageClass::Uniform | StorageClass::UniformConstant => {
                self.has_deco(id, Decoration::DescriptorSet)
                    && self.has_deco(id, Decoration::Binding)
            }
            _ => false,
        }
    }

    /// Records a resource variable (instead of creating a global).
    pub(crate) fn add_resource(
        &mut self,
        id: SpvId,
        ptr_ty: SpvTypeId,
        sc: StorageClass,
        addrspace: u32,
        pointee: TypeId,
        hint: String,
    ) -> Result<(), Error> {
        let key = if sc == StorageClass::PushConstant {
            ResourceKey::PushConstant(id)
        } else {
            ResourceKey::Binding {
                set: self.deco_lit(id, Decoration::DescriptorSet).unwrap_or(0),
                binding: self.deco_lit(id, Decoration::Binding).unwrap_or(0),
            }
        };
        if let Some(r) = self.resources.list.iter_mut().find(|r| r.key == key) {
            if r.addrspace != addrspace {
                return Err(Error::new(ErrorKind::UnsupportedForm(format!(
                    "variables %{} and %{id} share a descriptor binding but not an address space",
                    r.vars.first().map_or(0, |v| v.0.0)
                ))));
            }
            r.vars.push((id, ptr_ty));
            return Ok(());
        }
        self.resources.list.push(Resource {
            key,
            addrspace,
            pointee,
            hint,
            vars: vec![(id, ptr_ty)],
        });
        Ok(())
    }

    /// Sorts the resources into argument order and computes, per function, the resources
    /// it uses directly or through calls (worklist over callers).
    pub(crate) fn finish_resources(&mut self, functions: &[Function], facts: &crate::spirv::Facts) {
        if self.resources.list.is_empty() {
            return;
        }
        self.resources.list.sort_by_key(|r| r.key);
        let slot_of: BTreeMap<SpvId, usize> = self
            .resources
            .list
            .iter()
            .enumerate()
            .flat_map(|(i, r)| r.vars.iter().map(move |(v, _)| (*v, i)))
            .collect();
        let mut needs: HashMap<SpvId, std::collections::BTreeSet<usize>> = HashMap::new();
        let mut callers: HashMap<SpvId, Vec<SpvId>> = HashMap::new();
        for (i, f) in functions.iter().enumerate() {
            let fid = f.id();
            let set = needs.entry(fid).or_default();
            let vars = facts.global_vars.get(i);
            set.extend(vars.iter().filter_map(|id| slot_of.get(id).copied()));
            for &callee in facts.calls.get(i) {
                callers.entry(callee).or_default().push(fid);
            }
        }
        let mut work: Vec<SpvId> = functions.iter().map(Function::id).collect();
        while let Some(f) = work.pop() {
            let mine = needs.get(&f).cloned().unwrap_or_default();
            for &caller in callers.get(&f).map_or(&[][..], |v| v.as_slice()) {
                let theirs = needs.entry(caller).or_default();
                let before = theirs.len();
                theirs.extend(mine.iter().copied());
                if theirs.len() != before {
                    work.push(caller);
                }
            }
        }
        self.resources.needs = needs
            .into_iter()
            .map(|(f, s)| (f, s.into_iter().collect()))
            .collect();
    }

    /// Appends resource parameters to a function being declared: every resource with the
    /// kernel ABI's attributes for an `amdgpu_kernel`, else the ones it needs.
    pub(crate) fn add_resource_params(&mut self, spv_func: SpvId, f: &mut crate::llvm::Function) {
        let kernel = f.cc == crate::llvm::CallConv::AmdgpuKernel;
        // On the host an entry point that nothing calls takes every resource, as a
        // kernel does, but as plain pointers (lower/host.rs).
        let host_entry = self.opts.target == crate::Target::Host
            && self.entry_of.contains_key(&spv_func)
            && !self.called.contains(spv_func);
        let which: Vec<usize> = if kernel || host_entry {
            (0..self.resources.list.len()).collect()
        } else {
            self.resources.needs_of(spv_func).to_vec()
        };
        let mut params = Vec::with_capacity(which.len());
        for i in which {
            let (l, attrs) = self.resource_param(i, kernel, f);
            f.push_param(l, attrs);
            params.push((i, l));
        }
        if !params.is_empty() {
            self.resources.params.insert(spv_func, params);
        }
    }

    /// A new parameter local for resource `i` and its attributes.
    pub(crate) fn resource_param(
        &mut self,
        i: usize,
        kernel: bool,
        f: &mut crate::llvm::Function,
    ) -> (LocalId, Vec<ParamAttr>) {
        let r = &self.resources.list[i];
        let (hint, pointee, addrspace, push) = (
            r.hint.clone(),
            r.pointee,
            r.addrspace,
            matches!(r.key, ResourceKey::PushConstant(_)),
        );
        let ty = self.m.ty(Type::Ptr(addrspace));
        let l = f.new_local(&hint, ty);
        let attrs = if kernel && push {
            vec![ParamAttr::ByRef(pointee)]
        } else {
            Vec::new()
        };
        (l, attrs)
    }

    /// The values of the resource variables in function `func`: its parameters.
    pub(crate) fn resource_values(&self, func: SpvId) -> Vec<(SpvId, crate::lower::ValInfo)> {
        let mut out = Vec::new();
        for &(i, l) in self.resources.params.get(&func).map_or(&[][..], |v| v) {
            for &(var, ptr_ty) in &self.resources.list[i].vars {
                out.push((
                    var,
                    crate::lower::ValInfo {
                        v: Value::Local(l),
                        spv_ty: ptr_ty,
                        local: true,
                    },
                ));
            }
        }
        out
    }
}
