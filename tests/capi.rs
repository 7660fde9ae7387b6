//! The C API (`crates/spirv-lift/src/capi.rs`, `crates/spirv-lift/include/spirv_lift.h`): the committed header matches what
//! cbindgen generates, and C and C++ programs built against the shared and the static
//! library translate a corpus module and report a malformed one's error fields and
//! kind; every option setter gives the command line's output for the same flag; and
//! `scripts/install.sh` installs a copy (SONAME, only `spirv_lift_*` exported) that C
//! programs build against with pkg-config and with CMake's `find_package`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The directory holding the freshly built `libspirv_lift.so` and `libspirv_lift.a`:
/// `cargo test` builds the library with all its crate types (rlib, cdylib, staticlib) into
/// `target/<profile>/deps/`, next to this test's executable. (Only `cargo build` copies
/// them up to `target/<profile>/`, so those copies may be stale during `cargo test`.)
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe.parent().expect("test executable directory");
    for lib in ["libspirv_lift.so", "libspirv_lift.a"] {
        assert!(
            dir.join(lib).is_file(),
            "{} missing: the library is built by `cargo test` (crate-type cdylib, staticlib)",
            dir.join(lib).display()
        );
    }
    dir.to_path_buf()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// Runs a command, failing the test with its output unless it exits 0.
