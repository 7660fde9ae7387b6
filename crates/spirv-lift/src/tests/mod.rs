//! Tests of paths the public API does not offer, over the repository's corpus: a module
//! loaded whole (`spirv::load` + `lower::lower_module`) against the streaming
//! translation, and the decoder against rspirv's parser. (The integration tests in the
//! repository's `tests/` use the public API only.)

mod consts;
mod decode;
mod spec;
mod split;
mod stream;
mod truncated;
mod types;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The repository (two levels above this crate).
fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files with extension `ext` of each directory (relative to the repository),
/// sorted per directory.
fn files_in(dirs: &[&str], ext: &str) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(repo_root().join(dir))
            .unwrap_or_else(|e| panic!("reading {dir}/: {e}"))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        all.extend(files);
    }
    all
}

/// The committed corpus (`shaders/*.spv`, `cl-kernels/*.spv`).
fn corpus_files() -> Vec<PathBuf> {
    files_in(&["shaders", "cl-kernels"], "spv")
}

/// Runs the SPIRV-Tools program `tool` with `input` on its standard input; its standard
/// output, or its messages. A missing tool is a failure (run `scripts/setup.sh`).
fn spirv_tool(tool: &str, args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {tool} (run scripts/setup.sh): {e}"));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("wait for the tool");
    writer
        .join()
        .expect("writer thread")
        .expect("write the input");
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "{tool} {args:?} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Host-endian words of a little-endian SPIR-V binary.
fn words_le(bytes: &[u8]) -> Vec<u32> {
    assert!(
        bytes.len().is_multiple_of(4),
        "SPIR-V binary of {} bytes",
        bytes.len()
    );
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The start of a kernel module whose function `%f` is exported, for the tests below.
const LINKED_KERNEL_HEAD: &str = "OpCapability Addresses\nOpCapability Kernel\n\
     OpCapability Linkage\nOpMemoryModel Physical64 OpenCL\n\
     OpDecorate %f LinkageAttributes \"f\" Export\n";

/// A parameter's errors are reported at its `OpFunctionParameter` (its word offset,
/// found here by walking the words): an undefined type, and a type other than the
/// function type's. The checks read parameters as instructions made again from their
/// id, type and word (`spirv::Param`).
#[test]
fn a_parameters_errors_are_reported_at_it() {
    let module = |param_type: &str| {
        format!(
            "{LINKED_KERNEL_HEAD}\
             %void = OpTypeVoid\n%uint = OpTypeInt 32 0\n\
             %p = OpTypePointer CrossWorkgroup %uint\n\
             %fn = OpTypeFunction %void %uint %p\n%f = OpFunction %void None %fn\n\
             %y = OpFunctionParameter %uint\n%x = OpFunctionParameter {param_type}\n\
             %e = OpLabel\nOpReturn\nOpFunctionEnd\n"
        )
    };
    let run = |param_type: &str| {
        let words = crate::assemble(&module(param_type)).expect("assembles");
        // The second OpFunctionParameter (opcode 55).
        let (mut at, mut seen) = (5, 0);
        let word = loop {
            if words[at] & 0xffff == 55 {
                seen += 1;
                if seen == 2 {
                    break at;
                }
            }
            at += (words[at] >> 16) as usize;
        };
        let result = crate::translate(&words, &crate::Options::default()).map(|_| ());
        (result, word)
    };
    run("%p").0.expect("the function type's parameter type");
    for (param_type, message) in [
        ("%nothing", "is not defined"),
        ("%uint", "parameter type is not"),
    ] {
        let (result, word) = run(param_type);
        let e = result.expect_err(param_type).to_string();
        assert!(
            e.contains(message) && e.contains(&format!("word {word} (OpFunctionParameter %")),
            "{param_type}: {e}"
        );
    }
}

/// A decoration whose target or id operand nothing defines is reported at the
/// decoration, as any use of an undefined id is (`Uses::check_deco` skips making the
/// instruction only when every id is defined); a decoration of defined ids passes.
#[test]
fn a_decoration_of_an_undefined_id_is_reported_at_it() {
    let module = |decoration: &str| {
        format!(
            "{LINKED_KERNEL_HEAD}\
             {decoration}\n%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n\
             %four = OpConstant %uint 4\n%p = OpTypePointer CrossWorkgroup %uint\n\
             %fn = OpTypeFunction %void %p\n%f = OpFunction %void None %fn\n\
             %x = OpFunctionParameter %p\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n"
        )
    };
    let translate = |decoration: &str| {
        let words = crate::assemble(&module(decoration)).expect("assembles");
        crate::translate(&words, &crate::Options::default()).map(|_| ())
    };
    translate("OpDecorate %x Alignment 4").expect("a defined target");
    translate("OpDecorateId %x AlignmentId %four").expect("a defined id operand");
    for decoration in [
        "OpDecorate %nothing Alignment 4",
        "OpDecorateId %x AlignmentId %nothing",
    ] {
        let e = translate(decoration).expect_err(decoration).to_string();
        assert!(
            e.contains("is not defined") && e.contains("OpDecorate"),
            "{decoration}: {e}"
        );
    }
}
