//! Records the git commit the binary is built from, for `spirv-lift --version`, and
//! exports the runtime's functions from the binary for `spirv-lift run`.

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
}
