//! The OpenCL.std builtins left as calls: vector loads and stores, geometric functions,
//! `native_*`, `fract`, `select`, `mul_hi`, `hadd`.

use super::glsl::libm_call;
use super::{Body, Decl, Needs, Ty, float_const, splat};
use std::fmt::Write as _;

/// OpenCL.std builtins the translation leaves as calls, for every width and vector
/// size: the vector loads and stores (`vloadn`, `vstoren`, `vload_halfn`, `vloada_halfn`,
/// `vstore_halfn[_r]`, `vstorea_halfn[_r]`), the geometric functions (`length`,
/// `fast_length`, `distance`, `fast_distance`, `normalize`, `fast_normalize`, computed in
/// double for float and half), `native_{sin,cos,exp,sqrt,recip}` (libm, exact
/// `sqrt` and division), `fract`, `hypot`, `select`, `s_/u_mul_hi` and `s_/u_hadd`.
pub(super) fn ocl(
    op: &str,
    d: &Decl,
    a: &[String],
    b: &mut Body,
    needs: &mut Needs,
) -> Option<String> {
    let ty = &d.ret;
    let (e, _) = ty.lanes();
    match op {
        "vloadn" | "vload_halfn" | "vloada_halfn" => vload(op, d, a, b),
        "vstoren" => vstore(d, a, b),
        "vstore_halfn" | "vstore_halfn_r" | "vstorea_halfn" | "vstorea_halfn_r" => {
            vstore_half(op, d, a, b, needs)
        }
        "length" | "fast_length" | "distance" | "fast_distance" => length(op, d, a, b, needs),
        "normalize" | "fast_normalize" => normalize(d, a, b, needs),
        "native_sin" | "native_cos" | "native_exp" | "hypot" => {
            let f = op.trim_start_matches("native_");
            libm_call(f, d, a, b, needs)
        }
        "native_sqrt" => {
            let name = format!("llvm.sqrt.{}", intr_suffix(ty)?);
            needs.insert(
                name.clone(),
                format!("declare {ty} @{name}({ty}) nounwind readnone"),
            );
            Some(b.op(format_args!("call {ty} @{name}({ty} {})", a.first()?)))
        }
        "native_recip" => {
            let one = splat(ty, &float_const(e, 1.0));
            Some(b.op(format_args!("fdiv {ty} {one}, {}", a.first()?)))
        }
        "fract" => fract(d, a, b, needs),
        "select" => select(d, a, b),
        "s_mul_hi" | "u_mul_hi" | "s_hadd" | "u_hadd" => mul_hi_or_hadd(op, d, a, b),
        _ => None,
    }
}

/// `vloadn`, `vload_halfn`, `vloada_halfn`: a load of the vector at `p + offset * n`
/// (half vectors extended).
fn vload(op: &str, d: &Decl, a: &[String], b: &mut Body) -> Option<String> {
    let ty = &d.ret;
    let (e, n) = ty.lanes();
    let (off, p) = (a.first()?, a.get(1)?);
    let pt = d.params.get(1)?;
    let mem_e = if op == "vloadn" { e.clone() } else { Ty::Half };
    // vloada_half3 reads from multiples of 4 halves.
    let stride = if op == "vloada_halfn" && n == 3 { 4 } else { n };
    let mt = Ty::Vector(n, Box::new(mem_e.clone()));
    let idx = b.op(format_args!("mul i64 {off}, {stride}"));
    let at = b.op(format_args!("getelementptr {mem_e}, {pt} {p}, i64 {idx}"));
    let v = b.op(format_args!("load {mt}, {pt} {at}, align 1"));
    Some(if op == "vloadn" {
        v
    } else {
        b.op(format_args!("fpext {mt} {v} to {ty}"))
    })
}

/// `vstoren`: a store of the vector at `p + offset * n`.
fn vstore(d: &Decl, a: &[String], b: &mut Body) -> Option<String> {
    let (v, off, p) = (a.first()?, a.get(1)?, a.get(2)?);
    let vt = d.params.first()?;
    let (ve, vn) = vt.lanes();
    let pt = d.params.get(2)?;
    let idx = b.op(format_args!("mul i64 {off}, {vn}"));
    let at = b.op(format_args!("getelementptr {ve}, {pt} {p}, i64 {idx}"));
    let _ = writeln!(b.text, "  store {vt} {v}, {pt} {at}, align 1");
    Some(String::new())
}

