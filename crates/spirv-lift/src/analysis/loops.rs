//! Natural loops and their nesting forest.
//!
//! A *back edge* is an edge `latch → header` whose target dominates its source. All
//! back edges into one header form one natural loop, whose body is the header plus
//! every block that reaches a latch without passing through the header (A. V. Aho,
//! M. S. Lam, R. Sethi, J. D. Ullman, *Compilers: Principles, Techniques, and Tools*,
//! 2nd ed., §9.6.6). Two natural loops with different headers are either disjoint or
//! nested, which gives a forest.
//!
//! The algorithm is the one of LLVM's `LoopInfoBase::analyze` (itself in the spirit of
//! P. Havlak, "Nesting of Reducible and Irreducible Loops", ACM TOPLAS 19(4), 1997):
//! headers are visited in reverse dominator-tree pre-order (inner loops first); for
//! each, a backward walk from its latches claims the unclaimed blocks and jumps over
//! already-discovered inner loops straight to their header's outside predecessors. The
//! "outermost loop discovered so far" of a block is found with a union-find
//! (path-halving), so the whole analysis is `O((N + E) α(N))` and uses explicit
//! worklists only.
//!
//! [`LoopId`]s are numbered by the reverse post-order position of the header, so every
//! loop's id is smaller than the ids of the loops nested in it.

use super::NONE;
use super::cfg::{Cfg, Node, csr_slice};
use super::dom::DomTree;

/// A natural loop of a [`Loops`] result (index into it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LoopId(pub u32);

