//! A type check of single instructions, run as they are built.
//!
//! The lowering derives LLVM types from SPIR-V types; a malformed module can make an
//! instruction's declared result type disagree with its operands (e.g. an `OpFAdd` whose
//! result type is a pointer). Checking each instruction as it is emitted turns that into a
//! typed error at the SPIR-V instruction instead of IR that LLVM rejects.
//!
//! Beyond operand/result agreement it knows the rules of LLVM's parser and verifier that
//! the lowering can run into on malformed input: cast opcodes valid for their types
//! (`CastInst::castIsValid`), `getelementptr` indices (integers; struct indices constant
//! `i32` in range; only through aggregates), constants whose element count and types
//! match their aggregate type ([`check_const`]), and the overload types of the intrinsics
//! the lowering calls ([`check_intrinsic`]).

use super::{
    CallConv, CastOp, Const, Function, Inst, InstKind, Module, ParamAttr, Type, TypeId, Value,
};

/// What LLVM's verifier requires of a global: an initializer of the global's value type.
pub fn check_global(m: &Module, g: &super::Global) -> Result<(), String> {
    let Some(init) = g.init else { return Ok(()) };
    let init_ty = super::const_type(m.const_of_id(init));
    if init_ty == g.ty {
        return Ok(());
    }
    let (mut have, mut want) = (String::new(), String::new());
    super::write_type_string(m, init_ty, &mut have);
    super::write_type_string(m, g.ty, &mut want);
    Err(format!(
        "the initializer's type {have} is not the variable's type {want}"
    ))
}

/// LLVM's verifier refuses a type of unknown size (`void`, `token`, an identified struct
/// without a body) as what is allocated, loaded, stored or addressed by a
/// `getelementptr`.
fn sized(m: &Module, t: TypeId, what: &str) -> Result<(), String> {
    if matches!(m.type_of_id(t), Type::Void | Type::Token) || m.is_opaque_struct(t) {
        let mut name = String::new();
        super::write_type_string(m, t, &mut name);
        return Err(format!("{what} of {name}, a type of unknown size"));
    }
    Ok(())
}

/// The address space of the stack on amdgcn (its data layout's alloca space).
const AMDGPU_STACK_AS: u32 = 5;

/// What LLVM's verifier requires of a function's signature under its calling convention
/// (`Verifier::visitFunction`): a kernel (`spir_kernel`, `amdgpu_kernel`) returns void
/// and takes no `sret` parameter and no varargs; an `amdgpu_kernel` takes no `byval`
/// parameter and no `byref` one in the stack's address space.
pub fn check_signature(m: &Module, f: &Function) -> Result<(), String> {
    if !matches!(f.cc, CallConv::SpirKernel | CallConv::AmdgpuKernel) {
        return Ok(());
    }
    if !matches!(m.type_of_id(f.ret), Type::Void) {
        return Err("a kernel's calling convention requires a void return type".into());
    }
    if f.vararg {
        return Err("a kernel's calling convention does not take varargs".into());
    }
    for &(i, a) in &f.param_attrs {
        let refused = match a {
            ParamAttr::Sret(_) => Some("sret"),
            ParamAttr::ByVal(_) if f.cc == CallConv::AmdgpuKernel => Some("byval"),
            ParamAttr::ByRef(_) if f.cc == CallConv::AmdgpuKernel => {
                let ty = f.params.get(i as usize).map(|p| f.locals[p.index()].ty);
                let on_stack =
                    ty.is_some_and(|t| matches!(m.type_of_id(t), Type::Ptr(AMDGPU_STACK_AS)));
                on_stack.then_some("byref on the stack")
            }
            _ => None,
        };
        if let Some(what) = refused {
            return Err(format!(
                "a kernel's calling convention does not allow {what} (parameter {i})"
            ));
        }
    }
    Ok(())
}

fn is_int_like(m: &Module, t: TypeId) -> bool {
    match m.type_of_id(t) {
        Type::Int(_) => true,
        Type::Vector(_, e) => matches!(m.type_of_id(*e), Type::Int(_)),
        _ => false,
    }
}

fn is_float_like(m: &Module, t: TypeId) -> bool {
    match m.type_of_id(t) {
        ty if ty.is_float() => true,
        Type::Vector(_, e) => m.type_of_id(*e).is_float(),
        _ => false,
    }
}

fn lanes(m: &Module, t: TypeId) -> Option<u32> {
    match m.type_of_id(t) {
        Type::Vector(n, _) => Some(*n),
        _ => None,
    }
}

fn is_bool_like_of(m: &Module, b: TypeId, of: TypeId) -> bool {
    let bool_ok = |t: TypeId| matches!(m.type_of_id(t), Type::Int(1));
    match (m.type_of_id(b), lanes(m, of)) {
        (Type::Vector(n, e), Some(k)) => *n == k && bool_ok(*e),
        (Type::Int(1), None) => true,
        _ => false,
    }
}