/// `vstore_halfn[_r]`, `vstorea_halfn[_r]`: each lane rounded to half in the given
/// mode and stored.
fn vstore_half(
    op: &str,
    d: &Decl,
    a: &[String],
    b: &mut Body,
    needs: &mut Needs,
) -> Option<String> {
    let (v, off, p) = (a.first()?, a.get(1)?, a.get(2)?);
    let vt = d.params.first()?;
    let (ve, vn) = vt.lanes();
    let pt = d.params.get(2)?;
    // SPIR-V's FPRoundingMode: RTE 0, RTZ 1, RTP 2, RTN 3.
    let mode = a.get(3).cloned().unwrap_or_else(|| "0".into());
    let (conv, ct) = match ve {
        Ty::Double => ("spirv_lift.f64_to_f16", "double"),
        Ty::Float => ("spirv_lift.f32_to_f16", "float"),
        _ => return None,
    };
    needs.insert(
        conv.into(),
        format!("declare i16 @{conv}({ct}, i32) nounwind readnone"),
    );
    let stride = if op.starts_with("vstorea") && vn == 3 {
        4
    } else {
        vn
    };
    let base = b.op(format_args!("mul i64 {off}, {stride}"));
    for k in 0..vn {
        let x = b.lane(vt, v, k);
        let h = b.op(format_args!("call i16 @{conv}({ct} {x}, i32 {mode})"));
        let i = b.op(format_args!("add i64 {base}, {k}"));
        let at = b.op(format_args!("getelementptr i16, {pt} {p}, i64 {i}"));
        let _ = writeln!(b.text, "  store i16 {h}, {pt} {at}, align 2");
    }
    Some(String::new())
}

/// `length`, `distance` and their `fast_` forms, in double.
fn length(op: &str, d: &Decl, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
    let ty = &d.ret;
    let vt = d.params.first()?;
    let x = if op.ends_with("distance") {
        b.op(format_args!("fsub {vt} {}, {}", a.first()?, a.get(1)?))
    } else {
        a.first()?.clone()
    };
    let len = wide_length(b, vt, &x, needs)?;
    Some(narrow(b, &len, ty))
}

/// `normalize`, `fast_normalize`: each lane over the length (in double); a zero vector
/// unchanged.
fn normalize(d: &Decl, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
    let ty = &d.ret;
    let (e, n) = ty.lanes();
    let x = a.first()?;
    let len = wide_length(b, ty, x, needs)?;
    // A zero vector stays as it is; otherwise each lane over the length.
    let zero = b.op(format_args!("fcmp oeq double {len}, 0.0"));
    let mut out = Vec::new();
    for k in 0..n {
        let l = b.lane(ty, x, k);
        let w = widen(b, &l, e);
        let q = b.op(format_args!("fdiv double {w}, {len}"));
        let q = narrow(b, &q, e);
        out.push(b.op(format_args!("select i1 {zero}, {e} {l}, {e} {q}")));
    }
    Some(b.build(ty, &out))
}

/// `fract`: `min(x - floor x, largest below 1)`, the floor stored; ±0 for ±inf, NaN for
/// NaN.
fn fract(d: &Decl, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
    let ty = &d.ret;
    let (e, _) = ty.lanes();
    let (x, p) = (a.first()?, a.get(1)?);
    let pt = d.params.get(1)?;
    let sfx = intr_suffix(ty)?;
    for f in ["floor", "minnum", "fabs", "copysign"] {
        let arity = if matches!(f, "minnum" | "copysign") {
            2
        } else {
            1
        };
        let name = format!("llvm.{f}.{sfx}");
        let ps = vec![ty.to_string(); arity].join(", ");
        needs.insert(
            name.clone(),
            format!("declare {ty} @{name}({ps}) nounwind readnone"),
        );
    }
    let fl = b.op(format_args!("call {ty} @llvm.floor.{sfx}({ty} {x})"));
    let _ = writeln!(b.text, "  store {ty} {fl}, {pt} {p}");
    let diff = b.op(format_args!("fsub {ty} {x}, {fl}"));
    // The largest value below 1: 0x1.fffffep-1 (float), 0x1.fffffffffffffp-1
    // (double), 0x1.ffcp-1 (half).
    let below_one = match e {
        Ty::Half => "0xH3BFF".to_string(),
        Ty::Float => format!(
            "0x{:016X}",
            f64::from(f32::from_bits(0x3f7f_ffff)).to_bits()
        ),
        _ => format!("0x{:016X}", f64::from_bits(0x3fef_ffff_ffff_ffff).to_bits()),
    };
    let lim = splat(ty, &below_one);
    let r = b.op(format_args!(
        "call {ty} @llvm.minnum.{sfx}({ty} {diff}, {ty} {lim})"
    ));
    // fract(±inf) = ±0; fract(NaN) = NaN.
    let ax = b.op(format_args!("call {ty} @llvm.fabs.{sfx}({ty} {x})"));
    let inf = b.op(format_args!(
        "fcmp oeq {ty} {ax}, {}",
        splat(ty, &float_const(e, f64::INFINITY))
    ));
    let zero = b.op(format_args!(
        "call {ty} @llvm.copysign.{sfx}({ty} {}, {ty} {x})",
        splat(ty, &float_const(e, 0.0))
    ));
    let r = b.op(format_args!(
        "select {} {inf}, {ty} {zero}, {ty} {r}",
        bool_of(ty)
    ));
    let nan = b.op(format_args!("fcmp uno {ty} {x}, {x}"));
    Some(b.op(format_args!(
        "select {} {nan}, {ty} {x}, {ty} {r}",
        bool_of(ty)
    )))
}

