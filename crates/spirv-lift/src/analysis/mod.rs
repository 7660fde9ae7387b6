//! Control-flow analyses over a compact, SPIR-V-independent CFG.
//!
//! Everything here works on plain block numbers ([`Block`]) and knows nothing about
//! SPIR-V instructions: the caller builds a [`Cfg`] from the successor lists of its
//! blocks (block 0 is the entry) and then runs the analyses it needs:
//!
//! * [`DomTree`] — dominator tree (Lengauer–Tarjan, with the Cooper–Harvey–Kennedy
//!   iterative algorithm kept as a test oracle);
//! * [`Loops`] — natural loops and their nesting forest;
//! * [`IrreducibleCycles`] — strongly connected regions left after removing back edges;
//! * [`Constructs`] — SPIR-V structured constructs (selection, loop, continue, case).
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

pub use cfg::{Block, Cfg, CfgError};
pub use cycles::IrreducibleCycles;
pub use dom::DomTree;
pub use loops::{LoopId, Loops};
pub use structured::{Construct, ConstructId, ConstructKind, Constructs, MergeInfo};

/// Sentinel for "no block / no index" in the compact `u32` arrays.
const NONE: u32 = u32::MAX;
