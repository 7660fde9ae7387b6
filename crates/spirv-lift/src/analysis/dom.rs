//! Dominator tree.
//!
//! [`DomTree::compute`] uses the Lengauer–Tarjan algorithm with path compression
//! ("simple" variant, `O(E log N)`): T. Lengauer and R. E. Tarjan, "A Fast Algorithm for
//! Finding Dominators in a Flowgraph", ACM TOPLAS 1(1), 1979. The depth-first search
//! and the path compression are iterative (explicit stacks), so neither a long chain
//! nor a deep nest can overflow the call stack.
//!
//! [`DomTree::compute_reference`] is the iterative algorithm of K. D. Cooper,
//! T. J. Harvey and K. Kennedy, "A Simple, Fast Dominance Algorithm", Software Practice
//! & Experience 4, 2001. It is simpler but quadratic in the worst case; it is kept as
//! the test oracle.
//!
//! Both build the same [`DomTree`], which numbers the tree in pre-order so that
//! [`DomTree::dominates`] is an `O(1)` interval test.
//!
//! **Convention for unreachable blocks:** dominance is a relation on reachable blocks
//! only. An unreachable (or out-of-range) block has no [`idom`](DomTree::idom), no
//! [`children`](DomTree::children), no [`depth`](DomTree::depth), is not in
//! [`preorder`](DomTree::preorder), and [`dominates`](DomTree::dominates)`(a, b)` is
//! `false` whenever `a` or `b` is unreachable — including `a == b`.

use super::NONE;
use super::cfg::{Cfg, Node, csr_slice};

/// Dominator tree of the reachable part of a [`Cfg`], rooted at the entry.
#[derive(Clone, Debug)]
pub struct DomTree {
    /// Immediate dominator per block; `NONE` for the entry and unreachable blocks.
    idom: Vec<u32>,
    /// Position in `preorder`; `NONE` for unreachable blocks.
    pre: Vec<u32>,
    /// Size of the dominator subtree (0 for unreachable blocks).
    size: Vec<u32>,
    /// Depth in the tree (entry 0).
    depth: Vec<u32>,
    /// Reachable blocks in dominator-tree pre-order, children in increasing block order.
    preorder: Vec<Node>,
    /// Children in CSR form, each row sorted by block number.
    child_off: Vec<u32>,
    children: Vec<Node>,
}

impl DomTree {
    /// Computes the dominator tree with Lengauer–Tarjan (near-linear, iterative).
    pub fn compute(cfg: &Cfg) -> DomTree {
        let n = cfg.num_blocks();
        if n == 0 {
            return DomTree::from_idoms(cfg, Vec::new());
        }

        // 1. Depth-first numbering from the entry (iterative).
        let mut num = vec![NONE; n]; // block -> DFS number
        // Each holds a reachable block at most once: sized once, never grown.
        let mut vertex: Vec<u32> = Vec::with_capacity(n); // DFS number -> block
        let mut parent: Vec<u32> = Vec::with_capacity(n); // DFS number -> parent's DFS number
        let mut stack: Vec<(u32, u32)> = Vec::with_capacity(n);
        stack.push((0, 0));
        num[0] = 0;
        vertex.push(0);
        parent.push(NONE);
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if let Some(&w) = cfg.succs(Node(v)).get(i as usize) {
                top.1 += 1;
                if num[w.index()] == NONE {
                    num[w.index()] = vertex.len() as u32;
                    parent.push(num[v as usize]);
                    vertex.push(w.0);
                    stack.push((w.0, 0));
                }
            } else {
                stack.pop();
            }
        }

        // 2. Semidominators and implicit immediate dominators, all in DFS numbers.
        let m = vertex.len();
        let mut semi: Vec<u32> = (0..m as u32).collect();
        let mut label: Vec<u32> = (0..m as u32).collect();
        let mut ancestor = vec![NONE; m];
        let mut idom = vec![NONE; m];
        let mut bucket_head = vec![NONE; m];
        let mut bucket_next = vec![NONE; m];
        // A compressed path is at most the tree's depth.
        let mut path: Vec<u32> = Vec::with_capacity(m);

        for w in (1..m).rev() {
            for &p in cfg.preds(Node(vertex[w])) {
                let v = num[p.index()];
                if v == NONE {
                    continue; // unreachable predecessor
                }
                let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
                if semi[u as usize] < semi[w] {
                    semi[w] = semi[u as usize];
                }
            }
            let s = semi[w] as usize;
            bucket_next[w] = bucket_head[s];
            bucket_head[s] = w as u32;
            let pw = parent[w];
            ancestor[w] = pw; // link(parent(w), w)
            let mut v = std::mem::replace(&mut bucket_head[pw as usize], NONE);
            while v != NONE {
                let next = bucket_next[v as usize];
                let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
                idom[v as usize] = if semi[u as usize] < semi[v as usize] {
                    u
                } else {
                    pw
                };
                v = next;
            }
        }

