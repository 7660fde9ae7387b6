//! Extended instructions (GLSL.std.450, OpenCL.std): LLVM intrinsics where LLVM has the
//! exact operation, short expansions where it is a formula over intrinsics, and
//! `__spirv_ocl_*` / `__spirv_GLSL_*` builtin calls otherwise (tables in [`tables`]).

pub mod tables;

use super::func::FnCtx;
use super::mangle::MTy;
use super::{ExtSet, SpvTy};
use crate::error::Error;
use crate::llvm::{BinOp, CastOp, FPred, IPred, InstKind, Type, Value};
use crate::spirv::Inst;
use crate::spirv::{SpvId, SpvTypeId};
use tables::{Expansion, ExtKind, ExtOp, Signedness};

impl FnCtx<'_, '_> {
    /// Lowers an `OpExtInst`.
    pub fn lower_ext_inst(&mut self, inst: &Inst) -> Result<(), Error> {
        let set = inst.id(0)?;
        let number = inst.lit(1)?;
        let (op, prefix) = match self.cx.spv.module_facts.ext_set(set) {
            Some(ExtSet::NonSemantic) => return Ok(()),
            Some(ExtSet::Glsl) => (tables::glsl_std_450(number), tables::GLSL_PREFIX),
            Some(ExtSet::OpenCl) => (tables::opencl_std(number), tables::OCL_PREFIX),
            Some(ExtSet::AmdTrinaryMinMax) => return self.trinary_min_max(inst, number),
            Some(
                set @ (ExtSet::AmdGcnShader
                | ExtSet::AmdShaderBallot
                | ExtSet::AmdExplicitVertexParameter),
            ) => return self.vendor_builtin(inst, set, number),
            _ => {
                return Err(inst.unsupported_form(format!(
                    "extended instruction set %{set} is not supported"
                )));
            }
        };
        let op = op.ok_or_else(|| {
            inst.unsupported_form(format!("extended instruction {number} is not supported"))
        })?;
        if op.kind == ExtKind::Builtin {
            return self.ext_builtin(inst, &op, prefix);
        }
        let ids = inst.ids_from(2)?;
        let args = ids
            .iter()
            .map(|i| self.val(*i))
            .collect::<Result<Vec<_>, _>>()?;
        let rty = inst.rty()?;
        let t = self.cx.llty(rty)?;
        match op.kind {
            // AMDGPU has no lowering (and no libcall) for llvm.tan: sin(x) / cos(x), the
            // definition GLSL gives it.
            ExtKind::Intrinsic("tan") if self.cx.opts.target == crate::Target::Amdgcn => {
                let x = *args.first().ok_or_else(|| inst.err("missing operand"))?;
                let s = self.intrinsic("sin", &[t], t, vec![x])?;
                let c = self.intrinsic("cos", &[t], t, vec![x])?;
                let r = self.bin(BinOp::FDiv, s, c);
                self.define(inst, r)
            }
            ExtKind::Intrinsic(name) => {
                let r = self.intrinsic(name, &[t], t, args)?;
                self.define(inst, r)
            }
            ExtKind::IntrinsicFalseFlag(name) => {
                let f = self.bool_const(false);
                let mut a = args;
                a.push(f);
                let at = self.ll_type_of(a[0]);
                let r = self.intrinsic(name, &[at], at, a)?;
                let r = self.resize_int(r, t, false);
                self.define(inst, r)
            }
            ExtKind::Builtin => self.ext_builtin(inst, &op, prefix),
            ExtKind::Expand(e) => {
                let r = self.expand(inst, e, &ids, &args, t)?;
                self.define(inst, r)
            }
        }
    }

    /// `SPV_AMD_shader_trinary_minmax`: `{F,U,S}{Min,Max,Mid}3AMD` of three scalars or
    /// vectors, lane by lane, with LLVM's two-operand `minnum`/`maxnum`, `umin`/`umax`,
    /// `smin`/`smax`: `min(x, min(y, z))`, `max(x, max(y, z))`, and the middle value
    /// `max(min(x, y), min(max(x, y), z))`.
    fn trinary_min_max(&mut self, inst: &Inst, number: u32) -> Result<(), Error> {
        let (min, max) = match number {
            1 | 4 | 7 => ("minnum", "maxnum"),
            2 | 5 | 8 => ("umin", "umax"),
            3 | 6 | 9 => ("smin", "smax"),
            _ => {
                return Err(inst.invalid(format!(
                    "SPV_AMD_shader_trinary_minmax has no instruction {number}"
                )));
            }
        };
        let [x, y, z] = inst.ids_from(2)?[..] else {
            return Err(inst.invalid("a trinary min/max takes three operands"));
        };
        let (x, y, z) = (self.val(x)?, self.val(y)?, self.val(z)?);
        let t = self.cx.llty(inst.rty()?)?;
        let call =
            |fx: &mut Self, f: &str, a: Value, b: Value| fx.intrinsic(f, &[t], t, vec![a, b]);
        let r = match number {
            1..=3 => {
                let yz = call(self, min, y, z)?;
                call(self, min, x, yz)?
            }
            4..=6 => {
                let yz = call(self, max, y, z)?;
                call(self, max, x, yz)?
            }
            _ => {
                let lo = call(self, min, x, y)?;
                let hi = call(self, max, x, y)?;
                let capped = call(self, min, hi, z)?;
                call(self, max, lo, capped)?
            }
        };
        self.define(inst, r)
    }

