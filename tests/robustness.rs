//! Whatever the bytes, `translate` returns `Ok` or a one-line `Err` — never a panic or
//! a hang (SPEC §6). Deterministic mutations of corpus modules, no external tools.

mod common;

use std::sync::mpsc;
use std::time::Duration;

use spirv_lift::Options;

#[path = "common/mutate.rs"]
mod mutate;
use mutate::{Lcg, mutants};

/// Per-input time limit; a correct translator needs a few milliseconds.
const LIMIT: Duration = Duration::from_secs(20);

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
