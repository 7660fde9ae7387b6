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
        group(&format!("NonUniform{op}"), d, &params, &mut b, needs)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_Group") {
        group(op, d, &params, &mut b, needs)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_BitField") {
        bitfield(op, d, &params, &mut b)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_GLSL_") {
        glsl(op, d, &params, &mut b, needs)?
    } else if let Some(op) = d.base.strip_prefix("__spirv_ocl_") {
        // `vloadn_Rfloat4`: the return-type postfix only names the result type.
        let op = op.split_once("_R").map_or(op, |(o, _)| o);
        ocl(op, d, &params, &mut b, needs)?
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

/// `OpGroup*` and `OpGroupNonUniform*`: calls into the runtime (src/run/groups.rs), one
/// per vector lane, with the call site's return address identifying the operation.
fn group(op: &str, d: &Decl, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
    use super::groups::op as g;
    let nu = op.starts_with("NonUniform");
    let name = op.trim_start_matches("NonUniform");
    let name = if name == "RotateKHR" {
        name
    } else {
        name.trim_end_matches("KHR")
    };
    needs.insert(
        "llvm.returnaddress".into(),
        "declare ptr @llvm.returnaddress(i32 immarg) nounwind readnone".into(),
    );
    let scope = a.first()?;
    let ret = &d.ret;
    // Ballots and their queries.
    let query = match name {
        "Ballot" => {
            needs.insert(
                "spirv_lift.group_ballot".into(),
                "declare void @spirv_lift.group_ballot(i32, i32, ptr, ptr) nounwind".into(),
            );
            let site = b.op("call ptr @llvm.returnaddress(i32 0)");
            let out = b.op("alloca <4 x i32>");
            let p = b.op(format_args!("zext i1 {} to i32", a.get(1)?));
            let _ = writeln!(
                b.text,
                "  call void @spirv_lift.group_ballot(i32 {scope}, i32 {p}, ptr {site}, ptr {out})"
            );
            return Some(b.op(format_args!("load <4 x i32>, ptr {out}")));
        }
        "InverseBallot" => Some((g::INVERSE_BALLOT, "0".to_string(), 1, None)),
        "BallotBitExtract" => Some((g::BIT_EXTRACT, "0".to_string(), 1, Some(2))),
        "BallotBitCount" => Some((g::BIT_COUNT, a.get(1)?.clone(), 2, None)),
        "BallotFindLSB" => Some((g::FIND_LSB, "0".to_string(), 1, None)),
        "BallotFindMSB" => Some((g::FIND_MSB, "0".to_string(), 1, None)),
        _ => None,
    };
    if let Some((qop, group_op, mask_at, index_at)) = query {
        needs.insert(
            "spirv_lift.ballot_query".into(),
            "declare i32 @spirv_lift.ballot_query(i32, i32, ptr, i32) nounwind".into(),
        );
        let m = b.op("alloca <4 x i32>");
        let _ = writeln!(b.text, "  store <4 x i32> {}, ptr {m}", a.get(mask_at)?);
        let index = match index_at {
            Some(i) => {
                let Ty::Int(w) = d.params.get(i)? else {
                    return None;
                };
                let x = a.get(i)?;
                match w.cmp(&32) {
                    std::cmp::Ordering::Equal => x.clone(),
                    std::cmp::Ordering::Less => b.op(format_args!("zext i{w} {x} to i32")),
                    std::cmp::Ordering::Greater => b.op(format_args!("trunc i{w} {x} to i32")),
                }
            }
            None => "0".into(),
        };
        let r = b.op(format_args!(
            "call i32 @spirv_lift.ballot_query(i32 {qop}, i32 {group_op}, ptr {m}, i32 {index})"
        ));
        return Some(match ret {
            Ty::Int(32) => r,
            Ty::Int(w) if *w < 32 => b.op(format_args!("trunc i32 {r} to i{w}")),
            Ty::Int(w) => b.op(format_args!("zext i32 {r} to i{w}")),
            _ => return None,
        });
    }
    // (operation, whether it takes a group operation, index of the value, index of the
    // other operand).
    let arith = |o: i32| Some((o, true, 2usize, if nu { Some(3usize) } else { None }));
    let (code, has_group_op, value_at, operand_at) = match name {
        "IAdd" => arith(g::IADD)?,
        "FAdd" => arith(g::FADD)?,
        "IMul" => arith(g::IMUL)?,
        "FMul" => arith(g::FMUL)?,
        "SMin" => arith(g::SMIN)?,
        "UMin" => arith(g::UMIN)?,
        "FMin" => arith(g::FMIN)?,
        "SMax" => arith(g::SMAX)?,
        "UMax" => arith(g::UMAX)?,
        "FMax" => arith(g::FMAX)?,
        "BitwiseAnd" | "LogicalAnd" => arith(g::AND)?,
        "BitwiseOr" | "LogicalOr" => arith(g::OR)?,
        "BitwiseXor" | "LogicalXor" => arith(g::XOR)?,
        "Broadcast" => (g::BROADCAST, false, 1, Some(2)),
        "BroadcastFirst" => (g::BROADCAST_FIRST, false, 1, None),
        "Shuffle" => (g::SHUFFLE, false, 1, Some(2)),
        "ShuffleXor" => (g::SHUFFLE_XOR, false, 1, Some(2)),
        "ShuffleUp" => (g::SHUFFLE_UP, false, 1, Some(2)),
        "ShuffleDown" => (g::SHUFFLE_DOWN, false, 1, Some(2)),
        "QuadBroadcast" => (g::QUAD_BROADCAST, false, 1, Some(2)),
        "QuadSwap" => (g::QUAD_SWAP, false, 1, Some(2)),
        "RotateKHR" => (g::ROTATE, false, 1, Some(2)),
        "All" => (g::ALL, false, 1, None),
        "Any" => (g::ANY, false, 1, None),
        "AllEqual" => (g::ALL_EQUAL, false, 1, None),
        "Elect" => (g::ELECT, false, usize::MAX, None),
        _ => return None,
    };
    needs.insert(
        "spirv_lift.group".into(),
        "declare i64 @spirv_lift.group(i32, i32, i32, i32, i64, i64, i64, i64, ptr) nounwind"
            .into(),
    );
    let site = b.op("call ptr @llvm.returnaddress(i32 0)");
    let group_op = if has_group_op {
        a.get(1)?.clone()
    } else {
        "0".into()
    };
    // The other operand as up to three i64 (a vector local id: x, y, z; a partition
    // ballot: its two 64-bit halves; RotateKHR's cluster size: y).
    let mut operand = ["0".to_string(), "0".to_string(), "0".to_string()];
    if let Some(i) = operand_at
        && let (Some(t), Some(x)) = (d.params.get(i), a.get(i))
    {
        let (oe, on) = t.lanes();
        match (oe, t) {
            (Ty::Int(32), Ty::Vector(4, _)) if has_group_op => {
                let w = b.op(format_args!("bitcast <4 x i32> {x} to <2 x i64>"));
                operand[0] = b.op(format_args!("extractelement <2 x i64> {w}, i32 0"));
                operand[1] = b.op(format_args!("extractelement <2 x i64> {w}, i32 1"));
            }
            (Ty::Int(_), _) => {
                for k in 0..on.min(3) {
                    let l = b.lane(t, x, k);
                    operand[k as usize] = to_bits(b, oe, &l)?;
                }
            }
            _ => return None,
        }
    }
    if name == "RotateKHR"
        && let (Some(Ty::Int(w)), Some(x)) = (d.params.get(3), a.get(3))
    {
        operand[1] = to_bits(b, &Ty::Int(*w), x)?;
    }
    if code == g::ELECT {
        let r = b.op(format_args!(
            "call i64 @spirv_lift.group(i32 {scope}, i32 {code}, i32 0, i32 513, i64 0, \
             i64 0, i64 0, i64 0, ptr {site})"
        ));
        return Some(b.op(format_args!("trunc i64 {r} to i1")));
    }
    let vt = d.params.get(value_at)?;
    let v = a.get(value_at)?;
    let (ve, vn) = vt.lanes();
    let kind = kind_of(ve)?;
    let (re, _) = ret.lanes();
    let mut out = Vec::new();
    for k in 0..vn {
        let l = b.lane(vt, v, k);
        let bits = to_bits(b, ve, &l)?;
        let r = b.op(format_args!(
            "call i64 @spirv_lift.group(i32 {scope}, i32 {code}, i32 {group_op}, i32 {kind}, \
             i64 {bits}, i64 {}, i64 {}, i64 {}, ptr {site})",
            operand[0], operand[1], operand[2]
        ));
        out.push(from_bits(b, re, &r)?);
    }
    Some(b.build(ret, &out))
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

/// OpenCL.std builtins the translation leaves as calls, for every width and vector
/// size: the vector loads and stores (`vloadn`, `vstoren`, `vload_halfn`, `vloada_halfn`,
/// `vstore_halfn[_r]`, `vstorea_halfn[_r]`), the geometric functions (`length`,
/// `fast_length`, `distance`, `fast_distance`, `normalize`, `fast_normalize`, computed in
/// double for float and half), `native_{sin,cos,exp,sqrt,recip}` (libm, exact
/// `sqrt` and division), `fract`, `hypot`, `select`, `s_/u_mul_hi` and `s_/u_hadd`.
fn ocl(op: &str, d: &Decl, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
    let ty = &d.ret;
    let (e, n) = ty.lanes();
    match op {
        "vloadn" | "vload_halfn" | "vloada_halfn" => {
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
        "vstoren" => {
            let (v, off, p) = (a.first()?, a.get(1)?, a.get(2)?);
            let vt = d.params.first()?;
            let (ve, vn) = vt.lanes();
            let pt = d.params.get(2)?;
            let idx = b.op(format_args!("mul i64 {off}, {vn}"));
            let at = b.op(format_args!("getelementptr {ve}, {pt} {p}, i64 {idx}"));
            let _ = writeln!(b.text, "  store {vt} {v}, {pt} {at}, align 1");
            Some(String::new())
        }
        "vstore_halfn" | "vstore_halfn_r" | "vstorea_halfn" | "vstorea_halfn_r" => {
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
        "length" | "fast_length" | "distance" | "fast_distance" => {
            let vt = d.params.first()?;
            let x = if op.ends_with("distance") {
                b.op(format_args!("fsub {vt} {}, {}", a.first()?, a.get(1)?))
            } else {
                a.first()?.clone()
            };
            let len = wide_length(b, vt, &x, needs)?;
            Some(narrow(b, &len, ty))
        }
        "normalize" | "fast_normalize" => {
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
        "fract" => {
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
        "select" => {
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
        "s_mul_hi" | "u_mul_hi" | "s_hadd" | "u_hadd" => {
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
        _ => None,
    }
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
        // Into the runtime: operation SMIN (4), the group operation, kind i32 (32).
        assert!(
            s.contains("@spirv_lift.group(i32 %a0, i32 4, i32 %a1, i32 32,"),
            "{s}"
        );
        assert!(!s.contains("ControlBarrier"));
        assert!(shims(m, |_| true).is_empty());
    }
}
