//! A mapped input file truncated while it is translated (`src/cli/mapped.rs`): the words
//! past the cut read as zeros from then on, though the load may have checked them. Whatever
//! the cut and wherever each reader is, the translation ends with a one-line error or with
//! text, never a panic: the checks' and the lowering's second and third decodes of a body,
//! and the recursion check reading the calls back, must not trust the load.

use crate::{Options, Target, WriteError};

/// Words told per hint: small, so that hints come inside modules of a few hundred words.
const STEP: usize = 16;

#[test]
fn a_truncated_input_gives_an_error_or_text_never_a_panic() {
    let options = [
        Options::default(),
        Options::default().target(Target::Amdgcn),
        Options::default().target(Target::Host),
    ];
    let (mut failed, mut translated, mut runs) = (0usize, 0usize, 0usize);
    for path in super::corpus_files() {
        let bytes = std::fs::read(&path).expect("read input");
        let Ok(words) = crate::words_from_bytes(&bytes) else {
            continue;
        };
        for (n, opts) in options.iter().enumerate() {
            // Only what translates whole: the cut must be what breaks it.
            let (whole, calls) =
                crate::translate_truncated(&words, opts, false, STEP, (usize::MAX, 0));
            if whole.is_err() || calls < 8 {
                continue;
            }
            // Truncations spread over the translation's time (the later ones while the
            // checks and the lowering read the bodies; the last after the last body) and
            // over the module's words.
            for j in 1..=8 {
                let at_call = (calls * j / 8).min(calls - 1);
                let cut = 5 + (words.len() - 5) * ((3 * j + n) % 8) / 8;
                for threaded in [false, true] {
                    let what = format!(
                        "{} ({n}) truncated at word {cut} at hint {at_call} of {calls}, threaded {threaded}",
                        path.display()
                    );
                    let got = std::panic::catch_unwind(|| {
                        crate::translate_truncated(&words, opts, threaded, STEP, (at_call, cut)).0
                    })
                    .unwrap_or_else(|_| panic!("{what}: panicked"));
                    runs += 1;
                    match got {
                        Ok(_) => translated += 1,
                        Err(WriteError::Translate(e)) => {
                            let msg = e.to_string();
                            assert!(
                                !msg.is_empty() && !msg.contains('\n'),
                                "{what}: error is not one line: {msg:?}"
                            );
                            failed += 1;
                        }
                        Err(WriteError::Io(e)) => panic!("{what}: writing to a Vec failed: {e}"),
                    }
                }
            }
        }
    }
    eprintln!("{runs} truncated runs: {failed} failed, {translated} translated");
    // The truncations must reach the paths under test: enough runs, and both outcomes.
    assert!(runs >= 200, "only {runs} truncated runs");
    assert!(
        failed > 0 && translated > 0,
        "{failed} of {runs} truncated runs failed"
    );
}
