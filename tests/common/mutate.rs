//! Deterministic mutations of SPIR-V words, shared by `tests/robustness.rs` and the
//! library's decoder cross-check (`crates/spirv-lift/src/tests/decode.rs`), which include
//! this file by path.

/// Deterministic 64-bit LCG (Knuth's MMIX constants).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 32
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Interesting replacement words: small counts, ids near the bound, opcodes, extremes.
fn mutant_word(rng: &mut Lcg, old: u32) -> u32 {
    match rng.below(8) {
        0 => 0,
        1 => u32::MAX,
        2 => old ^ (1 << rng.below(32)),
        3 => old.wrapping_add(1),
        4 => old.wrapping_sub(1),
        5 => (old & 0xffff) | ((rng.below(12) as u32) << 16), // new word count
        6 => (old & 0xffff_0000) | rng.below(400) as u32,     // new opcode
        _ => rng.next() as u32,
    }
}

pub fn mutants(words: &[u32], seed: u64, count: usize) -> Vec<(String, Vec<u32>)> {
    let mut rng = Lcg(seed);
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let mut w = words.to_vec();
        let what = match i % 4 {
            0 => {
                let n = 1 + rng.below(4);
                for _ in 0..n {
                    let at = rng.below(w.len());
                    w[at] = mutant_word(&mut rng, w[at]);
                }
                format!("{n} word(s) changed")
            }
            1 => {
                let at = 5 + rng.below(w.len() - 5);
                w.truncate(at);
                format!("truncated to {at} words")
            }
            2 => {
                let at = 5 + rng.below(w.len() - 5);
                let len = 1 + rng.below(8);
                let end = (at + len).min(w.len());
                w.drain(at..end);
                format!("words {at}..{end} removed")
            }
            _ => {
                let at = 5 + rng.below(w.len() - 5);
                let from = 5 + rng.below(w.len() - 5);
                let len = (1 + rng.below(12)).min(w.len() - from);
                let copy: Vec<u32> = w[from..from + len].to_vec();
                w.splice(at..at, copy);
                format!("{len} words from {from} duplicated at {at}")
            }
        };
        out.push((what, w));
    }
    out
}