fn is_int(m: &Module, t: TypeId) -> bool {
    matches!(m.type_of_id(t), Type::Int(_))
}

/// Width in bits of a scalar or vector of scalars (pointers count as 64).
fn bits(m: &Module, t: TypeId) -> Option<u64> {
    match m.type_of_id(t) {
        Type::Vector(n, e) => bits(m, *e).map(|b| b * u64::from(*n)),
        Type::Ptr(_) => Some(64),
        ty => ty.scalar_bits().map(u64::from),
    }
}

/// The element type of a vector, or the type itself.
fn scalar_of(m: &Module, t: TypeId) -> TypeId {
    match m.type_of_id(t) {
        Type::Vector(_, e) => *e,
        _ => t,
    }
}

/// Whether `op` may convert `from` to `to` (LLVM's `CastInst::castIsValid`).
fn cast_ok(m: &Module, op: CastOp, from: TypeId, to: TypeId) -> bool {
    let (sf, st) = (scalar_of(m, from), scalar_of(m, to));
    let same_shape = lanes(m, from) == lanes(m, to);
    let w = |t: TypeId| m.type_of_id(t).scalar_bits().unwrap_or(0);
    let int = |t: TypeId| matches!(m.type_of_id(t), Type::Int(_));
    let float = |t: TypeId| m.type_of_id(t).is_float();
    let ptr_as = |t: TypeId| match m.type_of_id(t) {
        Type::Ptr(a) => Some(*a),
        _ => None,
    };
    match op {
        CastOp::Trunc => same_shape && int(sf) && int(st) && w(sf) > w(st),
        CastOp::ZExt | CastOp::SExt => same_shape && int(sf) && int(st) && w(sf) < w(st),
        CastOp::FPTrunc => same_shape && float(sf) && float(st) && w(sf) > w(st),
        CastOp::FPExt => same_shape && float(sf) && float(st) && w(sf) < w(st),
        CastOp::FPToUI | CastOp::FPToSI => same_shape && float(sf) && int(st),
        CastOp::UIToFP | CastOp::SIToFP => same_shape && int(sf) && float(st),
        CastOp::PtrToInt => same_shape && ptr_as(sf).is_some() && int(st),
        CastOp::IntToPtr => same_shape && int(sf) && ptr_as(st).is_some(),
        CastOp::AddrSpaceCast => {
            same_shape && matches!((ptr_as(sf), ptr_as(st)), (Some(a), Some(b)) if a != b)
        }
        CastOp::BitCast => match (ptr_as(sf), ptr_as(st)) {
            (Some(a), Some(b)) => same_shape && a == b,
            (None, None) => {
                let first_class = |t: TypeId| {
                    matches!(m.type_of_id(t), Type::Int(_) | Type::Vector(..))
                        || m.type_of_id(t).is_float()
                };
                first_class(from) && first_class(to) && bits(m, from) == bits(m, to)
            }
            _ => false,
        },
    }
}

/// Whether `getelementptr src, ptr, indices…` is one LLVM reads: integer (not vector)
/// indices, each after the first stepping into an array, a vector or a struct, struct
/// indices constant `i32` in range.
fn gep_ok(m: &Module, f: &Function, src: TypeId, indices: &[Value]) -> bool {
    gep_indices_ok(m, src, indices, |v| m.value_type(f, v))
}

/// [`gep_ok`] with the indices' types given by `type_of` (constants need no function).
fn gep_indices_ok(
    m: &Module,
    src: TypeId,
    indices: &[Value],
    type_of: impl Fn(Value) -> TypeId,
) -> bool {
    if matches!(m.type_of_id(src), Type::Void | Type::Token) {
        return false;
    }
    let mut cur = src;
    for (k, &ix) in indices.iter().enumerate() {
        if !is_int(m, type_of(ix)) {
            return false;
        }
        if k == 0 {
            continue;
        }
        cur = match m.type_of_id(cur) {
            Type::Array(_, e) | Type::Vector(_, e) => *e,
            Type::Struct(_) | Type::Packed(_) | Type::Named(_) => {
                let Value::Const(c) = ix else { return false };
                let (Const::Int(t, v), Some(fields)) = (m.const_of_id(c), m.struct_fields(cur))
                else {
                    return false;
                };
                if m.type_of_id(*t) != &Type::Int(32) {
                    return false;
                }
                match usize::try_from(*v).ok().and_then(|i| fields.get(i)) {
                    Some(t) => *t,
                    None => return false,
                }
            }
            _ => return false,
        };
    }
    true
}