fn run_ok(cmd: &mut Command) -> String {
    let out = common::run(cmd);
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn header_matches_cbindgen_output() {
    // The library's package: cbindgen.toml, src/capi.rs and include/ live there.
    let root = common::repo_root().join("crates/spirv-lift");
    let generated = tempfile::Builder::new()
        .prefix("spirv_lift-")
        .suffix(".h")
        .tempfile()
        .expect("temp file");
    run_ok(
        Command::new(common::tool("cbindgen"))
            .current_dir(&root)
            .args(["--config", "cbindgen.toml", "--output"])
            .arg(generated.path())
            .arg("src/capi.rs"),
    );
    let want = std::fs::read_to_string(generated.path()).expect("read generated header");
    let have = std::fs::read_to_string(root.join("include/spirv_lift.h"))
        .expect("read include/spirv_lift.h");
    if want != have {
        let version = common::run(Command::new(common::tool("cbindgen")).arg("--version"));
        panic!(
            "include/spirv_lift.h is out of date; regenerate it with\n  \
             (cd crates/spirv-lift && cbindgen --config cbindgen.toml --output include/spirv_lift.h src/capi.rs)\n\
             (the committed header comes from cbindgen 0.29.4, which scripts/setup.sh \
             installs; this one is {})",
            String::from_utf8_lossy(&version.stdout).trim()
        );
    }
    for name in [
        "spirv_lift_translate_words",
        "spirv_lift_translate_bytes",
        "spirv_lift_result_error_word",
        "spirv_lift_options_set_spec_constant",
        "spirv_lift_options_set_spec_constant_bits",
        "spirv_lift_options_set_backend_workarounds",
        "spirv_lift_result_error_kind",
        "SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT",
        "SPIRV_LIFT_TARGET_AMDGCN",
    ] {
        assert!(have.contains(name), "the header does not declare {name}");
    }
}

/// A command running a program built by [`build`]. `cargo test` puts `target/<profile>`
/// on `LD_LIBRARY_PATH`, which would load a stale copy of the shared library before the
/// program's own run path (`deps/`), so it is removed.
fn c_program(exe: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env_remove("LD_LIBRARY_PATH");
    cmd
}

/// Libraries a Rust static library needs from the system on Linux (what
/// `rustc --print native-static-libs` lists for x86_64-unknown-linux-gnu).
const NATIVE_STATIC_LIBS: &[&str] = &["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl"];

/// Compiles `source` with `compiler` against the shared (`static_ = false`) or static
/// library into `out`.
///
/// The shared library's SONAME is `libspirv_lift.so.<sover>` (crates/spirv-lift/build.rs),
/// so a program linked with it loads that name; cargo only builds `libspirv_lift.so`. A
/// symlink by the SONAME next to `out`, on the program's run path, stands in for what
/// `scripts/install.sh` installs.
fn build(compiler: &str, std: &str, source: &Path, out: &Path, static_: bool) {
    let root = common::repo_root();
    let dir = lib_dir();
    let mut cmd = Command::new(common::tool(compiler));
    cmd.arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-O1"])
        .arg("-I")
        .arg(root.join("crates/spirv-lift/include"))
        .arg(source)
        .arg("-o")
        .arg(out);
    if static_ {
        cmd.arg(dir.join("libspirv_lift.a"))
            .args(NATIVE_STATIC_LIBS);
    } else {
        let out_dir = out.parent().expect("output directory");
        let link = out_dir.join(format!("libspirv_lift.so.{}", sover()));
        if std::fs::symlink_metadata(&link).is_err() {
            std::os::unix::fs::symlink(dir.join("libspirv_lift.so"), &link)
                .expect("symlink the SONAME");
        }
        cmd.arg(format!("-L{}", s(&dir)))
            .arg("-lspirv_lift")
            .arg(format!("-Wl,-rpath,{}", s(out_dir)))
            .arg("-lpthread");
    }
    run_ok(&mut cmd);
}

/// The malformed module the C test expects an error from, and that error's fields.
struct Expected {
    file: &'static str,
    word: u64,
    opcode_name: &'static str,
    opcode: u32,
    result_id: u32,
    message: String,
}

/// Reads the expected error of `file` from `tests/malformed/EXPECTED` and splits it.
fn expected_error() -> Expected {
    let file = "atomic-result-type-not-pointee.spv";
    let root = common::repo_root();
    let table =
        std::fs::read_to_string(root.join("tests/malformed/EXPECTED")).expect("read EXPECTED");
    let line = table
        .lines()
        .find(|l| l.starts_with(file))
        .unwrap_or_else(|| panic!("{file} not in EXPECTED"));
    // `<file> | val: reject | word 264 (OpAtomicIAdd %46): result type ...`
    let error = line.splitn(3, " | ").nth(2).expect("error column");
    let (location, message) = error.split_once("): ").expect("located error");
    let word = location
        .strip_prefix("word ")
        .and_then(|r| r.split(' ').next())
        .and_then(|w| w.parse().ok())
        .expect("word offset");
    assert!(location.contains("(OpAtomicIAdd %46"), "{location}");
    Expected {
        file,
        word,
        opcode_name: "OpAtomicIAdd",
        // OpAtomicIAdd's number in the SPIR-V specification.
        opcode: 234,
        result_id: 46,
        message: message.to_string(),
    }
}

#[test]
fn c_test_against_shared_and_static_library() {
    let root = common::repo_root();
    let exp = expected_error();
    let tmp = tempfile::tempdir().expect("temp dir");
    for static_ in [false, true] {
        let exe = tmp.path().join(if static_ {
            "translate-static"
        } else {
            "translate-shared"
        });
        build(
            "gcc",
            "c11",
            &root.join("tests/c/translate.c"),
            &exe,
            static_,
        );
        if static_ {
            let ldd = run_ok(Command::new("ldd").arg(&exe));
            assert!(
                !ldd.contains("libspirv_lift"),
                "static build links the .so:\n{ldd}"
            );
        }
        let out = run_ok(
            c_program(&exe)
                .env("SPIRV_LIFT_EXPECTED_VERSION", env!("CARGO_PKG_VERSION"))
                .arg(root.join("shaders/helper_subgroup_loop.comp.spv"))
                .arg(root.join("tests/malformed").join(exp.file))
                .arg(exp.word.to_string())
                .arg(exp.opcode_name)
                .arg(exp.opcode.to_string())
                .arg(exp.result_id.to_string())
                .arg(&exp.message)
                .arg(root.join("tests/malformed/empty-file.spv"))
                .arg(root.join("shaders/spec_constants.comp.spv")),
        );
        assert!(out.contains(" passed, 0 failed"), "{out}");
    }
}

#[test]
fn cpp_example_translates_and_reports_errors() {
    let root = common::repo_root();
    let tmp = tempfile::tempdir().expect("temp dir");
    let exe = tmp.path().join("example");
    build(
        "g++",
        "c++17",
        &root.join("tests/c/example.cpp"),
        &exe,
        false,
    );
    let ir = run_ok(c_program(&exe).arg(root.join("shaders/reduce_shared.comp.spv")));
    assert!(ir.contains("target triple = \"amdgcn-amd-amdhsa\""), "{ir}");
    assert!(ir.contains("amdgpu-synchronize-as"), "no AMDGPU fence tags");

    let exp = expected_error();
    let bad = root.join("tests/malformed").join(exp.file);
    let out = common::run(c_program(&exe).arg(&bad));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr.trim_end(),
        format!(
            "error: {}: word {} ({} %{}): {}",
            bad.display(),
            exp.word,
            exp.opcode_name,
            exp.result_id,
            exp.message
        )
    );
}

