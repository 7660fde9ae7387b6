//! A type check of single instructions, run as they are built.
//!
//! The lowering derives LLVM types from SPIR-V types; a malformed module can make an
//! instruction's declared result type disagree with its operands (e.g. an `OpFAdd` whose
//! result type is a pointer). Checking each instruction as it is emitted turns that into a
//! typed error at the SPIR-V instruction instead of IR that LLVM rejects.

use super::{Function, Inst, InstKind, Module, Type, TypeId, Value};

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

/// Checks that an instruction's operand and result types agree.
pub fn check_inst(m: &Module, f: &Function, inst: &Inst) -> Result<(), String> {
    let ty = |v: Value| m.value_type(f, v);
    let res = inst.result.map(|l| f.local_ty(l));
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
        InstKind::Cast { to, .. } => want(res == Some(*to), "a conversion"),
        InstKind::Load { ty: t, ptr, .. } => want(is_ptr(ty(*ptr)) && res == Some(*t), "a load"),
        InstKind::Store { ptr, .. } => want(is_ptr(ty(*ptr)), "a store"),
        InstKind::Gep { ptr, .. } => {
            want(is_ptr(ty(*ptr)) && res == Some(ty(*ptr)), "an access chain")
        }
        InstKind::Call {
            callee, args, ret, ..
        } => {
            if let Value::Func(id) = callee {
                let cf = m.func(*id);
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
                    .all(|(p, a)| cf.local_ty(*p) == ty(*a));
                want(arity && params_ok && cf.ret == *ret, "a call's arguments")?;
            }
            want(res.is_none() || res == Some(*ret), "a call's result")
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
        InstKind::Shuffle { a, b, mask } => {
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
        InstKind::InsertValue { v, elt, idx } => want(
            member(m, ty(*v), idx) == Some(ty(*elt)) && res == Some(ty(*v)),
            "a composite insert",
        ),
        InstKind::AtomicRmw { ptr, val, .. } => want(
            is_ptr(ty(*ptr)) && res == Some(ty(*val)),
            "an atomic operation",
        ),
        InstKind::CmpXchg { ptr, cmp, new, .. } => want(
            is_ptr(ty(*ptr)) && ty(*cmp) == ty(*new),
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
        InstKind::Alloca { .. }
        | InstKind::Fence { .. }
        | InstKind::Br { .. }
        | InstKind::Unreachable => Ok(()),
    }
}
