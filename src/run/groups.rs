//! Group operations of `spirv-lift run`: work-group collectives (`OpGroup*` with
//! Workgroup scope: OpenCL's `work_group_reduce/scan/broadcast/all/any`) and subgroup
//! operations (`OpGroup*` and `OpGroupNonUniform*` with Subgroup scope) at any subgroup
//! size (README "Running translated code").
//!
//! The translation calls `__spirv_Group*` builtins; `shims/group.rs` defines each, for the
//! signature the module declares, as calls into this file, one per vector lane:
//! - `i64 spirv_lift.group(i32 scope, i32 op, i32 group_op, i32 kind, i64 value, i64 x,
//!   i64 y, i64 z, ptr site)`: `value` is the lane's bits (zero-extended), `kind = class
//!   << 8 | bits` (class 0 integer, 1 float, 2 boolean), `x, y, z` the operation's other
//!   operand (a broadcast's local id, a shuffle's lane, a cluster size), `site` the return
//!   address of the call in the translated code.
//! - `void spirv_lift.group_ballot(i32 scope, i32 predicate, ptr site, ptr out)` writes the
//!   `uvec4` ballot; `i32 spirv_lift.ballot_query(i32 op, i32 group_op, ptr mask, i32
//!   index)` answers the ballot queries from the mask and this invocation's lane.
//!
//! **Work-group scope**: every invocation of the group contributes; the call waits for
//! all of them (the module then runs with a thread per invocation, as with barriers).
//!
//! **Subgroup scope**: the invocations of a subgroup are the consecutive local indices
//! `id * size … id * size + size - 1`. A lane that reaches a subgroup operation waits
//! until no lane of its subgroup is running (each is waiting at a subgroup operation,
//! waiting at a work-group barrier or collective, or has returned); then the lanes
//! waiting at the call site with the lowest address execute the operation together as
//! its active set, and the others keep waiting. The translation lays blocks out in
//! reverse post-order (both sides of an `if` before their merge, a loop's body before
//! its exit), so this gives the non-uniform operations their active set in divergent
//! code and reconverges the lanes at the merge. A limit: when lanes of a divergent loop
//! are in different iterations, a lane that reached an earlier site of the next
//! iteration goes first, and lanes can meet at one site from different iterations. Inactive or out-of-range source lanes
//! of a broadcast or shuffle read the lane's own value (SPIR-V leaves them undefined).

use std::cell::Cell;
use std::sync::{Condvar, Mutex};

/// SPIR-V scopes.
pub const SCOPE_WORKGROUP: i32 = 2;
pub const SCOPE_SUBGROUP: i32 = 3;

/// The operations `spirv_lift.group` performs (shims/group.rs passes these numbers).
pub mod op {
    pub const IADD: i32 = 0;
    pub const FADD: i32 = 1;
    pub const IMUL: i32 = 2;
    pub const FMUL: i32 = 3;
    pub const SMIN: i32 = 4;
    pub const UMIN: i32 = 5;
    pub const FMIN: i32 = 6;
    pub const SMAX: i32 = 7;
    pub const UMAX: i32 = 8;
    pub const FMAX: i32 = 9;
    pub const AND: i32 = 10;
    pub const OR: i32 = 11;
    pub const XOR: i32 = 12;
    pub const BROADCAST: i32 = 20;
    pub const BROADCAST_FIRST: i32 = 21;
    pub const SHUFFLE: i32 = 22;
    pub const SHUFFLE_XOR: i32 = 23;
    pub const SHUFFLE_UP: i32 = 24;
    pub const SHUFFLE_DOWN: i32 = 25;
    pub const QUAD_BROADCAST: i32 = 26;
    pub const QUAD_SWAP: i32 = 27;
    pub const ROTATE: i32 = 28;
    pub const ALL: i32 = 30;
    pub const ANY: i32 = 31;
    pub const ALL_EQUAL: i32 = 32;
    pub const ELECT: i32 = 33;
    /// A control barrier of Subgroup scope (every subgroup barrier is one site).
    pub const BARRIER: i32 = 34;
    /// Ballot queries (`spirv_lift.ballot_query`).
    pub const BIT_COUNT: i32 = 40;
    pub const FIND_LSB: i32 = 41;
    pub const FIND_MSB: i32 = 42;
    pub const BIT_EXTRACT: i32 = 43;
    pub const INVERSE_BALLOT: i32 = 44;
}

/// SPIR-V's GroupOperation.
const REDUCE: i32 = 0;
const INCLUSIVE: i32 = 1;
const EXCLUSIVE: i32 = 2;
const CLUSTERED: i32 = 3;

