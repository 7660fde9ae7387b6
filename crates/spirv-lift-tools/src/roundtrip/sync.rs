//! The synchronizing operations of a SPIR-V binary, and the normalization under which a
//! module and its round trip through spirv-lift and LLVM's SPIR-V backend must agree.
//!
//! [`sync_ops`] walks the raw instruction stream (no validation beyond word counts: the
//! binaries it reads have passed `spirv-val`) and resolves the scope and semantics
//! operands of barriers and atomics through `OpConstant` and `OpConstantNull` (zero: how
//! LLVM's backend writes a zero). [`normalize`] maps them to
//! [`Fact`]s; two modules preserve each other's synchronization when their fact
//! multisets are equal ([`compare`]).
//!
//! The normalization, rule by rule (the README repeats it):
//!
//! 1. `OpControlBarrier E, S, M` is `Control(E)`, plus `Fence(S, Release)` when `M`
//!    releases (Release, AcquireRelease, SequentiallyConsistent) and `Fence(S, Acquire)`
//!    when `M` acquires — spirv-lift's lowering (SPEC §4.2), which LLVM's backend turns
//!    into `OpMemoryBarrier`s around an `OpControlBarrier E, S, None`.
//! 2. `OpMemoryBarrier S, M` is `Fence(S, ordering(M))`; without an ordering bit it
//!    orders nothing and is dropped (spirv-lift emits no fence for it).
//! 3. Semantics keep only their ordering bits: LLVM's backend rewrites the storage-class
//!    bits (it derives them from the pointer's storage class for atomics, and writes none
//!    for fences) and drops MakeAvailable/MakeVisible/Volatile, which LLVM IR cannot say.
//! 4. Orderings LLVM cannot express are clamped as spirv-lift clamps them (SPEC §4.1):
//!    an atomic load never releases (AcquireRelease → Acquire, Release → Relaxed), an
//!    atomic store never acquires (AcquireRelease → Release, Acquire → Relaxed).
//! 5. Scopes: QueueFamily is Device (LLVM has one `device` syncscope for both).
//! 6. A scope or semantics that is not a constant is CrossDevice / SequentiallyConsistent
//!    (spirv-lift widens it so).
//! 7. Atomic operations are compared by LLVM operation: IIncrement is IAdd and
//!    IDecrement is ISub (`atomicrmw add/sub 1`), CompareExchangeWeak is CompareExchange
//!    (`cmpxchg`), FlagTestAndSet is Exchange (`atomicrmw xchg`) and FlagClear is
//!    AtomicStore (`store atomic`). For a compare-exchange only the Equal semantics count.

use std::collections::BTreeMap;
use std::fmt;

/// Scope numbers (SPIR-V `Scope`).
const CROSS_DEVICE: u32 = 0;
const DEVICE: u32 = 1;
const QUEUE_FAMILY: u32 = 5;

/// Semantics bits.
const ACQUIRE: u32 = 0x2;
const RELEASE: u32 = 0x4;
const ACQ_REL: u32 = 0x8;
const SEQ_CST: u32 = 0x10;

