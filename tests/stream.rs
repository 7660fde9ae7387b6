//! `translate_to_writer` (the streaming path the command-line tool uses) prints exactly
//! what `translate` + `write_io` print, with the same counts, warnings and errors; both
//! (which decode each function body again instead of keeping them) agree with a module
//! loaded whole (`spirv::load` + `lower::lower_module`); and a failure after part of the
//! text was written leaves no output file behind.

mod common;

use spirv_lift::{Options, Target, WriteError, stats::Stats};
use std::path::Path;
use std::process::Command;

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
        spirv_lift::spirv::asm::assemble(std::str::from_utf8(&bytes).ok()?).ok()
    } else {
        spirv_lift::spirv::words_from_bytes(&bytes).ok()
    }
}

#[test]
fn streamed_text_counts_and_errors_match_the_whole_module() {
    let mut inputs = common::corpus_files();
    inputs.extend(common::spv_files_in(&["tests/malformed"]));
    inputs.extend(common::filetest_files());
    let (mut same_text, mut same_error) = (0, 0);
    for path in &inputs {
        let Some(words) = words_of(path) else {
            continue;
        };
        for (label, options) in option_sets() {
            let what = format!("{} ({label})", path.display());
            let mut streamed = Vec::new();
            let got = spirv_lift::translate_to_writer(&words, &options, &mut streamed, true);
            let kept = spirv_lift::spirv::load(&words)
                .and_then(|m| spirv_lift::lower::lower_module(m, &options));
            match (spirv_lift::translate(&words, &options), got) {
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
    assert!(same_text >= 5 * common::corpus_files().len(), "{same_text}");
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

/// A valid module whose first function translates (into more text than one 64 KiB
/// chunk of the streaming writer) and whose second uses an operation not translated yet
/// (`OpUDot`): the failure comes after text has been streamed.
fn fails_in_second_function() -> String {
    let mut text = String::from(
        r#"
               OpCapability Shader
               OpCapability DotProduct
               OpCapability DotProductInput4x8BitPacked
               OpExtension "SPV_KHR_integer_dot_product"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %helper = OpFunction %void None %fn ; printed as @_6 (no OpName)
         %h0 = OpLabel
"#,
    );
    let mut prev = "%uint_1".to_string();
    for i in 0..4000 {
        text.push_str(&format!("%a{i} = OpIAdd %uint {prev} %uint_1\n"));
        prev = format!("%a{i}");
    }
    text.push_str(
        r#"
               OpReturn
               OpFunctionEnd
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %d = OpUDot %uint %uint_1 %uint_1 PackedVectorFormat4x8Bit
               OpReturn
               OpFunctionEnd
"#,
    );
    text
}

#[test]
fn failure_after_streamed_text_leaves_no_output() {
    let text = fails_in_second_function();
    let words = spirv_lift::spirv::asm::assemble(&text).expect("assembles");
    // The library streams the first function before the second fails.
    let mut partial = Vec::new();
    let err = spirv_lift::translate_to_writer(&words, &Options::default(), &mut partial, false)
        .expect_err("OpUDot is not translated");
    assert!(err.to_string().contains("OpUDot"), "{err}");
    let partial = String::from_utf8(partial).expect("UTF-8");
    assert!(
        partial.contains("define void @_6()"),
        "the first function was not streamed before the error ({} bytes)",
        partial.len()
    );
    // The command-line tool shows none of it: no file for -o, nothing on stdout.
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("two.spvasm");
    std::fs::write(&input, &text).expect("write input");
    let output = dir.path().join("two.ll");
    let bin = env!("CARGO_BIN_EXE_spirv-lift");
    let out = common::run(Command::new(bin).arg(&input).arg("-o").arg(&output));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .filter(|n| n != "two.spvasm")
        .collect();
    assert!(leftovers.is_empty(), "files left behind: {leftovers:?}");
    let out = common::run(Command::new(bin).arg(&input));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty(), "partial output on stdout");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("OpUDot is not supported"), "{err}");
}

/// A writer that fails once `room` bytes have been written.
struct Full {
    room: usize,
}

impl std::io::Write for Full {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() > self.room {
            return Err(std::io::Error::other("device full"));
        }
        self.room -= buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_writer_is_an_io_error() {
    let path = common::repo_root().join("cl-kernels/bitonic_sort.O2.spv");
    let words = words_of(&path).expect("a SPIR-V module");
    for room in [0, 100] {
        let err =
            spirv_lift::translate_to_writer(&words, &Options::default(), &mut Full { room }, false)
                .expect_err("the writer fails");
        assert!(
            matches!(&err, WriteError::Io(e) if e.to_string() == "device full"),
            "{err:?}"
        );
    }
}