    /// An instruction of `SPV_AMD_gcn_shader`, `SPV_AMD_shader_ballot` or
    /// `SPV_AMD_shader_explicit_vertex_parameter`: a call of `__spirv_<set>_<instruction>`
    /// (the set's name without `SPV_`: `__spirv_AMD_shader_ballot_MbcntAMD`), convergent
    /// for the ballot set, whose operations read other invocations.
    fn vendor_builtin(&mut self, inst: &Inst, set: ExtSet, number: u32) -> Result<(), Error> {
        let Some((set_name, table)) = set.table() else {
            return Err(inst.unsupported());
        };
        let op = table
            .lookup_opcode(number)
            .ok_or_else(|| inst.invalid(format!("{set_name} has no instruction {number}")))?;
        let mut args = Vec::with_capacity(inst.operands.len());
        for id in inst.ids_from(2)? {
            args.push(self.arg(id)?);
        }
        let name = format!(
            "__spirv_{}_{}",
            set_name.trim_start_matches("SPV_"),
            op.opname
        );
        let result = match self.cx.spv_ty(inst.rty()?)? {
            SpvTy::Void => None,
            _ => Some(inst.rty()?),
        };
        let convergent = set == ExtSet::AmdShaderBallot;
        self.call_builtin(inst, &name, &args, result, convergent)?;
        Ok(())
    }

    fn ext_builtin(&mut self, inst: &Inst, op: &ExtOp, prefix: &str) -> Result<(), Error> {
        let mut args = Vec::with_capacity(inst.operands.len());
        for (i, operand) in inst.operands.iter().skip(2).enumerate() {
            let (v, m) = match operand {
                crate::spirv::Operand::IdRef(id) => self.arg(SpvId(*id))?,
                crate::spirv::Operand::LiteralBit32(x) => self.i32_arg(u64::from(*x)),
                other => return Err(inst.err(format!("unexpected operand {other:?}"))),
            };
            let m = match op.operand_signedness(i) {
                Signedness::Signed => resign(m, true),
                Signedness::Unsigned => resign(m, false),
                Signedness::AsIs => m,
            };
            args.push((v, m));
        }
        // LLVM 22's SPIR-V backend passes the rounding-mode literal of
        // `__spirv_ocl_vstore_half*_r` as an id; the OpenCL C builtin that names the
        // mode keeps it a literal.
        if self.cx.backend_workarounds()
            && prefix == "__spirv_ocl_"
            && let Some(name) = vstore_half_rounding_name(inst, op.name, &args)
        {
            args.pop();
            self.call_builtin(inst, &name, &args, None, false)?;
            return Ok(());
        }
        let mut name = format!("{prefix}{}", op.name);
        if op.needs_return_type_postfix() {
            name.push_str("_R");
            name.push_str(&self.ret_name(inst.rty()?)?);
        }
        let void = matches!(self.cx.spv_ty(inst.rty()?)?, SpvTy::Void);
        let result = if void { None } else { Some(inst.rty()?) };
        if op.name == "printf" && self.cx.opts.target == crate::Target::Host {
            let values: Vec<Value> = args.iter().map(|a| a.0).collect();
            return self.host_printf(inst, &values, result);
        }
        if op.name == "printf" {
            return self.printf(inst, &name, args, result);
        }
        self.call_builtin(inst, &name, &args, result, false)?;
        Ok(())
    }

    fn ret_name(&self, t: SpvTypeId) -> Result<String, Error> {
        Ok(match self.cx.spv_ty(t)?.clone() {
            SpvTy::Vector { elem, n } => format!("{}{n}", self.ret_name(elem)?),
            SpvTy::Float { width: 16, .. } => "half".into(),
            SpvTy::Float { width: 64, .. } => "double".into(),
            SpvTy::Float { .. } => "float".into(),
            SpvTy::Int { width: 8, .. } => "char".into(),
            SpvTy::Int { width: 16, .. } => "short".into(),
            SpvTy::Int { width: 64, .. } => "long".into(),
            _ => "int".into(),
        })
    }

