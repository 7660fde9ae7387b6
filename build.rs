//! Records the git commit the binary is built from, for `spirv-lift --version`, exports
//! the runtime's functions from the binary for `spirv-lift run`, and writes one test
//! function per filetest for `tests/filetests.rs`.

fn main() {
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=SPIRV_LIFT_GIT_COMMIT={commit}");
    // A new commit changes HEAD (detached) or the branch ref it names.
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
    println!("cargo:rerun-if-changed=build.rs");
    // `spirv-lift run` loads compiled kernels whose runtime calls (`__spirv_ControlBarrier`,
    // subgroup operations) resolve against this executable's `#[no_mangle]` functions
    // (src/run/runtime.rs): export them.
    println!("cargo:rustc-link-arg-bins=-rdynamic");
    filetest_functions();
}

/// One `#[test]` per `tests/filetests/*.spvasm`, named for the file (`vector_math`), so
/// that `cargo test --release --test filetests vector_math` runs that file alone;
/// `tests/filetests.rs` includes the list.
fn filetest_functions() {
    use std::fmt::Write as _;
    println!("cargo:rerun-if-changed=tests/filetests");
    let mut names: Vec<String> = std::fs::read_dir("tests/filetests")
        .map(|dir| {
            dir.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".spvasm"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut out = String::new();
    for name in &names {
        let stem = name.trim_end_matches(".spvasm");
        let ident: String = stem
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let _ = writeln!(
            out,
            "#[test]\nfn {ident}() {{\n    check_filetest({name:?});\n}}"
        );
    }
    let _ = writeln!(out, "const GENERATED: &[&str] = &{names:?};");
    let dir = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let _ = std::fs::write(std::path::Path::new(&dir).join("filetests.rs"), out);
}
