//! Compact control-flow graph: successor and predecessor lists in CSR
//! ("compressed sparse row") arrays, plus a reverse post-order of the reachable blocks.
//!
//! The reverse post-order comes from an iterative depth-first search from the entry
//! (block 0) that visits successors in the order they were listed, so it is
//! deterministic and cannot overflow the stack however deep the graph is.

use std::fmt;

use super::NONE;

/// A node of a [`Cfg`]: a basic block, numbered `0..n`; node 0 is the entry of every
/// graph. (Named `Node` so that it is not mistaken for the LLVM model's `Block` or the
/// decoded `spirv::BasicBlock`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Node(pub u32);

impl Node {
    /// The block number as an index into per-block arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "block {}", self.0)
    }
}

/// Why [`Cfg::new`] rejected its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CfgError {
    /// `block` lists a successor that is not one of the `n` blocks.
    SuccessorOutOfRange {
        /// The block whose successor list is wrong.
        block: Node,
        /// The successor, `>= n`.
        succ: Node,
    },
    /// More blocks (at most `u32::MAX - 1`) or edges (at most `u32::MAX - 1`) than the
    /// compact `u32` representation can hold.
    TooLarge {
        /// Number of blocks passed in.
        blocks: usize,
        /// Number of edges passed in (possibly a lower bound when counting stopped).
        edges: usize,
    },
}

impl fmt::Display for CfgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CfgError::SuccessorOutOfRange { block, succ } => {
                write!(f, "{block} branches to {succ}, which does not exist")
            }
            CfgError::TooLarge { blocks, edges } => {
                write!(
                    f,
                    "control-flow graph too large ({blocks} blocks, {edges} edges)"
                )
            }
        }
    }
}

impl std::error::Error for CfgError {}

/// A control-flow graph with entry `Node(0)`.
///
/// Edges are kept with multiplicity: a block that lists the same successor twice
/// (e.g. both arms of a conditional branch going to one block) has that successor twice
/// in [`succs`](Cfg::succs), and appears twice in the target's [`preds`](Cfg::preds).
///
/// Queries taking a [`Node`] accept any value: a block `>= num_blocks()` is treated as
/// an unreachable block without edges.
#[derive(Clone, Debug)]
pub struct Cfg {
    succ_off: Vec<u32>,
    succ: Vec<Node>,
    pred_off: Vec<u32>,
    pred: Vec<Node>,
    rpo: Vec<Node>,
    rpo_index: Vec<u32>,
}

impl Cfg {
    /// Builds the graph from each block's successor list (`succs[i]` for `Node(i)`).
    ///
    /// # Errors
    /// [`CfgError::SuccessorOutOfRange`] for the first successor `>= succs.len()`
    /// (blocks in order, successors in listed order); [`CfgError::TooLarge`] if the
    /// block or edge count does not fit the compact representation.
    pub fn new(succs: &[Vec<Node>]) -> Result<Cfg, CfgError> {
        let n = succs.len();
        let limit = NONE as usize;
        let mut edges = 0usize;
        for (i, list) in succs.iter().enumerate() {
            edges = edges.saturating_add(list.len());
            if n >= limit || edges >= limit {
                return Err(CfgError::TooLarge { blocks: n, edges });
            }
            if let Some(&succ) = list.iter().find(|s| s.index() >= n) {
                return Err(CfgError::SuccessorOutOfRange {
                    block: Node(i as u32),
                    succ,
                });
            }
        }

        // Successors: offsets + flattened lists.
        let mut succ_off = Vec::with_capacity(n + 1);
        let mut succ = Vec::with_capacity(edges);
        succ_off.push(0u32);
        for list in succs {
            succ.extend_from_slice(list);
            succ_off.push(succ.len() as u32);
        }
        Ok(Cfg::from_valid_csr(succ_off, succ))
    }