/// Opcodes read here.
mod op {
    pub const TYPE_INT: u32 = 21;
    pub const CONSTANT: u32 = 43;
    pub const CONSTANT_NULL: u32 = 46;
    pub const CONTROL_BARRIER: u32 = 224;
    pub const MEMORY_BARRIER: u32 = 225;
    pub const ATOMIC_LOAD: u32 = 227;
    pub const ATOMIC_STORE: u32 = 228;
    pub const ATOMIC_EXCHANGE: u32 = 229;
    pub const ATOMIC_COMPARE_EXCHANGE: u32 = 230;
    pub const ATOMIC_COMPARE_EXCHANGE_WEAK: u32 = 231;
    pub const ATOMIC_I_INCREMENT: u32 = 232;
    pub const ATOMIC_I_DECREMENT: u32 = 233;
    pub const ATOMIC_I_ADD: u32 = 234;
    pub const ATOMIC_I_SUB: u32 = 235;
    pub const ATOMIC_S_MIN: u32 = 236;
    pub const ATOMIC_U_MIN: u32 = 237;
    pub const ATOMIC_S_MAX: u32 = 238;
    pub const ATOMIC_U_MAX: u32 = 239;
    pub const ATOMIC_AND: u32 = 240;
    pub const ATOMIC_OR: u32 = 241;
    pub const ATOMIC_XOR: u32 = 242;
    pub const ATOMIC_FLAG_TEST_AND_SET: u32 = 318;
    pub const ATOMIC_FLAG_CLEAR: u32 = 319;
    pub const ATOMIC_F_MIN_EXT: u32 = 5614;
    pub const ATOMIC_F_MAX_EXT: u32 = 5615;
    pub const ATOMIC_F_ADD_EXT: u32 = 6035;
}

/// A scope or semantics operand: the constant's value, or `None` when it is not an
/// integer `OpConstant` (a specialization constant or a computed value).
pub type Operand = Option<u32>;

/// One synchronizing instruction as written in the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyncOp {
    /// `OpControlBarrier exec, mem, sem`.
    ControlBarrier {
        /// Execution scope.
        exec: Operand,
        /// Memory scope.
        mem: Operand,
        /// Memory semantics.
        sem: Operand,
    },
    /// `OpMemoryBarrier scope, sem`.
    MemoryBarrier {
        /// Memory scope.
        scope: Operand,
        /// Memory semantics.
        sem: Operand,
    },
    /// An `OpAtomic*` instruction.
    Atomic {
        /// The opcode number.
        opcode: u32,
        /// Memory scope.
        scope: Operand,
        /// Memory semantics (the Equal semantics of a compare-exchange).
        sem: Operand,
    },
}

/// Why a binary could not be walked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkError(pub String);

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WalkError {}

/// For an atomic opcode, the index of its scope operand among the words after the
/// opcode word (the semantics follow it); `None` for other opcodes.
fn atomic_layout(opcode: u32) -> Option<usize> {
    use op::*;
    match opcode {
        // Result type, result, pointer, scope, semantics…
        ATOMIC_LOAD
        | ATOMIC_EXCHANGE
        | ATOMIC_COMPARE_EXCHANGE
        | ATOMIC_COMPARE_EXCHANGE_WEAK
        | ATOMIC_I_INCREMENT
        | ATOMIC_I_DECREMENT
        | ATOMIC_I_ADD
        | ATOMIC_I_SUB
        | ATOMIC_S_MIN
        | ATOMIC_U_MIN
        | ATOMIC_S_MAX
        | ATOMIC_U_MAX
        | ATOMIC_AND
        | ATOMIC_OR
        | ATOMIC_XOR
        | ATOMIC_FLAG_TEST_AND_SET
        | ATOMIC_F_MIN_EXT
        | ATOMIC_F_MAX_EXT
        | ATOMIC_F_ADD_EXT => Some(3),
        // Pointer, scope, semantics…
        ATOMIC_STORE | ATOMIC_FLAG_CLEAR => Some(1),
        _ => None,
    }
}

