//! `translate_to_writer` and `translate` (which decode each function body again instead of
//! keeping them) agree with a module loaded whole (`spirv::load` + `lower::lower_module`):
//! the same text, counts, warnings and errors. (Moved from `tests/stream.rs`, which keeps
//! the tests of the public API alone.)

use crate::stats::Stats;
use crate::{Options, Target, WriteError};
use std::path::Path;

/// The option sets the streaming path must agree on (the last keeps the whole module:
/// kernels are printed first).
fn option_sets() -> Vec<(&'static str, Options)> {
    vec![
        ("default", Options::default()),
        ("amdgcn", Options::default().target(Target::Amdgcn)),
        ("no-mmra", Options::default().mmra(false)),
        ("no-convergence", Options::default().convergence(false)),
        (
            "spirv-backend-workarounds",
            Options::default().spirv_backend_workarounds(true),
        ),
    ]
}

/// The words of a `.spv` file or of a `.spvasm` file assembled, if it reads as either.
fn words_of(path: &Path) -> Option<Vec<u32>> {
    let bytes = std::fs::read(path).expect("read input");
    if path.extension().is_some_and(|e| e == "spvasm") {
        crate::assemble(std::str::from_utf8(&bytes).ok()?).ok()
    } else {
        crate::words_from_bytes(&bytes).ok()
    }
}

#[test]
fn streamed_text_counts_and_errors_match_the_whole_module() {
    let mut inputs = super::corpus_files();
    inputs.extend(super::files_in(&["tests/malformed"], "spv"));
    inputs.extend(super::files_in(&["tests/filetests"], "spvasm"));
    let (mut same_text, mut same_error) = (0, 0);
    for path in &inputs {
        let Some(words) = words_of(path) else {
            continue;
        };
        for (label, options) in option_sets() {
            let what = format!("{} ({label})", path.display());
            let mut streamed = Vec::new();
            let got = crate::translate_to_writer(&words, &options, &mut streamed, true);
            let kept =
                crate::spirv::load(&words).and_then(|m| crate::lower::lower_module(m, &options));
            match (crate::translate(&words, &options), got) {
                (Ok(module), Ok(written)) => {
                    let mut whole = Vec::new();
                    module.write_io(&mut whole).expect("write to a Vec");
                    let kept = kept.unwrap_or_else(|e| panic!("{what}: loaded whole: {e}"));
                    assert!(
                        kept.to_string().as_bytes() == whole,
                        "{what}: bodies kept and decoded again translate differently"
                    );
                    assert!(
                        streamed == whole,
                        "{what}: streamed text differs from the whole module's\n{}",
                        first_difference(&whole, &streamed)
                    );
                    assert_eq!(
                        written.stats,
                        Some(Stats::of(&words, &module)),
                        "{what}: counts"
                    );
                    assert_eq!(written.warnings, module.warnings, "{what}: warnings");
                    same_text += 1;
                }
                (Err(e), Err(WriteError::Translate(s))) => {
                    assert_eq!(e.to_string(), s.to_string(), "{what}: error");
                    let kept = kept.map(|_| ()).expect_err("loaded whole, it translates");
                    assert_eq!(
                        e.to_string(),
                        kept.to_string(),
                        "{what}: error, loaded whole"
                    );
                    same_error += 1;
                }
                (whole, streamed) => panic!(
                    "{what}: whole module gives {:?}, streaming gives {:?}",
                    whole.map(|_| "a module"),
                    streamed.map(|_| "a text")
                ),
            }
        }
    }
    // Every corpus module translates; the malformed ones fail the same way.
    assert!(same_text >= 5 * super::corpus_files().len(), "{same_text}");
    assert!(same_error > 0, "no error case was compared");
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  whole:    {x}\n  streamed: {y}", i + 1);
        }
    }
    format!("lengths {} and {}", a.len(), b.len())
}
