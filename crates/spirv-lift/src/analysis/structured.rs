//! SPIR-V structured control-flow constructs (SPIR-V specification §2.11, "Structured
//! Control Flow").
//!
//! From the merge instructions (`OpSelectionMerge`, `OpLoopMerge`, and the targets of
//! `OpSwitch`), described by [`MergeInfo`], this module derives the constructs:
//!
//! * **selection construct** — blocks dominated by the selection header and not
//!   dominated by its merge block;
//! * **loop construct** — blocks dominated by the loop header and not dominated by
//!   the merge block. Break paths (blocks that end in a branch to the merge) are
//!   therefore inside, the merge block and what it dominates are not, and the continue
//!   construct is nested inside;
//! * **continue construct** — blocks dominated by the continue target and not by the
//!   loop's merge block;
//! * **case construct** — for each `OpSwitch` target other than the merge block,
//!   blocks dominated by that target and not by the merge block.
//!
//! # Algorithm
//! Every construct is "the dominator subtree of its entry, minus the dominator subtree
//! of its merge". Dominator subtrees are contiguous runs of the dominator tree's
//! pre-order ([`DomTree::subtree`]), so each construct is at most two intervals of
//! pre-order positions. The *innermost* construct of a block is the containing construct
//! whose entry is deepest in the dominator tree (all entries of constructs containing
//! a block lie on its dominator-tree path). A single sweep over pre-order positions with
//! a max-heap keyed by (entry pre-order position, rank, id) finds it for every block:
//! `O((N + C) log C)` for `N` blocks and `C` constructs, no recursion, no per-construct
//! flood fill. On well-formed SPIR-V the constructs are properly nested and "deepest
//! entry" is the same as "smallest containing construct".
//!
//! Constructs sharing an entry block are nested in this order, outermost first:
//! case construct, continue construct (of another loop), loop construct, continue
//! construct whose continue target is its own loop header, selection construct.
//! Remaining ties (malformed duplicates) go to the construct with the larger id.
//!
//! # Malformed merge information
//! Nothing here panics on bad [`MergeInfo`]; the definitions above are applied
//! literally, with these consequences:
//! * blocks `>= num_blocks` are treated as unreachable blocks;
//! * a construct whose entry (header, continue target or case target) is unreachable
//!   contains no block and has no parent;
//! * a merge block that is unreachable, or neither dominated by nor dominating the
//!   entry, removes nothing: the construct is the whole dominator subtree of its entry;
//! * a merge block that dominates the entry (e.g. a header equal to its merge block)
//!   gives an empty construct;
//! * two headers naming the same merge block each get their own construct; a case
//!   target listed twice gives one case construct, and a target equal to the merge
//!   block none;
//! * if constructs overlap without nesting, a block's innermost construct is still
//!   the containing one with the deepest entry, and a construct's parent is the
//!   innermost construct containing its entry block (so the parent need not contain
//!   all of the child).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::NONE;
use super::cfg::{Cfg, Node};
use super::dom::DomTree;

/// One structured-control-flow declaration, as the caller read it from SPIR-V.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MergeInfo {
    /// `OpSelectionMerge` in `header`, which ends in `OpBranchConditional` or
    /// `OpSwitch`.
    Selection {
        /// The block holding the merge instruction.
        header: Node,
        /// The merge block.
        merge: Node,
        /// `OpSwitch` targets, default included (any order, repeats allowed); empty
        /// for `OpBranchConditional`.
        case_targets: Vec<Node>,
    },
    /// `OpLoopMerge` in `header`.
    Loop {
        /// The loop header.
        header: Node,
        /// The merge block.
        merge: Node,
        /// The continue target (may equal `header`).
        continue_target: Node,
    },
}

/// Index of a construct in a [`Constructs`] result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstructId(pub u32);

impl ConstructId {
    /// The id as an index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Kind of a structured construct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConstructKind {
    /// Selection construct (`OpSelectionMerge` header).
    Selection,
    /// Loop construct (`OpLoopMerge` header); contains its continue construct.
    Loop,
    /// Continue construct (entered at an `OpLoopMerge` continue target).
    Continue,
    /// Case construct (entered at an `OpSwitch` target other than the merge block).
    Case,
}

