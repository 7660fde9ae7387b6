//! Shared code of the spirv-lift fuzz targets: the checks every target applies to a
//! translation, and the structure-aware SPIR-V mutator of `mutate_corpus`.
//!
//! The mutator works on instructions, not bytes, so the fuzzer gets past the header
//! and the word-count tiling: it flips operands, ids, opcodes and word counts, and
//! drops, duplicates and moves whole instructions of a (valid) corpus module.

use spirv_lift::{Options, Target};

/// The option set an input is translated with: a function of its length, so a seed
/// keeps its option set and the six sets are all exercised (generic; amdgcn; generic
/// without `!mmra`; amdgcn without convergence tokens; generic with the LLVM 22 SPIR-V
/// backend workarounds; host).
pub fn options_for(len: usize) -> Options {
    let k = (len / 4) % 6;
    Options::default()
        .target(match k {
            5 => Target::Host,
            _ if k & 1 == 0 => Target::Generic,
            _ => Target::Amdgcn,
        })
        .mmra(k != 2)
        .convergence(k != 3)
        .spirv_backend_workarounds(k == 4)
}

/// Translates host words and prints the result, whole and streamed, and once more from a
/// module loaded with its bodies kept; panics (a finding) when the texts or errors
/// differ, when an error message is not exactly one non-empty line, or when the text is
/// not IR that LLVM's parser reads or breaks the convergence-token rules.
pub fn check_translate(words: &[u32], opts: &Options) {
    // The streaming path (what the command-line tool uses) must print the same text and
    // fail the same way.
    let mut streamed = Vec::new();
    let streaming = spirv_lift::translate_to_writer(words, opts, &mut streamed, false);
    // So must a module loaded whole (bodies kept, not decoded again).
    let kept = spirv_lift::fuzzing::translate_loaded_whole(words, opts);
    // And the bodies checked on a second thread beside the lowering and printing
    // (`--threads`).
    let threaded = spirv_lift::fuzzing::translate_threaded(words, opts);
    match spirv_lift::translate(words, opts) {
        Ok(m) => {
            let text = m.to_string();
            assert!(!text.is_empty());
            // What LLVM would say of it: text its parser reads (types of operands,
            // getelementptr indices, casts, constants; spirv_lift_tools::syntax) and
            // convergence tokens that keep LLVM's static rules (dominance, cycles,
            // nesting; spirv_lift_tools::verify).
            match spirv_lift_tools::verify::verify_text(&text) {
                Ok(diags) => assert!(
                    diags.is_empty(),
                    "convergence rules broken: {}",
                    diags
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                Err(e) => panic!("output LLVM cannot read: {e}"),
            }
            match &kept {
                Ok(k) => assert!(k.to_string() == text, "loaded whole, the text differs"),
                Err(e) => panic!("loaded whole it fails ({e}), streaming it translates"),
            }
            match &threaded {
                Ok(t) => assert!(t == text.as_bytes(), "threaded, the text differs"),
                Err(e) => panic!("threaded it fails ({e}), on one thread it translates"),
            }
            assert!(streaming.is_ok(), "streaming failed: {streaming:?}");
            assert!(
                streamed == text.as_bytes(),
                "streamed text differs from the whole module's"
            );
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(
                !msg.is_empty() && !msg.contains('\n'),
                "error message is not one line: {msg:?}"
            );
            match streaming {
                Err(spirv_lift::WriteError::Translate(s)) => assert_eq!(s.to_string(), msg),
                other => panic!("whole module fails ({msg}), streaming gives {other:?}"),
            }
            match kept {
                Err(k) => assert_eq!(k.to_string(), msg, "loaded whole, the error differs"),
                Ok(_) => panic!("translate fails ({msg}), loaded whole it translates"),
            }
            match threaded {
                Err(spirv_lift::WriteError::Translate(t)) => {
                    assert_eq!(t.to_string(), msg, "threaded, the error differs")
                }
                other => panic!("translate fails ({msg}), threaded gives {other:?}"),
            }
        }
    }
}

/// Translates `words` once more as a mapped file truncated while it is read (the command
/// line's SIGBUS path: the words past a cut read as zeros from some point of the
/// translation on, though the load may have checked them); the point, the cut and the
/// thread count are a function of the words. Panics (a finding) when the translation
/// panics or its error is not one non-empty line; text is fine (every reader may be past
/// the cut).
pub fn check_truncated(words: &[u32], opts: &Options) {
    let h = words.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &w| {
        (h ^ u64::from(w)).wrapping_mul(0x100_0000_01b3)
    });
    let mut rng = Rng::new(h);
    const STEP: usize = 16;
    // About how many hints a translation gives: the load's three passes, then the checks
    // and the lowering each once through the bodies.
    let hints = 5 * words.len() / STEP + 2;
    let at_call = rng.below(hints);
    let cut = 5 + rng.below(words.len().saturating_sub(5));
    let threaded = rng.below(2) == 1;
    match spirv_lift::fuzzing::translate_truncated(words, opts, threaded, STEP, at_call, cut) {
        Ok(_) => {}
        Err(spirv_lift::WriteError::Translate(e)) => {
            let msg = e.to_string();
            assert!(
                !msg.is_empty() && !msg.contains('\n'),
                "truncated, the error message is not one line: {msg:?}"
            );
        }
        Err(e) => panic!("truncated, writing to a Vec failed: {e}"),
    }
}

