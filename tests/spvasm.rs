//! SPIR-V assembly input (`src/spirv/asm.rs`): the in-process assembler gives the same
//! words as `spirv-as` for the whole corpus (as `spirv-dis` prints it, with and without
//! `--raw-id`) and for the filetests, and the command line accepts `.spvasm` files.

mod common;

use std::path::Path;
use std::process::Command;

/// `spirv-dis` text of a corpus module.
fn disassemble(path: &Path, raw_ids: bool) -> String {
    let mut cmd = Command::new(common::tool("spirv-dis"));
    if raw_ids {
        cmd.arg("--raw-id");
    }
    let out = common::run(cmd.arg(path));
    assert!(out.status.success(), "spirv-dis {}", path.display());
    String::from_utf8(out.stdout).expect("UTF-8 disassembly")
}

/// The header's SPIR-V version as a `spirv-as --target-env` value.
fn env_of(words: &[u32]) -> String {
    format!("spv1.{}", (words[1] >> 8) & 0xFF)
}

/// Compares our assembly of `text` with `spirv-as`'s, ignoring the generator word (ours
/// is 0, theirs names SPIRV-Tools). `Err` describes the first difference.
fn compare(text: &str, env: &str) -> Result<(), String> {
    let ours = spirv_lift::assemble(text).map_err(|e| format!("ours: {e}"))?;
    let with_env = format!("; target-env: {env}\n{text}");
    let theirs = common::words_le(&common::spirv_as_checked(&with_env)?);
    let norm = |w: &[u32]| -> Vec<u32> {
        let mut w = w.to_vec();
        if let Some(g) = w.get_mut(2) {
            *g = 0;
        }
        w
    };
    let (a, b) = (norm(&ours), norm(&theirs));
    if a == b {
        return Ok(());
    }
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    Err(format!(
        "differs from spirv-as at word {at} (ours {} words, spirv-as {}): ours {:08x?}, spirv-as {:08x?}",
        a.len(),
        b.len(),
        a.get(at..(at + 6).min(a.len())).unwrap_or_default(),
        b.get(at..(at + 6).min(b.len())).unwrap_or_default()
    ))
}