    /// `printf` is variadic: declared with its format parameter only.
    fn printf(
        &mut self,
        inst: &Inst,
        name: &str,
        args: Vec<(Value, MTy)>,
        result: Option<SpvTypeId>,
    ) -> Result<(), Error> {
        let fmt = args
            .first()
            .cloned()
            .ok_or_else(|| inst.err("printf without a format"))?;
        let mangled = format!(
            "{}z",
            super::mangle::mangle(name, std::slice::from_ref(&fmt.1))
        );
        let ret = match result {
            Some(r) => self.cx.llty(r)?,
            None => self.cx.m.ty(Type::Void),
        };
        let fmt_t = self.ll_type_of(fmt.0);
        let cc = self.cx.func_cc();
        let fid = self
            .cx
            .m
            .declare(
                &mangled,
                ret,
                &[fmt_t],
                cc,
                &[crate::llvm::FnAttr::NoUnwind],
            )
            .ok_or_else(|| inst.invalid("printf declared with two signatures"))?;
        self.cx.m.func_mut(fid).vararg = true;
        let kind = InstKind::Call(Box::new(crate::llvm::Call {
            cc,
            ret,
            callee: Value::Func(fid),
            args: args.iter().map(|a| a.0).collect(),
            convergent: false,
            convergence: None,
        }));
        match result {
            Some(_) => {
                self.emit_result(inst, kind)?;
            }
            None => self.emit_void(kind),
        }
        Ok(())
    }

    /// Expands an extended instruction into a short formula over intrinsics.
    fn expand(
        &mut self,
        inst: &Inst,
        e: Expansion,
        ids: &[SpvId],
        a: &[Value],
        t: crate::llvm::TypeId,
    ) -> Result<Value, Error> {
        match e {
            Expansion::FSign
            | Expansion::SSign
            | Expansion::Fract
            | Expansion::Radians
            | Expansion::Degrees
            | Expansion::InverseSqrt
            | Expansion::FClamp
            | Expansion::UClamp
            | Expansion::SClamp
            | Expansion::FMix
            | Expansion::Mix
            | Expansion::Step
            | Expansion::SmoothStep
            | Expansion::FRem
            | Expansion::Rotate
            | Expansion::UAbs => self.expand_elementwise(inst, e, a, t),
            Expansion::Modf
            | Expansion::ModfStruct
            | Expansion::Frexp
            | Expansion::FrexpStruct
            | Expansion::Ldexp => self.expand_parts(inst, e, ids, a, t),
            Expansion::Length
            | Expansion::Distance
            | Expansion::Cross
            | Expansion::Normalize
            | Expansion::FaceForward
            | Expansion::Reflect
            | Expansion::Refract => self.expand_geometric(inst, e, a, t),
            Expansion::FindILsb | Expansion::FindSMsb | Expansion::FindUMsb => {
                self.expand_bits(inst, e, a, t)
            }
            Expansion::Determinant | Expansion::MatrixInverse => self.expand_matrix(inst, e, a, t),
        }
    }