/// Checks that a constant's type holds it: integers fit their width, aggregates have as
/// many elements as their type and of its element types.
pub fn check_const(m: &Module, c: &Const) -> Result<(), String> {
    let of = |id: &super::ConstId| super::const_type(m.const_of_id(*id));
    let ok = match c {
        Const::Int(t, v) => match m.type_of_id(*t) {
            Type::Int(w) => *w >= 64 || *v >> *w == 0,
            _ => false,
        },
        Const::Float(t, _) => m.type_of_id(*t).is_float(),
        Const::Aggregate(t, elems) => match m.type_of_id(*t) {
            Type::Array(n, e) => elems.len() as u64 == *n && elems.iter().all(|x| of(x) == *e),
            Type::Vector(n, e) => elems.len() == *n as usize && elems.iter().all(|x| of(x) == *e),
            Type::Struct(_) | Type::Packed(_) | Type::Named(_) => {
                m.struct_fields(*t).is_some_and(|fields| {
                    fields.len() == elems.len()
                        && fields.iter().zip(elems).all(|(ft, x)| of(x) == *ft)
                })
            }
            _ => false,
        },
        Const::Null(_) | Const::Zero(_) | Const::Undef(_) | Const::Poison(_) => true,
        Const::GlobalAddr(t, g) => m
            .globals
            .get(g.index())
            .is_some_and(|g| m.type_of_id(*t) == &Type::Ptr(g.addrspace)),
        Const::Gep(g) => {
            let indices: Vec<Value> = g.indices.iter().map(|c| Value::Const(*c)).collect();
            of(&g.ptr) == g.ty
                && matches!(m.type_of_id(g.ty), Type::Ptr(_))
                && gep_indices_ok(m, g.src, &indices, |v| match v {
                    Value::Const(c) => of(&c),
                    _ => TypeId(0),
                })
        }
        Const::Cast(op, c, to) => {
            matches!(
                op,
                CastOp::AddrSpaceCast | CastOp::BitCast | CastOp::PtrToInt | CastOp::IntToPtr
            ) && cast_ok(m, *op, of(c), *to)
        }
    };
    if ok {
        Ok(())
    } else {
        let mut ty = String::new();
        super::write_type_string(m, super::const_type(c), &mut ty);
        Err(format!("a constant that its type {ty} cannot hold"))
    }
}

/// What the operands of an intrinsic must be, by the intrinsic's base name.
#[derive(Clone, Copy)]
enum Rule {
    /// `T f(T…)` on floats or float vectors, with this many operands.
    Float(usize),
    /// `T f(T…)` on integers or integer vectors, with this many operands.
    Int(usize),
    /// `T f(T, i1)` on integers (`ctlz`, `cttz`, `abs`).
    IntFlag,
    /// `bswap`: integers of a multiple of 16 bits.
    Bswap,
    /// `i1 is.fpclass(T, i32)`, lanes as T's.
    FpClass,
    /// `I fptosi.sat(F)`: float to integer, same lanes.
    FpToIntSat,
    /// `T ldexp(T, I)` / `powi`: float and integer exponent, same lanes.
    FloatIntExp,
    /// `E vector.reduce.<op>(<N x E>)` on integers (`float`: on floats).
    Reduce { float: bool },
    /// `E vector.reduce.fadd(E, <N x E>)` (and `fmul`): a start value and a float vector.
    ReduceStart,
    /// `{T, i1} <op>.with.overflow(T, T)` on integers (`i1` lanes as T's).
    WithOverflow,
    /// `void memcpy(ptr, ptr, iN, i1)` (and `memmove`).
    Memcpy,
}

