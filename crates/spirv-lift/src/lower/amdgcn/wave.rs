//! Subgroup operations on `--target amdgcn` as AMDGPU wave intrinsics (a subgroup is a
//! wave). Operations without a direct mapping, and group operations at other scopes,
//! stay `__spirv_*` builtin calls.
//!
//! | SPIR-V (Subgroup scope) | AMDGPU |
//! |---|---|
//! | `GroupNonUniformBallot`, `SubgroupBallotKHR` | `llvm.amdgcn.ballot.i64` → `<lo, hi, 0, 0>` |
//! | `GroupNonUniformAll`, `SubgroupAllKHR` | `ballot(p) == ballot(true)` |
//! | `GroupNonUniformAny`, `SubgroupAnyKHR` | `ballot(p) != 0` |
//! | `GroupNonUniformAllEqual`, `SubgroupAllEqualKHR` | all of `x == readfirstlane(x)` (bitwise) |
//! | `GroupNonUniformElect` | `lane == readfirstlane(lane)` |
//! | `GroupNonUniformBroadcastFirst`, `SubgroupFirstInvocationKHR` | `llvm.amdgcn.readfirstlane.i32` |
//! | `GroupNonUniformBroadcast`, `SubgroupReadInvocationKHR` | `llvm.amdgcn.readlane.i32` (the lane is uniform by the SPIR-V rules) |
//! | OpenCL's `GroupAll` / `GroupAny` / `GroupBroadcast` (scalar id) / `GroupUMin` / `GroupUMax` | as the non-uniform forms |
//! | `GroupNonUniformBallotBitExtract` / `BitCount` (reduce, scans) / `FindLSB` / `FindMSB`, `InverseBallot` | bit arithmetic on the ballot as an `i128` (`llvm.ctpop` / `cttz` / `ctlz`), lanes below `wavefrontsize` |
//! | `GroupNonUniformUMin` / `UMax`, `Reduce` of an `i32` | `llvm.amdgcn.wave.reduce.umin` / `umax.i32(x, 0)` |
//! | `GroupNonUniformShuffle` / `Xor` / `Up` / `Down` | `llvm.amdgcn.ds.bpermute(4 × source lane, x)` with source lane `id` / `lane ^ m` / `lane − d` / `lane + d` |
//! | `GroupNonUniformQuadBroadcast` / `QuadSwap` | the same with source lane `(lane & ~3) \| i` / `lane ^ (direction + 1)` |
//!
//! The ballot is 64 bits wide whatever the wave size (gfx942 runs wave64; on wave32
//! targets such as gfx1100 the upper half is 0). Lane intrinsics are used on `i32` only:
//! wider scalars are split into 32-bit pieces, narrower ones widened, vectors done per
//! element (LLVM 22 crashes on `readfirstlane.i64` for gfx1100). These intrinsics are
//! convergent, so they get convergence tokens like every convergent call.

use crate::Target;
use crate::error::Error;
use crate::llvm::{BinOp, CastOp, Const, IPred, InstKind, Type, TypeId, Value};
use crate::lower::func::FnCtx;
use crate::spirv::{Inst, Op, Operand};
use ::spirv::Scope;

/// A per-lane 32-bit operation applied to each piece of a value.
#[derive(Clone, Copy)]
enum LaneOp {
    ReadFirstLane,
    ReadLane(Value),
    /// `ds.bpermute` with this byte address.
    Permute(Value),
}

