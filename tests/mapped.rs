//! A large binary input file is mapped, not read, and its pages are given back as the
//! translation moves past them (`src/cli/mapped.rs`): a file truncated while it is
//! translated is an error with no output, not a crash, and inputs that are not mapped
//! translate as before. (That the output is the same as when the input is read, in about
//! the input's size less memory: `tests/mapped_memory.rs`.)

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

/// A fragment shader module of `functions` functions of `adds` additions each (about
/// 20 bytes an addition: 2,000 × 200 is 8 MB).
fn many_functions(functions: usize, adds: usize) -> Vec<u8> {
    let mut text = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n\
         %uint_1 = OpConstant %uint 1\n",
    );
    for f in 0..functions {
        text.push_str(&format!(
            "%f{f} = OpFunction %void None %fn\n%l{f} = OpLabel\n"
        ));
        let mut prev = "%uint_1".to_string();
        for i in 0..adds {
            text.push_str(&format!("%a{f}_{i} = OpIAdd %uint {prev} %uint_1\n"));
            prev = format!("%a{f}_{i}");
        }
        text.push_str("OpReturn\nOpFunctionEnd\n");
    }
    text.push_str("%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n");
    let words = spirv_lift::assemble(&text).expect("assembles");
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn lift() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
}

#[test]
fn a_file_truncated_while_it_is_translated_is_an_error_with_no_output() {
    let bytes = many_functions(1000, 200);
    // Cut to nothing (every page faults), or in the middle of a page: from there to the
    // page's end the mapping reads zeros with no fault, and the translation fails on them
    // before it reads a page that faults (it was reported as that error).
    let mid_page = (bytes.len() / 2 / 4096 * 4096 + 2050) as u64;
    for (threads, cut) in [("1", 0), ("2", 0), ("1", mid_page), ("2", mid_page)] {
        let dir = tempfile::tempdir().expect("temp dir");
        let input = dir.path().join("cut.spv");
        std::fs::write(&input, &bytes).expect("writes the input");
        let output = dir.path().join("cut.ll");
        let child = lift()
            .args(["--threads", threads])
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        // The temporary output file is made once the input is mapped and before the
        // translation starts: the input is cut then, so that the translation reads past
        // its new end.
        let started = std::time::Instant::now();
        let has_temporary = || {
            std::fs::read_dir(dir.path()).expect("lists").any(|e| {
                e.expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
        };
        while !has_temporary() {
            assert!(
                started.elapsed().as_secs() < 60,
                "no temporary output file after a minute"
            );
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        std::fs::OpenOptions::new()
            .write(true)
            .open(&input)
            .and_then(|f| f.set_len(cut))
            .expect("truncates the input");
        let out = child.wait_with_output().expect("waits");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "--threads {threads}: {stderr}");
        assert!(
            stderr.contains("cut.spv: the file was truncated while it was translated"),
            "--threads {threads}, cut to {cut} bytes: {stderr}"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .expect("lists")
            .map(|e| e.expect("entry").file_name())
            .filter(|n| n != "cut.spv")
            .collect();
        assert!(
            left.is_empty(),
            "--threads {threads}, cut to {cut} bytes: left behind: {left:?}"
        );
    }
}

/// Inputs that are not mapped (text, the other byte order, a small file) translate as
/// before; a big-endian binary the same as the little-endian one.
#[test]
fn inputs_that_are_not_mapped_translate_as_before() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bytes = many_functions(400, 200);
    assert!(bytes.len() > 1 << 20, "{} bytes", bytes.len());
    let le = dir.path().join("le.spv");
    std::fs::write(&le, &bytes).expect("writes");
    let be = dir.path().join("be.spv");
    let swapped: Vec<u8> = bytes
        .chunks_exact(4)
        .flat_map(|c| [c[3], c[2], c[1], c[0]])
        .collect();
    std::fs::write(&be, swapped).expect("writes");
    let translate = |input: &Path, out: &str| {
        let out = dir.path().join(out);
        let o = common::run(lift().arg(input).arg("-o").arg(&out));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(out).expect("reads the output")
    };
    assert!(translate(&le, "le.ll") == translate(&be, "be.ll"));
}