#[test]
fn readme_shows_the_cpp_example() {
    let root = common::repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("read README.md");
    let example =
        std::fs::read_to_string(root.join("tests/c/example.cpp")).expect("read example.cpp");
    assert!(
        readme.contains(&format!("```cpp\n{example}```")),
        "README.md's C++ example differs from tests/c/example.cpp"
    );
}

/// The command-line tool built with this test.
const CLI: &str = env!("CARGO_BIN_EXE_spirv-lift");

/// Runs `tests/c/options.c` (built as `exe`) on `input` with `settings`: the error kind's
/// name, the error text (empty on success) and the IR (empty on failure).
fn run_options(exe: &Path, input: &Path, settings: &[&str]) -> (String, String, String) {
    let out_file = tempfile::NamedTempFile::new().expect("temp file");
    let out = common::run(
        c_program(exe)
            .arg(input)
            .arg(out_file.path())
            .args(settings),
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = stdout.lines();
    let kind = lines.next().unwrap_or_default().to_string();
    let error = lines.next().unwrap_or_default().to_string();
    let want_status = if kind == "NONE" { 0 } else { 1 };
    assert_eq!(
        out.status.code(),
        Some(want_status),
        "options {} {settings:?}: {stdout}{}",
        input.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let ir = if want_status == 0 {
        std::fs::read_to_string(out_file.path()).expect("read the IR")
    } else {
        String::new()
    };
    (kind, error, ir)
}

/// Builds `tests/c/options.c` against the shared library into `dir`.
fn build_options(dir: &Path) -> PathBuf {
    let exe = dir.join("options");
    build(
        "gcc",
        "c11",
        &common::repo_root().join("tests/c/options.c"),
        &exe,
        false,
    );
    exe
}

#[test]
fn error_kinds_from_c() {
    let root = common::repo_root();
    let tmp = tempfile::tempdir().expect("temp dir");
    let exe = build_options(tmp.path());
    // A valid module with an operation the library does not translate (SPIR-V assembly,
    // through spirv_lift_translate_text).
    let unsupported = tmp.path().join("depth_attachment_read.spvasm");
    std::fs::write(
        &unsupported,
        r#"OpCapability Shader
OpCapability TileImageDepthReadAccessEXT
OpExtension "SPV_EXT_shader_tile_image"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%float = OpTypeFloat 32
%main = OpFunction %void None %fn
%entry = OpLabel
%d = OpDepthAttachmentReadEXT %float
OpReturn
OpFunctionEnd
"#,
    )
    .expect("write depth_attachment_read.spvasm");
    let exp = expected_error();
    let malformed = format!("tests/malformed/{}", exp.file);
    // (input, settings, kind, a part of the error text)
    let cases: &[(&str, &[&str], &str, &str)] = &[
        ("shaders/reduce_shared.comp.spv", &[], "NONE", ""),
        (&malformed, &[], "MALFORMED", &exp.message),
        (
            "tests/malformed/not-word-aligned.spv",
            &[],
            "MALFORMED",
            "not a whole number of 32-bit words",
        ),
        (
            "cl-kernels/images.O2.spv",
            &["target=amdgcn"],
            "UNSUPPORTED",
            "--target amdgcn does not lower images",
        ),
        (
            s(&unsupported),
            &[],
            "UNSUPPORTED",
            "OpDepthAttachmentReadEXT is not supported",
        ),
        (
            "tests/malformed/limit-array-nesting-600-deep.spv",
            &[],
            "LIMIT",
            "type nesting depth 513 exceeds the limit of 512",
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec-float=1:1.5"],
            "INVALID_ARGUMENT",
            "specialization constant 1:",
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec-int=99:1"],
            "INVALID_ARGUMENT",
            "the module has no specialization constant with SpecId 99",
        ),
    ];
    for &(input, settings, want_kind, want_text) in cases {
        let input = root.join(input);
        let (kind, error, ir) = run_options(&exe, &input, settings);
        assert_eq!(kind, want_kind, "{} {settings:?}: {error}", input.display());
        if want_kind == "NONE" {
            assert!(ir.contains("define "), "{ir}");
            continue;
        }
        assert!(error.contains(want_text), "{}: {error}", input.display());
        // The command line fails on the same input with the same error line.
        let mut cli = Command::new(CLI);
        for setting in settings {
            match *setting {
                "target=amdgcn" => cli.args(["--target", "amdgcn"]),
                "spec-float=1:1.5" => cli.args(["--spec-const", "1=1.5"]),
                "spec-int=99:1" => cli.args(["--spec-const", "99=1"]),
                other => panic!("no command-line flag for {other}"),
            };
        }
        let out = common::run(cli.arg(&input));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        if input.extension().is_some_and(|e| e == "spvasm") {
            // The command line names the source line (`FILE:LINE:COL: error:`).
            assert!(stderr.contains(want_text), "{stderr}");
        } else {
            assert!(stderr.contains(&error), "{stderr}\nwant {error}");
        }
    }
}

#[test]
fn every_setter_gives_the_command_lines_output() {
    let root = common::repo_root();
    let tmp = tempfile::tempdir().expect("temp dir");
    let exe = build_options(tmp.path());
    // (input, C settings, the command line's flags, a string the output must contain)
    type Case<'a> = (&'a str, &'a [&'a str], &'a [&'a str], Option<&'a str>);
    let cases: &[Case] = &[
        (
            "cl-kernels/c11_atomics.O2.spv",
            &["workarounds=1"],
            &["--spirv-backend-workarounds"],
            Some("__spirv_AtomicLoad"),
        ),
        (
            "shaders/block_handles.frag.spv",
            &["workarounds=1"],
            &["--spirv-backend-workarounds"],
            Some("spirv.VulkanBuffer"),
        ),
        (
            "shaders/reduce_shared.comp.spv",
            &["target=amdgcn"],
            &["--target", "amdgcn"],
            Some("target triple = \"amdgcn-amd-amdhsa\""),
        ),
        (
            "cl-kernels/local_reduce.O2.spv",
            &["target=host"],
            &["--target", "host"],
            Some("@spirv_lift.set_invocation"),
        ),
        (
            "shaders/reduce_shared.comp.spv",
            &["mmra=0"],
            &["--no-mmra"],
            None,
        ),
        (
            "shaders/reduce_shared.comp.spv",
            &["convergence=0"],
            &["--no-convergence"],
            None,
        ),
        (
            "shaders/reduce_shared.comp.spv",
            &["target=amdgcn", "mmra=0", "convergence=0"],
            &["--target", "amdgcn", "--no-mmra", "--no-convergence"],
            None,
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec=1:6"],
            &["--spec-const", "1=6"],
            Some("alloca [6 x float]"),
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec-int=1:6"],
            &["--spec-const", "1=6"],
            Some("alloca [6 x float]"),
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec-uint=0:64"],
            &["--spec-const", "0=64"],
            Some("\"hlsl.numthreads\"=\"64,1,1\""),
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec-float=3:0.25"],
            &["--spec-const", "3=0.25"],
            None,
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec-int=3:2"],
            &["--spec-const", "3=2.0"],
            None,
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec-bits=3:0x3e800000"],
            &["--spec-const", "3=0.25"],
            None,
        ),
        (
            "shaders/spec_constants.comp.spv",
            &["spec-bool=4:1"],
            &["--spec-const", "4=true"],
            None,
        ),
    ];
    let mut defaults = std::collections::HashMap::new();
    for &(input, settings, flags, contains) in cases {
        let input = root.join(input);
        let default = defaults
            .entry(input.clone())
            .or_insert_with(|| run_options(&exe, &input, &[]).2)
            .clone();
        let (kind, error, ir) = run_options(&exe, &input, settings);
        assert_eq!(kind, "NONE", "{} {settings:?}: {error}", input.display());
        assert_ne!(
            ir,
            default,
            "{} {settings:?} changes nothing",
            input.display()
        );
        if let Some(want) = contains {
            assert!(
                ir.contains(want) && !default.contains(want),
                "{} {settings:?}: {want} missing, or there by default",
                input.display()
            );
        }
        let cli = run_ok(Command::new(CLI).args(flags).arg(&input));
        assert!(
            cli == ir,
            "{} {settings:?}: differs from `spirv-lift {}`",
            input.display(),
            flags.join(" ")
        );
    }
}