    /// Element-wise formulas: signs, fractions, angle conversions, clamps, mixes, steps,
    /// `FRem`, `Rotate`.
    fn expand_elementwise(
        &mut self,
        inst: &Inst,
        e: Expansion,
        a: &[Value],
        t: crate::llvm::TypeId,
    ) -> Result<Value, Error> {
        let arg = |i: usize| {
            a.get(i)
                .copied()
                .ok_or_else(|| inst.err(format!("missing operand {i}")))
        };
        let x = arg(0)?;
        Ok(match e {
            Expansion::FSign => {
                let z = self.fconst(t, 0.0);
                let one = self.fconst(t, 1.0);
                let m1 = self.fconst(t, -1.0);
                let gt = self.cmp_f(FPred::Ogt, x, z);
                let lt = self.cmp_f(FPred::Olt, x, z);
                let eq = self.cmp_f(FPred::Oeq, x, z);
                let s0 = self.select(eq, x, z);
                let s1 = self.select(lt, m1, s0);
                self.select(gt, one, s1)
            }
            Expansion::SSign => {
                let m1 = self.iconst(t, -1);
                let one = self.iconst(t, 1);
                let a = self.intrinsic("smax", &[t], t, vec![x, m1])?;
                self.intrinsic("smin", &[t], t, vec![a, one])?
            }
            Expansion::Fract => {
                let f = self.intrinsic("floor", &[t], t, vec![x])?;
                self.bin(BinOp::FSub, x, f)
            }
            Expansion::Radians => {
                let c = self.fconst(t, std::f64::consts::PI / 180.0);
                self.bin(BinOp::FMul, x, c)
            }
            Expansion::Degrees => {
                let c = self.fconst(t, 180.0 / std::f64::consts::PI);
                self.bin(BinOp::FMul, x, c)
            }
            Expansion::InverseSqrt => {
                let s = self.intrinsic("sqrt", &[t], t, vec![x])?;
                let one = self.fconst(t, 1.0);
                self.bin(BinOp::FDiv, one, s)
            }
            Expansion::FClamp => {
                let m = self.intrinsic("maxnum", &[t], t, vec![x, arg(1)?])?;
                self.intrinsic("minnum", &[t], t, vec![m, arg(2)?])?
            }
            Expansion::UClamp => {
                let m = self.intrinsic("umax", &[t], t, vec![x, arg(1)?])?;
                self.intrinsic("umin", &[t], t, vec![m, arg(2)?])?
            }
            Expansion::SClamp => {
                let m = self.intrinsic("smax", &[t], t, vec![x, arg(1)?])?;
                self.intrinsic("smin", &[t], t, vec![m, arg(2)?])?
            }
            Expansion::FMix => {
                let (y, s) = (arg(1)?, self.splat_to(t, arg(2)?));
                let one = self.fconst(t, 1.0);
                let inv = self.bin(BinOp::FSub, one, s);
                let p = self.bin(BinOp::FMul, x, inv);
                let q = self.bin(BinOp::FMul, y, s);
                self.bin(BinOp::FAdd, p, q)
            }
            Expansion::Mix => {
                let (y, s) = (arg(1)?, self.splat_to(t, arg(2)?));
                let d = self.bin(BinOp::FSub, y, x);
                let p = self.bin(BinOp::FMul, d, s);
                self.bin(BinOp::FAdd, x, p)
            }
            Expansion::Step => {
                let edge = self.splat_to(t, x);
                let v = arg(1)?;
                let lt = self.cmp_f(FPred::Olt, v, edge);
                let z = self.fconst(t, 0.0);
                let one = self.fconst(t, 1.0);
                self.select(lt, z, one)
            }
            Expansion::SmoothStep => {
                let e0 = self.splat_to(t, x);
                let e1 = self.splat_to(t, arg(1)?);
                let v = arg(2)?;
                let n = self.bin(BinOp::FSub, v, e0);
                let d = self.bin(BinOp::FSub, e1, e0);
                let q = self.bin(BinOp::FDiv, n, d);
                let z = self.fconst(t, 0.0);
                let one = self.fconst(t, 1.0);
                let m = self.intrinsic("maxnum", &[t], t, vec![q, z])?;
                let c = self.intrinsic("minnum", &[t], t, vec![m, one])?;
                let two = self.fconst(t, 2.0);
                let three = self.fconst(t, 3.0);
                let tt = self.bin(BinOp::FMul, c, c);
                let k = self.bin(BinOp::FMul, two, c);
                let s = self.bin(BinOp::FSub, three, k);
                self.bin(BinOp::FMul, tt, s)
            }
            Expansion::FRem => self.bin(BinOp::FRem, x, arg(1)?),
            Expansion::Rotate => {
                let s = arg(1)?;
                self.intrinsic("fshl", &[t], t, vec![x, x, s])?
            }
            Expansion::UAbs => x,
            _ => return Err(inst.err(format!("{e:?} is not expanded here"))),
        })
    }

