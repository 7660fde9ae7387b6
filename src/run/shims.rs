//! Definitions, in LLVM IR, of the builtins a translated module calls that the runtime
//! provides neither in Rust (`runtime.rs`) nor in `builtins.ll`: written for the exact
//! signature each module declares, so every width and vector size is covered.
//!
//! | Builtin (`__spirv_…`) | Definition |
//! |---|---|
//! | `GroupNonUniform{IAdd,FAdd,IMul,FMul,SMin,UMin,FMin,SMax,UMax,FMax,Bitwise*,Logical*}` | subgroup size 1: the value for `Reduce`, `InclusiveScan` and `ClusteredReduce` (and the partitioned forms); the operation's identity for the exclusive scans |
//! | `GroupNonUniform{Broadcast,BroadcastFirst,Shuffle*,Quad*,Rotate*}` | the invocation's own value (lane 0 is the only lane) |
//! | `GroupNonUniform{Elect,AllEqual}`, `…{All,Any}` | `true`; the predicate |
//! | `GroupNonUniformBallot` and the `Ballot*` queries | a ballot of bit 0 only: `(p, 0, 0, 0)`; bit counts, bit extracts and finds on bit 0 |
//! | `BitField{Insert,SExtract,UExtract}` | shifts and masks, per lane, a count of 0 giving 0 (the base for an insert) |
//! | `GLSL_{Asin,Acos,Atan,Sinh,Cosh,Tanh,Asinh,Acosh,Atanh,Atan2}` | libm (`asinf`, `asin`, …), per lane; half through float |
//! | `GLSL_{Pack,Unpack}{Snorm4x8,Unorm4x8,Snorm2x16,Unorm2x16,Half2x16,Double2x32}` | GLSL.std.450's formulas (round to nearest even) |
//!
//! A declaration outside this table is left alone: loading the shared object then
//! reports it as a builtin the runtime does not provide.

use std::collections::HashMap;
use std::fmt::Write as _;

/// An LLVM type as a declaration spells it.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Int(u32),
    Half,
    Float,
    Double,
    Vector(u32, Box<Ty>),
    Array(u32, Box<Ty>),
    Other(String),
}

impl std::fmt::Display for Ty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ty::Int(n) => write!(f, "i{n}"),
            Ty::Half => f.write_str("half"),
            Ty::Float => f.write_str("float"),
            Ty::Double => f.write_str("double"),
            Ty::Vector(n, e) => write!(f, "<{n} x {e}>"),
            Ty::Array(n, e) => write!(f, "[{n} x {e}]"),
            Ty::Other(s) => f.write_str(s),
        }
    }
}

impl Ty {
    fn parse(s: &str) -> Ty {
        let s = s.trim();
        let inner = |body: &str| -> Option<(u32, Ty)> {
            let (n, e) = body.split_once(" x ")?;
            Some((n.trim().parse().ok()?, Ty::parse(e)))
        };
        if let Some(body) = s.strip_prefix('<').and_then(|b| b.strip_suffix('>'))
            && let Some((n, e)) = inner(body)
        {
            return Ty::Vector(n, Box::new(e));
        }
        if let Some(body) = s.strip_prefix('[').and_then(|b| b.strip_suffix(']'))
            && let Some((n, e)) = inner(body)
        {
            return Ty::Array(n, Box::new(e));
        }
        match s {
            "half" => Ty::Half,
            "float" => Ty::Float,
            "double" => Ty::Double,
            _ => match s.strip_prefix('i').and_then(|n| n.parse().ok()) {
                Some(n) => Ty::Int(n),
                None => Ty::Other(s.to_string()),
            },
        }
    }

    /// The element type and lane count (1 for a scalar).
    fn lanes(&self) -> (&Ty, u32) {
        match self {
            Ty::Vector(n, e) => (e, *n),
            t => (t, 1),
        }
    }

    fn is_float(&self) -> bool {
        matches!(self, Ty::Half | Ty::Float | Ty::Double)
    }
}

