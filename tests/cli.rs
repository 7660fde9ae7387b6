//! The command-line contract (SPEC §6, §7), run against the built binary.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
}

fn run(args: &[&str]) -> Output {
    common::run(bin().args(args))
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    common::run(bin().current_dir(dir).args(args))
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A small Vulkan compute shader and an OpenCL kernel module from the committed corpus.
fn shader() -> PathBuf {
    common::repo_root().join("shaders/reduce_shared.comp.spv")
}

fn kernel() -> PathBuf {
    common::repo_root().join("cl-kernels/vector_math.O2.spv")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn assert_exit(out: &Output, code: i32, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: expected exit {code}, got {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        truncate(&stdout(out)),
        stderr(out)
    );
}

fn truncate(text: &str) -> String {
    text.lines().take(20).collect::<Vec<_>>().join("\n")
}

/// A translation error: exit 1, exactly one line `error: <path>: ...` on stderr, no
/// panic message and nothing on stdout.
fn check_translation_error(out: &Output, path_shown: &str, what: &str) -> Result<(), String> {
    let err = stderr(out);
    if out.status.code() != Some(1) {
        return Err(format!(
            "{what}: expected exit 1, got {}\nstdout:\n{}\nstderr:\n{err}",
            out.status,
            truncate(&stdout(out))
        ));
    }
    if err.contains("panicked") {
        return Err(format!("{what}: panic:\n{err}"));
    }
    let lines: Vec<&str> = err.lines().collect();
    if lines.len() != 1 {
        return Err(format!("{what}: want one stderr line, got:\n{err}"));
    }
    let prefix = format!("error: {path_shown}: ");
    if !lines[0].starts_with(&prefix) {
        return Err(format!(
            "{what}: stderr line does not start with {prefix:?}: {}",
            lines[0]
        ));
    }
    if !out.stdout.is_empty() {
        return Err(format!(
            "{what}: partial output on stdout:\n{}",
            truncate(&stdout(out))
        ));
    }
    Ok(())
}

fn assert_translation_error(out: &Output, path_shown: &str, what: &str) {
    if let Err(e) = check_translation_error(out, path_shown, what) {
        panic!("{e}");
    }
}

/// Deterministic pseudo-random bytes (64-bit LCG, Knuth's MMIX constants).
fn lcg_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 56) as u8
        })
        .collect()
}

fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("spirv-lift-cli-")
        .tempdir()
        .expect("create temp dir")
}

#[test]
fn translates_to_stdout() {
    for input in [shader(), kernel()] {
        let out = run(&[s(&input)]);
        assert_exit(&out, 0, s(&input));
        let text = stdout(&out);
        let first = text.lines().next().unwrap_or("");
        assert!(
            first.starts_with("target triple = ") || first.starts_with(';'),
            "output starts with neither a target triple nor a comment: {first:?}"
        );
        assert!(
            text.contains("define "),
            "no function defined:\n{}",
            truncate(&text)
        );
        assert!(
            stderr(&out).is_empty(),
            "stderr on success: {}",
            stderr(&out)
        );
        // The CLI prints what the library gives.
        let bytes = std::fs::read(&input).expect("read corpus file");
        let lib = spirv_lift::translate_bytes(&bytes, &spirv_lift::Options::default())
            .expect("library translation");
        assert_eq!(text, lib.to_string(), "CLI and library outputs differ");
    }
}

#[test]
fn output_file() {
    let dir = tempdir();
    let out_path = dir.path().join("out.ll");
    let out = run(&[s(&shader()), "-o", s(&out_path)]);
    assert_exit(&out, 0, "-o out.ll");
    assert!(out.stdout.is_empty(), "-o also printed to stdout");
    let written = std::fs::read_to_string(&out_path).expect("-o wrote no file");
    let direct = stdout(&run(&[s(&shader())]));
    assert_eq!(written, direct, "-o file differs from stdout output");
    let long = run(&[s(&shader()), "--output", s(&out_path)]);
    assert_exit(&long, 0, "--output out.ll");
}