/// The barriers and atomics of a module (host-endian words), in module order.
///
/// # Errors
/// A [`WalkError`] when the header is missing or an instruction's word count runs past
/// the end.
pub fn sync_ops(words: &[u32]) -> Result<Vec<SyncOp>, WalkError> {
    if words.len() < 5 || words.first() != Some(&0x0723_0203) {
        return Err(WalkError("not a SPIR-V module (bad header)".into()));
    }
    let mut int_types: BTreeMap<u32, u32> = BTreeMap::new();
    let mut constants: BTreeMap<u32, u32> = BTreeMap::new();
    let mut out = Vec::new();
    let mut at = 5usize;
    while at < words.len() {
        let first = words.get(at).copied().unwrap_or(0);
        let count = (first >> 16) as usize;
        let opcode = first & 0xffff;
        let Some(inst) = words.get(at..at + count.max(1)).filter(|_| count > 0) else {
            return Err(WalkError(format!(
                "word {at}: instruction of {count} words runs past the end"
            )));
        };
        let operands = inst.get(1..).unwrap_or(&[]);
        let word = |i: usize| operands.get(i).copied();
        let value = |i: usize| word(i).and_then(|id| constants.get(&id).copied());
        match opcode {
            op::TYPE_INT => {
                if let (Some(id), Some(width)) = (word(0), word(1)) {
                    int_types.insert(id, width);
                }
            }
            op::CONSTANT => {
                if let (Some(ty), Some(id), Some(v)) = (word(0), word(1), word(2))
                    && int_types.get(&ty).is_some_and(|&w| w <= 32)
                {
                    constants.insert(id, v);
                }
            }
            // LLVM's backend writes a zero integer as OpConstantNull.
            op::CONSTANT_NULL => {
                if let (Some(ty), Some(id)) = (word(0), word(1))
                    && int_types.get(&ty).is_some_and(|&w| w <= 32)
                {
                    constants.insert(id, 0);
                }
            }
            op::CONTROL_BARRIER => out.push(SyncOp::ControlBarrier {
                exec: value(0),
                mem: value(1),
                sem: value(2),
            }),
            op::MEMORY_BARRIER => out.push(SyncOp::MemoryBarrier {
                scope: value(0),
                sem: value(1),
            }),
            _ => {
                if let Some(s) = atomic_layout(opcode) {
                    out.push(SyncOp::Atomic {
                        opcode,
                        scope: value(s),
                        sem: value(s + 1),
                    });
                }
            }
        }
        at += count;
    }
    Ok(out)
}

/// A memory ordering after normalization.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Order {
    /// No ordering bit.
    Relaxed,
    /// Acquire.
    Acquire,
    /// Release.
    Release,
    /// AcquireRelease.
    AcqRel,
    /// SequentiallyConsistent.
    SeqCst,
}

/// The ordering a semantics value's ordering bits select (the strongest bit wins, as in
/// spirv-lift's lowering; valid modules set at most one).
fn order_of(sem: Operand) -> Order {
    match sem {
        None => Order::SeqCst,
        Some(s) if s & SEQ_CST != 0 => Order::SeqCst,
        Some(s) if s & ACQ_REL != 0 => Order::AcqRel,
        Some(s) if s & (ACQUIRE | RELEASE) == ACQUIRE | RELEASE => Order::AcqRel,
        Some(s) if s & RELEASE != 0 => Order::Release,
        Some(s) if s & ACQUIRE != 0 => Order::Acquire,
        Some(_) => Order::Relaxed,
    }
}

/// A scope after normalization (rule 5 and 6).
fn scope_of(scope: Operand) -> u32 {
    match scope {
        None => CROSS_DEVICE,
        Some(QUEUE_FAMILY) => DEVICE,
        Some(s) => s,
    }
}

/// The LLVM-level atomic operation an opcode is (rule 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AtomicKind {
    /// `load atomic`.
    Load,
    /// `store atomic`.
    Store,
    /// `atomicrmw xchg`.
    Exchange,
    /// `cmpxchg`.
    CompareExchange,
    /// `atomicrmw add`.
    IAdd,
    /// `atomicrmw sub`.
    ISub,
    /// `atomicrmw min`.
    SMin,
    /// `atomicrmw umin`.
    UMin,
    /// `atomicrmw max`.
    SMax,
    /// `atomicrmw umax`.
    UMax,
    /// `atomicrmw and`.
    And,
    /// `atomicrmw or`.
    Or,
    /// `atomicrmw xor`.
    Xor,
    /// `atomicrmw fadd`.
    FAdd,
    /// `atomicrmw fmin`.
    FMin,
    /// `atomicrmw fmax`.
    FMax,
}

