//! The `host` profile's interface with the runtime (`spirv-lift run`).
//!
//! - **Built-in variables** are `thread_local` globals (lower/globals.rs). The module
//!   defines `void spirv_lift.set_invocation(const struct spirv_lift_invocation *)`,
//!   which copies the fields it needs from the runtime's per-invocation record
//!   ([`INVOCATION_FIELDS`]) into them, and stores their initializers into the
//!   (`thread_local`) Private variables; the runtime calls it on the invocation's thread
//!   before the entry point.
//! - **Entry points** keep the C calling convention and their parameters (an OpenCL
//!   kernel's own parameters; a compute shader's resources in (set, binding) order, then
//!   push constants, all as pointers: lower/abi.rs). Each also gets a trampoline
//!   `void <name>.spirv_lift_entry(void **args)`: `args[i]` points at the value of
//!   parameter `i` (for a pointer parameter, at the pointer), so the runtime calls any
//!   entry point through one C signature.
//! - **Work-group memory**: Workgroup variables are ordinary globals shared by the
//!   threads of a group. `void spirv_lift.begin_group(void)` stores the initializers
//!   of those that have one (zero-initialized work-group memory); the runtime calls it
//!   before each work-group.
//! - **Local size**: when the module fixes it (`LocalSize`, `reqd_work_group_size`),
//!   `<name>.spirv_lift_local_size` is a constant `[3 x i32]` with it.

use super::func::FnCtx;
use super::{Ctx, SpvTy};
use crate::error::{Error, ErrorKind};
use crate::llvm::{
    CallConv, CastOp, Const, Function, Global, Inst, InstKind, Linkage, Type, TypeId, Value,
};
use crate::spirv::SpvTypeId;
use ::spirv::{BuiltIn, Decoration};

/// The host triple and data layout LLVM 19 and 22 use for this machine's architecture.
pub(crate) fn triple_and_layout() -> (&'static str, &'static str) {
    if cfg!(target_arch = "aarch64") {
        (
            "aarch64-unknown-linux-gnu",
            "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
        )
    } else {
        (
            "x86_64-unknown-linux-gnu",
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
        )
    }
}

/// Where each built-in lives in the runtime's `struct spirv_lift_invocation`: (byte
/// offset, number of components, bits per component). The record (README "Running
/// translated code") is, in order: `uint64_t global_id[3], local_id[3], group_id[3],
/// global_size[3], local_size[3], num_groups[3], global_offset[3], local_index,
/// global_linear_id; uint32_t work_dim, subgroup_size, subgroup_max_size, num_subgroups,
/// num_enqueued_subgroups, subgroup_id, subgroup_local_id, (padding),
/// subgroup_eq_mask[4], subgroup_ge_mask[4], subgroup_gt_mask[4], subgroup_le_mask[4],
/// subgroup_lt_mask[4]` (296 bytes; the masks are the `uvec4` ballots of the
/// `Subgroup{Eq,Ge,Gt,Le,Lt}Mask` built-ins, bit 0 of word 0 first).
pub const INVOCATION_FIELDS: &[(BuiltIn, u32, u32, u32)] = &[
    (BuiltIn::GlobalInvocationId, 0, 3, 64),
    (BuiltIn::LocalInvocationId, 24, 3, 64),
    (BuiltIn::WorkgroupId, 48, 3, 64),
    (BuiltIn::GlobalSize, 72, 3, 64),
    (BuiltIn::WorkgroupSize, 96, 3, 64),
    (BuiltIn::EnqueuedWorkgroupSize, 96, 3, 64),
    (BuiltIn::NumWorkgroups, 120, 3, 64),
    (BuiltIn::GlobalOffset, 144, 3, 64),
    (BuiltIn::LocalInvocationIndex, 168, 1, 64),
    (BuiltIn::GlobalLinearId, 176, 1, 64),
    (BuiltIn::WorkDim, 184, 1, 32),
    (BuiltIn::SubgroupSize, 188, 1, 32),
    (BuiltIn::SubgroupMaxSize, 192, 1, 32),
    (BuiltIn::NumSubgroups, 196, 1, 32),
    (BuiltIn::NumEnqueuedSubgroups, 200, 1, 32),
    (BuiltIn::SubgroupId, 204, 1, 32),
    (BuiltIn::SubgroupLocalInvocationId, 208, 1, 32),
    (BuiltIn::SubgroupEqMask, 216, 4, 32),
    (BuiltIn::SubgroupGeMask, 232, 4, 32),
    (BuiltIn::SubgroupGtMask, 248, 4, 32),
    (BuiltIn::SubgroupLeMask, 264, 4, 32),
    (BuiltIn::SubgroupLtMask, 280, 4, 32),
];