/// One lane's contribution to an operation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Contribution {
    pub value: u64,
    pub operand: [u64; 3],
}

/// What a lane of a subgroup is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Lane {
    Running,
    /// Waiting at a subgroup operation: site, its contribution.
    Waiting(usize, Contribution),
    /// Waiting at a work-group barrier or collective (or not started yet).
    Blocked,
    Returned,
    /// The operation completed: the lane's active set (a bit per lane) and the
    /// contributions of every lane.
    Done(u128),
}

/// The rendezvous of one subgroup's lanes.
pub struct Subgroup {
    state: Mutex<SubgroupState>,
    cv: Condvar,
}

struct SubgroupState {
    lanes: Vec<Lane>,
    /// The contributions of the last completed operation, by lane.
    values: Vec<Contribution>,
}

impl Subgroup {
    /// A subgroup of `n` lanes, all running.
    pub fn new(n: usize) -> Subgroup {
        Subgroup {
            state: Mutex::new(SubgroupState {
                lanes: vec![Lane::Running; n],
                values: vec![Contribution::default(); n],
            }),
            cv: Condvar::new(),
        }
    }

    /// Lane `lane` arrives at the operation at `site`: returns the active set (a bit per
    /// lane) and every lane's contribution, once the active set has formed.
    fn arrive(&self, lane: usize, site: usize, c: Contribution) -> (u128, Vec<Contribution>) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.lanes[lane] = Lane::Waiting(site, c);
        Self::resolve(&mut s, &self.cv);
        loop {
            if let Lane::Done(active) = s.lanes[lane] {
                let values = s.values.clone();
                s.lanes[lane] = Lane::Running;
                return (active, values);
            }
            s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// When no lane runs, completes the operation of the lowest waiting lane's site.
    fn resolve(s: &mut SubgroupState, cv: &Condvar) {
        // A lane that completed but has not woken yet still holds `values`.
        if s.lanes
            .iter()
            .any(|l| matches!(l, Lane::Running | Lane::Done(_)))
        {
            return;
        }
        // The lowest call-site address first: the translation lays blocks out in reverse
        // post-order, so both sides of an `if` come before their merge and a loop's body
        // before its exit; lanes that diverged finish their side before the merge's
        // operation, which then has them all.
        let Some(site) = s
            .lanes
            .iter()
            .filter_map(|l| match l {
                Lane::Waiting(site, _) => Some(*site),
                _ => None,
            })
            .min()
        else {
            return;
        };
        let mut active = 0u128;
        for (k, l) in s.lanes.iter().enumerate() {
            if let Lane::Waiting(at, c) = *l
                && at == site
            {
                active |= 1 << k;
                s.values[k] = c;
            }
        }
        for (k, l) in s.lanes.iter_mut().enumerate() {
            if active >> k & 1 == 1 {
                *l = Lane::Done(active);
            }
        }
        cv.notify_all();
    }

    /// The lane stops running for a while (a work-group barrier) or for good.
    fn set(&self, lane: usize, to: Lane) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.lanes[lane] = to;
        Self::resolve(&mut s, &self.cv);
    }

    /// The lane waits at a work-group barrier or collective.
    pub fn block(&self, lane: usize) {
        self.set(lane, Lane::Blocked);
    }

    /// The lane runs again.
    pub fn unblock(&self, lane: usize) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.lanes[lane] = Lane::Running;
    }

    /// The lane returned from the entry point.
    pub fn returned(&self, lane: usize) {
        self.set(lane, Lane::Returned);
    }
}

/// The invocation running on this thread: its subgroup and place in it, its work-group
/// and place in it.
#[derive(Clone, Copy)]
pub struct Here {
    pub group: *const super::runtime::Group,
    pub subgroup: *const Subgroup,
    pub lane: u32,
    pub subgroup_size: u32,
    pub local_index: u32,
    pub local_size: [u64; 3],
}

thread_local! {
    pub static HERE: Cell<Option<Here>> = const { Cell::new(None) };
}

fn here() -> Here {
    match HERE.with(Cell::get) {
        Some(h) => h,
        None => super::runtime::fail("a group operation called outside a dispatch".into()),
    }
}

/// An element type (`kind`).
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Int(u32),
    Float(u32),
    Bool,
}

impl Kind {
    fn of(kind: i32) -> Kind {
        let bits = (kind & 0xff) as u32;
        match kind >> 8 {
            1 => Kind::Float(bits),
            2 => Kind::Bool,
            _ => Kind::Int(bits.clamp(1, 64)),
        }
    }