fn atomic_kind(opcode: u32) -> Option<AtomicKind> {
    use op::*;
    Some(match opcode {
        ATOMIC_LOAD => AtomicKind::Load,
        ATOMIC_STORE | ATOMIC_FLAG_CLEAR => AtomicKind::Store,
        ATOMIC_EXCHANGE | ATOMIC_FLAG_TEST_AND_SET => AtomicKind::Exchange,
        ATOMIC_COMPARE_EXCHANGE | ATOMIC_COMPARE_EXCHANGE_WEAK => AtomicKind::CompareExchange,
        ATOMIC_I_ADD | ATOMIC_I_INCREMENT => AtomicKind::IAdd,
        ATOMIC_I_SUB | ATOMIC_I_DECREMENT => AtomicKind::ISub,
        ATOMIC_S_MIN => AtomicKind::SMin,
        ATOMIC_U_MIN => AtomicKind::UMin,
        ATOMIC_S_MAX => AtomicKind::SMax,
        ATOMIC_U_MAX => AtomicKind::UMax,
        ATOMIC_AND => AtomicKind::And,
        ATOMIC_OR => AtomicKind::Or,
        ATOMIC_XOR => AtomicKind::Xor,
        ATOMIC_F_ADD_EXT => AtomicKind::FAdd,
        ATOMIC_F_MIN_EXT => AtomicKind::FMin,
        ATOMIC_F_MAX_EXT => AtomicKind::FMax,
        _ => return None,
    })
}

/// A normalized synchronizing operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fact {
    /// An execution barrier with this execution scope.
    Control {
        /// Execution scope (normalized).
        exec: u32,
    },
    /// A fence.
    Fence {
        /// Memory scope (normalized).
        scope: u32,
        /// Ordering.
        order: Order,
    },
    /// An atomic operation.
    Atomic {
        /// Operation.
        kind: AtomicKind,
        /// Memory scope (normalized).
        scope: u32,
        /// Ordering (clamped for loads and stores).
        order: Order,
    },
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fact::Control { exec } => write!(f, "control barrier exec={exec}"),
            Fact::Fence { scope, order } => write!(f, "fence scope={scope} {order:?}"),
            Fact::Atomic { kind, scope, order } => {
                write!(f, "atomic {kind:?} scope={scope} {order:?}")
            }
        }
    }
}

/// The normalized facts of a module's synchronizing operations (rules 1–7).
pub fn normalize(ops: &[SyncOp]) -> Vec<Fact> {
    let mut out = Vec::new();
    for o in ops {
        match *o {
            SyncOp::ControlBarrier { exec, mem, sem } => {
                let order = order_of(sem);
                let scope = scope_of(mem);
                if matches!(order, Order::Release | Order::AcqRel | Order::SeqCst) {
                    out.push(Fact::Fence {
                        scope,
                        order: Order::Release,
                    });
                }
                out.push(Fact::Control {
                    exec: scope_of(exec),
                });
                if matches!(order, Order::Acquire | Order::AcqRel | Order::SeqCst) {
                    out.push(Fact::Fence {
                        scope,
                        order: Order::Acquire,
                    });
                }
            }
            SyncOp::MemoryBarrier { scope, sem } => match order_of(sem) {
                Order::Relaxed => {}
                order => out.push(Fact::Fence {
                    scope: scope_of(scope),
                    order,
                }),
            },
            SyncOp::Atomic { opcode, scope, sem } => {
                let Some(kind) = atomic_kind(opcode) else {
                    continue;
                };
                let order = match (kind, order_of(sem)) {
                    (AtomicKind::Load, Order::Release) => Order::Relaxed,
                    (AtomicKind::Load, Order::AcqRel) => Order::Acquire,
                    (AtomicKind::Store, Order::Acquire) => Order::Relaxed,
                    (AtomicKind::Store, Order::AcqRel) => Order::Release,
                    (_, o) => o,
                };
                out.push(Fact::Atomic {
                    kind,
                    scope: scope_of(scope),
                    order,
                });
            }
        }
    }
    out
}