/// Malformed inputs: each must fail with exit 1 and one error line, never a panic.
fn malformed_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let corpus = std::fs::read(shader()).expect("read corpus file");
    // Cut inside an instruction, on a word boundary: the header and first instructions
    // are intact, the last instruction's word count runs past the end.
    let mut cut = 5 * 4;
    let mut word = 5;
    let words = common::words_le(&corpus);
    while word < words.len() {
        let count = (words[word] >> 16) as usize;
        if count > 2 && word > 20 {
            cut = (word + 1) * 4;
            break;
        }
        word += count.max(1);
    }
    assert!(
        cut > 20,
        "no multi-word instruction found in the corpus file"
    );
    let mut random_with_header = corpus[..20].to_vec();
    random_with_header.extend(lcg_bytes(0x5eed_0002, 4096 - 20));
    vec![
        ("empty", Vec::new()),
        ("3 bytes", vec![0x03, 0x02, 0x23]),
        ("4096 random bytes", lcg_bytes(0x5eed_0001, 4096)),
        ("valid header + random bytes", random_with_header),
        ("truncated in an instruction", corpus[..cut].to_vec()),
        ("truncated mid-word", corpus[..corpus.len() - 2].to_vec()),
        ("header alone", corpus[..20].to_vec()),
    ]
}

#[test]
fn malformed_inputs_fail_cleanly() {
    let dir = tempdir();
    let mut failures = Vec::new();
    for (what, bytes) in malformed_inputs() {
        let input = dir.path().join("bad.spv");
        std::fs::write(&input, &bytes).expect("write input");
        let out = run_in(dir.path(), &["bad.spv"]);
        if let Err(e) = check_translation_error(&out, "bad.spv", what) {
            failures.push(e);
        }
        let _ = std::fs::remove_file(&input);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The error line names the instruction the way SPEC §6 shows it:
/// `error: in.spv: word 98 (OpName): ...`.
#[test]
fn error_line_names_word_and_opcode() {
    let (_, bytes) = malformed_inputs()
        .into_iter()
        .find(|(what, _)| *what == "truncated in an instruction")
        .expect("truncated input");
    let dir = tempdir();
    std::fs::write(dir.path().join("in.spv"), &bytes).expect("write input");
    let out = run_in(dir.path(), &["in.spv"]);
    assert_translation_error(&out, "in.spv", "truncated in an instruction");
    let line = stderr(&out);
    let rest = line
        .trim_end()
        .strip_prefix("error: in.spv: word ")
        .unwrap_or_else(|| panic!("no word offset: {line}"));
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    assert!(digits > 0, "no word offset: {line}");
    assert!(
        rest[digits..].starts_with(" (Op"),
        "opcode not shown as `(OpXxx ...)` after the word offset: {line}"
    );
}

#[test]
fn error_with_output_file_writes_nothing() {
    let dir = tempdir();
    std::fs::write(dir.path().join("bad.spv"), lcg_bytes(7, 4096)).expect("write input");
    // No file before: none after.
    let out = run_in(dir.path(), &["bad.spv", "-o", "out.ll"]);
    assert_translation_error(&out, "bad.spv", "-o out.ll on a malformed input");
    assert!(
        !dir.path().join("out.ll").exists(),
        "out.ll was created although the translation failed"
    );
    // A file before: its old content is kept.
    std::fs::write(dir.path().join("out.ll"), "old content\n").expect("write out.ll");
    let out = run_in(dir.path(), &["bad.spv", "-o", "out.ll"]);
    assert_translation_error(&out, "bad.spv", "-o existing out.ll on a malformed input");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.ll")).expect("out.ll gone"),
        "old content\n",
        "a failed translation changed the existing output file"
    );
    // No temporary files left behind next to it.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["bad.spv", "out.ll"],
        "stray files in the output directory"
    );
}

