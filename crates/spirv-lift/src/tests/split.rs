//! A large module's load in two parts (`spirv::load_with` with a split: the last functions
//! decoded on a second thread beside the first ones) gives what the load in one part
//! gives: the same text, or the same error, whichever part holds what is wrong; and it
//! is taken only when nothing in the second part could have read otherwise.

use super::stream::{first_difference, many_function_kernel};
use crate::{Options, WriteError};

/// How many loads on this thread took the second part as loaded apart.
fn tails_taken() -> usize {
    crate::spirv::TAILS_TAKEN.with(|n| n.get())
}

/// A translation's text, or its error as printed.
type Outcome = Result<Vec<u8>, String>;

/// Translates `words` with two threads (the load split wherever the module has two
/// functions or more) and with one: the text or the error, and whether the second part
/// loaded apart was taken.
fn both_ways(words: &[u32]) -> (Outcome, Outcome, bool) {
    let before = tails_taken();
    let mut two = Vec::new();
    let threaded = crate::translate_threaded(words, &Options::default(), &mut two);
    let taken = tails_taken() > before;
    let mut one = Vec::new();
    let inline = crate::translate_to_writer(words, &Options::default().threads(1), &mut one, false);
    let text = |r: Result<crate::Written, WriteError>, t: Vec<u8>| match r {
        Ok(_) => Ok(t),
        Err(e) => Err(e.to_string()),
    };
    (text(inline, one), text(threaded, two), taken)
}

/// The word offset of the first instruction whose text (as assembled from `text`, one
/// instruction a line) starts with `line`.
fn word_of(words: &[u32], text: &str, line: &str) -> usize {
    let index = (text.lines())
        .filter(|l| !l.trim().is_empty())
        .position(|l| l.starts_with(line))
        .unwrap_or_else(|| panic!("no line {line}"));
    let mut at = 5;
    for _ in 0..index {
        at += (words[at] >> 16) as usize;
    }
    at
}

#[test]
fn a_module_loaded_in_two_parts_translates_as_in_one() {
    // 40 functions: the split falls near the 20th.
    let base = many_function_kernel(40, 30, false, false);
    let last = 39;
    // (name, text, words to patch: (line, new opcode), expected part of the error, taken)
    type Case = (
        &'static str,
        String,
        Option<(String, u32)>,
        Option<&'static str>,
        bool,
    );
    let cases: Vec<Case> = vec![
        ("nothing wrong", base.clone(), None, None, true),
        (
            "an id of the first part defined again in the second",
            base.replace(&format!("%a{last}_3 = "), "%a0_3 = "),
            None,
            Some("defined more than once"),
            false,
        ),
        (
            "a module-level id defined again in the second part",
            base.replace(&format!("%a{last}_3 = "), "%c3 = "),
            None,
            Some("defined more than once"),
            false,
        ),
        (
            // A module-level id defined again in a body may change the width of the
            // literals read with it, which the second part read from before.
            "a module-level id defined again in the first part",
            base.replace("%a1_3 = ", "%c3 = "),
            None,
            Some("defined more than once"),
            false,
        ),
        (
            "an id defined twice in the second part",
            base.replace(&format!("%a{last}_3 = "), &format!("%a{}_3 = ", last - 1)),
            None,
            Some("defined more than once"),
            false,
        ),
        (
            "an instruction that does not decode in the second part",
            base.clone(),
            Some((format!("%a{last}_5 = "), 0x7ffe)),
            Some("unknown opcode"),
            false,
        ),
        (
            "a block without its terminator in the second part",
            base.replacen(&format!("OpReturnValue %a{last}_29\n"), "", 1),
            None,
            Some("no terminator"),
            false,
        ),
        (
            "a structure error in the first part, a decoding error in the second",
            base.replacen("OpReturnValue %a1_29\n", "", 1),
            Some((format!("%a{last}_5 = "), 0x7ffe)),
            Some("unknown opcode"),
            false,
        ),
        (
            "a structure error in the first part only",
            base.replacen("OpReturnValue %a1_29\n", "", 1),
            None,
            Some("no terminator"),
            false,
        ),
        (
            "a module-level instruction between the second part's functions",
            base.replacen(
                &format!("%f{last} = OpFunction"),
                &format!("%late = OpVariable %ptr_cw CrossWorkgroup\n%f{last} = OpFunction"),
                1,
            ),
            None,
            Some("after the first function"),
            false,
        ),
    ];
    for (name, text, patch, error, taken) in cases {
        let mut words = crate::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some((line, opcode)) = patch {
            let at = word_of(&words, &text, &line);
            words[at] = (words[at] & 0xffff_0000) | opcode;
        }
        let (one, two, took) = both_ways(&words);
        match (&one, &two) {
            (Ok(a), Ok(b)) => {
                assert!(error.is_none(), "{name}: translated");
                assert!(a == b, "{name}: texts differ\n{}", first_difference(a, b));
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "{name}: errors differ");
                let want = error.unwrap_or_else(|| panic!("{name}: {a}"));
                assert!(a.contains(want), "{name}: {a}");
            }
            _ => panic!("{name}: one thread {one:?}, two {two:?}"),
        }
        assert_eq!(took, taken, "{name}: second part taken");
    }
}