    /// A float taken apart or put together: `Modf`, `Frexp` (with their struct forms), `Ldexp`.
    fn expand_parts(
        &mut self,
        inst: &Inst,
        e: Expansion,
        ids: &[SpvId],
        a: &[Value],
        t: crate::llvm::TypeId,
    ) -> Result<Value, Error> {
        let arg = |i: usize| {
            a.get(i)
                .copied()
                .ok_or_else(|| inst.err(format!("missing operand {i}")))
        };
        let x = arg(0)?;
        let xt = self.ll_type_of(x);
        Ok(match e {
            Expansion::Modf | Expansion::ModfStruct => {
                let w = self.intrinsic("trunc", &[xt], xt, vec![x])?;
                let ab = self.intrinsic("fabs", &[xt], xt, vec![x])?;
                let inf = self.fconst(xt, f64::INFINITY);
                let isinf = self.cmp_f(FPred::Oeq, ab, inf);
                let d = self.bin(BinOp::FSub, x, w);
                let z = self.fconst(xt, 0.0);
                let fr0 = self.select(isinf, z, d);
                let fr = self.intrinsic("copysign", &[xt], xt, vec![fr0, x])?;
                if e == Expansion::Modf {
                    let p = arg(1)?;
                    let tags = self.access_tags(p, false);
                    self.emit_void_tagged(
                        InstKind::Store {
                            val: w,
                            ptr: p,
                            align: None,
                            volatile: false,
                            atomic: None,
                        },
                        &tags,
                    );
                    fr
                } else {
                    self.pair(t, fr, w)
                }
            }
            Expansion::Frexp | Expansion::FrexpStruct => {
                let it = if e == Expansion::Frexp {
                    let p = ids
                        .get(1)
                        .copied()
                        .ok_or_else(|| inst.err("missing exp pointer"))?;
                    self.cx.llty(self.pointee(p)?)?
                } else {
                    match self.cx.m.struct_fields(t) {
                        Some(f) if f.len() == 2 => f[1],
                        _ => return Err(inst.err("FrexpStruct result is not a two-member struct")),
                    }
                };
                let pair = self.cx.m.ty(Type::Struct(vec![xt, it]));
                let r = self.intrinsic("frexp", &[xt, it], pair, vec![x])?;
                let m = self.extract(xt, r, 0);
                let ex = self.extract(it, r, 1);
                if e == Expansion::Frexp {
                    let p = arg(1)?;
                    let tags = self.access_tags(p, false);
                    self.emit_void_tagged(
                        InstKind::Store {
                            val: ex,
                            ptr: p,
                            align: None,
                            volatile: false,
                            atomic: None,
                        },
                        &tags,
                    );
                    m
                } else {
                    self.pair(t, m, ex)
                }
            }
            Expansion::Ldexp => {
                let ex = arg(1)?;
                let et = self.ll_type_of(ex);
                let wide = self
                    .cx
                    .m
                    .type_of_id(self.elem_of(et))
                    .scalar_bits()
                    .is_some_and(|b| b > 32);
                // A 64-bit exponent is clamped to 32 bits first: every exponent beyond that
                // range already gives 0 or infinity (or x itself when x is 0, inf or NaN),
                // and backends expand `llvm.ldexp.*.i64` through `ldexp(double, int)`,
                // truncating the exponent (-2^63 + 5 became 5: the Vulkan CTS's
                // ldexp_*_int64 scripts).
                let (ex, et) = if wide {
                    let lo = self.iconst(et, i64::from(i32::MIN));
                    let hi = self.iconst(et, i64::from(i32::MAX));
                    let c = self.intrinsic("smax", &[et], et, vec![ex, lo])?;
                    let c = self.intrinsic("smin", &[et], et, vec![c, hi])?;
                    let i32t = self.cx.m.ty(crate::llvm::Type::Int(32));
                    let to = match self.lanes(et) {
                        Some(n) => self.cx.m.ty(crate::llvm::Type::Vector(n, i32t)),
                        None => i32t,
                    };
                    (self.resize_int(c, to, true), to)
                } else {
                    (ex, et)
                };
                self.intrinsic("ldexp", &[t, et], t, vec![x, ex])?
            }
            _ => return Err(inst.err(format!("{e:?} is not expanded here"))),
        })
    }