#[test]
fn threads_from_c_change_nothing_in_the_output() {
    let root = common::repo_root();
    let tmp = tempfile::tempdir().expect("temp dir");
    let exe = build_options(tmp.path());
    let input = root.join("cl-kernels/vector_math.O2.spv");
    let (_, _, default) = run_options(&exe, &input, &[]);
    for threads in ["threads=0", "threads=1", "threads=2"] {
        let (kind, error, ir) = run_options(&exe, &input, &[threads]);
        assert_eq!(kind, "NONE", "{threads}: {error}");
        assert!(ir == default, "{threads} changes the output");
    }
    let cli = run_ok(Command::new(CLI).args(["--threads", "2"]).arg(&input));
    assert!(
        cli == default,
        "`spirv-lift --threads 2` differs from the C API"
    );
}

/// Runs `scripts/install.sh --prefix PREFIX` on the libraries this test was built with
/// (`--from`, so nothing is rebuilt), with `extra` arguments; returns the prefix.
fn install(prefix: &Path, extra: &[&str]) -> PathBuf {
    run_ok(
        Command::new(common::repo_root().join("scripts/install.sh"))
            .arg("--prefix")
            .arg(prefix)
            .arg("--from")
            .arg(lib_dir())
            .args(extra),
    );
    prefix.to_path_buf()
}

