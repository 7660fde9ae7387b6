//! Specialization constants set through `Options` apply on the whole-module path too
//! (moved from `tests/spec_const.rs`, which keeps the tests of the public API).

use crate::Options;

/// `tests/spec/widths.spvasm` (every scalar width, booleans, `OpSpecConstantOp`,
/// `OpSpecConstantComposite`), assembled by `spirv-as` and valid for `spirv-val`.
fn widths_words() -> Vec<u32> {
    let text = include_str!("../../../../tests/spec/widths.spvasm");
    let env = ["--target-env", "vulkan1.3"];
    let bytes = super::spirv_tool(
        "spirv-as",
        &[env[0], env[1], "-o", "-", "-"],
        text.as_bytes(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    super::spirv_tool("spirv-val", &[env[0], env[1], "-"], &bytes)
        .unwrap_or_else(|e| panic!("{e}"));
    super::words_le(&bytes)
}

/// The values `tests/spec_const.rs` sets in the same module (its `width_options`).
fn width_options() -> Options {
    Options::default()
        .spec_constant(10, "-128")
        .spec_constant(11, "0xffff")
        .spec_constant(12, 7i32)
        .spec_constant(13, u64::MAX)
        .spec_constant(14, "-9223372036854775808")
        .spec_constant(15, "0.5")
        .spec_constant(16, -2e3f32)
        .spec_constant(17, "0.1")
        .spec_constant(18, false)
        .spec_constant(19, "true")
}

#[test]
fn whole_module_path_sets_values_as_translate_does() {
    let words = widths_words();
    let o = width_options();
    let whole = crate::load_whole(&words, &o)
        .and_then(|m| crate::lower::lower_module(m, &o))
        .expect("lower_module")
        .to_string();
    assert_eq!(
        whole,
        crate::translate(&words, &o).expect("translate").to_string()
    );
    let mut streamed = Vec::new();
    crate::translate_to_writer(&words, &o, &mut streamed, false).expect("stream");
    assert_eq!(String::from_utf8(streamed).expect("UTF-8"), whole);
}