/// OpenCL's `select`.
fn select(d: &Decl, a: &[String], b: &mut Body) -> Option<String> {
    let ty = &d.ret;
    // OpenCL's select: for vectors the most significant bit of each lane of c,
    // for scalars c != 0, picks b over a.
    let (x, y, c) = (a.first()?, a.get(1)?, a.get(2)?);
    let ct = d.params.get(2)?;
    let pick = if matches!(ct, Ty::Vector(..)) {
        b.op(format_args!("icmp slt {ct} {c}, zeroinitializer"))
    } else {
        b.op(format_args!("icmp ne {ct} {c}, 0"))
    };
    Some(b.op(format_args!(
        "select {} {pick}, {ty} {y}, {ty} {x}",
        bool_of(ct)
    )))
}

/// `s_/u_mul_hi` and `s_/u_hadd`, in double-width integers.
fn mul_hi_or_hadd(op: &str, d: &Decl, a: &[String], b: &mut Body) -> Option<String> {
    let ty = &d.ret;
    let (e, _) = ty.lanes();
    let Ty::Int(w) = *e else { return None };
    let wide = Ty::Int(2 * w);
    let wt = match ty {
        Ty::Vector(n, _) => Ty::Vector(*n, Box::new(wide)),
        _ => wide,
    };
    let (ext, shr) = if op.starts_with('s') {
        ("sext", "ashr")
    } else {
        ("zext", "lshr")
    };
    let x = b.op(format_args!("{ext} {ty} {} to {wt}", a.first()?));
    let y = b.op(format_args!("{ext} {ty} {} to {wt}", a.get(1)?));
    let (r, by) = if op.ends_with("mul_hi") {
        (b.op(format_args!("mul {wt} {x}, {y}")), w)
    } else {
        (b.op(format_args!("add {wt} {x}, {y}")), 1)
    };
    let s = b.op(format_args!(
        "{shr} {wt} {r}, {}",
        splat(&wt, &by.to_string())
    ));
    Some(b.op(format_args!("trunc {wt} {s} to {ty}")))
}

/// `i1` or `<N x i1>` for a comparison of `ty`.
fn bool_of(ty: &Ty) -> String {
    match ty {
        Ty::Vector(n, _) => format!("<{n} x i1>"),
        _ => "i1".into(),
    }
}

/// The overload suffix of an LLVM intrinsic for `ty` (`f32`, `v4f32`, …).
fn intr_suffix(ty: &Ty) -> Option<String> {
    let (e, n) = ty.lanes();
    let s = match e {
        Ty::Half => "f16",
        Ty::Float => "f32",
        Ty::Double => "f64",
        _ => return None,
    };
    Some(match ty {
        Ty::Vector(..) => format!("v{n}{s}"),
        _ => s.into(),
    })
}

/// A float lane as a double.
fn widen(b: &mut Body, x: &str, e: &Ty) -> String {
    match e {
        Ty::Double => x.to_string(),
        _ => b.op(format_args!("fpext {e} {x} to double")),
    }
}

/// A double as scalar type `to`.
fn narrow(b: &mut Body, x: &str, to: &Ty) -> String {
    match to {
        Ty::Double => x.to_string(),
        _ => b.op(format_args!("fptrunc double {x} to {to}")),
    }
}

/// `sqrt(Σ x_k²)` of vector (or scalar) `x` of type `vt`, in double.
fn wide_length(b: &mut Body, vt: &Ty, x: &str, needs: &mut Needs) -> Option<String> {
    let (e, n) = vt.lanes();
    if !e.is_float() {
        return None;
    }
    needs.insert(
        "llvm.sqrt.f64".into(),
        "declare double @llvm.sqrt.f64(double) nounwind readnone".into(),
    );
    let mut acc = "0.0".to_string();
    for k in 0..n {
        let l = b.lane(vt, x, k);
        let w = widen(b, &l, e);
        let sq = b.op(format_args!("fmul double {w}, {w}"));
        acc = b.op(format_args!("fadd double {acc}, {sq}"));
    }
    Some(b.op(format_args!("call double @llvm.sqrt.f64(double {acc})")))
}
