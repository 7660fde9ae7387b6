//! Definitions, in LLVM IR, of the builtins a translated module calls that the runtime
//! provides neither in Rust (`runtime.rs`) nor in `builtins.ll`: written for the exact
//! signature each module declares, so every width and vector size is covered.
//!
//! | Builtin (`__spirv_…`) | Definition |
//! |---|---|
//! | `Group{IAdd,FAdd,FMin,UMin,SMin,FMax,UMax,SMax,Broadcast,All,Any}`, `…KHR` multiplications and bitwise/logical forms | per lane, `spirv_lift.group` (groups.rs), Workgroup or Subgroup scope |
//! | `GroupNonUniform{IAdd,FAdd,IMul,FMul,SMin,UMin,FMin,SMax,UMax,FMax,Bitwise*,Logical*}` with every group operation (clustered, partitioned) | per lane, `spirv_lift.group` |
//! | `GroupNonUniform{Broadcast,BroadcastFirst,Shuffle*,Quad*,RotateKHR,Elect,AllEqual,All,Any}` | `spirv_lift.group` |
//! | `GroupNonUniformBallot`; `InverseBallot`, `BallotBitExtract`, `BallotBitCount`, `BallotFind{LSB,MSB}` | `spirv_lift.group_ballot`; `spirv_lift.ballot_query` |
//! | `BitField{Insert,SExtract,UExtract}` | shifts and masks, per lane, a count of 0 giving 0 (the base for an insert) |
//! | `GLSL_{Asin,Acos,Atan,Sinh,Cosh,Tanh,Asinh,Acosh,Atanh,Atan2}` | libm (`asinf`, `asin`, …), per lane; half through float |
//! | `GLSL_{Pack,Unpack}{Snorm4x8,Unorm4x8,Snorm2x16,Unorm2x16,Half2x16,Double2x32}` | GLSL.std.450's formulas (round to nearest even) |
//! | `ocl_{vloadn,vstoren,vload_halfn,vloada_halfn}` | a load or store of the vector at `p + offset * n` (`n` rounded to 4 for `vloada_half3`) |
//! | `ocl_{vstore_halfn,vstorea_halfn}[_r]` | per lane, `spirv_lift.f32_to_f16`/`f64_to_f16` (runtime.rs, exact in every rounding mode) |
//! | `ocl_{length,distance,normalize}`, `fast_` forms | in double: `sqrt(Σ x²)`, `length(a - b)`, `x / length(x)` (a zero vector unchanged) |
//! | `ocl_native_{sin,cos,exp}`, `ocl_hypot` | libm, per lane |
//! | `ocl_native_{sqrt,recip}`, `ocl_fract`, `ocl_select`, `ocl_{s,u}_{mul_hi,hadd}` | `llvm.sqrt`, `1 / x`, `floor` and `min(x - floor x, 0x1.fffffep-1)` (±0 for ±inf, NaN for NaN), the sign bit of each lane (a scalar's `!= 0`), double-width arithmetic |
//!
//! A declaration outside this table is left alone: loading the shared object then
//! reports it as a builtin the runtime does not provide.

mod glsl;
mod group;
mod ocl;

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
        group::group(&format!("NonUniform{op}"), d, &params, &mut b, needs)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_Group") {
        group::group(op, d, &params, &mut b, needs)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_BitField") {
        glsl::bitfield(op, d, &params, &mut b)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_GLSL_") {
        glsl::glsl(op, d, &params, &mut b, needs)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_ocl_") {
        // `vloadn_Rfloat4`: the return-type postfix only names the result type.
        let op = op.split_once("_R").map_or(op, |(o, _)| o);
        ocl::ocl(op, d, &params, &mut b, needs)?
    } else {
        return None;
    };
    let sig: Vec<String> = d
        .params
        .iter()
        .zip(&params)
        .map(|(t, p)| format!("{t} {p}"))
        .collect();
    let ret = if d.ret == Ty::Other("void".into()) {
        "void".to_string()
    } else {
        format!("{} {result}", d.ret)
    };
    Some(format!(
        "define {} @{}({}) nounwind {{\n{}  ret {ret}\n}}\n",
        d.ret,
        d.name,
        sig.join(", "),
        b.text,
    ))
}

/// A scalar's bits as an `i64` (zero-extended; floats by their bits).
fn to_bits(b: &mut Body, e: &Ty, x: &str) -> Option<String> {
    Some(match e {
        Ty::Int(64) => x.to_string(),
        Ty::Int(n) if *n < 64 => b.op(format_args!("zext i{n} {x} to i64")),
        Ty::Half => {
            let i = b.op(format_args!("bitcast half {x} to i16"));
            b.op(format_args!("zext i16 {i} to i64"))
        }
        Ty::Float => {
            let i = b.op(format_args!("bitcast float {x} to i32"));
            b.op(format_args!("zext i32 {i} to i64"))
        }
        Ty::Double => b.op(format_args!("bitcast double {x} to i64")),
        _ => return None,
    })
}

/// The inverse of [`to_bits`].
fn from_bits(b: &mut Body, e: &Ty, x: &str) -> Option<String> {
    Some(match e {
        Ty::Int(64) => x.to_string(),
        Ty::Int(n) if *n < 64 => b.op(format_args!("trunc i64 {x} to i{n}")),
        Ty::Half => {
            let i = b.op(format_args!("trunc i64 {x} to i16"));
            b.op(format_args!("bitcast i16 {i} to half"))
        }
        Ty::Float => {
            let i = b.op(format_args!("trunc i64 {x} to i32"));
            b.op(format_args!("bitcast i32 {i} to float"))
        }
        Ty::Double => b.op(format_args!("bitcast i64 {x} to double")),
        _ => return None,
    })
}

/// `kind` for `spirv_lift.group`: class << 8 | bits.
fn kind_of(e: &Ty) -> Option<u32> {
    Some(match e {
        Ty::Int(1) => 2 << 8 | 1,
        Ty::Int(n) => *n,
        Ty::Half => 1 << 8 | 16,
        Ty::Float => 1 << 8 | 32,
        Ty::Double => 1 << 8 | 64,
        _ => return None,
    })
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
        String::from("; Builtins of `spirv-lift run` for this module (src/run/shims/).\n\n");
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
        // Into the runtime: operation SMIN (4), the group operation, kind i32 (32).
        assert!(
            s.contains("@spirv_lift.group(i32 %a0, i32 4, i32 %a1, i32 32,"),
            "{s}"
        );
        assert!(!s.contains("ControlBarrier"));
        assert!(shims(m, |_| true).is_empty());
    }
}