impl FnCtx<'_, '_> {
    /// Lowers a subgroup operation to AMDGPU intrinsics when one maps to it; `false`
    /// leaves it to the builtin call.
    pub fn lower_amdgcn_subgroup(&mut self, inst: &Inst) -> Result<bool, Error> {
        if self.cx.opts.target != Target::Amdgcn {
            return Ok(false);
        }
        let first = match inst.op {
            Op::GroupNonUniformElect
            | Op::GroupNonUniformBallot
            | Op::GroupNonUniformAll
            | Op::GroupNonUniformAny
            | Op::GroupNonUniformAllEqual
            | Op::GroupNonUniformBroadcastFirst
            | Op::GroupNonUniformBroadcast
            | Op::GroupNonUniformShuffle
            | Op::GroupNonUniformShuffleXor
            | Op::GroupNonUniformShuffleUp
            | Op::GroupNonUniformShuffleDown
            | Op::GroupNonUniformQuadBroadcast
            | Op::GroupNonUniformQuadSwap
            | Op::GroupNonUniformUMin
            | Op::GroupNonUniformUMax
            | Op::GroupAll
            | Op::GroupAny
            | Op::GroupBroadcast
            | Op::GroupUMin
            | Op::GroupUMax
            | Op::GroupNonUniformBallotBitExtract
            | Op::GroupNonUniformBallotBitCount
            | Op::GroupNonUniformBallotFindLSB
            | Op::GroupNonUniformBallotFindMSB
            | Op::GroupNonUniformInverseBallot => {
                if self.cx.const_int(inst.id(0)?) != Some(Scope::Subgroup as u64) {
                    return Ok(false);
                }
                1
            }
            Op::SubgroupBallotKHR
            | Op::SubgroupFirstInvocationKHR
            | Op::SubgroupReadInvocationKHR
            | Op::SubgroupAllKHR
            | Op::SubgroupAnyKHR
            | Op::SubgroupAllEqualKHR => 0,
            _ => return Ok(false),
        };
        let i32t = self.cx.m.ty(Type::Int(32));
        if let Some(r) = self.ballot_query(inst)? {
            self.define(inst, r)?;
            return Ok(true);
        }
        let r = match inst.op {
            Op::GroupNonUniformUMin | Op::GroupNonUniformUMax | Op::GroupUMin | Op::GroupUMax => {
                // Only a whole-wave reduction of an i32 has an intrinsic in LLVM 19 and 22.
                let reduce = matches!(
                    inst.operand(1)?,
                    Operand::GroupOperation(::spirv::GroupOperation::Reduce)
                ) && inst.operands.len() == 3;
                let v = self.val(inst.id(2)?)?;
                if !reduce || self.ll_type_of(v) != i32t {
                    return Ok(false);
                }
                let name = if matches!(inst.op, Op::GroupNonUniformUMin | Op::GroupUMin) {
                    "amdgcn.wave.reduce.umin"
                } else {
                    "amdgcn.wave.reduce.umax"
                };
                let strategy = self.cx.i32_val(0);
                self.intrinsic(name, &[i32t], i32t, vec![v, strategy])?
            }
            Op::GroupNonUniformElect => {
                let lane = self.amdgcn_lane_id()?;
                let first = self.lane_op(lane, LaneOp::ReadFirstLane)?;
                self.cmp_i(IPred::Eq, lane, first)
            }
            Op::GroupNonUniformBallot | Op::SubgroupBallotKHR => {
                let p = self.val(inst.id(first)?)?;
                if !self.is_i1(p) {
                    return Ok(false);
                }
                let b = self.ballot(p)?;
                self.ballot_vector(b, self.cx.llty(inst.rty()?)?)?
            }
            Op::GroupNonUniformAll | Op::SubgroupAllKHR | Op::GroupAll => {
                let p = self.val(inst.id(first)?)?;
                if !self.is_i1(p) {
                    return Ok(false);
                }
                self.all(p)?
            }
            Op::GroupNonUniformAny | Op::SubgroupAnyKHR | Op::GroupAny => {
                let p = self.val(inst.id(first)?)?;
                if !self.is_i1(p) {
                    return Ok(false);
                }
                let b = self.ballot(p)?;
                let i64t = self.cx.m.ty(Type::Int(64));
                let zero = Value::Const(self.cx.int_const(i64t, 0));
                self.cmp_i(IPred::Ne, b, zero)
            }
            Op::GroupNonUniformAllEqual | Op::SubgroupAllEqualKHR => {
                let v = self.val(inst.id(first)?)?;
                if !self.lane_mappable(self.ll_type_of(v)) {
                    return Ok(false);
                }
                let f = self.lane_op(v, LaneOp::ReadFirstLane)?;
                let eq = self.bits_equal(v, f)?;
                self.all(eq)?
            }
            Op::GroupNonUniformBroadcastFirst | Op::SubgroupFirstInvocationKHR => {
                let v = self.val(inst.id(first)?)?;
                if !self.lane_mappable(self.ll_type_of(v)) {
                    return Ok(false);
                }
                self.lane_op(v, LaneOp::ReadFirstLane)?
            }
            Op::GroupNonUniformBroadcast | Op::SubgroupReadInvocationKHR | Op::GroupBroadcast => {
                let v = self.val(inst.id(first)?)?;
                let l = self.val(inst.id(first + 1)?)?;
                let scalar_lane = matches!(self.cx.m.type_of_id(self.ll_type_of(l)), Type::Int(_));
                if !self.lane_mappable(self.ll_type_of(v)) || !scalar_lane {
                    return Ok(false);
                }
                let l = self.resize_int(l, i32t, false);
                self.lane_op(v, LaneOp::ReadLane(l))?
            }
            _ => match self.wave_shuffle(inst, first)? {
                Some(r) => r,
                None => return Ok(false),
            },
        };
        self.define(inst, r)?;
        Ok(true)
    }

