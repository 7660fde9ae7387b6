//! Which region owns each block's convergent operations (SPEC §5), computed from a
//! function's CFG analyses; [`place`](super::place) then puts the tokens.
//!
//! Structured functions (shaders whose every natural loop has an `OpLoopMerge`) use loop
//! constructs, so break paths belong to their loop; other functions use natural loops.
//! Blocks in irreducible cycles, or in a natural loop whose header is in one, use anchors.

use super::place::{LoopRegion, Owner, Regions};
use crate::analysis::{Cfg, ConstructKind, Constructs, DomTree, FunctionAnalyses, MergeInfo, Node};
use crate::llvm::BlockId;
use foldhash::{HashMap, HashMapExt, HashSet};

/// The regions of one function. `merges` is the merge information of its headers;
/// `kernel` says it comes from an OpenCL module (never structured); `blocks` gives the
/// LLVM block of each CFG block (`None` when it was not emitted), and `nblocks` the
/// number of LLVM blocks.
pub fn compute(
    a: &FunctionAnalyses,
    merges: &[MergeInfo],
    kernel: bool,
    blocks: &[Option<BlockId>],
    nblocks: usize,
) -> Regions {
    let to_llvm = |b: Node| blocks.get(b.index()).copied().flatten();
    let loop_headers: HashSet<Node> = merges
        .iter()
        .filter_map(|m| match m {
            MergeInfo::Loop { header, .. } => Some(*header),
            MergeInfo::Selection { .. } => None,
        })
        .collect();
    let (loops, cycles) = (a.loops(), a.cycles());
    let structured = !kernel
        && !loop_headers.is_empty()
        && cycles.is_empty()
        && loops
            .loops()
            .all(|l| loop_headers.contains(&loops.header(l)));
    let mut out = Regions {
        owner: vec![Owner::Entry; nblocks],
        loops: Vec::new(),
    };
    if structured {
        let constructs = structural_constructs(a, merges);
        let mut key = HashMap::new();
        for (id, c) in constructs.iter() {
            if c.kind == ConstructKind::Loop
                && let Some(h) = to_llvm(c.header)
            {
                key.insert(id, out.loops.len() as u32);
                out.loops.push(LoopRegion {
                    header: h,
                    parent: None,
                });
            }
        }
        for (id, k) in &key {
            out.loops[*k as usize].parent = constructs
                .loop_parent(*id)
                .and_then(|p| key.get(&p).copied());
        }
        for i in 0..blocks.len() {
            let b = Node(i as u32);
            if let (Some(lb), Some(c)) = (to_llvm(b), constructs.innermost_loop(b))
                && let Some(k) = key.get(&c)
            {
                out.owner[lb.index()] = Owner::Loop(*k);
            }
        }
        if constructs_hold_cycles(a, &out, &to_llvm) && constructs_nest(a, &out, blocks) {
            return out;
        }
        // Merge information that does not describe the CFG (input `spirv-val` refuses,
        // e.g. blocks before their dominators): a cycle's block outside its loop's
        // construct would use a token from outside the cycle. Natural loops instead.
        out = Regions {
            owner: vec![Owner::Entry; nblocks],
            loops: Vec::new(),
        };
    }
    // Natural loops; a loop whose header is in an irreducible cycle (or inside such a loop)
    // cannot have a heart, so its blocks use anchors.
    let mut irreducible = vec![false; loops.loops().len()];
    for l in loops.loops() {
        let parent_irr = loops.parent(l).is_some_and(|p| irreducible[p.0 as usize]);
        irreducible[l.0 as usize] = parent_irr || cycles.cycle_of(loops.header(l)).is_some();
        if let Some(h) = to_llvm(loops.header(l)) {
            out.loops.push(LoopRegion {
                header: h,
                parent: loops.parent(l).map(|p| p.0),
            });
        }
    }
    for i in 0..blocks.len() {
        let b = Node(i as u32);
        let Some(lb) = to_llvm(b) else { continue };
        let l = loops.loop_of(b);
        out.owner[lb.index()] =
            if cycles.cycle_of(b).is_some() || l.is_some_and(|l| irreducible[l.0 as usize]) {
                Owner::Anchor
            } else {
                l.map_or(Owner::Entry, |l| Owner::Loop(l.0))
            };
    }
    out
}

/// Whether every block of every natural loop is owned by that loop's construct (the
/// loop region whose header is the natural loop's header) or one nested in it: what
/// LLVM's rule that a token used in a cycle be defined in it needs.
fn constructs_hold_cycles(
    a: &FunctionAnalyses,
    out: &Regions,
    to_llvm: &dyn Fn(Node) -> Option<BlockId>,
) -> bool {
    let loops = a.loops();
    (0..a.cfg.num_blocks()).all(|i| {
        let b = Node(i as u32);
        let (Some(l), Some(lb)) = (loops.loop_of(b), to_llvm(b)) else {
            return true;
        };
        let Some(header) = to_llvm(loops.header(l)) else {
            return true;
        };
        let mut region = match out.owner.get(lb.index()) {
            Some(Owner::Loop(k)) => Some(*k),
            _ => return false,
        };
        // Walk out through the enclosing loop regions until this loop's header.
        let mut steps = 0;
        while let Some(k) = region {
            let Some(r) = out.loops.get(k as usize) else {
                return false;
            };
            if r.header == header {
                return true;
            }
            steps += 1;
            if steps > out.loops.len() {
                return false;
            }
            region = r.parent;
        }
        false
    })
}

/// At most this many block visits for [`constructs_nest`] (regions × blocks): beyond it
/// the function uses natural loops, which nest by construction.
const NEST_CHECK_BUDGET: usize = 1 << 25;

