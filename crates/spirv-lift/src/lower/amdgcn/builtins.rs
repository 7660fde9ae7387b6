//! Built-in variables on `--target amdgcn`, computed from AMDGPU intrinsics and the
//! kernel dispatch packet.
//!
//! Input built-ins have no storage on AMDGPU. Each function that uses one computes its
//! value once at the top of its entry block, stores it into a private `alloca`, and uses
//! that in place of the variable (so access chains and loads are unchanged).
//!
//! | built-in | computed as |
//! |---|---|
//! | LocalInvocationId | `llvm.amdgcn.workitem.id.{x,y,z}` |
//! | WorkgroupId | `llvm.amdgcn.workgroup.id.{x,y,z}` |
//! | WorkgroupSize, EnqueuedWorkgroupSize | dispatch packet `workgroup_size_{x,y,z}` (u16 at 4, 6, 8) |
//! | GlobalSize | dispatch packet `grid_size_{x,y,z}` (u32 at 12, 16, 20) |
//! | NumWorkgroups | ⌈grid size / workgroup size⌉ |
//! | GlobalInvocationId | workgroup id × workgroup size + local id (global offset 0) |
//! | GlobalOffset | 0 |
//! | LocalInvocationIndex | (z × size.y + y) × size.x + x |
//! | SubgroupSize, SubgroupMaxSize | `llvm.amdgcn.wavefrontsize` |
//! | SubgroupLocalInvocationId | `llvm.amdgcn.mbcnt.hi(-1, llvm.amdgcn.mbcnt.lo(-1, 0))` |
//! | SubgroupId, NumSubgroups | local index / wave size, ⌈workgroup size / wave size⌉ |
//! | WorkDim | dispatch packet `setup` bits 0–1 |

use crate::error::Error;
use crate::llvm::{BinOp, Const, InstKind, Type, TypeId, Value};
use crate::lower::func::FnCtx;
use crate::spirv::Function;
use ::spirv::BuiltIn as B;

impl FnCtx<'_, '_> {
    /// Computes the built-ins this function uses into entry-block allocas.
    pub fn materialize_amdgcn_builtins(
        &mut self,
        func: &Function,
        dec: Option<&crate::spirv::BodyDecoder<'_>>,
    ) -> Result<(), Error> {
        let used = Self::used_ids_where(func, dec, |id| self.cx.amd_builtins.contains_key(&id))?;
        for id in used {
            let Some(&(builtin, ptr_ty, pointee)) = self.cx.amd_builtins.get(&id) else {
                continue;
            };
            let ty = self.cx.llty(pointee)?;
            let value = self.amdgcn_builtin(builtin, ty).map_err(|e| {
                e.or_at(&crate::error::Location {
                    word: None,
                    opcode: Some("Variable"),
                    result_id: Some(id.0),
                })
            })?;
            let hint = format!("{builtin:?}");
            let p = self.emit(
                &hint,
                self.cx.llty(ptr_ty)?,
                InstKind::Alloca {
                    ty,
                    addrspace: 5,
                    align: None,
                },
            );
            let tags = self.access_tags(p, false);
            self.emit_void_tagged(
                InstKind::Store {
                    val: value,
                    ptr: p,
                    align: None,
                    volatile: false,
                    atomic: None,
                },
                &tags,
            );
            self.define_variable(id, ptr_ty, p)?;
        }
        Ok(())
    }

    fn i32_ty(&mut self) -> TypeId {
        self.cx.m.ty(Type::Int(32))
    }

    fn amd_intrinsic(&mut self, name: &str) -> Result<Value, Error> {
        let i32t = self.i32_ty();
        self.intrinsic(name, &[], i32t, Vec::new())
    }

    /// A field of the HSA kernel dispatch packet, as i32.
    fn dispatch_field(&mut self, offset: u64, bits: u32) -> Result<Value, Error> {
        let p4 = self.cx.m.ty(Type::Ptr(4));
        let dp = self.intrinsic("amdgcn.dispatch.ptr", &[], p4, Vec::new())?;
        let i8t = self.cx.m.ty(Type::Int(8));
        let i64t = self.cx.m.ty(Type::Int(64));
        let off = Value::Const(self.cx.int_const(i64t, offset));
        let at = self.emit(
            "t",
            p4,
            InstKind::Gep {
                inbounds: true,
                src: i8t,
                ptr: dp,
                indices: vec![off].into(),
            },
        );
        let ft = self.cx.m.ty(Type::Int(bits));
        let tags = self.access_tags(at, false);
        let v = self.emit_tagged(
            "t",
            ft,
            InstKind::Load {
                ty: ft,
                ptr: at,
                align: Some(bits / 8),
                volatile: false,
                atomic: None,
            },
            &tags,
        );
        let i32t = self.i32_ty();
        Ok(self.resize_int(v, i32t, false))
    }

    fn per_dim(&mut self, b: B, d: usize) -> Result<Value, Error> {
        let axis = ["x", "y", "z"][d];
        Ok(match b {
            B::LocalInvocationId => self.amd_intrinsic(&format!("amdgcn.workitem.id.{axis}"))?,
            B::WorkgroupId => self.amd_intrinsic(&format!("amdgcn.workgroup.id.{axis}"))?,
            B::WorkgroupSize | B::EnqueuedWorkgroupSize => {
                self.dispatch_field(4 + 2 * d as u64, 16)?
            }
            B::GlobalSize => self.dispatch_field(12 + 4 * d as u64, 32)?,
            B::NumWorkgroups => {
                let grid = self.dispatch_field(12 + 4 * d as u64, 32)?;
                let wg = self.dispatch_field(4 + 2 * d as u64, 16)?;
                let i32t = self.i32_ty();
                let one = Value::Const(self.cx.int_const(i32t, 1));
                let wm1 = self.bin(BinOp::Sub, wg, one);
                let sum = self.bin(BinOp::Add, grid, wm1);
                self.bin(BinOp::UDiv, sum, wg)
            }
            B::GlobalInvocationId => {
                let g = self.per_dim(B::WorkgroupId, d)?;
                let s = self.per_dim(B::WorkgroupSize, d)?;
                let l = self.per_dim(B::LocalInvocationId, d)?;
                let m = self.bin(BinOp::Mul, g, s);
                self.bin(BinOp::Add, m, l)
            }
            _ => {
                let i32t = self.i32_ty();
                Value::Const(self.cx.int_const(i32t, 0))
            }
        })
    }