/// One structured construct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Construct {
    /// What kind of construct this is.
    pub kind: ConstructKind,
    /// Entry block: the header (selection, loop), continue target, or case target.
    pub header: Node,
    /// Merge block of the declaring header (for continue and case constructs: the
    /// merge of their loop or switch).
    pub merge: Node,
    /// Innermost construct containing this construct's entry block (other than this
    /// construct and constructs nested inside it); `None` at top level or when the
    /// entry is unreachable.
    pub parent: Option<ConstructId>,
}

/// The structured constructs of a function and the innermost construct of each block.
///
/// Ids follow the input: for each [`MergeInfo`] in order, its selection or loop
/// construct, then its continue construct or its case constructs (in order of first
/// appearance among the `case_targets`). See [`from_merge_info`](Self::from_merge_info).
///
/// Methods taking a [`ConstructId`] panic if the id did not come from this value;
/// methods taking a [`Node`] accept any block.
#[derive(Clone, Debug)]
pub struct Constructs {
    constructs: Vec<Construct>,
    /// Per merge info: first construct id (`len = infos + 1`).
    info_start: Vec<u32>,
    /// Per construct: up to two half-open intervals of dominator pre-order positions.
    spans: Vec<[(u32, u32); 2]>,
    /// Per construct: nearest enclosing loop construct (strict), or `NONE`.
    loop_parent: Vec<u32>,
    /// Per block: dominator pre-order position, innermost construct, innermost loop.
    pre: Vec<u32>,
    innermost: Vec<u32>,
    innermost_loop: Vec<u32>,
}

/// Sort key of a construct: deeper entry = more inner; then rank; then id.
type Key = (u32, u8, u32);

impl Constructs {
    /// Derives the constructs from `infos` over `cfg` and its dominator tree.
    pub fn compute(cfg: &Cfg, dom: &DomTree, infos: &[MergeInfo]) -> Constructs {
        let n = cfg.num_blocks();

        // 1. Construct list in input order, with ranks.
        let mut constructs: Vec<Construct> = Vec::new();
        let mut rank: Vec<u8> = Vec::new();
        let mut info_start: Vec<u32> = Vec::with_capacity(infos.len() + 1);
        let mut push = |kind, header, merge, r| {
            constructs.push(Construct {
                kind,
                header,
                merge,
                parent: None,
            });
            rank.push(r);
        };
        let mut counted = 0u32;
        for info in infos {
            info_start.push(counted);
            match info {
                MergeInfo::Selection {
                    header,
                    merge,
                    case_targets,
                } => {
                    push(ConstructKind::Selection, *header, *merge, RANK_SELECTION);
                    counted += 1;
                    for t in first_occurrences(case_targets) {
                        if t != *merge {
                            push(ConstructKind::Case, t, *merge, RANK_CASE);
                            counted += 1;
                        }
                    }
                }
                MergeInfo::Loop {
                    header,
                    merge,
                    continue_target,
                } => {
                    push(ConstructKind::Loop, *header, *merge, RANK_LOOP);
                    let r = if continue_target == header {
                        RANK_CONTINUE_OWN
                    } else {
                        RANK_CONTINUE
                    };
                    push(ConstructKind::Continue, *continue_target, *merge, r);
                    counted += 2;
                }
            }
        }
        info_start.push(counted);
        let k = constructs.len();

        // 2. Pre-order intervals of every construct.
        let range = |b: Node| {
            dom.pre_index(b)
                .map(|p| (p, p + dom.subtree(b).len() as u32))
        };
        let mut spans = vec![[(0u32, 0u32); 2]; k];
        let mut entry_pre = vec![NONE; k];
        for (i, c) in constructs.iter().enumerate() {
            let Some((s, e)) = range(c.header) else {
                continue;
            };
            entry_pre[i] = s;
            spans[i] = match range(c.merge) {
                // Merge inside the entry's subtree: cut its subtree out.
                Some((ms, me)) if s <= ms && ms < e => [(s, ms), (me, e)],
                // Merge dominates the entry: every block is dominated by the merge.
                Some((ms, me)) if ms <= s && s < me => [(s, s), (e, e)],
                _ => [(s, e), (e, e)],
            };
        }
        let key = |i: usize| -> Key { (entry_pre[i], rank[i], i as u32) };

        // 3. Sweeps: all constructs (innermost + parents), loops only (innermost loop).
        let npos = dom.preorder().len();
        let all = sweep(npos, &spans, &entry_pre, key, |_| true);
        let loops_only = sweep(npos, &spans, &entry_pre, key, |i| {
            constructs[i].kind == ConstructKind::Loop
        });

        // 4. Parents: group constructs by entry, in key order.
        let mut order: Vec<u32> = (0..k as u32)
            .filter(|&i| entry_pre[i as usize] != NONE)
            .collect();
        order.sort_unstable_by_key(|&i| key(i as usize));
        let mut prev_pos = NONE;
        let mut prev = NONE;
        for &i in &order {
            let i = i as usize;
            let p = entry_pre[i];
            if p != prev_pos {
                prev_pos = p;
                prev = all.outer[p as usize];
            }
            constructs[i].parent = (prev != NONE).then_some(ConstructId(prev));
            if spans[i][0].0 < spans[i][0].1 {
                prev = i as u32; // non-empty at its entry: encloses later same-entry ones
            }
        }

        // 5. Nearest enclosing loop construct; parents come earlier in key order.
        let mut loop_parent = vec![NONE; k];
        for &i in &order {
            if let Some(p) = constructs[i as usize].parent {
                loop_parent[i as usize] = if constructs[p.index()].kind == ConstructKind::Loop {
                    p.0
                } else {
                    loop_parent[p.index()]
                };
            }
        }

        // 6. Per-block answers.
        let mut pre = vec![NONE; n];
        let mut innermost = vec![NONE; n];
        let mut innermost_loop = vec![NONE; n];
        for (p, b) in dom.preorder().iter().enumerate() {
            if let Some(slot) = pre.get_mut(b.index()) {
                *slot = p as u32;
                innermost[b.index()] = all.inner[p];
                innermost_loop[b.index()] = loops_only.inner[p];
            }
        }

        Constructs {
            constructs,
            info_start,
            spans,
            loop_parent,
            pre,
            innermost,
            innermost_loop,
        }
    }