    /// The shuffles and quad operations: `ds.bpermute` from the source lane (`None`:
    /// left to the builtin).
    fn wave_shuffle(&mut self, inst: &Inst, first: usize) -> Result<Option<Value>, Error> {
        let i32t = self.cx.m.ty(Type::Int(32));
        let v = self.val(inst.id(first)?)?;
        if !self.lane_mappable(self.ll_type_of(v)) {
            return Ok(None);
        }
        let x = self.val(inst.id(first + 1)?)?;
        let x = self.resize_int(x, i32t, false);
        let src = match inst.op {
            Op::GroupNonUniformShuffle => x,
            Op::GroupNonUniformShuffleXor => {
                let lane = self.amdgcn_lane_id()?;
                self.bin(BinOp::Xor, lane, x)
            }
            Op::GroupNonUniformShuffleUp => {
                let lane = self.amdgcn_lane_id()?;
                self.bin(BinOp::Sub, lane, x)
            }
            Op::GroupNonUniformQuadBroadcast => {
                // The quad's first lane plus the index.
                let lane = self.amdgcn_lane_id()?;
                let mask = Value::Const(self.cx.int_const(i32t, !3u64));
                let base = self.bin(BinOp::And, lane, mask);
                self.bin(BinOp::Or, base, x)
            }
            Op::GroupNonUniformQuadSwap => {
                // Direction 0 (horizontal) swaps lanes ^1, 1 (vertical) ^2, 2 (diagonal) ^3.
                let Some(d @ 0..=2) = self.cx.const_int(inst.id(first + 1)?) else {
                    return Ok(None);
                };
                let lane = self.amdgcn_lane_id()?;
                let m = Value::Const(self.cx.int_const(i32t, d + 1));
                self.bin(BinOp::Xor, lane, m)
            }
            _ => {
                let lane = self.amdgcn_lane_id()?;
                self.bin(BinOp::Add, lane, x)
            }
        };
        let two = Value::Const(self.cx.int_const(i32t, 2));
        let addr = self.bin(BinOp::Shl, src, two);
        self.lane_op(v, LaneOp::Permute(addr)).map(Some)
    }

