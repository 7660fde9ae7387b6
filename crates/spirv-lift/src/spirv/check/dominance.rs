//! SSA dominance: every value a function defines is used only where its definition
//! dominates the use (SPIR-V 1.6 §2.16.1), and no branch targets the entry block.
//!
//! LLVM's verifier rejects IR that breaks either rule, so a module that breaks them must
//! be rejected here with a typed error, not translated. The dominator tree is the
//! analysis layer's ([`crate::analysis::DomTree`], Lengauer–Tarjan with an iterative
//! DFS), built over each function's branch edges; uses in unreachable blocks are not
//! checked (they are never executed and lowering drops them).

use crate::analysis::{Cfg, DomTree, FunctionAnalyses, Node};
use crate::error::Error;
use crate::spirv::{Function, IdMap, IdSet, Inst, Op, Operand, SpvId};

/// Checks a function body's SSA dominance, returning the CFG analyses it computed for
/// the passes after it. An id the function uses is one it defines (a value, a parameter,
/// a label) or one of `module_level`: never another function's.
pub(super) fn check_function(
    func: &Function,
    module_level: &IdSet,
) -> Result<FunctionAnalyses, Error> {
    let mut params: Vec<SpvId> = func.params.iter().map(super::super::Param::id).collect();
    params.sort_unstable();
    let analyses = crate::spirv::cfg::analyses(func)?;
    let index = crate::spirv::cfg::block_numbers(func);
    let (cfg, dom) = (&analyses.cfg, &analyses.dom);
    // Where each value of the function is defined: (block, position in the block).
    // (Positions fit in u32: a module has fewer than 2^22 instructions.)
    let results = || {
        func.blocks.iter().enumerate().flat_map(|(bi, b)| {
            let at =
                move |(k, inst): (usize, &Inst)| Some((inst.result_id()?, (bi as u32, k as u32)));
            b.insts.iter().enumerate().filter_map(at)
        })
    };
    let defs = IdMap::from_keys(results, (u32::MAX, u32::MAX));
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
                    module_level,
                    params: &params,
                };
                phi.check(inst)?;
                continue;
            }
            past_phis |= !matches!(inst.op, Op::Line | Op::NoLine);
            for id in inst.used_ids() {
                let Some((db, dk)) = defs.get(id) else {
                    // A global, a function, or a parameter or label of this function.
                    if module_level.contains(id)
                        || params.binary_search(&id).is_ok()
                        || index.get(id).is_some()
                    {
                        continue;
                    }
                    return Err(inst.invalid(format!(
                        "%{id} is used where it is not defined (its definition must dominate this use)"
                    )));
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
    defs: &'a IdMap<(u32, u32)>,
    index: &'a IdMap<u32>,
    cfg: &'a Cfg,
    dom: &'a DomTree,
    module_level: &'a IdSet,
    params: &'a [SpvId],
}

impl Phi<'_> {
    /// Each parent is a predecessor, listed with one value, and each incoming value is
    /// defined where it dominates the end of its parent.
    fn check(&self, inst: &Inst) -> Result<(), Error> {
        let pairs = || {
            inst.operands.chunks(2).filter_map(|pair| match pair {
                [Operand::IdRef(v), Operand::IdRef(parent)] => Some((SpvId(*v), SpvId(*parent))),
                _ => None,
            })
        };
        // One value per parent: LLVM takes a parent twice only with the same value. The
        // first pair that lists its parent again with another value, found by sorting
        // (parent, position) rather than with a map per phi.
        let twice = {
            let mut by_parent: Vec<(SpvId, u32, SpvId)> = pairs()
                .enumerate()
                .map(|(k, (v, parent))| (parent, k as u32, v))
                .collect();
            by_parent.sort_unstable();
            let mut first = None;
            for w in by_parent.chunk_by(|a, b| a.0 == b.0) {
                if let Some(&(_, k, _)) = w.iter().find(|x| x.2 != w[0].2) {
                    first = Some(first.map_or(k, |f: u32| f.min(k)));
                }
            }
            first
        };
        for (k, (v, parent)) in pairs().enumerate() {
            if twice == Some(k as u32) {
                return Err(inst.invalid(format!(
                    "phi parent %{parent} is listed twice with different values"
                )));
            }
            let Some(p) = self.index.get(parent) else {
                continue;
            };
            if self.cfg.edge_count(Node(p), Node(self.block)) == 0 {
                return Err(inst.invalid(format!(
                    "phi parent %{parent} is not a predecessor of this block"
                )));
            }
            let parent_reachable = self.dom.dominates(Node(p), Node(p));
            let Some((db, _)) = self.defs.get(v) else {
                // A global or a parameter of this function; never another function's
                // (from a parent that runs: the lowering drops the others).
                if !parent_reachable
                    || self.module_level.contains(v)
                    || self.params.binary_search(&v).is_ok()
                {
                    continue;
                }
                return Err(inst.invalid(format!(
                    "%{v} is used where it is not defined (its definition must dominate this use)"
                )));
            };
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