/// Whether each loop region is closed under the paths its token lives on: every block on
/// a path from the loop's header (not through the header again) to a block owned by the
/// loop or a loop inside it is itself owned by one of them. LLVM's verifier requires it
/// ("Convergence region is not well-nested": a use of an outer token inside the loop
/// token's live range). Constructs from merge information that fits the CFG have it;
/// merge information `spirv-val` refuses (a branch into a loop's body past its header,
/// found by the `assemble_text` fuzz target) may not, and the function then uses natural
/// loops. Each region costs a forward and a backward walk over the function's blocks.
fn constructs_nest(a: &FunctionAnalyses, out: &Regions, blocks: &[Option<BlockId>]) -> bool {
    let cfg = &a.cfg;
    let n = cfg.num_blocks();
    if out.loops.len().saturating_mul(n) > NEST_CHECK_BUDGET {
        return false;
    }
    let emitted = |b: Node| blocks.get(b.index()).copied().flatten();
    let owner = |b: Node| emitted(b).and_then(|lb| out.owner.get(lb.index()).copied());
    // Whether region `inner` is `k` or inside it.
    let within = |inner: u32, k: u32| {
        let mut r = Some(inner);
        for _ in 0..=out.loops.len() {
            match r {
                Some(x) if x == k => return true,
                Some(x) => r = out.loops.get(x as usize).and_then(|l| l.parent),
                None => return false,
            }
        }
        false
    };
    // The CFG block of each LLVM block, then of each loop region's header.
    let mut node_of = vec![None; out.owner.len()];
    for i in 0..n {
        if let Some(slot) = emitted(Node(i as u32)).and_then(|lb| node_of.get_mut(lb.index())) {
            *slot = Some(Node(i as u32));
        }
    }
    let header_node: Vec<Option<Node>> = out
        .loops
        .iter()
        .map(|l| node_of.get(l.header.index()).copied().flatten())
        .collect();
    let (mut fwd, mut bwd) = (vec![false; n], vec![false; n]);
    let mut stack = Vec::new();
    for (k, h) in header_node.iter().enumerate() {
        let Some(h) = *h else { continue };
        let k = k as u32;
        let inside = |b: Node| matches!(owner(b), Some(Owner::Loop(r)) if within(r, k));
        fwd.iter_mut().for_each(|v| *v = false);
        bwd.iter_mut().for_each(|v| *v = false);
        // Forward from the header, not through it again.
        stack.extend(cfg.succs(h).iter().copied().filter(|&s| s != h));
        while let Some(b) = stack.pop() {
            if fwd[b.index()] || emitted(b).is_none() {
                continue;
            }
            fwd[b.index()] = true;
            stack.extend(cfg.succs(b).iter().copied().filter(|&s| s != h));
        }
        // Backward from the region's blocks, not through the header.
        stack.extend((0..n as u32).map(Node).filter(|&b| b != h && inside(b)));
        while let Some(b) = stack.pop() {
            if bwd[b.index()] || emitted(b).is_none() {
                continue;
            }
            bwd[b.index()] = true;
            stack.extend(cfg.preds(b).iter().copied().filter(|&p| p != h));
        }
        if (0..n).any(|i| fwd[i] && bwd[i] && !inside(Node(i as u32))) {
            return false;
        }
    }
    true
}

/// The structured constructs of a function, computed as SPIR-V defines them: with
/// *structural* dominance, in the CFG where each header also has an edge to its merge
/// block (and a loop header to its continue target). Plain dominance puts too much in a
/// construct when a branch leaves it for an enclosing loop's merge: in
/// `if (c) break; else break;` inside a loop, the loop's merge block is dominated by the
/// selection header, so the selection (and hence the loop) would own everything after
/// the loop, and the next loop's token would be chained to this one's (a region LLVM
/// calls "not well-nested"). With the merge edges the loop's merge is dominated by the
/// loop header only, as the structured rules intend; for constructs without such
/// branches the blocks are the same.
fn structural_constructs(a: &FunctionAnalyses, merges: &[MergeInfo]) -> Constructs {
    // An edge from a block to itself, or to one it is already the immediate dominator of,
    // changes no dominator; when every added edge is such, the function's own tree is the
    // structural one and nothing is built again.
    let added = |m: &MergeInfo| -> (Node, [Option<Node>; 2]) {
        match m {
            MergeInfo::Selection { header, merge, .. } => (*header, [Some(*merge), None]),
            MergeInfo::Loop {
                header,
                merge,
                continue_target,
            } => (*header, [Some(*merge), Some(*continue_target)]),
        }
    };
    if merges.iter().all(|m| {
        let (h, targets) = added(m);
        targets
            .into_iter()
            .flatten()
            .all(|t| t == h || a.dom.idom(t) == Some(h))
    }) {
        return Constructs::compute(&a.cfg, &a.dom, merges);
    }
    let n = a.cfg.num_blocks();
    let mut succs: Vec<Vec<Node>> = (0..n)
        .map(|i| a.cfg.succs(Node(i as u32)).to_vec())
        .collect();
    for m in merges {
        let (header, extra) = added(m);
        if let Some(list) = succs.get_mut(header.index()) {
            list.extend(extra.into_iter().flatten().filter(|b| b.index() < n));
        }
    }
    match Cfg::new(&succs) {
        Ok(cfg) => {
            let dom = DomTree::compute(&cfg);
            Constructs::compute(&cfg, &dom, merges)
        }
        // Same blocks and edges as the function's own CFG, plus at most two per header:
        // too large only where the CFG itself nearly was; fall back to plain dominance.
        Err(_) => Constructs::compute(&a.cfg, &a.dom, merges),
    }
}