/// Little-endian bytes → words (a trailing partial word is dropped).
pub fn words_le(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// xorshift64*, seeded from libFuzzer's per-mutation seed.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// A module split into header and instructions; words after a broken word count are
/// kept as one raw tail.
pub struct Split {
    /// The five header words.
    pub header: [u32; 5],
    /// Whole instructions, first word (count << 16 | opcode) included.
    pub insts: Vec<Vec<u32>>,
    /// Words that do not tile into instructions.
    pub tail: Vec<u32>,
}

impl Split {
    /// Splits a module; `None` unless it has a SPIR-V header (host byte order).
    pub fn parse(words: &[u32]) -> Option<Split> {
        if words.len() < 5 || words[0] != 0x0723_0203 {
            return None;
        }
        let mut header = [0; 5];
        header.copy_from_slice(&words[..5]);
        let mut insts = Vec::new();
        let mut at = 5;
        while at < words.len() {
            let n = (words[at] >> 16) as usize;
            if n == 0 || at + n > words.len() {
                break;
            }
            insts.push(words[at..at + n].to_vec());
            at += n;
        }
        Some(Split {
            header,
            insts,
            tail: words[at..].to_vec(),
        })
    }

    /// The module's words again.
    pub fn words(&self) -> Vec<u32> {
        let mut out = self.header.to_vec();
        for i in &self.insts {
            out.extend_from_slice(i);
        }
        out.extend_from_slice(&self.tail);
        out
    }

    /// Words that look like defined ids: the second and third word of instructions that
    /// are below the bound (result type and result id positions).
    fn id_pool(&self) -> Vec<u32> {
        let bound = self.header[3];
        let mut pool: Vec<u32> = self
            .insts
            .iter()
            .flat_map(|i| i.iter().skip(1).take(2).copied())
            .filter(|&w| w != 0 && w < bound)
            .collect();
        pool.sort_unstable();
        pool.dedup();
        pool
    }
}

/// Opcodes that shape a module's structure; a mutated opcode is often one of these.
const STRUCTURAL_OPS: &[u32] = &[
    1, 17, 14, 15, 16, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 43, 44, 46, 50,
    54, 55, 56, 57, 59, 61, 62, 63, 65, 71, 72, 80, 81, 82, 83, 124, 245, 246, 247, 248, 249, 250,
    251, 252, 253, 254, 255, 224, 225, 227, 228, 229, 230, 234, 235, 4473,
];

/// One interesting replacement for an operand word.
fn operand_word(rng: &mut Rng, old: u32, bound: u32, pool: &[u32]) -> u32 {
    match rng.below(12) {
        0 => 0,
        1 => u32::MAX,
        2 => old ^ (1 << rng.below(32)),
        3 => old.wrapping_add(1),
        4 => old.wrapping_sub(1),
        5 => bound,
        6 => bound.wrapping_sub(1),
        7 | 8 => pool.get(rng.below(pool.len())).copied().unwrap_or(1),
        9 => [0x7fff_ffff, 0x8000_0000, 0x1_0000, 0xffff, 1 << 24, 257][rng.below(6)],
        10 => rng.below(16) as u32,
        _ => rng.next_u64() as u32,
    }
}

/// Applies one structure-aware mutation; returns what it did (for debugging).
pub fn mutate_once(m: &mut Split, rng: &mut Rng) -> &'static str {
    let n = m.insts.len();
    let bound = m.header[3];
    match rng.below(14) {
        0..=2 => {
            let pool = m.id_pool();
            let Some(inst) = m.insts.get_mut(rng.below(n)) else {
                return "none";
            };
            if inst.len() < 2 {
                return "none";
            }
            let k = 1 + rng.below(inst.len() - 1);
            inst[k] = operand_word(rng, inst[k], bound, &pool);
            "operand"
        }
        3 | 4 => {
            // An id operand replaced by another defined id (result-id-like word).
            let pool = m.id_pool();
            let Some(inst) = m.insts.get_mut(rng.below(n)) else {
                return "none";
            };
            let slots: Vec<usize> = (1..inst.len())
                .filter(|&k| inst[k] != 0 && inst[k] < bound)
                .collect();
            if slots.is_empty() || pool.is_empty() {
                return "none";
            }
            let k = slots[rng.below(slots.len())];
            inst[k] = pool[rng.below(pool.len())];
            "id"
        }
        5 => {
            let pick = if rng.below(2) == 0 {
                STRUCTURAL_OPS[rng.below(STRUCTURAL_OPS.len())]
            } else if rng.below(2) == 0 && n > 0 {
                m.insts[rng.below(n)][0] & 0xffff
            } else {
                rng.below(420) as u32
            };
            let Some(inst) = m.insts.get_mut(rng.below(n)) else {
                return "none";
            };
            inst[0] = (inst[0] & 0xffff_0000) | pick;
            "opcode"
        }
        6 => {
            // A word count that no longer matches: the stream desynchronizes.
            let Some(inst) = m.insts.get_mut(rng.below(n)) else {
                return "none";
            };
            let old = inst[0] >> 16;
            let count = match rng.below(5) {
                0 => 0,
                1 => old + 1,
                2 => old.saturating_sub(1),
                3 => 0xffff,
                _ => rng.below(12) as u32,
            };
            inst[0] = (inst[0] & 0xffff) | (count << 16);
            "word count"
        }
        7 => {
            // Operand added or removed with the word count kept consistent.
            let Some(inst) = m.insts.get_mut(rng.below(n)) else {
                return "none";
            };
            if rng.below(2) == 0 && inst.len() > 1 {
                inst.remove(1 + rng.below(inst.len() - 1));
            } else if inst.len() < 0xffff {
                let k = 1 + rng.below(inst.len());
                inst.insert(k, rng.below(bound.max(1) as usize) as u32);
            }
            let len = inst.len() as u32;
            inst[0] = (inst[0] & 0xffff) | (len << 16);
            "operand count"
        }
        8 => {
            if n == 0 {
                return "none";
            }
            m.insts.remove(rng.below(n));
            "drop"
        }
        9 => {
            if n == 0 {
                return "none";
            }
            let copy = m.insts[rng.below(n)].clone();
            let at = if rng.below(2) == 0 {
                rng.below(n + 1)
            } else {
                n.min(1 + rng.below(n))
            };
            m.insts.insert(at, copy);
            "duplicate"
        }
        10 => {
            if n < 2 {
                return "none";
            }
            let (a, b) = (rng.below(n), rng.below(n));
            m.insts.swap(a, b);
            "swap"
        }
        11 => {
            if n < 2 {
                return "none";
            }
            let inst = m.insts.remove(rng.below(n));
            m.insts.insert(rng.below(n), inst);
            "move"
        }
        12 => {
            let k = 1 + rng.below(4);
            m.header[k] = operand_word(rng, m.header[k], bound, &[]);
            "header"
        }
        _ => {
            let keep = rng.below(n + 1);
            m.insts.truncate(keep);
            if rng.below(2) == 0 && !m.insts.is_empty() {
                let last = m.insts.len() - 1;
                let l = m.insts[last].len();
                let cut = rng.below(l);
                m.insts[last].truncate(cut.max(1));
            }
            "truncate"
        }
    }
}

/// libFuzzer's custom mutator body: mutates `data[..size]` in place as a SPIR-V
/// module and returns the new size, or `None` when the input is not a module (the
/// caller then uses libFuzzer's byte-level mutator).
pub fn mutate_bytes(data: &mut [u8], size: usize, max_size: usize, seed: u32) -> Option<usize> {
    let words = words_le(data.get(..size)?);
    let mut m = Split::parse(&words)?;
    let mut rng = Rng::new(u64::from(seed));
    for _ in 0..1 + rng.below(3) {
        mutate_once(&mut m, &mut rng);
    }
    let out = m.words();
    let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
    let len = bytes.len().min(max_size).min(data.len()) & !3;
    data[..len].copy_from_slice(&bytes[..len]);
    Some(len)
}
