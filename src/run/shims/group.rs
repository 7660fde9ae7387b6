//! Group and subgroup operations: calls into the runtime's `spirv_lift.group` (and the
//! ballot entry points), one per vector lane.

use super::{Body, Decl, Needs, Ty, from_bits, kind_of, to_bits};
use std::fmt::Write as _;

/// `OpGroupNonUniformBallot`: the runtime writes the `<4 x i32>` mask.
fn ballot(scope: &str, a: &[String], b: &mut Body, needs: &mut Needs) -> Option<String> {
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
    Some(b.op(format_args!("load <4 x i32>, ptr {out}")))
}

/// The ballot queries (`InverseBallot`, `BallotBitExtract`, `BallotBitCount`,
/// `BallotFind{LSB,MSB}`): one call of `spirv_lift.ballot_query` on the mask.
fn ballot_query(
    name: &str,
    d: &Decl,
    a: &[String],
    b: &mut Body,
    needs: &mut Needs,
) -> Option<String> {
    use super::super::groups::op as g;
    // (query, group operation, index of the mask, index of the bit index).
    let (qop, group_op, mask_at, index_at) = match name {
        "InverseBallot" => (g::INVERSE_BALLOT, "0".to_string(), 1, None),
        "BallotBitExtract" => (g::BIT_EXTRACT, "0".to_string(), 1, Some(2)),
        "BallotBitCount" => (g::BIT_COUNT, a.get(1)?.clone(), 2, None),
        "BallotFindLSB" => (g::FIND_LSB, "0".to_string(), 1, None),
        "BallotFindMSB" => (g::FIND_MSB, "0".to_string(), 1, None),
        _ => return None,
    };
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
    Some(match d.ret {
        Ty::Int(32) => r,
        Ty::Int(w) if w < 32 => b.op(format_args!("trunc i32 {r} to i{w}")),
        Ty::Int(w) => b.op(format_args!("zext i32 {r} to i{w}")),
        _ => return None,
    })
}

/// `OpGroup*` and `OpGroupNonUniform*`: calls into the runtime (src/run/groups.rs), one
/// per vector lane, with the call site's return address identifying the operation.
pub(super) fn group(
    op: &str,
    d: &Decl,
    a: &[String],
    b: &mut Body,
    needs: &mut Needs,
) -> Option<String> {
    use super::super::groups::op as g;
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
    match name {
        "Ballot" => return ballot(scope, a, b, needs),
        "InverseBallot" | "BallotBitExtract" | "BallotBitCount" | "BallotFindLSB"
        | "BallotFindMSB" => return ballot_query(name, d, a, b, needs),
        _ => {}
    }
    let ret = &d.ret;
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