/// The SONAME suffix of this version (`0.1` for 0.1.x): crates/spirv-lift/build.rs's rule.
fn sover() -> String {
    let v: Vec<u64> = env!("CARGO_PKG_VERSION")
        .split('.')
        .map(|p| p.parse().expect("numeric version"))
        .collect();
    match (v[0], v[1], v[2]) {
        (0, 0, patch) => format!("0.0.{patch}"),
        (0, minor, _) => format!("0.{minor}"),
        (major, _, _) => major.to_string(),
    }
}

#[test]
fn install_sh_installs_the_layout_with_soname_and_only_the_api_exported() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let prefix = install(&tmp.path().join("prefix"), &[]);
    let version = env!("CARGO_PKG_VERSION");
    let lib = prefix.join("lib");
    let real = format!("libspirv_lift.so.{version}");
    let soname = format!("libspirv_lift.so.{}", sover());
    for file in [
        prefix.join("include/spirv_lift.h"),
        lib.join("libspirv_lift.a"),
        lib.join(&real),
        lib.join("pkgconfig/spirv_lift.pc"),
        lib.join("cmake/spirv_lift/spirv_liftConfig.cmake"),
        lib.join("cmake/spirv_lift/spirv_liftConfigVersion.cmake"),
    ] {
        assert!(file.is_file(), "{} not installed", file.display());
    }
    let link = |name: &str| std::fs::read_link(lib.join(name)).expect("a symlink");
    assert_eq!(link(&soname), Path::new(&real));
    assert_eq!(link("libspirv_lift.so"), Path::new(&soname));
    let header = std::fs::read_to_string(prefix.join("include/spirv_lift.h")).expect("header");
    assert_eq!(
        header,
        std::fs::read_to_string(common::repo_root().join("crates/spirv-lift/include/spirv_lift.h"))
            .expect("header")
    );

    let dynamic = run_ok(
        Command::new(common::tool("readelf"))
            .arg("-d")
            .arg(lib.join(&real)),
    );
    assert!(
        dynamic.contains(&format!("Library soname: [{soname}]")),
        "no SONAME {soname}:\n{dynamic}"
    );

    // Exported: exactly the functions the header declares.
    let nm = run_ok(
        Command::new(common::tool("nm"))
            .args(["-D", "--defined-only"])
            .arg(lib.join(&real)),
    );
    let mut exported: Vec<&str> = nm
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    exported.sort_unstable();
    // `spirv_lift_…(` outside comments.
    let mut declared: Vec<&str> = header
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| l.match_indices("spirv_lift_").map(move |(i, _)| &l[i..]))
        .filter_map(|rest| {
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            rest[end..].starts_with('(').then(|| &rest[..end])
        })
        .collect();
    declared.sort_unstable();
    declared.dedup();
    assert!(declared.len() > 20, "{declared:?}");
    assert_eq!(exported, declared, "nm -D --defined-only:\n{nm}");

    let pc = std::fs::read_to_string(lib.join("pkgconfig/spirv_lift.pc")).expect("read .pc");
    assert!(pc.contains(&format!("\nVersion: {version}\n")), "{pc}");
    assert!(
        pc.contains(&format!("\nLibs.private: {}", NATIVE_STATIC_LIBS.join(" "))),
        "{pc}"
    );

    // --libdir relative to the prefix.
    let other = install(&tmp.path().join("other"), &["--libdir", "lib64"]);
    assert!(other.join("lib64/pkgconfig/spirv_lift.pc").is_file());
    assert!(
        other
            .join("lib64/cmake/spirv_lift/spirv_liftConfig.cmake")
            .is_file()
    );
    assert!(!other.join("lib").exists());
}

