//! The decoder against rspirv's parser (moved from `tests/robustness.rs`).

#[path = "../../../../tests/common/mutate.rs"]
mod mutate;
use mutate::mutants;

/// The decoder (`spirv::decode`) reads most instructions itself and hands the rest to
/// rspirv one at a time; whatever the words, it must give exactly what rspirv's parser
/// gives for the whole module: the same instructions and operands, or the same error at
/// the same word. Every corpus module, the malformed corpus and mutants of every corpus
/// module (including word-count, opcode and enumerant changes).
#[test]
fn decoder_agrees_with_rspirv() {
    let root = super::repo_root();
    let inputs = super::files_in(&["shaders", "cl-kernels", "tests/malformed"], "spv");
    let mut checked = 0;
    let mut errors = 0;
    let mut failures = Vec::new();
    for (n, path) in inputs.iter().enumerate() {
        let bytes = std::fs::read(path).expect("read module");
        let Ok(words) = crate::words_from_bytes(&bytes) else {
            continue;
        };
        let mut variants = vec![("as is".to_string(), words.clone())];
        if words.len() > 8 && !path.starts_with(root.join("tests")) {
            variants.extend(mutants(&words, 0xdec0_0000 + n as u64, 60));
        }
        for (what, w) in variants {
            let ours = crate::spirv::decode_instructions(&w, false);
            let theirs = crate::spirv::decode_instructions(&w, true);
            checked += 1;
            errors += usize::from(theirs.is_err());
            let same = match (&ours, &theirs) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => a.to_string() == b.to_string(),
                _ => false,
            };
            if !same {
                let show = |r: &Result<Vec<crate::spirv::Inst>, crate::Error>| match r {
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