    /// The geometric instructions: lengths, distances, cross products, normalization,
    /// face-forward, reflection and refraction.
    fn expand_geometric(
        &mut self,
        inst: &Inst,
        e: Expansion,
        a: &[Value],
        t: crate::llvm::TypeId,
    ) -> Result<Value, Error> {
        let arg = |i: usize| {
            a.get(i)
                .copied()
                .ok_or_else(|| inst.err(format!("missing operand {i}")))
        };
        let x = arg(0)?;
        Ok(match e {
            Expansion::Length => self.length(x)?,
            Expansion::Distance => {
                let d = self.bin(BinOp::FSub, x, arg(1)?);
                self.length(d)?
            }
            Expansion::Cross => {
                let y = arg(1)?;
                let lanes = self.lanes(t).unwrap_or(3);
                let xs: Vec<Value> = (0..3).map(|i| self.lane(x, i)).collect();
                let ys: Vec<Value> = (0..3).map(|i| self.lane(y, i)).collect();
                let mut out = Vec::with_capacity(lanes as usize);
                for (i, j) in [(1usize, 2usize), (2, 0), (0, 1)] {
                    let p = self.bin(BinOp::FMul, xs[i], ys[j]);
                    let q = self.bin(BinOp::FMul, xs[j], ys[i]);
                    out.push(self.bin(BinOp::FSub, p, q));
                }
                if lanes == 4 {
                    let et = self.elem_of(t);
                    out.push(self.fconst(et, 0.0));
                }
                self.vector_of(t, &out)
            }
            Expansion::Normalize => {
                let l = self.length(x)?;
                let s = self.splat(t, l);
                self.bin(BinOp::FDiv, x, s)
            }
            Expansion::FaceForward => {
                let (i, nref) = (arg(1)?, arg(2)?);
                let d = self.dot(nref, i);
                let dt = self.ll_type_of(d);
                let z = self.fconst(dt, 0.0);
                let lt = self.cmp_f(FPred::Olt, d, z);
                let neg = self.emit("t", t, InstKind::FNeg { a: x });
                self.select(lt, x, neg)
            }
            Expansion::Reflect => {
                let n = arg(1)?;
                let d = self.dot(n, x);
                let dt = self.ll_type_of(d);
                let two = self.fconst(dt, 2.0);
                let k = self.bin(BinOp::FMul, two, d);
                let ks = self.splat(t, k);
                let p = self.bin(BinOp::FMul, ks, n);
                self.bin(BinOp::FSub, x, p)
            }
            Expansion::Refract => {
                let n = arg(1)?;
                let et = self.elem_of(t);
                let mut eta = arg(2)?;
                if self.ll_type_of(eta) != et {
                    eta = self.emit(
                        "t",
                        et,
                        InstKind::Cast {
                            op: CastOp::FPExt,
                            v: eta,
                            to: et,
                        },
                    );
                }
                let d = self.dot(n, x);
                let one = self.fconst(et, 1.0);
                let dd = self.bin(BinOp::FMul, d, d);
                let omd = self.bin(BinOp::FSub, one, dd);
                let ee = self.bin(BinOp::FMul, eta, eta);
                let m = self.bin(BinOp::FMul, ee, omd);
                let k = self.bin(BinOp::FSub, one, m);
                let z = self.fconst(et, 0.0);
                let neg = self.cmp_f(FPred::Olt, k, z);
                let sq = self.intrinsic("sqrt", &[et], et, vec![k])?;
                let ed = self.bin(BinOp::FMul, eta, d);
                let f = self.bin(BinOp::FAdd, ed, sq);
                let etas = self.splat(t, eta);
                let fs = self.splat(t, f);
                let a1 = self.bin(BinOp::FMul, etas, x);
                let a2 = self.bin(BinOp::FMul, fs, n);
                let r = self.bin(BinOp::FSub, a1, a2);
                let zt = self.fconst(t, 0.0);
                self.select(neg, zt, r)
            }
            _ => return Err(inst.err(format!("{e:?} is not expanded here"))),
        })
    }

    /// `FindILsb`, `FindSMsb`, `FindUMsb` (−1 where no bit is found).
    fn expand_bits(
        &mut self,
        inst: &Inst,
        e: Expansion,
        a: &[Value],
        t: crate::llvm::TypeId,
    ) -> Result<Value, Error> {
        let arg = |i: usize| {
            a.get(i)
                .copied()
                .ok_or_else(|| inst.err(format!("missing operand {i}")))
        };
        let x = arg(0)?;
        let xt = self.ll_type_of(x);
        Ok(match e {
            Expansion::FindILsb => {
                let f = self.bool_const(false);
                let c = self.intrinsic("cttz", &[xt], xt, vec![x, f])?;
                let z = self.iconst(xt, 0);
                let isz = self.cmp_i(IPred::Eq, x, z);
                let m1 = self.iconst(xt, -1);
                let r = self.select(isz, m1, c);
                self.resize_int(r, t, true)
            }
            Expansion::FindSMsb | Expansion::FindUMsb => {
                let w = self
                    .cx
                    .m
                    .type_of_id(self.elem_of(xt))
                    .scalar_bits()
                    .unwrap_or(32);
                let y = if e == Expansion::FindSMsb {
                    let sh = self.iconst(xt, i64::from(w - 1));
                    let s = self.bin(BinOp::AShr, x, sh);
                    self.bin(BinOp::Xor, x, s)
                } else {
                    x
                };
                let f = self.bool_const(false);
                let c = self.intrinsic("ctlz", &[xt], xt, vec![y, f])?;
                let wm1 = self.iconst(xt, i64::from(w - 1));
                let r = self.bin(BinOp::Sub, wm1, c);
                self.resize_int(r, t, true)
            }
            _ => return Err(inst.err(format!("{e:?} is not expanded here"))),
        })
    }