impl Ctx<'_> {
    /// Adds the runtime interface: the invocation setter, the entry trampolines and the
    /// local-size constants.
    pub(crate) fn finish_host(
        &mut self,
        entries: &[(String, crate::llvm::FuncId, Option<[u32; 3]>)],
    ) -> Result<(), Error> {
        self.host_setter()?;
        self.host_group_setter();
        for (name, fid, size) in entries {
            self.host_trampoline(name, *fid);
            if let Some(size) = size {
                let i32t = self.m.ty(Type::Int(32));
                let arr = self.m.ty(Type::Array(3, i32t));
                let elems = size
                    .iter()
                    .map(|&v| self.int_const(i32t, u64::from(v)))
                    .collect();
                let init = self.m.constant(Const::Aggregate(arr, elems));
                self.m.add_global(
                    &format!("{name}.spirv_lift_local_size"),
                    Global {
                        name: String::new(),
                        ty: arr,
                        addrspace: 0,
                        init: Some(init),
                        constant: true,
                        thread_local: false,
                        linkage: Linkage::External,
                        align: None,
                        md: Vec::new(),
                    },
                );
            }
        }
        Ok(())
    }

    /// `void spirv_lift.set_invocation(ptr record)`: stores each built-in the module uses.
    fn host_setter(&mut self) -> Result<(), Error> {
        let void = self.m.ty(Type::Void);
        let ptr = self.m.ty(Type::Ptr(0));
        let i8t = self.m.ty(Type::Int(8));
        let i64t = self.m.ty(Type::Int(64));
        let w = self
            .m
            .add_function("spirv_lift.set_invocation", void, CallConv::C);
        let mut f = self.m.take_function(w);
        let rec = f.new_local("record", ptr);
        f.push_param(rec, Vec::new());
        let entry = f.new_block("entry");
        let mut insts = Vec::new();
        let builtins = self.host_builtins.clone();
        for (gid, b, ty) in builtins {
            let Some(&(_, offset, count, bits)) = INVOCATION_FIELDS.iter().find(|(x, ..)| *x == b)
            else {
                return Err(Error::new(ErrorKind::UnsupportedForm(format!(
                    "--target host has no value for built-in {b:?} (the runtime's invocation \
                     record has the work-item ids, sizes and subgroup numbers)"
                ))));
            };
            let shape = self.m.type_of_id(ty).clone();
            let (lanes, elem) = match shape {
                Type::Int(_) => (None, ty),
                Type::Vector(n, e) if n <= 4 => (Some(n), e),
                Type::Array(n, e) if n <= 4 => (Some(n as u32), e),
                _ => {
                    return Err(Error::new(ErrorKind::UnsupportedForm(format!(
                        "--target host: built-in {b:?} has an unexpected type"
                    ))));
                }
            };
            let ebits = match self.m.type_of_id(elem) {
                Type::Int(w) => *w,
                _ => {
                    return Err(Error::new(ErrorKind::UnsupportedForm(format!(
                        "--target host: built-in {b:?} is not integer-typed"
                    ))));
                }
            };
            let field_ty = self.m.ty(Type::Int(bits));
            let read = |f: &mut Function, k: u32, insts: &mut Vec<Inst>, cx: &mut Self| {
                let off = cx.int_const(i64t, u64::from(offset + k * bits / 8));
                let v = gep_load(f, insts, i8t, rec, off, field_ty, "v");
                if ebits == bits {
                    return Value::Local(v);
                }
                let c = f.new_local("c", elem);
                let op = if ebits < bits {
                    CastOp::Trunc
                } else {
                    CastOp::ZExt
                };
                insts.push(Inst::new(
                    Some(c),
                    InstKind::Cast {
                        op,
                        v: Value::Local(v),
                        to: elem,
                    },
                ));
                Value::Local(c)
            };
            let value = match lanes {
                None => read(&mut f, 0, &mut insts, self),
                Some(n) => {
                    let is_vector = matches!(self.m.type_of_id(ty), Type::Vector(..));
                    let mut acc = Value::Const(self.m.constant(Const::Poison(ty)));
                    for k in 0..n {
                        let x = if k < count {
                            read(&mut f, k, &mut insts, self)
                        } else {
                            // A fourth lane has no field: 0.
                            Value::Const(self.int_const(elem, 0))
                        };
                        let r = f.new_local("b", ty);
                        let kind = if is_vector {
                            let i32t = self.m.ty(Type::Int(32));
                            InstKind::InsertElement {
                                v: acc,
                                elt: x,
                                idx: Value::Const(self.int_const(i32t, u64::from(k))),
                            }
                        } else {
                            InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                                v: acc,
                                elt: x,
                                idx: vec![k],
                            }))
                        };
                        insts.push(Inst::new(Some(r), kind));
                        acc = Value::Local(r);
                    }
                    acc
                }
            };
            insts.push(Inst::new(
                None,
                InstKind::Store {
                    val: value,
                    ptr: Value::Global(gid),
                    align: None,
                    volatile: false,
                    atomic: None,
                },
            ));
        }
        for (gid, init) in self.host_privates.clone() {
            insts.push(Inst::new(
                None,
                InstKind::Store {
                    val: Value::Const(init),
                    ptr: Value::Global(gid),
                    align: None,
                    volatile: false,
                    atomic: None,
                },
            ));
        }
        insts.push(Inst::new(None, InstKind::Ret { val: None }));
        f.blocks[entry.index()].insts = insts.into();
        f.comments.push(
            "the runtime's per-invocation record → this thread's built-in variables; \
             Private variables back to their initializers"
                .into(),
        );
        self.m.put_function(w, f);
        Ok(())
    }

    /// `void spirv_lift.begin_group()`: stores the initializer of each Workgroup
    /// variable that has one, for the work-group about to run.
    fn host_group_setter(&mut self) {
        let void = self.m.ty(Type::Void);
        let w = self
            .m
            .add_function("spirv_lift.begin_group", void, CallConv::C);
        let mut f = self.m.take_function(w);
        let entry = f.new_block("entry");
        let mut insts = Vec::new();
        for (gid, init) in self.host_workgroup_inits.clone() {
            insts.push(Inst::new(
                None,
                InstKind::Store {
                    val: Value::Const(init),
                    ptr: Value::Global(gid),
                    align: None,
                    volatile: false,
                    atomic: None,
                },
            ));
        }
        insts.push(Inst::new(None, InstKind::Ret { val: None }));
        f.blocks[entry.index()].insts = insts.into();
        f.comments
            .push("Workgroup variables back to their initializers, before each work-group".into());
        self.m.put_function(w, f);
    }

    /// `void <name>.spirv_lift_entry(ptr args)`: calls entry `fid` with `*args[i]` as
    /// parameter `i`.
    fn host_trampoline(&mut self, name: &str, fid: crate::llvm::FuncId) {
        let void = self.m.ty(Type::Void);
        let ptr = self.m.ty(Type::Ptr(0));
        let i64t = self.m.ty(Type::Int(64));
        let (params, ret): (Vec<(TypeId, bool)>, TypeId) = {
            let e = self.m.func(fid);
            (
                e.params
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let byval = e
                            .attrs_of_param(i)
                            .any(|a| matches!(a, crate::llvm::ParamAttr::ByVal(_)));
                        (e.local_ty(*p), byval)
                    })
                    .collect(),
                e.ret,
            )
        };
        let w = self
            .m
            .add_function(&format!("{name}.spirv_lift_entry"), void, CallConv::C);
        let mut f = self.m.take_function(w);
        let args_p = f.new_local("args", ptr);
        f.push_param(args_p, Vec::new());
        let entry = f.new_block("entry");
        let mut insts = Vec::new();
        let mut args = Vec::new();
        for (i, (ty, byval)) in params.into_iter().enumerate() {
            let idx = self.int_const(i64t, i as u64);
            let at = gep_load(&mut f, &mut insts, ptr, args_p, idx, ptr, "at");
            if byval {
                // A by-value aggregate: the slot points at its bytes.
                let v = if ty == ptr {
                    Value::Local(at)
                } else {
                    let c = f.new_local("cast", ty);
                    insts.push(Inst::new(
                        Some(c),
                        InstKind::Cast {
                            op: CastOp::AddrSpaceCast,
                            v: Value::Local(at),
                            to: ty,
                        },
                    ));
                    Value::Local(c)
                };
                args.push(v);
                continue;
            }
            let v = f.new_local("arg", ty);
            insts.push(Inst::new(
                Some(v),
                InstKind::Load {
                    ty,
                    ptr: Value::Local(at),
                    align: Some(1),
                    volatile: false,
                    atomic: None,
                },
            ));
            args.push(Value::Local(v));
        }
        let result = (ret != void).then(|| f.new_local("r", ret));
        insts.push(Inst::new(
            result,
            InstKind::Call(Box::new(crate::llvm::Call {
                cc: CallConv::C,
                ret,
                callee: Value::Func(fid),
                args: args.into(),
                convergent: false,
                convergence: None,
            })),
        ));
        insts.push(Inst::new(None, InstKind::Ret { val: None }));
        f.blocks[entry.index()].insts = insts.into();
        f.comments.push(format!(
            "entry point '{name}': parameter i is *args[i] (the runtime's one signature)"
        ));
        self.m.put_function(w, f);
    }
}

