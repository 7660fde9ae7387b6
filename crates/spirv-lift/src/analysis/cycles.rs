//! Irreducible control flow.
//!
//! Removing every back edge (an edge whose target dominates its source) from the
//! reachable part of a CFG leaves a DAG exactly when the CFG is reducible (M. S. Hecht
//! and J. D. Ullman, "Characterizations of Reducible Flow Graphs", JACM 21(3), 1974).
//! The strongly connected components with more than one block that remain are the
//! *irreducible cycles*: regions entered at more than one block. They are found with
//! Tarjan's algorithm (R. E. Tarjan, "Depth-First Search and Linear Graph Algorithms",
//! SIAM J. Computing 1(2), 1972), run with an explicit stack, in `O(N + E)`.
//!
//! A remaining component can never be a single block: a self-loop is a back edge.

use super::NONE;
use super::cfg::{Cfg, Node};
use super::dom::DomTree;

/// The irreducible cycles of a CFG.
#[derive(Clone, Debug)]
pub struct IrreducibleCycles {
    cycles: Vec<Vec<Node>>,
    cycle_of: Vec<u32>,
    entries: Vec<Vec<Node>>,
}

impl IrreducibleCycles {
    /// Finds the irreducible cycles of `cfg`, given its dominator tree.
    pub fn compute(cfg: &Cfg, dom: &DomTree) -> IrreducibleCycles {
        let n = cfg.num_blocks();
        // Forward (non-back) edge between reachable blocks.
        let forward = |u: Node, v: Node| cfg.is_reachable(v) && !dom.dominates(v, u);

        let mut index = vec![NONE; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        // Both stacks hold each reachable block at most once: sized once, never grown.
        let mut scc_stack: Vec<Node> = Vec::with_capacity(n);
        let mut call: Vec<(Node, u32)> = Vec::with_capacity(n);
        let mut next_index = 0u32;
        let mut cycles: Vec<Vec<Node>> = Vec::new();

        for &root in cfg.rpo() {
            if index[root.index()] != NONE {
                continue;
            }
            index[root.index()] = next_index;
            low[root.index()] = next_index;
            next_index += 1;
            scc_stack.push(root);
            on_stack[root.index()] = true;
            call.push((root, 0));

            while let Some(top) = call.last_mut() {
                let (v, i) = *top;
                if let Some(&w) = cfg.succs(v).get(i as usize) {
                    top.1 += 1;
                    if !forward(v, w) {
                        continue;
                    }
                    if index[w.index()] == NONE {
                        index[w.index()] = next_index;
                        low[w.index()] = next_index;
                        next_index += 1;
                        scc_stack.push(w);
                        on_stack[w.index()] = true;
                        call.push((w, 0));
                    } else if on_stack[w.index()] {
                        low[v.index()] = low[v.index()].min(index[w.index()]);
                    }
                    continue;
                }
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p.index()] = low[p.index()].min(low[v.index()]);
                }
                if low[v.index()] == index[v.index()] {
                    // The component is the stack from `v` up; most are `v` alone, which
                    // is never a cycle (see the module doc) and is popped without a list.
                    let from = scc_stack.iter().rposition(|&w| w == v).unwrap_or(0);
                    for &w in &scc_stack[from..] {
                        on_stack[w.index()] = false;
                    }
                    if scc_stack.len() - from > 1 {
                        let mut comp = scc_stack[from..].to_vec();
                        comp.sort_unstable();
                        cycles.push(comp);
                    }
                    scc_stack.truncate(from);
                }
            }
        }

        // Deterministic order: by smallest block (cycles are disjoint).
        cycles.sort_unstable_by_key(|c| c.first().copied());
        let mut cycle_of = vec![NONE; n];
        for (i, c) in cycles.iter().enumerate() {
            for b in c {
                cycle_of[b.index()] = i as u32;
            }
        }
        let entries = cycles
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.iter()
                    .copied()
                    .filter(|&b| {
                        b == cfg.entry()
                            || cfg.preds(b).iter().any(|&p| {
                                cfg.is_reachable(p)
                                    && cycle_of[p.index()] != i as u32
                                    && !dom.dominates(b, p)
                            })
                    })
                    .collect()
            })
            .collect();
        IrreducibleCycles {
            cycles,
            cycle_of,
            entries,
        }
    }

    /// Whether there is no irreducible cycle, i.e. the CFG is reducible.
    pub fn is_empty(&self) -> bool {
        self.cycles.is_empty()
    }

    /// Number of irreducible cycles.
    pub fn len(&self) -> usize {
        self.cycles.len()
    }

    /// The cycles, each a sorted list of at least two blocks; ordered by first block.
    pub fn cycles(&self) -> &[Vec<Node>] {
        &self.cycles
    }

    /// Index (into [`cycles`](IrreducibleCycles::cycles)) of the cycle containing `b`.
    pub fn cycle_of(&self, b: Node) -> Option<usize> {
        self.cycle_of
            .get(b.index())
            .copied()
            .filter(|&c| c != NONE)
            .map(|c| c as usize)
    }

    /// Entry blocks of cycle `i`, sorted: the blocks of the cycle with a reachable
    /// predecessor outside it along a forward (non-back) edge, or the CFG entry. A
    /// predecessor reaching a cycle block `b` only by a back edge is dominated by `b`,
    /// so it does not count. Every irreducible cycle has at least two entries. Empty
    /// if `i` is out of range.
    pub fn entries(&self, i: usize) -> Vec<Node> {
        self.entries.get(i).cloned().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(succs: &[&[u32]]) -> IrreducibleCycles {
        let v: Vec<Vec<Node>> = succs
            .iter()
            .map(|s| s.iter().map(|&i| Node(i)).collect())
            .collect();
        let cfg = Cfg::new(&v).unwrap();
        let dom = DomTree::compute(&cfg);
        IrreducibleCycles::compute(&cfg, &dom)
    }

    #[test]
    fn reducible_loop_has_no_cycle() {
        let c = analyze(&[&[1], &[2, 3], &[1, 2], &[]]);
        assert!(c.is_empty());
        assert_eq!(c.cycle_of(Node(1)), None);
        assert!(c.entries(0).is_empty());
    }

    #[test]
    fn irreducible_pair() {
        let c = analyze(&[&[1, 2], &[2, 3], &[1], &[]]);
        assert_eq!(c.cycles(), &[vec![Node(1), Node(2)]]);
        assert_eq!(c.cycle_of(Node(2)), Some(0));
        assert_eq!(c.entries(0), vec![Node(1), Node(2)]);
    }

    #[test]
    fn irreducible_region_inside_a_natural_loop() {
        // 1 is a loop header (latch 4); inside, 2 <-> 3 is entered at both from 1.
        // 3 also heads a self-loop, whose back edge does not make it an entry.
        let c = analyze(&[&[1], &[2, 3, 5], &[3, 4], &[2, 3, 4], &[1], &[]]);
        assert_eq!(c.cycles(), &[vec![Node(2), Node(3)]]);
        assert_eq!(c.entries(0), vec![Node(2), Node(3)]);
        assert_eq!(c.cycle_of(Node(1)), None);
    }

    #[test]
    fn two_cycles_in_block_order() {
        let c = analyze(&[&[5, 6, 1, 2], &[2], &[1], &[], &[], &[6], &[5]]);
        assert_eq!(
            c.cycles(),
            &[vec![Node(1), Node(2)], vec![Node(5), Node(6)]]
        );
        assert_eq!(c.cycle_of(Node(6)), Some(1));
    }
}