impl LoopId {
    /// The id as an index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The natural loops of a CFG and their nesting forest.
///
/// Methods taking a [`LoopId`] panic if the id did not come from this `Loops`; methods
/// taking a [`Node`] accept any block (unreachable or out-of-range blocks are in no
/// loop).
#[derive(Clone, Debug)]
pub struct Loops {
    header: Vec<Node>,
    parent: Vec<u32>,
    depth: Vec<u32>,
    /// Child loops, CSR, each row in increasing id order.
    child_off: Vec<u32>,
    children: Vec<LoopId>,
    /// Latches, CSR, each row sorted and deduplicated.
    latch_off: Vec<u32>,
    latches: Vec<Node>,
    /// Layout in which every loop's blocks are one contiguous run.
    layout: Vec<Node>,
    /// Per loop: start of its run in `layout`, number of own blocks, total blocks.
    start: Vec<u32>,
    own: Vec<u32>,
    size: Vec<u32>,
    /// Per block: innermost loop and position in `layout` (`NONE` if in no loop).
    loop_of: Vec<u32>,
    pos: Vec<u32>,
    /// Per block: the loop it heads, or `NONE`.
    header_of: Vec<u32>,
}

/// The natural loops as discovery finds them, innermost first, before `Loops::compute`
/// renumbers them outer loops first.
struct Discovered {
    /// Per block: the innermost loop's discovery id, or `NONE`.
    loop_of: Vec<u32>,
    header: Vec<Node>,
    parent: Vec<u32>,
    /// Per loop: its latches, sorted.
    latches: Vec<Vec<Node>>,
}

impl Discovered {
    /// Walks the headers in reverse dominator-tree preorder, so inner loops are found
    /// before the loops around them; each loop's body is found backwards from its
    /// latches, and an inner loop met on the way is nested (union-find towards the
    /// outermost loop found so far).
    fn compute(cfg: &Cfg, dom: &DomTree) -> Discovered {
        let n = cfg.num_blocks();
        // Discovery, innermost loops first. Loops get "raw" ids in discovery order.
        let mut raw_loop_of = vec![NONE; n];
        let mut raw_header: Vec<Node> = Vec::new();
        let mut raw_parent: Vec<u32> = Vec::new();
        let mut raw_latches: Vec<Vec<Node>> = Vec::new();
        let mut uf: Vec<u32> = Vec::new(); // union-find link towards the outer loop
        let mut work: Vec<Node> = Vec::new();

        for &h in dom.preorder().iter().rev() {
            let mut latches: Vec<Node> = cfg
                .preds(h)
                .iter()
                .copied()
                .filter(|&p| dom.dominates(h, p))
                .collect();
            if latches.is_empty() {
                continue;
            }
            latches.sort_unstable();
            latches.dedup();
            let l = raw_header.len() as u32;
            raw_header.push(h);
            raw_parent.push(NONE);
            uf.push(l);
            raw_loop_of[h.index()] = l;
            work.extend_from_slice(&latches);
            raw_latches.push(latches);

            while let Some(b) = work.pop() {
                let s = raw_loop_of[b.index()];
                if s == NONE {
                    // A new body block (never the header, which is already claimed).
                    raw_loop_of[b.index()] = l;
                    work.extend(cfg.preds(b).iter().filter(|&&p| cfg.is_reachable(p)));
                    continue;
                }
                let o = find(&mut uf, s);
                if o == l {
                    continue;
                }
                // `o` is an outermost inner loop not yet nested anywhere: nest it in
                // `l` and continue from the predecessors entering it.
                raw_parent[o as usize] = l;
                uf[o as usize] = l;
                let oh = raw_header[o as usize];
                work.extend(
                    cfg.preds(oh)
                        .iter()
                        .filter(|&&p| cfg.is_reachable(p) && !dom.dominates(oh, p)),
                );
            }
        }
        Discovered {
            loop_of: raw_loop_of,
            header: raw_header,
            parent: raw_parent,
            latches: raw_latches,
        }
    }
}

impl Loops {
    /// Finds all natural loops of `cfg`, given its dominator tree.
    ///
    /// # Panics
    /// If `dom` was computed from a different, larger CFG (a caller bug).
    pub fn compute(cfg: &Cfg, dom: &DomTree) -> Loops {
        let n = cfg.num_blocks();

        let Discovered {
            loop_of: raw_loop_of,
            header: raw_header,
            parent: raw_parent,
            latches: raw_latches,
        } = Discovered::compute(cfg, dom);

        // Renumber by reverse post-order of the header: outer loops first.
        let k = raw_header.len();
        if k == 0 {
            // No loop: every per-block query reads past the end of an empty array, which
            // means "in no loop", and there is no `LoopId` to ask about.
            return Loops {
                header: Vec::new(),
                parent: Vec::new(),
                depth: Vec::new(),
                child_off: Vec::new(),
                children: Vec::new(),
                latch_off: Vec::new(),
                latches: Vec::new(),
                layout: Vec::new(),
                start: Vec::new(),
                own: Vec::new(),
                size: Vec::new(),
                loop_of: Vec::new(),
                pos: Vec::new(),
                header_of: Vec::new(),
            };
        }
        let mut order: Vec<u32> = (0..k as u32).collect();
        order.sort_unstable_by_key(|&r| cfg.rpo_index(raw_header[r as usize]).unwrap_or(NONE));
        let mut new_id = vec![0u32; k];
        for (i, &r) in order.iter().enumerate() {
            new_id[r as usize] = i as u32;
        }
        let map = |r: u32| if r == NONE { NONE } else { new_id[r as usize] };

        let header: Vec<Node> = order.iter().map(|&r| raw_header[r as usize]).collect();
        let parent: Vec<u32> = order.iter().map(|&r| map(raw_parent[r as usize])).collect();
        let loop_of: Vec<u32> = raw_loop_of.iter().map(|&r| map(r)).collect();
        let mut header_of = vec![NONE; n];
        for (i, h) in header.iter().enumerate() {
            header_of[h.index()] = i as u32;
        }

        let mut latch_off = Vec::with_capacity(k + 1);
        let mut latches = Vec::new();
        latch_off.push(0u32);
        for &r in &order {
            latches.extend_from_slice(&raw_latches[r as usize]);
            latch_off.push(latches.len() as u32);
        }

        // Depth: parents have smaller ids, so one forward pass suffices.
        let mut depth = vec![1u32; k];
        for l in 0..k {
            let p = parent[l];
            if p != NONE {
                depth[l] = depth[p as usize] + 1;
            }
        }

        // Children by counting sort (rows in increasing id order).
        let mut child_off = vec![0u32; k + 1];
        for &p in &parent {
            if p != NONE {
                child_off[p as usize + 1] += 1;
            }
        }
        for i in 0..k {
            child_off[i + 1] += child_off[i];
        }
        let mut fill: Vec<u32> = child_off[..k].to_vec();
        let mut children = vec![LoopId(0); child_off[k] as usize];
        for (l, &p) in parent.iter().enumerate() {
            if p != NONE {
                children[fill[p as usize] as usize] = LoopId(l as u32);
                fill[p as usize] += 1;
            }
        }

        // Layout: each loop's run is [own blocks, sorted][child 1 run][child 2 run]...
        let mut own = vec![0u32; k];
        for &l in &loop_of {
            if l != NONE {
                own[l as usize] += 1;
            }
        }
        let mut size = own.clone();
        for l in (0..k).rev() {
            let p = parent[l];
            if p != NONE {
                size[p as usize] += size[l];
            }
        }
        let mut start = vec![0u32; k];
        let mut next_child = vec![0u32; k]; // where the next child run of a loop goes
        let mut next_root = 0u32;
        for l in 0..k {
            let p = parent[l];
            let slot = if p == NONE {
                &mut next_root
            } else {
                &mut next_child[p as usize]
            };
            start[l] = *slot;
            *slot += size[l];
            next_child[l] = start[l] + own[l];
        }
        let mut layout = vec![Node(0); next_root as usize];
        let mut pos = vec![NONE; n];
        let mut own_fill = start.clone();
        for (b, &l) in loop_of.iter().enumerate() {
            if l != NONE {
                let at = &mut own_fill[l as usize];
                layout[*at as usize] = Node(b as u32);
                pos[b] = *at;
                *at += 1;
            }
        }

        Loops {
            header,
            parent,
            depth,
            child_off,
            children,
            latch_off,
            latches,
            layout,
            start,
            own,
            size,
            loop_of,
            pos,
            header_of,
        }
    }