impl FnCtx<'_, '_> {
    /// `OpArrayLength` on the host: `(spirv_lift.buffer_size(block) - offset) / stride`,
    /// where the runtime's `i64 spirv_lift.buffer_size(ptr)` is the byte size of the buffer
    /// bound at that address, and the offset and stride are the runtime array member's
    /// `Offset` and its type's `ArrayStride`.
    pub(crate) fn host_array_length(&mut self, inst: &crate::spirv::Inst) -> Result<(), Error> {
        let block = inst.id(0)?;
        let member = inst.lit(1)?;
        let ptr_ty = self.vty(block)?;
        let SpvTy::Pointer { pointee, .. } = self.cx.spv_ty(ptr_ty)?.clone() else {
            return Err(inst.invalid("OpArrayLength of a non-pointer"));
        };
        let SpvTy::Struct { members } = self.cx.spv_ty(pointee)?.clone() else {
            return Err(inst.invalid("OpArrayLength through a pointer to a non-struct"));
        };
        let Some(&arr) = members.get(member as usize) else {
            return Err(inst.invalid(format!("OpArrayLength of member {member}, past the struct")));
        };
        let stride = self
            .cx
            .deco_lit(arr, Decoration::ArrayStride)
            .ok_or_else(|| {
                inst.unsupported_form(
                    "--target host computes OpArrayLength from the runtime array's ArrayStride, \
                 and it has none",
                )
            })?;
        let offset = self
            .cx
            .layouts
            .member_lit(pointee, member, Decoration::Offset)
            .unwrap_or(0);
        let i64t = self.cx.m.ty(Type::Int(64));
        let p = self.val(block)?;
        // One declaration for every block's space: a flat pointer (a no-op cast here).
        let pty = self.cx.m.ty(Type::Ptr(0));
        let p = if self.ll_type_of(p) == pty {
            p
        } else {
            self.emit(
                "flat",
                pty,
                InstKind::Cast {
                    op: CastOp::AddrSpaceCast,
                    v: p,
                    to: pty,
                },
            )
        };
        let f = self
            .cx
            .m
            .declare(
                "spirv_lift.buffer_size",
                i64t,
                &[pty],
                CallConv::C,
                &[crate::llvm::FnAttr::NoUnwind],
            )
            .ok_or_else(|| {
                crate::error::invalid("spirv_lift.buffer_size declared with two signatures")
            })?;
        let size = self.emit(
            "size",
            i64t,
            InstKind::Call(Box::new(crate::llvm::Call {
                cc: CallConv::C,
                ret: i64t,
                callee: Value::Func(f),
                args: vec![p].into(),
                convergent: false,
                convergence: None,
            })),
        );
        let off = Value::Const(self.cx.int_const(i64t, u64::from(offset)));
        let bytes = self.emit(
            "bytes",
            i64t,
            InstKind::Bin {
                op: crate::llvm::BinOp::Sub,
                flags: crate::llvm::WrapFlags::None,
                a: size,
                b: off,
            },
        );
        let st = Value::Const(self.cx.int_const(i64t, u64::from(stride.max(1))));
        let n = self.emit(
            "len",
            i64t,
            InstKind::Bin {
                op: crate::llvm::BinOp::UDiv,
                flags: crate::llvm::WrapFlags::None,
                a: bytes,
                b: st,
            },
        );
        let to = self.cx.llty(inst.rty()?)?;
        let r = self.resize_int(n, to, false);
        self.define(inst, r)
    }
}