/// A declaration: return type, mangled name, the builtin's base name, parameter types.
struct Decl {
    ret: Ty,
    name: String,
    base: String,
    params: Vec<Ty>,
}

/// Splits at commas outside `<>`, `[]`, `{}` and `()`.
fn split_top(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '<' | '[' | '{' | '(' => depth += 1,
            '>' | ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(&s[start..]);
    }
    out
}

/// `declare <ret> @<name>(<params>) …` with an Itanium-mangled `__spirv_` name.
fn parse_decl(line: &str) -> Option<Decl> {
    let rest = line.strip_prefix("declare ")?;
    let at = rest.find(" @")?;
    let ret = Ty::parse(&rest[..at]);
    let after = &rest[at + 2..];
    let open = after.find('(')?;
    let name = after[..open].to_string();
    let close = open + after[open..].rfind(')')?;
    let params = split_top(&after[open + 1..close])
        .into_iter()
        .map(|p| {
            // Drop parameter attributes (`i32 noundef`…): the type comes first.
            let p = p.trim();
            let end = if p.starts_with('<') || p.starts_with('[') {
                p.rfind(['>', ']']).map_or(p.len(), |i| i + 1)
            } else {
                p.find(' ').unwrap_or(p.len())
            };
            Ty::parse(&p[..end])
        })
        .collect();
    // _Z<len><base>…
    let digits: String = name
        .strip_prefix("_Z")?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let len: usize = digits.parse().ok()?;
    let base = name
        .get(2 + digits.len()..2 + digits.len() + len)?
        .to_string();
    base.starts_with("__spirv_").then_some(Decl {
        ret,
        name,
        base,
        params,
    })
}

/// A function body under construction.
struct Body {
    text: String,
    next: usize,
}

impl Body {
    fn new() -> Body {
        Body {
            text: String::new(),
            next: 0,
        }
    }

    /// Emits `%tN = <rhs>` and returns `%tN`.
    fn op(&mut self, rhs: impl std::fmt::Display) -> String {
        let v = format!("%t{}", self.next);
        self.next += 1;
        let _ = writeln!(self.text, "  {v} = {rhs}");
        v
    }

    /// A vector of `lanes` built from `elems` (or the scalar itself for one lane).
    fn build(&mut self, ty: &Ty, elems: &[String]) -> String {
        match ty {
            Ty::Vector(_, e) => {
                let mut acc = "poison".to_string();
                for (k, x) in elems.iter().enumerate() {
                    acc = self.op(format_args!("insertelement {ty} {acc}, {e} {x}, i32 {k}"));
                }
                acc
            }
            _ => elems[0].clone(),
        }
    }

    /// Lane `k` of `v` (the value itself for a scalar).
    fn lane(&mut self, ty: &Ty, v: &str, k: u32) -> String {
        match ty {
            Ty::Vector(..) => self.op(format_args!("extractelement {ty} {v}, i32 {k}")),
            _ => v.to_string(),
        }
    }
}

/// An LLVM constant of scalar type `t` for a float value.
fn float_const(t: &Ty, x: f64) -> String {
    match t {
        Ty::Half => {
            let bits: u16 = if x.is_infinite() {
                if x > 0.0 { 0x7c00 } else { 0xfc00 }
            } else if x == 1.0 {
                0x3c00
            } else {
                0
            };
            format!("0xH{bits:04X}")
        }
        // Float constants are written as the double of the same value (exact here).
        _ => format!("0x{:016X}", x.to_bits()),
    }
}

/// The splat of scalar constant `c` to type `ty`.
fn splat(ty: &Ty, c: &str) -> String {
    match ty {
        Ty::Vector(n, e) => {
            let lanes: Vec<String> = (0..*n).map(|_| format!("{e} {c}")).collect();
            format!("<{}>", lanes.join(", "))
        }
        _ => c.to_string(),
    }
}

/// `declare`s of the functions a body calls, by name.
type Needs = HashMap<String, String>;