    fn mask(self) -> u64 {
        match self {
            Kind::Int(b) | Kind::Float(b) if b < 64 => (1 << b) - 1,
            Kind::Bool => 1,
            _ => u64::MAX,
        }
    }

    fn signed(self, v: u64) -> i64 {
        match self {
            Kind::Int(b) if b < 64 => ((v << (64 - b)) as i64) >> (64 - b),
            _ => v as i64,
        }
    }
}

fn to_f64(kind: Kind, v: u64) -> f64 {
    match kind {
        Kind::Float(16) => super::printf::half_to_f64(v as u16),
        Kind::Float(32) => f64::from(f32::from_bits(v as u32)),
        _ => f64::from_bits(v),
    }
}

fn from_f64(kind: Kind, x: f64) -> u64 {
    match kind {
        Kind::Float(16) => u64::from(super::runtime::f64_to_f16(x, 0)),
        Kind::Float(32) => u64::from((x as f32).to_bits()),
        _ => x.to_bits(),
    }
}

/// `a op b` in the element type (floats rounded to it after each step).
fn combine(op: i32, kind: Kind, a: u64, b: u64) -> u64 {
    let m = kind.mask();
    let (fa, fb) = (to_f64(kind, a), to_f64(kind, b));
    let f = |x: f64| from_f64(kind, x);
    match op {
        op::IADD => a.wrapping_add(b) & m,
        op::IMUL => a.wrapping_mul(b) & m,
        op::SMIN => (kind.signed(a).min(kind.signed(b)) as u64) & m,
        op::SMAX => (kind.signed(a).max(kind.signed(b)) as u64) & m,
        op::UMIN => a.min(b),
        op::UMAX => a.max(b),
        op::AND => a & b,
        op::OR => a | b,
        op::XOR => a ^ b,
        op::FADD => f(fa + fb),
        op::FMUL => f(fa * fb),
        // OpenCL's fmin/fmax and SPIR-V's FMin/FMax on a NaN: the other operand.
        op::FMIN => f(if fb.is_nan() || fa < fb { fa } else { fb }),
        op::FMAX => f(if fb.is_nan() || fa > fb { fa } else { fb }),
        _ => a,
    }
}

/// The identity of `op` (the exclusive scan's first value).
fn identity(op: i32, kind: Kind) -> u64 {
    let m = kind.mask();
    let f = |x: f64| from_f64(kind, x);
    match op {
        op::IMUL => 1,
        op::SMIN => m >> 1,
        op::SMAX => (!(m >> 1)) & m,
        op::UMIN | op::AND => m,
        op::FADD => f(0.0),
        op::FMUL => f(1.0),
        op::FMIN => f(f64::INFINITY),
        op::FMAX => f(f64::NEG_INFINITY),
        _ => 0,
    }
}

/// The result for lane `me` of an operation whose active lanes are those for which
/// `active` holds, with those contributions. The partitioned group operations (6, 7, 8:
/// `PartitionedReduceNV`, `…InclusiveScanNV`, `…ExclusiveScanNV`) take the lanes of the
/// partition ballot in `operand[0..2]`.
pub fn compute(
    op: i32,
    group_op: i32,
    kind: Kind,
    me: usize,
    active: impl Fn(usize) -> bool,
    values: &[Contribution],
) -> u64 {
    let n = values.len();
    let mine = values[me];
    let source = |lane: u64| -> u64 {
        match usize::try_from(lane) {
            Ok(l) if l < n && active(l) => values[l].value,
            _ => mine.value,
        }
    };
    let first = (0..n).find(|&l| active(l)).unwrap_or(me);
    match op {
        op::BROADCAST | op::SHUFFLE => source(mine.operand[0]),
        op::BROADCAST_FIRST => values[first].value,
        op::SHUFFLE_XOR => source(me as u64 ^ mine.operand[0]),
        op::SHUFFLE_UP => match (me as u64).checked_sub(mine.operand[0]) {
            Some(l) => source(l),
            None => mine.value,
        },
        op::SHUFFLE_DOWN => source(me as u64 + mine.operand[0]),
        op::QUAD_BROADCAST => source((me as u64 & !3) + mine.operand[0]),
        op::QUAD_SWAP => source(me as u64 ^ (mine.operand[0] + 1).min(3)),
        op::ROTATE => {
            // Within clusters of operand[1] lanes (0: the whole subgroup).
            let c = match mine.operand[1] {
                0 => n as u64,
                c => c,
            };
            let base = me as u64 / c * c;
            source(base + (me as u64 - base + mine.operand[0]) % c)
        }
        op::ALL => u64::from(
            (0..n)
                .filter(|&l| active(l))
                .all(|l| values[l].value & 1 == 1),
        ),
        op::ANY => u64::from(
            (0..n)
                .filter(|&l| active(l))
                .any(|l| values[l].value & 1 == 1),
        ),
        op::ALL_EQUAL => u64::from(
            (0..n)
                .filter(|&l| active(l))
                .all(|l| values[l].value == mine.value),
        ),
        op::ELECT => u64::from(first == me),
        op::BARRIER => 0,
        _ => {
            let partition = u128::from(mine.operand[0]) | u128::from(mine.operand[1]) << 64;
            let (group_op, in_partition) = match group_op {
                6..=8 => (group_op - 6, partition),
                _ => (group_op, u128::MAX),
            };
            let active = |l: usize| active(l) && in_partition >> l & 1 == 1;
            let range: Box<dyn Iterator<Item = usize>> = match group_op {
                INCLUSIVE => Box::new(0..=me),
                EXCLUSIVE => Box::new(0..me),
                CLUSTERED => {
                    let c = (mine.operand[0] as usize).max(1);
                    let base = me / c * c;
                    Box::new(base..(base + c).min(n))
                }
                REDUCE => Box::new(0..n),
                _ => Box::new(0..n),
            };
            range
                .filter(|&l| active(l))
                .fold(identity(op, kind), |acc, l| {
                    combine(op, kind, acc, values[l].value)
                })
        }
    }
}

