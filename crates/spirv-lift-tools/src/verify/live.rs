//! A token's live range (its convergence region), walked block by block, and the range
//! minimum table the walk uses.

use super::*;

/// The live range of one token at a time, with reusable per-block marks.
pub(super) struct LiveRange {
    /// Blocks where the token is live on entry.
    pub(super) live: Marks,
    /// Per block with a use of the token: 1 + the index of the last use.
    pub(super) last_use: Marks,
    pub(super) work: Vec<usize>,
}

impl LiveRange {
    pub(super) fn new(n: usize) -> Self {
        LiveRange {
            live: Marks::new(n),
            last_use: Marks::new(n),
            work: Vec::new(),
        }
    }

    /// Computes the live range of token `t` (backwards from its valid uses, stopping at
    /// its definition); returns its blocks, the definition's block first. Every block
    /// reached is dominated by the definition: a predecessor of a block strictly
    /// dominated by it is dominated by it.
    pub(super) fn compute(
        &mut self,
        v: &FnVerifier<'_>,
        g: &Graph,
        t: usize,
        uses_of: &[Vec<usize>],
    ) -> Vec<usize> {
        self.live.next_epoch();
        self.last_use.next_epoch();
        let Some(def) = v.defs.get(t) else {
            return Vec::new();
        };
        for use_ in uses_of
            .get(t)
            .into_iter()
            .flatten()
            .filter_map(|&u| v.uses.get(u))
        {
            let prev = self.last_use.get(use_.block).unwrap_or(0);
            self.last_use
                .set(use_.block, prev.max(use_.index as u32 + 1));
            if use_.block != def.block && !self.live.is_set(use_.block) {
                self.live.set(use_.block, 1);
                self.work.push(use_.block);
            }
        }
        let mut blocks = vec![def.block];
        while let Some(b) = self.work.pop() {
            blocks.push(b);
            for &p in g.cfg.preds(Node(b as u32)) {
                let p = p.index();
                if p != def.block && g.cfg.is_reachable(Node(p as u32)) && !self.live.is_set(p) {
                    self.live.set(p, 1);
                    self.work.push(p);
                }
            }
        }
        blocks
    }

    /// The instructions `lo..hi` of block `b` (of the range just computed) where the
    /// token is live: after its definition (in its block) or from the top, up to its last
    /// use in `b` — or to the end, if it is live out of `b`.
    pub(super) fn interval(
        &self,
        v: &FnVerifier<'_>,
        g: &Graph,
        def: &TokenDef,
        b: usize,
    ) -> (usize, usize) {
        let len = v.f.blocks.get(b).map_or(0, |blk| blk.insts.len());
        let live_out = g
            .cfg
            .succs(Node(b as u32))
            .iter()
            .any(|s| s.index() != def.block && self.live.is_set(s.index()));
        let lo = if b == def.block { def.index + 1 } else { 0 };
        let hi = if live_out {
            len
        } else {
            self.last_use
                .get(b)
                .map_or(0, |l| l.saturating_sub(1) as usize)
        };
        (lo, hi)
    }
}

/// Range minimum over a fixed array of keys (sparse table: `O(m log m)` to build,
/// `O(1)` per query), returning the minimum and its position.
pub(super) struct MinTable {
    pub(super) levels: Vec<Vec<(u64, usize)>>,
}

impl MinTable {
    pub(super) fn new(keys: &[u64]) -> Self {
        let mut levels: Vec<Vec<(u64, usize)>> = vec![keys.iter().copied().zip(0..).collect()];
        let mut width = 1usize;
        while width * 2 <= keys.len() {
            let Some(prev) = levels.last() else { break };
            let next: Vec<(u64, usize)> = prev
                .iter()
                .zip(prev.iter().skip(width))
                .map(|(&a, &b)| a.min(b))
                .collect();
            levels.push(next);
            width *= 2;
        }
        MinTable { levels }
    }

    /// The smallest key at positions `lo..hi` (leftmost on ties), if the range is
    /// non-empty.
    pub(super) fn min(&self, lo: usize, hi: usize) -> Option<(u64, usize)> {
        if lo >= hi {
            return None;
        }
        let level = (usize::BITS - 1 - (hi - lo).leading_zeros()) as usize;
        let row = self.levels.get(level)?;
        let a = row.get(lo)?;
        let b = row.get(hi - (1 << level))?;
        Some(*a.min(b))
    }
}