        // 3. Turn relative dominators into immediate dominators (pre-order).
        for w in 1..m {
            let d = idom[w];
            if d != semi[w] {
                idom[w] = idom[d as usize];
            }
        }

        let mut idom_block = vec![NONE; n];
        for w in 1..m {
            idom_block[vertex[w] as usize] = vertex[idom[w] as usize];
        }
        // The working arrays are freed before the tree's are made: a function's peak is
        // one set or the other, not both.
        drop((num, vertex, parent, stack, semi, label, ancestor, idom));
        drop((bucket_head, bucket_next, path));
        DomTree::from_idoms(cfg, idom_block)
    }

    /// Computes the dominator tree with the Cooper–Harvey–Kennedy iterative algorithm
    /// over the reverse post-order. Worst case quadratic: meant as a test oracle.
    pub fn compute_reference(cfg: &Cfg) -> DomTree {
        let n = cfg.num_blocks();
        let rpo = cfg.rpo();
        let mut idom = vec![NONE; n];
        let Some(&entry) = rpo.first() else {
            return DomTree::from_idoms(cfg, idom);
        };
        let order = |b: u32| cfg.rpo_index(Node(b)).unwrap_or(NONE);
        idom[entry.index()] = entry.0;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &rpo[1..] {
                let mut new = NONE;
                for &p in cfg.preds(b) {
                    if idom[p.index()] == NONE {
                        continue; // unreachable or not processed yet
                    }
                    if new == NONE {
                        new = p.0;
                        continue;
                    }
                    // intersect(p, new)
                    let (mut f1, mut f2) = (p.0, new);
                    while f1 != f2 {
                        while order(f1) > order(f2) {
                            f1 = idom[f1 as usize];
                        }
                        while order(f2) > order(f1) {
                            f2 = idom[f2 as usize];
                        }
                    }
                    new = f1;
                }
                if idom[b.index()] != new {
                    idom[b.index()] = new;
                    changed = true;
                }
            }
        }
        idom[entry.index()] = NONE;
        DomTree::from_idoms(cfg, idom)
    }

    /// Builds children lists, pre-order numbering, subtree sizes and depths from the
    /// immediate-dominator array (`NONE` for the entry and unreachable blocks).
    fn from_idoms(cfg: &Cfg, idom: Vec<u32>) -> DomTree {
        let n = idom.len();
        // Children by counting sort; iterating blocks in order keeps rows sorted.
        let mut child_off = vec![0u32; n + 1];
        for &d in &idom {
            if d != NONE {
                child_off[d as usize + 1] += 1;
            }
        }
        for i in 0..n {
            child_off[i + 1] += child_off[i];
        }
        let mut fill: Vec<u32> = child_off[..n].to_vec();
        let mut children = vec![Node(0); child_off[n] as usize];
        for (b, &d) in idom.iter().enumerate() {
            if d != NONE {
                children[fill[d as usize] as usize] = Node(b as u32);
                fill[d as usize] += 1;
            }
        }

        // Pre-order with an explicit stack (children pushed in reverse so that the
        // first child is visited first).
        let mut pre = vec![NONE; n];
        let mut preorder = Vec::with_capacity(cfg.rpo().len());
        // Each block is pushed once, as a child of its dominator: never grown.
        let mut stack: Vec<Node> = Vec::with_capacity(n);
        if n > 0 && cfg.is_reachable(Node(0)) {
            stack.push(Node(0));
        }
        while let Some(b) = stack.pop() {
            pre[b.index()] = preorder.len() as u32;
            preorder.push(b);
            let kids = csr_slice(&child_off, &children, b.index());
            stack.extend(kids.iter().rev());
        }

        let mut size = vec![0u32; n];
        let mut depth = vec![0u32; n];
        for &b in &preorder {
            size[b.index()] = 1;
            let d = idom[b.index()];
            if d != NONE {
                depth[b.index()] = depth[d as usize] + 1;
            }
        }
        for &b in preorder.iter().rev() {
            let d = idom[b.index()];
            if d != NONE {
                size[d as usize] += size[b.index()];
            }
        }

        DomTree {
            idom,
            pre,
            size,
            depth,
            preorder,
            child_off,
            children,
        }
    }

    /// Number of blocks of the underlying CFG (reachable or not).
    pub fn num_blocks(&self) -> usize {
        self.idom.len()
    }

    /// Whether `b` is in the tree, i.e. reachable from the entry.
    pub fn is_reachable(&self, b: Node) -> bool {
        self.pre_index(b).is_some()
    }

    /// Immediate dominator of `b`; `None` for the entry and for unreachable blocks.
    pub fn idom(&self, b: Node) -> Option<Node> {
        self.idom
            .get(b.index())
            .copied()
            .filter(|&d| d != NONE)
            .map(Node)
    }

    /// Whether `a` dominates `b` (reflexive). `O(1)`. `false` if either is unreachable.
    pub fn dominates(&self, a: Node, b: Node) -> bool {
        match (self.pre_index(a), self.pre_index(b)) {
            (Some(pa), Some(pb)) => {
                let sa = self.size[a.index()];
                pa <= pb && (pb - pa) < sa
            }
            _ => false,
        }
    }

    /// Whether `a` dominates `b` and `a != b`.
    pub fn strictly_dominates(&self, a: Node, b: Node) -> bool {
        a != b && self.dominates(a, b)
    }

    /// Blocks immediately dominated by `b`, in increasing block order.
    pub fn children(&self, b: Node) -> &[Node] {
        csr_slice(&self.child_off, &self.children, b.index())
    }

    /// All reachable blocks in dominator-tree pre-order (entry first; children visited
    /// in increasing block order). Every dominator precedes the blocks it dominates.
    pub fn preorder(&self) -> &[Node] {
        &self.preorder
    }

    /// Position of `b` in [`preorder`](DomTree::preorder); `None` if unreachable.
    pub fn pre_index(&self, b: Node) -> Option<u32> {
        self.pre.get(b.index()).copied().filter(|&p| p != NONE)
    }

    /// The blocks dominated by `b` (including `b`), as the contiguous run of
    /// [`preorder`](DomTree::preorder) starting at `b`; empty if `b` is unreachable.
    pub fn subtree(&self, b: Node) -> &[Node] {
        match self.pre_index(b) {
            Some(p) => {
                let start = p as usize;
                let end = start + self.size[b.index()] as usize;
                self.preorder.get(start..end).unwrap_or(&[])
            }
            None => &[],
        }
    }

    /// Depth of `b` in the tree (entry 0); `None` if unreachable.
    pub fn depth(&self, b: Node) -> Option<u32> {
        self.pre_index(b).map(|_| self.depth[b.index()])
    }

    /// Nearest common dominator of two reachable blocks; `None` if either is
    /// unreachable. `O(depth)`.
    pub fn nearest_common_dominator(&self, a: Node, b: Node) -> Option<Node> {
        let (mut a, mut b) = (a, b);
        let (mut da, mut db) = (self.depth(a)?, self.depth(b)?);
        while da > db {
            a = self.idom(a)?;
            da -= 1;
        }
        while db > da {
            b = self.idom(b)?;
            db -= 1;
        }
        while a != b {
            a = self.idom(a)?;
            b = self.idom(b)?;
        }
        Some(a)
    }
}