/// `spirv_lift.group` (see the module documentation).
///
/// # Safety
/// Called by the translated code of a dispatch, on an invocation's thread.
#[unsafe(export_name = "spirv_lift.group")]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn group(
    scope: i32,
    op: i32,
    group_op: i32,
    kind: i32,
    value: u64,
    x: u64,
    y: u64,
    z: u64,
    site: usize,
) -> u64 {
    let h = here();
    let kind = Kind::of(kind);
    let mut c = Contribution {
        value: value & kind.mask(),
        operand: [x, y, z],
    };
    match scope {
        SCOPE_WORKGROUP => {
            // A broadcast's local id (x, y, z) → the local linear index.
            if op == op::BROADCAST {
                let l = h.local_size;
                c.operand[0] = (z * l[1] + y) * l[0] + x;
            }
            // SAFETY: the dispatcher keeps the group and subgroup alive while
            // invocations of them run.
            let (g, sg) = unsafe { (&*h.group, &*h.subgroup) };
            sg.block(h.lane as usize);
            let values = g.exchange(h.local_index as usize, c);
            sg.unblock(h.lane as usize);
            compute(
                op,
                group_op,
                kind,
                h.local_index as usize,
                |_| true,
                &values,
            )
        }
        SCOPE_SUBGROUP => {
            // SAFETY: as above.
            let sg = unsafe { &*h.subgroup };
            let site = if op == op::BARRIER { usize::MAX } else { site };
            let (active, values) = sg.arrive(h.lane as usize, site, c);
            compute(
                op,
                group_op,
                kind,
                h.lane as usize,
                |l| active >> l & 1 == 1,
                &values,
            )
        }
        other => super::runtime::fail(format!(
            "a group operation with scope {other} (only Workgroup and Subgroup are implemented)"
        )),
    }
}

/// `spirv_lift.group_ballot(scope, predicate, site, out)`: the `uvec4` of the active
/// lanes whose predicate holds.
///
/// # Safety
/// `out` points at four writable `u32`.
#[unsafe(export_name = "spirv_lift.group_ballot")]
pub unsafe extern "C" fn group_ballot(scope: i32, predicate: i32, site: usize, out: *mut u32) {
    let h = here();
    if scope != SCOPE_SUBGROUP {
        super::runtime::fail(format!(
            "a ballot with scope {scope} (only Subgroup is implemented)"
        ));
    }
    // SAFETY: as in `group`.
    let sg = unsafe { &*h.subgroup };
    let c = Contribution {
        value: u64::from(predicate != 0),
        operand: [0; 3],
    };
    let (active, values) = sg.arrive(h.lane as usize, site, c);
    let mut bits = 0u128;
    for (l, v) in values.iter().enumerate() {
        if active >> l & 1 == 1 && v.value == 1 {
            bits |= 1 << l;
        }
    }
    for k in 0..4 {
        // SAFETY: the caller's contract.
        unsafe { *out.add(k) = (bits >> (32 * k)) as u32 };
    }
}

