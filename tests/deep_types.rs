//! Deeply nested types cost memory and time linear in the module, not quadratic in the
//! nesting depth: an array's layout is computed once (not again under every array that
//! holds it), and a type's text is kept only while short (a `[1 x [1 x … i32]]` 500 levels
//! deep is 4 KB of text, and each of 20,000 arrays of it held a copy: 83 MB peak from a 650 KB
//! module).
//!
//! The child's peak resident size is its own (`common::run_measured`: a forked child,
//! waited for with `wait4`), whatever else this file runs.

mod common;

use std::fmt::Write as _;

/// Nesting depth of the chain of arrays: under the type nesting limit (512).
const DEPTH: usize = 500;
/// Arrays of the deepest array, each of another length.
const WIDE: usize = 20_000;

/// A compute shader whose entry point has a variable of the deepest array and one of
/// the array of `wide_len` of it; `%a0 = [1 x i32]`, `%a{k} = [1 x %a{k-1}]`.
fn deep_module(wide_len: u32) -> String {
    let mut s = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%i32 = OpTypeInt 32 0\n\
         %c1 = OpConstant %i32 1\n",
    );
    let mut prev = "%i32".to_string();
    for k in 0..DEPTH {
        writeln!(s, "%a{k} = OpTypeArray {prev} %c1").unwrap();
        prev = format!("%a{k}");
    }
    for j in 0..WIDE {
        writeln!(s, "%n{j} = OpConstant %i32 {}", j + 2).unwrap();
        writeln!(s, "%b{j} = OpTypeArray {prev} %n{j}").unwrap();
    }
    let wide = wide_len as usize - 2;
    writeln!(s, "%pd = OpTypePointer Function {prev}").unwrap();
    writeln!(s, "%pw = OpTypePointer Function %b{wide}").unwrap();
    s.push_str(
        "%main = OpFunction %void None %fn\n%l = OpLabel\n\
         %vd = OpVariable %pd Function\n%vw = OpVariable %pw Function\n\
         OpReturn\nOpFunctionEnd\n",
    );
    s
}

#[test]
fn deeply_nested_arrays_translate_in_memory_linear_in_the_module() {
    let wide_len = 9;
    let words = spirv_lift::assemble(&deep_module(wide_len)).expect("assemble");
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("deep.spv");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&input, &bytes).expect("write");
    let output = dir.path().join("deep.ll");
    let rss_kib = common::lift_peak_rss_kib(&input, &output);

    // The variables' types, printed in full however they were kept.
    let deep = format!("{}i32{}", "[1 x ".repeat(DEPTH), "]".repeat(DEPTH));
    let wide = format!("[{wide_len} x {deep}]");
    let ir = std::fs::read_to_string(&output).expect("read output");
    assert!(ir.contains(&format!("= alloca {deep}\n")), "{ir}");
    assert!(ir.contains(&format!("= alloca {wide}\n")), "{ir}");

    // Every array type's full text kept took 83 MB here (the module is 650 KB).
    assert!(
        rss_kib < 48 * 1024,
        "peak RSS {rss_kib} KiB for a {} KB module (at most 48 MiB expected)",
        bytes.len() / 1000
    );
}