/// Appends `%p = getelementptr inbounds <src>, ptr %base, i64 <index>` and `%<hint> =
/// load <ty>, ptr %p` to `insts`; the loaded value's local.
fn gep_load(
    f: &mut Function,
    insts: &mut Vec<Inst>,
    src: TypeId,
    base: crate::llvm::LocalId,
    index: crate::llvm::ConstId,
    ty: TypeId,
    hint: &str,
) -> crate::llvm::LocalId {
    let ptr_ty = f.local_ty(base);
    let p = f.new_local("p", ptr_ty);
    insts.push(Inst::new(
        Some(p),
        InstKind::Gep {
            inbounds: true,
            src,
            ptr: Value::Local(base),
            indices: vec![Value::Const(index)].into(),
        },
    ));
    let v = f.new_local(hint, ty);
    insts.push(Inst::new(
        Some(v),
        InstKind::Load {
            ty,
            ptr: Value::Local(p),
            align: None,
            volatile: false,
            atomic: None,
        },
    ));
    v
}

impl FnCtx<'_, '_> {
    /// OpenCL.std `printf` on the host: no variadic call (whose C ABI for vectors the
    /// runtime could not read portably) but `i32 spirv_lift.printf(ptr format, i32 n, ptr
    /// args)`, where `args` is `[n x { i64 kind, ptr value }]`: each argument is stored in
    /// its own stack slot and described by `kind = lanes << 16 | class << 8 | bytes per
    /// lane` (class 0 integer, 1 floating point, 2 pointer). The runtime formats by
    /// OpenCL's rules and returns 0, or -1 for a format it rejects.
    pub(crate) fn host_printf(
        &mut self,
        inst: &crate::spirv::Inst,
        args: &[Value],
        result: Option<SpvTypeId>,
    ) -> Result<(), Error> {
        let (&fmt, rest) = args
            .split_first()
            .ok_or_else(|| inst.err("printf without a format"))?;
        let i32t = self.cx.m.ty(Type::Int(32));
        let i64t = self.cx.m.ty(Type::Int(64));
        let ptr = self.cx.m.ty(Type::Ptr(0));
        let pair = self.cx.m.ty(Type::Struct(vec![i64t, ptr]));
        let table_t = self.cx.m.ty(Type::Array(rest.len().max(1) as u64, pair));
        let table = self.host_entry_alloca("printf.args", table_t);
        for (k, &v) in rest.iter().enumerate() {
            let t = self.ll_type_of(v);
            let kind = self.host_printf_kind(t).ok_or_else(|| {
                inst.unsupported_form(format!(
                    "--target host: printf argument {} has a type the runtime cannot format",
                    k + 1
                ))
            })?;
            let slot = self.host_entry_alloca("printf.arg", t);
            self.emit_void(InstKind::Store {
                val: v,
                ptr: slot,
                align: None,
                volatile: false,
                atomic: None,
            });
            for (field, val) in [(0, Value::Const(self.cx.int_const(i64t, kind))), (1, slot)] {
                let zero = Value::Const(self.cx.int_const(i32t, 0));
                let index = Value::Const(self.cx.int_const(i32t, k as u64));
                let at = Value::Const(self.cx.int_const(i32t, field));
                let p = self.emit(
                    "printf.at",
                    ptr,
                    InstKind::Gep {
                        inbounds: true,
                        src: table_t,
                        ptr: table,
                        indices: vec![zero, index, at].into(),
                    },
                );
                self.emit_void(InstKind::Store {
                    val,
                    ptr: p,
                    align: None,
                    volatile: false,
                    atomic: None,
                });
            }
        }
        let fmt = if self.ll_type_of(fmt) == ptr {
            fmt
        } else {
            self.emit(
                "flat",
                ptr,
                InstKind::Cast {
                    op: CastOp::AddrSpaceCast,
                    v: fmt,
                    to: ptr,
                },
            )
        };
        let f = self
            .cx
            .m
            .declare(
                "spirv_lift.printf",
                i32t,
                &[ptr, i32t, ptr],
                CallConv::C,
                &[crate::llvm::FnAttr::NoUnwind],
            )
            .ok_or_else(|| inst.invalid("spirv_lift.printf declared with two signatures"))?;
        let n = Value::Const(self.cx.int_const(i32t, rest.len() as u64));
        let r = self.emit(
            "printf",
            i32t,
            InstKind::Call(Box::new(crate::llvm::Call {
                cc: CallConv::C,
                ret: i32t,
                callee: Value::Func(f),
                args: vec![fmt, n, table].into(),
                convergent: false,
                convergence: None,
            })),
        );
        if let Some(rty) = result {
            let to = self.cx.llty(rty)?;
            let r = self.resize_int(r, to, true);
            self.define(inst, r)?;
        }
        Ok(())
    }