    /// [`Cfg::new`] from the successor lists already flattened: block `i`'s successors
    /// are `succ[succ_off[i]..succ_off[i + 1]]` (`succ_off` starts at 0, never
    /// decreases and ends at `succ.len()`; `n` is `succ_off.len() - 1`).
    ///
    /// # Errors
    /// As [`Cfg::new`]'s, for the same lists ([`CfgError::TooLarge`] counts every edge).
    ///
    /// # Panics
    /// If `succ_off` is not such a list of offsets into `succ` (a caller bug).
    pub fn from_csr(succ_off: Vec<u32>, succ: Vec<Node>) -> Result<Cfg, CfgError> {
        assert!(
            succ_off.first() == Some(&0)
                && succ_off.last().map(|&e| e as usize) == Some(succ.len())
                && succ_off.is_sorted(),
            "successor offsets do not index the successor list"
        );
        let n = succ_off.len() - 1;
        let limit = NONE as usize;
        if n >= limit || succ.len() >= limit {
            return Err(CfgError::TooLarge {
                blocks: n,
                edges: succ.len(),
            });
        }
        if let Some(at) = succ.iter().position(|s| s.index() >= n) {
            // The block whose list holds position `at`: the last offset at or below it
            // that starts a non-empty list.
            let block = succ_off.partition_point(|&e| e as usize <= at) - 1;
            return Err(CfgError::SuccessorOutOfRange {
                block: Node(block as u32),
                succ: succ[at],
            });
        }
        Ok(Cfg::from_valid_csr(succ_off, succ))
    }

    /// The graph of flattened successor lists already checked: in range, not too large.
    fn from_valid_csr(succ_off: Vec<u32>, succ: Vec<Node>) -> Cfg {
        let n = succ_off.len() - 1;
        let edges = succ.len();
        // Predecessors by counting sort: ordered by predecessor number, then by the
        // position of the edge in the predecessor's successor list.
        let mut pred_off = vec![0u32; n + 1];
        for s in &succ {
            pred_off[s.index() + 1] += 1;
        }
        for i in 0..n {
            pred_off[i + 1] += pred_off[i];
        }
        let mut fill: Vec<u32> = pred_off[..n].to_vec();
        let mut pred = vec![Node(0); edges];
        for b in 0..n {
            for s in &succ[succ_off[b] as usize..succ_off[b + 1] as usize] {
                let slot = &mut fill[s.index()];
                pred[*slot as usize] = Node(b as u32);
                *slot += 1;
            }
        }

        let mut cfg = Cfg {
            succ_off,
            succ,
            pred_off,
            pred,
            rpo: Vec::new(),
            rpo_index: Vec::new(),
        };
        cfg.compute_rpo();
        cfg
    }

    /// Iterative DFS from the entry, successors in listed order; records post-order and
    /// reverses it.
    fn compute_rpo(&mut self) {
        let n = self.num_blocks();
        let mut rpo_index = vec![NONE; n];
        // Each holds a block at most once: sized once, never grown.
        let mut post = Vec::with_capacity(n);
        if n > 0 {
            // `rpo_index` doubles as the "visited" mark during the search.
            let mut stack: Vec<(Node, u32)> = Vec::with_capacity(n);
            stack.push((Node(0), 0));
            rpo_index[0] = 0;
            while let Some(top) = stack.last_mut() {
                let (b, i) = *top;
                if let Some(&s) = self.succs(b).get(i as usize) {
                    top.1 += 1;
                    if rpo_index[s.index()] == NONE {
                        rpo_index[s.index()] = 0;
                        stack.push((s, 0));
                    }
                } else {
                    stack.pop();
                    post.push(b);
                }
            }
        }
        post.reverse();
        for (i, b) in post.iter().enumerate() {
            rpo_index[b.index()] = i as u32;
        }
        self.rpo = post;
        self.rpo_index = rpo_index;
    }

    /// The entry block, always `Node(0)`.
    #[inline]
    pub fn entry(&self) -> Node {
        Node(0)
    }

    /// Number of blocks `n` (reachable or not).
    #[inline]
    pub fn num_blocks(&self) -> usize {
        self.succ_off.len().saturating_sub(1)
    }