/// Lengauer–Tarjan `EVAL` with iterative path compression: the vertex with minimal
/// semidominator on the forest path from `v` up to (excluding) its tree root.
fn eval(v: u32, ancestor: &mut [u32], label: &mut [u32], semi: &[u32], path: &mut Vec<u32>) -> u32 {
    if ancestor[v as usize] == NONE {
        return v;
    }
    // COMPRESS(v): collect the path up to the vertex just below the root, then update
    // from the top down (the order the recursive formulation unwinds in).
    let mut x = v;
    while ancestor[ancestor[x as usize] as usize] != NONE {
        path.push(x);
        x = ancestor[x as usize];
    }
    while let Some(y) = path.pop() {
        let a = ancestor[y as usize] as usize;
        if semi[label[a] as usize] < semi[label[y as usize] as usize] {
            label[y as usize] = label[a];
        }
        ancestor[y as usize] = ancestor[a];
    }
    label[v as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(succs: &[&[u32]]) -> Cfg {
        let v: Vec<Vec<Node>> = succs
            .iter()
            .map(|s| s.iter().map(|&i| Node(i)).collect())
            .collect();
        Cfg::new(&v).unwrap()
    }

    fn idoms(d: &DomTree) -> Vec<Option<u32>> {
        (0..d.num_blocks() as u32)
            .map(|b| d.idom(Node(b)).map(|x| x.0))
            .collect()
    }

    fn both(c: &Cfg) -> DomTree {
        let fast = DomTree::compute(c);
        let slow = DomTree::compute_reference(c);
        assert_eq!(idoms(&fast), idoms(&slow));
        assert_eq!(fast.preorder(), slow.preorder());
        fast
    }

    #[test]
    fn diamond() {
        let d = both(&cfg(&[&[1, 2], &[3], &[3], &[]]));
        assert_eq!(idoms(&d), vec![None, Some(0), Some(0), Some(0)]);
        assert_eq!(d.children(Node(0)), &[Node(1), Node(2), Node(3)]);
        assert_eq!(d.preorder(), &[Node(0), Node(1), Node(2), Node(3)]);
        assert!(d.dominates(Node(0), Node(3)));
        assert!(!d.dominates(Node(1), Node(3)));
        assert!(d.dominates(Node(3), Node(3)));
        assert!(!d.strictly_dominates(Node(3), Node(3)));
        assert_eq!(d.depth(Node(3)), Some(1));
        assert_eq!(d.nearest_common_dominator(Node(1), Node(2)), Some(Node(0)));
    }

    #[test]
    fn simple_loop() {
        // 0 -> 1 (header) -> 2 -> 1 (back edge), 1 -> 3 (exit)
        let d = both(&cfg(&[&[1], &[2, 3], &[1], &[]]));
        assert_eq!(idoms(&d), vec![None, Some(0), Some(1), Some(1)]);
        assert!(d.dominates(Node(1), Node(2)));
        assert_eq!(d.depth(Node(2)), Some(2));
        assert_eq!(d.subtree(Node(1)), &[Node(1), Node(2), Node(3)]);
    }

    #[test]
    fn irreducible_pair() {
        // 0 -> 1, 0 -> 2, 1 <-> 2: neither dominates the other.
        let d = both(&cfg(&[&[1, 2], &[2], &[1]]));
        assert_eq!(idoms(&d), vec![None, Some(0), Some(0)]);
        assert!(!d.dominates(Node(1), Node(2)));
        assert!(!d.dominates(Node(2), Node(1)));
    }

    #[test]
    fn unreachable_blocks() {
        // 2 is unreachable and branches into the reachable part.
        let d = both(&cfg(&[&[1], &[], &[1, 2]]));
        assert_eq!(idoms(&d), vec![None, Some(0), None]);
        assert!(!d.is_reachable(Node(2)));
        assert!(!d.dominates(Node(2), Node(2)));
        assert!(!d.dominates(Node(0), Node(2)));
        assert!(!d.dominates(Node(2), Node(1)));
        assert_eq!(d.depth(Node(2)), None);
        assert!(d.children(Node(2)).is_empty());
        assert!(d.subtree(Node(2)).is_empty());
        assert!(!d.dominates(Node(0), Node(99)));
        assert_eq!(d.idom(Node(99)), None);
    }

    #[test]
    fn entry_self_loop_and_multi_edges() {
        let d = both(&cfg(&[&[0, 1, 1], &[0, 2, 2], &[]]));
        assert_eq!(idoms(&d), vec![None, Some(0), Some(1)]);
    }

    #[test]
    fn classic_lengauer_tarjan_example() {
        // The flowgraph of the Lengauer-Tarjan paper (R=0, A..L = 1..12).
        let (r, a, b, c, d, e, f, g, h, i, j, k, l) = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        let mut s: Vec<Vec<u32>> = vec![Vec::new(); 13];
        for (x, y) in [
            (r, a),
            (r, b),
            (r, c),
            (a, d),
            (b, a),
            (b, d),
            (b, e),
            (c, f),
            (c, g),
            (d, l),
            (e, h),
            (f, i),
            (g, i),
            (g, j),
            (h, e),
            (h, k),
            (i, k),
            (j, i),
            (k, i),
            (k, r),
            (l, h),
        ] {
            s[x].push(y as u32);
        }
        let refs: Vec<&[u32]> = s.iter().map(|v| v.as_slice()).collect();
        let dt = both(&cfg(&refs));
        let expect = [
            None,
            Some(r),
            Some(r),
            Some(r),
            Some(r),
            Some(r),
            Some(c),
            Some(c),
            Some(r),
            Some(r),
            Some(g),
            Some(r),
            Some(d),
        ];
        let expect: Vec<Option<u32>> = expect.iter().map(|x| x.map(|v| v as u32)).collect();
        assert_eq!(idoms(&dt), expect);
    }

    #[test]
    fn empty_cfg() {
        let c = cfg(&[]);
        let d = both(&c);
        assert!(d.preorder().is_empty());
        assert!(!d.dominates(Node(0), Node(0)));
    }
}
