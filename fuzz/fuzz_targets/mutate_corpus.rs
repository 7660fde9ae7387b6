//! Structure-aware fuzzing: inputs are SPIR-V modules (seeded with the corpus), mutated
//! instruction by instruction (see `spirv_lift_fuzz::mutate_once`) so the fuzzer gets
//! past the header and the word-count tiling into the checks and the lowering.
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};
use spirv_lift_fuzz::{check_translate, check_truncated, mutate_bytes, options_for, words_le};

fuzz_target!(|data: &[u8]| {
    let words = words_le(data);
    let opts = options_for(data.len());
    check_translate(&words, &opts);
    // And as a mapped file truncated mid-translation.
    check_truncated(&words, &opts);
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    // One in eight mutations is libFuzzer's own (byte-level, crossover of dictionary
    // words), the rest instruction-level.
    if seed.is_multiple_of(8) {
        return fuzzer_mutate(data, size, max_size);
    }
    match mutate_bytes(data, size, max_size, seed) {
        Some(n) => n,
        None => fuzzer_mutate(data, size, max_size),
    }
});