#[test]
fn install_sh_help_and_usage_errors() {
    let script = common::repo_root().join("scripts/install.sh");
    let help = run_ok(Command::new(&script).arg("--help"));
    for word in [
        "--prefix",
        "--libdir",
        "--no-build",
        "--from",
        "pkg-config",
        "find_package",
    ] {
        assert!(
            help.contains(word),
            "--help does not mention {word}:\n{help}"
        );
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let missing = tmp.path().join("no-such-dir");
    let unmade = tmp.path().join("p");
    let cases: &[(&[&str], &str)] = &[
        (&[], "--prefix DIR is required"),
        (&["--prefix"], "--prefix needs a directory"),
        (
            &["--prefix", "x", "--frobnicate"],
            "unknown argument '--frobnicate'",
        ),
        (
            &["--prefix", s(&unmade), "--from", s(&missing)],
            "libspirv_lift.so does not exist",
        ),
    ];
    for &(args, want) in cases {
        let out = common::run(Command::new(&script).args(args));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("install.sh: error: ") && stderr.contains(want),
            "{args:?}: {stderr}"
        );
    }
    assert!(
        !tmp.path().join("p").exists(),
        "a failed install created the prefix"
    );
}

#[test]
fn pkg_config_builds_against_the_installed_copy() {
    let root = common::repo_root();
    let tmp = tempfile::tempdir().expect("temp dir");
    let prefix = install(&tmp.path().join("prefix"), &[]);
    let lib = prefix.join("lib");
    let pkg_config = |args: &[&str]| -> Vec<String> {
        run_ok(
            Command::new(common::tool("pkg-config"))
                .env("PKG_CONFIG_PATH", lib.join("pkgconfig"))
                .args(args)
                .arg("spirv_lift"),
        )
        .split_whitespace()
        .map(str::to_string)
        .collect()
    };
    assert_eq!(pkg_config(&["--modversion"]), [env!("CARGO_PKG_VERSION")]);

    // The README's C++ example, against the shared library.
    let example = tmp.path().join("example");
    run_ok(
        Command::new(common::tool("g++"))
            .args(["-std=c++17", "-Wall", "-Wextra", "-Werror"])
            .arg(root.join("tests/c/example.cpp"))
            .args(pkg_config(&["--cflags", "--libs"]))
            .arg(format!("-Wl,-rpath,{}", s(&lib)))
            .arg("-o")
            .arg(&example),
    );
    let ldd = run_ok(c_program(Path::new("ldd")).arg(&example));
    assert!(
        ldd.contains(&format!(
            "libspirv_lift.so.{} => {}",
            sover(),
            s(&lib.join(format!("libspirv_lift.so.{}", sover())))
        )),
        "not linked against the installed copy:\n{ldd}"
    );
    let ir = run_ok(c_program(&example).arg(root.join("shaders/reduce_shared.comp.spv")));
    assert!(ir.contains("target triple = \"amdgcn-amd-amdhsa\""), "{ir}");
    assert!(ir.contains("amdgpu-synchronize-as"), "no AMDGPU fence tags");

    // The static library with `--static` (Libs.private): -lspirv_lift would pick the .so,
    // so it is named as the archive.
    let lift = tmp.path().join("lift-static");
    let libs: Vec<String> = pkg_config(&["--static", "--libs"])
        .into_iter()
        .map(|l| {
            if l == "-lspirv_lift" {
                "-l:libspirv_lift.a".to_string()
            } else {
                l
            }
        })
        .collect();
    run_ok(
        Command::new(common::tool("gcc"))
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror"])
            .arg(root.join("tests/c/cmake/lift.c"))
            .args(pkg_config(&["--cflags"]))
            .args(&libs)
            .arg("-o")
            .arg(&lift),
    );
    let ldd = run_ok(Command::new("ldd").arg(&lift));
    assert!(
        !ldd.contains("libspirv_lift"),
        "static build links the .so:\n{ldd}"
    );
    let out = run_ok(c_program(&lift).arg(root.join("shaders/reduce_shared.comp.spv")));
    assert!(
        out.contains("target triple = \"amdgcn-amd-amdhsa\""),
        "{out}"
    );
}

