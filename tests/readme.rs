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