#[test]
fn big_endian_input_gives_identical_output() {
    let dir = tempdir();
    for input in [shader(), kernel()] {
        let bytes = std::fs::read(&input).expect("read corpus file");
        let swapped: Vec<u8> = bytes
            .chunks_exact(4)
            .flat_map(|c| [c[3], c[2], c[1], c[0]])
            .collect();
        assert_ne!(bytes, swapped);
        let be = dir.path().join("be.spv");
        std::fs::write(&be, &swapped).expect("write input");
        let a = run(&[s(&input)]);
        let b = run(&[s(&be)]);
        assert_exit(&a, 0, "little-endian input");
        assert_exit(&b, 0, "big-endian input");
        assert_eq!(
            stdout(&a),
            stdout(&b),
            "{}: outputs differ by endianness",
            s(&input)
        );
    }
}

#[test]
fn dash_reads_stdin() {
    let bytes = std::fs::read(shader()).expect("read corpus file");
    let out = common::run_with_stdin(bin().arg("-"), &bytes);
    assert_exit(&out, 0, "- (stdin)");
    assert_eq!(stdout(&out), stdout(&run(&[s(&shader())])));
    // Malformed stdin: the same one-line error, naming `<stdin>` as LLVM's tools do.
    let out = common::run_with_stdin(bin().arg("-"), b"not spir-v");
    assert_exit(&out, 1, "- with malformed stdin");
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("error: <stdin>: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn no_input_reads_stdin() {
    let bytes = std::fs::read(shader()).expect("read corpus file");
    let out = common::run_with_stdin(&mut bin(), &bytes);
    assert_exit(&out, 0, "no input (stdin)");
    assert_eq!(stdout(&out), stdout(&run(&[s(&shader())])));
    let bad = std::fs::read(common::repo_root().join("tests/malformed/undefined-id.spv")).unwrap();
    let out = common::run_with_stdin(&mut bin(), &bad);
    assert_exit(&out, 1, "no input, malformed stdin");
    assert!(
        stderr(&out).starts_with("error: <stdin>: word "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn two_inputs_need_out_dir() {
    let out = run(&[s(&shader()), s(&kernel())]);
    assert_exit(&out, 2, "two inputs without --out-dir");
    assert!(out.stdout.is_empty(), "usage error printed output");
}

#[test]
fn out_dir_is_deterministic_across_job_counts() {
    let inputs = [
        common::repo_root().join("shaders/atomics_shared.comp.spv"),
        common::repo_root().join("shaders/pbr_shading.frag.spv"),
        common::repo_root().join("cl-kernels/tiled_matmul.O2.spv"),
    ];
    let mut runs = Vec::new();
    for jobs in ["1", "3"] {
        let dir = tempdir();
        let out_dir = dir.path().join("out");
        let mut args = vec!["--out-dir", s(&out_dir), "-j", jobs];
        args.extend(inputs.iter().map(|p| s(p)));
        let out = run(&args);
        assert_exit(&out, 0, &format!("--out-dir -j {jobs}"));
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out_dir)
            .expect("--out-dir created no directory")
            .map(|e| {
                let e = e.expect("entry");
                let content = std::fs::read(e.path()).expect("read output");
                (e.file_name().to_string_lossy().into_owned(), content)
            })
            .collect();
        files.sort();
        runs.push(files);
        drop(dir);
    }
    let names: Vec<&str> = runs[0].iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "atomics_shared.comp.ll",
            "pbr_shading.frag.ll",
            "tiled_matmul.O2.ll"
        ],
        "--out-dir file names"
    );
    assert!(runs[0] == runs[1], "-j 1 and -j 3 outputs differ");
    // And each equals the single-file translation.
    for (input, (_, content)) in inputs.iter().zip(&runs[0]) {
        assert_eq!(
            String::from_utf8_lossy(content),
            stdout(&run(&[s(input)])),
            "--out-dir output for {} differs from stdout output",
            s(input)
        );
    }
}

#[test]
fn help_mentions_every_flag() {
    let out = run(&["--help"]);
    assert_exit(&out, 0, "--help");
    let help = stdout(&out);
    for flag in [
        "-o",
        "--output",
        "--out-dir",
        "--target",
        "generic",
        "amdgcn",
        "--no-mmra",
        "--no-convergence",
        "-j",
        "--jobs",
    ] {
        assert!(
            help.contains(flag),
            "--help does not mention {flag}:\n{help}"
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["--bogus-flag", s(&shader())],
        vec!["--target", "x86", s(&shader())],
        // (No input at all is not a usage error: it reads standard input.)
        vec![
            "-j",
            "many",
            "--out-dir",
            "/nonexistent-never",
            s(&shader()),
        ],
    ] {
        let out = run(&args);
        assert_exit(&out, 2, &format!("spirv-lift {}", args.join(" ")));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}

#[test]
fn option_flags_parse() {
    for flags in [
        &["--target", "amdgcn"][..],
        &["--target", "generic"][..],
        &["--target=amdgcn"][..],
        &["--no-mmra"][..],
        &["--no-convergence"][..],
        &["--target", "amdgcn", "--no-mmra", "--no-convergence"][..],
    ] {
        for input in [shader(), kernel()] {
            let mut args = flags.to_vec();
            args.push(s(&input));
            let out = run(&args);
            assert_exit(&out, 0, &format!("spirv-lift {}", args.join(" ")));
            assert!(!out.stdout.is_empty(), "no output for {}", args.join(" "));
        }
    }
    let amd = stdout(&run(&["--target", "amdgcn", s(&kernel())]));
    assert!(
        amd.lines()
            .take(3)
            .any(|l| l == "target triple = \"amdgcn-amd-amdhsa\""),
        "--target amdgcn has no amdgcn-amd-amdhsa triple:\n{}",
        truncate(&amd)
    );
}

#[test]
fn no_mmra_removes_every_tag() {
    let input = common::repo_root().join("shaders/vmm_shared_barrier.comp.spv");
    let with = run(&[s(&input)]);
    assert_exit(&with, 0, "default options");
    assert!(
        stdout(&with).contains("!mmra"),
        "a Vulkan-memory-model shader with barriers has no !mmra tags (SPEC §4.4)"
    );
    let out = run(&["--no-mmra", s(&input)]);
    assert_exit(&out, 0, "--no-mmra");
    assert!(
        !stdout(&out).contains("!mmra"),
        "--no-mmra output has !mmra"
    );
}

#[test]
fn no_convergence_removes_every_token() {
    let input = common::repo_root().join("shaders/subgroup_arith.comp.spv");
    let with = run(&[s(&input)]);
    assert_exit(&with, 0, "default options");
    assert!(
        stdout(&with).contains("\"convergencectrl\""),
        "a shader with subgroup ops has no convergence tokens (SPEC §5)"
    );
    let out = run(&["--no-convergence", s(&input)]);
    assert_exit(&out, 0, "--no-convergence");
    let text = stdout(&out);
    assert!(
        !text.contains("convergencectrl"),
        "--no-convergence output has bundles"
    );
    assert!(
        !text.contains("llvm.experimental.convergence"),
        "--no-convergence output has convergence intrinsics"
    );
}

#[test]
fn backend_workarounds_flag() {
    let atomics = common::repo_root().join("cl-kernels/c11_atomics.O2.spv");
    let out = run(&["--spirv-backend-workarounds", s(&atomics)]);
    assert_exit(&out, 0, "workarounds on a kernel");
    let ir = stdout(&out);
    assert!(ir.contains("@_Z18__spirv_AtomicLoad"), "{ir}");
    assert!(!ir.contains("load atomic"), "{ir}");
    // Only LLVM's SPIR-V backend needs them: with another target it is a usage error.
    let out = run(&[
        "--target",
        "amdgcn",
        "--spirv-backend-workarounds",
        s(&kernel()),
    ]);
    assert_exit(&out, 2, "workarounds with --target amdgcn");
    assert!(
        stderr(&out).contains("use it with --target generic"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}

/// `-o` behaves as in LLVM's tools: devices and FIFOs are written in place (never
/// replaced), symlinks are followed, an existing file keeps its permissions, `-` is
/// standard output, and the input is never overwritten.
#[test]
fn output_goes_where_llvm_tools_would_write_it() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tempdir();
    let expected = stdout(&run(&[s(&shader())]));
    assert!(expected.starts_with("target triple"));

    // A character device stays one.
    let out = run(&[s(&shader()), "-o", "/dev/null"]);
    assert_exit(&out, 0, "-o /dev/null");
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );

    // A FIFO: its reader gets the whole text, and it is still a FIFO.
    let fifo = dir.path().join("pipe");
    let made = common::run(Command::new("mkfifo").arg(&fifo));
    assert!(made.status.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    assert_exit(&run(&[s(&shader()), "-o", s(&fifo)]), 0, "-o FIFO");
    assert_eq!(reader.join().unwrap(), expected);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );

    // A symlink is followed; the file it names keeps its mode.
    let real = dir.path().join("real.ll");
    std::fs::write(&real, "old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.path().join("link.ll");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    assert_exit(&run(&[s(&shader()), "-o", s(&link)]), 0, "-o symlink");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), expected);
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    // `-o -` is standard output.
    let out = run(&[s(&shader()), "-o", "-"]);
    assert_exit(&out, 0, "-o -");
    assert_eq!(stdout(&out), expected);

    // The input is never the output.
    let input = dir.path().join("in.spv");
    std::fs::copy(shader(), &input).unwrap();
    let out = run(&[s(&input), "-o", s(&input)]);
    assert_exit(&out, 2, "-o INPUT");
    assert!(
        stderr(&out).contains("the output is the input"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(&input).unwrap(),
        std::fs::read(shader()).unwrap()
    );

    // No temporary file is left, and none has a predictable name.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

/// `--help` names the subcommands, `help [SUB]` prints them, `--version` says the commit
/// and the LLVM versions the output is for.
#[test]
fn help_and_version_as_users_expect() {
    let out = run(&["--help"]);
    assert_exit(&out, 0, "--help");
    for sub in ["verify FILE.ll", "conform PATH", "help [SUBCOMMAND]"] {
        assert!(
            stdout(&out).contains(sub),
            "--help lacks {sub}:\n{}",
            stdout(&out)
        );
    }
    let out = run(&["help"]);
    assert_exit(&out, 0, "help");
    assert!(stdout(&out).contains("Usage: spirv-lift [OPTIONS] [INPUT]..."));
    let out = run(&["help", "verify"]);
    assert_exit(&out, 0, "help verify");
    assert!(
        stdout(&out).contains("Usage: spirv-lift verify"),
        "{}",
        stdout(&out)
    );
    let out = run(&["help", "conform"]);
    assert_exit(&out, 0, "help conform");
    assert!(stdout(&out).contains("conform"), "{}", stdout(&out));
    assert_exit(&run(&["help", "nope"]), 2, "help nope");
    let out = run(&["--version"]);
    assert_exit(&out, 0, "--version");
    let v = stdout(&out);
    assert!(
        v.starts_with(&format!(
            "spirv-lift {} (commit ",
            env!("CARGO_PKG_VERSION")
        )),
        "{v}"
    );
    assert!(v.contains("LLVM 19 and LLVM 22"), "{v}");
}

/// `--report mmra` names address spaces and hides function-local variables unless
/// `--all`; `--stats json` names the spaces of its `sync-as` tags.
#[test]
fn reports_name_address_spaces() {
    let out = run(&["--report", "mmra", s(&shader())]);
    assert_exit(&out, 0, "--report mmra");
    assert!(
        stdout(&out).contains("tags {sync-as:3 (workgroup)}"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains("(function)"), "{}", stdout(&out));
    let out = run(&["--report", "mmra", "--all", s(&shader())]);
    assert_exit(&out, 0, "--report mmra --all");
    assert!(
        stdout(&out).contains("{sync-as:0 (function)}"),
        "{}",
        stdout(&out)
    );
    assert_exit(&run(&["--all", s(&shader())]), 2, "--all without --report");
    let dir = tempdir();
    let ll = dir.path().join("out.ll");
    let out = run(&["--stats", "json", s(&shader()), "-o", s(&ll)]);
    assert_exit(&out, 0, "--stats json");
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let spaces = &json["modules"][0]["stats"]["address_spaces"];
    assert_eq!(spaces["sync-as:3"], "workgroup", "{json}");
    assert_eq!(spaces["sync-as:11"], "storage-buffer", "{json}");
}

/// SIGINT or SIGTERM while the output is being written removes the temporary file:
/// an interrupted run leaves nothing behind (exit 130).
#[test]
fn interrupted_run_leaves_no_temporary_file() {
    use std::fmt::Write as _;
    // A module that takes a while to translate: one long function.
    let mut asm = String::from(
        "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n\
         %c1 = OpConstant %int 1\n%f = OpFunction %void None %fn\n%l = OpLabel\n\
         %v0 = OpIAdd %int %c1 %c1\n",
    );
    for i in 1..400_000 {
        let _ = writeln!(asm, "%v{i} = OpIAdd %int %v{} %c1", i - 1);
    }
    asm.push_str("OpReturn\nOpFunctionEnd\n");
    let dir = tempdir();
    let input = dir.path().join("long.spvasm");
    std::fs::write(&input, asm).unwrap();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let mut interrupted = 0;
    for signal in ["-INT", "-TERM"] {
        let mut child = bin()
            .arg(&input)
            .arg("-o")
            .arg(out_dir.join("long.ll"))
            .spawn()
            .unwrap();
        // Wait for the temporary file, then interrupt.
        let start = std::time::Instant::now();
        let mut seen = false;
        while start.elapsed() < std::time::Duration::from_secs(20) {
            if std::fs::read_dir(&out_dir).unwrap().next().is_some() {
                seen = true;
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        if !seen {
            // Finished before a temporary file was seen: nothing to interrupt.
            let _ = child.wait();
            std::fs::remove_file(out_dir.join("long.ll")).unwrap_or_default();
            continue;
        }
        let killed = Command::new("kill")
            .arg(signal)
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        let left: Vec<_> = std::fs::read_dir(&out_dir).unwrap().collect();
        if status.code() == Some(0) {
            // The translation won the race: the output is whole, and nothing else is there.
            assert_eq!(left.len(), 1);
            std::fs::remove_file(out_dir.join("long.ll")).unwrap();
            continue;
        }
        assert_eq!(status.code(), Some(130), "{signal}");
        assert!(left.is_empty(), "{signal}: {left:?}");
        interrupted += 1;
    }
    // The module takes far longer to translate than a signal takes to arrive.
    assert!(interrupted >= 1, "no run was interrupted while writing");
}

/// An output that cannot be written is a translation failure (exit 1), whether `-o` or
/// `--out-dir` names it.
#[test]
fn unwritable_outputs_exit_1() {
    let out = run(&[s(&shader()), "-o", "/proc/spirv-lift-cannot-write/out.ll"]);
    assert_exit(&out, 1, "-o into /proc");
    let out = run(&["--out-dir", "/proc/spirv-lift-cannot-write", s(&shader())]);
    assert_exit(&out, 1, "--out-dir under /proc");
    assert!(stderr(&out).contains("cannot create"), "{}", stderr(&out));
}

/// `generate man` is a man page groff renders, `generate completions SHELL` a script the
/// shell reads; both come from the same definitions as `--help`.
#[test]
fn man_page_and_completions() {
    let out = run(&["generate", "man"]);
    assert_exit(&out, 0, "generate man");
    let page = common::temp_file(&out.stdout, ".1");
    let rendered = common::run(
        Command::new(common::tool("groff"))
            .args(["-k", "-man", "-Tutf8", "-ww"])
            .arg(page.path()),
    );
    assert!(rendered.status.success());
    assert!(
        rendered.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    let text = String::from_utf8_lossy(&rendered.stdout).replace('\u{8}', "");
    assert!(text.contains("spirv-lift(1)"), "{text}");
    let out = run(&["generate", "completions", "bash"]);
    assert_exit(&out, 0, "generate completions bash");
    let script = String::from_utf8_lossy(&out.stdout);
    for flag in ["--spec-const", "--emit", "--target", "--out-dir"] {
        assert!(script.contains(flag), "completions lack {flag}");
    }
    let file = common::temp_file(&out.stdout, ".bash");
    let syntax = common::run(Command::new("bash").arg("-n").arg(file.path()));
    assert!(
        syntax.status.success(),
        "{}",
        String::from_utf8_lossy(&syntax.stderr)
    );
    assert_exit(
        &run(&["generate", "completions", "nosh"]),
        2,
        "unknown shell",
    );
    assert_exit(&run(&["generate"]), 2, "generate without what");
}

/// An OpenCL module of `n` kernels as SPIR-V assembly, large enough (over 256 KiB
/// assembled) for `--threads 2` to check its bodies on a second thread: each kernel
/// doubles the word its argument points to, and kernel 7 goes through a chain of 20
/// blocks (so its checks keep its CFG analyses for the lowering). With `broken`, the last
/// kernel adds a pointer to an integer: the checks' error, found last.
fn many_kernels(n: usize, broken: bool) -> String {
    let mut t = String::from(
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
         OpMemoryModel Physical64 OpenCL\n",
    );
    for k in 0..n {
        t += &format!("OpEntryPoint Kernel %k{k} \"k{k}\"\n");
    }
    t += "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n\
          %ptr = OpTypePointer CrossWorkgroup %uint\n%fn = OpTypeFunction %void %ptr\n";
    for k in 0..n {
        t += &format!("%k{k} = OpFunction %void None %fn\n%p{k} = OpFunctionParameter %ptr\n");
        t += &format!("%l{k} = OpLabel\n");
        if k == 7 {
            for b in 0..20 {
                t += &format!("OpBranch %c{b}\n%c{b} = OpLabel\n");
            }
        }
        let value = if broken && k == n - 1 {
            format!("%p{k}")
        } else {
            format!("%v{k}")
        };
        t += &format!(
            "%v{k} = OpLoad %uint %p{k} Aligned 4\n%w{k} = OpIAdd %uint {value} %v{k}\n\
             OpStore %p{k} %w{k} Aligned 4\nOpReturn\nOpFunctionEnd\n"
        );
    }
    t
}

#[test]
fn threads_give_the_same_output_and_the_same_error() {
    let dir = tempdir();
    for (name, broken) in [("big.spv", false), ("bad.spv", true)] {
        let words = spirv_lift::assemble(&many_kernels(2500, broken)).expect("assembles");
        assert!(
            words.len() >= 1 << 16,
            "{} words: too small to be threaded",
            words.len()
        );
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    let one = run_in(dir.path(), &["--threads", "1", "big.spv"]);
    assert_exit(&one, 0, "--threads 1");
    assert!(stdout(&one).contains("define spir_kernel void @k2499("));
    for threads in ["2", "3"] {
        let more = run_in(dir.path(), &["--threads", threads, "big.spv"]);
        assert_exit(&more, 0, "--threads N");
        assert!(
            more.stdout == one.stdout,
            "--threads {threads} prints other text than --threads 1"
        );
    }
    let one = run_in(dir.path(), &["--threads", "1", "bad.spv", "-o", "out.ll"]);
    assert_translation_error(&one, "bad.spv", "--threads 1, a malformed last kernel");
    let two = run_in(dir.path(), &["--threads", "2", "bad.spv", "-o", "out.ll"]);
    assert_translation_error(&two, "bad.spv", "--threads 2, a malformed last kernel");
    assert_eq!(
        stderr(&one),
        stderr(&two),
        "the error differs with two threads"
    );
    assert!(stderr(&two).contains("(OpIAdd %"), "{}", stderr(&two));
    assert!(
        !dir.path().join("out.ll").exists(),
        "out.ll written on error"
    );
}