/// The definition of `d`, or `None` if it is not one this file knows.
fn define(d: &Decl, needs: &mut Needs) -> Option<String> {
    let mut b = Body::new();
    let params: Vec<String> = (0..d.params.len()).map(|i| format!("%a{i}")).collect();
    let result = if let Some(op) = d.base.strip_prefix("__spirv_GroupNonUniform") {
        group(op, d, &params, &mut b)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_BitField") {
        bitfield(op, d, &params, &mut b)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_GLSL_") {
        glsl(op, d, &params, &mut b, needs)?
    } else {
        return None;
    };
    let sig: Vec<String> = d
        .params
        .iter()
        .zip(&params)
        .map(|(t, p)| format!("{t} {p}"))
        .collect();
    Some(format!(
        "define {} @{}({}) nounwind {{\n{}  ret {} {}\n}}\n",
        d.ret,
        d.name,
        sig.join(", "),
        b.text,
        d.ret,
        result
    ))
}

/// `OpGroupNonUniform*` at subgroup size 1.
fn group(op: &str, d: &Decl, a: &[String], b: &mut Body) -> Option<String> {
    let ret = &d.ret;
    Some(match op {
        "Elect" | "AllEqual" => "true".into(),
        "All" | "Any" => a.get(1)?.clone(),
        "Broadcast" | "BroadcastFirst" | "Shuffle" | "ShuffleXor" | "ShuffleUp" | "ShuffleDown"
        | "QuadBroadcast" | "QuadSwap" | "RotateKHR" => a.get(1)?.clone(),
        "Ballot" => {
            let bit = b.op(format_args!("zext i1 {} to i32", a.get(1)?));
            b.op(format_args!(
                "insertelement <4 x i32> zeroinitializer, i32 {bit}, i32 0"
            ))
        }
        "InverseBallot" => {
            let w = b.op(format_args!(
                "extractelement <4 x i32> {}, i32 0",
                a.get(1)?
            ));
            b.op(format_args!("trunc i32 {w} to i1"))
        }
        "BallotBitExtract" => {
            let idx = a.get(2)?;
            let it = d.params.get(2)?;
            let word = b.op(format_args!("lshr {it} {idx}, 5"));
            let word = b.op(format_args!("and {it} {word}, 3"));
            let w = b.op(format_args!(
                "extractelement <4 x i32> {}, {it} {word}",
                a[1]
            ));
            let bit = b.op(format_args!("and {it} {idx}, 31"));
            let bit = match it {
                Ty::Int(32) => bit,
                Ty::Int(n) if *n > 32 => b.op(format_args!("trunc {it} {bit} to i32")),
                _ => b.op(format_args!("zext {it} {bit} to i32")),
            };
            let s = b.op(format_args!("lshr i32 {w}, {bit}"));
            b.op(format_args!("trunc i32 {s} to i1"))
        }
        // Bits of the invocations in the subgroup (bit 0) at or below this one (0).
        "BallotBitCount" => {
            let w = b.op(format_args!(
                "extractelement <4 x i32> {}, i32 0",
                a.get(2)?
            ));
            let bit = b.op(format_args!("and i32 {w}, 1"));
            let excl = b.op(format_args!("icmp eq i32 {}, 2", a[1]));
            b.op(format_args!("select i1 {excl}, i32 0, i32 {bit}"))
        }
        // The only bit that can be set is bit 0 (a ballot with none set is undefined).
        "BallotFindLSB" | "BallotFindMSB" => "0".into(),
        _ => {
            let identity = identity(op, ret)?;
            let value = a.get(2)?;
            // ExclusiveScan (2) and PartitionedExclusiveScanNV (8).
            let e2 = b.op(format_args!("icmp eq i32 {}, 2", a[1]));
            let e8 = b.op(format_args!("icmp eq i32 {}, 8", a[1]));
            let excl = b.op(format_args!("or i1 {e2}, {e8}"));
            b.op(format_args!(
                "select i1 {excl}, {ret} {}, {ret} {value}",
                splat(ret, &identity)
            ))
        }
    })
}

