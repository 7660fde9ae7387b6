//! A failure after part of the streamed text was written leaves no output file behind,
//! and a failing writer is an I/O error. (That `translate_to_writer` prints exactly what
//! `translate` + `write_io` print, and both agree with a module loaded whole, is checked
//! inside the library: `crates/spirv-lift/src/tests/stream.rs`.)

mod common;

use spirv_lift::{Options, WriteError};
use std::process::Command;

/// A valid module whose first function translates (into more text than one 64 KiB
/// chunk of the streaming writer) and whose second uses an operation not translated yet
/// (`OpDepthAttachmentReadEXT`, SPV_EXT_shader_tile_image, in a fragment shader): the failure comes after text has been
/// streamed.
fn fails_in_second_function() -> String {
    let mut text = String::from(
        r#"
               OpCapability Shader
OpCapability TileImageDepthReadAccessEXT
               OpExtension "SPV_EXT_shader_tile_image"
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main"
               OpExecutionMode %main OriginUpperLeft
               OpName %helper "helper"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
      %float = OpTypeFloat 32
     %helper = OpFunction %void None %fn
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
          %d = OpDepthAttachmentReadEXT %float
               OpReturn
               OpFunctionEnd
"#,
    );
    text
}

#[test]
fn failure_after_streamed_text_leaves_no_output() {
    let text = fails_in_second_function();
    let words = spirv_lift::assemble(&text).expect("assembles");
    // The library streams the first function before the second fails.
    let mut partial = Vec::new();
    let err = spirv_lift::translate_to_writer(&words, &Options::default(), &mut partial, false)
        .expect_err("OpDepthAttachmentReadEXT is not translated");
    assert!(err.to_string().contains("is not supported"), "{err}");
    let partial = String::from_utf8(partial).expect("UTF-8");
    assert!(
        partial.contains("define void @helper()"),
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
    assert!(
        err.contains("OpDepthAttachmentReadEXT is not supported"),
        "{err}"
    );
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
    let bytes = std::fs::read(&path).expect("read input");
    let words = spirv_lift::words_from_bytes(&bytes).expect("a SPIR-V module");
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