/// The difference between two fact multisets: for every fact whose count differs,
/// `(fact, count in a, count in b)`, in fact order. Empty when they agree.
pub fn compare(a: &[Fact], b: &[Fact]) -> Vec<(Fact, usize, usize)> {
    let mut counts: BTreeMap<Fact, (usize, usize)> = BTreeMap::new();
    for f in a {
        counts.entry(*f).or_default().0 += 1;
    }
    for f in b {
        counts.entry(*f).or_default().1 += 1;
    }
    counts
        .into_iter()
        .filter(|(_, (x, y))| x != y)
        .map(|(f, (x, y))| (f, x, y))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with an `i32` type `%1` and constants `%10 + v` = `v` for v in 0..32,
    /// followed by `body`.
    fn module(body: &[u32]) -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 100, 0];
        w.extend([(4 << 16) | op::TYPE_INT, 1, 32, 0]);
        for v in 0..0x300u32 {
            w.extend([(4 << 16) | op::CONSTANT, 1, 1000 + v, v]);
        }
        w.extend_from_slice(body);
        w
    }

    fn c(v: u32) -> u32 {
        1000 + v
    }

    fn inst(opcode: u32, operands: &[u32]) -> Vec<u32> {
        let mut w = vec![((operands.len() as u32 + 1) << 16) | opcode];
        w.extend_from_slice(operands);
        w
    }

    #[test]
    fn reads_barriers_and_atomics_through_constants() {
        let mut body = inst(op::CONTROL_BARRIER, &[c(2), c(2), c(0x108)]);
        body.extend(inst(op::MEMORY_BARRIER, &[c(1), c(0x48)]));
        body.extend(inst(op::ATOMIC_I_ADD, &[1, 50, 51, c(1), c(0x10), c(7)]));
        body.extend(inst(op::ATOMIC_STORE, &[51, c(2), 77, c(7)]));
        let ops = sync_ops(&module(&body)).unwrap();
        assert_eq!(
            ops,
            [
                SyncOp::ControlBarrier {
                    exec: Some(2),
                    mem: Some(2),
                    sem: Some(0x108)
                },
                SyncOp::MemoryBarrier {
                    scope: Some(1),
                    sem: Some(0x48)
                },
                SyncOp::Atomic {
                    opcode: op::ATOMIC_I_ADD,
                    scope: Some(1),
                    sem: Some(0x10)
                },
                SyncOp::Atomic {
                    opcode: op::ATOMIC_STORE,
                    scope: Some(2),
                    sem: None
                },
            ]
        );
    }

    #[test]
    fn constant_null_is_zero() {
        let mut body = vec![(3 << 16) | op::CONSTANT_NULL, 1, 90];
        body.extend(inst(op::CONTROL_BARRIER, &[c(2), c(2), 90]));
        let ops = sync_ops(&module(&body)).unwrap();
        assert_eq!(
            ops,
            [SyncOp::ControlBarrier {
                exec: Some(2),
                mem: Some(2),
                sem: Some(0)
            }]
        );
    }

    #[test]
    fn truncated_module_is_an_error() {
        let mut w = module(&[]);
        w.push((9 << 16) | op::CONSTANT);
        assert!(sync_ops(&w).is_err());
        assert!(sync_ops(&[1, 2, 3]).is_err());
    }

    #[test]
    fn control_barrier_is_fences_around_a_pure_barrier() {
        // Input: barrier(CLK_LOCAL_MEM_FENCE) = ControlBarrier WG, WG, AcqRel|Workgroup.
        let input = normalize(&[SyncOp::ControlBarrier {
            exec: Some(2),
            mem: Some(2),
            sem: Some(0x108),
        }]);
        // What LLVM's backend gives back for spirv-lift's fence/call/fence.
        let output = normalize(&[
            SyncOp::MemoryBarrier {
                scope: Some(2),
                sem: Some(0x4),
            },
            SyncOp::ControlBarrier {
                exec: Some(2),
                mem: Some(2),
                sem: Some(0),
            },
            SyncOp::MemoryBarrier {
                scope: Some(2),
                sem: Some(0x2),
            },
        ]);
        assert_eq!(compare(&input, &output), []);
        // A lost acquire fence is a difference.
        let lost = normalize(&[
            SyncOp::MemoryBarrier {
                scope: Some(2),
                sem: Some(0x4),
            },
            SyncOp::ControlBarrier {
                exec: Some(2),
                mem: Some(2),
                sem: Some(0),
            },
        ]);
        assert_eq!(
            compare(&input, &lost),
            [(
                Fact::Fence {
                    scope: 2,
                    order: Order::Acquire
                },
                1,
                0
            )]
        );
    }

    #[test]
    fn storage_bits_and_queue_family_are_ignored_relaxed_fences_dropped() {
        let a = normalize(&[
            SyncOp::MemoryBarrier {
                scope: Some(QUEUE_FAMILY),
                sem: Some(0x8 | 0x100 | 0x2000),
            },
            SyncOp::MemoryBarrier {
                scope: Some(2),
                sem: Some(0x100),
            },
        ]);
        let b = normalize(&[SyncOp::MemoryBarrier {
            scope: Some(DEVICE),
            sem: Some(0x8),
        }]);
        assert_eq!(compare(&a, &b), []);
        // A different ordering or scope is not.
        let c = normalize(&[SyncOp::MemoryBarrier {
            scope: Some(DEVICE),
            sem: Some(0x10),
        }]);
        assert_eq!(compare(&a, &c).len(), 2);
        let d = normalize(&[SyncOp::MemoryBarrier {
            scope: Some(2),
            sem: Some(0x8),
        }]);
        assert_eq!(compare(&a, &d).len(), 2);
    }

    #[test]
    fn atomic_opcodes_and_clamps() {
        let atomic = |opcode, sem| SyncOp::Atomic {
            opcode,
            scope: Some(1),
            sem: Some(sem),
        };
        let a = normalize(&[
            atomic(op::ATOMIC_I_INCREMENT, 0x10),
            atomic(op::ATOMIC_COMPARE_EXCHANGE_WEAK, 0x8),
            atomic(op::ATOMIC_FLAG_TEST_AND_SET, 0x0),
            atomic(op::ATOMIC_FLAG_CLEAR, 0x4),
            atomic(op::ATOMIC_LOAD, 0x8 | 0x40),
            atomic(op::ATOMIC_STORE, 0x2),
        ]);
        let b = normalize(&[
            atomic(op::ATOMIC_I_ADD, 0x10 | 0x200),
            atomic(op::ATOMIC_COMPARE_EXCHANGE, 0x8),
            atomic(op::ATOMIC_EXCHANGE, 0x0),
            atomic(op::ATOMIC_STORE, 0x4),
            atomic(op::ATOMIC_LOAD, 0x2),
            atomic(op::ATOMIC_STORE, 0x0),
        ]);
        assert_eq!(compare(&a, &b), []);
        let wrong_op = normalize(&[atomic(op::ATOMIC_I_SUB, 0x10)]);
        assert!(!compare(&a[..1], &wrong_op).is_empty());
        let wrong_order = normalize(&[atomic(op::ATOMIC_I_ADD, 0x8)]);
        assert!(!compare(&a[..1], &wrong_order).is_empty());
    }

    #[test]
    fn non_constant_operands_widen() {
        let a = normalize(&[SyncOp::MemoryBarrier {
            scope: None,
            sem: None,
        }]);
        assert_eq!(
            a,
            [Fact::Fence {
                scope: CROSS_DEVICE,
                order: Order::SeqCst
            }]
        );
    }
}
