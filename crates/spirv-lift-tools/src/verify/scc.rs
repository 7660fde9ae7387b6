//! Strongly connected components (Tarjan) of induced subgraphs of the CFG, with
//! per-block marks cleared in `O(1)`: the general closed-path check.

use super::*;

/// A per-block `u32` side table that is cleared in `O(1)` by bumping an epoch.
pub(super) struct Marks {
    pub(super) epoch: u32,
    pub(super) stamp: Vec<u32>,
    pub(super) value: Vec<u32>,
}

impl Marks {
    pub(super) fn new(n: usize) -> Self {
        Marks {
            epoch: 0,
            stamp: vec![0; n],
            value: vec![0; n],
        }
    }

    pub(super) fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
    }

    pub(super) fn get(&self, b: usize) -> Option<u32> {
        match (self.stamp.get(b), self.value.get(b)) {
            (Some(&s), Some(&v)) if s == self.epoch => Some(v),
            _ => None,
        }
    }

    pub(super) fn is_set(&self, b: usize) -> bool {
        self.get(b).is_some()
    }

    pub(super) fn set(&mut self, b: usize, v: u32) {
        if let (Some(s), Some(x)) = (self.stamp.get_mut(b), self.value.get_mut(b)) {
            *s = self.epoch;
            *x = v;
        }
    }
}

/// A strongly connected component.
pub(super) struct Component {
    pub(super) blocks: Vec<Node>,
    /// More than one block, or one block with an edge to itself.
    pub(super) cyclic: bool,
}

/// Scratch space for Tarjan's algorithm on induced subgraphs, reused across calls so
/// each call costs only the size of its subgraph.
pub(super) struct SccScratch {
    pub(super) member: Marks,
    pub(super) index: Vec<u32>,
    pub(super) low: Vec<u32>,
    pub(super) on_stack: Vec<bool>,
}

impl SccScratch {
    pub(super) fn new(n: usize) -> Self {
        SccScratch {
            member: Marks::new(n),
            index: vec![0; n],
            low: vec![0; n],
            on_stack: vec![false; n],
        }
    }

    /// The strongly connected components of the subgraph induced by the blocks
    /// strictly dominated by `d` (R. E. Tarjan, "Depth-First Search and Linear Graph
    /// Algorithms", SIAM J. Computing 1(2), 1972; iterative).
    pub(super) fn strict_subtree_components(&mut self, g: &Graph, d: Node) -> Vec<Component> {
        const UNVISITED: u32 = u32::MAX;
        self.member.next_epoch();
        let sub = g.dom.subtree(d).get(1..).unwrap_or(&[]);
        for b in sub {
            self.member.set(b.index(), 1);
            if let Some(x) = self.index.get_mut(b.index()) {
                *x = UNVISITED;
            }
        }
        let mut next = 0u32;
        let mut stack: Vec<Node> = Vec::new();
        let mut call: Vec<(Node, usize)> = Vec::new();
        let mut out = Vec::new();
        for &root in sub {
            if self.index.get(root.index()) != Some(&UNVISITED) {
                continue;
            }
            self.visit(root, &mut next, &mut stack, &mut call);
            while let Some(&mut (v, ref mut i)) = call.last_mut() {
                let succs = g.cfg.succs(v);
                if let Some(&w) = succs.get(*i) {
                    *i += 1;
                    if !self.member.is_set(w.index()) {
                        continue;
                    }
                    if self.index.get(w.index()) == Some(&UNVISITED) {
                        self.visit(w, &mut next, &mut stack, &mut call);
                    } else if self.on_stack.get(w.index()) == Some(&true) {
                        let iw = self.index.get(w.index()).copied().unwrap_or(0);
                        if let Some(lv) = self.low.get_mut(v.index()) {
                            *lv = (*lv).min(iw);
                        }
                    }
                    continue;
                }
                call.pop();
                let lv = self.low.get(v.index()).copied().unwrap_or(0);
                if let Some(&(p, _)) = call.last()
                    && let Some(lp) = self.low.get_mut(p.index())
                {
                    *lp = (*lp).min(lv);
                }
                if Some(&lv) == self.index.get(v.index()) {
                    let mut blocks = Vec::new();
                    while let Some(w) = stack.pop() {
                        if let Some(s) = self.on_stack.get_mut(w.index()) {
                            *s = false;
                        }
                        blocks.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let cyclic = blocks.len() > 1 || g.cfg.succs(v).contains(&v);
                    out.push(Component { blocks, cyclic });
                }
            }
        }
        out
    }

    pub(super) fn visit(
        &mut self,
        v: Node,
        next: &mut u32,
        stack: &mut Vec<Node>,
        call: &mut Vec<(Node, usize)>,
    ) {
        if let (Some(i), Some(l), Some(s)) = (
            self.index.get_mut(v.index()),
            self.low.get_mut(v.index()),
            self.on_stack.get_mut(v.index()),
        ) {
            *i = *next;
            *l = *next;
            *s = true;
        }
        *next += 1;
        stack.push(v);
        call.push((v, 0));
    }
}
