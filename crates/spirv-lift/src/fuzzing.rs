//! Entry points for the fuzz targets (`fuzz/`), built only with the `fuzzing` feature:
//! the paths [`translate`](crate::translate) does not take, so that a target can check
//! that they agree with it. Not part of the library's API.

use crate::{Error, Module, Options, lower, spirv};

/// Translates `words` from a module loaded whole (every function body decoded once and
/// kept), where [`translate`](crate::translate) decodes each body again just before
/// lowering it. Specialization constants of `options` are set as `translate` sets them.
///
/// # Errors
/// As [`translate`](crate::translate).
pub fn translate_loaded_whole(words: &[u32], options: &Options) -> Result<Module, Error> {
    crate::load_whole(words, options).and_then(|m| lower::lower_module(m, options))
}

/// Translates `words` into LLVM assembly with the function bodies checked on a second
/// thread while the lowering runs and prints ([`Options::threads`](crate::Options::threads)
/// does it for modules of 256 KiB or more; this, whatever the size): the text
/// [`translate_to_writer`](crate::translate_to_writer) writes.
///
/// # Errors
/// As [`translate_to_writer`](crate::translate_to_writer).
pub fn translate_threaded(words: &[u32], options: &Options) -> Result<Vec<u8>, crate::WriteError> {
    let mut text = Vec::new();
    crate::translate_threaded(words, options, &mut text)?;
    Ok(text)
}

/// Decodes `words` with this crate's decoder and with rspirv's parser alone; `Err` says
/// how they disagree (they must give the same instructions, or the same error).
///
/// # Errors
/// A description of the disagreement.
pub fn decode_differential(words: &[u32]) -> Result<(), String> {
    let ours = spirv::decode_instructions(words, false);
    let theirs = spirv::decode_instructions(words, true);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        (Ok(a), Ok(b)) => Err(format!("decoded differently:\n{a:?}\n{b:?}")),
        (Err(a), Err(b)) if a.to_string() == b.to_string() => Ok(()),
        (Err(a), Err(b)) => Err(format!("different errors: ours {a}, rspirv {b}")),
        _ => Err(format!(
            "one decoder failed: ours {ours:?}, rspirv {theirs:?}"
        )),
    }
}

/// Translates `words` as if they were a mapped file truncated while it is read: at the
/// `at_call`th hint of how far the translation has read (one every `step` words), the
/// words from `cut` on start to read as zeros, as the command line's mapping reads them
/// after its SIGBUS handler. Bodies are checked beside the lowering when `threaded`. The
/// text, or the error; either is right, a panic is not.
///
/// # Errors
/// As [`translate_to_writer`](crate::translate_to_writer).
pub fn translate_truncated(
    words: &[u32],
    options: &Options,
    threaded: bool,
    step: usize,
    at_call: usize,
    cut: usize,
) -> Result<Vec<u8>, crate::WriteError> {
    crate::translate_truncated(words, options, threaded, step, (at_call, cut)).0
}