    /// The ballot queries: plain bit arithmetic on the ballot as an `i128` (element 0
    /// in the low bits), with the wave's lanes as the subgroup. `Ok(None)` for the other
    /// instructions and for forms left to the builtin (a non-`<4 x i32>` value, a
    /// clustered bit count).
    fn ballot_query(&mut self, inst: &Inst) -> Result<Option<Value>, Error> {
        let value_at = match inst.op {
            Op::GroupNonUniformBallotBitCount => 2,
            Op::GroupNonUniformBallotBitExtract
            | Op::GroupNonUniformBallotFindLSB
            | Op::GroupNonUniformBallotFindMSB
            | Op::GroupNonUniformInverseBallot => 1,
            _ => return Ok(None),
        };
        let v = self.val(inst.id(value_at)?)?;
        let (i32t, i128t) = (self.cx.m.ty(Type::Int(32)), self.cx.m.ty(Type::Int(128)));
        let v4 = self.cx.m.ty(Type::Vector(4, i32t));
        if self.ll_type_of(v) != v4 {
            return Ok(None);
        }
        let op = match (inst.op, inst.operand(1)?) {
            (Op::GroupNonUniformBallotBitCount, Operand::GroupOperation(g)) => Some(*g),
            (Op::GroupNonUniformBallotBitCount, _) => return Ok(None),
            _ => None,
        };
        let bits = self.cast(CastOp::BitCast, v, i128t);
        let rty = self.cx.llty(inst.rty()?)?;
        let one = Value::Const(self.cx.int_const(i128t, 1));
        let r = match inst.op {
            Op::GroupNonUniformBallotBitExtract | Op::GroupNonUniformInverseBallot => {
                let idx = if inst.op == Op::GroupNonUniformInverseBallot {
                    self.amdgcn_lane_id()?
                } else {
                    let i = self.val(inst.id(2)?)?;
                    self.resize_int(i, i32t, false)
                };
                let idx = self.resize_int(idx, i128t, false);
                let sh = self.bin(BinOp::LShr, bits, idx);
                let bit = self.bin(BinOp::And, sh, one);
                let zero = Value::Const(self.cx.int_const(i128t, 0));
                self.cmp_i(IPred::Ne, bit, zero)
            }
            Op::GroupNonUniformBallotBitCount => {
                use ::spirv::GroupOperation as G;
                let mask = match op {
                    Some(G::Reduce) => self.wave_mask()?,
                    Some(G::InclusiveScan | G::ExclusiveScan) => {
                        let lane = self.amdgcn_lane_id()?;
                        let lane = self.resize_int(lane, i128t, false);
                        let base = if op == Some(G::InclusiveScan) { 2 } else { 1 };
                        let base = Value::Const(self.cx.int_const(i128t, base));
                        let shifted = self.bin(BinOp::Shl, base, lane);
                        self.bin(BinOp::Sub, shifted, one)
                    }
                    _ => return Ok(None),
                };
                let masked = self.bin(BinOp::And, bits, mask);
                let n = self.intrinsic("ctpop", &[i128t], i128t, vec![masked])?;
                self.resize_int(n, rty, false)
            }
            _ => {
                let mask = self.wave_mask()?;
                let masked = self.bin(BinOp::And, bits, mask);
                let f = self.bool_const(false);
                if inst.op == Op::GroupNonUniformBallotFindLSB {
                    let n = self.intrinsic("cttz", &[i128t], i128t, vec![masked, f])?;
                    self.resize_int(n, rty, false)
                } else {
                    let n = self.intrinsic("ctlz", &[i128t], i128t, vec![masked, f])?;
                    let n = self.resize_int(n, rty, false);
                    let top = Value::Const(self.cx.int_const(rty, 127));
                    self.bin(BinOp::Sub, top, n)
                }
            }
        };
        Ok(Some(r))
    }

    /// The bits of the wave's lanes, `(1 << wavefrontsize) - 1`, as an `i128`.
    fn wave_mask(&mut self) -> Result<Value, Error> {
        let (i32t, i128t) = (self.cx.m.ty(Type::Int(32)), self.cx.m.ty(Type::Int(128)));
        let w = self.intrinsic("amdgcn.wavefrontsize", &[], i32t, Vec::new())?;
        let w = self.resize_int(w, i128t, false);
        let one = Value::Const(self.cx.int_const(i128t, 1));
        let s = self.bin(BinOp::Shl, one, w);
        Ok(self.bin(BinOp::Sub, s, one))
    }

    fn is_i1(&self, v: Value) -> bool {
        matches!(self.cx.m.type_of_id(self.ll_type_of(v)), Type::Int(1))
    }

    /// `llvm.amdgcn.ballot.i64(p)`.
    fn ballot(&mut self, p: Value) -> Result<Value, Error> {
        let i64t = self.cx.m.ty(Type::Int(64));
        self.intrinsic("amdgcn.ballot", &[i64t], i64t, vec![p])
    }

    /// Whether `p` holds in every active lane: `ballot(p) == ballot(true)`.
    fn all(&mut self, p: Value) -> Result<Value, Error> {
        let b = self.ballot(p)?;
        let t = self.bool_const(true);
        let active = self.ballot(t)?;
        Ok(self.cmp_i(IPred::Eq, b, active))
    }

    /// A 64-bit ballot as the SPIR-V result vector `<lo, hi, 0, …>` of 32-bit lanes.
    fn ballot_vector(&mut self, b: Value, ty: TypeId) -> Result<Value, Error> {
        let Type::Vector(n, elem) = self.cx.m.type_of_id(ty).clone() else {
            return Err(crate::error::invalid("a ballot's result is not a vector"));
        };
        let i64t = self.cx.m.ty(Type::Int(64));
        let lo = self.resize_int(b, elem, false);
        let sh = Value::Const(self.cx.int_const(i64t, 32));
        let hi64 = self.bin(BinOp::LShr, b, sh);
        let hi = self.resize_int(hi64, elem, false);
        let mut v = Value::Const(self.cx.m.constant(Const::Zero(ty)));
        for (i, x) in [lo, hi].into_iter().enumerate().take(n as usize) {
            let idx = self.cx.i32_val(i as u64);
            v = self.emit("t", ty, InstKind::InsertElement { v, elt: x, idx });
        }
        Ok(v)
    }

