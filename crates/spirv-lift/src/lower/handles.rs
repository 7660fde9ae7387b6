//! Uniform and storage buffer blocks as resource handles, for LLVM 22's SPIR-V backend
//! (`--spirv-backend-workarounds`, Shader modules only).
//!
//! The backend decorates a struct `Block` only when it builds the struct itself, around
//! the element type of a `target("spirv.VulkanBuffer", T, StorageClass, Writable)`
//! handle; a global of a block type comes out without `Block`, which Vulkan requires
//! (VUID-StandaloneSpirv-Uniform-06676). So in this mode a block variable is not a
//! global: every function that uses it starts with
//!
//! ```llvm
//! %h = call target("spirv.VulkanBuffer", %Name.buffer, 2, 0)
//!        @llvm.spv.resource.handlefrombinding…(i32 set, i32 binding, i32 1, i32 0, ptr @Name.name)
//! %p = call ptr addrspace(12) @llvm.spv.resource.getpointer…(target(…) %h, i32 0)
//! ```
//!
//! where `%Name.buffer = type <{ memory type of the block }>`: `getpointer` with index
//! `0` selects the wrapper's only member, so `%p` points to the block's memory type and
//! access chains go on from it as from the global. The backend makes one variable per
//! binding, decorated `DescriptorSet` and `Binding`, whose type is a `Block` struct
//! holding the wrapper; member offsets come from its data layout (see `layout.rs`).
//!
//! Left as globals: blocks ending in a runtime array (the backend would nest the array
//! inside the wrapper, which Vulkan forbids), arrays of blocks, `BufferBlock` (old-style
//! storage buffers) and variables with linkage.

use super::func::FnCtx;
use super::{Ctx, SpvTy};
use crate::error::Error;
use crate::llvm::{Const, Global, GlobalId, Linkage, Type, TypeId, Value};
use crate::spirv::Function;
use crate::spirv::{SpvId, SpvTypeId};
use ::spirv::{Decoration, StorageClass};

/// A block variable written as a resource handle.
#[derive(Clone, Debug)]
pub(crate) struct BufferHandle {
    set: u32,
    binding: u32,
    /// `target("spirv.VulkanBuffer", %Name.buffer, SC, writable)`.
    handle_ty: TypeId,
    /// `ptr addrspace(N)` of the storage class.
    ptr: TypeId,
    /// The variable's name, for the backend's `OpName`.
    name: GlobalId,
    /// The SPIR-V pointer type of the variable.
    ptr_ty: SpvTypeId,
}

impl Ctx<'_> {
    /// Writes variable `id` as a buffer handle when this mode asks for one; returns
    /// whether it did (then no global is made).
    pub(crate) fn buffer_handle(
        &mut self,
        id: SpvId,
        ptr_ty: SpvTypeId,
        sc: StorageClass,
        mem: TypeId,
        addrspace: u32,
        hint: &str,
    ) -> Result<bool, Error> {
        let SpvTy::Pointer { pointee, .. } = *self.spv_ty(ptr_ty)? else {
            return Ok(false);
        };
        if !self.backend_workarounds()
            || self.kernel
            || !matches!(sc, StorageClass::Uniform | StorageClass::StorageBuffer)
            || !self.has_deco(pointee, Decoration::Block)
            || self.linkage_name(id).is_some()
        {
            return Ok(false);
        }
        let (Some(set), Some(binding)) = (
            self.deco_lit(id, Decoration::DescriptorSet),
            self.deco_lit(id, Decoration::Binding),
        ) else {
            return Ok(false);
        };
        let SpvTy::Struct { members } = self.spv_ty(pointee)?.clone() else {
            return Ok(false);
        };
        if let Some(&last) = members.last()
            && matches!(self.spv_ty(last)?, SpvTy::RuntimeArray { .. })
        {
            return Ok(false);
        }
        let wrapper = self.m.new_struct_with(&format!("{hint}.buffer"), true);
        self.m.set_struct_body(wrapper, vec![mem]);
        // The handle's storage class operand is SPIR-V's number; only storage buffers
        // the shader may write are writable.
        let writable =
            sc == StorageClass::StorageBuffer && !self.has_deco(id, Decoration::NonWritable);
        let handle_ty = self.m.ty(Type::Target(
            "spirv.VulkanBuffer".into(),
            vec![wrapper],
            vec![sc as u32, u32::from(writable)],
        ));
        let ptr = self.m.ty(Type::Ptr(addrspace));
        let i8t = self.m.ty(Type::Int(8));
        let bytes: Vec<_> = hint
            .bytes()
            .chain(std::iter::once(0))
            .map(|b| self.m.constant(Const::Int(i8t, u64::from(b))))
            .collect();
        let arr = self.m.ty(Type::Array(bytes.len() as u64, i8t));
        let init = self.m.constant(Const::Aggregate(arr, bytes.into()));
        let name = self.m.add_global(
            &format!("{hint}.name"),
            Global {
                name: String::new(),
                ty: arr,
                addrspace: 0,
                init: Some(init),
                constant: true,
                thread_local: false,
                linkage: Linkage::Internal,
                align: None,
                md: Vec::new(),
            },
        );
        self.m.ty(Type::Ptr(0));
        self.buffer_handles.insert(
            id,
            BufferHandle {
                set,
                binding,
                handle_ty,
                ptr,
                name,
                ptr_ty,
            },
        );
        Ok(true)
    }
}

impl FnCtx<'_, '_> {
    /// Gets a pointer to each buffer-handle block the function uses, at its start.
    pub fn materialize_buffer_handles(
        &mut self,
        func: &Function,
        dec: Option<&crate::spirv::BodyDecoder<'_>>,
    ) -> Result<(), Error> {
        let used = Self::used_ids_where(func, dec, |id| self.cx.buffer_handles.contains_key(&id))?;
        for id in used {
            let Some(h) = self.cx.buffer_handles.get(&id).cloned() else {
                continue;
            };
            let [set, binding, one, zero] =
                [h.set, h.binding, 1, 0].map(|v| self.cx.i32_val(u64::from(v)));
            let handle = self.intrinsic(
                "spv.resource.handlefrombinding",
                &[h.handle_ty],
                h.handle_ty,
                vec![set, binding, one, zero, Value::Global(h.name)],
            )?;
            let p = self.intrinsic(
                "spv.resource.getpointer",
                &[h.ptr, h.handle_ty],
                h.ptr,
                vec![handle, zero],
            )?;
            self.define_variable(id, h.ptr_ty, p)?;
        }
        Ok(())
    }
}