    /// Number of edges, counted with multiplicity.
    #[inline]
    pub fn num_edges(&self) -> usize {
        self.succ.len()
    }

    /// Successors of `b` in the order they were given (with repeats); empty for an
    /// out-of-range block.
    pub fn succs(&self, b: Node) -> &[Node] {
        csr_slice(&self.succ_off, &self.succ, b.index())
    }

    /// Predecessors of `b` with multiplicity, ordered by predecessor number (and by
    /// successor-list position for repeated edges); includes unreachable predecessors.
    pub fn preds(&self, b: Node) -> &[Node] {
        csr_slice(&self.pred_off, &self.pred, b.index())
    }

    /// How many edges go from `from` to `to` (a switch may give several): a binary
    /// search of `to`'s predecessors, which are sorted by number.
    pub fn edge_count(&self, from: Node, to: Node) -> usize {
        let preds = self.preds(to);
        preds.partition_point(|q| *q <= from) - preds.partition_point(|q| *q < from)
    }

    /// Reverse post-order of the blocks reachable from the entry (entry first).
    #[inline]
    pub fn rpo(&self) -> &[Node] {
        &self.rpo
    }

    /// Position of `b` in [`rpo`](Cfg::rpo), or `None` if `b` is unreachable.
    pub fn rpo_index(&self, b: Node) -> Option<u32> {
        self.rpo_index
            .get(b.index())
            .copied()
            .filter(|&i| i != NONE)
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Node) -> bool {
        self.rpo_index(b).is_some()
    }
}

/// Row `i` of a CSR array pair; empty when `i` is out of range.
pub(super) fn csr_slice<'a, T>(off: &[u32], data: &'a [T], i: usize) -> &'a [T] {
    match (off.get(i), off.get(i.wrapping_add(1))) {
        (Some(&s), Some(&e)) => data.get(s as usize..e as usize).unwrap_or(&[]),
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(i: u32) -> Node {
        Node(i)
    }

    #[test]
    fn diamond_edges_and_rpo() {
        let cfg = Cfg::new(&[vec![b(1), b(2)], vec![b(3)], vec![b(3)], vec![]]).unwrap();
        assert_eq!(cfg.num_blocks(), 4);
        assert_eq!(cfg.num_edges(), 4);
        assert_eq!(cfg.preds(b(3)), &[b(1), b(2)]);
        assert_eq!(cfg.rpo(), &[b(0), b(2), b(1), b(3)]);
        assert_eq!(cfg.rpo_index(b(1)), Some(2));
        assert!(cfg.succs(b(9)).is_empty());
        assert!(cfg.preds(b(9)).is_empty());
        assert!(!cfg.is_reachable(b(9)));
    }

    #[test]
    fn multi_edges_and_unreachable() {
        let cfg = Cfg::new(&[vec![b(1), b(1)], vec![b(1)], vec![b(1)]]).unwrap();
        assert_eq!(cfg.preds(b(1)), &[b(0), b(0), b(1), b(2)]);
        assert_eq!(cfg.rpo(), &[b(0), b(1)]);
        assert!(!cfg.is_reachable(b(2)));
        assert_eq!(cfg.rpo_index(b(2)), None);
    }

    #[test]
    fn out_of_range_successor_is_an_error() {
        let err = Cfg::new(&[vec![b(1)], vec![b(5)]]).unwrap_err();
        assert_eq!(
            err,
            CfgError::SuccessorOutOfRange {
                block: b(1),
                succ: b(5)
            }
        );
        assert!(err.to_string().contains("block 5"));
    }

    #[test]
    fn empty_cfg() {
        let cfg = Cfg::new(&[]).unwrap();
        assert_eq!(cfg.num_blocks(), 0);
        assert!(cfg.rpo().is_empty());
        assert!(!cfg.is_reachable(b(0)));
        assert!(cfg.succs(b(0)).is_empty());
    }
}
