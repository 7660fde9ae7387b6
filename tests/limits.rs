//! Memory follows the input, not what the input declares (issue 22, items 3 and 4): a
//! small module with the largest id bound, and SPIR-V assembly held to the binary
//! limits while it is assembled.
//!
//! The child's peak resident size is its own (`common::run_measured`: a forked child,
//! waited for with `wait4`), whatever else this file runs.

mod common;

use spirv_lift::{ErrorKind, Options};

/// A valid compute shader (`spirv-val` accepts it) of 35 words with id bound `bound`.
fn tiny_module(bound: u32) -> Vec<u8> {
    let mut w: Vec<u32> = vec![0x0723_0203, 0x0001_0000, 0, bound, 0];
    let mut inst = |op: u32, operands: &[u32]| {
        w.push(((operands.len() as u32 + 1) << 16) | op);
        w.extend_from_slice(operands);
    };
    inst(17, &[1]); // OpCapability Shader
    inst(14, &[0, 1]); // OpMemoryModel Logical GLSL450
    inst(15, &[5, 3, 0x6e69_616d, 0]); // OpEntryPoint GLCompute %3 "main"
    inst(16, &[3, 17, 1, 1, 1]); // OpExecutionMode %3 LocalSize 1 1 1
    inst(19, &[1]); // %1 = OpTypeVoid
    inst(33, &[2, 1]); // %2 = OpTypeFunction %1
    inst(54, &[1, 3, 0, 2]); // %3 = OpFunction %1 None %2
    inst(248, &[4]); // %4 = OpLabel
    inst(253, &[]); // OpReturn
    inst(56, &[]); // OpFunctionEnd
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn a_small_module_with_the_largest_id_bound_is_translated_in_little_memory() {
    // The same module with its real bound (5) and with spirv-val's largest (0x3F_FFFF):
    // the bound changes nothing in the output.
    let small = spirv_lift::translate_bytes(&tiny_module(5), &Options::default())
        .expect("bound 5")
        .to_string();
    let large = spirv_lift::translate_bytes(&tiny_module(0x3F_FFFF), &Options::default())
        .expect("bound 0x3FFFFF")
        .to_string();
    assert_eq!(small, large);
    assert!(large.contains("define void @main()"), "{large}");

    // One bound more is refused, as spirv-val refuses it.
    let e = spirv_lift::translate_bytes(&tiny_module(0x40_0000), &Options::default())
        .expect_err("bound 0x400000");
    assert!(matches!(e.kind, ErrorKind::BadIdBound(0x40_0000)), "{e}");

    // The command line on the large bound: dense per-id tables took 178 MB here (about
    // 40 bytes per id below the bound); sparse ones take what the baseline takes.
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("bound.spv");
    std::fs::write(&input, tiny_module(0x3F_FFFF)).expect("write");
    let rss_kib = common::lift_peak_rss_kib(&input, &dir.path().join("bound.ll"));
    assert!(
        rss_kib < 64 * 1024,
        "peak RSS {rss_kib} KiB for a 140-byte module (at most 64 MiB expected)"
    );
}

#[test]
fn assembly_text_is_held_to_the_instruction_limit_while_it_is_assembled() {
    // 2^22 instructions are allowed; the one after is refused with its line, before the
    // words of the rest are built.
    let limit = 1usize << 22;
    let mut text = String::with_capacity((limit + 10) * 6);
    for _ in 0..limit + 10 {
        text.push_str("OpNop\n");
    }
    let e = spirv_lift::assemble(&text).expect_err("too many instructions");
    let ErrorKind::LimitExceeded(message) = &e.kind else {
        panic!("expected a limit error, got {e}");
    };
    assert_eq!(
        message,
        &format!(
            "line {}, column 1: the assembled module has more than {limit} instructions",
            limit + 1
        )
    );
    // At the limit the text assembles (into one word per `OpNop` after the header).
    text.truncate(limit * 6);
    let words = spirv_lift::assemble(&text).expect("at the limit");
    assert_eq!(words.len(), 5 + limit);
}