    /// `lanes << 16 | class << 8 | bytes` of a printf argument's type (see `host_printf`).
    fn host_printf_kind(&self, t: TypeId) -> Option<u64> {
        let scalar = |t: &Type| -> Option<u64> {
            Some(match t {
                Type::Int(w) => u64::from(w.div_ceil(8)),
                Type::Half => 1 << 8 | 2,
                Type::Float => 1 << 8 | 4,
                Type::Double => 1 << 8 | 8,
                Type::Ptr(_) => 2 << 8 | 8,
                _ => return None,
            })
        };
        match self.cx.m.type_of_id(t) {
            Type::Vector(n, e) => Some(u64::from(*n) << 16 | scalar(self.cx.m.type_of_id(*e))?),
            other => Some(1 << 16 | scalar(other)?),
        }
    }

    /// A stack slot of type `ty` at the top of the entry block.
    fn host_entry_alloca(&mut self, hint: &str, ty: TypeId) -> Value {
        let ptr = self.cx.m.ty(Type::Ptr(0));
        let l = self.f.new_local(hint, ptr);
        self.entry_allocas.push(Inst::new(
            Some(l),
            InstKind::Alloca {
                ty,
                addrspace: 0,
                align: None,
            },
        ));
        Value::Local(l)
    }
}