    /// `Determinant` and `MatrixInverse` of a square matrix.
    fn expand_matrix(
        &mut self,
        inst: &Inst,
        e: Expansion,
        a: &[Value],
        t: crate::llvm::TypeId,
    ) -> Result<Value, Error> {
        let arg = |i: usize| {
            a.get(i)
                .copied()
                .ok_or_else(|| inst.err(format!("missing operand {i}")))
        };
        let x = arg(0)?;
        Ok(match e {
            Expansion::Determinant => {
                let (a, half) = self.matrix_rows(x, inst)?;
                let d = self.determinant(&a);
                if half { self.round_to_half(d) } else { d }
            }
            Expansion::MatrixInverse => {
                let (a, half) = self.matrix_rows(x, inst)?;
                self.matrix_inverse(&a, t, half)?
            }
            _ => return Err(inst.err(format!("{e:?} is not expanded here"))),
        })
    }

    /// Splat a scalar operand to a vector type when the instruction mixes them.
    fn splat_to(&mut self, t: crate::llvm::TypeId, v: Value) -> Value {
        if self.ll_type_of(v) == t {
            v
        } else {
            self.splat(t, v)
        }
    }

    fn length(&mut self, x: Value) -> Result<Value, Error> {
        let xt = self.ll_type_of(x);
        if self.lanes(xt).is_none() {
            return self.intrinsic("fabs", &[xt], xt, vec![x]);
        }
        let d = self.dot(x, x);
        let et = self.ll_type_of(d);
        self.intrinsic("sqrt", &[et], et, vec![d])
    }

    /// The scalars of a square matrix value `[N x <N x E>]` as rows: `a[i][j]` is row `i`
    /// of column `j` (SPIR-V matrices are arrays of columns). Half-precision scalars are
    /// extended to float (and `true` says so): the cofactor sums lose too much in half
    /// (a 3x3 inverse was 2 ULP off the Vulkan CTS's bound).
    fn matrix_rows(&mut self, m: Value, inst: &Inst) -> Result<(Vec<Vec<Value>>, bool), Error> {
        let mt = self.ll_type_of(m);
        let (n, col_ty) = match self.cx.m.type_of_id(mt) {
            Type::Array(n, c) => (*n as u32, *c),
            _ => return Err(inst.err("Determinant/MatrixInverse of a non-matrix")),
        };
        if self.lanes(col_ty) != Some(n) || !(2..=4).contains(&n) {
            return Err(inst.err("Determinant/MatrixInverse of a non-square matrix"));
        }
        let cols: Vec<Value> = (0..n)
            .map(|j| {
                self.emit(
                    "col",
                    col_ty,
                    InstKind::ExtractValue {
                        v: m,
                        idx: Box::new([j]),
                    },
                )
            })
            .collect();
        let elem = self.elem_of(col_ty);
        let half = matches!(self.cx.m.type_of_id(elem), Type::Half);
        let f32t = self.cx.m.ty(Type::Float);
        let mut rows = vec![Vec::with_capacity(n as usize); n as usize];
        for col in cols {
            for (i, row) in rows.iter_mut().enumerate() {
                let v = self.lane(col, i as u32);
                row.push(if half {
                    self.emit(
                        "t",
                        f32t,
                        InstKind::Cast {
                            op: CastOp::FPExt,
                            v,
                            to: f32t,
                        },
                    )
                } else {
                    v
                });
            }
        }
        Ok((rows, half))
    }

    /// A float computed for a half-precision result, rounded back to half.
    fn round_to_half(&mut self, v: Value) -> Value {
        let ht = self.cx.m.ty(Type::Half);
        self.emit(
            "t",
            ht,
            InstKind::Cast {
                op: CastOp::FPTrunc,
                v,
                to: ht,
            },
        )
    }

    /// The determinant of the scalars `a` (rows), by Laplace expansion along row 0.
    fn determinant(&mut self, a: &[Vec<Value>]) -> Value {
        match a.len() {
            1 => a[0][0],
            2 => {
                let p = self.bin(BinOp::FMul, a[0][0], a[1][1]);
                let q = self.bin(BinOp::FMul, a[0][1], a[1][0]);
                self.bin(BinOp::FSub, p, q)
            }
            n => {
                let mut acc = None;
                for j in 0..n {
                    let minor = Self::minor(a, 0, j);
                    let d = self.determinant(&minor);
                    let term = self.bin(BinOp::FMul, a[0][j], d);
                    acc = Some(match acc {
                        None => term,
                        Some(s) if j % 2 == 0 => self.bin(BinOp::FAdd, s, term),
                        Some(s) => self.bin(BinOp::FSub, s, term),
                    });
                }
                acc.unwrap_or(a[0][0])
            }
        }
    }

