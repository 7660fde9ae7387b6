//! Whatever the bytes, `translate` returns `Ok` or a one-line `Err` — never a panic or
//! a hang (SPEC §6). Deterministic mutations of corpus modules, no external tools.

mod common;

use std::sync::mpsc;
use std::time::Duration;

use spirv_lift::Options;

/// Per-input time limit; a correct translator needs a few milliseconds.
const LIMIT: Duration = Duration::from_secs(20);

/// Deterministic 64-bit LCG (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 32
    }

    fn below(&mut self, n: usize) -> usize {
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

fn mutants(words: &[u32], seed: u64, count: usize) -> Vec<(String, Vec<u32>)> {
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

/// Translates on a worker thread: `Err(message)` on a panic, a hang or a multi-line error.
fn translate_safely(words: Vec<u32>, options: Options) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(|| {
            spirv_lift::translate(&words, &options)
                .map(|m| m.to_string())
                .map_err(|e| e.to_string())
        });
        let _ = tx.send(r);
    });
    match rx.recv_timeout(LIMIT) {
        Ok(Ok(Ok(_))) => Ok(()),
        Ok(Ok(Err(e))) if e.contains('\n') || e.is_empty() => {
            Err(format!("error message is not one line: {e:?}"))
        }
        Ok(Ok(Err(_))) => Ok(()),
        Ok(Err(_)) => Err("panicked".to_string()),
        Err(_) => Err(format!("no answer within {LIMIT:?} (hang?)")),
    }
}

#[test]
fn mutated_corpus_modules_never_panic() {
    let amdgcn = Options::default().target(spirv_lift::Target::Amdgcn);
    // The amdgcn inputs exercise its own lowering: resource arguments threaded through
    // calls (lower/amdgcn/abi.rs) and subgroup operations as wave intrinsics (lower/amdgcn/wave.rs).
    let inputs = [
        ("shaders/transform.vert.spv", Options::default()),
        ("shaders/vmm_shared_barrier.comp.spv", Options::default()),
        ("shaders/nested_switch.comp.spv", Options::default()),
        ("cl-kernels/switch_tokenize.O2.spv", Options::default()),
        ("cl-kernels/work_group_funcs.O2.spv", Options::default()),
        ("shaders/push_const_matrix.comp.spv", amdgcn.clone()),
        ("shaders/helper_subgroup_loop.comp.spv", amdgcn.clone()),
        ("shaders/subgroup_ballot_vote.comp.spv", amdgcn.clone()),
        ("shaders/subgroup_shuffle.comp.spv", amdgcn.clone()),
        // Explicit layouts (layout.rs): strided arrays, row-major matrices, whole-struct
        // loads and stores, buffer references.
        ("shaders/layout_std140.comp.spv", Options::default()),
        ("shaders/layout_std430.comp.spv", Options::default()),
        (
            "shaders/layout_buffer_reference.comp.spv",
            Options::default(),
        ),
        ("shaders/layout_std140.comp.spv", amdgcn),
    ];
    // Silence the default hook's message per caught panic; failures are listed below.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for (n, (name, options)) in inputs.iter().enumerate() {
        let bytes = std::fs::read(common::repo_root().join(name)).expect("read corpus file");
        let words = common::words_le(&bytes);
        for (what, mutant) in mutants(&words, 0x5eed_0000 + n as u64, 400) {
            if let Err(e) = translate_safely(mutant, options.clone()) {
                failures.push(format!("{name}, {what}: {e}"));
            }
        }
    }
    std::panic::set_hook(hook);
    assert!(
        failures.is_empty(),
        "{} mutated modules broke the translator:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = Lcg(42);
    let mut failures = Vec::new();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for len in [0usize, 1, 3, 4, 19, 20, 21, 24, 64, 4096] {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let r = std::panic::catch_unwind(|| {
            spirv_lift::translate_bytes(&bytes, &Options::default()).map(|m| m.to_string())
        });
        match r {
            Ok(Ok(_)) => failures.push(format!("{len} random bytes translated without error")),
            Ok(Err(_)) => {}
            Err(_) => failures.push(format!("{len} random bytes: panicked")),
        }
    }
    std::panic::set_hook(hook);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The decoder (`spirv::decode`) reads most instructions itself and hands the rest to
/// rspirv one at a time; whatever the words, it must give exactly what rspirv's parser
/// gives for the whole module: the same instructions and operands, or the same error at
/// the same word. Every corpus module, the malformed corpus and mutants of every corpus
/// module (including word-count, opcode and enumerant changes).
#[test]
fn decoder_agrees_with_rspirv() {
    let root = common::repo_root();
    let inputs = common::spv_files_in(&["shaders", "cl-kernels", "tests/malformed"]);
    let mut checked = 0;
    let mut errors = 0;
    let mut failures = Vec::new();
    for (n, path) in inputs.iter().enumerate() {
        let bytes = std::fs::read(path).expect("read module");
        let Ok(words) = spirv_lift::spirv::words_from_bytes(&bytes) else {
            continue;
        };
        let mut variants = vec![("as is".to_string(), words.clone())];
        if words.len() > 8 && !path.starts_with(root.join("tests")) {
            variants.extend(mutants(&words, 0xdec0_0000 + n as u64, 60));
        }
        for (what, w) in variants {
            let ours = spirv_lift::spirv::decode_instructions(&w, false);
            let theirs = spirv_lift::spirv::decode_instructions(&w, true);
            checked += 1;
            errors += usize::from(theirs.is_err());
            let same = match (&ours, &theirs) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => a.to_string() == b.to_string(),
                _ => false,
            };
            if !same {
                let show = |r: &Result<Vec<spirv_lift::spirv::Inst>, spirv_lift::Error>| match r {
                    Ok(v) => format!("{} instructions", v.len()),
                    Err(e) => e.to_string(),
                };
                failures.push(format!(
                    "{}, {what}: ours {} / rspirv {}",
                    path.display(),
                    show(&ours),
                    show(&theirs)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} modules decode differently:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The mutants must reach the decoder's error paths, not only valid modules.
    assert!(
        errors > 100 && errors < checked,
        "{errors} of {checked} fail to decode"
    );
}
