//! The C API (`crates/spirv-lift/src/capi.rs`, `crates/spirv-lift/include/spirv_lift.h`): the committed header matches what
//! cbindgen generates, and C and C++ programs built against the shared and the static
//! library translate a corpus module and report a malformed one's error fields.

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
        cmd.arg(format!("-L{}", s(&dir)))
            .arg("-lspirv_lift")
            .arg(format!("-Wl,-rpath,{}", s(&dir)))
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