    /// Number of constructs.
    pub fn len(&self) -> usize {
        self.constructs.len()
    }

    /// Whether there is no construct.
    pub fn is_empty(&self) -> bool {
        self.constructs.is_empty()
    }

    /// All construct ids, in id order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = ConstructId> + use<> {
        (0..self.constructs.len() as u32).map(ConstructId)
    }

    /// All constructs with their ids, in id order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (ConstructId, &Construct)> {
        self.constructs
            .iter()
            .enumerate()
            .map(|(i, c)| (ConstructId(i as u32), c))
    }

    /// The construct `id`.
    pub fn construct(&self, id: ConstructId) -> &Construct {
        &self.constructs[id.index()]
    }

    /// The construct `id`, or `None` if out of range.
    pub fn get(&self, id: ConstructId) -> Option<&Construct> {
        self.constructs.get(id.index())
    }

    /// The constructs made from `infos[i]`: first its selection or loop construct,
    /// then its continue construct (always present for a loop) or its case constructs.
    /// Empty if `i` is out of range.
    pub fn from_merge_info(&self, i: usize) -> impl ExactSizeIterator<Item = ConstructId> + use<> {
        let s = self.info_start.get(i).copied().unwrap_or(0);
        let e = self.info_start.get(i.wrapping_add(1)).copied().unwrap_or(0);
        (s..e.max(s)).map(ConstructId)
    }

    /// Innermost construct (of any kind) containing `b`; `None` if `b` is in no
    /// construct or unreachable.
    pub fn innermost(&self, b: Node) -> Option<ConstructId> {
        some_id(self.innermost.get(b.index()).copied())
    }

    /// Innermost loop construct containing `b`; `None` if no loop construct contains
    /// it. A continue construct whose target is dominated by its loop header lies
    /// inside that loop construct; a loop's merge block and what it dominates do not.
    pub fn innermost_loop(&self, b: Node) -> Option<ConstructId> {
        some_id(self.innermost_loop.get(b.index()).copied())
    }

    /// Nearest loop construct strictly enclosing `id` (following
    /// [`Construct::parent`]); for a continue construct, normally its own loop.
    pub fn loop_parent(&self, id: ConstructId) -> Option<ConstructId> {
        some_id(Some(self.loop_parent[id.index()]))
    }

    /// Whether block `b` belongs to construct `id`. `O(1)`.
    pub fn contains(&self, id: ConstructId, b: Node) -> bool {
        let spans = &self.spans[id.index()];
        match self.pre.get(b.index()) {
            Some(&p) if p != NONE => spans.iter().any(|&(s, e)| s <= p && p < e),
            _ => false,
        }
    }
}

