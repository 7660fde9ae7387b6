//! Control-flow analyses over a compact, SPIR-V-independent CFG.
//!
//! Everything here works on plain block numbers ([`Node`]) and knows nothing about
//! SPIR-V instructions: the caller builds a [`Cfg`] from the successor lists of its
//! blocks (block 0 is the entry) and then runs the analyses it needs:
//!
//! * [`DomTree`] — dominator tree (Lengauer–Tarjan, with the Cooper–Harvey–Kennedy
//!   iterative algorithm kept as a test oracle);
//! * [`Loops`] — natural loops and their nesting forest;
//! * [`IrreducibleCycles`] — strongly connected regions left after removing back edges;
//! * [`Constructs`] — SPIR-V structured constructs (selection, loop, continue, case);
//! * [`FunctionAnalyses`] — a CFG with its dominator tree, loops and cycles, each
//!   computed once per function and shared by the passes that read them.
//!
//! All algorithms are iterative (no recursion, so deep or huge inputs cannot overflow
//! the stack), near-linear in blocks + edges, deterministic, and do not panic on any
//! CFG or merge information the caller passes in.
//!
//! **Unreachable blocks** (not reachable from the entry) take part in no analysis:
//! they have no immediate dominator, dominate nothing and are dominated by nothing
//! (not even themselves), belong to no loop, cycle or construct.

mod cfg;
mod cycles;
mod dom;
mod loops;
mod structured;

#[cfg(test)]
mod tests;

pub use cfg::{Cfg, CfgError, Node};
pub use cycles::IrreducibleCycles;
pub use dom::DomTree;
pub use loops::{LoopId, Loops};
pub use structured::{Construct, ConstructId, ConstructKind, Constructs, MergeInfo};

/// The analyses of one function's CFG, each computed at most once (as cranelift's
/// `Context` holds a function's CFG, dominator tree and loop analysis): the input checks
/// build the CFG and dominator tree for the dominance check, and the lowering reads them
/// for block order and, with the loops and cycles (computed when first asked for, from
/// the same dominator tree), for convergence regions. Until then only the CFG and the
/// dominator tree are kept, so a module's analyses cost little memory between the
/// checks and the lowering.
#[derive(Clone, Debug)]
pub struct FunctionAnalyses {
    /// The control-flow graph.
    pub cfg: Cfg,
    /// Its dominator tree.
    pub dom: DomTree,
    loops: std::sync::OnceLock<Loops>,
    cycles: std::sync::OnceLock<IrreducibleCycles>,
}

impl FunctionAnalyses {
    /// Computes the dominator tree of `cfg` (loops and cycles come when asked for).
    pub fn compute(cfg: Cfg) -> FunctionAnalyses {
        let dom = DomTree::compute(&cfg);
        FunctionAnalyses {
            cfg,
            dom,
            loops: std::sync::OnceLock::new(),
            cycles: std::sync::OnceLock::new(),
        }
    }

    /// The natural loops.
    pub fn loops(&self) -> &Loops {
        self.loops
            .get_or_init(|| Loops::compute(&self.cfg, &self.dom))
    }

    /// The irreducible cycles.
    pub fn cycles(&self) -> &IrreducibleCycles {
        self.cycles
            .get_or_init(|| IrreducibleCycles::compute(&self.cfg, &self.dom))
    }
}

/// Sentinel for "no block / no index" in the compact `u32` arrays.
const NONE: u32 = u32::MAX;
