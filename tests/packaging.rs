//! How the project is packaged: the library a driver embeds (`crates/spirv-lift`) and the
//! LLVM-IR tooling (`crates/spirv-lift-tools`) do not pull in the command line's
//! dependencies, and the tooling sits on top of the translator, never under it.

use std::process::Command;

mod common;

/// The crates `package` depends on (normal and build dependencies, transitively), as
/// `cargo tree` lists them (the package itself first).
fn dependencies_of(package: &str) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = common::run(
        Command::new(cargo)
            .current_dir(common::repo_root())
            .args(["tree", "--offline", "-p", package, "-e", "normal,build"])
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

/// The command line's own crates, which neither library may pull in.
const CLI_ONLY: [&str; 6] = [
    "clap",
    "anyhow",
    "indicatif",
    "libmimalloc-sys",
    "ctrlc",
    "clap_mangen",
];

#[test]
fn library_does_not_depend_on_the_command_line_crates() {
    let deps = dependencies_of("spirv-lift");
    assert!(
        deps.iter().any(|d| d == "rspirv"),
        "cargo tree output does not list the library's own dependencies: {deps:?}"
    );
    let leaked: Vec<&String> = deps
        .iter()
        .filter(|d| CLI_ONLY.contains(&d.as_str()))
        .collect();
    assert!(
        leaked.is_empty(),
        "the library pulls in command-line dependencies: {leaked:?}"
    );
    assert!(
        !deps.iter().any(|d| d == "spirv-lift-tools"),
        "the translator depends on the LLVM-IR tooling: {deps:?}"
    );
}

#[test]
fn tools_depend_on_the_library_and_not_on_the_command_line_crates() {
    let deps = dependencies_of("spirv-lift-tools");
    assert!(
        deps.iter().any(|d| d == "spirv-lift"),
        "spirv-lift-tools should depend on the translator: {deps:?}"
    );
    let leaked: Vec<&String> = deps
        .iter()
        .filter(|d| CLI_ONLY.contains(&d.as_str()))
        .collect();
    assert!(
        leaked.is_empty(),
        "spirv-lift-tools pulls in command-line dependencies: {leaked:?}"
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
    for dep in [
        "spirv-lift v",
        "spirv-lift-tools v",
        "clap v",
        "libmimalloc-sys v",
    ] {
        assert!(
            text.contains(dep),
            "spirv-lift-cli should depend on {dep}: {text}"
        );
    }
}

/// Every package carries what `cargo publish` and a distribution packager read: a
/// description, a license whose text is in the repository, keywords, categories and a
/// README that exists; the CHANGELOG exists and has an entry for the current version.
/// (`repository` is not required: the project has no public address yet.)
#[test]
fn packages_carry_their_metadata() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = common::run(Command::new(cargo).current_dir(common::repo_root()).args([
        "metadata",
        "--offline",
        "--no-deps",
        "--format-version",
        "1",
    ]));
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let packages = meta["packages"].as_array().expect("packages");
    assert!(
        packages.len() >= 2,
        "expected the library and the command line, got {}",
        packages.len()
    );
    let root = common::repo_root();
    assert!(root.join("LICENSE").is_file(), "LICENSE is missing");
    let changelog = std::fs::read_to_string(root.join("CHANGELOG.md")).expect("CHANGELOG.md");
    for p in packages {
        let name = p["name"].as_str().unwrap_or("?");
        let text = |k: &str| p[k].as_str().unwrap_or("").to_string();
        assert!(text("description").len() > 20, "{name}: no description");
        assert_eq!(text("license"), "MIT", "{name}: license");
        for k in ["keywords", "categories"] {
            let n = p[k].as_array().map_or(0, Vec::len);
            assert!(n > 0, "{name}: no {k}");
        }
        let manifest = std::path::PathBuf::from(text("manifest_path"));
        let readme = manifest.parent().expect("package dir").join(text("readme"));
        assert!(
            readme.is_file(),
            "{name}: readme {} missing",
            readme.display()
        );
        let version = text("version");
        assert!(
            changelog.contains(&format!("## {version}")),
            "{name}: CHANGELOG.md has no `## {version}` entry"
        );
    }
}
