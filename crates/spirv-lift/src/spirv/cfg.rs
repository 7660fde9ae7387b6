//! A function's control flow in the analysis layer's terms: its [`Cfg`] (blocks numbered
//! in module order, the entry first) with the analyses computed once from it
//! ([`FunctionAnalyses`]), and the merge information of its structured headers.

use super::{Function, IdMap, Inst, Op, Operand, SpvId};
use crate::analysis::{Cfg, FunctionAnalyses, MergeInfo, Node};
use crate::error::Error;

/// The successor label ids of a terminator, with multiplicity (merge and continue
/// targets are not edges).
pub(crate) fn successors(term: &Inst) -> Result<Vec<SpvId>, Error> {
    let mut s = Vec::new();
    successors_into(term, &mut s)?;
    Ok(s)
}

/// [`successors`] written into `out` (cleared first; left empty on an error).
fn successors_into(term: &Inst, out: &mut Vec<SpvId>) -> Result<(), Error> {
    out.clear();
    match term.op {
        Op::Branch => out.push(term.id(0)?),
        Op::BranchConditional => {
            let (t, f) = (term.id(1)?, term.id(2)?);
            out.extend([t, f]);
        }
        Op::Switch => {
            out.push(term.id(1)?);
            for o in &term.operands[2..] {
                if let Operand::IdRef(l) = o {
                    out.push(SpvId(*l));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Each block's label id → its number (module order).
pub(crate) fn block_numbers(func: &Function) -> IdMap<u32> {
    let labels = || {
        func.blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.id(), i as u32))
    };
    IdMap::from_keys(labels, u32::MAX)
}

/// Builds the CFG of a function body and computes its analyses. A branch to the entry
/// block is an error (LLVM's verifier rejects it), as is a target outside the function.
pub(crate) fn analyses(func: &Function) -> Result<FunctionAnalyses, Error> {
    let index = block_numbers(func);
    // The successor lists flattened as `Cfg::from_csr` takes them (no list per block).
    let mut succ_off = Vec::with_capacity(func.blocks.len() + 1);
    let mut succ = Vec::with_capacity(2 * func.blocks.len());
    let mut targets = Vec::new();
    succ_off.push(0u32);
    for b in &func.blocks {
        let term = b
            .terminator()
            .ok_or_else(|| b.label().invalid("block has no terminator"))?;
        successors_into(term, &mut targets)?;
        for &t in &targets {
            let i = index
                .get(t)
                .ok_or_else(|| term.invalid(format!("%{t} is not a block of this function")))?;
            if i == 0 {
                return Err(term.invalid(format!("the entry block %{t} cannot be a branch target")));
            }
            succ.push(Node(i));
        }
        // A module has fewer than 2^32 words, so fewer edges.
        succ_off.push(u32::try_from(succ.len()).unwrap_or(u32::MAX));
    }
    // The label index is no longer needed: freed before the analyses.
    drop(index);
    let cfg = Cfg::from_csr(succ_off, succ).map_err(|e| func.def.invalid(e.to_string()))?;
    Ok(FunctionAnalyses::compute(cfg))
}

/// The merge information of the function's headers (`OpLoopMerge`, `OpSelectionMerge`
/// with a switch's case targets), for structured constructs.
pub(crate) fn merge_infos(func: &Function) -> Vec<MergeInfo> {
    let index = block_numbers(func);
    let block_of = |label: SpvId| index.get(label).map(Node);
    let headers = func.blocks.iter().filter(|b| b.merge().is_some()).count();
    let mut infos = Vec::with_capacity(headers);
    for (i, b) in func.blocks.iter().enumerate() {
        let header = Node(i as u32);
        match b.merge() {
            Some(m) if m.op == Op::LoopMerge => {
                if let (Some(merge), Some(cont)) = (
                    m.id(0).ok().and_then(block_of),
                    m.id(1).ok().and_then(block_of),
                ) {
                    infos.push(MergeInfo::Loop {
                        header,
                        merge,
                        continue_target: cont,
                    });
                }
            }
            Some(m) => {
                if let Some(merge) = m.id(0).ok().and_then(block_of) {
                    let case_targets = match b.terminator() {
                        Some(t) if t.op == Op::Switch => successors(t)
                            .unwrap_or_default()
                            .into_iter()
                            .filter_map(block_of)
                            .collect(),
                        _ => Vec::new(),
                    };
                    infos.push(MergeInfo::Selection {
                        header,
                        merge,
                        case_targets,
                    });
                }
            }
            None => {}
        }
    }
    infos
}
