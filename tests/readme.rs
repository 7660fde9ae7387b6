//! The README's Rust example is `examples/embed.rs`, verbatim, and it runs: `cargo test`
//! builds the examples, and this test runs the built binary.

mod common;

use std::path::PathBuf;
use std::process::Command;

/// `target/<profile>/examples/embed`, next to this test's `deps/` folder.
fn example_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("profile directory");
    let bin = profile.join("examples/embed");
    assert!(
        bin.is_file(),
        "{} missing: `cargo test` builds the examples",
        bin.display()
    );
    bin
}

#[test]
fn readme_shows_the_rust_example() {
    let root = common::repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("read README.md");
    let example = std::fs::read_to_string(root.join("examples/embed.rs")).expect("read example");
    assert!(
        readme.contains(&format!("```rust\n{example}```")),
        "README.md's Rust example differs from examples/embed.rs"
    );
}

#[test]
fn rust_example_runs() {
    let root = common::repo_root();
    let out = common::run(
        Command::new(example_binary()).arg(root.join("shaders/reduce_shared.comp.spv")),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("@main: fence tagged [sync-as:3]"),
        "no workgroup fence listed:\n{stdout}"
    );
    assert!(stdout.contains("convergence control verified"), "{stdout}");

    let bad = root.join("tests/malformed/atomic-result-type-not-pointee.spv");
    let out = common::run(Command::new(example_binary()).arg(&bad));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("word 264 (OpAtomicIAdd %46)")
            && stderr.contains("(word offset Some(264))"),
        "{stderr}"
    );
}

/// The README's command-line session: the ```sh block after "A complete session", run
/// with bash from a temporary directory that links `shaders/` and has `spirv-lift` on
/// `PATH`.
#[test]
fn readme_command_line_session_runs() {
    let root = common::repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("read README.md");
    let after = readme
        .split_once("A complete session")
        .expect("README has \"A complete session\"")
        .1;
    let block = after
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a ```sh block after it")
        .0;
    let dir = tempfile::tempdir().expect("temp dir");
    std::os::unix::fs::symlink(root.join("shaders"), dir.path().join("shaders"))
        .expect("link shaders/");
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_spirv-lift"))
        .parent()
        .expect("binary directory")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let out = common::run(
        Command::new("bash")
            .args(["-euo", "pipefail", "-c", block])
            .current_dir(dir.path())
            .env("PATH", path),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "README session failed ({}):\n{block}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let spv = std::fs::read_dir(root.join("shaders"))
        .expect("shaders/")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "spv"))
        })
        .count();
    let lls = std::fs::read_dir(dir.path().join("out"))
        .expect("out/")
        .count();
    assert_eq!(lls, spv, "one .ll per shader");
    let stats = std::fs::read_to_string(dir.path().join("stats.json")).expect("stats.json");
    let doc: serde_json::Value = serde_json::from_str(&stats).expect("stats.json is JSON");
    assert_eq!(doc["translated"], spv);
    // grep -c prints a nonzero count of annotated lines for both outputs.
    for file in ["reduce.ll", "reduce-amdgcn.ll"] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{file}:")))
            .unwrap_or_else(|| panic!("no count for {file}:\n{stdout}"));
        let n: u32 = line[file.len() + 1..].parse().expect("count");
        assert!(n > 0, "{line}");
    }
}
