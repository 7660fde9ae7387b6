//! Arbitrary bytes, read as little-endian words (with a valid header written over the
//! first five), decoded twice: by spirv-lift's decoder and by rspirv's parser alone.
//! Both must give the same instructions, or the same error at the same word.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spirv_lift_fuzz::words_le;

fuzz_target!(|data: &[u8]| {
    let mut words = words_le(&data[..data.len() / 4 * 4]);
    if words.len() < 5 {
        return;
    }
    // Magic, version 1.6, generator, a bound from the input (at least 1), schema 0: the
    // header checks are shared, so spend the input on instructions.
    let bound = 1 + (words[3] & 0xfff);
    words[..5].copy_from_slice(&[0x0723_0203, 0x0001_0600, 0, bound, 0]);
    if let Err(e) = spirv_lift::fuzzing::decode_differential(&words) {
        panic!("{e}");
    }
});
