//! `OpBitField*` and the GLSL.std.450 builtins left as calls: libm's trigonometric and
//! hyperbolic functions, the packing functions.

use super::{Body, Decl, Needs, Ty, float_const};

/// `OpBitFieldInsert` / `OpBitFieldSExtract` / `OpBitFieldUExtract`, lane by lane.
pub(super) fn bitfield(op: &str, d: &Decl, a: &[String], b: &mut Body) -> Option<String> {
    let ty = &d.ret;
    let (e, n) = ty.lanes();
    let Ty::Int(w) = *e else { return None };
    let (off_i, cnt_i) = match op {
        "Insert" => (2, 3),
        "SExtract" | "UExtract" => (1, 2),
        _ => return None,
    };
    // Offset and count (scalars of any integer width) at the element's width.
    let fit = |b: &mut Body, i: usize| -> Option<String> {
        let Ty::Int(pw) = d.params.get(i)? else {
            return None;
        };
        let v = a[i].clone();
        Some(match pw.cmp(&w) {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Less => b.op(format_args!("zext i{pw} {v} to {e}")),
            std::cmp::Ordering::Greater => b.op(format_args!("trunc i{pw} {v} to {e}")),
        })
    };
    let off = fit(b, off_i)?;
    let cnt = fit(b, cnt_i)?;
    let zero_cnt = b.op(format_args!("icmp eq {e} {cnt}, 0"));
    let inv = b.op(format_args!("sub {e} {w}, {cnt}"));
    // A mask of `cnt` low ones (poison for cnt = 0, which the selects below discard).
    let low = b.op(format_args!("lshr {e} -1, {inv}"));
    let mut out = Vec::new();
    for k in 0..n {
        let base = b.lane(ty, &a[0], k);
        let r = match op {
            "UExtract" => {
                let s = b.op(format_args!("lshr {e} {base}, {off}"));
                let m = b.op(format_args!("and {e} {s}, {low}"));
                b.op(format_args!("select i1 {zero_cnt}, {e} 0, {e} {m}"))
            }
            "SExtract" => {
                let up = b.op(format_args!("sub {e} {inv}, {off}"));
                let s = b.op(format_args!("shl {e} {base}, {up}"));
                let m = b.op(format_args!("ashr {e} {s}, {inv}"));
                b.op(format_args!("select i1 {zero_cnt}, {e} 0, {e} {m}"))
            }
            _ => {
                let ins = b.lane(ty, &a[1], k);
                let mask = b.op(format_args!("shl {e} {low}, {off}"));
                let keep = b.op(format_args!("xor {e} {mask}, -1"));
                let kept = b.op(format_args!("and {e} {base}, {keep}"));
                let moved = b.op(format_args!("shl {e} {ins}, {off}"));
                let moved = b.op(format_args!("and {e} {moved}, {mask}"));
                let m = b.op(format_args!("or {e} {kept}, {moved}"));
                b.op(format_args!("select i1 {zero_cnt}, {e} {base}, {e} {m}"))
            }
        };
        out.push(r);
    }
    Some(b.build(ty, &out))
}

/// GLSL.std.450 instructions the translator leaves as calls.
pub(super) fn glsl(
    op: &str,
    d: &Decl,
    a: &[String],
    b: &mut Body,
    needs: &mut Needs,
) -> Option<String> {
    let libm = match op {
        "Asin" => Some("asin"),
        "Acos" => Some("acos"),
        "Atan" => Some("atan"),
        "Sinh" => Some("sinh"),
        "Cosh" => Some("cosh"),
        "Tanh" => Some("tanh"),
        "Asinh" => Some("asinh"),
        "Acosh" => Some("acosh"),
        "Atanh" => Some("atanh"),
        "Atan2" => Some("atan2"),
        _ => None,
    };
    if let Some(f) = libm {
        return libm_call(f, d, a, b, needs);
    }
    pack(op, d, a, b, needs)
}

/// A libm function applied lane by lane (`asinf` for float, `asin` for double; half is
/// computed in float).
pub(super) fn libm_call(
    f: &str,
    d: &Decl,
    a: &[String],
    b: &mut Body,
    needs: &mut Needs,
) -> Option<String> {
    let ty = &d.ret;
    let (e, n) = ty.lanes();
    let (fname, ct) = match e {
        Ty::Double => (f.to_string(), Ty::Double),
        Ty::Float | Ty::Half => (format!("{f}f"), Ty::Float),
        _ => return None,
    };
    let arity = d.params.len();
    let ps = vec![ct.to_string(); arity].join(", ");
    needs.insert(
        fname.clone(),
        format!("declare {ct} @{fname}({ps}) nounwind"),
    );
    let mut out = Vec::new();
    for k in 0..n {
        let mut args = Vec::new();
        for p in a {
            let x = b.lane(ty, p, k);
            let x = if *e == Ty::Half {
                b.op(format_args!("fpext half {x} to float"))
            } else {
                x
            };
            args.push(format!("{ct} {x}"));
        }
        let r = b.op(format_args!("call {ct} @{fname}({})", args.join(", ")));
        let r = if *e == Ty::Half {
            b.op(format_args!("fptrunc float {r} to half"))
        } else {
            r
        };
        out.push(r);
    }
    Some(b.build(ty, &out))
}