const RANK_CASE: u8 = 0;
const RANK_CONTINUE: u8 = 1;
const RANK_LOOP: u8 = 2;
const RANK_CONTINUE_OWN: u8 = 3;
const RANK_SELECTION: u8 = 4;

fn some_id(x: Option<u32>) -> Option<ConstructId> {
    x.filter(|&i| i != NONE).map(ConstructId)
}

/// Distinct values of `v` in order of first occurrence (`O(k log k)`).
fn first_occurrences(v: &[Node]) -> Vec<Node> {
    let mut idx: Vec<(Node, usize)> = v.iter().copied().zip(0..).collect();
    idx.sort_unstable();
    idx.dedup_by_key(|x| x.0);
    idx.sort_unstable_by_key(|x| x.1);
    idx.into_iter().map(|x| x.0).collect()
}

/// Result of [`sweep`], per dominator pre-order position.
struct Sweep {
    /// Innermost selected construct containing the position.
    inner: Vec<u32>,
    /// Innermost selected construct containing the position whose entry is a strict
    /// dominator of the block there.
    outer: Vec<u32>,
}

/// Stabbing query over pre-order positions: for each position, the covering interval
/// of maximal key, using a lazily-pruned max-heap.
fn sweep(
    npos: usize,
    spans: &[[(u32, u32); 2]],
    entry_pre: &[u32],
    key: impl Fn(usize) -> Key,
    select: impl Fn(usize) -> bool,
) -> Sweep {
    // Interval starts bucketed by position (CSR): (construct, end).
    let mut off = vec![0u32; npos + 1];
    let live = |&(s, e): &(u32, u32)| s < e && (e as usize) <= npos;
    for (i, sp) in spans.iter().enumerate() {
        if entry_pre[i] != NONE && select(i) {
            for iv in sp.iter().filter(|iv| live(iv)) {
                off[iv.0 as usize + 1] += 1;
            }
        }
    }
    for p in 0..npos {
        off[p + 1] += off[p];
    }
    let mut fill: Vec<u32> = off[..npos].to_vec();
    let mut items = vec![(0u32, 0u32); off[npos] as usize];
    for (i, sp) in spans.iter().enumerate() {
        if entry_pre[i] != NONE && select(i) {
            for iv in sp.iter().filter(|iv| live(iv)) {
                items[fill[iv.0 as usize] as usize] = (i as u32, iv.1);
                fill[iv.0 as usize] += 1;
            }
        }
    }

    let mut heap: BinaryHeap<(Key, Reverse<u32>)> = BinaryHeap::new();
    let mut inner = vec![NONE; npos];
    let mut outer = vec![NONE; npos];
    for p in 0..npos {
        let here = items
            .get(off[p] as usize..off[p + 1] as usize)
            .unwrap_or(&[]);
        let p32 = p as u32;
        // Intervals resuming after a merge subtree belong to outer constructs.
        for &(i, e) in here.iter().filter(|&&(i, _)| entry_pre[i as usize] < p32) {
            heap.push((key(i as usize), Reverse(e)));
        }
        while heap.peek().is_some_and(|&(_, Reverse(e))| e <= p32) {
            heap.pop();
        }
        outer[p] = heap.peek().map_or(NONE, |t| t.0.2);
        for &(i, e) in here.iter().filter(|&&(i, _)| entry_pre[i as usize] == p32) {
            heap.push((key(i as usize), Reverse(e)));
        }
        inner[p] = heap.peek().map_or(NONE, |t| t.0.2);
    }
    Sweep { inner, outer }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(succs: &[&[u32]], infos: &[MergeInfo]) -> Constructs {
        let v: Vec<Vec<Node>> = succs
            .iter()
            .map(|s| s.iter().map(|&i| Node(i)).collect())
            .collect();
        let cfg = Cfg::new(&v).unwrap();
        let dom = DomTree::compute(&cfg);
        Constructs::compute(&cfg, &dom, infos)
    }

    fn lp(header: u32, merge: u32, continue_target: u32) -> MergeInfo {
        MergeInfo::Loop {
            header: Node(header),
            merge: Node(merge),
            continue_target: Node(continue_target),
        }
    }

    fn sel(header: u32, merge: u32, cases: &[u32]) -> MergeInfo {
        let case_targets = cases.iter().map(|&c| Node(c)).collect();
        MergeInfo::Selection {
            header: Node(header),
            merge: Node(merge),
            case_targets,
        }
    }

    fn id(i: u32) -> Option<ConstructId> {
        Some(ConstructId(i))
    }

    #[test]
    fn nested_loops_with_break_path_and_continue_constructs() {
        // 1: outer header (merge 8, continue 7); 2: inner header (merge 6, continue 5);
        // 3 -> 4 (break path to 6) | 5 (inner continue -> 2); 6 -> 7 -> 1 | 8.
        let c = analyze(
            &[&[1], &[2], &[3], &[4, 5], &[6], &[2], &[7], &[1, 8], &[]],
            &[lp(1, 8, 7), lp(2, 6, 5)],
        );
        let (outer, outer_cont, inner, inner_cont) = (id(0), id(1), id(2), id(3));
        assert_eq!(c.len(), 4);
        let k = c.construct(ConstructId(3));
        assert_eq!(
            (k.kind, k.header, k.merge, k.parent),
            (ConstructKind::Continue, Node(5), Node(6), inner)
        );
        // Break path: dominated by the inner header, not by its merge.
        assert_eq!(c.innermost_loop(Node(4)), inner);
        assert_eq!(c.innermost(Node(4)), inner);
        // Inner merge belongs to the outer loop.
        assert_eq!(c.innermost_loop(Node(6)), outer);
        assert_eq!(c.innermost(Node(6)), outer);
        assert_eq!(c.innermost(Node(5)), inner_cont);
        assert_eq!(c.innermost_loop(Node(5)), inner);
        assert_eq!(c.innermost(Node(7)), outer_cont);
        assert_eq!(c.innermost_loop(Node(7)), outer);
        assert_eq!(c.innermost(Node(8)), None);
        assert_eq!(c.innermost_loop(Node(0)), None);
        assert_eq!(c.construct(ConstructId(2)).parent, outer);
        assert_eq!(c.loop_parent(ConstructId(2)), outer);
        assert_eq!(c.loop_parent(ConstructId(3)), inner);
        assert_eq!(c.loop_parent(ConstructId(1)), outer);
        assert_eq!(c.loop_parent(ConstructId(0)), None);
        assert!(c.contains(ConstructId(0), Node(5)));
        assert!(!c.contains(ConstructId(2), Node(6)));
        assert_eq!(
            c.from_merge_info(1).collect::<Vec<_>>(),
            vec![ConstructId(2), ConstructId(3)]
        );
        assert_eq!(c.from_merge_info(2).count(), 0);
    }

    #[test]
    fn switch_with_cases_and_fallthrough() {
        // 0: switch (merge 4) to 1, 2, default 4; 1 falls through to 2; 3 unreachable.
        let c = analyze(
            &[&[1, 2, 4], &[2], &[4], &[4], &[]],
            &[sel(0, 4, &[1, 2, 4, 1])],
        );
        assert_eq!(c.len(), 3);
        assert_eq!(c.construct(ConstructId(1)).kind, ConstructKind::Case);
        assert_eq!(c.construct(ConstructId(1)).header, Node(1));
        assert_eq!(c.construct(ConstructId(2)).header, Node(2));
        assert_eq!(c.innermost(Node(0)), id(0));
        assert_eq!(c.innermost(Node(1)), id(1));
        assert_eq!(c.innermost(Node(2)), id(2));
        assert_eq!(c.innermost(Node(3)), None);
        assert_eq!(c.innermost(Node(4)), None);
        assert_eq!(c.construct(ConstructId(1)).parent, id(0));
        assert_eq!(c.construct(ConstructId(2)).parent, id(0));
        assert!(c.contains(ConstructId(0), Node(2)));
        assert!(!c.contains(ConstructId(1), Node(2)));
        assert_eq!(c.innermost_loop(Node(1)), None);
        assert_eq!(c.loop_parent(ConstructId(1)), None);
    }

    #[test]
    fn selection_inside_loop() {
        // 1: loop (merge 6, continue 5); 2: if (merge 4) -> 3 | 4; 4 -> 5 -> 1 | 6.
        let c = analyze(
            &[&[1], &[2], &[3, 4], &[4], &[5], &[1, 6], &[]],
            &[lp(1, 6, 5), sel(2, 4, &[])],
        );
        assert_eq!(c.innermost(Node(3)), id(2));
        assert_eq!(c.innermost(Node(2)), id(2));
        assert_eq!(c.innermost(Node(4)), id(0));
        assert_eq!(c.innermost(Node(5)), id(1));
        assert_eq!(c.innermost_loop(Node(3)), id(0));
        assert_eq!(c.construct(ConstructId(2)).parent, id(0));
        assert_eq!(c.loop_parent(ConstructId(2)), id(0));
        assert_eq!(c.innermost(Node(6)), None);
    }

    #[test]
    fn continue_target_is_header() {
        // Single-block loop 1 (merge 2, continue 1).
        let c = analyze(&[&[1], &[1, 2], &[]], &[lp(1, 2, 1)]);
        assert_eq!(c.innermost(Node(1)), id(1));
        assert_eq!(c.construct(ConstructId(1)).parent, id(0));
        assert_eq!(c.innermost_loop(Node(1)), id(0));
        assert_eq!(c.loop_parent(ConstructId(1)), id(0));
    }

    #[test]
    fn unreachable_merge() {
        // Both arms return: merge 3 is unreachable; infinite loop 4 (merge 6 unreachable).
        let c = analyze(
            &[&[1, 2], &[4], &[], &[], &[5], &[4], &[]],
            &[sel(0, 3, &[]), lp(4, 6, 5)],
        );
        assert_eq!(c.innermost(Node(2)), id(0));
        assert_eq!(c.innermost(Node(4)), id(1));
        assert_eq!(c.innermost_loop(Node(5)), id(1));
        assert_eq!(c.innermost(Node(5)), id(2));
        assert_eq!(c.construct(ConstructId(1)).parent, id(0));
        assert_eq!(c.innermost(Node(3)), None);
    }

    #[test]
    fn malformed_merge_info_does_not_panic() {
        let g: &[&[u32]] = &[&[1], &[2, 3], &[3], &[]];
        // Header == merge: empty construct.
        let c = analyze(g, &[sel(1, 1, &[])]);
        assert_eq!(c.innermost(Node(1)), None);
        assert_eq!(c.construct(ConstructId(0)).parent, None);
        // Merge dominating the header: empty construct.
        let c = analyze(g, &[sel(2, 1, &[])]);
        assert_eq!(c.innermost(Node(2)), None);
        // Merge not dominated by the header: whole dominator subtree.
        let c = analyze(&[&[1, 2], &[3], &[3], &[]], &[sel(1, 2, &[])]);
        assert_eq!(c.innermost(Node(1)), id(0));
        assert_eq!(c.innermost(Node(2)), None);
        // Two headers naming one merge: both constructs, the deeper one is innermost.
        let c = analyze(g, &[sel(0, 3, &[]), sel(1, 3, &[])]);
        assert_eq!(c.innermost(Node(2)), id(1));
        assert_eq!(c.construct(ConstructId(1)).parent, id(0));
        // Out-of-range blocks everywhere.
        let c = analyze(g, &[sel(99, 100, &[101, 99]), lp(200, 201, 202)]);
        assert_eq!(c.len(), 5);
        assert_eq!(c.innermost(Node(1)), None);
        assert!(!c.contains(ConstructId(0), Node(99)));
        assert_eq!(c.construct(ConstructId(3)).parent, None);
        assert_eq!(c.innermost(Node(1000)), None);
        assert!(c.get(ConstructId(5)).is_none());
        assert_eq!(c.from_merge_info(usize::MAX).count(), 0);
    }
}