    /// Number of loops.
    pub fn len(&self) -> usize {
        self.header.len()
    }

    /// Whether the CFG has no loop.
    pub fn is_empty(&self) -> bool {
        self.header.is_empty()
    }

    /// All loops in id order: by reverse post-order of their headers, so every loop
    /// comes before the loops nested in it.
    pub fn loops(&self) -> impl ExactSizeIterator<Item = LoopId> + use<> {
        (0..self.header.len() as u32).map(LoopId)
    }

    /// The innermost loop containing `b`, if any.
    pub fn loop_of(&self, b: Node) -> Option<LoopId> {
        self.loop_of
            .get(b.index())
            .copied()
            .filter(|&l| l != NONE)
            .map(LoopId)
    }

    /// Number of loops containing `b` (0 if none).
    pub fn loop_depth(&self, b: Node) -> u32 {
        self.loop_of(b).map_or(0, |l| self.depth(l))
    }

    /// The header of `l`.
    pub fn header(&self, l: LoopId) -> Node {
        self.header[l.index()]
    }

    /// The loop immediately enclosing `l`, if any.
    pub fn parent(&self, l: LoopId) -> Option<LoopId> {
        Some(self.parent[l.index()])
            .filter(|&p| p != NONE)
            .map(LoopId)
    }

    /// Nesting depth of `l`: 1 for an outermost loop.
    pub fn depth(&self, l: LoopId) -> u32 {
        self.depth[l.index()]
    }

    /// Loops immediately nested in `l`, in id order.
    pub fn children(&self, l: LoopId) -> &[LoopId] {
        csr_slice(&self.child_off, &self.children, l.index())
    }

    /// All blocks of `l`, including those of nested loops.
    ///
    /// Order (fixed, deterministic, *not* globally sorted): first the blocks whose
    /// innermost loop is `l` ([`own_blocks`](Loops::own_blocks), sorted by block
    /// number), then the blocks of each child loop in [`children`](Loops::children)
    /// order, recursively in the same layout. This keeps the result a slice of one
    /// shared array (linear memory even for a 100,000-deep nest); sort a copy if
    /// sorted order is needed.
    pub fn blocks(&self, l: LoopId) -> &[Node] {
        let s = self.start[l.index()] as usize;
        &self.layout[s..s + self.size[l.index()] as usize]
    }

    /// The blocks whose innermost loop is `l` (header included), sorted.
    pub fn own_blocks(&self, l: LoopId) -> &[Node] {
        let s = self.start[l.index()] as usize;
        &self.layout[s..s + self.own[l.index()] as usize]
    }

    /// Number of blocks of `l`, including nested loops.
    pub fn num_blocks(&self, l: LoopId) -> usize {
        self.size[l.index()] as usize
    }

    /// Sources of the back edges of `l` (sorted, without repeats).
    pub fn latches(&self, l: LoopId) -> &[Node] {
        csr_slice(&self.latch_off, &self.latches, l.index())
    }

    /// Whether `b` is the header of a loop.
    pub fn is_header(&self, b: Node) -> bool {
        self.loop_with_header(b).is_some()
    }

    /// The loop headed by `b`, if any.
    pub fn loop_with_header(&self, b: Node) -> Option<LoopId> {
        self.header_of
            .get(b.index())
            .copied()
            .filter(|&l| l != NONE)
            .map(LoopId)
    }

