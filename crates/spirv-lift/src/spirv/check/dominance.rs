//! SSA dominance: every value a function defines is used only where its definition
//! dominates the use (SPIR-V 1.6 §2.16.1), and no branch targets the entry block.
//!
//! LLVM's verifier rejects IR that breaks either rule, so a module that breaks them must
//! be rejected here with a typed error, not translated. The dominator tree is the
//! analysis layer's ([`crate::analysis::DomTree`], Lengauer–Tarjan with an iterative
//! DFS), built over each function's branch edges; uses in unreachable blocks are not
//! checked (they are never executed and lowering drops them).

use foldhash::{HashMap, HashMapExt};

use crate::analysis::{Cfg, DomTree, FunctionAnalyses, Node};
use crate::error::Error;
use crate::spirv::{Function, Inst, Op, Operand, SpvId};

/// Checks a function body's SSA dominance, returning the CFG analyses it computed for
/// the passes after it.
pub(super) fn check_function(func: &Function) -> Result<FunctionAnalyses, Error> {
    let analyses = crate::spirv::cfg::analyses(func)?;
    let index = crate::spirv::cfg::block_numbers(func);
    let (cfg, dom) = (&analyses.cfg, &analyses.dom);
    // Where each value of the function is defined: (block, position in the block).
    // (Positions fit in u32: a module has fewer than 2^22 instructions.)
    let mut defs: HashMap<SpvId, (u32, u32)> = HashMap::with_capacity(func.result_count());
    for (bi, b) in func.blocks.iter().enumerate() {
        for (k, inst) in b.insts.iter().enumerate() {
            if let Some(id) = inst.result_id {
                defs.insert(id, (bi as u32, k as u32));
            }
        }
    }
    for (bi, b) in func.blocks.iter().enumerate() {
        let here = Node(bi as u32);
        if !dom.dominates(here, here) {
            continue; // unreachable
        }
        let mut past_phis = false;
        for (k, inst) in b.insts.iter().enumerate() {
            if inst.op == Op::Phi {
                // LLVM keeps a block's phis at its top; SPIR-V requires the same.
                if past_phis {
                    return Err(inst.invalid(
                        "OpPhi after another instruction of its block (phis come first)",
                    ));
                }
                let phi = Phi {
                    block: bi as u32,
                    defs: &defs,
                    index: &index,
                    cfg,
                    dom,
                };
                phi.check(inst)?;
                continue;
            }
            past_phis |= !matches!(inst.op, Op::Line | Op::NoLine);
            for id in inst.used_ids() {
                let Some(&(db, dk)) = defs.get(&id) else {
                    continue; // a global, a parameter, a label or a function
                };
                let ok = if db == bi as u32 {
                    dk < k as u32
                } else {
                    dom.dominates(Node(db), here)
                };
                if !ok {
                    return Err(not_dominated(inst, id));
                }
            }
        }
    }
    Ok(analyses)
}

/// What a phi's check needs to know about its function.
struct Phi<'a> {
    block: u32,
    defs: &'a HashMap<SpvId, (u32, u32)>,
    index: &'a HashMap<SpvId, u32>,
    cfg: &'a Cfg,
    dom: &'a DomTree,
}

impl Phi<'_> {
    /// Each parent is a predecessor, listed with one value, and each incoming value is
    /// defined where it dominates the end of its parent.
    fn check(&self, inst: &Inst) -> Result<(), Error> {
        let mut seen: HashMap<SpvId, SpvId> = HashMap::new();
        for pair in inst.operands.chunks(2) {
            let (Some(&Operand::IdRef(v)), Some(&Operand::IdRef(parent))) =
                (pair.first(), pair.get(1))
            else {
                continue;
            };
            let (v, parent) = (SpvId(v), SpvId(parent));
            // One value per parent: LLVM takes a parent twice only with the same value.
            if seen.insert(parent, v).is_some_and(|old| old != v) {
                return Err(inst.invalid(format!(
                    "phi parent %{parent} is listed twice with different values"
                )));
            }
            let Some(&p) = self.index.get(&parent) else {
                continue;
            };
            if self.cfg.edge_count(Node(p), Node(self.block)) == 0 {
                return Err(inst.invalid(format!(
                    "phi parent %{parent} is not a predecessor of this block"
                )));
            }
            let Some(&(db, _)) = self.defs.get(&v) else {
                continue;
            };
            let parent_reachable = self.dom.dominates(Node(p), Node(p));
            if parent_reachable && !self.dom.dominates(Node(db), Node(p)) {
                return Err(not_dominated(inst, v));
            }
        }
        Ok(())
    }
}

fn not_dominated(inst: &Inst, id: SpvId) -> Error {
    inst.invalid(format!(
        "%{id} is used where its definition does not dominate the use"
    ))
}