/// The `Pack*` / `Unpack*` instructions.
fn pack(op: &str, d: &Decl, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
    let x = a.first()?;
    let mut intr = |name: &str, t: &str, arity: usize| {
        let ps = vec![t; arity].join(", ");
        needs.insert(
            name.to_string(),
            format!("declare {t} @{name}({ps}) nounwind"),
        );
    };
    let (lanes, bits, kind) = match op {
        "PackDouble2x32" => return Some(b.op(format_args!("bitcast <2 x i32> {x} to double"))),
        "UnpackDouble2x32" => return Some(b.op(format_args!("bitcast double {x} to <2 x i32>"))),
        "PackSnorm4x8" | "UnpackSnorm4x8" => (4, 8, 's'),
        "PackUnorm4x8" | "UnpackUnorm4x8" => (4, 8, 'u'),
        "PackSnorm2x16" | "UnpackSnorm2x16" => (2, 16, 's'),
        "PackUnorm2x16" | "UnpackUnorm2x16" => (2, 16, 'u'),
        "PackHalf2x16" | "UnpackHalf2x16" => (2, 16, 'h'),
        _ => return None,
    };
    let vt = Ty::Vector(lanes, Box::new(Ty::Float));
    // The signature GLSL.std.450 gives the instruction, or not one this knows.
    let (from, to) = if op.starts_with("Pack") {
        (&vt, &Ty::Int(32))
    } else {
        (&Ty::Int(32), &vt)
    };
    if d.params.first() != Some(from) || d.ret != *to {
        return None;
    }
    let max = if kind == 's' {
        (1u32 << (bits - 1)) - 1
    } else {
        (1u32 << bits) - 1
    };
    let maxf = float_const(&Ty::Float, f64::from(max));
    if op.starts_with("Pack") {
        intr("llvm.minnum.f32", "float", 2);
        intr("llvm.maxnum.f32", "float", 2);
        intr("llvm.rint.f32", "float", 1);
        let mut acc = "0".to_string();
        for k in 0..lanes {
            let c = b.op(format_args!("extractelement {vt} {x}, i32 {k}"));
            let field = match kind {
                'h' => {
                    let h = b.op(format_args!("fptrunc float {c} to half"));
                    let i = b.op(format_args!("bitcast half {h} to i16"));
                    b.op(format_args!("zext i16 {i} to i32"))
                }
                _ => {
                    let lo = if kind == 's' { -1.0 } else { 0.0 };
                    let c = b.op(format_args!(
                        "call float @llvm.maxnum.f32(float {c}, float {})",
                        float_const(&Ty::Float, lo)
                    ));
                    let c = b.op(format_args!(
                        "call float @llvm.minnum.f32(float {c}, float {})",
                        float_const(&Ty::Float, 1.0)
                    ));
                    let s = b.op(format_args!("fmul float {c}, {maxf}"));
                    let r = b.op(format_args!("call float @llvm.rint.f32(float {s})"));
                    let i = b.op(format_args!("fptosi float {r} to i32"));
                    b.op(format_args!("and i32 {i}, {}", (1u64 << bits) - 1))
                }
            };
            let moved = b.op(format_args!("shl i32 {field}, {}", k * bits));
            acc = b.op(format_args!("or i32 {acc}, {moved}"));
        }
        return Some(acc);
    }
    intr("llvm.maxnum.f32", "float", 2);
    let mut out = Vec::new();
    for k in 0..lanes {
        let s = b.op(format_args!("lshr i32 {x}, {}", k * bits));
        let t = b.op(format_args!("trunc i32 {s} to i{bits}"));
        let f = match kind {
            'h' => {
                let h = b.op(format_args!("bitcast i16 {t} to half"));
                b.op(format_args!("fpext half {h} to float"))
            }
            'u' => {
                let f = b.op(format_args!("uitofp i{bits} {t} to float"));
                b.op(format_args!("fdiv float {f}, {maxf}"))
            }
            _ => {
                let f = b.op(format_args!("sitofp i{bits} {t} to float"));
                let q = b.op(format_args!("fdiv float {f}, {maxf}"));
                b.op(format_args!(
                    "call float @llvm.maxnum.f32(float {q}, float {})",
                    float_const(&Ty::Float, -1.0)
                ))
            }
        };
        out.push(f);
    }
    Some(b.build(&vt, &out))
}