/// The identity of a group operation's scalar type (for `ExclusiveScan`).
fn identity(op: &str, ty: &Ty) -> Option<String> {
    let (e, _) = ty.lanes();
    let int_bits = match e {
        Ty::Int(n) => Some(*n),
        _ => None,
    };
    Some(match (op, int_bits) {
        ("IAdd" | "BitwiseOr" | "BitwiseXor" | "UMax", Some(_)) => "0".into(),
        ("IMul", Some(_)) => "1".into(),
        ("BitwiseAnd" | "UMin", Some(_)) => "-1".into(),
        ("SMin", Some(n)) => ((1i128 << (n - 1)) - 1).to_string(),
        ("SMax", Some(n)) => (-(1i128 << (n - 1))).to_string(),
        ("LogicalAnd", Some(1)) => "true".into(),
        ("LogicalOr" | "LogicalXor", Some(1)) => "false".into(),
        ("FAdd", None) if e.is_float() => float_const(e, 0.0),
        ("FMul", None) if e.is_float() => float_const(e, 1.0),
        ("FMin", None) if e.is_float() => float_const(e, f64::INFINITY),
        ("FMax", None) if e.is_float() => float_const(e, f64::NEG_INFINITY),
        _ => return None,
    })
}

/// `OpBitFieldInsert` / `OpBitFieldSExtract` / `OpBitFieldUExtract`, lane by lane.
fn bitfield(op: &str, d: &Decl, a: &[String], b: &mut Body) -> Option<String> {
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
fn glsl(op: &str, d: &Decl, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
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
fn libm_call(f: &str, d: &Decl, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
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

/// An IR module defining every builtin `module` declares that this file knows and
/// `provided` does not already supply; empty when there is none.
pub fn shims(module: &str, provided: impl Fn(&str) -> bool) -> String {
    let mut defs = String::new();
    let mut needs = Needs::new();
    for line in module.lines() {
        let Some(d) = parse_decl(line) else { continue };
        if provided(&d.name) {
            continue;
        }
        if let Some(def) = define(&d, &mut needs) {
            defs.push_str(&def);
            defs.push('\n');
        }
    }
    if defs.is_empty() {
        return defs;
    }
    let mut out =
        String::from("; Builtins of `spirv-lift run` for this module (src/run/shims.rs).\n\n");
    out.push_str(&defs);
    let mut decls: Vec<&String> = needs.values().collect();
    decls.sort();
    for dcl in decls {
        out.push_str(dcl);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_parse() {
        let d = parse_decl(
            "declare <3 x i32> @_Z24__spirv_BitFieldSExtractDv3_iii(<3 x i32>, i32, i32) nounwind",
        )
        .unwrap();
        assert_eq!(d.base, "__spirv_BitFieldSExtract");
        assert_eq!(d.ret, Ty::Vector(3, Box::new(Ty::Int(32))));
        assert_eq!(d.params.len(), 3);
        let d = parse_decl(
            "declare float @_Z24__spirv_GLSL_Determinant15__spirv_type_45([3 x <3 x float>]) nounwind",
        )
        .unwrap();
        assert_eq!(d.base, "__spirv_GLSL_Determinant");
        assert_eq!(
            d.params[0],
            Ty::Array(3, Box::new(Ty::Vector(3, Box::new(Ty::Float))))
        );
        assert!(parse_decl("declare i32 @llvm.smax.i32(i32, i32)").is_none());
    }

    #[test]
    fn unknown_and_provided_builtins_are_left_alone() {
        let m = "declare i32 @_Z27__spirv_GroupNonUniformSMiniii(i32, i32, i32) convergent nounwind\n\
                 declare void @_Z22__spirv_ControlBarrieriii(i32, i32, i32)\n";
        let s = shims(m, |_| false);
        assert!(s.contains("define i32 @_Z27__spirv_GroupNonUniformSMiniii"));
        assert!(s.contains("2147483647"), "{s}");
        assert!(!s.contains("ControlBarrier"));
        assert!(shims(m, |_| true).is_empty());
    }
}