/// The intrinsics whose overloads are checked (LLVM LangRef); others are not.
const RULES: &[(&str, Rule)] = &[
    ("fabs", Rule::Float(1)),
    ("sqrt", Rule::Float(1)),
    ("sin", Rule::Float(1)),
    ("cos", Rule::Float(1)),
    ("tan", Rule::Float(1)),
    ("exp", Rule::Float(1)),
    ("exp2", Rule::Float(1)),
    ("exp10", Rule::Float(1)),
    ("log", Rule::Float(1)),
    ("log2", Rule::Float(1)),
    ("log10", Rule::Float(1)),
    ("floor", Rule::Float(1)),
    ("ceil", Rule::Float(1)),
    ("trunc", Rule::Float(1)),
    ("rint", Rule::Float(1)),
    ("nearbyint", Rule::Float(1)),
    ("round", Rule::Float(1)),
    ("roundeven", Rule::Float(1)),
    ("canonicalize", Rule::Float(1)),
    ("pow", Rule::Float(2)),
    ("minnum", Rule::Float(2)),
    ("maxnum", Rule::Float(2)),
    ("minimum", Rule::Float(2)),
    ("maximum", Rule::Float(2)),
    ("copysign", Rule::Float(2)),
    ("fma", Rule::Float(3)),
    ("fmuladd", Rule::Float(3)),
    ("ctpop", Rule::Int(1)),
    ("bitreverse", Rule::Int(1)),
    ("smax", Rule::Int(2)),
    ("smin", Rule::Int(2)),
    ("umax", Rule::Int(2)),
    ("umin", Rule::Int(2)),
    ("sadd.sat", Rule::Int(2)),
    ("uadd.sat", Rule::Int(2)),
    ("ssub.sat", Rule::Int(2)),
    ("usub.sat", Rule::Int(2)),
    ("fshl", Rule::Int(3)),
    ("fshr", Rule::Int(3)),
    ("ctlz", Rule::IntFlag),
    ("cttz", Rule::IntFlag),
    ("abs", Rule::IntFlag),
    ("bswap", Rule::Bswap),
    ("is.fpclass", Rule::FpClass),
    ("fptosi.sat", Rule::FpToIntSat),
    ("fptoui.sat", Rule::FpToIntSat),
    ("ldexp", Rule::FloatIntExp),
    ("powi", Rule::FloatIntExp),
    ("vector.reduce.add", Rule::Reduce { float: false }),
    ("vector.reduce.mul", Rule::Reduce { float: false }),
    ("vector.reduce.and", Rule::Reduce { float: false }),
    ("vector.reduce.or", Rule::Reduce { float: false }),
    ("vector.reduce.xor", Rule::Reduce { float: false }),
    ("vector.reduce.smax", Rule::Reduce { float: false }),
    ("vector.reduce.smin", Rule::Reduce { float: false }),
    ("vector.reduce.umax", Rule::Reduce { float: false }),
    ("vector.reduce.umin", Rule::Reduce { float: false }),
    ("vector.reduce.fmax", Rule::Reduce { float: true }),
    ("vector.reduce.fmin", Rule::Reduce { float: true }),
    ("vector.reduce.fmaximum", Rule::Reduce { float: true }),
    ("vector.reduce.fminimum", Rule::Reduce { float: true }),
    ("vector.reduce.fadd", Rule::ReduceStart),
    ("vector.reduce.fmul", Rule::ReduceStart),
    ("memcpy", Rule::Memcpy),
    ("memmove", Rule::Memcpy),
    ("sadd.with.overflow", Rule::WithOverflow),
    ("uadd.with.overflow", Rule::WithOverflow),
    ("ssub.with.overflow", Rule::WithOverflow),
    ("usub.with.overflow", Rule::WithOverflow),
    ("smul.with.overflow", Rule::WithOverflow),
    ("umul.with.overflow", Rule::WithOverflow),
];

/// Checks a call of `llvm.<base>.<overloads>` against the base's rule: the operand and
/// result types LLVM's verifier accepts for it ("Intrinsic has incorrect argument type").
pub fn check_intrinsic(
    m: &Module,
    name: &str,
    params: &[TypeId],
    ret: TypeId,
) -> Result<(), String> {
    let Some(rest) = name.strip_prefix("llvm.") else {
        return Ok(());
    };
    // The longest base that the name continues with `.` (`sadd.sat` before `sadd`).
    let Some(&(base, rule)) = RULES
        .iter()
        .filter(|(b, _)| {
            rest.strip_prefix(b)
                .is_some_and(|r| r.is_empty() || r.starts_with('.'))
        })
        .max_by_key(|(b, _)| b.len())
    else {
        return Ok(());
    };
    let i1 = |t: TypeId| m.type_of_id(t) == &Type::Int(1);
    let all_ret = |n: usize| params.len() == n && params.iter().all(|p| *p == ret);
    let ok = match rule {
        Rule::Float(n) => is_float_like(m, ret) && all_ret(n),
        Rule::Int(n) => is_int_like(m, ret) && all_ret(n),
        Rule::IntFlag => {
            is_int_like(m, ret) && params.len() == 2 && params[0] == ret && i1(params[1])
        }
        Rule::Bswap => {
            is_int_like(m, ret)
                && all_ret(1)
                && m.type_of_id(scalar_of(m, ret))
                    .scalar_bits()
                    .is_some_and(|b| b % 16 == 0)
        }
        Rule::FpClass => {
            params.len() == 2
                && is_float_like(m, params[0])
                && m.type_of_id(params[1]) == &Type::Int(32)
                && is_bool_like_of(m, ret, params[0])
        }
        Rule::FpToIntSat => {
            params.len() == 1
                && is_float_like(m, params[0])
                && is_int_like(m, ret)
                && lanes(m, ret) == lanes(m, params[0])
        }
        Rule::Reduce { float } => {
            params.len() == 1
                && matches!(m.type_of_id(params[0]), Type::Vector(_, e) if *e == ret)
                && if float {
                    m.type_of_id(ret).is_float()
                } else {
                    is_int(m, ret)
                }
        }
        Rule::ReduceStart => {
            params.len() == 2
                && m.type_of_id(ret).is_float()
                && params[0] == ret
                && matches!(m.type_of_id(params[1]), Type::Vector(_, e) if *e == ret)
        }
        Rule::Memcpy => {
            let ptr = |t: TypeId| matches!(m.type_of_id(t), Type::Ptr(_));
            m.type_of_id(ret) == &Type::Void
                && params.len() == 4
                && ptr(params[0])
                && ptr(params[1])
                && is_int(m, params[2])
                && i1(params[3])
        }
        Rule::WithOverflow => {
            params.len() == 2
                && params[0] == params[1]
                && is_int_like(m, params[0])
                && m.struct_fields(ret).is_some_and(|f| {
                    f.len() == 2 && f[0] == params[0] && is_bool_like_of(m, f[1], params[0])
                })
        }
        Rule::FloatIntExp => {
            params.len() == 2
                && is_float_like(m, ret)
                && params[0] == ret
                && is_int_like(m, params[1])
                && lanes(m, params[1]) == lanes(m, ret)
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("type mismatch in a call of llvm.{base}"))
    }
}