#[test]
fn cmake_find_package_builds_against_the_installed_copy() {
    let root = common::repo_root();
    let tmp = tempfile::tempdir().expect("temp dir");
    // Installed in one place and moved: the CMake package is relocatable.
    let staged = install(&tmp.path().join("staged"), &[]);
    let prefix = tmp.path().join("moved");
    std::fs::rename(&staged, &prefix).expect("move the installed tree");
    let cmake = common::tool("cmake");
    let configure = |build: &Path, extra: &[String]| {
        let mut cmd = Command::new(&cmake);
        cmd.arg("-S")
            .arg(root.join("tests/c/cmake"))
            .arg("-B")
            .arg(build)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", s(&prefix)))
            .args(extra);
        common::run(&mut cmd)
    };
    let build = tmp.path().join("build");
    let out = configure(&build, &[]);
    assert!(
        out.status.success(),
        "cmake configure failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    run_ok(Command::new(&cmake).arg("--build").arg(&build));

    let shader = root.join("shaders/reduce_shared.comp.spv");
    let shared = build.join("lift_shared");
    let ldd = run_ok(c_program(Path::new("ldd")).arg(&shared));
    assert!(
        ldd.contains(&format!("{}/lib/libspirv_lift.so.{}", s(&prefix), sover())),
        "not linked against the installed copy:\n{ldd}"
    );
    let static_ = build.join("lift_static");
    let ldd = run_ok(Command::new("ldd").arg(&static_));
    assert!(
        !ldd.contains("libspirv_lift"),
        "static build links the .so:\n{ldd}"
    );
    for exe in [&shared, &static_] {
        let out = run_ok(c_program(exe).arg(&shader));
        assert!(
            out.contains("target triple = \"amdgcn-amd-amdhsa\""),
            "{out}"
        );
        assert!(
            out.ends_with(&format!("spirv-lift {}\n", env!("CARGO_PKG_VERSION"))),
            "{out}"
        );
        let bad = common::run(c_program(exe).arg(root.join("cl-kernels/images.O2.spv")));
        let stderr = String::from_utf8_lossy(&bad.stderr);
        assert_eq!(bad.status.code(), Some(1), "{stderr}");
        assert!(stderr.starts_with("error (unsupported): word "), "{stderr}");
    }

    // A newer version than the installed one is not found.
    let (major, minor) = {
        let mut v = env!("CARGO_PKG_VERSION").split('.');
        let mut next = || {
            v.next()
                .and_then(|p| p.parse::<u64>().ok())
                .expect("version")
        };
        (next(), next())
    };
    let newer = format!("{major}.{}", minor + 1);
    let out = configure(
        &tmp.path().join("build-newer"),
        &[format!("-DSPIRV_LIFT_WANT_VERSION={newer}")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "found spirv_lift {newer}");
    assert!(
        stderr.contains("spirv_lift") && stderr.contains(env!("CARGO_PKG_VERSION")),
        "{stderr}"
    );
}