/// `spirv_lift.ballot_query(op, group_op, mask, index)`: `BallotBitCount` (with the
/// group operation), `BallotFindLSB`/`MSB`, `BallotBitExtract` (bit `index`) and
/// `InverseBallot`, over the lanes of this invocation's subgroup.
///
/// # Safety
/// `mask` points at four readable `u32`.
#[unsafe(export_name = "spirv_lift.ballot_query")]
pub unsafe extern "C" fn ballot_query(op: i32, group_op: i32, mask: *const u32, index: u32) -> u32 {
    let h = here();
    let mut bits = 0u128;
    for k in 0..4 {
        // SAFETY: the caller's contract.
        bits |= u128::from(unsafe { *mask.add(k) }) << (32 * k);
    }
    let size = h.subgroup_size.min(128);
    let in_group = if size == 128 {
        u128::MAX
    } else {
        (1u128 << size) - 1
    };
    let lane = h.lane;
    match op {
        op::BIT_COUNT => {
            let upto = match group_op {
                INCLUSIVE => (1u128 << lane << 1).wrapping_sub(1),
                EXCLUSIVE => (1u128 << lane).wrapping_sub(1),
                _ => u128::MAX,
            };
            (bits & in_group & upto).count_ones()
        }
        op::FIND_LSB => (bits & in_group).trailing_zeros().min(127),
        op::FIND_MSB => 127u32.saturating_sub((bits & in_group).leading_zeros()),
        op::BIT_EXTRACT => u32::from(index < 128 && bits >> index & 1 == 1),
        _ => u32::from(bits >> lane & 1 == 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: u64) -> Contribution {
        Contribution {
            value: v,
            operand: [0; 3],
        }
    }

    #[test]
    fn scans_and_reductions() {
        let vals: Vec<Contribution> = [3u64, (-5i32) as u32 as u64, 7, 1].map(c).to_vec();
        let k = Kind::Int(32);
        let all = |_| true;
        assert_eq!(compute(op::IADD, REDUCE, k, 2, all, &vals), 6);
        assert_eq!(
            compute(op::IADD, EXCLUSIVE, k, 2, all, &vals),
            (-2i32) as u32 as u64
        );
        assert_eq!(compute(op::IADD, EXCLUSIVE, k, 0, all, &vals), 0);
        assert_eq!(
            compute(op::SMIN, REDUCE, k, 0, all, &vals),
            (-5i32) as u32 as u64
        );
        assert_eq!(compute(op::UMIN, REDUCE, k, 0, all, &vals), 1);
        assert_eq!(compute(op::SMAX, INCLUSIVE, k, 1, all, &vals), 3);
        assert_eq!(compute(op::SMAX, EXCLUSIVE, k, 0, all, &vals), 0x8000_0000);
        // Lanes 1 and 3 inactive.
        let some = |l: usize| l.is_multiple_of(2);
        assert_eq!(compute(op::IADD, REDUCE, k, 2, some, &vals), 10);
        assert_eq!(compute(op::ELECT, REDUCE, k, 0, some, &vals), 1);
        assert_eq!(compute(op::ELECT, REDUCE, k, 2, some, &vals), 0);
        let f: Vec<Contribution> = [0.5f32, 0.25, 1e8, -1e8]
            .map(|x| c(u64::from(x.to_bits())))
            .to_vec();
        // Rounded to float after each step: 0.75 + 1e8 is 1e8 in float.
        let r = compute(op::FADD, REDUCE, Kind::Float(32), 0, all, &f);
        assert_eq!(f32::from_bits(r as u32), 0.0);
    }

    #[test]
    fn shuffles_read_other_lanes() {
        let vals: Vec<Contribution> = (0..8u64)
            .map(|l| Contribution {
                value: 100 + l,
                operand: [1, 0, 0],
            })
            .collect();
        let k = Kind::Int(32);
        let all = |_| true;
        assert_eq!(compute(op::SHUFFLE_XOR, REDUCE, k, 2, all, &vals), 103);
        assert_eq!(compute(op::SHUFFLE_UP, REDUCE, k, 2, all, &vals), 101);
        assert_eq!(compute(op::SHUFFLE_UP, REDUCE, k, 0, all, &vals), 100);
        assert_eq!(compute(op::SHUFFLE_DOWN, REDUCE, k, 2, all, &vals), 103);
        assert_eq!(compute(op::SHUFFLE, REDUCE, k, 5, all, &vals), 101);
        assert_eq!(compute(op::ROTATE, REDUCE, k, 7, all, &vals), 100);
    }
}
