//! Arbitrary bytes, read as little-endian words, fed to `spirv_lift::translate` (and once
//! more as a mapped file truncated mid-translation); inputs
//! that are not a whole number of words go through `translate_bytes`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spirv_lift_fuzz::{check_translate, check_truncated, options_for, words_le};

fuzz_target!(|data: &[u8]| {
    let opts = options_for(data.len());
    if !data.len().is_multiple_of(4) {
        let r = spirv_lift::translate_bytes(data, &opts);
        assert!(r.is_err(), "unaligned input translated");
        return;
    }
    let words = words_le(data);
    check_translate(&words, &opts);
    // And as a mapped file truncated mid-translation.
    check_truncated(&words, &opts);
});