    /// Whether [`Self::lane_op`] handles values of type `t`.
    fn lane_mappable(&self, t: TypeId) -> bool {
        match self.cx.m.type_of_id(t) {
            Type::Int(n) => matches!(n, 1 | 8 | 16 | 32 | 64),
            Type::Half | Type::BFloat | Type::Float | Type::Double => true,
            Type::Vector(_, e) => self.lane_mappable(*e),
            _ => false,
        }
    }

    /// Applies a 32-bit lane operation to every 32-bit piece of `v`.
    fn lane_op(&mut self, v: Value, op: LaneOp) -> Result<Value, Error> {
        let t = self.ll_type_of(v);
        let i32t = self.cx.m.ty(Type::Int(32));
        match self.cx.m.type_of_id(t).clone() {
            Type::Int(32) => self.lane_op_i32(v, op),
            Type::Int(64) | Type::Double => {
                let v2 = self.cx.m.ty(Type::Vector(2, i32t));
                let parts = self.cast(CastOp::BitCast, v, v2);
                let r = self.lane_op(parts, op)?;
                Ok(self.cast(CastOp::BitCast, r, t))
            }
            Type::Float => {
                let x = self.cast(CastOp::BitCast, v, i32t);
                let r = self.lane_op_i32(x, op)?;
                Ok(self.cast(CastOp::BitCast, r, t))
            }
            Type::Half | Type::BFloat => {
                let i16t = self.cx.m.ty(Type::Int(16));
                let x = self.cast(CastOp::BitCast, v, i16t);
                let r = self.lane_op(x, op)?;
                Ok(self.cast(CastOp::BitCast, r, t))
            }
            Type::Int(_) => {
                let x = self.resize_int(v, i32t, false);
                let r = self.lane_op_i32(x, op)?;
                Ok(self.resize_int(r, t, false))
            }
            Type::Vector(n, _) => {
                let mut out = Value::Const(self.cx.m.constant(Const::Poison(t)));
                for i in 0..u64::from(n) {
                    let idx = self.cx.i32_val(i);
                    let e = self.emit_elem(v, idx);
                    let r = self.lane_op(e, op)?;
                    out = self.emit(
                        "t",
                        t,
                        InstKind::InsertElement {
                            v: out,
                            elt: r,
                            idx,
                        },
                    );
                }
                Ok(out)
            }
            _ => Err(crate::error::invalid(
                "a subgroup operation on a type without lanes",
            )),
        }
    }

    fn lane_op_i32(&mut self, x: Value, op: LaneOp) -> Result<Value, Error> {
        let i32t = self.cx.m.ty(Type::Int(32));
        match op {
            LaneOp::ReadFirstLane => self.intrinsic("amdgcn.readfirstlane", &[i32t], i32t, vec![x]),
            LaneOp::ReadLane(l) => self.intrinsic("amdgcn.readlane", &[i32t], i32t, vec![x, l]),
            LaneOp::Permute(addr) => self.intrinsic("amdgcn.ds.bpermute", &[], i32t, vec![addr, x]),
        }
    }

    /// `a` and `b` have the same bits (all elements, for vectors): one `i1`.
    fn bits_equal(&mut self, a: Value, b: Value) -> Result<Value, Error> {
        let t = self.ll_type_of(a);
        let bits = self.bit_width(t);
        let it = self.cx.m.ty(Type::Int(bits));
        let (a, b) = if self.cx.m.type_of_id(t) == &Type::Int(bits) {
            (a, b)
        } else {
            (
                self.cast(CastOp::BitCast, a, it),
                self.cast(CastOp::BitCast, b, it),
            )
        };
        Ok(self.cmp_i(IPred::Eq, a, b))
    }

    /// Total bit width of a scalar or vector type.
    fn bit_width(&self, t: TypeId) -> u32 {
        match self.cx.m.type_of_id(t) {
            Type::Vector(n, e) => n * self.bit_width(*e),
            other => other.scalar_bits().unwrap_or(32),
        }
    }

    fn cast(&mut self, op: CastOp, v: Value, to: TypeId) -> Value {
        self.emit("t", to, InstKind::Cast { op, v, to })
    }

    fn emit_elem(&mut self, v: Value, idx: Value) -> Value {
        let t = self.ll_type_of(v);
        let e = self.elem_of(t);
        self.emit("t", e, InstKind::ExtractElement { v, idx })
    }
}