#[test]
fn corpus_assembles_like_spirv_as() {
    let files = common::corpus_files();
    assert!(files.len() > 50, "corpus has only {} modules", files.len());
    let failures: Vec<String> = common::parallel_map(&files, common::oracle_threads(), |path| {
        let bytes = std::fs::read(path).expect("read corpus module");
        let env = env_of(&common::words_le(&bytes));
        let mut errs = Vec::new();
        for raw in [true, false] {
            if let Err(e) = compare(&disassemble(path, raw), &env) {
                errs.push(format!("{} (raw ids: {raw}): {e}", path.display()));
            }
        }
        errs
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn filetests_assemble_like_spirv_as() {
    let files = common::filetest_files();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read filetest");
        let env = common::target_env(&text).to_string();
        // spirv-as reads the same text; our version comes from the target-env line.
        let ours = spirv_lift::assemble(&text);
        let theirs = common::spirv_as_checked(&text);
        if common::newer_than_spirv_tools(&text) {
            // Only ours reads it (filetests.rs checks that spirv-as still refuses it).
            if let Err(e) = ours {
                failures.push(format!("{}: ours refuses it: {e}", path.display()));
            }
            continue;
        }
        match (ours, theirs) {
            (Ok(a), Ok(b)) => {
                let mut b = common::words_le(&b);
                let mut a = a;
                a[2] = 0;
                b[2] = 0;
                if a != b {
                    failures.push(format!("{}: differs from spirv-as ({env})", path.display()));
                }
            }
            (a, b) => failures.push(format!(
                "{}: ours {:?}, spirv-as {:?}",
                path.display(),
                a.err().map(|e| e.to_string()),
                b.err()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
}

#[test]
fn cli_translates_spvasm_like_the_assembled_binary() {
    let root = common::repo_root();
    for module in [
        "shaders/reduce_shared.comp.spv",
        "cl-kernels/vector_math.O2.spv",
    ] {
        let text = disassemble(&root.join(module), false);
        let asm = common::temp_file(text.as_bytes(), ".spvasm");
        let env = env_of(&common::words_le(
            &std::fs::read(root.join(module)).expect("read"),
        ));
        let binary = common::spirv_as(&format!("; target-env: {env}\n{text}"));
        let spv = common::temp_file(&binary, ".spv");
        let from_text = common::run(bin().arg(asm.path()));
        let from_binary = common::run(bin().arg(spv.path()));
        assert!(
            from_text.status.success(),
            "{module}: {}",
            String::from_utf8_lossy(&from_text.stderr)
        );
        assert!(from_binary.status.success());
        assert!(
            from_text.stdout == from_binary.stdout,
            "{module}: .spvasm and .spv differ"
        );
        // Text on standard input is recognized by its content.
        let piped = common::run_with_stdin(bin().arg("-"), text.as_bytes());
        assert!(
            piped.status.success(),
            "{}",
            String::from_utf8_lossy(&piped.stderr)
        );
        assert!(
            piped.stdout == from_binary.stdout,
            "{module}: stdin text differs"
        );
    }
}

/// Translates assembly `text` from a `.spvasm` file, expecting exit 1; returns the
/// message with the file's path replaced by `FILE`.
fn failing_spvasm(text: &str) -> String {
    let file = common::temp_file(text.as_bytes(), ".spvasm");
    let out = common::run(bin().arg(file.path()).arg("-o").arg("/dev/null"));
    assert_eq!(out.status.code(), Some(1), "{text}");
    String::from_utf8_lossy(&out.stderr).replace(&file.path().display().to_string(), "FILE")
}

#[test]
fn cli_reports_assembly_errors_by_line_and_column() {
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n  %x = OpFrobnicate %y\n";
    assert_eq!(
        failing_spvasm(text),
        "FILE:3:8: error: unknown opcode `OpFrobnicate`\n"
    );
    let cases = [
        (
            "OpCapability Shder\n",
            "line 1, column 14: `Shder` is not a Capability value",
        ),
        (
            "%int = OpTypeInt 32 1\n%c = OpConstant %int 1.5\n",
            "line 2, column 22: `1.5` does not fit its type",
        ),
        (
            "OpSource GLSL 450 \"x\n",
            "line 1, column 19: unterminated string",
        ),
        (
            "%f = OpTypeFloat 32\n%c = OpConstant %f\n",
            "line 2, column 6: OpConstant is missing a number",
        ),
    ];
    for (text, want) in cases {
        let err = spirv_lift::assemble(text).expect_err(text);
        assert_eq!(err.to_string(), want, "{text}");
    }
}

/// An error found after assembly (by the checks or the translation) points at the source
/// line of the instruction, with the text's own names (the assembler numbers ids its
/// own way); a binary keeps its word offsets and numbers.
#[test]
fn cli_reports_errors_after_assembly_at_the_source_line() {
    let text = "; a comment line\nOpCapability Shader\nOpMemoryModel Logical GLSL450\n\
                %uint = OpTypeInt 32 0\n\n    %sum = OpIAdd %uint %missing %missing\n";
    assert_eq!(
        failing_spvasm(text),
        "FILE:6:5: error: OpIAdd %sum: %missing is not defined\n"
    );
    // On standard input, the name is `<stdin>`.
    let piped = common::run_with_stdin(bin().arg("-o").arg("/dev/null"), text.as_bytes());
    assert_eq!(
        String::from_utf8_lossy(&piped.stderr),
        "<stdin>:6:5: error: OpIAdd %sum: %missing is not defined\n"
    );
    // The same module as a binary: word offset and the binary's numbers.
    let (words, map) = spirv_lift::assemble_mapped(text).unwrap();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let spv = common::temp_file(&bytes, ".spv");
    let out = common::run(bin().arg(spv.path()).arg("-o").arg("/dev/null"));
    assert_eq!(out.status.code(), Some(1));
    let (sum, missing) = (2, 3); // numbered in order of first appearance
    assert_eq!(map.name(sum), Some("sum"));
    assert_eq!(map.name(missing), Some("missing"));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: {}: word 14 (OpIAdd %{sum}): %{missing} is not defined\n",
            spv.path().display()
        )
    );
    assert_eq!(map.position(14), Some((6, 5)));
    assert_eq!(
        map.position(16),
        Some((6, 5)),
        "a word inside the instruction"
    );
    assert_eq!(map.position(13), Some((4, 1)), "the OpTypeInt before it");
    assert_eq!(map.position(0), None, "the header");
    // A mistake the translation finds (not the checks), with the result's name.
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
                %uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n\
                %one = OpConstant %uint 1\n%half = OpConstant %float 0.5\n\
                %void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
                %main = OpFunction %void None %fn\n%entry = OpLabel\n\
                %bad = OpIAdd %uint %one %half\nOpReturn\nOpFunctionEnd\n";
    let err = failing_spvasm(text);
    assert!(err.starts_with("FILE:11:1: error: OpIAdd %bad: "), "{err}");
}

/// Mutated assembly text (tokens dropped, duplicated, swapped, cut) never panics the
/// assembler or, when it still assembles, the translator.
#[test]
fn mutated_text_never_panics() {
    let root = common::repo_root();
    let text = disassemble(&root.join("shaders/helper_subgroup_loop.comp.spv"), false);
    let tokens: Vec<&str> = text.split_inclusive(char::is_whitespace).collect();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let (mut assembled, mut rejected) = (0, 0);
    for _ in 0..600 {
        let mut t = tokens.clone();
        for _ in 0..1 + rand(3) {
            let (i, j) = (rand(t.len()), rand(t.len()));
            match rand(4) {
                0 => {
                    t.remove(i);
                }
                1 => t.insert(i, t[j]),
                2 => t.swap(i, j),
                _ => t.truncate(i.max(1)),
            }
        }
        let mutated: String = t.concat();
        match spirv_lift::assemble(&mutated) {
            Ok(words) => {
                assembled += 1;
                let _ = spirv_lift::translate(&words, &Default::default());
            }
            Err(e) => {
                rejected += 1;
                assert!(e.to_string().starts_with("line "), "{e}");
            }
        }
    }
    assert!(
        assembled > 0 && rejected > 0,
        "{assembled} assembled, {rejected} rejected"
    );
}

use proptest::prelude::Strategy;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// Any text made of assembly-like pieces (and arbitrary characters) assembles or is
    /// rejected with a located error; nothing panics, and what assembles translates or
    /// is rejected without panicking.
    #[test]
    fn arbitrary_text_never_panics(pieces in proptest::collection::vec(
        proptest::prop_oneof![
            proptest::sample::select(vec![
                "OpCapability Shader", "OpCapability Kernel", "OpMemoryModel Logical GLSL450",
                "OpMemoryModel Physical64 OpenCL", "%a = OpTypeInt 32 1", "%f = OpTypeFloat 16",
                "%d = OpTypeFloat 64", "%c = OpConstant %a", "%c = OpConstant %f 0x1.8p+3",
                "%c = OpConstant %d -0x1p+1024", "OpSwitch %c %l 1 %l 0xFFFFFFFFFF %m",
                "%v = OpLoad %a %p Aligned|MakePointerAvailable", "%e = OpExtInstImport \"GLSL.std.450\"",
                "%x = OpExtInst %f %e FAbs", "%x = OpExtInst %f %c 99999 %a", "OpDecorate %a BuiltIn",
                "%s = OpSpecConstantOp %a IAdd", "OpFunctionEnd", "=", "%", "\"", "\\", ";",
                "\n", " ", "-", "0x", "1e999", "-0", "|", "None", "OpNop", "%1 = %2",
            ]).prop_map(str::to_string),
            "\\PC{0,8}",
        ],
        0..40,
    )) {
        let text = pieces.join(" ");
        match spirv_lift::assemble(&text) {
            Ok(words) => {
                let _ = spirv_lift::translate(&words, &Default::default());
            }
            Err(e) => proptest::prop_assert!(e.to_string().starts_with("line "), "{}", e),
        }
    }
}