    /// `a` without row `i` and column `j`.
    fn minor(a: &[Vec<Value>], i: usize, j: usize) -> Vec<Vec<Value>> {
        a.iter()
            .enumerate()
            .filter(|(r, _)| *r != i)
            .map(|(_, row)| {
                row.iter()
                    .enumerate()
                    .filter(|(c, _)| *c != j)
                    .map(|(_, v)| *v)
                    .collect()
            })
            .collect()
    }

    /// The inverse of the matrix with rows `a`, as a value of matrix type `t`: element
    /// (row `r`, column `c`) is cofactor `(c, r)` over the determinant.
    fn matrix_inverse(
        &mut self,
        a: &[Vec<Value>],
        t: crate::llvm::TypeId,
        half: bool,
    ) -> Result<Value, Error> {
        let n = a.len();
        let col_ty = match self.cx.m.type_of_id(t) {
            Type::Array(_, c) => *c,
            _ => return Err(crate::error::invalid("MatrixInverse of a non-matrix type")),
        };
        let det = self.determinant(a);
        let mut out = Value::Const(self.cx.m.constant(crate::llvm::Const::Poison(t)));
        for c in 0..n {
            let mut lanes = Vec::with_capacity(n);
            for r in 0..n {
                let minor = Self::minor(a, c, r);
                let m = self.determinant(&minor);
                let cof = if (c + r) % 2 == 0 {
                    m
                } else {
                    self.emit("t", self.ll_type_of(m), InstKind::FNeg { a: m })
                };
                let q = self.bin(BinOp::FDiv, cof, det);
                lanes.push(if half { self.round_to_half(q) } else { q });
            }
            let col = self.vector_of(col_ty, &lanes);
            out = self.emit(
                "t",
                t,
                InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                    v: out,
                    elt: col,
                    idx: vec![c as u32],
                })),
            );
        }
        Ok(out)
    }

    fn vector_of(&mut self, t: crate::llvm::TypeId, elems: &[Value]) -> Value {
        let mut v = Value::Const(self.cx.m.constant(crate::llvm::Const::Poison(t)));
        for (i, e) in elems.iter().enumerate() {
            let idx = self.cx.i32_val(i as u64);
            v = self.emit("t", t, InstKind::InsertElement { v, elt: *e, idx });
        }
        v
    }

    fn pair(&mut self, t: crate::llvm::TypeId, a: Value, b: Value) -> Value {
        let p = Value::Const(self.cx.m.constant(crate::llvm::Const::Poison(t)));
        let s = self.emit(
            "t",
            t,
            InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                v: p,
                elt: a,
                idx: vec![0],
            })),
        );
        self.emit(
            "t",
            t,
            InstKind::InsertValue(Box::new(crate::llvm::InsertValueInst {
                v: s,
                elt: b,
                idx: vec![1],
            })),
        )
    }
}

/// Changes the signedness of integer mangling types (recursively through vectors).
fn resign(m: MTy, signed: bool) -> MTy {
    match m {
        MTy::Char | MTy::UChar => {
            if signed {
                MTy::Char
            } else {
                MTy::UChar
            }
        }
        MTy::Short | MTy::UShort => {
            if signed {
                MTy::Short
            } else {
                MTy::UShort
            }
        }
        MTy::Int | MTy::UInt => {
            if signed {
                MTy::Int
            } else {
                MTy::UInt
            }
        }
        MTy::Long | MTy::ULong => {
            if signed {
                MTy::Long
            } else {
                MTy::ULong
            }
        }
        MTy::Vector(n, e) => MTy::Vector(n, Box::new(resign(*e, signed))),
        other => other,
    }
}

/// The OpenCL C builtin for `vstore_half_r` / `vstore_halfn_r` / `vstorea_halfn_r` with
/// the rounding mode `inst` ends with (`vstore_half4_rtz`, …), if `name` is one of them
/// and the mode is a known literal.
fn vstore_half_rounding_name(inst: &Inst, name: &str, args: &[(Value, MTy)]) -> Option<String> {
    let base = match name {
        "vstore_half_r" | "vstore_halfn_r" => "vstore_half",
        "vstorea_halfn_r" => "vstorea_half",
        _ => return None,
    };
    let mode = match inst.operands.last()? {
        crate::spirv::Operand::LiteralBit32(0) => "rte",
        crate::spirv::Operand::LiteralBit32(1) => "rtz",
        crate::spirv::Operand::LiteralBit32(2) => "rtp",
        crate::spirv::Operand::LiteralBit32(3) => "rtn",
        _ => return None,
    };
    let n = match (name, &args.first()?.1) {
        ("vstore_half_r", _) => String::new(),
        (_, MTy::Vector(n, _)) => n.to_string(),
        _ => return None,
    };
    Some(format!("{base}{n}_{mode}"))
}
