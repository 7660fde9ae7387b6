//! How the project is packaged: the library a driver embeds (`crates/spirv-lift`) does not
//! pull in the command line's dependencies.

use std::process::Command;

mod common;

/// The crates the library depends on (normal and build dependencies, transitively), as
/// `cargo tree` lists them.
fn library_dependencies() -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = common::run(
        Command::new(cargo)
            .current_dir(common::repo_root())
            .args([
                "tree",
                "--offline",
                "-p",
                "spirv-lift",
                "-e",
                "normal,build",
            ])
            .args(["--prefix", "none", "--format", "{p}"]),
    );
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn library_does_not_depend_on_the_command_line_crates() {
    let deps = library_dependencies();
    assert!(
        deps.iter().any(|d| d == "rspirv"),
        "cargo tree output does not list the library's own dependencies: {deps:?}"
    );
    let cli_only = [
        "clap",
        "anyhow",
        "indicatif",
        "mimalloc",
        "ctrlc",
        "clap_mangen",
    ];
    let leaked: Vec<&String> = deps
        .iter()
        .filter(|d| cli_only.contains(&d.as_str()))
        .collect();
    assert!(
        leaked.is_empty(),
        "the library pulls in command-line dependencies: {leaked:?}"
    );
}

#[test]
fn command_line_depends_on_the_library() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = common::run(
        Command::new(cargo)
            .current_dir(common::repo_root())
            .args([
                "tree",
                "--offline",
                "-p",
                "spirv-lift-cli",
                "-e",
                "normal",
                "--depth",
                "1",
            ])
            .args(["--prefix", "none", "--format", "{p}"]),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for dep in ["spirv-lift v", "clap v", "mimalloc v"] {
        assert!(
            text.contains(dep),
            "spirv-lift-cli should depend on {dep}: {text}"
        );
    }
}