    fn local_index(&mut self) -> Result<Value, Error> {
        let (x, y, z) = (
            self.per_dim(B::LocalInvocationId, 0)?,
            self.per_dim(B::LocalInvocationId, 1)?,
            self.per_dim(B::LocalInvocationId, 2)?,
        );
        let (sx, sy) = (
            self.per_dim(B::WorkgroupSize, 0)?,
            self.per_dim(B::WorkgroupSize, 1)?,
        );
        let zy = self.bin(BinOp::Mul, z, sy);
        let zyy = self.bin(BinOp::Add, zy, y);
        let m = self.bin(BinOp::Mul, zyy, sx);
        Ok(self.bin(BinOp::Add, m, x))
    }

    /// This invocation's lane in its wave: `mbcnt.hi(-1, mbcnt.lo(-1, 0))`, as i32.
    pub fn amdgcn_lane_id(&mut self) -> Result<Value, Error> {
        let i32t = self.i32_ty();
        let m1 = Value::Const(self.cx.int_const(i32t, u64::MAX));
        let zero = Value::Const(self.cx.int_const(i32t, 0));
        let lo = self.intrinsic("amdgcn.mbcnt.lo", &[], i32t, vec![m1, zero])?;
        self.intrinsic("amdgcn.mbcnt.hi", &[], i32t, vec![m1, lo])
    }

    /// The value of a built-in as LLVM type `ty` (a scalar or a 3-vector of integers).
    fn amdgcn_builtin(&mut self, b: B, ty: TypeId) -> Result<Value, Error> {
        if let Type::Vector(n, elem) = self.cx.m.type_of_id(ty).clone() {
            if !matches!(
                b,
                B::LocalInvocationId
                    | B::WorkgroupId
                    | B::WorkgroupSize
                    | B::EnqueuedWorkgroupSize
                    | B::GlobalSize
                    | B::NumWorkgroups
                    | B::GlobalInvocationId
                    | B::GlobalOffset
            ) {
                return Err(unsupported(b));
            }
            let mut v = Value::Const(self.cx.m.constant(Const::Poison(ty)));
            for d in 0..(n as usize).min(3) {
                let c = self.per_dim(b, d)?;
                let c = self.resize_int(c, elem, false);
                let idx = self.cx.i32_val(d as u64);
                v = self.emit("t", ty, InstKind::InsertElement { v, elt: c, idx });
            }
            return Ok(v);
        }
        let i32t = self.i32_ty();
        let wave = |s: &mut Self| s.amd_intrinsic("amdgcn.wavefrontsize");
        let v = match b {
            B::LocalInvocationIndex => self.local_index()?,
            B::SubgroupSize | B::SubgroupMaxSize => wave(self)?,
            B::SubgroupLocalInvocationId => self.amdgcn_lane_id()?,
            B::SubgroupId => {
                let li = self.local_index()?;
                let w = wave(self)?;
                self.bin(BinOp::UDiv, li, w)
            }
            B::NumSubgroups | B::NumEnqueuedSubgroups => {
                let (sx, sy, sz) = (
                    self.per_dim(B::WorkgroupSize, 0)?,
                    self.per_dim(B::WorkgroupSize, 1)?,
                    self.per_dim(B::WorkgroupSize, 2)?,
                );
                let xy = self.bin(BinOp::Mul, sx, sy);
                let n = self.bin(BinOp::Mul, xy, sz);
                let w = wave(self)?;
                let one = Value::Const(self.cx.int_const(i32t, 1));
                let wm1 = self.bin(BinOp::Sub, w, one);
                let s = self.bin(BinOp::Add, n, wm1);
                self.bin(BinOp::UDiv, s, w)
            }
            B::WorkDim => {
                let setup = self.dispatch_field(2, 16)?;
                let three = Value::Const(self.cx.int_const(i32t, 3));
                self.bin(BinOp::And, setup, three)
            }
            B::GlobalLinearId => {
                let (gx, gy, gz) = (
                    self.per_dim(B::GlobalInvocationId, 0)?,
                    self.per_dim(B::GlobalInvocationId, 1)?,
                    self.per_dim(B::GlobalInvocationId, 2)?,
                );
                let (nx, ny) = (
                    self.per_dim(B::GlobalSize, 0)?,
                    self.per_dim(B::GlobalSize, 1)?,
                );
                let zy = self.bin(BinOp::Mul, gz, ny);
                let zyy = self.bin(BinOp::Add, zy, gy);
                let m = self.bin(BinOp::Mul, zyy, nx);
                self.bin(BinOp::Add, m, gx)
            }
            other => return Err(unsupported(other)),
        };
        match self.cx.m.type_of_id(ty) {
            Type::Int(_) => Ok(self.resize_int(v, ty, false)),
            _ => Err(unsupported(b)),
        }
    }
}

fn unsupported(b: B) -> Error {
    Error::new(crate::error::ErrorKind::UnsupportedForm(format!(
        "built-in {b:?} is not supported with --target amdgcn"
    )))
}