    /// Whether `b` is in `l` (directly or in a nested loop). `O(1)`.
    pub fn contains(&self, l: LoopId, b: Node) -> bool {
        match self.pos.get(b.index()) {
            Some(&p) if p != NONE => {
                let s = self.start[l.index()];
                p >= s && p - s < self.size[l.index()]
            }
            _ => false,
        }
    }
}

/// Union-find root with path halving.
fn find(uf: &mut [u32], mut x: u32) -> u32 {
    while uf[x as usize] != x {
        let up = uf[uf[x as usize] as usize];
        uf[x as usize] = up;
        x = up;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(succs: &[&[u32]]) -> (Cfg, Loops) {
        let v: Vec<Vec<Node>> = succs
            .iter()
            .map(|s| s.iter().map(|&i| Node(i)).collect())
            .collect();
        let cfg = Cfg::new(&v).unwrap();
        let dom = DomTree::compute(&cfg);
        let loops = Loops::compute(&cfg, &dom);
        (cfg, loops)
    }

    fn blocks(v: &[u32]) -> Vec<Node> {
        v.iter().map(|&i| Node(i)).collect()
    }

    #[test]
    fn no_loops() {
        let (_, loops) = analyze(&[&[1, 2], &[3], &[3], &[]]);
        assert!(loops.is_empty());
        assert_eq!(loops.loop_of(Node(1)), None);
        assert_eq!(loops.loop_depth(Node(1)), 0);
    }

    #[test]
    fn nested_loops_with_two_latches() {
        // 0 -> 1 (outer header) -> 2 (inner header) -> 3 -> 2 | 4; 4 -> 1 | 5;
        // 2 -> 1 as a second outer latch; 1 -> 5 exit.
        let (_, loops) = analyze(&[&[1], &[2, 5], &[3, 1], &[2, 4], &[1, 5], &[]]);
        assert_eq!(loops.len(), 2);
        let outer = loops.loop_with_header(Node(1)).unwrap();
        let inner = loops.loop_with_header(Node(2)).unwrap();
        assert_eq!((outer, inner), (LoopId(0), LoopId(1)));
        assert_eq!(loops.latches(outer), blocks(&[2, 4]).as_slice());
        assert_eq!(loops.latches(inner), blocks(&[3]).as_slice());
        assert_eq!(loops.parent(inner), Some(outer));
        assert_eq!(loops.parent(outer), None);
        assert_eq!(loops.children(outer), &[inner]);
        assert_eq!(loops.depth(inner), 2);
        assert_eq!(loops.blocks(outer), blocks(&[1, 4, 2, 3]).as_slice());
        assert_eq!(loops.own_blocks(outer), blocks(&[1, 4]).as_slice());
        assert_eq!(loops.blocks(inner), blocks(&[2, 3]).as_slice());
        assert_eq!(loops.loop_of(Node(3)), Some(inner));
        assert_eq!(loops.loop_of(Node(4)), Some(outer));
        assert_eq!(loops.loop_of(Node(5)), None);
        assert!(loops.contains(outer, Node(3)));
        assert!(!loops.contains(inner, Node(4)));
        assert!(!loops.contains(outer, Node(77)));
        assert!(loops.is_header(Node(2)));
        assert!(!loops.is_header(Node(3)));
        assert_eq!(loops.loops().collect::<Vec<_>>(), vec![outer, inner]);
    }

    #[test]
    fn self_loop_and_multi_edge_latch() {
        let (_, loops) = analyze(&[&[1], &[1, 1, 2], &[]]);
        let l = loops.loop_of(Node(1)).unwrap();
        assert_eq!(loops.latches(l), blocks(&[1]).as_slice());
        assert_eq!(loops.blocks(l), blocks(&[1]).as_slice());
    }

    #[test]
    fn irreducible_pair_is_not_a_natural_loop() {
        let (_, loops) = analyze(&[&[1, 2], &[2], &[1]]);
        assert!(loops.is_empty());
    }

    #[test]
    fn unreachable_predecessor_is_not_in_the_loop() {
        // 3 is unreachable and branches into the loop body.
        let (_, loops) = analyze(&[&[1], &[2, 4], &[1], &[2], &[]]);
        let l = loops.loop_of(Node(1)).unwrap();
        assert_eq!(loops.blocks(l), blocks(&[1, 2]).as_slice());
        assert_eq!(loops.loop_of(Node(3)), None);
    }
}