/// The aggregate member type at `idx`.
fn member(m: &Module, t: TypeId, idx: &[u32]) -> Option<TypeId> {
    let mut cur = t;
    for &i in idx {
        cur = match m.type_of_id(cur) {
            Type::Array(n, e) if u64::from(i) < *n => *e,
            Type::Struct(_) | Type::Packed(_) | Type::Named(_) => {
                *m.struct_fields(cur)?.get(i as usize)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

/// Checks a direct call's arguments against the callee's parameters (and an intrinsic's
/// overload); an indirect call has no declaration to check against.
fn check_call(
    m: &Module,
    f: &Function,
    callee: Value,
    args: &[Value],
    ret: TypeId,
) -> Result<(), String> {
    let Value::Func(id) = callee else {
        return Ok(());
    };
    let cf = m.func(id);
    let n = cf.params.len();
    let arity = if cf.vararg {
        args.len() >= n
    } else {
        args.len() == n
    };
    let params_ok = cf
        .params
        .iter()
        .zip(args)
        .all(|(p, a)| cf.local_ty(*p) == m.value_type(f, *a));
    if !(arity && params_ok && cf.ret == ret) {
        return Err("type mismatch in a call's arguments".to_string());
    }
    let params: Vec<TypeId> = cf.params.iter().map(|p| cf.local_ty(*p)).collect();
    check_intrinsic(m, &cf.name, &params, cf.ret)
}

/// Checks that an instruction's operand and result types agree.
pub fn check_inst(m: &Module, f: &Function, inst: &Inst) -> Result<(), String> {
    let ty = |v: Value| m.value_type(f, v);
    let res = inst.result().map(|l| f.local_ty(l));
    let is_ptr = |t: TypeId| matches!(m.type_of_id(t), Type::Ptr(_));
    let want = |cond: bool, what: &str| {
        if cond {
            Ok(())
        } else {
            Err(format!("type mismatch in {what}"))
        }
    };
    match &inst.kind {
        InstKind::Bin { op, a, b, .. } => {
            let t = ty(*a);
            let float_op = matches!(
                op,
                super::BinOp::FAdd
                    | super::BinOp::FSub
                    | super::BinOp::FMul
                    | super::BinOp::FDiv
                    | super::BinOp::FRem
            );
            let kind_ok = if float_op {
                is_float_like(m, t)
            } else {
                is_int_like(m, t)
            };
            want(
                kind_ok && ty(*b) == t && res == Some(t),
                "a binary operation",
            )
        }
        InstKind::FNeg { a } => want(is_float_like(m, ty(*a)) && res == Some(ty(*a)), "fneg"),
        InstKind::ICmp { a, b, .. } => {
            let t = ty(*a);
            let ok = (is_int_like(m, t) || is_ptr(t)) && ty(*b) == t;
            want(
                ok && res.is_some_and(|r| is_bool_like_of(m, r, t)),
                "an integer comparison",
            )
        }
        InstKind::FCmp { a, b, .. } => {
            let t = ty(*a);
            want(
                is_float_like(m, t) && ty(*b) == t && res.is_some_and(|r| is_bool_like_of(m, r, t)),
                "a float comparison",
            )
        }
        InstKind::Select { c, a, b } => {
            let t = ty(*a);
            let cond_ok =
                matches!(m.type_of_id(ty(*c)), Type::Int(1)) || is_bool_like_of(m, ty(*c), t);
            want(cond_ok && ty(*b) == t && res == Some(t), "a select")
        }
        InstKind::Cast { op, v, to } => want(
            res == Some(*to) && cast_ok(m, *op, ty(*v), *to),
            "a conversion",
        ),
        InstKind::Load { ty: t, ptr, .. } => {
            sized(m, *t, "a load")?;
            want(is_ptr(ty(*ptr)) && res == Some(*t), "a load")
        }
        InstKind::Store { val, ptr, .. } => {
            sized(m, ty(*val), "a store")?;
            want(is_ptr(ty(*ptr)), "a store")
        }
        InstKind::Gep {
            ptr, src, indices, ..
        } => {
            sized(m, *src, "an access chain")?;
            want(
                is_ptr(ty(*ptr)) && res == Some(ty(*ptr)) && gep_ok(m, f, *src, indices),
                "an access chain",
            )
        }
        InstKind::Alloca { ty: t, .. } => sized(m, *t, "a variable"),
        InstKind::Call(call) => {
            check_call(m, f, call.callee, &call.args, call.ret)?;
            want(res.is_none() || res == Some(call.ret), "a call's result")
        }
        InstKind::Phi { ty: t, incoming } => want(
            incoming.iter().all(|(v, _)| ty(*v) == *t) && res == Some(*t),
            "a phi",
        ),
        InstKind::ExtractElement { v, idx } => {
            let ok = match m.type_of_id(ty(*v)) {
                Type::Vector(_, e) => res == Some(*e) && is_int_like(m, ty(*idx)),
                _ => false,
            };
            want(ok, "a vector extract")
        }
        InstKind::InsertElement { v, elt, idx } => {
            let ok = match m.type_of_id(ty(*v)) {
                Type::Vector(_, e) => {
                    *e == ty(*elt) && res == Some(ty(*v)) && is_int_like(m, ty(*idx))
                }
                _ => false,
            };
            want(ok, "a vector insert")
        }
        InstKind::Shuffle(s) => {
            let crate::llvm::ShuffleInst { a, b, mask } = &**s;
            let ok = match (m.type_of_id(ty(*a)), res.map(|r| m.type_of_id(r))) {
                (Type::Vector(n, e), Some(Type::Vector(k, re))) => {
                    ty(*a) == ty(*b)
                        && *re == *e
                        && *k as usize == mask.len()
                        && mask.iter().flatten().all(|&i| i < 2 * n)
                }
                _ => false,
            };
            want(ok, "a vector shuffle")
        }
        InstKind::ExtractValue { v, idx } => want(
            member(m, ty(*v), idx).is_some() && member(m, ty(*v), idx) == res,
            "a composite extract",
        ),
        InstKind::InsertValue(iv) => want(
            member(m, ty(iv.v), &iv.idx) == Some(ty(iv.elt)) && res == Some(ty(iv.v)),
            "a composite insert",
        ),
        InstKind::AtomicRmw { ptr, val, .. } => want(
            is_ptr(ty(*ptr)) && res == Some(ty(*val)),
            "an atomic operation",
        ),
        InstKind::CmpXchg(x) => want(
            is_ptr(ty(x.ptr)) && ty(x.cmp) == ty(x.new),
            "a compare-exchange",
        ),
        InstKind::Ret { val } => match val {
            Some(v) => want(ty(*v) == f.ret, "a return"),
            None => want(matches!(m.type_of_id(f.ret), Type::Void), "a return"),
        },
        InstKind::CondBr { c, .. } => want(
            matches!(m.type_of_id(ty(*c)), Type::Int(1)),
            "a conditional branch",
        ),
        InstKind::Switch { v, .. } => {
            want(matches!(m.type_of_id(ty(*v)), Type::Int(_)), "a switch")
        }
        InstKind::Fence { .. } | InstKind::Br { .. } | InstKind::Unreachable => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module() -> Module {
        Module::new("spirv64-unknown-unknown")
    }

    #[test]
    fn intrinsic_overloads_follow_langref() {
        let mut m = module();
        let (i1, i32_, f32_) = (m.ty(Type::Int(1)), m.ty(Type::Int(32)), m.ty(Type::Float));
        let v4f = m.ty(Type::Vector(4, f32_));
        let v4i1 = m.ty(Type::Vector(4, i1));
        let i8_ = m.ty(Type::Int(8));
        // The classes the issue found: smax on floats, sadd.sat on a float vector,
        // fmuladd on integers, is.fpclass on an integer.
        assert!(check_intrinsic(&m, "llvm.smax.f32", &[f32_, f32_], f32_).is_err());
        assert!(check_intrinsic(&m, "llvm.sadd.sat.v4f32", &[v4f, v4f], v4f).is_err());
        assert!(check_intrinsic(&m, "llvm.fmuladd.i32", &[i32_, i32_, i32_], i32_).is_err());
        assert!(check_intrinsic(&m, "llvm.is.fpclass.i32", &[i32_, i32_], i1).is_err());
        assert!(check_intrinsic(&m, "llvm.bswap.i8", &[i8_], i8_).is_err());
        assert!(check_intrinsic(&m, "llvm.ctlz.i32", &[i32_], i32_).is_err());
        // And what LLVM takes.
        assert!(check_intrinsic(&m, "llvm.smax.i32", &[i32_, i32_], i32_).is_ok());
        assert!(check_intrinsic(&m, "llvm.sadd.sat.i32", &[i32_, i32_], i32_).is_ok());
        assert!(check_intrinsic(&m, "llvm.fmuladd.v4f32", &[v4f, v4f, v4f], v4f).is_ok());
        assert!(check_intrinsic(&m, "llvm.is.fpclass.v4f32", &[v4f, i32_], v4i1).is_ok());
        assert!(check_intrinsic(&m, "llvm.ctlz.i32", &[i32_, i1], i32_).is_ok());
        assert!(check_intrinsic(&m, "llvm.fptosi.sat.i32.f32", &[f32_], i32_).is_ok());
        // The campaign's: a reduction whose result is the vector, an overflow
        // intrinsic on floats.
        let v2i = m.ty(Type::Vector(2, i32_));
        assert!(check_intrinsic(&m, "llvm.vector.reduce.or.v2i32", &[v2i], v2i).is_err());
        assert!(check_intrinsic(&m, "llvm.vector.reduce.or.v2i32", &[v2i], i32_).is_ok());
        let pair = m.ty(Type::Struct(vec![i32_, i1]));
        let fpair = m.ty(Type::Struct(vec![f32_, i1]));
        assert!(check_intrinsic(&m, "llvm.uadd.with.overflow.i32", &[i32_, i32_], pair).is_ok());
        assert!(check_intrinsic(&m, "llvm.uadd.with.overflow.f32", &[f32_, f32_], fpair).is_err());
        assert!(check_intrinsic(&m, "llvm.uadd.with.overflow.i32", &[i32_, i32_], i1).is_err());
        // Names without a rule are not judged.
        assert!(check_intrinsic(&m, "llvm.amdgcn.ballot.i32", &[i1], i32_).is_ok());
    }

    #[test]
    fn types_of_unknown_size_are_never_allocated_loaded_stored_or_addressed() {
        // LLVM's verifier: "Cannot allocate unsized type", "loading unsized types is not
        // allowed", "base element of getelementptr must be sized".
        let mut m = module();
        let opaque = m.new_opaque_struct("thing");
        let (i8_, i32_, p) = (m.ty(Type::Int(8)), m.ty(Type::Int(32)), m.ty(Type::Ptr(0)));
        let void = m.ty(Type::Void);
        let mut f = Function::default();
        let ptr = f.new_local("p", p);
        let alloca = |ty| InstKind::Alloca {
            ty,
            addrspace: 0,
            align: None,
        };
        let load = |ty| InstKind::Load {
            ty,
            ptr: Value::Local(ptr),
            align: None,
            volatile: false,
            atomic: None,
        };
        let gep = |src| InstKind::Gep {
            inbounds: true,
            src,
            ptr: Value::Local(ptr),
            indices: Box::new([]),
        };
        for ty in [opaque, void] {
            let r = f.new_local("r", p);
            let err = check_inst(&m, &f, &Inst::new(Some(r), alloca(ty))).unwrap_err();
            assert!(err.contains("unknown size"), "{err}");
            let l = f.new_local("l", ty);
            assert!(check_inst(&m, &f, &Inst::new(Some(l), load(ty))).is_err());
            let g = f.new_local("g", p);
            assert!(check_inst(&m, &f, &Inst::new(Some(g), gep(ty))).is_err());
        }
        // What has a size passes.
        let r = f.new_local("r", p);
        assert!(check_inst(&m, &f, &Inst::new(Some(r), alloca(i8_))).is_ok());
        let l = f.new_local("l", i32_);
        assert!(check_inst(&m, &f, &Inst::new(Some(l), load(i32_))).is_ok());
    }

    #[test]
    fn a_global_initializer_has_the_global_s_type() {
        let mut m = module();
        let (p1, p2) = (m.ty(Type::Ptr(1)), m.ty(Type::Ptr(2)));
        let null1 = m.constant(Const::Null(p1));
        let global = |ty, init| super::super::Global {
            name: String::new(),
            ty,
            addrspace: 1,
            init,
            constant: false,
            thread_local: false,
            linkage: super::super::Linkage::External,
            align: None,
            md: Vec::new(),
        };
        assert!(check_global(&m, &global(p1, Some(null1))).is_ok());
        assert!(check_global(&m, &global(p2, None)).is_ok());
        // The campaign's: an addrspace(2) pointer initialized with an address in 1.
        let err = check_global(&m, &global(p2, Some(null1))).unwrap_err();
        assert!(
            err.contains("ptr addrspace(1)") && err.contains("ptr addrspace(2)"),
            "{err}"
        );
    }

    #[test]
    fn kernel_signatures_follow_the_verifier() {
        use CallConv::{AmdgpuKernel as Amd, SpirFunc, SpirKernel as Spir};
        let mut m = module();
        let (void, i32_) = (m.ty(Type::Void), m.ty(Type::Int(32)));
        let (global, stack) = (m.ty(Type::Ptr(1)), m.ty(Type::Ptr(5)));
        // (return type, calling convention, one parameter's type and attribute, accepted)
        let cases = [
            (void, Spir, Some((global, None)), true),
            (i32_, Spir, None, false),
            (i32_, Amd, None, false),
            (i32_, SpirFunc, None, true),
            (
                void,
                Spir,
                Some((global, Some(ParamAttr::Sret(i32_)))),
                false,
            ),
            (
                void,
                Spir,
                Some((global, Some(ParamAttr::ByVal(i32_)))),
                true,
            ),
            (
                void,
                Amd,
                Some((global, Some(ParamAttr::ByVal(i32_)))),
                false,
            ),
            (
                void,
                Amd,
                Some((global, Some(ParamAttr::ByRef(i32_)))),
                true,
            ),
            (
                void,
                Amd,
                Some((stack, Some(ParamAttr::ByRef(i32_)))),
                false,
            ),
        ];
        for (i, (ret, cc, param, ok)) in cases.into_iter().enumerate() {
            let id = m.add_function("k", ret, cc);
            let f = m.func_mut(id);
            if let Some((t, attr)) = param {
                let l = f.new_local("p", t);
                f.push_param(l, attr);
            }
            assert_eq!(check_signature(&m, m.func(id)).is_ok(), ok, "case {i}");
        }
    }

    #[test]
    fn casts_follow_cast_is_valid() {
        let mut m = module();
        let (i32_, i64_, f32_) = (m.ty(Type::Int(32)), m.ty(Type::Int(64)), m.ty(Type::Float));
        let v4i = m.ty(Type::Vector(4, i32_));
        let v2i = m.ty(Type::Vector(2, i32_));
        let (p1, p3) = (m.ty(Type::Ptr(1)), m.ty(Type::Ptr(3)));
        assert!(!cast_ok(&m, CastOp::BitCast, i64_, v4i)); // 64 vs 128 bits
        assert!(cast_ok(&m, CastOp::BitCast, i64_, v2i));
        assert!(!cast_ok(&m, CastOp::ZExt, p1, i64_));
        assert!(!cast_ok(&m, CastOp::ZExt, i64_, i32_));
        assert!(cast_ok(&m, CastOp::ZExt, i32_, i64_));
        assert!(!cast_ok(&m, CastOp::BitCast, p1, i64_));
        assert!(cast_ok(&m, CastOp::PtrToInt, p1, i64_));
        assert!(!cast_ok(&m, CastOp::AddrSpaceCast, p1, p1));
        assert!(cast_ok(&m, CastOp::AddrSpaceCast, p1, p3));
        assert!(!cast_ok(&m, CastOp::FPToSI, i32_, f32_));
        assert!(cast_ok(&m, CastOp::SIToFP, i32_, f32_));
        assert!(!cast_ok(&m, CastOp::SIToFP, v4i, f32_));
    }

    #[test]
    fn constants_match_their_types() {
        let mut m = module();
        let i8_ = m.ty(Type::Int(8));
        let arr = m.ty(Type::Array(3, i8_));
        let big = m.ty(Type::Array(u64::MAX - 5, i8_));
        let v2 = m.ty(Type::Vector(2, i8_));
        let x = m.constant(Const::Int(i8_, 7));
        assert!(check_const(&m, &Const::Aggregate(arr, vec![x; 3].into())).is_ok());
        assert!(check_const(&m, &Const::Aggregate(arr, vec![x; 2].into())).is_err());
        assert!(check_const(&m, &Const::Aggregate(big, vec![x; 3].into())).is_err());
        assert!(check_const(&m, &Const::Aggregate(v2, vec![x; 3].into())).is_err());
        assert!(check_const(&m, &Const::Int(i8_, 256)).is_err());
        assert!(check_const(&m, &Const::Int(i8_, 255)).is_ok());
    }
}
